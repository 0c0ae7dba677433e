"""What the server holds at startup is kept out of the garbage collector's full passes (each would
stall the event loop, and every move waiting on it, for as long as it scans those objects)."""

from __future__ import annotations

import asyncio
import gc
import time
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


def test_while_the_server_runs_full_passes_come_on_its_schedule_only() -> None:
    """The collector's own full passes are off (a full pass is not started by however many objects
    are made); the schedule's run every ``every`` seconds; the thresholds are as they were after."""
    from ordonnance.server.garbage import YOUNG_PASS_AFTER, collection_schedule

    before = gc.get_threshold()
    full: list[float] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(time.monotonic())

    async def run() -> tuple[int, int]:
        async with collection_schedule(every=0.2):
            assert gc.get_threshold() == (YOUNG_PASS_AFTER, before[1], 2**31 - 1)
            gc.callbacks.append(count)
            try:
                kept = [[i] for i in range(300_000)]  # survivors: young passes move them on, no full pass runs
                on_their_own = len(full)
                await asyncio.sleep(0.5)
            finally:
                gc.callbacks.remove(count)
            del kept
        return on_their_own, len(full)

    on_their_own, scheduled = asyncio.run(run())
    assert on_their_own == 0 and 2 <= scheduled <= 3, (on_their_own, scheduled)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
