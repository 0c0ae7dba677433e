"""What the server holds at startup is kept out of the garbage collector's full passes (each would
stall the event loop, and every move waiting on it, for as long as it scans those objects)."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from ordonnance.server.app import create_app  # noqa: E402
from ordonnance.server.store import SQLiteStore  # noqa: E402


def test_the_objects_of_startup_are_frozen_while_the_server_runs(tmp_path: Path) -> None:
    frozen: list[int] = []

    async def run() -> None:
        app = create_app(SQLiteStore(tmp_path / "t.db"), bot_workers=1)
        async with app.router.lifespan_context(app):
            frozen.append(gc.get_freeze_count())
        frozen.append(gc.get_freeze_count())

    assert gc.get_freeze_count() == 0
    asyncio.run(run())
    assert frozen[0] > 10_000, "the modules and tables of startup are frozen"
    assert frozen[1] == 0, "and unfrozen when the server stops"
