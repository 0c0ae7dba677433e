"""The stores, SQLite and PostgreSQL alike: group commit, a ply stored once, a refused write undone
alone, tables read back; PostgreSQL's notices of other processes' changes, sent on commit only."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path

import attrs
import pytest

from ordonnance.server.store import (
    MoveRecord, SeatRecord, SQLiteStore, Store, StoredAlready, StoreError, TableRecord, open_store,
)  # fmt: skip


def _table(table_id: str, status: str = "open") -> TableRecord:
    return TableRecord(table_id, "shinobi", '{"players":3}', 2**63 - 1, (SeatRecord("human"), SeatRecord("greedy", name="Greedy"),
                       SeatRecord("montecarlo", 0.5, "Monty")), status, 1.5, 0.25 * (int(table_id[1:] or 0) % 4))  # fmt: skip


def test_moves_of_many_tables_are_committed_together_and_read_back(db: str) -> None:
    async def run() -> None:
        store = open_store(db)
        await asyncio.gather(*(store.create_table(_table(f"t{i}")) for i in range(10)))
        assert await store.take_seat("t0", 0, "a" * 64, "Ada", "playing")
        assert not await store.take_seat("t0", 0, "b" * 64, "Eve", "playing")  # taken already
        assert not await store.take_seat("t0", 1, "b" * 64, "Eve", "playing")  # a bot's seat
        await asyncio.gather(*(store.append(f"t{i}", MoveRecord(ply, 0, f'{{"n":{ply}}}'), "playing")
                               for ply in range(50) for i in range(10)))  # fmt: skip
        with pytest.raises(StoredAlready, match="ply 7"):
            await store.append("t3", MoveRecord(7, 1, "{}"), "finished")
        with pytest.raises(StoreError) as refused:
            await store.append("nosuchtable", MoveRecord(0, 0, "{}"), "playing")
        assert not isinstance(refused.value, StoredAlready)
        with pytest.raises(StoreError):
            await store.create_table(_table("t1"))  # an id stored already
        found = await store.table("t3")
        assert found is not None
        record, moves = found
        assert record == _table("t3", "playing")  # the refused append set no status
        assert [move.ply for move in moves] == list(range(50)) and moves[7].action == '{"n":7}'
        later = await store.table("t3", after=45)
        assert later is not None and later[0] == record and [m.ply for m in later[1]] == [45, 46, 47, 48, 49]
        assert [r.id for r, _ in await store.tables(("playing",))] == [f"t{i}" for i in range(10)]
        assert await store.tables(("finished",)) == []
        assert (await store.table("t0"))[0].seats[0] == SeatRecord("human", None, "Ada", "a" * 64)  # type: ignore[index]
        assert await store.table("t99") is None
        await store.close()
        with pytest.raises(StoreError, match="closed"):
            await store.table("t0")

    asyncio.run(run())

    async def count() -> int:  # durable: a new store (a new connection, a new process's) reads it all
        store = open_store(db)
        found = await store.tables(("playing",))
        await store.close()
        return sum(len(moves) for _, moves in found)

    assert asyncio.run(count()) == 500
    if not db.startswith("postgresql"):
        with sqlite3.connect(db) as connection:  # a file any SQLite reads
            assert connection.execute("SELECT COUNT(*) FROM actions").fetchone() == (500,)
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_writes_share_transactions(db: str) -> None:
    """Writes waiting together are committed in one transaction (group commit), not one each."""

    async def run() -> int:
        store = open_store(db)
        await store.create_table(_table("t"))
        before = store.transactions
        await asyncio.gather(*(store.append("t", MoveRecord(ply, 0, "{}"), "playing") for ply in range(1000)))
        found = await store.table("t")
        await store.close()
        assert found is not None and len(found[1]) == 1000
        return store.transactions - before

    transactions = asyncio.run(run())
    assert 1 <= transactions < 200


def test_a_store_that_cannot_open_its_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(sqlite3.OperationalError):
        SQLiteStore(tmp_path / "no" / "such" / "folder.db")


def test_a_postgres_store_that_cannot_connect_says_so() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match="connection string"):
        open_store("postgresql://a:b@[::1")  # an unclosed bracket: not a URL
    store = open_store("postgresql://nobody:secret@127.0.0.1:1/none?connect_timeout=2")
    assert "secret" not in repr(store)

    async def run() -> None:
        with pytest.raises(Exception, match="127.0.0.1"):
            await store.table("t")
        await store.close()

    asyncio.run(run())


def test_a_refused_write_in_a_transaction_leaves_the_others_stored(db: str) -> None:
    async def run() -> list[object]:
        store = open_store(db)
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
    assert [type(outcome) for outcome in outcomes].count(StoredAlready) == 1


def test_a_store_tells_of_other_processes_changes_once_committed(db: str) -> None:
    """PostgreSQL: a store listening hears of every table another store (another server process)
    changes, after the commit, and of no write refused; not of its own. SQLite: one process per
    file, nothing to hear."""

    async def run() -> None:
        here, there = open_store(db), open_store(db)
        heard: list[str | None] = []
        mine: list[str | None] = []
        await here.listen(heard.append)
        await there.listen(mine.append)
        await there.create_table(_table("t"))
        await there.take_seat("t", 0, "a" * 64, "Ada", "playing")
        await asyncio.gather(*(there.append("t", MoveRecord(ply, 0, "{}"), "playing") for ply in range(3)))
        with pytest.raises(StoredAlready):
            await there.append("t", MoveRecord(1, 0, "{}"), "playing")
        deadline = asyncio.get_running_loop().time() + 10
        while here.shared and len(heard) < 3 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        expected = ["t"] * len(heard) if here.shared else []
        assert heard == expected and (not here.shared or 3 <= len(heard) <= 5)  # a transaction's notices may merge
        count = len(heard)
        with pytest.raises(StoredAlready):
            await there.append("t", MoveRecord(0, 0, "{}"), "playing")
        await asyncio.sleep(0.5)
        assert len(heard) == count  # a refused write tells nothing
        assert mine == []  # a store does not hear its own writes
        await here.close()
        await there.close()

    asyncio.run(run())


def test_open_store_reads_the_kind_of_store_from_db(tmp_path: Path) -> None:
    assert isinstance(open_store(tmp_path / "t.db"), SQLiteStore)
    pytest.importorskip("psycopg")
    from ordonnance.server.postgres import PostgresStore

    store: Store = open_store("postgresql://u:p@localhost/db")
    assert isinstance(store, PostgresStore) and store.shared and not SQLiteStore.shared


def test_two_stores_writing_the_same_tables_at_once_store_every_move(db: str) -> None:
    """Two processes' group commits touching the same tables in opposite orders (PostgreSQL may
    roll one back as a deadlock: it is run again): every move is stored."""

    async def run() -> None:
        here, there = open_store(db), open_store(db)
        await asyncio.gather(*(here.create_table(_table(f"t{i}")) for i in range(10)))
        assert await there.table("t0") is not None  # both connected: their transactions overlap
        forward = [here.append(f"t{i}", MoveRecord(ply, 0, "{}"), "playing") for ply in range(0, 40) for i in range(10)]
        backward = [there.append(f"t{i}", MoveRecord(ply, 0, "{}"), "playing")
                    for ply in range(40, 80) for i in reversed(range(10))]  # fmt: skip
        await asyncio.gather(*forward, *backward)
        found = await here.tables(("playing",))
        assert [[m.ply for m in moves] for _, moves in found] == [list(range(80))] * 10
        await here.close()
        await there.close()

    asyncio.run(run())


def test_a_postgres_store_connects_again_when_its_connections_are_lost(postgres_db: str) -> None:
    """The database ends both connections of a store (a restart, a failover): the listening one
    connects again and says that anything may have changed (None), then hears changes again; a
    write whose connection was lost before its commit was sent is run again on a new connection."""
    import psycopg

    from ordonnance.server.postgres import PostgresStore

    async def run() -> None:
        here, there = open_store(postgres_db), open_store(postgres_db)
        assert isinstance(here, PostgresStore)
        heard: list[str | None] = []
        await here.listen(heard.append)
        await here.create_table(_table("t"))
        assert here._listening is not None and here._connection is not None
        pids = [here._listening.info.backend_pid, here._connection.info.backend_pid]
        async with await psycopg.AsyncConnection.connect(postgres_db, autocommit=True) as admin:
            for pid in pids:
                await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        deadline = asyncio.get_running_loop().time() + 10
        while None not in heard and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert heard == [None]
        await there.append("t", MoveRecord(0, 0, "{}"), "playing")
        while len(heard) < 2 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert heard == [None, "t"]
        await here.append("t", MoveRecord(1, 0, "{}"), "playing")  # run again on a new connection
        found = await there.table("t")
        assert found is not None and [m.ply for m in found[1]] == [0, 1]
        await here.close()
        await there.close()

    asyncio.run(run())


def test_a_move_rewrites_the_tables_row_only_when_its_status_changes(tmp_path: Path) -> None:
    """Most moves leave a table's status as it was: its row is not written again (fewer pages a commit)."""
    path = tmp_path / "t.db"

    async def run() -> None:
        store = SQLiteStore(path)
        await store.create_table(_table("t", "playing"))
        with contextlib.closing(sqlite3.connect(path)) as connection:  # counts the writes of the row's status
            connection.executescript(
                "CREATE TABLE writes (status TEXT);"
                "CREATE TRIGGER counted AFTER UPDATE OF status ON tables BEGIN INSERT INTO writes VALUES (NEW.status); END;"
            )
        for ply in range(5):
            await store.append("t", MoveRecord(ply, 0, "{}"), "playing")
        await store.append("t", MoveRecord(5, 0, "{}"), "finished")
        await store.close()

    asyncio.run(run())
    with contextlib.closing(sqlite3.connect(path)) as connection:
        assert connection.execute("SELECT status FROM writes").fetchall() == [("finished",)]
        assert connection.execute("SELECT status FROM tables").fetchall() == [("finished",)]


