"""Every public call of the three OpenSpiel adapters with bad values of every type in each
argument (and in each game parameter): a return or the library's error, never a bare
exception, a hang or a crash. Skipped without OpenSpiel."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

import ordonnance as od
from ordonnance import black_prince, shinobi

from .sweep import NONE, Target, sweep

_GAMES = {
    "ordonnance": (od, od.bots.Random, {"players": 2, "scoring": "territories", "tie_break": "latest_capture",
                                         "claim_proof": "public", "auto_claim": False, "deck": "", "seed": -1}),
    "shinobi": (shinobi, shinobi.bots.Random, {"players": 3, "samurai": "11 11 11 11 11", "ninjas": 3,
                                               "attack": "mandatory", "seed": -1}),
    "black_prince": (black_prince, black_prince.bots.Random, {"army0": "English", "army1": "French", "first": "seat0",
                                                              "max_turns": 200, "deck0": "", "deck1": "", "seed": -1}),
}  # fmt: skip
#: Bad values a parameter may take: -1 for ``seed`` (chance nodes deal), a bool for a bool
#: parameter, "" for a deck (the standard one).
_SEED_OK = {"-1", "np.int64(-1)"}
_PARAMS_OK: dict[str, dict[str | int, set[str]]] = {
    "ordonnance": {"seed": _SEED_OK, "auto_claim": {"True", "np.bool_"}, "deck": {"empty str"}},
    "shinobi": {"seed": _SEED_OK},
    "black_prince": {"seed": _SEED_OK, "deck0": {"empty str"}, "deck1": {"empty str"}},
}


def _adapter(game: str) -> Any:
    return importlib.import_module("ordonnance.openspiel" if game == "ordonnance" else f"ordonnance.{game}.openspiel")


def _targets(game: str) -> list[Target]:
    package, random_bot, params = _GAMES[game]
    adapter = _adapter(game)
    pyspiel = importlib.import_module("pyspiel")
    rules = package.Rules()
    position = package.Game.new(rules, seed=3)
    view = position.view(position.current_player)

    def choose(bot: Any) -> Any:
        return lambda view: bot.choose(view)

    return [
        Target(f"{game}.rules_of", lambda **kw: adapter.rules_of(kw), (), dict(params), ok=_PARAMS_OK[game]),
        Target(f"{game}.load", adapter.load, (rules,), {"seed": 5}, ok={0: NONE, "seed": NONE}),
        Target(f"{game}.state_of", lambda g: adapter.state_of(g), (position,), {}),
        Target(f"{game}.LibraryBot", adapter.LibraryBot, (random_bot(seed=1),), {}),
        Target(f"{game}.LibraryBot.step", lambda state: adapter.LibraryBot(random_bot(seed=1)).step(state),
               (adapter.state_of(position),), {}),  # fmt: skip
        Target(f"{game}.OpenSpielBot", adapter.OpenSpielBot, (pyspiel.make_uniform_random_bot(0, 1),), {"seed": 1},
               ok={"seed": NONE}),  # fmt: skip
        Target(f"{game}.OpenSpielBot.choose", choose(adapter.OpenSpielBot(pyspiel.make_uniform_random_bot(view.seat, 1), seed=1)),
               (view,), {}),  # fmt: skip
    ]


@pytest.mark.parametrize("game", list(_GAMES))
def test_the_openspiel_adapters_answer_bad_values_with_the_librarys_error(game: str) -> None:
    pytest.importorskip("pyspiel")
    assert [failure for target in _targets(game) for failure in sweep(target)] == []
