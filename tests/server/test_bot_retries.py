"""A bot never leaves its table waiting: a bot that raises, or whose move the store refuses, tries
again after a pause; after several failures in a row the table's connections are told, and the
bot goes on trying."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from ordonnance.server import tables as tables_module  # noqa: E402
from ordonnance.server.messages import SERVER_MESSAGE, TableRequest  # noqa: E402
from ordonnance.server.store import MoveRecord, SQLiteStore, StoreError  # noqa: E402
from ordonnance.server.tables import Connection, Table, Tables  # noqa: E402
from ordonnance.server.thinking import think  # noqa: E402

BOTS = TableRequest.model_validate({"game": "black-prince", "seats": [{"kind": "random"}, {"kind": "random"}]})


@pytest.fixture(autouse=True)
def bots_in_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots think in a thread (so a test can make them fail) and retry at once."""
    monkeypatch.setattr(tables_module, "bot_pool", lambda workers: ThreadPoolExecutor(workers))
    monkeypatch.setattr(tables_module, "BOT_RETRY_DELAYS", (0.01, 0.02))


def failing_think(failures: int) -> Any:
    """``think`` that raises on its first ``failures`` calls."""
    calls = [0]

    def bot(*args: Any) -> str:
        calls[0] += 1
        if calls[0] <= failures:
            raise RuntimeError(f"bot failure {calls[0]}")
        return think(*args)

    return bot


async def play_out(tables: Tables, watch: bool = True) -> tuple[Table, list[dict[str, Any]]]:
    """A table of two bots played to its end, and what a spectator connected from the start got."""
    await tables.start()
    received: list[dict[str, Any]] = []

    async def receive(text: str) -> None:
        received.append(json.loads(text))

    watcher = Connection(None, receive)
    pump = asyncio.get_running_loop().create_task(watcher.pump())
    # the table is created with its bots' first turn scheduled: the spectator is there before it runs
    table = await tables.create(BOTS)
    tables.attach(table, watcher)
    for _ in range(2000):
        if table.status == "finished":
            break
        await asyncio.sleep(0.01)
    watcher.stop()
    await pump
    await tables.stop()
    return table, received


def test_a_bot_that_fails_once_moves_on_its_next_try(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    monkeypatch.setattr(tables_module, "think", failing_think(1))
    with caplog.at_level(logging.ERROR, "ordonnance.server"):
        table, received = asyncio.run(play_out(Tables(SQLiteStore(tmp_path / "t.db"), 1)))
    assert table.status == "finished" and table.game.is_over
    assert "raised RuntimeError: bot failure 1 (failure 1 in a row; trying again)" in caplog.text
    assert all(message["type"] == "state" for message in received)  # one failure: nobody is told


def test_a_move_the_store_refuses_once_is_tried_again(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    class RefusingOnce(SQLiteStore):
        refused = 0

        async def append(self, table_id: str, move: MoveRecord, status: str) -> None:
            if not self.refused:
                self.refused += 1
                raise StoreError("the disk is full")
            await super().append(table_id, move, status)

    store = RefusingOnce(tmp_path / "t.db")
    with caplog.at_level(logging.ERROR, "ordonnance.server"):
        table, _ = asyncio.run(play_out(Tables(store, 1)))
    assert store.refused == 1 and table.status == "finished"
    assert "move that was refused (unavailable: the move could not be stored" in caplog.text
    stored = asyncio.run(SQLiteStore(tmp_path / "t.db").table(table.id))
    assert stored is not None and len(stored[1]) == table.plies > 0


def test_repeated_failures_are_told_to_the_table_which_then_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    told = tables_module.BOT_FAILURES_TOLD
    monkeypatch.setattr(tables_module, "think", failing_think(told + 1))
    table, received = asyncio.run(play_out(Tables(SQLiteStore(tmp_path / "t.db"), 1)))
    errors = [message for message in received if message["type"] == "error"]
    assert len(errors) == 1, "told once for a run of failures"
    SERVER_MESSAGE.validate_python(errors[0])
    assert errors[0]["code"] == "bot_failed"
    assert f"failed {told} times in a row at ply 0" in errors[0]["message"]
    assert "bot failure 3" in errors[0]["message"] and errors[0]["message"].endswith("the server goes on trying")
    assert table.status == "finished" and received[-1]["status"] == "finished"
