"""The single environments: SingleAgentEnv steps per second against Random, on one core.

A step is one learner action (then the opponent's turns up to the learner's
next one), with the observation and the legal-action mask returned. The
learner picks a random legal action from ``action_masks()`` inside the timed
loop (the argmax of the mask times a random row, about 1.5 us), as a
training loop would. Compared in the same run with the path of earlier
versions (a ``Game``, ``PlayerView`` objects, :func:`ordonnance.rl.encode_view`
and the Python Random bot, rebuilt here as it was), with the PettingZoo env,
and with a :class:`~ordonnance.rl.VectorEnv` of 4096 envs (its env steps).
Run with::

    python -m pytest benchmarks/bench_rl.py --benchmark-only --benchmark-timer time.thread_time
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ordonnance as od
from conftest import items

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from ordonnance import rl  # noqa: E402

GROUP = "rl: single env steps (learner actions) per second against Random, 2 players"
STEPS = 5000
ENVS = 4096
_PRIORITIES = np.random.default_rng(0).random((64, rl.NUM_ACTIONS))


def _run_single(env: Any, steps: int) -> None:
    for i in range(steps):
        _, _, terminated, truncated, _ = env.step(int(np.argmax(env.action_masks() * _PRIORITIES[i & 63])))
        if terminated or truncated:
            env.reset()


@pytest.mark.parametrize("observation", ["box", "dict"])
def test_single_agent_env(benchmark: Any, observation: str) -> None:
    benchmark.group = GROUP
    env = rl.SingleAgentEnv(opponent="random", observation=observation)  # type: ignore[arg-type]
    env.reset(seed=1)
    _run_single(env, 500)  # compile and warm up outside the timing
    items(benchmark, STEPS, subject=observation == "box")
    benchmark.pedantic(_run_single, args=(env, STEPS), rounds=5, iterations=1)


class _EarlierSingleAgentEnv:
    """SingleAgentEnv as it was (0.x): the game in a Game, views for the bot and the observation."""

    def __init__(self) -> None:
        self.game = od.Game.new(od.Rules(), seed=0)
        self.bot = od.bots.Random(seed=0)
        self.rng = np.random.default_rng(1)

    def reset(self) -> Any:
        self.game = od.Game.new(od.Rules(), seed=int(self.rng.integers(0, 2**63)))
        self._bots_play()
        return self._observe()

    def _bots_play(self) -> None:
        while not self.game.is_over and self.game.current_player != 0:
            self.game.apply(self.bot.choose(self.game.view(self.game.current_player)))

    def _observe(self) -> dict[str, Any]:
        view = self.game.view(0)
        return {"observation": rl.encode_view(view), "action_mask": rl.action_mask(view)}

    def action_masks(self) -> Any:
        return rl.action_mask(self.game.view(0)).astype(bool)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        chosen = rl.action_from_index(action)
        if chosen not in self.game.legal_actions():
            return self._observe(), -1.0, True, False, {"illegal_action": True}
        self.game.apply(chosen)
        self._bots_play()
        over = self.game.is_over
        reward = (0.0 if self.game.winner is None else 1.0 if self.game.winner == 0 else -1.0) if over else 0.0
        return self._observe(), reward, over, False, {"illegal_action": False}


def test_earlier_single_agent_env(benchmark: Any) -> None:
    benchmark.group = GROUP
    env = _EarlierSingleAgentEnv()
    env.reset()
    steps = 300
    _run_single(env, 20)
    items(benchmark, steps)
    benchmark.pedantic(_run_single, args=(env, steps), rounds=3, iterations=1)


def test_pettingzoo_env(benchmark: Any) -> None:
    """The AEC env, both seats random legal actions: an env step is one action of either seat."""
    benchmark.group = GROUP
    env = rl.env(observation="box")
    env.reset(seed=1)

    def run(steps: int) -> None:
        for i in range(steps):
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.reset()
                continue
            env.step(int(np.argmax(info["action_mask"] * _PRIORITIES[i & 63])))

    run(500)
    items(benchmark, STEPS)
    benchmark.pedantic(run, args=(STEPS,), rounds=5, iterations=1)


def test_vector_env(benchmark: Any) -> None:
    """VectorEnv(4096, opponent="random"): env steps (one learner action in one env) per second."""
    benchmark.group = GROUP
    env = rl.VectorEnv(ENVS, od.Rules(), opponent="random")
    env.reset(seed=1)
    rng = np.random.default_rng(0)

    def actions() -> Any:
        masks = env.action_masks()
        return (np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1),), {}

    def step(chosen: Any) -> None:
        env.step(chosen)
        env.action_masks()

    for _ in range(3):
        step(*actions()[0])
    items(benchmark, ENVS)
    benchmark.pedantic(step, setup=actions, rounds=50, iterations=1)
