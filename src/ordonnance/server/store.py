"""Where tables live: the :class:`Store` interface and its embedded default, :class:`SQLiteStore`.

The action log is the truth. A table's row holds what deals its game (the game, the rules
as JSON, the seed) and its seats; the ``actions`` table holds every move, one row per ply,
keyed by (table, ply). A game is rebuilt by ``Game.new(rules, seed=)`` and its actions in
order; nothing else is stored, so nothing can disagree with the log.

Every method is a coroutine: the server's event loop never waits on the disk. SQLite's
jobs are run together: every job waiting goes into one transaction (group commit: the moves
of many tables share a disk flush), whose statements run in the event loop (they change pages
in memory, a few microseconds each) and whose COMMIT, with ``synchronous=FULL`` (on the disk
when it returns), runs in a thread of its own; each job's coroutine is answered only then.
(A thread that ran the statements too would wait for Python's global lock at each of them
while the event loop works: tens of milliseconds a transaction under load.) The SQL is standard (no SQLite-only statement but the pragmas), so
another database can serve the same interface: :class:`~ordonnance.server.postgres.PostgresStore`
is PostgreSQL's, for several server processes sharing tables. :func:`open_store` opens either.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import attrs

__all__ = [
    "SeatRecord", "TableRecord", "MoveRecord", "Store", "SQLiteStore", "StoreError", "StoredAlready", "STATUSES",
    "open_store", "settle", "failed",
]  # fmt: skip

#: A table's status: waiting for people to take its seats, being played, over.
STATUSES = ("open", "playing", "finished")

_T = TypeVar("_T")


class StoreError(Exception):
    """A write the store refused (a ply already stored, a table that does not exist)."""


class StoredAlready(StoreError):
    """A move refused because its ply is stored already (another process, or an earlier write, stored
    a move there first)."""


@attrs.frozen
class SeatRecord:
    """One seat as stored."""

    kind: str
    """``"human"``, or the bot's kind: ``"random"``, ``"greedy"``, ``"montecarlo"``."""
    time_limit: float | None = None
    """Seconds a bot may think a decision (search bots), else None."""
    name: str | None = None
    """The name shown (a person's, once they take the seat; a bot's)."""
    token_hash: str | None = None
    """The SHA-256 of the seat's token (a person's seat, once taken), else None."""


@attrs.frozen
class TableRecord:
    """One table as stored: what deals its game, and its seats."""

    id: str
    """The table's public id."""
    game: str
    """The game's name in the registry."""
    rules: str
    """The rules as the game's rules JSON (``Rules.to_dict()``)."""
    seed: int
    """The deal's seed (0..2**63-1, so that any SQL BIGINT holds it)."""
    seats: tuple[SeatRecord, ...]
    """The seats, in seat order."""
    status: str
    """One of :data:`STATUSES`."""
    created: float
    """When the table was created (seconds since the epoch)."""
    bot_delay: float = 0.0
    """Seconds the table's bots wait before each move (to watch them play)."""


@attrs.frozen
class MoveRecord:
    """One row of the action log."""

    ply: int
    """The move's number in its game, from 0."""
    seat: int
    """The seat that moved."""
    action: str
    """The action as the game's action JSON."""