def test_a_tables_bot_delay_is_stored_and_kept_when_it_is_read_again(db: str) -> None:
    pytest.importorskip("pydantic")  # the tables' module checks requests with it (the web extra)
    from ordonnance.server.tables import Tables

    async def run() -> None:
        store = open_store(db)
        await store.create_table(attrs.evolve(_table("t7", "finished"), bot_delay=2.5))
        tables = Tables(store, bot_workers=1)
        found = await tables.find("t7")  # read again from the store, as after a restart
        assert found is not None and found.bot_delay == 2.5
        await store.close()

    asyncio.run(run())


def test_stores_in_two_schemas_of_one_database_do_not_hear_each_other(postgres_db: str) -> None:
    from tests.server.conftest import postgres_schema

    async def run(other_db: str) -> None:
        here, elsewhere, there = open_store(postgres_db), open_store(other_db), open_store(postgres_db)
        heard: list[str | None] = []
        await here.listen(heard.append)
        await elsewhere.create_table(_table("t1"))  # another schema: another server's tables
        await there.create_table(_table("t2"))
        deadline = asyncio.get_running_loop().time() + 10
        while not heard and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        assert heard == ["t2"]
        for store in (here, elsewhere, there):
            await store.close()

    with postgres_schema() as other:
        asyncio.run(run(other))


