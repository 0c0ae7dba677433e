"""Replays and reviews of finished tables, worked out in the bots' worker processes.

A finished table's **replay** is its moves and every position from the deal to the end as the
whole game's JSON (``Game.to_json()``: every card shown, which only the end of the game allows).

Its **review** is each seat's chance to win after every move, as that seat could judge it: for
each position (ply 0 to the end) and each seat, :data:`PLAYOUTS` playouts, each a game dealt
again from the seat's view (``view.sample_game``: what the seat cannot see dealt at random,
what it sees kept) and played to its end with the game's ``Greedy`` bot in every seat, the way
the ``MonteCarlo`` bot judges a position (it deals again what it cannot see and plays greedy
rollouts). The chance is the share of those playouts the seat won (a draw wins for nobody),
with its 95% Wilson interval; at the end it is the game's result, exact. Each playout's seeds
come from the table's seed, the ply, the seat and the playout's number (:func:`playout_seed`),
so a review is the same wherever it is computed and no two playouts share a stream.

:class:`Reviews` computes a table's replay and review once, one seat's playouts of one position per worker task
(the server's event loop never waits on them; one review task
is in the workers at a time, so a bot waits for one at most), and keeps them in memory (computed again
after a restart: they follow from the stored action log).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, HTTPException, Path
from fastapi.responses import JSONResponse

from ordonnance.core import jsonio, registry
from ordonnance.core.play import play_to_the_end
from ordonnance.core.stats import wilson
from ordonnance.server.messages import ReplayReply, ReviewProgress, ReviewReply
from ordonnance.server.thinking import hashed_seed

__all__ = ["PLAYOUTS", "KEPT", "playout_seed", "position_wins", "replay_positions", "chances", "Reviews", "add_routes"]

log = logging.getLogger("ordonnance.server")

#: Playouts per seat and position.
PLAYOUTS = 16
#: Finished tables whose replay and review stay in memory (the least recently asked leave first).
KEPT = 256


def playout_seed(table_seed: int, ply: int, seat: int, playout: int, role: str) -> int:
    """The seed of one part of one review playout: ``role`` ``"deal"`` (the deal again from
    ``seat``'s view at ``ply``) or ``"bot<k>"`` (seat k's Greedy bot), in 0..2**64-1; a hash,
    so playouts of different tables, plies, seats and roles draw from unrelated streams."""
    return hashed_seed("ordonnance.server.review", table_seed, ply, seat, playout, role)


def position_wins(game_name: str, position_json: str, table_seed: int, ply: int, seat: int, playouts: int) -> int:
    """How many of its ``playouts`` playouts from its view of the position (the game's JSON at
    ``ply``) ``seat`` won. Runs in a worker process."""
    module = registry.package(game_name)
    game = module.Game.from_json(position_json)
    view, players = game.view(seat), game.players
    wins = 0
    for playout in range(playouts):
        deal = playout_seed(table_seed, ply, seat, playout, "deal")
        sample = view.sample_game(seed=deal)
        bots = [module.bots.Greedy(seed=playout_seed(table_seed, ply, seat, playout, f"bot{k}")) for k in range(players)]
        play_to_the_end(sample, bots, index=playout, deal_seed=deal)
        wins += sample.winner == seat
    return wins


def replay_positions(game_name: str, rules: dict[str, Any], seed: int, history: list[Any]) -> tuple[list[str], list[int]]:
    """Every position of a game, from its deal (``Rules.from_dict(rules)``, ``seed``) through
    each action of ``history`` (the game's action JSON data), as the game's JSON; and the seat
    that took each action."""
    module = registry.package(game_name)
    game = module.Game.new(module.Rules.from_dict(rules), seed=seed)
    positions, seats = [game.to_json()], []
    for action in history:
        seats.append(int(game.current_player))
        game.apply(module.action_from_json(jsonio.dumps(action)))
        positions.append(game.to_json())
    return positions, seats


def chances(wins: list[int], playouts: int) -> list[dict[str, Any]]:
    """Each seat's chance from its wins in ``playouts`` playouts, with its 95% Wilson interval."""
    found = []
    for seat, won in enumerate(wins):
        low, high = wilson(won, playouts)
        found.append({"seat": seat, "won": won, "playouts": playouts, "chance": won / playouts, "low": low, "high": high})
    return found


def _final_chances(winner: int | None, players: int) -> list[dict[str, Any]]:
    exact = [1.0 if seat == winner else 0.0 for seat in range(players)]
    return [{"seat": seat, "won": 0, "playouts": 0, "chance": c, "low": c, "high": c} for seat, c in enumerate(exact)]


Worker = Callable[..., Awaitable[Any]]


class Reviews:
    """The replays and reviews of finished tables, each computed once by ``in_workers``
    (``await in_workers(function, *args)`` runs a function in the bots' worker processes) and kept
    in memory for the :data:`KEPT` tables last asked."""

    def __init__(self, in_workers: Worker, playouts: int = PLAYOUTS) -> None:
        self.in_workers = in_workers
        """Runs a function in the worker processes."""
        self.playouts = playouts
        """Playouts per seat and position."""
        self._replays: OrderedDict[str, asyncio.Task[dict[str, Any]]] = OrderedDict()
        self._reviews: OrderedDict[str, asyncio.Task[dict[str, Any]]] = OrderedDict()
        self._progress: dict[str, int] = {}
        self._turn = asyncio.Lock()

    @staticmethod
    def _kept(cache: OrderedDict[str, asyncio.Task[dict[str, Any]]], key: str,
              make: Callable[[], Awaitable[dict[str, Any]]]) -> asyncio.Task[dict[str, Any]]:  # fmt: skip
        task = cache.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):  # a failure is tried again
            task = asyncio.ensure_future(make())
            cache[key] = task
        cache.move_to_end(key)
        while len(cache) > KEPT:
            oldest, dropped = cache.popitem(last=False)
            if not dropped.done():  # still computing: keep it
                cache[oldest] = dropped
                break
        return task

    async def replay(self, table: Any) -> dict[str, Any]:
        """A finished table's replay: its moves and every position's whole-game JSON."""

        async def make() -> dict[str, Any]:
            history = json.loads(table.game.to_json())["history"]
            texts, seats = await self.in_workers(replay_positions, table.name, table.rules.to_dict(), table.seed, history)
            positions = [json.loads(text) for text in texts]
            moves = [{"ply": ply, "seat": seat, "action": action} for ply, (seat, action) in enumerate(zip(seats, history))]
            return {"table": table.id, "game": table.name, "moves": moves, "positions": positions}

        return await self._kept(self._replays, table.id, make)

    def progress(self, table: Any) -> tuple[int, int] | None:
        """Positions reviewed and to review while a review is computed, else None."""
        task = self._reviews.get(table.id)
        if task is None or task.done():
            return None
        return self._progress.get(table.id, 0), table.plies + 1

    def review(self, table: Any) -> asyncio.Task[dict[str, Any]]:
        """A finished table's review (started now if it was not computed yet)."""

        async def make() -> dict[str, Any]:
            replay = await self.replay(table)
            positions = replay["positions"]
            self._progress[table.id] = 0
            plies: list[dict[str, Any] | None] = [None] * len(positions)

            async def one(ply: int) -> None:
                text = jsonio.dumps(positions[ply])
                wins = []
                for seat in range(table.game.players):
                    async with self._turn:  # one review task in the workers at a time: bots wait for one at most
                        wins.append(await self.in_workers(position_wins, table.name, text, table.seed, ply, seat, self.playouts))
                plies[ply] = {"ply": ply, "chances": chances(wins, self.playouts)}
                self._progress[table.id] += 1

            try:
                for ply in range(len(positions) - 1):
                    await one(ply)
            finally:
                self._progress.pop(table.id, None)
            plies[-1] = {"ply": len(positions) - 1, "chances": _final_chances(table.game.winner, table.game.players)}
            return {"table": table.id, "game": table.name, "playouts": self.playouts, "plies": plies}

        return self._kept(self._reviews, table.id, make)