class Store(abc.ABC):
    """The server's storage: tables and their action logs. Every method is a coroutine."""

    #: Whether other server processes may change the same tables (they then tell of it through
    #: :meth:`listen`).
    shared = False

    transactions: int
    """Transactions committed so far (group commit: fewer than the writes)."""

    @abc.abstractmethod
    async def create_table(self, table: TableRecord) -> None:
        """Store a new table."""

    @abc.abstractmethod
    async def take_seat(self, table_id: str, seat: int, token_hash: str, name: str, status: str) -> bool:
        """Give the free seat ``seat`` of a table to the holder of a token, set the table's status;
        False (nothing written) when the seat was taken already."""

    @abc.abstractmethod
    async def append(self, table_id: str, move: MoveRecord, status: str) -> None:
        """Store a move and the table's status after it; returns once both are durable.
        A ply stored already raises :class:`StoredAlready`, another refusal :class:`StoreError`."""

    @abc.abstractmethod
    async def tables(self, statuses: tuple[str, ...]) -> list[tuple[TableRecord, list[MoveRecord]]]:
        """The tables in one of ``statuses``, each with its moves in order."""

    @abc.abstractmethod
    async def table(self, table_id: str, after: int = 0) -> tuple[TableRecord, list[MoveRecord]] | None:
        """One table and its moves from ply ``after`` on, or None."""

    async def listen(self, changed: Callable[[str | None], None]) -> None:
        """Call ``changed(table_id)`` (in the event loop) whenever another server process stores a
        change to a table (a move, a seat taken, a table created), once it is committed;
        ``changed(None)`` when any table may have changed unseen. A store that only one process
        uses has nothing to tell: this one does nothing."""

    async def claim(self, table_id: str) -> bool:
        """Whether this process may think for the bot to act at ``table_id``: while one process holds
        a table's claim, the other processes' claims of it fail, until :meth:`release` or until the
        holder is gone (its connection to the database ended: killed, crashed, cut off). Every claim
        that succeeded is released once. A store that only one process uses grants every claim."""
        return True

    async def release(self, table_id: str) -> None:
        """Give up a claim of ``table_id`` that :meth:`claim` granted."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish the writes under way and close."""


log = logging.getLogger("ordonnance.server")

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id VARCHAR(32) PRIMARY KEY, game VARCHAR(32) NOT NULL, rules TEXT NOT NULL, seed BIGINT NOT NULL,
        status VARCHAR(16) NOT NULL, created DOUBLE PRECISION NOT NULL,
        bot_delay DOUBLE PRECISION NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id VARCHAR(32) NOT NULL REFERENCES tables (id), seat INTEGER NOT NULL, kind VARCHAR(16) NOT NULL,
        time_limit DOUBLE PRECISION, name VARCHAR(64), token_hash CHAR(64), PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS actions (
        table_id VARCHAR(32) NOT NULL REFERENCES tables (id), ply INTEGER NOT NULL, seat INTEGER NOT NULL,
        action TEXT NOT NULL, PRIMARY KEY (table_id, ply))""",
    "CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status)",
)

#: The most jobs one transaction takes.
MAX_BATCH = 512
#: Seconds between the SQLite store's checkpoints.
CHECKPOINT_EVERY = 1.0
#: The SQLite store's page cache, in KiB (SQLite's default is 2 MiB): a busy server's log index
#: outgrows 2 MiB within minutes, and every page read again then waits for the file system.
CACHE_KIB = 64 * 1024

_Job = tuple[Callable[[sqlite3.Connection], Any], "asyncio.Future[Any]"]


def settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    """Answer a job's ``future`` with its result (``ok``) or its error, unless its coroutine was cancelled."""
    if future.done():  # its coroutine was cancelled
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def failed(error: BaseException, jobs: int) -> list[tuple[bool, Any]]:
    """The outcomes of ``jobs`` jobs of a transaction that failed with ``error``: nothing of it is stored."""
    return [(False, StoreError(f"the transaction failed: {error}"))] * jobs


