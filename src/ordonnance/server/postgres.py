"""PostgreSQL behind the :class:`~ordonnance.server.store.Store` interface: several server processes
(on one machine or many) serve the same tables.

psycopg 3 in asyncio. The schema is :mod:`~ordonnance.server.store`'s (standard SQL), created
when missing. Writes go through one connection and one task that takes every job waiting at
once into one transaction (group commit, as :class:`~ordonnance.server.store.SQLiteStore` does)
and answers each job once the commit has returned: with ``synchronous_commit = on`` the commit
is on the disk by then. Each write is one statement that a refusal does not make fail (a ply
stored already is ``ON CONFLICT DO NOTHING``, a missing table inserts nothing), so a refused
write aborts nothing else and needs no savepoint: a move is one round trip to the database.

A write that changes a table also runs ``pg_notify`` in its transaction, on the channel of
its schema (:func:`channel_of`) with the table's id: PostgreSQL delivers it to every process that ``LISTEN``\\ s,
and only once the transaction commits. :meth:`PostgresStore.listen` passes on the notices of
the other processes' writes; the server then reads the table's new moves from the log.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psycopg
from psycopg import sql

from ordonnance.server.store import (
    _SCHEMA, MAX_BATCH, MoveRecord, settle, SeatRecord, Store, StoredAlready, StoreError, TableRecord, failed,
)  # fmt: skip
from ordonnance.server.thinking import hashed_seed

__all__ = ["PostgresStore", "CHANNEL", "channel_of", "claim_key"]

log = logging.getLogger("ordonnance.server")

#: The channel the server processes tell each other of changed tables on (the payload: a table's id).
CHANNEL = "ordonnance_tables"
#: The advisory lock taken while the schema is created, so processes starting together do not race.
#: How many times a transaction that failed before its COMMIT is tried in all (a lost connection, a deadlock).
ATTEMPTS = 6
_SCHEMA_LOCK = 0x6F72646F

_T = TypeVar("_T")
_Connection = psycopg.AsyncConnection[Any]
_Work = Callable[[_Connection], Awaitable[Any]]
_Job = tuple[_Work, "asyncio.Future[Any]"]
_Found = list[tuple[TableRecord, list[MoveRecord]]]


def _hide_password(dsn: str) -> str:
    try:
        parts = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "<a PostgreSQL URL that cannot be read>"
    return ", ".join(f"{key}={'***' if key == 'password' else value}" for key, value in parts.items())


def channel_of(schema: str) -> str:
    """The notices' channel of the tables in ``schema``: :data:`CHANNEL` and the schema's name, so that
    servers on one database but in different schemas do not hear each other (at most 63 bytes, the
    length of a PostgreSQL name)."""
    return f"{CHANNEL}_{schema}".encode()[:63].decode("utf-8", "ignore")


def claim_key(channel: str, table_id: str) -> int:
    """The advisory lock's key of the bot's turns at ``table_id`` in the schema whose notices go on
    ``channel`` (PostgreSQL's advisory locks are the database's, not a schema's): :func:`hashed_seed`
    of both, as the signed 64-bit number a PostgreSQL ``bigint`` holds."""
    key = hashed_seed(channel, table_id)
    return key - (1 << 64) if key >= 1 << 63 else key


class PostgresStore(Store):
    """The tables in a PostgreSQL database at ``dsn`` (``"postgresql://user:password@host/db"``),
    shared by every server process that opens it. It connects on first use, in the event loop."""

    shared = True

    def __init__(self, dsn: str) -> None:
        try:
            psycopg.conninfo.conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as error:
            raise StoreError(f"not a PostgreSQL connection string: {error}") from None
        self.dsn = dsn
        """The connection string."""
        self.transactions = 0
        self.channel = CHANNEL
        """The channel of this store's notices (:func:`channel_of` its schema, once connected)."""
        self._jobs: asyncio.Queue[_Job | None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._listening: _Connection | None = None
        self._connection: _Connection | None = None
        self._own: set[int] = set()  # the writer's backend pids: notices of our own writes are ignored
        self._starting: asyncio.Lock | None = None
        self._claims: _Connection | None = None  # holds the bot turns' advisory locks (a session's own)
        self._claiming: asyncio.Lock | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"PostgresStore({_hide_password(self.dsn)!r})"

    # ------------------------------------------------------------------ connections

    async def _connect(self) -> _Connection:
        if self._connection is None or self._connection.closed or self._connection.broken:
            connection = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            await connection.execute("SET synchronous_commit = on")  # a commit returns once it is on the disk
            self._connection = connection
            self._own.add(connection.info.backend_pid)
        return self._connection

    async def _start(self) -> asyncio.Queue[_Job | None]:
        if self._closed:
            raise StoreError("the store is closed")
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._jobs is None:
                connection = await self._connect()
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                    for statement in _SCHEMA:
                        await connection.execute(statement)
                    cursor = await connection.execute("SELECT current_schema()")
                    row = await cursor.fetchone()
                    self.channel = channel_of(str(row[0]) if row is not None else "")
                self._jobs = asyncio.Queue()
                self._writer = asyncio.get_running_loop().create_task(self._write(self._jobs))
        return self._jobs

    async def _write(self, jobs: asyncio.Queue[_Job | None]) -> None:
        while True:
            first = await jobs.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH and not jobs.empty():
                job = jobs.get_nowait()
                if job is None:
                    stop = True
                    break
                batch.append(job)
            await self._commit(batch)
            if stop:
                return

    async def _commit(self, batch: list[_Job]) -> None:
        """Run ``batch`` in one transaction (again, up to :data:`ATTEMPTS` times in all, after a random
        pause, when it failed before its commit), then answer each job."""
        for attempt in range(1, ATTEMPTS + 1):
            outcomes: list[tuple[bool, Any]] = []
            committing = False
            try:
                connection = await self._connect()
                await connection.execute("BEGIN")
                for work, _ in batch:
                    try:
                        outcomes.append((True, await work(connection)))
                    except StoreError as error:  # refused before anything was written
                        outcomes.append((False, error))
                committing = True
                await connection.execute("COMMIT")
                self.transactions += 1
                break
            except (psycopg.Error, OSError) as error:
                outcomes = failed(error, len(batch))
                await self._roll_back()
                # Nothing is stored unless the COMMIT was sent: a lost connection (the database
                # restarted) or a deadlock with another process's transaction is run again.
                if not committing and attempt < ATTEMPTS:
                    log.warning("PostgreSQL: a transaction is run again (attempt %d): %s", attempt, error)
                    # Two processes' transactions that deadlocked would meet again if both ran at once.
                    await asyncio.sleep(random.uniform(0.005, 0.05) * attempt)
                    continue
                log.error("PostgreSQL: a transaction failed: %s", error)
                break
        for (ok, value), (_, future) in zip(outcomes, batch):
            settle(future, ok, value)

    async def _roll_back(self) -> None:
        connection = self._connection
        if connection is not None and not connection.closed and not connection.broken:
            try:
                await connection.execute("ROLLBACK")
            except (psycopg.Error, OSError):
                await connection.close()

    async def _submit(self, work: Callable[[_Connection], Awaitable[_T]]) -> _T:
        jobs = await self._start()
        if self._closed:
            raise StoreError("the store is closed")
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        jobs.put_nowait((work, future))
        return await future

    # ------------------------------------------------------------------ writes

    async def create_table(self, table: TableRecord) -> None:
        async def work(connection: _Connection) -> None:
            cursor = await connection.execute(
                "INSERT INTO tables (id, game, rules, seed, status, created, bot_delay) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING",
                (table.id, table.game, table.rules, table.seed, table.status, table.created, table.bot_delay),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"table {table.id!r} cannot be stored: its id is taken")
            async with connection.cursor() as seats:
                await seats.executemany(
                    "INSERT INTO seats (table_id, seat, kind, time_limit, name, token_hash) VALUES (%s, %s, %s, %s, %s, %s)",
                    [(table.id, i, s.kind, s.time_limit, s.name, s.token_hash) for i, s in enumerate(table.seats)],
                )
            await connection.execute("SELECT pg_notify(%s, %s)", (self.channel, table.id))

        await self._submit(work)

    async def take_seat(self, table_id: str, seat: int, token_hash: str, name: str, status: str) -> bool:
        async def work(connection: _Connection) -> bool:
            cursor = await connection.execute(
                "WITH taken AS (UPDATE seats SET token_hash = %s, name = %s WHERE table_id = %s AND seat = %s "
                "AND kind = 'human' AND token_hash IS NULL RETURNING table_id), "
                "updated AS (UPDATE tables SET status = %s WHERE id IN (SELECT table_id FROM taken)) "
                "SELECT pg_notify(%s, table_id) FROM taken",
                (token_hash, name, table_id, seat, status, self.channel),
            )
            return len(await cursor.fetchall()) == 1

        return await self._submit(work)

    async def append(self, table_id: str, move: MoveRecord, status: str) -> None:
        async def work(connection: _Connection) -> None:
            cursor = await connection.execute(
                "WITH moved AS (INSERT INTO actions (table_id, ply, seat, action) SELECT id, %s, %s, %s FROM tables "
                "WHERE id = %s ON CONFLICT (table_id, ply) DO NOTHING RETURNING table_id), "
                "updated AS (UPDATE tables SET status = %s WHERE id IN (SELECT table_id FROM moved) AND status <> %s) "
                "SELECT pg_notify(%s, table_id) FROM moved",
                (move.ply, move.seat, move.action, table_id, status, status, self.channel),
            )
            if len(await cursor.fetchall()) == 1:
                return
            cursor = await connection.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,))
            if await cursor.fetchone() is None:
                raise StoreError(f"table {table_id!r} ply {move.ply} cannot be stored: no such table")
            raise StoredAlready(f"table {table_id!r} ply {move.ply} is stored already")

        await self._submit(work)

    # ------------------------------------------------------------------ reads

    @staticmethod
    async def _read(connection: _Connection, rows: list[Any], after: int = 0) -> _Found:
        ids = [row[0] for row in rows]
        seats: dict[str, list[SeatRecord]] = {id: [] for id in ids}
        moves: dict[str, list[MoveRecord]] = {id: [] for id in ids}
        cursor = await connection.execute(
            "SELECT table_id, kind, time_limit, name, token_hash FROM seats WHERE table_id = ANY(%s) "
            "ORDER BY table_id, seat", (ids,),
        )  # fmt: skip
        for table_id, kind, time_limit, name, token_hash in await cursor.fetchall():
            seats[table_id].append(SeatRecord(kind, time_limit, name, token_hash))
        cursor = await connection.execute(
            "SELECT table_id, ply, seat, action FROM actions WHERE table_id = ANY(%s) AND ply >= %s "
            "ORDER BY table_id, ply", (ids, after),
        )  # fmt: skip
        for table_id, ply, seat, action in await cursor.fetchall():
            moves[table_id].append(MoveRecord(ply, seat, action))
        return [
            (TableRecord(id, game, rules, seed, tuple(seats[id]), status, created, bot_delay), moves[id])
            for id, game, rules, seed, status, created, bot_delay in rows
        ]

    async def tables(self, statuses: tuple[str, ...]) -> _Found:
        async def work(connection: _Connection) -> _Found:
            cursor = await connection.execute(
                "SELECT id, game, rules, seed, status, created, bot_delay FROM tables WHERE status = ANY(%s) ORDER BY created, id",
                (list(statuses),),
            )
            return await self._read(connection, await cursor.fetchall())

        return await self._submit(work)

    async def table(self, table_id: str, after: int = 0) -> tuple[TableRecord, list[MoveRecord]] | None:
        async def work(connection: _Connection) -> _Found:
            cursor = await connection.execute(
                "SELECT id, game, rules, seed, status, created, bot_delay FROM tables WHERE id = %s", (table_id,)
            )
            return await self._read(connection, await cursor.fetchall(), after)

        found = await self._submit(work)
        return found[0] if found else None

    # ------------------------------------------------------------------ bots' turns

    async def claim(self, table_id: str) -> bool:
        """A session-level advisory lock (:func:`claim_key`) on a connection of the claims' own:
        PostgreSQL ends it with the session, so a process that dies leaves its tables' bots to
        the others. A lost connection lost its locks too: the claim fails, and the next one connects
        again (a turn its holder thought for meanwhile may then be thought for twice; the log's key
        stores one of the moves)."""
        await self._start()
        if self._claiming is None:
            self._claiming = asyncio.Lock()
        async with self._claiming:
            try:
                if self._claims is None or self._claims.closed or self._claims.broken:
                    self._claims = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                cursor = await self._claims.execute("SELECT pg_try_advisory_lock(%s)", (claim_key(self.channel, table_id),))
                row = await cursor.fetchone()
            except (psycopg.Error, OSError) as error:
                log.error("PostgreSQL: a bot's turn cannot be claimed: %s", error)
                return False
            return bool(row is not None and row[0])

    async def release(self, table_id: str) -> None:
        if self._claiming is None:
            return
        async with self._claiming:
            if self._claims is None or self._claims.closed or self._claims.broken:
                return  # its session, and the lock with it, is gone
            try:
                await self._claims.execute("SELECT pg_advisory_unlock(%s)", (claim_key(self.channel, table_id),))
            except (psycopg.Error, OSError) as error:
                log.error("PostgreSQL: a bot's turn cannot be released: %s", error)
                await self._claims.close()  # which releases every lock it held

    # ------------------------------------------------------------------ notices

    async def listen(self, changed: Callable[[str | None], None]) -> None:
        """Call ``changed(table_id)`` for every change another process commits (the notices of
        :data:`CHANNEL`), from a connection of its own that LISTENs from now on; when that
        connection is lost, it connects again and calls ``changed(None)``: any table may have
        changed meanwhile."""
        await self._start()
        self._listening = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        await self._listening.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        self._listener = asyncio.get_running_loop().create_task(self._listen(self._listening, changed))

    async def _listen(self, connection: _Connection, changed: Callable[[str | None], None]) -> None:
        while True:
            try:
                async with connection:
                    async for notice in connection.notifies():
                        if notice.pid not in self._own:
                            changed(notice.payload)
            except (psycopg.Error, OSError) as error:
                log.error("PostgreSQL: the connection listening for other processes' moves was lost: %s", error)
            while True:
                await asyncio.sleep(1.0)
                try:
                    connection = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                    await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self._listening = connection
                    break
                except (psycopg.Error, OSError) as error:
                    log.error("PostgreSQL: cannot listen again yet: %s", error)
            changed(None)

    async def close(self) -> None:
        self._closed = True
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        if self._jobs is not None and self._writer is not None:
            self._jobs.put_nowait(None)
            await asyncio.gather(self._writer, return_exceptions=True)
        if self._connection is not None:
            await self._connection.close()
        if self._claims is not None:
            await self._claims.close()
