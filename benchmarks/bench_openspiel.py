"""OpenSpiel through the adapter: random rollouts with the deal as chance nodes and with a fixed deal.

The loop is the one an OpenSpiel user writes (``is_terminal``,
``is_chance_node``, ``chance_outcomes`` or ``legal_actions``,
``apply_action``). The issue's baseline, a hand-written ``pyspiel`` game on
the Python engine, played 117 games/s with chance nodes and 419 with a fixed
deal; the target is ten times that. Skipped without OpenSpiel. Run with::

    python -m pytest benchmarks/bench_openspiel.py --benchmark-only
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import items

pyspiel = pytest.importorskip("pyspiel")
import ordonnance.openspiel  # noqa: E402,F401  (registers the game)

GAMES = 100


def rollouts(game: Any, games: int = GAMES) -> None:
    """``games`` random games from the initial state, chance by its probabilities."""
    rng = random.Random(0)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.benchmark(group="openspiel: random rollouts through the adapter")
@pytest.mark.parametrize(
    "params",
    [{}, {"seed": 3}, {"players": 4}, {"players": 4, "seed": 3}],
    ids=["2p-chance-deal", "2p-fixed-deal", "4p-chance-deal", "4p-fixed-deal"],
)
def test_random_rollouts(benchmark: Any, params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_ordonnance", params)
    rollouts(game, 2)  # compile (or load) the kernels
    items(benchmark, GAMES, subject=True)
    benchmark.pedantic(rollouts, args=(game,), rounds=5, iterations=1)
