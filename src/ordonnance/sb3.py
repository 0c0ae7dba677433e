"""Stable-Baselines3: any game's batched vector environment as an SB3 ``VecEnv``.

Install the optional extra first: ``pip install "ordonnance[sb3]"`` (the "rl"
extra, Stable-Baselines3 and sb3-contrib for ``MaskablePPO``; CPU torch is enough).
:class:`VecEnv` wraps a game's vector environment (:class:`ordonnance.rl.VectorEnv`,
:class:`ordonnance.shinobi.rl.VectorEnv`, :class:`ordonnance.black_prince.pettingzoo.VectorEnv`)
so that SB3's algorithms train on it, with the legal-action masks through
``action_masks()``::

    from sb3_contrib import MaskablePPO
    from ordonnance import shinobi
    from ordonnance.sb3 import VecEnv

    envs = VecEnv(shinobi.rl.VectorEnv(64, shinobi.Rules(players=4), opponent="greedy", seat="random"))
    model = MaskablePPO("MlpPolicy", envs).learn(100_000)

SB3 expects a finished env to start its next episode within the step that ended
it, with the last observation in ``infos[i]["terminal_observation"]``; the vector
environments start it at the following step (Gymnasium's next-step autoreset).
The adapter starts the finished games' next episodes at once
(:meth:`ordonnance.core.vector.GameVectorEnv.start_next_episodes`), so every
step SB3 sees is a step of the game. ``infos[i]`` of a finished env also holds
``"winner"``, ``"scores"`` and ``"illegal_action"``. The observations are the
vector environment's (``"box"`` or ``"uint8"``; SB3's ``MlpPolicy`` takes either).
Importing this module imports Stable-Baselines3 (and so torch); without it the
module imports and building a :class:`VecEnv` raises :class:`ImportError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.core.checks import shown
from ordonnance.core.extras import Unavailable
from ordonnance.core.vector import GameVectorEnv
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError

_IMPORT_ERROR: ImportError | None
try:
    from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv
except ImportError as error:  # pragma: no cover - exercised without Stable-Baselines3
    _IMPORT_ERROR = error
    _SB3VecEnv = Unavailable  # type: ignore[assignment,misc,unused-ignore]
else:
    _IMPORT_ERROR = None

__all__ = ["VecEnv"]


def _require_sb3() -> None:
    if _IMPORT_ERROR is not None:
        raise ImportError(
            f"ordonnance.sb3.VecEnv needs Stable-Baselines3 ({_IMPORT_ERROR.name or 'stable_baselines3'} is not "
            "installed): pip install 'ordonnance[sb3]'"
        ) from _IMPORT_ERROR


class VecEnv(_SB3VecEnv):  # type: ignore[misc,unused-ignore]  # Any without Stable-Baselines3
    """A game's :class:`~ordonnance.core.vector.GameVectorEnv` as a Stable-Baselines3 ``VecEnv``.

    ``envs`` is any game's vector environment with ``observation="box"`` or
    ``"uint8"`` (see the module docs). ``reset()`` deals from the seed given to
    :meth:`seed` if any, else from the vector environment's own stream.
    Observations, rewards and dones are copies that SB3 may keep.
    """

    def __init__(self, envs: GameVectorEnv) -> None:
        _require_sb3()
        if not isinstance(envs, GameVectorEnv):
            raise OrdonnanceTypeError(f"envs must be a game's VectorEnv (ordonnance.core.vector.GameVectorEnv), got {shown(envs)}")
        if envs.observation not in ("box", "uint8"):
            raise InvalidArgumentError(
                f"SB3's policies take array observations: build the VectorEnv with observation='box' or 'uint8', "
                f"got {shown(envs.observation)}"
            )
        self.envs: GameVectorEnv = envs
        """The vector environment behind the adapter."""
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)

    def reset(self) -> npt.NDArray[Any]:
        """Deal every env afresh (from :meth:`seed`'s seed when one was given); the observations."""
        seed = self._seeds[0]
        observations, _ = self.envs.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self._actions = None
        return np.array(observations)

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Keep one action index per env for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[npt.NDArray[Any], npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        """Play the actions of :meth:`step_async`; finished envs start their next episode at once."""
        if self._actions is None:
            raise InvalidArgumentError("call step_async(actions) (or step(actions)) before step_wait()")
        actions, self._actions = self._actions, None
        observations, rewards, terminated, truncated, infos = self.envs.step(actions)
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if not dones.any():
            return np.array(observations), rewards.copy(), dones, out
        finished = np.flatnonzero(dones)
        last = np.asarray(observations)[finished]  # a copy, taken before the envs restart
        for j, i in enumerate(finished.tolist()):
            info = out[i]
            info["terminal_observation"] = last[j]
            info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            info["illegal_action"] = bool(infos["illegal_action"][i])
            if "winner" in infos and infos["_winner"][i]:
                info["winner"] = int(infos["winner"][i])
                info["scores"] = infos["scores"][i].tolist()
        rewards = rewards.copy()
        observations, _ = self.envs.start_next_episodes()
        return np.array(observations), rewards, dones, out

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``[env, action]``: the legal actions of every env's learner (sb3-contrib's masks); a copy."""
        return self.envs.action_masks().copy()

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        """sb3-contrib asks every env for ``action_masks`` this way; no other method is offered."""
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        raise AttributeError(f"ordonnance.sb3.VecEnv has no env method {method_name!r}")

    def has_attr(self, attr_name: str) -> bool:
        """Whether the envs have ``attr_name`` (``action_masks`` and ``render_mode`` only)."""
        return attr_name in ("action_masks", "render_mode")

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """Only ``render_mode`` (None: the games draw nothing here)."""
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        raise AttributeError(f"ordonnance.sb3.VecEnv has no env attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """No attribute can be set on the batched envs."""
        raise AttributeError(f"ordonnance.sb3.VecEnv cannot set env attribute {attr_name!r}")

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        """No env is wrapped (the games are stepped together in numba)."""
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        """Nothing to release."""

    def _indices(self, indices: Any) -> Sequence[int]:
        chosen = self._get_indices(indices)
        return list(chosen) if isinstance(chosen, Iterable) else [chosen]

    def __repr__(self) -> str:
        return f"VecEnv({self.envs!r})"
