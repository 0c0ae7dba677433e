"""The Gymnasium vector environment on batched games (re-exported as ``ordonnance.rl.VectorEnv``).

Install the optional extra first: ``pip install "ordonnance[rl]"``. One
:class:`VectorEnv` is ``num_envs`` games held in one :class:`ordonnance.batch.Batch`
and stepped together in numba, with the built-in bots playing the other
seats inside the kernel; see :mod:`ordonnance.batch` for seeds, rewards and
the autoreset convention, and :mod:`ordonnance.rl` for the actions and the
observation layout.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ordonnance.batch import Batch
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.core.seeds import check_seed as _check_seed
from ordonnance.game import Game
from ordonnance.rules import Rules
from ordonnance.core.checks import shown

_IMPORT_ERROR: ImportError | None
try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as _GymVectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error

    class _GymVectorEnv:  # type: ignore[no-redef]
        """Stands in for gymnasium's VectorEnv when the "rl" extra is not installed."""

else:
    _IMPORT_ERROR = None

__all__ = ["VectorEnv", "register_envs", "ENV_ID"]

#: The Gymnasium id of Ordonnance (``gymnasium.make`` gives the single env, ``make_vec`` this one).
ENV_ID = "ordonnance/Ordonnance-v0"
_OBSERVATIONS = ("box", "uint8", "dict")


def _require_extra() -> None:
    if _IMPORT_ERROR is not None:
        raise ImportError(
            f"ordonnance.rl.VectorEnv needs the optional extra 'rl' ({_IMPORT_ERROR.name or 'gymnasium'} is not "
            f"installed): pip install 'ordonnance[rl]'"
        ) from _IMPORT_ERROR