class SQLiteStore(Store):
    """The embedded store: one SQLite file (WAL, ``synchronous=FULL``); every job waiting is run in
    one transaction (group commit), whose COMMIT runs in a thread of its own.

    The log's pages are copied from the WAL into the database file (checkpoints) by a thread of
    their own every :data:`CHECKPOINT_EVERY` seconds, not by the COMMIT that fills the WAL past
    a size, as SQLite does by default: a move's acknowledgement never waits for one."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        """The database file (created when missing)."""
        self.transactions = 0
        self._connection = self._open()
        self._pending: list[_Job] = []
        self._flushing: asyncio.Task[None] | None = None
        self._committer = ThreadPoolExecutor(1, thread_name_prefix="ordonnance-store")
        self._closed = False
        self._stopping = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, name="ordonnance-store-checkpoints", daemon=True)
        self._checkpointer.start()

    def _open(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        connection.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's thread does them
        for statement in _SCHEMA:
            connection.execute(statement)
        return connection

    def _checkpoints(self) -> None:
        """Copy the WAL's committed pages into the database file every :data:`CHECKPOINT_EVERY`
        seconds (PASSIVE: writers go on meanwhile), on a connection of this thread's own."""
        connection = sqlite3.connect(self.path, isolation_level=None)
        try:
            while not self._stopping.wait(CHECKPOINT_EVERY):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as error:  # busy or failing: the next one tries again
                    log.warning("checkpoint of %s: %s", self.path, error)
        finally:
            connection.close()

    async def _submit(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        if self._closed:
            raise StoreError("the store is closed")
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._pending.append((work, future))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        """Run the jobs waiting, :data:`MAX_BATCH` at most a transaction, until none waits. A job's
        statements run here, in the event loop (they change SQLite's pages in memory); the COMMIT,
        which writes the log to the disk and waits for it, runs in the committer's thread, while the
        jobs that arrive meanwhile wait for the next transaction (group commit)."""
        try:
            while self._pending:
                batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
                outcomes = self._run(batch)
                if self._connection.in_transaction:
                    commit = self._committer.submit(self._commit)
                    try:
                        await asyncio.wrap_future(commit)
                        self.transactions += 1
                    except asyncio.CancelledError:
                        commit.result()  # the transaction ends before the connection is used again
                        raise
                    except sqlite3.Error as error:  # nothing of the batch is stored
                        self._roll_back()
                        outcomes = failed(error, len(batch))
                for (ok, value), (_, future) in zip(outcomes, batch):
                    settle(future, ok, value)
        finally:
            self._flushing = None

    def _commit(self) -> None:
        """COMMIT the open transaction (in the committer's thread): it returns once on the disk."""
        self._connection.execute("COMMIT")

    def _run(self, batch: list[_Job]) -> list[tuple[bool, Any]]:
        """Run ``batch`` in one transaction left open, each job in its own savepoint (a job that fails
        is undone alone): each job's outcome."""
        outcomes: list[tuple[bool, Any]] = []
        try:
            self._connection.execute("BEGIN")
            for work, _ in batch:
                self._connection.execute("SAVEPOINT job")
                try:
                    outcomes.append((True, work(self._connection)))
                    self._connection.execute("RELEASE SAVEPOINT job")
                except Exception as error:
                    self._connection.execute("ROLLBACK TO SAVEPOINT job")
                    self._connection.execute("RELEASE SAVEPOINT job")
                    outcomes.append((False, error))
        except sqlite3.Error as error:  # the transaction itself failed: nothing of the batch is stored
            self._roll_back()
            return failed(error, len(batch))
        return outcomes

    def _roll_back(self) -> None:
        if self._connection.in_transaction:
            self._connection.execute("ROLLBACK")

    async def create_table(self, table: TableRecord) -> None:
        def work(connection: sqlite3.Connection) -> None:
            try:
                connection.execute(
                    "INSERT INTO tables (id, game, rules, seed, status, created, bot_delay) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table.id, table.game, table.rules, table.seed, table.status, table.created, table.bot_delay),
                )
                connection.executemany(
                    "INSERT INTO seats (table_id, seat, kind, time_limit, name, token_hash) VALUES (?, ?, ?, ?, ?, ?)",
                    [(table.id, i, s.kind, s.time_limit, s.name, s.token_hash) for i, s in enumerate(table.seats)],
                )
            except sqlite3.IntegrityError as error:
                raise StoreError(f"table {table.id!r} cannot be stored: {error}") from None

        await self._submit(work)

    async def take_seat(self, table_id: str, seat: int, token_hash: str, name: str, status: str) -> bool:
        def work(connection: sqlite3.Connection) -> bool:
            taken = connection.execute(
                "UPDATE seats SET token_hash = ?, name = ? WHERE table_id = ? AND seat = ? AND kind = 'human' "
                "AND token_hash IS NULL",
                (token_hash, name, table_id, seat),
            ).rowcount
            if taken != 1:
                return False
            connection.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
            return True

        return await self._submit(work)

    async def append(self, table_id: str, move: MoveRecord, status: str) -> None:
        def work(connection: sqlite3.Connection) -> None:
            try:
                connection.execute(
                    "INSERT INTO actions (table_id, ply, seat, action) VALUES (?, ?, ?, ?)",
                    (table_id, move.ply, move.seat, move.action),
                )
            except sqlite3.IntegrityError as error:
                if "UNIQUE" in str(error):
                    raise StoredAlready(f"table {table_id!r} ply {move.ply} is stored already") from None
                raise StoreError(f"table {table_id!r} ply {move.ply} cannot be stored: {error}") from None
            # the row is written only when the status changes (at a game's end): most moves leave it
            connection.execute("UPDATE tables SET status = ? WHERE id = ? AND status <> ?", (status, table_id, status))

        await self._submit(work)

    @staticmethod
    def _read(connection: sqlite3.Connection, rows: list[Any], after: int = 0) -> list[tuple[TableRecord, list[MoveRecord]]]:
        found = []
        for id, game, rules, seed, status, created, bot_delay in rows:
            seats = tuple(
                SeatRecord(kind, time_limit, name, token_hash)
                for kind, time_limit, name, token_hash in connection.execute(
                    "SELECT kind, time_limit, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (id,)
                )
            )
            moves = [
                MoveRecord(ply, seat, action)
                for ply, seat, action in connection.execute(
                    "SELECT ply, seat, action FROM actions WHERE table_id = ? AND ply >= ? ORDER BY ply", (id, after)
                )
            ]
            found.append((TableRecord(id, game, rules, seed, seats, status, created, bot_delay), moves))
        return found

    async def tables(self, statuses: tuple[str, ...]) -> list[tuple[TableRecord, list[MoveRecord]]]:
        def work(connection: sqlite3.Connection) -> list[tuple[TableRecord, list[MoveRecord]]]:
            marks = ", ".join("?" * len(statuses))
            rows = connection.execute(
                f"SELECT id, game, rules, seed, status, created, bot_delay FROM tables WHERE status IN ({marks}) ORDER BY created, id",
                statuses,
            ).fetchall()
            return self._read(connection, rows)

        return await self._submit(work)

    async def table(self, table_id: str, after: int = 0) -> tuple[TableRecord, list[MoveRecord]] | None:
        def work(connection: sqlite3.Connection) -> list[tuple[TableRecord, list[MoveRecord]]]:
            rows = connection.execute(
                "SELECT id, game, rules, seed, status, created, bot_delay FROM tables WHERE id = ?", (table_id,)
            ).fetchall()
            return self._read(connection, rows, after)

        found = await self._submit(work)
        return found[0] if found else None

    async def close(self) -> None:
        self._closed = True
        if self._flushing is not None:
            await asyncio.gather(self._flushing, return_exceptions=True)
        self._stopping.set()
        await asyncio.to_thread(self._checkpointer.join)
        await asyncio.get_running_loop().run_in_executor(self._committer, self._close)
        self._committer.shutdown()

    def _close(self) -> None:
        """Copy the whole WAL into the database file and close (SQLite empties the WAL then)."""
        with contextlib.suppress(sqlite3.Error):
            self._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._connection.close()


def open_store(db: str | os.PathLike[str]) -> Store:
    """The store at ``db``: a ``postgresql://`` (or ``postgres://``) URL opens a
    :class:`~ordonnance.server.postgres.PostgresStore` (it connects on first use), anything else is
    the path of an SQLite file (created when missing)."""
    text = os.fspath(db)
    if text.startswith(("postgresql://", "postgres://")):
        from ordonnance.server.postgres import PostgresStore

        return PostgresStore(text)
    return SQLiteStore(text)
