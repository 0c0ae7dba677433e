"""Every bot of every game under bad input: a decision, a warm-up or a reseeding given a bad value
answers with the library's error, whatever the bot."""

from __future__ import annotations

from typing import Any

import pytest

from ordonnance.core import registry

from .values import BAD_VALUES, failures


def bots_of(game: str) -> list[Any]:
    module = registry.package(game).bots
    kinds = [getattr(module, name) for name in ("Random", "Greedy", "MonteCarlo", "ISMCTS") if hasattr(module, name)]
    return [kind(seed=1) for kind in kinds]


@pytest.mark.parametrize("game", registry.names())
def test_every_bot_refuses_bad_views_and_seeds(game: str) -> None:
    other = next(name for name in registry.names() if name != game)
    foreign = registry.package(other).Game.new(seed=1)
    cases = {}
    for bot in bots_of(game):
        name = type(bot).__name__
        cases[f"{name}.choose(another game's view)"] = lambda bot=bot: bot.choose(foreign.view(foreign.current_player))
        for value, make in BAD_VALUES.items():
            cases[f"{name}.choose({value})"] = lambda bot=bot, make=make: bot.choose(make())
            cases[f"{name}.reseeded({value})"] = lambda bot=bot, make=make: bot.reseeded(make())
            if hasattr(bot, "warm_up") and value != "None":  # None is the default game's start
                cases[f"{name}.warm_up({value})"] = lambda bot=bot, make=make: bot.warm_up(make())

    bad = failures(cases, lambda _name, result: f"accepted, returning {result!r:.60}")  # no value here is valid
    assert len(cases) > 100 and not bad, "\n".join(bad)
