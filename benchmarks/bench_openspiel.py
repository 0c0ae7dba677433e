"""OpenSpiel through the adapter: random rollouts with the deal as chance nodes and with a fixed deal.

The loop is the one an OpenSpiel user writes (``is_terminal``,
``is_chance_node``, ``chance_outcomes`` or ``legal_actions``,
``apply_action``). The issue's baseline is a ``pyspiel`` game a user writes
by hand on the public ``Game`` API (117 games/s with chance nodes and 419 with
a fixed deal when the issue was written; the target is ten times that): it is
written out below as :class:`EngineState` and measured in the same run, so
the ratios are the ones to quote. On a shared machine the speed drifts within
a run too, so ``test_ratio_to_the_baseline`` also times the two in
alternation, round by round, and prints the ratio of their medians against the
target of 10. Skipped without OpenSpiel. Run with::

    python -m pytest benchmarks/bench_openspiel.py --benchmark-only --benchmark-timer time.thread_time -s
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import pytest

from conftest import items

pyspiel = pytest.importorskip("pyspiel")
import ordonnance as od  # noqa: E402
import ordonnance.openspiel  # noqa: E402,F401  (registers the game)
from ordonnance import rl  # noqa: E402

GAMES = 100
_BASELINE = "python_ordonnance_engine_baseline"


class EngineGame(pyspiel.Game):  # type: ignore[misc]
    """The baseline: the game as a user writes it on the public API, one chance node
    per card of the deck, then ``Game.new(deck=...)`` and ``Game.apply``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        self.players, self.seed = int(params.get("players", 2)), int(params.get("seed", -1))
        rules = od.Rules(players=self.players)
        info = pyspiel.GameInfo(num_distinct_actions=rl.NUM_ACTIONS, max_chance_outcomes=32, num_players=self.players,
                                min_utility=-1.0, max_utility=1.0, utility_sum=None, max_game_length=2000)  # fmt: skip
        super().__init__(_BASELINE_TYPE, info, {"players": self.players, "seed": self.seed})
        self.rules = rules

    def new_initial_state(self) -> EngineState:
        return EngineState(self)


class EngineState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: EngineGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.dealt: list[od.Card] = []
        self.left = list(game.rules.cards)
        self.game = od.Game.new(game.rules, seed=game.seed) if game.seed >= 0 else None

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL) if self.game.is_over else self.game.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        return sorted(rl.action_index(a) for a in self.game.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        counts: dict[int, int] = {}
        for card in self.left:
            counts[card.mask] = counts.get(card.mask, 0) + 1
        return [(m, c / len(self.left)) for m, c in sorted(counts.items())]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            card = od.Card.from_mask(action)
            self.left.remove(card)
            self.dealt.append(card)
            if not self.left:
                self.game = od.Game.new(self.rules, deck=self.dealt)
        else:
            self.game.apply(rl.action_from_index(action))

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.rules.players
        assert self.game is not None
        winner = self.game.winner
        return [0.0 if winner is None else 1.0 if p == winner else -1.0 for p in range(self.rules.players)]

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action)

    def __str__(self) -> str:
        return str(self.game)


_BASELINE_TYPE = pyspiel.GameType(
    short_name=_BASELINE, long_name="Ordonnance on the Python engine (benchmark baseline)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=4, min_num_players=2,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=False, provides_observation_tensor=False,
    parameter_specification={"players": 2, "seed": -1},
)  # fmt: skip
pyspiel.register_game(_BASELINE_TYPE, EngineGame)


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


CASES = [({}, 10), ({"seed": 3}, 40), ({"players": 4}, 5), ({"players": 4, "seed": 3}, 20)]
IDS = ["2p-chance-deal", "2p-fixed-deal", "4p-chance-deal", "4p-fixed-deal"]


@pytest.mark.parametrize(("params", "baseline_games"), CASES, ids=IDS)
def test_random_rollouts(benchmark: Any, params: dict[str, Any], baseline_games: int) -> None:
    benchmark.group = f"openspiel: random rollouts, {IDS[CASES.index((params, baseline_games))]}"
    game = pyspiel.load_game("python_ordonnance", params)
    rollouts(game, 2)  # compile (or load) the kernels
    items(benchmark, GAMES, subject=True)
    benchmark.pedantic(rollouts, args=(game,), rounds=5, iterations=1)


@pytest.mark.parametrize(("params", "baseline_games"), CASES, ids=IDS)
def test_random_rollouts_on_the_python_engine(benchmark: Any, params: dict[str, Any], baseline_games: int) -> None:
    benchmark.group = f"openspiel: random rollouts, {IDS[CASES.index((params, baseline_games))]}"
    game = pyspiel.load_game(_BASELINE, params)
    items(benchmark, baseline_games)
    benchmark.pedantic(rollouts, args=(game, baseline_games), rounds=3, iterations=1)


@pytest.mark.parametrize(("params", "baseline_games"), CASES, ids=IDS)
def test_ratio_to_the_baseline(benchmark: Any, params: dict[str, Any], baseline_games: int) -> None:
    """The adapter and the baseline timed in alternation (CPU time), five rounds each:
    the ratio of their median games/s, and its share of the target of 10."""
    name = IDS[CASES.index((params, baseline_games))]
    benchmark.group = f"openspiel: adapter and baseline alternated, {name}"
    adapter, baseline = pyspiel.load_game("python_ordonnance", params), pyspiel.load_game(_BASELINE, params)
    rollouts(adapter, 2)
    rates: dict[str, list[float]] = {"adapter": [], "baseline": []}

    def pair() -> None:
        for key, game, games in (("adapter", adapter, GAMES), ("baseline", baseline, baseline_games)):
            start = time.thread_time()
            rollouts(game, games)
            rates[key].append(games / (time.thread_time() - start))

    items(benchmark, GAMES + baseline_games)
    benchmark.pedantic(pair, rounds=5, iterations=1)
    ours, theirs = statistics.median(rates["adapter"]), statistics.median(rates["baseline"])
    benchmark.extra_info.update(adapter=ours, baseline=theirs, ratio=ours / theirs, of_target=ours / theirs / 10)
    print(f"\n{name}: adapter {ours:,.0f} games/s, baseline {theirs:,.0f}: {ours / theirs:.2f}x (target 10x)")


@pytest.mark.benchmark(group="openspiel: resample_from_infostate (IS-MCTS's re-deal)")
def test_resample_from_infostate(benchmark: Any) -> None:
    game = pyspiel.load_game("python_ordonnance", {"seed": 3})
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    player = state.current_player()
    state.resample_from_infostate(player, sampler)  # compile, and keep the view

    def run() -> None:
        for _ in range(200):
            state.resample_from_infostate(player, sampler)

    items(benchmark, 200, subject=True)
    benchmark.pedantic(run, rounds=5, iterations=1)
