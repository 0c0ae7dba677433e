"""Batched games of Black Prince: many games held as arrays and stepped together in numba.

A :class:`Batch` holds ``games`` games of one :class:`~ordonnance.black_prince.Rules`
as the arrays of Black Prince's rules kernel with a leading game dimension and steps
them all at once, one action per game, on that kernel's own functions (those
:func:`ordonnance.black_prince.simulate` runs). Actions are the 117 indices of
:mod:`ordonnance.black_prince.pettingzoo` (:data:`~ordonnance.black_prince.pettingzoo.NUM_ACTIONS`),
masks are its :func:`~ordonnance.black_prince.pettingzoo.action_mask` and observations
its :func:`~ordonnance.black_prince.pettingzoo.encode_view` vector, so a policy trained
on the single environment works on the batch and back.

>>> import numpy as np
>>> from ordonnance import black_prince as bp
>>> from ordonnance.black_prince.batch import Batch
>>> from ordonnance.black_prince.pettingzoo import encode_view
>>> batch = Batch(8, bp.Rules(), opponent="random", seat=0, seed=1)
>>> batch.observe().shape, batch.legal_action_mask().shape
((8, 355), (8, 117))
>>> rng = np.random.default_rng(0)
>>> for _ in range(30):
...     mask = batch.legal_action_mask()
...     result = batch.step(np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1))
>>> game = batch.game(3)  # the same position, as a Game
>>> bool(np.array_equal(encode_view(game.view(0)), batch.observe()[3]))
True

Seats, seeds, steps, illegal actions and the results of a step are those of every
game's batch (:class:`ordonnance.core.batch.GameBatch`): the kernel bot of the other
seat plays as :class:`~ordonnance.black_prince.bots.Random` or
:class:`~ordonnance.black_prince.bots.Greedy` seeded ``bot_seeds([deal], [0, 0])[0, seat]``
would; episode ``k`` of game ``i`` deals ``Game.new(rules, seed=int(game_seeds(seed, ...)[k * games + i]))``;
under ``seat="random"`` the learner's seat is drawn from the bot-seed stream of seat 2,
as :class:`~ordonnance.black_prince.pettingzoo.SingleAgentEnv` draws it. The learner
observes only its own decisions: the steps nobody decides (draws, forced battles'
breakthroughs) and the bot's whole turns happen inside a step. At the step that ends a
game the winner gets +1 and the other seat -1 (0 each on a draw), the rewards of
:mod:`ordonnance.black_prince.pettingzoo`; ``winner`` is the winning seat (-1: a draw)
and ``scores`` the enemy troops each seat routed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.black_prince import _batch_kernel as bk
from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince._bridge import decode, tables
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.rules import Rules
from ordonnance.black_prince.simulation import DECISIONS_PER_TURN
from ordonnance.core.batch import GameBatch

__all__ = ["Batch", "OBSERVATION_SIZE", "NUM_ACTIONS", "HISTORY"]

#: Length of an observation vector (as :data:`ordonnance.black_prince.pettingzoo.OBSERVATION_SIZE`).
OBSERVATION_SIZE = bk.OBSERVATION_SIZE
#: Number of action indices (as :data:`ordonnance.black_prince.pettingzoo.NUM_ACTIONS`).
NUM_ACTIONS = bk.NUM_ACTIONS
#: The most actions of an episode a batch keeps for :meth:`Batch.game`: every action of a game
#: of up to 273 turns (15 decisions a turn at most); ``Rules(max_turns=200)``, the default, fits.
HISTORY = 4096
_POLICIES = {"random": kernel.RANDOM, "greedy": kernel.GREEDY, "self": kernel.RANDOM}


class Batch(GameBatch):
    """``games`` games of Black Prince stepped together in numba (see the module docs).

    ``opponent`` plays the seat that is not the learner's inside the kernel (``"random"``
    or ``"greedy"``), or ``"self"`` leaves both seats to the caller. ``seat`` is the
    learner's seat, 0, 1 or ``"random"`` (drawn for each episode; ignored in
    self-play). ``seed`` seeds the deals (random when None); ``illegal`` is
    ``"refuse"`` (the game is unchanged) or ``"end"`` (the episode ends with
    ``illegal_reward``). Each step also computes every game's legal-action mask and,
    unless ``observe`` is None, its float32 observation.
    """

    rules_type = Rules
    num_actions = bk.NUM_ACTIONS
    seat_stream = 2  # seats are 0 and 1: stream 2 is no seat's (as SingleAgentEnv's seat="random")


    @property
    def rules(self) -> Rules:
        """The rules every game is played under."""
        rules: Rules = self._rules
        return rules

    def game(self, index: int) -> Game:
        """Game ``index`` as a :class:`~ordonnance.black_prince.Game` in its current position,
        rebuilt from its deal seed and the actions played so far through ``Game.apply``.

        An episode longer than :data:`HISTORY` actions (possible only with
        ``Rules(max_turns=...)`` above 273) is not kept whole and raises
        :class:`~ordonnance.errors.InvalidArgumentError`."""
        game: Game = super().game(index)
        return game

    def _history_length(self, rules: Rules) -> int:
        return min(DECISIONS_PER_TURN * rules.max_turns, HISTORY)

    def _observation_size(self, rules: Rules) -> int:
        return bk.OBSERVATION_SIZE

    def _prepare(self, rules: Rules) -> None:
        kinds = tables(rules)
        self._kinds = kinds
        self._cfg = bk.Config(kinds.tables, kinds.canon, kinds.canon_len, rules.first == "coin", rules.max_turns,
                              _POLICIES[self.opponent])  # fmt: skip
        self._games = bk.new_games(self.games, kinds.canon.shape[1])

    def _kernel_reset(self, ended_only: bool = False) -> None:
        bk.reset(self._cfg, self._games, self._episodes, self._base, self._settings.seat_mode, self.seat_stream,
                 self._observe_too, self._fused, self._mask, ended_only)  # fmt: skip

    def _step_kernel(self) -> Callable[..., object]:
        step: Callable[..., object] = bk.step
        return step

    def _kernel_step_args(self, actions: npt.NDArray[np.int64]) -> tuple[object, ...]:
        settings = self._settings
        return (
            self._cfg, self._games, self._episodes, self._base, actions, settings.seat_mode, self.seat_stream,
            settings.illegal_ends, settings.illegal_reward, self._steps, self._observe_too, self._fused, self._mask,
        )  # fmt: skip

    def _kernel_observe(self, seats: npt.NDArray[np.int64], out: npt.NDArray[Any]) -> None:
        bk.observe(self._cfg.tables, self._games, seats, out)

    def _seats_to_act(self) -> npt.NDArray[np.int64]:
        return self._games.ints[:, kernel.CURRENT].copy()

    def _replay(self, deal: int, actions: list[int]) -> Game:
        game = Game.new(self._rules, seed=deal)
        for code in actions:
            game.apply(decode(code, self._kinds))
        return game