class VectorEnv(_GymVectorEnv):
    """``num_envs`` games of Ordonnance as one Gymnasium vector environment, stepped in numba.

    ``opponent`` plays every seat but the learner's inside the kernel:
    ``"random"`` (:class:`~ordonnance.bots.Random`) or ``"greedy"``
    (:class:`~ordonnance.bots.Greedy`); with ``"self"`` the caller acts for
    every seat and each env observes from the seat to act. ``seat`` is the
    learner's seat, an int or ``"random"`` (drawn for every episode).
    ``observation`` is ``"box"`` (the float32 vector of
    :func:`ordonnance.rl.encode_view`), ``"uint8"`` (the same numbers as
    bytes) or ``"dict"`` (``{"observation", "action_mask"}`` as
    :class:`~ordonnance.rl.SingleAgentEnv` gives). ``action_masks()`` gives
    the legal actions as booleans (sb3-contrib's ``MaskablePPO`` calls it).

    Rewards are 0 until an episode ends, then +1 (the observing seat won), -1
    (another seat won) or 0 (a draw); in self-play the reward is that of the
    seat that acted. An illegal action ends the episode with
    ``illegal_reward`` and ``infos["illegal_action"]``. Episodes reset
    automatically on the step after they end (``metadata["autoreset_mode"]``
    is ``NEXT_STEP``: that step's action is ignored). At the end of an
    episode ``infos`` holds ``"winner"`` (-1: a draw) and ``"scores"``, with
    the masks ``"_winner"`` and ``"_scores"``.

    ``reset(seed=s)`` deals env ``i`` as ``Game.new(rules, seed=int(game_seeds(s, num_envs)[i]))``
    and later episodes from the same stream (see :mod:`ordonnance.batch`);
    ``reset()`` draws a new seed from a generator seeded by the last one.
    The arrays returned (observations, rewards, terminations, truncations and
    the arrays in ``infos``) belong to the environment and are overwritten by
    the next call: copy what you keep. Observations, truncations and
    ``infos["_illegal_action"]`` are read-only (each step updates the
    observations in place, writing only what changed).
    """

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": None}

    def __init__(
        self,
        num_envs: int,
        rules: Rules | None = None,
        opponent: Literal["random", "greedy", "self"] = "random",
        seat: int | Literal["random"] = 0,
        seed: int | None = None,
        observation: Literal["box", "uint8", "dict"] = "box",
        illegal_reward: float = -1.0,
    ) -> None:
        _require_extra()
        from ordonnance.rl import NUM_ACTIONS, observation_bounds

        if not isinstance(observation, str) or observation not in _OBSERVATIONS:
            raise InvalidArgumentError(f"observation must be one of {list(_OBSERVATIONS)}, got {shown(observation)}")
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
        self.batch: Batch = Batch(
            num_envs, rules, opponent=opponent, seat=seat, seed=seed, illegal="end", illegal_reward=illegal_reward,
            observe="uint8" if observation == "uint8" else "float32",
        )  # fmt: skip
        """The batched games behind the environment."""
        if observation == "uint8":
            self.batch.observe(np.uint8)  # refuses decks of more than 255 cards now, not at the first step
        self.metadata = {**self.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        self.num_envs = int(num_envs)
        self.rules: Rules = rules
        """The rules every episode is played under."""
        self.observation: str = observation
        """The observation form: ``"box"``, ``"uint8"`` or ``"dict"``."""
        low, high = observation_bounds(rules)
        vector: spaces.Box = (
            spaces.Box(low.astype(np.uint8), high.astype(np.uint8), dtype=np.uint8)
            if observation == "uint8"
            else spaces.Box(low, high, dtype=np.float32)
        )
        single: spaces.Space[Any] = vector
        if observation == "dict":
            single = spaces.Dict({"observation": vector, "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)})
        self.single_observation_space = single
        self.observation_space = batch_space(single, self.num_envs)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._seed_rng = np.random.default_rng(seed)
        self._seeded = False
        # The step's constant arrays, made once and read-only: "_illegal_action" and the truncations.
        self._every_env = np.ones(self.num_envs, np.bool_)
        self._no_env = np.zeros(self.num_envs, np.bool_)
        self._every_env.flags.writeable = False
        self._no_env.flags.writeable = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new game in every env (see the class docs for ``seed``); returns ``(obs, infos)``."""
        if seed is not None:
            if isinstance(seed, (list, tuple, np.ndarray)):
                raise OrdonnanceTypeError(f"give one int seed for all envs (env i deals from its stream), got {shown(seed)}")
            seed = _check_seed(seed)
            self._seed_rng = np.random.default_rng(seed)
        else:
            seed = int(self._seed_rng.integers(0, 2**63))
        self.batch.reset(seed)
        self._seeded = True
        return self._observe(), {}

    def step(self, actions: npt.ArrayLike) -> tuple[Any, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Play one action index per env, then the kernel bots; returns
        ``(obs, rewards, terminations, truncations, infos)``."""
        if not self._seeded:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        result = self.batch.step(actions)
        ended = result.terminated
        infos: dict[str, Any] = {"illegal_action": result.illegal, "_illegal_action": self._every_env}
        if ended.any():  # the batch writes -1 and zeros where no game ended by its rules
            infos["winner"] = result.winner
            infos["_winner"] = result.finished
            infos["scores"] = result.scores
            infos["_scores"] = result.finished
        return self._observe(), result.reward, ended, self._no_env, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``[env, action]``: the legal actions of the seat to act, as booleans (all False
        in an env whose episode just ended)."""
        return self.batch.legal_action_mask()

    def game(self, index: int) -> Game:
        """Env ``index``'s game as a :class:`~ordonnance.Game` in its current position."""
        return self.batch.game(index)

    def _observe(self) -> Any:
        if self.observation == "uint8":
            return self.batch.observe(np.uint8)
        vector = self.batch.observe()
        if self.observation == "box":
            return vector
        return {"observation": vector, "action_mask": self.batch.legal_action_mask().astype(np.int8)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._every_env.flags.writeable = False  # pickling keeps an array's data, not its flags
        self._no_env.flags.writeable = False

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        return f"VectorEnv({self.num_envs}, rules={self.rules!r}, opponent={self.batch.opponent!r})"


def register_envs() -> None:
    """Register :data:`ENV_ID` with Gymnasium, and the other games' ids of
    :data:`ordonnance.core.gym.GAME_ENV_IDS` (each once; later calls do nothing).

    ``gymnasium.make(ENV_ID, ...)`` then builds an :class:`~ordonnance.rl.SingleAgentEnv`
    and ``gymnasium.make_vec(ENV_ID, num_envs=..., vectorization_mode="vector_entry_point", ...)``
    a :class:`VectorEnv` (keyword arguments go to their constructors). Gymnasium (1.0 on)
    finds no package by entry points: a program that cannot import ``ordonnance.rl``
    first names it in the id, ``"ordonnance.rl:ordonnance/Ordonnance-v0"``.
    """
    _require_extra()
    from ordonnance.core.gym import register_game_envs

    register_game_envs()  # "ordonnance/Shinobi-v0" and "ordonnance/BlackPrince-v0" beside it
    if ENV_ID in gymnasium.registry:
        return
    gymnasium.register(
        id=ENV_ID,
        entry_point="ordonnance.rl:SingleAgentEnv",
        vector_entry_point="ordonnance.rl:VectorEnv",
    )