def add_routes(app: FastAPI, tables: Any, playouts: int = PLAYOUTS) -> Reviews:
    """Add a finished table's save, replay and review to the HTTP API of ``app`` over ``tables``
    (:class:`~ordonnance.server.tables.Tables`); before the end each answers 409."""
    reviews = Reviews(tables.in_workers, playouts)

    async def finished(table_id: str) -> Any:
        table = await tables.find(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r:.40}")
        if table.status != "finished":
            raise HTTPException(409, f"table {table.id} is {table.status}: its save, replay and review come once it is over")
        return table

    @app.get("/api/tables/{table_id}/save")
    async def save(table_id: str = Path(max_length=32)) -> dict[str, Any]:
        """A finished table's save: the whole game's JSON (``Game.to_json()``), every card shown."""
        table = await finished(table_id)
        data: dict[str, Any] = json.loads(table.game.to_json())
        return data

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str = Path(max_length=32)) -> ReplayReply:
        """A finished table move by move: its moves and every position, every card shown."""
        return ReplayReply(**await reviews.replay(await finished(table_id)))

    @app.get("/api/tables/{table_id}/review", response_model=ReviewReply,
             responses={202: {"model": ReviewProgress, "description": "Being computed: ask again."}})  # fmt: skip
    async def review(table_id: str = Path(max_length=32)) -> ReviewReply | JSONResponse:
        """A finished table's review: every seat's chance to win after every move, from its own view
        (playouts dealt again from the seat's view, played out by Greedy bots), with 95% intervals.
        Computed once, in the bots' worker processes: 202 with the progress until it is ready."""
        table = await finished(table_id)
        task = reviews.review(table)
        if not task.done():
            done, positions = reviews.progress(table) or (0, table.plies + 1)
            return JSONResponse(ReviewProgress(table=table.id, done=done, positions=positions).model_dump(), status_code=202)
        if task.exception() is not None:
            log.error("table %s: its review failed: %r", table.id, task.exception())
            raise HTTPException(500, "the review failed; asking again tries again")
        return ReviewReply(**task.result())

    return reviews
