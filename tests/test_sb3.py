"""Stable-Baselines3's VecEnv adapter (ordonnance.sb3) on every game's vector environment (skipped
without Stable-Baselines3 and sb3-contrib).

The adapter's episodes are held to the vector environment's own: the same deals, the same
observations where the learner decides, the same final rewards and last observations; then
sb3-contrib's MaskablePPO trains on each game with masks and never plays an illegal action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ordonnance import Rules
from ordonnance import black_prince as bp
from ordonnance import shinobi
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError

pytest.importorskip("gymnasium")
pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402

from ordonnance.black_prince.pettingzoo import VectorEnv as BlackPrinceVectorEnv  # noqa: E402
from ordonnance.rl import VectorEnv  # noqa: E402
from ordonnance.sb3 import VecEnv  # noqa: E402
from ordonnance.shinobi.rl import VectorEnv as ShinobiVectorEnv  # noqa: E402

#: Each game's vector environment of ``num_envs`` envs.
GAMES: dict[str, Callable[..., Any]] = {
    "ordonnance": lambda num_envs, **kw: VectorEnv(num_envs, Rules(), **kw),
    "ordonnance-3": lambda num_envs, **kw: VectorEnv(num_envs, Rules(players=3), **kw),
    "shinobi-4": lambda num_envs, **kw: ShinobiVectorEnv(num_envs, shinobi.Rules(players=4), **kw),
    "black_prince": lambda num_envs, **kw: BlackPrinceVectorEnv(num_envs, bp.Rules(), **kw),
}


def _policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A deterministic choice among the legal actions, from the observation alone."""
    actions = np.zeros(len(masks), np.int64)
    for i, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if legal.size:
            actions[i] = legal[int(observations[i].sum() * 7) % legal.size]
    return actions


Episode = tuple[tuple[bytes, ...], float, bytes]


def _raw_episodes(envs: Any, seed: int, count: int) -> list[list[Episode]]:
    """The first ``count`` episodes of every env of a vector environment (next-step autoreset)."""
    n = envs.num_envs
    observations, _ = envs.reset(seed=seed)
    current: list[list[bytes]] = [[] for _ in range(n)]
    done: list[list[Episode]] = [[] for _ in range(n)]
    while min(map(len, done)) < count:
        masks = envs.action_masks().copy()
        for i in np.flatnonzero(masks.any(axis=1)).tolist():  # the learner decides here
            current[i].append(observations[i].tobytes())
        observations, rewards, terminated, _, _ = envs.step(_policy(observations, masks))
        for i in np.flatnonzero(terminated).tolist():
            done[i].append((tuple(current[i]), float(rewards[i]), observations[i].tobytes()))
            current[i] = []
    return [episodes[:count] for episodes in done]


def _adapter_episodes(envs: VecEnv, seed: int, count: int) -> list[list[Episode]]:
    """The same from the SB3 adapter (same-step reset, last observations in the infos)."""
    n = envs.num_envs
    envs.seed(seed)
    observations = envs.reset()
    current: list[list[bytes]] = [[] for _ in range(n)]
    done: list[list[Episode]] = [[] for _ in range(n)]
    while min(map(len, done)) < count:
        masks = envs.action_masks()
        assert masks.any(axis=1).all()  # no step SB3 sees is a restart
        for i in range(n):
            current[i].append(observations[i].tobytes())
        observations, rewards, dones, infos = envs.step(_policy(observations, masks))
        assert observations.shape == (n, *envs.observation_space.shape)
        for i in np.flatnonzero(dones).tolist():
            assert not infos[i]["illegal_action"] and not infos[i]["TimeLimit.truncated"]
            assert "winner" in infos[i] and "scores" in infos[i]
            done[i].append((tuple(current[i]), float(rewards[i]), infos[i]["terminal_observation"].tobytes()))
            current[i] = []
        for i in np.flatnonzero(~dones).tolist():
            assert not infos[i]
    return [episodes[:count] for episodes in done]


@pytest.mark.parametrize("opponent", ["random", "greedy"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_adapters_episodes_are_the_vector_envs(name: str, opponent: str) -> None:
    make = GAMES[name]
    raw = _raw_episodes(make(6, opponent=opponent, seat="random"), seed=21, count=3)
    adapted = _adapter_episodes(VecEnv(make(6, opponent=opponent, seat="random")), seed=21, count=3)
    assert adapted == raw
    assert any(reward != 0 for env in raw for _, reward, _ in env)  # games were decided


def test_uint8_observations_pass_through() -> None:
    envs = VecEnv(VectorEnv(4, Rules(), observation="uint8"))
    observations = envs.reset()
    assert observations.dtype == np.uint8 and envs.observation_space.dtype == np.uint8


class _Illegal(BaseCallback):  # type: ignore[misc]
    """Counts the episodes an illegal action ended during training."""

    def __init__(self) -> None:
        super().__init__()
        self.illegal = 0
        self.finished = 0

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "terminal_observation" in info:
                self.finished += 1
                self.illegal += bool(info["illegal_action"])
        return True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_maskable_ppo_trains_with_masks_on_every_game(name: str) -> None:
    envs = VecEnv(GAMES[name](8, opponent="random", seat="random", seed=1))
    model = MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=128, n_epochs=1, seed=0, verbose=0,
                        policy_kwargs={"net_arch": [32]})  # fmt: skip
    watch = _Illegal()
    model.learn(total_timesteps=1024, callback=watch)
    assert watch.finished > 0 and watch.illegal == 0
    observations = envs.reset()
    actions, _ = model.predict(observations, action_masks=envs.action_masks(), deterministic=True)
    assert envs.action_masks()[np.arange(envs.num_envs), actions].all()


def test_bad_arguments_get_the_librarys_errors() -> None:
    with pytest.raises(OrdonnanceTypeError, match="VectorEnv"):
        VecEnv("not an env")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="'dict'"):
        VecEnv(VectorEnv(2, observation="dict"))
    envs = VecEnv(VectorEnv(2))
    envs.reset()
    with pytest.raises(InvalidArgumentError, match="step_async"):
        envs.step_wait()
    with pytest.raises(AttributeError, match="render"):
        envs.env_method("render")
    assert envs.get_attr("render_mode") == [None, None]
    assert envs.env_is_wrapped(object) == [False, False]
    assert len(envs.env_method("action_masks", indices=[1])) == 1
