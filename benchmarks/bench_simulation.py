"""Simulator throughput: games per second on one core, against Game driven from Python."""

from __future__ import annotations

from typing import Any

import pytest

import ordonnance as od
from conftest import items

GAMES = 200_000
PYTHON_GAMES = 100


def python_games(rules: od.Rules, games: int = PYTHON_GAMES) -> None:
    """The alternative: the same bots through the Game API, one decision at a time."""
    for seed in range(games):
        game = od.Game.new(rules, seed=seed)
        bots = [od.bots.Random(seed=seed * 4 + p) for p in range(rules.players)]
        while not game.is_over:
            seat = game.current_player
            game.apply(bots[seat].choose(game.view(seat)))


CASES = {
    "2p random, no claims (points scoring)": od.Rules(scoring="points"),
    "2p random, default rules": od.Rules(),
    "2p random, auto-claims": od.Rules(auto_claim=True),
    "4p random, auto-claims": od.Rules(players=4, auto_claim=True),
}


@pytest.mark.parametrize("case", list(CASES))
def test_simulate(benchmark: Any, case: str) -> None:
    rules = CASES[case]
    benchmark.group = f"simulate: {case}"
    od.simulate(rules, games=10)  # compile outside the timing
    items(benchmark, GAMES, subject=True)
    benchmark.pedantic(od.simulate, args=(rules,), kwargs={"games": GAMES, "seed": 1}, rounds=5, iterations=1)


@pytest.mark.parametrize("case", list(CASES))
def test_game_api_with_python_bots(benchmark: Any, case: str) -> None:
    rules = CASES[case]
    benchmark.group = f"simulate: {case}"
    items(benchmark, PYTHON_GAMES)
    benchmark.pedantic(python_games, args=(rules,), rounds=3, iterations=1)


@pytest.mark.benchmark(group="simulate: 2p greedy vs greedy, default rules")
def test_simulate_greedy(benchmark: Any) -> None:
    players = [od.bots.Greedy(seed=1), od.bots.Greedy(seed=2)]
    od.simulate(od.Rules(), games=10, players=players)
    items(benchmark, 50_000, subject=True)
    benchmark.pedantic(od.simulate, args=(od.Rules(),), kwargs={"games": 50_000, "players": players}, rounds=3, iterations=1)
