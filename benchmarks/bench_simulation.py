"""Simulator throughput: games per second on one core, with issue 11's targets.

Targets (issue 11, part 3): at least 3,000,000 random 2-player games a second
with the default rules and 600,000 with automatic claims. Each such case
records ``target`` (games/s) and ``of_target`` (the measured median rate over
the target) in its ``extra_info``, printed with ``-s`` and kept by
``--benchmark-json``. Beside each case, in the same group and the same run:

* the same bots through the :class:`~ordonnance.Game` API from Python;
* for the default rules, the general rules kernel on the same games (what the
  batched games, MonteCarlo and the automatic-claims case run; the default
  case takes the player-by-player road, held to it by the tests);
* dealing alone: each game's deck shuffled as ``Game.new`` shuffles it, the
  floor of any simulator that deals identically.

On a shared machine time in CPU time of the thread::

    python -m pytest benchmarks/bench_simulation.py --benchmark-only --benchmark-timer time.thread_time -s
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt
import pytest

import ordonnance as od
from conftest import items, of_target
from ordonnance import _simulator_kernel as kernel
from ordonnance.simulation import _Outputs, _run_kernel, bot_seeds, game_seeds

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
#: Games a second on one core (issue 11).
TARGETS = {"2p random, default rules": 3_000_000, "2p random, auto-claims": 600_000}


@pytest.mark.parametrize("case", list(CASES))
def test_simulate(benchmark: Any, case: str) -> None:
    rules = CASES[case]
    benchmark.group = f"simulate: {case}"
    od.simulate(rules, games=10)  # compile outside the timing
    items(benchmark, GAMES, subject=True)
    benchmark.pedantic(od.simulate, args=(rules,), kwargs={"games": GAMES, "seed": 1}, rounds=5, iterations=1)
    if case in TARGETS:
        of_target(benchmark, case, TARGETS[case])


@pytest.mark.parametrize("case", list(CASES))
def test_game_api_with_python_bots(benchmark: Any, case: str) -> None:
    rules = CASES[case]
    benchmark.group = f"simulate: {case}"
    items(benchmark, PYTHON_GAMES)
    benchmark.pedantic(python_games, args=(rules,), rounds=3, iterations=1)


def general_kernel(rules: od.Rules, games: int) -> None:
    """The games of ``simulate(rules, games=games, seed=1)`` through the general rules kernel."""
    n = rules.players
    seeds = game_seeds(1, games)
    per_game = bot_seeds(seeds, [0] * n)
    _run_kernel(rules, seeds, per_game, np.zeros(n, np.int64), _Outputs(games, rules, record=False), by_player=False)


@pytest.mark.benchmark(group="simulate: 2p random, default rules")
def test_general_kernel(benchmark: Any) -> None:
    rules = od.Rules()
    general_kernel(rules, 10)
    items(benchmark, GAMES)
    benchmark.pedantic(general_kernel, args=(rules, GAMES), rounds=3, iterations=1)


@numba.njit  # not cached: the disk cache would not see an edit of the kernel it inlines
def _deal_only(cards: npt.NDArray[np.int64], seeds: npt.NDArray[np.uint64], order: npt.NDArray[np.int64]) -> int:
    top = 0
    draws = np.empty(kernel.SHUFFLE_DRAWS, np.int64)
    for g in range(seeds.shape[0]):
        kernel._shuffle(cards, seeds[g], order, draws)
        top += order[0]
    return top


def deal_only(rules: od.Rules, games: int) -> int:
    """Every game's deck shuffled as ``Game.new`` shuffles it, and nothing else."""
    cards = kernel.deck_of(rules)
    return int(_deal_only(cards, game_seeds(1, games), np.empty_like(cards)))


@pytest.mark.parametrize("case", sorted(TARGETS))
def test_deal_only(benchmark: Any, case: str) -> None:
    rules = CASES[case]
    benchmark.group = f"simulate: {case}"
    deal_only(rules, 10)
    items(benchmark, GAMES)
    benchmark.pedantic(deal_only, args=(rules, GAMES), rounds=5, iterations=1)


@pytest.mark.benchmark(group="simulate: 2p greedy vs greedy, default rules")
def test_simulate_greedy(benchmark: Any) -> None:
    players = [od.bots.Greedy(seed=1), od.bots.Greedy(seed=2)]
    od.simulate(od.Rules(), games=10, players=players)
    items(benchmark, 50_000, subject=True)
    benchmark.pedantic(od.simulate, args=(od.Rules(),), kwargs={"games": 50_000, "players": players}, rounds=3, iterations=1)
