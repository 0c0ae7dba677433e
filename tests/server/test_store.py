"""The SQLite store: group commit, a ply stored once, a failing write undone alone, tables read back."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from ordonnance.server.store import MoveRecord, SeatRecord, SQLiteStore, StoreError, TableRecord


def _table(table_id: str, status: str = "open") -> TableRecord:
    return TableRecord(table_id, "shinobi", '{"players":3}', 2**63 - 1, (SeatRecord("human"), SeatRecord("greedy", name="Greedy"),
                       SeatRecord("montecarlo", 0.5, "Monty")), status, 1.5)  # fmt: skip


def test_moves_of_many_tables_are_committed_together_and_read_back(tmp_path: Path) -> None:
    async def run() -> None:
        store = SQLiteStore(tmp_path / "t.db")
        await asyncio.gather(*(store.create_table(_table(f"t{i}")) for i in range(10)))
        assert await store.take_seat("t0", 0, "a" * 64, "Ada", "playing")
        assert not await store.take_seat("t0", 0, "b" * 64, "Eve", "playing")  # taken already
        assert not await store.take_seat("t0", 1, "b" * 64, "Eve", "playing")  # a bot's seat
        await asyncio.gather(*(store.append(f"t{i}", MoveRecord(ply, 0, f'{{"n":{ply}}}'), "playing")
                               for ply in range(50) for i in range(10)))  # fmt: skip
        with pytest.raises(StoreError, match="ply 7"):
            await store.append("t3", MoveRecord(7, 1, "{}"), "finished")
        with pytest.raises(StoreError):
            await store.append("nosuchtable", MoveRecord(0, 0, "{}"), "playing")
        found = await store.table("t3")
        assert found is not None
        record, moves = found
        assert record == _table("t3", "playing")  # the refused append set no status
        assert [move.ply for move in moves] == list(range(50)) and moves[7].action == '{"n":7}'
        assert [r.id for r, _ in await store.tables(("playing",))] == [f"t{i}" for i in range(10)]
        assert (await store.table("t0"))[0].seats[0] == SeatRecord("human", None, "Ada", "a" * 64)  # type: ignore[index]
        assert await store.table("t99") is None
        await store.close()

    asyncio.run(run())
    with sqlite3.connect(tmp_path / "t.db") as connection:  # durable, in a file any SQLite reads
        assert connection.execute("SELECT COUNT(*) FROM actions").fetchone() == (500,)
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_writes_share_transactions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes waiting together are committed in one transaction (group commit), not one each."""
    commits = []
    original = SQLiteStore._commit

    def counted(connection: sqlite3.Connection, batch: list[object]) -> None:
        commits.append(len(batch))
        original(connection, batch)  # type: ignore[arg-type]

    monkeypatch.setattr(SQLiteStore, "_commit", staticmethod(counted))

    async def run() -> None:
        store = SQLiteStore(tmp_path / "t.db")
        await store.create_table(_table("t"))
        await asyncio.gather(*(store.append("t", MoveRecord(ply, 0, "{}"), "playing") for ply in range(1000)))
        await store.close()

    asyncio.run(run())
    assert sum(commits) == 1001 and len(commits) < 200


def test_a_store_that_cannot_open_its_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(sqlite3.OperationalError):
        SQLiteStore(tmp_path / "no" / "such" / "folder.db")


def test_a_refused_write_in_a_transaction_leaves_the_others_stored(tmp_path: Path) -> None:
    async def run() -> list[object]:
        store = SQLiteStore(tmp_path / "t.db")
        await store.create_table(_table("t"))
        writes = [store.append("t", MoveRecord(ply, 0, "{}"), "playing") for ply in range(10)]
        writes.insert(5, store.append("t", MoveRecord(2, 1, "{}"), "finished"))  # ply 2 a second time
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
        found = await store.table("t")
        await store.close()
        assert found is not None and [m.ply for m in found[1]] == list(range(10)) and found[0].status == "playing"
        assert all(move.seat == 0 for move in found[1])
        return outcomes

    outcomes = asyncio.run(run())
    assert [type(outcome) for outcome in outcomes].count(StoreError) == 1