def test_the_event_loop_goes_on_while_a_commit_waits_for_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's COMMIT (a slow disk's here: 0.2 s) runs off the event loop; the moves that arrive
    meanwhile wait for the next transaction, which takes them all; a COMMIT that fails stores nothing
    of its transaction and tells each of its writes."""
    commit = SQLiteStore._commit

    def slow_commit(self: SQLiteStore) -> None:
        time.sleep(0.2)
        commit(self)

    monkeypatch.setattr(SQLiteStore, "_commit", slow_commit)

    async def run() -> None:
        store = SQLiteStore(tmp_path / "t.db")
        await store.create_table(_table("t1"))
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticking = asyncio.get_running_loop().create_task(tick())
        first = asyncio.get_running_loop().create_task(store.append("t1", MoveRecord(0, 0, "{}"), "playing"))
        await asyncio.sleep(0.05)  # its transaction is committing: these wait, and go in one more
        await asyncio.gather(first, *(store.append("t1", MoveRecord(ply, 0, "{}"), "playing") for ply in range(1, 20)))
        assert store.transactions == 3 and ticks >= 20, (store.transactions, ticks)

        def failing_commit(self: SQLiteStore) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(SQLiteStore, "_commit", failing_commit)
        refused = await asyncio.gather(*(store.append("t1", MoveRecord(ply, 0, "{}"), "playing") for ply in (20, 21)),
                                       return_exceptions=True)  # fmt: skip
        assert all(isinstance(error, StoreError) and "disk I/O error" in str(error) for error in refused), refused
        monkeypatch.setattr(SQLiteStore, "_commit", commit)
        found = await store.table("t1")
        assert found is not None and [move.ply for move in found[1]] == list(range(20))
        await store.append("t1", MoveRecord(20, 0, "{}"), "playing")  # the store goes on
        ticking.cancel()
        await store.close()

    asyncio.run(run())


def test_sqlite_checkpoints_run_in_a_thread_of_their_own_not_in_a_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A COMMIT never copies the WAL into the database file (a move's acknowledgement would wait
    for it): the checkpointer's thread does, every CHECKPOINT_EVERY seconds; closing the store
    empties the WAL."""
    import ordonnance.server.store as store_module

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 0.2)
    path = tmp_path / "t.db"

    def rows_in_the_database_file() -> int:  # the file alone, without its WAL
        copy = tmp_path / "copy.db"
        copy.write_bytes(path.read_bytes())
        with contextlib.closing(sqlite3.connect(copy)) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM actions").fetchone()[0])

    async def run() -> tuple[int, int]:
        store = SQLiteStore(path)
        assert store._connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0, "commits never checkpoint"
        await store.create_table(_table("t1"))
        await asyncio.sleep(0.5)
        before = rows_in_the_database_file()
        for ply in range(200):
            await store.append("t1", MoveRecord(ply, 0, "{}"), "playing")
        await asyncio.sleep(0.6)
        later = rows_in_the_database_file()
        await store.close()
        return before, later

    before, later = asyncio.run(run())
    assert (before, later) == (0, 200), "the checkpointer copied the moves into the file"
    wal = tmp_path / "t.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0, "closed: the WAL is empty"
