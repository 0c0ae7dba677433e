"""The registry of games the shared tools use."""

from __future__ import annotations

import pickle

import pytest

import ordonnance as od
from ordonnance import games


@pytest.mark.parametrize("name", games.GAMES)
def test_every_game_module_offers_the_protocol(name: str) -> None:
    game = games.module(name)
    rules = game.Rules()
    assert games.name_of(rules) == name
    players = [game.bots.Random(seed=seat) for seat in range(rules.players)]
    assert all(games.kernel_bot(bot) for bot in players)
    res = game.simulate(rules, games=5, seed=1, players=players)
    assert res.winner.shape == (5,) and res.scores.shape == (5, rules.players)
    assert set(res.winner.tolist()) <= set(range(-1, rules.players))
    if name != "ordonnance":
        for function in ("add_play_arguments", "add_simulate_arguments", "run_play", "run_simulate"):
            assert callable(getattr(games.cli(name), function, None)), function


def test_other_bots_are_not_kernel_bots() -> None:
    class Mine:
        def choose(self, view: od.PlayerView) -> od.Action:
            return view.legal_actions[0]

    assert not games.kernel_bot(Mine())
    assert not games.kernel_bot(od.bots.MonteCarlo(seed=1))
    assert not games.kernel_bot(od.bots.Random)  # the class is no bot


def test_ordonnance_has_no_game_cli_module() -> None:
    with pytest.raises(od.InvalidArgumentError, match="ordonnance.cli"):
        games.cli("ordonnance")


@pytest.mark.parametrize("bad", ["chess", None, 3, "Shinobi"])
def test_unknown_games_are_refused(bad: object) -> None:
    with pytest.raises(od.InvalidArgumentError, match=repr(bad).replace("(", r"\(")) as info:
        games.module(bad)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args


@pytest.mark.parametrize("bad", [None, "rules", od.Rules])
def test_only_rules_of_a_game_name_a_game(bad: object) -> None:
    with pytest.raises(od.OrdonnanceTypeError, match="rules must be the Rules of one of the games"):
        games.name_of(bad)
