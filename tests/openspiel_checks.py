"""Checks of an OpenSpiel adapter that every game's tests run (tests/*/test_openspiel.py).

Nothing here imports OpenSpiel at import time (the first CI stage has no extras and
collects every module for doctests); the test files import it with importorskip first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def random_step(state: Any, rng: random.Random) -> int:
    """A chance outcome drawn by its probability, or a uniformly random legal action."""
    if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        return int(rng.choices(outcomes, probabilities)[0])
    return int(rng.choice(state.legal_actions()))


def play_out(state: Any, rng: random.Random) -> list[bool]:
    """Play ``state`` to its end at random; whether each step was a chance node."""
    chance = []
    while not state.is_terminal():
        chance.append(state.is_chance_node())
        state.apply_action(random_step(state, rng))
    return chance


def chance_mode_matches(pyspiel: Any, game: Any, fixed: bool, games: int) -> None:
    """The type of ``game`` (and of its copies) says whether chance nodes occur, as its states show."""
    import pickle

    seen = any(any(play_out(game.new_initial_state(), random.Random(g))) for g in range(games))
    assert seen == (not fixed)
    mode = pyspiel.GameType.ChanceMode
    expected = mode.EXPLICIT_STOCHASTIC if seen else mode.DETERMINISTIC
    for copy in (game, pickle.loads(pickle.dumps(game)), game.new_initial_state().get_game()):
        assert copy.get_type().chance_mode == expected


def resampling_keeps_the_information_state(pyspiel: Any, game: Any, rng: random.Random, share: float) -> int:
    """At random decisions of a random game, every seat's resample keeps its information state,
    observation and (for the seat to act) legal actions; returns the resamples made."""
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    made = 0
    while not state.is_terminal():
        if not state.is_chance_node() and (made == 0 or rng.random() < share):  # the first decision always
            for p in range(game.num_players()):
                sample = state.resample_from_infostate(p, sampler)
                assert sample.information_state_string(p) == state.information_state_string(p)
                assert sample.observation_string(p) == state.observation_string(p)
                assert sample.observation_tensor(p) == state.observation_tensor(p)
                assert sample.current_player() == state.current_player()
                assert sample.legal_actions(p) == state.legal_actions(p)
                assert sample.game().view(p) == state.game().view(p)
                type(state.game()).from_json(sample.game().to_json())
                assert sample.clone().game() == sample.game()
                made += 1
        state.apply_action(random_step(state, rng))
    return made


def ismcts_plays_a_game(game: Any, simulations: int, seat: int = 0) -> Any:
    """OpenSpiel's IS-MCTS bot plays ``seat`` of a whole game (chance and the other seats at
    random); returns the final state."""
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=np.random.RandomState(1))
    rng = random.Random(2)
    state = game.new_initial_state()
    decided = 0
    while not state.is_terminal():
        if not state.is_chance_node() and state.current_player() == seat:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decided += 1
        else:
            state.apply_action(random_step(state, rng))
    assert decided > 0
    return state


def chi_square(counts: dict[Any, int], probabilities: dict[Any, float]) -> tuple[float, int]:
    """Pearson's statistic of ``counts`` against ``probabilities`` (every key of either), and its degrees of freedom."""
    total = sum(counts.values())
    assert set(counts) <= set(probabilities), set(counts) - set(probabilities)
    statistic = sum((counts.get(key, 0) - total * p) ** 2 / (total * p) for key, p in probabilities.items())
    return statistic, len(probabilities) - 1


#: Pearson's statistic at the 0.001 level, by degrees of freedom (tables; no SciPy needed).
CRITICAL_0_001 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 9: 27.88, 11: 31.26, 19: 43.82, 24: 51.18, 29: 58.30, 95: 143.34}


def deal_probabilities(game: Any, event: Callable[[list[int]], Any], nodes: int) -> dict[Any, float]:
    """The exact probability of each value of ``event(first outcomes)`` over the first ``nodes``
    chance nodes of a new state, from the adapter's chance outcomes (the tree, walked whole)."""
    out: dict[Any, float] = {}

    def walk(state: Any, taken: list[int], p: float) -> None:
        if len(taken) == nodes:
            key = event(taken)
            out[key] = out.get(key, 0.0) + p
            return
        for outcome, q in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            walk(child, [*taken, outcome], p * q)

    walk(game.new_initial_state(), [], 1.0)
    assert abs(sum(out.values()) - 1) < 1e-9
    return out


def bad_parameters_are_refused(pyspiel: Any, name: str, cases: Sequence[tuple[dict[str, Any], str]]) -> None:
    """Each parameter dict is refused with a message holding the text given (the bad value shown)."""
    import pytest

    for params, message in cases:
        with pytest.raises(Exception, match=message):
            pyspiel.load_game(name, params)
