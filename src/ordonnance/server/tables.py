"""The tables being played: each a game rebuilt from its action log, its seats, its connections.

:class:`Tables` is the server's one place that changes a table. A move, a person's or a bot's,
goes through :meth:`Tables.move`: checked (the table is being played, the ply is the game's,
the seat is to act, the action is the game's JSON and legal), stored (the store returns once
the row is durable), then played and sent to every connection of the table, each getting
what its seat may see. Nothing is sent before the store has the move.

When other server processes share the store (PostgreSQL), the store tells of their changes
and the table reads its new moves from the log (:meth:`Tables.refresh`); a move refused by the
log because another process stored that ply first makes the table read the log too, and the
mover is answered with an error and the current state. The game never forks: the log's
(table, ply) key takes one move per ply. A bot's turn is thought for by one process at a time,
the one whose claim of the table the store granted (:meth:`Store.claim`); the others wait, and
take over when that process is gone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import ModuleType
from typing import Any

import attrs

from ordonnance.core import jsonio, registry
from ordonnance.core.cli import hooks_of
from ordonnance.errors import InvalidArgumentError, OrdonnanceError
from ordonnance.core.checks import shown
from ordonnance.server import tokens
from ordonnance.server.limits import check_name
from ordonnance.server.messages import SeatRequest, TableRequest
from ordonnance.server.store import MoveRecord, SeatRecord, Store, StoredAlready, StoreError, TableRecord
from ordonnance.server.thinking import BOT_KINDS, DEFAULT_TIME_LIMIT, bot_pool, decision_seed, think

__all__ = ["Refusal", "Connection", "Table", "Tables", "OUTBOX", "BOT_RETRY_DELAYS", "BOT_FAILURES_TOLD", "CLAIM_RETRY"]

log = logging.getLogger("ordonnance.server")

#: Messages waiting to be sent to one connection; a client that falls further behind is
#: disconnected (it resyncs when it connects again).
OUTBOX = 256
#: The most tables the lobby lists.
LOBBY_SIZE = 200
#: Seconds a bot's seat waits before trying its move again after each failure in a row (its bot
#: raised, its workers died, its move could not be stored); after the last, that figure for ever.
BOT_RETRY_DELAYS = (0.25, 1.0, 4.0, 15.0)
#: Failures in a row after which a bot's table is told (a ``bot_failed`` error to its connections).
BOT_FAILURES_TOLD = 3
#: Seconds between a process's tries to claim a bot's turn that another process holds (so a
#: process that dies while its bot thinks is replaced within about this long).
CLAIM_RETRY = 1.0


class Refusal(Exception):
    """A request or message refused: its error code (:data:`~ordonnance.server.messages.ERROR_CODES`
    for messages) and why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        """What was wrong, as a code."""
        self.message = message
        """Why, for people."""


class Connection:
    """One client connected to a table: its seat (None: a spectator) and its outbox, sent in order
    by :meth:`pump`."""

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]]) -> None:
        self.seat = seat
        """The connection's seat, or None for a spectator."""
        self._send = send
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX + 1)
        self.overflowed = False
        """Whether the client fell so far behind that it is being disconnected."""

    def post(self, text: str) -> None:
        """Queue a message without waiting; a full outbox ends the connection."""
        if self.overflowed:
            return
        if self._outbox.qsize() >= OUTBOX:
            self.overflowed = True
            self._outbox.put_nowait(None)
        else:
            self._outbox.put_nowait(text)

    def stop(self) -> None:
        """End :meth:`pump` once the messages queued are sent."""
        self._outbox.put_nowait(None)

    async def pump(self) -> None:
        """Send the queued messages in order until :meth:`stop` (or an overflow)."""
        while (text := await self._outbox.get()) is not None:
            await self._send(text)


