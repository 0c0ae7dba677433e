"""The Gymnasium vector environment on batched games (re-exported as ``ordonnance.rl.VectorEnv``).

Install the optional extra first: ``pip install "ordonnance[rl]"``. One
:class:`VectorEnv` is ``num_envs`` games held in one :class:`ordonnance.batch.Batch`
and stepped together in numba, with the built-in bots playing the other
seats inside the kernel; see :mod:`ordonnance.batch` for seeds, rewards and
the autoreset convention, and :mod:`ordonnance.rl` for the actions and the
observation layout.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import numpy as np
import numpy.typing as npt

from ordonnance.batch import Batch
from ordonnance.core.vector import GameVectorEnv, require_gymnasium
from ordonnance.game import Game
from ordonnance.rules import Rules

__all__ = ["VectorEnv", "register_envs", "ENV_ID"]

#: The Gymnasium id of Ordonnance (``gymnasium.make`` gives the single env, ``make_vec`` this one).
ENV_ID = "ordonnance/Ordonnance-v0"


def _require_extra() -> None:
    require_gymnasium("Vector environments (ordonnance.rl.VectorEnv)")


class VectorEnv(GameVectorEnv):
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

    Everything but the game's names is :class:`ordonnance.core.vector.GameVectorEnv`'s.
    """

    batch_type = Batch
    rules_type = Rules
    num_actions = Batch.num_actions
    observations: ClassVar[tuple[str, ...]] = ("box", "uint8", "dict")

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
        super().__init__(num_envs, rules, opponent=opponent, seat=seat, seed=seed, observation=observation,
                         illegal_reward=illegal_reward)  # fmt: skip
        self.batch: Batch
        self.rules: Rules

    def observation_bounds(self, rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """:func:`ordonnance.rl.observation_bounds`."""
        from ordonnance.rl import observation_bounds

        return observation_bounds(rules)

    def game(self, index: int) -> Game:
        """Env ``index``'s game as a :class:`~ordonnance.Game` in its current position."""
        return self.batch.game(index)


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
    import gymnasium

    from ordonnance.core.gym import register_game_envs

    register_game_envs()  # "ordonnance/Shinobi-v0" and "ordonnance/BlackPrince-v0" beside it
    if ENV_ID in gymnasium.registry:
        return
    gymnasium.register(
        id=ENV_ID,
        entry_point="ordonnance.rl:SingleAgentEnv",
        vector_entry_point="ordonnance.rl:VectorEnv",
    )

