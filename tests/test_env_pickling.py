"""Every environment pickles when built, after a reset and mid-episode, and the copy
plays on exactly as the original does (observations, rewards, masks, later deals)."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from ordonnance import Rules, bots, rl  # noqa: E402
from ordonnance.black_prince import pettingzoo as black_prince_pettingzoo  # noqa: E402
from ordonnance.shinobi import rl as shinobi_rl  # noqa: E402


def _pick(mask: npt.NDArray[Any], step: int) -> int:
    """A legal action that depends on the step (not always the first), the same for both copies."""
    legal = np.flatnonzero(mask)
    return int(legal[(7 * step) % len(legal)]) if len(legal) else 0  # none: a vector env's just-ended episode


def _first_legal_policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
    return int(np.flatnonzero(mask)[-1])


def _copy(env: Any) -> Any:
    return pickle.loads(pickle.dumps(env))


def _same(a: Any, b: Any) -> None:
    """Equal observations (dicts, arrays, numbers, nested)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    else:
        np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------- PettingZoo AEC


def _aec_steps(env: Any, first_step: int, limit: int) -> list[Any]:
    """Play up to ``limit`` steps; what the env shows at each (last(), rewards, agents)."""
    seen = []
    for step in range(first_step, first_step + limit):
        if not env.agents:
            break
        observation, reward, terminated, truncated, info = env.last()
        seen.append((env.agent_selection, observation, reward, terminated, truncated, dict(env.rewards)))
        mask = observation["action_mask"] if isinstance(observation, dict) else info["action_mask"]
        env.step(None if terminated or truncated else _pick(mask, step))
    return seen


AEC_ENVS: dict[str, Callable[[], Any]] = {
    "ordonnance": rl.env,
    "ordonnance-3p-box": lambda: rl.env(Rules(players=3), observation="box"),
    "shinobi": shinobi_rl.env,
    "black-prince": black_prince_pettingzoo.env,
}


@pytest.mark.parametrize("make", AEC_ENVS.values(), ids=AEC_ENVS.keys())
def test_an_aec_env_pickles_built_reset_and_mid_episode(make: Callable[[], Any]) -> None:
    env = make()
    built = _copy(env)
    env.reset(seed=5)
    built.reset(seed=5)
    _same(_aec_steps(built, 0, 3), _aec_steps(env, 0, 3))
    env.reset(seed=8)
    after_reset = _copy(env)
    _same(_aec_steps(after_reset, 0, 10), _aec_steps(env, 0, 10))
    middle = _copy(env)  # mid-episode: ten actions in
    played = _aec_steps(env, 10, 10_000)
    assert played and not env.agents  # the game ended
    _same(_aec_steps(middle, 10, 10_000), played)
    env.reset()  # the next deal comes from the generator the seed started: the copy has it too
    middle.reset()
    _same(_aec_steps(middle, 0, 20), _aec_steps(env, 0, 20))


# ------------------------------------------------------------------------ Gymnasium


def _single_steps(env: Any, first_step: int, limit: int) -> list[Any]:
    seen = []
    for step in range(first_step, first_step + limit):
        mask = env.action_masks()
        observation, reward, terminated, truncated, info = env.step(_pick(mask, step))
        seen.append((mask, observation, reward, terminated, truncated, info))
        if terminated or truncated:
            break
    return seen


SINGLE_ENVS: dict[str, Callable[[], Any]] = {
    "greedy": rl.SingleAgentEnv,
    "random-seat-box": lambda: rl.SingleAgentEnv("random", seat="random", observation="box"),
    "python-bot-and-policy": lambda: rl.SingleAgentEnv(
        [bots.Greedy(), _first_legal_policy], rules=Rules(players=3)
    ),
}


@pytest.mark.parametrize("make", SINGLE_ENVS.values(), ids=SINGLE_ENVS.keys())
def test_a_single_agent_env_pickles_built_reset_and_mid_episode(make: Callable[[], Any]) -> None:
    env = make()
    built = _copy(env)
    _same(built.reset(seed=3), env.reset(seed=3))
    _same(_single_steps(built, 0, 2), _single_steps(env, 0, 2))
    _same(env.reset(seed=4), _copy(env).reset(seed=4))
    after_reset = _copy(env)
    _same(_single_steps(after_reset, 0, 4), _single_steps(env, 0, 4))
    middle = _copy(env)
    played = _single_steps(env, 4, 10_000)
    assert played[-1][3]  # the game ended
    _same(_single_steps(middle, 4, 10_000), played)
    _same(middle.reset(), env.reset())  # the next deal, from the generator the seed started
    _same(_single_steps(middle, 0, 5), _single_steps(env, 0, 5))


def _vector_steps(env: Any, first_step: int, steps: int) -> list[Any]:
    seen = []
    for step in range(first_step, first_step + steps):
        masks = env.action_masks()
        actions = np.array([_pick(mask, step + i) for i, mask in enumerate(masks)])
        seen.append((masks, *env.step(actions)))
    return seen


@pytest.mark.parametrize("observation", ["box", "dict"])
def test_a_vector_env_pickles_built_reset_and_mid_episode(observation: str) -> None:
    env = rl.VectorEnv(8, opponent="greedy", seat="random", observation=observation)  # type: ignore[arg-type]
    built = _copy(env)
    _same(built.reset(seed=2), env.reset(seed=2))
    _same(_vector_steps(built, 0, 3), _vector_steps(env, 0, 3))
    after_reset = _copy(env)
    _same(_vector_steps(after_reset, 3, 3), _vector_steps(env, 3, 3))
    middle = _copy(env)  # after steps: some envs have finished and started their next episode
    played = _vector_steps(env, 6, 150)
    assert any(step[3].any() for step in played)  # episodes ended (and restarted) in those steps
    _same(_vector_steps(middle, 6, 150), played)


def test_a_vector_env_copy_returns_read_only_arrays_as_the_original_does() -> None:
    env = rl.VectorEnv(4, observation="uint8")
    env.reset(seed=1)
    copy = _copy(env)
    for each in (env, copy):
        observations, rewards, terminated, truncated, infos = each.step(each.action_masks().argmax(axis=1))
        assert not observations.flags.writeable and not truncated.flags.writeable
        assert not infos["_illegal_action"].flags.writeable
    np.testing.assert_array_equal(copy.batch.observe(np.uint8), env.batch.observe(np.uint8))