@attrs.define(eq=False)
class Table:
    """A table in memory: its record, its game (rebuilt from the log) and its connections."""

    id: str
    name: str
    """The game's name."""
    module: ModuleType
    rules: Any
    seed: int
    seats: list[SeatRecord]
    status: str
    created: float
    game: Any
    plies: int = 0
    last: dict[str, Any] | None = None
    connections: set[Connection] = attrs.Factory(set)
    lock: asyncio.Lock = attrs.Factory(asyncio.Lock)
    thinking: int | None = None
    """The ply a bot is thinking about, or None."""
    bot_delay: float = 0.0
    """Seconds a bot waits before each move (kept in memory only)."""
    _states: dict[int | None, str] = attrs.Factory(dict)

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` grants at this table, or None (every seat is compared, in constant time)."""
        found = None
        for seat, record in enumerate(self.seats):
            if tokens.matches(token, record.token_hash):
                found = seat
        return found

    def seat_info(self) -> list[dict[str, Any]]:
        """The seats as anyone may see them."""
        return [
            {"kind": s.kind, "name": s.name, "taken": s.kind != "human" or s.token_hash is not None, "time_limit": s.time_limit}
            for s in self.seats
        ]

    def info(self) -> dict[str, Any]:
        """The table as the lobby shows it."""
        return {
            "id": self.id, "game": self.name, "rules": self.rules.to_dict(), "status": self.status,
            "ply": self.plies, "seats": self.seat_info(), "created": self.created,
        }  # fmt: skip

    def state(self, seat: int | None) -> str:
        """The state message for ``seat`` (None: a spectator), as JSON text (kept until the next change)."""
        text = self._states.get(seat)
        if text is None:
            legal = "[]"
            if self.status == "finished":
                view = self.game.to_json()
            elif seat is None:
                view = self.game.public_view_json()
            else:
                view = self.game.view(seat).to_json()
                if self.status == "playing":
                    legal = jsonio.dumps(json.loads(view)["legal_actions"])
            head = jsonio.dumps({
                "type": "state", "table": self.id, "game": self.name, "seat": seat, "ply": self.plies,
                "status": self.status, "current_player": self.game.current_player if self.status == "playing" else None,
                "seats": self.seat_info(),
            })  # fmt: skip
            # the game's JSON texts are compact JSON already: set in as they are, not parsed and written again
            text = f'{head[:-1]},"view":{view},"legal_actions":{legal},"last":{jsonio.dumps(self.last)}}}'
            self._states[seat] = text
        return text

    def post(self, text: str) -> None:
        """Queue ``text`` for every connection of the table."""
        for connection in self.connections:
            connection.post(text)

    def changed(self) -> None:
        """Send every connection its state after a change."""
        self._states.clear()
        for connection in self.connections:
            connection.post(self.state(connection.seat))

    def bot_to_act(self) -> int | None:
        """The seat of the bot to act, if a bot is."""
        if self.status != "playing":
            return None
        seat: int = self.game.current_player
        return seat if self.seats[seat].kind in BOT_KINDS else None


def _status(seats: list[SeatRecord] | tuple[SeatRecord, ...], over: bool) -> str:
    if over:
        return "finished"
    return "open" if any(s.kind == "human" and s.token_hash is None for s in seats) else "playing"


def last_move(name: str, before: Any, after: Any, action: Any, ply: int, seat: int, text: str) -> dict[str, Any]:
    """The ``last`` of a state message: the move ``action`` (``text``, its JSON) that ``seat`` made at
    ``ply``, from the position ``before`` to ``after``, and its ``detail``: what anyone at the table
    sees it do beyond the action (:meth:`ordonnance.core.cli.Hooks.told`: a Black Prince fight's
    totals and their parts, a breakthrough), or None."""
    detail = hooks_of(name).told(before, after, action)
    return {"ply": ply, "seat": seat, "action": json.loads(text), "detail": detail}


def _rebuild(record: TableRecord, moves: list[MoveRecord]) -> Table:
    module = registry.package(record.game)
    rules = module.Rules.from_dict(json.loads(record.rules))
    game = module.Game.new(rules, seed=record.seed)
    last = None
    for ply, move in enumerate(moves):
        if move.ply != ply or move.seat != game.current_player:
            raise StoreError(f"table {record.id!r}: the log's move {ply} is {shown(move)}")
        action = module.action_from_json(move.action)
        before = game.clone() if ply == len(moves) - 1 else None
        game.apply(action)
        if before is not None:
            last = last_move(record.game, before, game, action, ply, move.seat, move.action)
    return Table(
        record.id, record.game, module, rules, record.seed, list(record.seats), record.status, record.created,
        game, len(moves), last, bot_delay=record.bot_delay,
    )  # fmt: skip


class Tables:
    """Every table of the server, the store behind them and the bots' worker processes."""

    def __init__(self, store: Store, bot_workers: int = 2) -> None:
        self.store = store
        """Where the tables and their moves are kept."""
        self.bot_workers = bot_workers
        """Worker processes the bots think in."""
        self._tables: dict[str, Table] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._to_refresh: set[str | None] = set()

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Rebuild every unfinished table from its log, and let its bots think again where they were."""
        self._pool = bot_pool(self.bot_workers)
        await self.store.listen(self._changed)  # before reading: no change of another process is missed
        for record, moves in await self.store.tables(("open", "playing")):
            try:
                table = _rebuild(record, moves)
            except (OrdonnanceError, StoreError, ValueError) as error:
                log.error("table %s cannot be rebuilt from its log: %s", record.id, error)
                continue
            self._tables[table.id] = table
            self._schedule_bot(table)
        log.info("%d unfinished tables resumed", len(self._tables))

    async def stop(self) -> None:
        """Stop the bots and close the store."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        await self.store.close()

    # ------------------------------------------------------------------ lobby

    async def create(self, request: TableRequest) -> Table:
        """A new table, stored before it is returned; refused with :class:`Refusal` when its game,
        rules or seats are not ones the game plays."""
        if request.game not in registry.names():
            raise Refusal("bad_request", f"a game is one of {', '.join(registry.names())}, got {shown(request.game)}")
        module = registry.package(request.game)
        try:
            rules = module.Rules() if request.rules is None else module.Rules.from_dict(request.rules)
        except (OrdonnanceError, TypeError, ValueError) as error:
            raise Refusal("bad_request", f"rules: {error}") from None
        if len(request.seats) != rules.players:
            raise Refusal("bad_request", f"these rules seat {rules.players} players, got {len(request.seats)} seats")
        seats = [_seat(request_seat, i) for i, request_seat in enumerate(request.seats)]
        seed = secrets.randbits(63)
        game = module.Game.new(rules, seed=seed)
        status = _status(seats, game.is_over)
        record = TableRecord(secrets.token_urlsafe(12), request.game, jsonio.dumps(rules.to_dict()), seed,
                             tuple(seats), status, time.time(), request.bot_delay)  # fmt: skip
        await self.store.create_table(record)
        table = Table(record.id, record.game, module, rules, seed, seats, status, record.created, game)
        table.bot_delay = record.bot_delay
        self._tables[table.id] = table
        self._schedule_bot(table)
        return table

    async def join(self, table: Table, seat: int, name: object) -> str:
        """Take the free person's seat ``seat`` of ``table`` as ``name``: its token (the store keeps its hash)."""
        try:
            checked = check_name(name)
        except (OrdonnanceError, TypeError) as error:
            raise Refusal("bad_request", str(error)) from None
        token = tokens.new_token()
        async with table.lock:
            if not 0 <= seat < len(table.seats):
                raise Refusal("not_found", f"table {table.id} has seats 0..{len(table.seats) - 1}, got {shown(seat)}")
            record = table.seats[seat]
            if record.kind != "human" or record.token_hash is not None:
                raise Refusal("taken", f"seat {seat} of table {table.id} is not free")
            seats = list(table.seats)
            seats[seat] = attrs.evolve(record, name=checked, token_hash=tokens.digest(token))
            status = _status(seats, table.game.is_over)
            if not await self.store.take_seat(table.id, seat, tokens.digest(token), checked, status):
                await self._catch_up(table)  # another process gave it
                raise Refusal("taken", f"seat {seat} of table {table.id} is not free")
            table.seats, table.status = seats, status
            table.changed()
        self._schedule_bot(table)
        return token

    async def find(self, table_id: str) -> Table | None:
        """The table ``table_id`` (a finished one is read from the store), or None."""
        table = self._tables.get(table_id)
        if table is None and len(table_id) <= 32:
            found = await self.store.table(table_id)
            if found is not None:
                table = self._tables.setdefault(table_id, _rebuild(*found))
        return table

    async def seat_of(self, table: Table, token: str) -> int | None:
        """The seat ``token`` grants at ``table``, or None; when the store is shared, a token not
        known yet may be a seat another process just gave: the table reads the store once."""
        seat = table.seat_of(token)
        if seat is None and self.store.shared:
            async with table.lock:
                await self._catch_up(table)
            seat = table.seat_of(token)
        return seat

    def lobby(self) -> list[Table]:
        """The tables open or being played, the newest first."""
        live = [t for t in self._tables.values() if t.status != "finished"]
        return sorted(live, key=lambda t: t.created, reverse=True)[:LOBBY_SIZE]

    # ------------------------------------------------------------------ play

    async def move(self, table: Table, seat: int | None, ply: int, action: Any) -> None:
        """Play ``action`` (the game's action JSON data) for ``seat`` at ``ply``, once stored; every
        connection of the table is then sent its state. Refused with :class:`Refusal`, the table
        unchanged, when the move is not one the game takes now."""
        if seat is None:
            raise Refusal("spectator", "a spectator cannot move")
        async with table.lock:
            if table.status != "playing":
                raise Refusal("finished" if table.status == "finished" else "not_started",
                              f"table {table.id} is {table.status}, not being played")  # fmt: skip
            if ply != table.plies:
                raise Refusal("stale_ply", f"the game is at ply {table.plies}, the move was for ply {shown(ply)}")
            if seat != table.game.current_player:
                raise Refusal("not_your_turn", f"seat {table.game.current_player} is to act, not seat {seat}")
            try:
                chosen = table.module.action_from_json(jsonio.dumps(action))
            except (InvalidArgumentError, TypeError, ValueError) as error:
                raise Refusal("bad_action", str(error)) from None
            after = table.game.clone()
            try:
                after.apply(chosen)
            except OrdonnanceError as error:
                raise Refusal("illegal", str(error)) from None
            text = table.module.action_to_json(chosen)
            status = _status(table.seats, after.is_over)
            try:
                await self.store.append(table.id, MoveRecord(ply, seat, text), status)
            except StoredAlready:  # another process stored this ply first: the log has the game
                await self._catch_up(table)
                raise Refusal("stale_ply", f"another move was stored at ply {ply} first; the game is at ply "
                                           f"{table.plies}") from None  # fmt: skip
            except StoreError as error:
                log.error("table %s: %s", table.id, error)
                raise Refusal("unavailable", "the move could not be stored; it was not played") from None
            table.last = last_move(table.name, table.game, after, chosen, ply, seat, text)
            table.game, table.plies, table.status = after, ply + 1, status
            table.changed()
            if status == "finished" and not table.connections:
                del self._tables[table.id]
        self._schedule_bot(table)

    # ------------------------------------------------------------------ other processes

    def _changed(self, table_id: str | None) -> None:
        """The store's notice that another process changed a table (None: any table)."""
        if table_id is None or table_id not in self._to_refresh:
            self._to_refresh.add(table_id)
            task = asyncio.get_running_loop().create_task(self.refresh(table_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def refresh(self, table_id: str | None) -> None:
        """Read what another process stored for ``table_id`` (None: every table in memory): the
        seats, the moves after the table's ply; a table not in memory yet that is not finished
        joins this process's lobby. A bot to act after the moves read is scheduled here too: the
        process whose claim of the table the store grants thinks for it."""
        self._to_refresh.discard(table_id)
        ids = list(self._tables) if table_id is None else [table_id]
        for id in ids:
            table = self._tables.get(id)
            if table is None:
                found = await self.store.table(id)
                if found is None or found[0].status == "finished":
                    continue
                try:
                    table = self._tables.setdefault(id, _rebuild(*found))
                except (OrdonnanceError, StoreError, ValueError) as error:
                    log.error("table %s cannot be rebuilt from its log: %s", id, error)
                    continue
            async with table.lock:
                await self._catch_up(table)
            self._schedule_bot(table)

    async def _catch_up(self, table: Table) -> None:
        """Bring ``table`` (its lock held) to the store's seats and moves; its connections get the state."""
        try:
            found = await self.store.table(table.id, after=table.plies)
        except StoreError as error:
            log.error("table %s cannot be read again: %s", table.id, error)
            return
        if found is None:
            return
        record, moves = found
        changed = list(record.seats) != table.seats
        table.seats = list(record.seats)
        for move in moves:
            try:
                if move.ply != table.plies or move.seat != table.game.current_player:
                    raise StoreError(f"the log's move {table.plies} is {shown(move)}")
                action = table.module.action_from_json(move.action)
                before = table.game.clone()
                table.game.apply(action)
                last = last_move(table.name, before, table.game, action, move.ply, move.seat, move.action)
            except (OrdonnanceError, StoreError, ValueError) as error:  # the table stays where it was
                log.error("table %s: %s", table.id, error)
                break
            table.plies += 1
            table.last = last
            changed = True
        table.status = _status(table.seats, table.game.is_over)
        if changed:
            table.changed()
        if table.status == "finished" and not table.connections and self._tables.get(table.id) is table:
            del self._tables[table.id]

    def attach(self, table: Table, connection: Connection) -> None:
        """Add a connection to a table and send it the state."""
        table.connections.add(connection)
        connection.post(table.state(connection.seat))

    def detach(self, table: Table, connection: Connection) -> None:
        """Remove a connection from its table; a finished table nobody watches leaves memory (the
        store still has it)."""
        table.connections.discard(connection)
        if table.status == "finished" and not table.connections and self._tables.get(table.id) is table:
            del self._tables[table.id]

    def __len__(self) -> int:
        """The tables in memory."""
        return len(self._tables)

    async def in_workers(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` run in the bots' worker processes (the event loop goes on meanwhile)."""
        assert self._pool is not None, "start() creates the pool"
        return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)

    # ------------------------------------------------------------------ bots

    def _schedule_bot(self, table: Table) -> None:
        seat = table.bot_to_act()
        if seat is None or table.thinking == table.plies:
            return
        table.thinking = table.plies
        task = asyncio.get_running_loop().create_task(self._bot_turn(table, seat, table.plies))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_turn(self, table: Table, seat: int, ply: int) -> None:
        """The bot of ``seat`` moves at ``ply``; a failure (its bot raised, its workers died, its move
        could not be stored) is tried again after :data:`BOT_RETRY_DELAYS`, for as long as the bot is
        to act, and the table's connections are told after :data:`BOT_FAILURES_TOLD` in a row. Only
        the process holding the store's claim of the table thinks (:meth:`_claimed`)."""
        record = table.seats[seat]
        seed = decision_seed(table.seed, seat, ply)
        if table.bot_delay:
            await asyncio.sleep(table.bot_delay)
        failures = 0
        try:
            if not await self._claimed(table, seat, ply):
                return
            try:
                view = table.game.view(seat).to_json()  # the seat's view, as a person's client gets it
                while self._bot_is_to_act(table, seat, ply):
                    failure = await self._bot_try(table, seat, ply, seed, view)
                    if failure is None:
                        return
                    failures += 1
                    log.error("table %s seat %d: the %s bot %s (failure %d in a row; trying again)",
                              table.id, seat, record.kind, failure, failures)  # fmt: skip
                    if failures == BOT_FAILURES_TOLD:
                        table.post(jsonio.dumps({
                            "type": "error", "code": "bot_failed",
                            "message": f"seat {seat}'s {record.kind} bot failed {failures} times in a row at ply {ply} "
                                       f"(the last time: it {failure})"[:500] + "; the server goes on trying",
                        }))  # fmt: skip
                    await asyncio.sleep(BOT_RETRY_DELAYS[min(failures, len(BOT_RETRY_DELAYS)) - 1])
            finally:
                await self.store.release(table.id)
        finally:
            if table.thinking == ply:
                table.thinking = None

    async def _claimed(self, table: Table, seat: int, ply: int) -> bool:
        """Claim the table's bot turn from the store, trying every :data:`CLAIM_RETRY` seconds while
        another process holds it: True once claimed with the bot still to act at ``ply`` (the table
        read again from a shared store first: the holder may have moved meanwhile), False (nothing
        held) once the bot no longer is."""
        held = False
        while self._bot_is_to_act(table, seat, ply):
            if await self.store.claim(table.id):
                try:
                    if self.store.shared:
                        async with table.lock:
                            await self._catch_up(table)
                    held = self._bot_is_to_act(table, seat, ply)
                finally:
                    if not held:  # also when cancelled before it was known
                        await self.store.release(table.id)
                return held
            await asyncio.sleep(CLAIM_RETRY)
        return False

    def _bot_is_to_act(self, table: Table, seat: int, ply: int) -> bool:
        return (self._tables.get(table.id) is table and table.status == "playing" and table.plies == ply
                and table.game.current_player == seat)  # fmt: skip

    async def _bot_try(self, table: Table, seat: int, ply: int, seed: int, view: str) -> str | None:
        """One try of a bot's move: None when it is played (or no longer the bot's to play), else
        what went wrong."""
        record = table.seats[seat]
        pool = self._pool
        assert pool is not None, "start() creates the pool"
        try:
            action = await asyncio.get_running_loop().run_in_executor(
                pool, think, table.name, record.kind, seed, record.time_limit, view)  # fmt: skip
        except BrokenProcessPool:  # a worker died (killed, out of memory): start the workers again
            if self._pool is pool:
                log.error("the bots' worker processes died; starting them again")
                self._pool = bot_pool(self.bot_workers)
            return "lost its worker process"
        except Exception as error:  # a bot may fail anyhow: the server goes on
            return f"raised {type(error).__name__}: {error}"
        try:
            await self.move(table, seat, ply, json.loads(action))
        except Refusal as refusal:
            if refusal.code in ("stale_ply", "not_your_turn", "finished", "not_started"):
                # the table moved on meanwhile (another process's bot moved first, on a shared store)
                log.info("table %s seat %d: the %s bot's move was refused: %s", table.id, seat, record.kind, refusal)
                return None
            return f"made a move that was refused ({refusal.code}: {refusal.message})"
        return None


def _seat(request: SeatRequest, index: int) -> SeatRecord:
    if request.kind == "human":
        if request.time_limit is not None or request.name is not None:
            raise Refusal("bad_request", f"seats[{index}]: a person's seat takes no time_limit or name (they give it on joining)")
        return SeatRecord("human")
    if request.kind != "montecarlo" and request.time_limit is not None:
        raise Refusal("bad_request", f"seats[{index}]: only a montecarlo bot takes a time_limit")
    name = request.kind.capitalize() if request.name is None else request.name
    try:
        name = check_name(name)
    except (OrdonnanceError, TypeError) as error:
        raise Refusal("bad_request", f"seats[{index}]: {error}") from None
    limit = (DEFAULT_TIME_LIMIT if request.time_limit is None else request.time_limit) if request.kind == "montecarlo" else None
    return SeatRecord(request.kind, limit, name)
