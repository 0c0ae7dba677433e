"""The shared simulate driver and summary, for every game at once: one format, one set of checks."""

from __future__ import annotations

import re
from typing import Any

import attrs
import numba
import numpy as np
import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import shinobi
from ordonnance.core import simulate as driver
from ordonnance.core.summary import Summary
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError

GAMES = 40 if numba.config.DISABLE_JIT else 400

# (game module, rules, its Random and Greedy)
GAMES_UNDER_TEST: dict[str, tuple[Any, Any]] = {
    "ordonnance": (od, od.Rules(players=3, auto_claim=True)),
    "shinobi": (shinobi, shinobi.Rules(players=4)),
    "black-prince": (bp, bp.Rules()),
}
SHARED = [field.name for field in attrs.fields(Summary)]


def _bots(module: Any, rules: Any) -> list[Any]:
    return [(module.bots.Greedy if seat == 0 else module.bots.Random)(seed=seat) for seat in range(rules.players)]


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_every_game_summary_has_the_shared_figures_with_the_shared_definitions(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    res = module.simulate(rules, games=GAMES, seed=3, players=_bots(module, rules))
    summary = res.summary()
    assert isinstance(res, driver.SimulationResult) and isinstance(summary, Summary)
    n = rules.players
    sole = [int(np.sum(res.winner == seat)) for seat in range(n)]
    assert summary.games == GAMES and summary.players == n
    assert sum(summary.win_rate) + summary.draw_rate == pytest.approx(1.0)
    assert summary.draw_rate == pytest.approx(int(np.sum(res.winner < 0)) / GAMES)
    assert summary.first_player_advantage == pytest.approx(sole[0] / GAMES - 1 / n)
    assert summary.first_player_advantage > 0.1  # Greedy in seat 0
    low, high = summary.first_player_advantage_ci
    assert low <= summary.first_player_advantage <= high and high - low < 2.5 / GAMES**0.5
    assert summary.mean_decisions == pytest.approx(float(np.mean(res.decisions)))
    assert summary.mean_rounds == pytest.approx(float(np.mean(res.rounds)))
    assert 1 <= res.rounds.min() and res.rounds.max() < res.decisions.max()


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_every_game_prints_the_shared_lines_first_in_one_format(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    summary = module.simulate(rules, games=GAMES, seed=4).summary()
    shared = Summary(**{field: getattr(summary, field) for field in SHARED})
    text = str(summary)
    assert text.startswith(str(shared) + "\n") and len(text) > len(str(shared)) + 10  # then the game's own lines
    lines = text.splitlines()
    n = rules.players
    assert lines[0] == f"{GAMES:,} games"
    for seat in range(n):
        assert re.fullmatch(rf"  player {seat} wins +\d+\.\d\d%  \(95% CI \d+\.\d\d% \.\. \d+\.\d\d%\)", lines[1 + seat])
    assert re.fullmatch(r"  nobody wins alone +\d+\.\d\d%  \(draws and shared wins\)", lines[1 + n])
    assert re.fullmatch(r"  first-player advantage [+-]\d+\.\d\d% \(95% CI [+-]\d+\.\d\d% \.\. [+-]\d+\.\d\d%\)", lines[2 + n])
    assert re.fullmatch(r"  \d+\.\d decisions, \d+\.\d rounds a game on average", lines[3 + n])


def test_the_shared_summary_of_counts() -> None:
    s = Summary.from_counts(games=10, players=4, wins=[4, 2, 2, 0], decisions=123, rounds=45)
    assert s.win_rate == (0.4, 0.2, 0.2, 0.0) and s.draw_rate == pytest.approx(0.2)
    assert s.first_player_advantage == pytest.approx(0.15) and (s.mean_decisions, s.mean_rounds) == (12.3, 4.5)
    empty = Summary.from_counts(games=0, players=2, wins=[0, 0], decisions=0, rounds=0)
    assert empty.win_rate == (0.0, 0.0) and empty.draw_rate == 0.0 and empty.mean_rounds == 0.0
    assert empty.win_rate_ci == ((0.0, 1.0), (0.0, 1.0)) and empty.first_player_advantage == -0.5
    assert str(empty).startswith("0 games\n")


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_the_driver_refuses_bad_arguments_alike_in_every_game(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    simulate = module.simulate
    other = od.Rules() if name != "ordonnance" else bp.Rules()
    with pytest.raises(OrdonnanceTypeError, match=rf"rules must be an ordonnance\.(\w+\.)?Rules, got {re.escape(repr(other))}"):
        simulate(other, games=1)
    for games in (-1, 1.5, "3", True, None):
        with pytest.raises(InvalidRulesError, match=rf"games must be a non-negative int, got {re.escape(repr(games))}"):
            simulate(rules, games=games)
    with pytest.raises(InvalidRulesError, match=r"at most 100,000,000 per call .*got 1000000000000"):
        simulate(rules, games=10**12)
    for seed in (-1, 2**64, "x", True, 1.0):
        with pytest.raises(InvalidRulesError, match=rf"seed must .*got {re.escape(repr(seed))}"):
            simulate(rules, games=1, seed=seed)
    with pytest.raises(OrdonnanceTypeError, match="record must be a bool, got 1"):
        simulate(rules, games=1, record=1)
    with pytest.raises(InvalidRulesError, match=rf"players must list {rules.players} bots"):
        simulate(rules, games=1, players=[module.bots.Random()])
    with pytest.raises(OrdonnanceTypeError, match="the class Random, not a bot"):
        simulate(rules, games=1, players=[module.bots.Random] * rules.players)
    assert len(simulate(rules, games=0)) == 0 and simulate(rules, games=np.int64(2), seed=np.uint64(5)).seeds.shape == (2,)


def test_each_game_is_found_by_its_rules() -> None:
    for name, (module, rules) in GAMES_UNDER_TEST.items():
        hooks = driver.hooks_for(rules)
        assert hooks.rules_type is type(rules) and hooks.policy(module.bots.Greedy(seed=0)) is not None
        assert hooks.policy(module.bots.MonteCarlo(seed=0)) is None, name
    with pytest.raises(OrdonnanceTypeError, match="rules must be the Rules of one of the games"):
        driver.hooks_for("rules")
