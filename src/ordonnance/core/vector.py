"""One Gymnasium vector environment over any game's batched games (the optional "rl" extra).

:class:`GameVectorEnv` is ``num_envs`` games held in one batch of the game
(``ordonnance.batch.Batch``, ``ordonnance.shinobi.batch.Batch``, ...) and stepped
together in numba, the built-in bots playing the other seats inside the kernel.
Each game gives it a thin subclass naming its batch, rules, actions and observation
bounds (``ordonnance.rl.VectorEnv``, ``ordonnance.shinobi.rl.VectorEnv``). This module
imports without Gymnasium; building an environment without the extra raises
:class:`ImportError` with the install command.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

import numpy as np
import numpy.typing as npt

from ordonnance.core.aec import check_options
from ordonnance.core.batch import StepResult
from ordonnance.core.checks import shown
from ordonnance.core.extras import Unavailable, require_extra
from ordonnance.core.seeds import check_seed
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError

_IMPORT_ERROR: ImportError | None
try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as _GymVectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error
    _GymVectorEnv = Unavailable  # type: ignore[assignment,misc]
else:
    _IMPORT_ERROR = None

__all__ = ["GameVectorEnv", "BatchLike", "require_gymnasium"]

_REDEALS = 64  # start_next_episodes' new deals of an env whose deal ended before the learner's turn


def require_gymnasium(what: str) -> None:
    """Raise the install hint of the "rl" extra when Gymnasium is missing (``what`` needs it)."""
    require_extra("rl", _IMPORT_ERROR, what, "gymnasium")


class BatchLike(Protocol):
    """What :class:`GameVectorEnv` uses of a game's batch."""

    @property
    def opponent(self) -> str:
        """``"random"``, ``"greedy"`` or ``"self"``."""

    @property
    def observers(self) -> npt.NDArray[np.int64]:
        """``[game]``: the seat each game is observed from."""

    def reset(self, seed: int | None = None) -> None:
        """Deal every game afresh from ``seed``'s stream."""

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """One action index per game."""

    def restart(self) -> npt.NDArray[np.bool_]:
        """Start now the next episode of every game whose episode has ended; which did."""

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """``[game, action]``: the legal actions of the seat to act."""

    def observe(self, dtype: Any = np.float32) -> npt.NDArray[Any]:
        """``[game, :]``: the observation vectors."""

    def game(self, index: int) -> Any:
        """Game ``index`` as the game's ``Game``."""


