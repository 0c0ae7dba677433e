"""What the server tests share: playing seats from threads, replaying a finished table, the schemas."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import jsonschema

from ordonnance import client
from ordonnance.core import jsonio, registry
from ordonnance.server.store import MoveRecord, open_store
from ordonnance.server.thinking import BOT_KINDS, decision_seed, think

SCHEMAS = Path(__file__).parents[2] / "docs" / "schemas"
SERVER_MESSAGE = jsonschema.Draft202012Validator(json.loads((SCHEMAS / "ordonnance.server.server.json").read_text()))


def check_schema(message: dict[str, Any]) -> None:
    """The message validates against the server messages' schema in the docs."""
    SERVER_MESSAGE.validate(message)


def positions(final: dict[str, Any]) -> tuple[Any, list[Any]]:
    """The game's module and every position of a finished table (ply 0 to the end), replayed
    from the save its last state shows: the deal's rules and seed and the history."""
    save = final["view"]
    module = registry.package(final["game"])
    game = module.Game.new(module.Rules.from_dict(save["rules"]), seed=save["seed"])
    games = [game.clone()]
    for action in save["history"]:
        game.apply(module.action_from_json(jsonio.dumps(action)))
        games.append(game.clone())
    assert module.Game.from_json(jsonio.dumps(save)) == game
    return module, games


def check_bots_decided(final: dict[str, Any], kinds: tuple[str, ...] = ("random", "greedy")) -> int:
    """Every decision of a seeded bot (Random, Greedy) in a finished table is the one it makes from its
    seat's view alone with its decision's seed; returns how many were checked."""
    module, games = positions(final)
    history = final["view"]["history"]
    checked = 0
    for ply, action in enumerate(history):
        seat = games[ply].current_player
        kind = final["seats"][seat]["kind"]
        if kind in kinds:
            assert kind in BOT_KINDS
            expected = think(final["game"], kind, decision_seed(final["view"]["seed"], seat, ply), None,
                             games[ply].view(seat).to_json())  # fmt: skip
            assert json.loads(expected) == action, (ply, seat, kind)
            checked += 1
    return checked


class SeatPlayer(threading.Thread):
    """A person's seat played from a thread by a library bot, through :meth:`Client.play`."""

    def __init__(self, server: client.Client, seat: client.SeatToken, bot: Any) -> None:
        super().__init__(daemon=True)
        self.server, self.seat, self.bot = server, seat, bot
        self.final: dict[str, Any] | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.final = self.server.play(self.seat, self.bot)
        except BaseException as error:  # reported by result()
            self.error = error

    def result(self, timeout: float = 120.0) -> dict[str, Any]:
        self.join(timeout)
        assert not self.is_alive(), "the seat's game did not end in time"
        if self.error is not None:
            raise self.error
        assert self.final is not None
        return self.final


def stored_moves(db: str, table_id: str) -> list[MoveRecord]:
    """The moves the store at ``db`` holds for ``table_id``, read through a store of the test's own."""

    async def read() -> list[MoveRecord]:
        store = open_store(db)
        try:
            found = await store.table(table_id)
        finally:
            await store.close()
        assert found is not None, table_id
        return found[1]

    return asyncio.run(read())
