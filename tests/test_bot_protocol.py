"""Every game's Bot is the one protocol of ordonnance.core.bots, typed by its game's view and action."""

from __future__ import annotations

import importlib

import pytest

from ordonnance.core.bots import Bot, GameBot

GAMES = ("ordonnance", "ordonnance.shinobi", "ordonnance.black_prince")


class Chooser:
    def choose(self, view: object) -> object:
        return view


@pytest.mark.parametrize("package", GAMES)
def test_each_games_bot_protocol_is_the_shared_one(package: str) -> None:
    bots = importlib.import_module(f"{package}.bots")
    assert issubclass(bots.Bot, GameBot) and bots.Bot.__module__ == bots.__name__
    for bot in (bots.Random(seed=1), bots.Greedy(seed=1), Chooser()):
        assert isinstance(bot, bots.Bot) and isinstance(bot, Bot) and isinstance(bot, GameBot)
    assert not isinstance(object(), bots.Bot) and not isinstance("choose", Bot)
