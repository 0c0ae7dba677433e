"""Batched games: VectorEnv env steps per second on one core, against simulate and the single env.

An env step is one learner action in one env (then the kernel bots' turns),
with the float32 box observation and the legal-action mask of every env
computed: a round times ``VectorEnv.step`` and ``VectorEnv.action_masks``
for all 4096 envs, while the learner's random legal actions are drawn in
the untimed setup. Run with::

    python -m pytest benchmarks/bench_batch.py --benchmark-only --benchmark-timer time.thread_time
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ordonnance as od
from conftest import items, of_target

pytest.importorskip("gymnasium")

from ordonnance._vector_env import VectorEnv  # noqa: E402  (re-exported as ordonnance.rl.VectorEnv)
from ordonnance.rl import SingleAgentEnv  # noqa: E402

ENVS = 4096
ROUNDS = 150
#: Issue 10's targets, env steps a second on one core.
TARGETS = {("random", "box"): 2_000_000, ("greedy", "box"): 500_000}
SINGLE_TARGET = 50_000
GROUP = "batch: env steps (learner actions) per second, 2 players, default rules"


def _vector_round(env: Any) -> Any:
    """The untimed setup of a round: random legal actions from the current masks."""
    rng = env._bench_rng
    masks = env.action_masks()
    return (np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1),), {}


def _timed_step(env: Any) -> Any:
    def step(actions: Any) -> None:
        env.step(actions)
        env.action_masks()

    return step


@pytest.mark.parametrize(
    "opponent, observation",
    [("random", "box"), ("greedy", "box"), ("random", "uint8"), ("self", "box")],
)
def test_vector_env(benchmark: Any, opponent: str, observation: str) -> None:
    benchmark.group = GROUP
    env = VectorEnv(ENVS, od.Rules(), opponent=opponent, observation=observation)  # type: ignore[arg-type]
    env.reset(seed=1)
    env._bench_rng = np.random.default_rng(0)  # type: ignore[attr-defined]
    for _ in range(3):  # compile and warm up outside the timing
        args, _ = _vector_round(env)
        _timed_step(env)(*args)
    items(benchmark, ENVS, subject=(opponent, observation) == ("random", "box"))
    benchmark.pedantic(_timed_step(env), setup=lambda: _vector_round(env), rounds=ROUNDS, iterations=1)
    if (opponent, observation) in TARGETS:
        of_target(benchmark, f"VectorEnv({ENVS}, opponent={opponent!r})", TARGETS[opponent, observation])


def test_simulate_decisions(benchmark: Any) -> None:
    """The simulator's decisions per second (the kernel's speed limit), Random bots."""
    benchmark.group = GROUP
    od.simulate(od.Rules(), games=10)
    games = 100_000
    decisions = int(od.simulate(od.Rules(), games=games, seed=1, record=True).action_counts.sum())  # type: ignore[union-attr]
    items(benchmark, decisions)
    benchmark.pedantic(od.simulate, args=(od.Rules(),), kwargs={"games": games, "seed": 1}, rounds=5, iterations=1)


def test_single_agent_env(benchmark: Any) -> None:
    """rl.SingleAgentEnv against Random, box observations (see bench_rl.py for its own figures)."""
    benchmark.group = GROUP
    env = SingleAgentEnv(opponent="random", observation="box")
    env.reset(seed=1)
    priorities = np.random.default_rng(0).random((64, env.action_space.n))
    steps = 3000

    def run() -> None:
        for i in range(steps):  # a random legal action: the argmax of the mask times a random row
            _, _, terminated, truncated, _ = env.step(int(np.argmax(env.action_masks() * priorities[i & 63])))
            if terminated or truncated:
                env.reset()

    run()
    items(benchmark, steps)
    benchmark.pedantic(run, rounds=3, iterations=1)
    of_target(benchmark, "SingleAgentEnv against Random", SINGLE_TARGET)