class GameVectorEnv(_GymVectorEnv):
    """``num_envs`` games as one Gymnasium vector environment, stepped together in numba.

    ``opponent`` plays every seat but the learner's inside the kernel: ``"random"``
    or ``"greedy"`` (the game's ``bots.Random`` or ``bots.Greedy``); with ``"self"``
    the caller acts for every seat and each env observes from the seat to act.
    ``seat`` is the learner's seat, an int or ``"random"`` (drawn for every episode).
    ``observation`` is ``"box"`` (the float32 vector of the game's ``encode_view``),
    ``"dict"`` (``{"observation", "action_mask"}``, as the game's single env gives) or,
    where the game offers it, ``"uint8"`` (the same numbers as bytes).
    ``action_masks()`` gives the legal actions as booleans (sb3-contrib's
    ``MaskablePPO`` calls it).

    Rewards are 0 until an episode ends, then the observing seat's reward of the
    game's PettingZoo env; in self-play the reward is that of the seat that acted.
    An illegal action ends the episode with ``illegal_reward`` and
    ``infos["illegal_action"]``. Episodes reset automatically on the step after they
    end (``metadata["autoreset_mode"]`` is ``NEXT_STEP``: that step's action is
    ignored). At the end of an episode ``infos`` holds ``"winner"`` (-1: nobody won
    alone) and ``"scores"``, with the masks ``"_winner"`` and ``"_scores"``.

    ``reset(seed=s)`` deals env ``i`` as ``Game.new(rules, seed=int(game_seeds(s, num_envs)[i]))``
    and later episodes from the same stream (see :mod:`ordonnance.core.batch`);
    ``reset()`` draws a new seed from a generator seeded by the last one. The arrays
    returned (observations, rewards, terminations, truncations, masks and the arrays in
    ``infos``) belong to the environment and are overwritten by the next call: copy
    what you keep. Observations, truncations and ``infos["_illegal_action"]`` are read-only.

    A game's subclass sets :attr:`batch_type`, :attr:`rules_type`, :attr:`num_actions`,
    :attr:`observations` and :meth:`observation_bounds`.
    """

    #: The game's batch class: ``batch_type(games, rules, opponent=, seat=, seed=, illegal=, illegal_reward=, observe=)``.
    batch_type: ClassVar[Any]
    #: The game's ``Rules`` class (``rules_type()`` is the default rule set).
    rules_type: ClassVar[type]
    #: The number of action indices.
    num_actions: ClassVar[int]
    #: The observation forms the game offers.
    observations: ClassVar[tuple[str, ...]] = ("box", "dict")
    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": None}

    def __init__(
        self,
        num_envs: int,
        rules: Any = None,
        opponent: str = "random",
        seat: int | str = 0,
        seed: int | None = None,
        observation: str = "box",
        illegal_reward: float = -1.0,
    ) -> None:
        require_gymnasium(f"Vector environments ({type(self).__module__}.{type(self).__name__})")
        if not isinstance(observation, str) or observation not in self.observations:
            raise InvalidArgumentError(f"observation must be one of {list(self.observations)}, got {shown(observation)}")
        observation = str(observation)
        rules = self.rules_type() if rules is None else rules
        if not isinstance(rules, self.rules_type):
            raise OrdonnanceTypeError(f"rules must be a {self.rules_type.__name__}, got {shown(rules)}")
        self.batch: BatchLike = self.batch_type(
            num_envs, rules, opponent=opponent, seat=seat, seed=seed, illegal="end", illegal_reward=illegal_reward,
            observe="uint8" if observation == "uint8" else "float32",
        )  # fmt: skip
        """The batched games behind the environment."""
        if observation == "uint8":
            self.batch.observe(np.uint8)  # refuses what does not fit a byte now, not at the first step
        self.metadata = {**self.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        self.num_envs = int(num_envs)
        self.rules: Any = rules
        """The rules every episode is played under."""
        self.observation: str = observation
        """The observation form: ``"box"``, ``"dict"`` or ``"uint8"``."""
        low, high = self.observation_bounds(rules)
        vector: spaces.Box = (
            spaces.Box(low.astype(np.uint8), high.astype(np.uint8), dtype=np.uint8)
            if observation == "uint8"
            else spaces.Box(low, high, dtype=np.float32)
        )
        single: spaces.Space[Any] = vector
        if observation == "dict":
            single = spaces.Dict({"observation": vector, "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8)})
        self.single_observation_space = single
        self.observation_space = batch_space(single, self.num_envs)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._seed_rng = np.random.default_rng(seed)
        self._seeded = False
        # The step's constant arrays, made once and read-only: "_illegal_action" and the truncations.
        self._every_env = np.ones(self.num_envs, np.bool_)
        self._no_env = np.zeros(self.num_envs, np.bool_)
        self._every_env.flags.writeable = False
        self._no_env.flags.writeable = False

    def observation_bounds(self, rules: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Each number's lowest and highest value under ``rules`` (the single observation space's bounds)."""
        raise NotImplementedError

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal a new game in every env (see the class docs for ``seed``); returns ``(obs, infos)``.
        ``options`` must be None or a dict (no option is defined, so none is read)."""
        check_options(options)
        if seed is not None:
            if isinstance(seed, (list, tuple, np.ndarray)):
                raise OrdonnanceTypeError(f"give one int seed for all envs (env i deals from its stream), got {shown(seed)}")
            seed = check_seed(seed)
            self._seed_rng = np.random.default_rng(seed)
        else:
            seed = int(self._seed_rng.integers(0, 2**63))
        self.batch.reset(seed)
        self._seeded = True
        return self._observe(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Any, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
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

    def start_next_episodes(self) -> tuple[Any, npt.NDArray[np.bool_]]:
        """Start now, instead of at the next step, the next episode of every env whose episode
        has ended (again where a new deal ends before the learner's first decision); returns
        ``(obs, restarted)``: every env's observation and which envs restarted.

        The next step then reads every env's action (none is ignored). This is the
        same-step reset Stable-Baselines3 expects (:class:`ordonnance.sb3.VecEnv` calls it);
        the observations are those :meth:`step` returned, with the restarted envs' updated."""
        if not self._seeded:
            raise gymnasium.error.ResetNeeded("call reset() before start_next_episodes()")
        restarted = self.batch.restart()
        # A deal can end before the learner's first decision (the kernel bots play first): deal
        # again, a bounded number of times (what is left starts at the next step, as without this).
        for _ in range(_REDEALS):
            again = self.batch.restart()
            if not again.any():
                break
            restarted |= again
        return self._observe(), restarted

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``[env, action]``: the legal actions of the seat to act, as booleans (all False in an
        env whose game ended by its rules at the last step; after an illegal action that ended the
        episode, the unchanged position's legal actions)."""
        return self.batch.legal_action_mask()

    def game(self, index: int) -> Any:
        """Env ``index``'s game as the game's ``Game`` in its current position."""
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
        return f"{type(self).__name__}({self.num_envs}, rules={self.rules!r}, opponent={self.batch.opponent!r})"
