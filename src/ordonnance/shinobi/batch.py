"""Batched games of Shinobi: many games held as arrays and stepped together in numba.

A :class:`Batch` holds ``games`` games of one :class:`~ordonnance.shinobi.Rules` as
the rows of a 2-D array of Shinobi's state records and steps them all at once, one
action per game, on Shinobi's own rules kernel (the functions
:func:`ordonnance.shinobi.simulate` runs). Actions are the action codes
0..305 (:data:`~ordonnance.shinobi.ACTION_COUNT`), masks are
:func:`ordonnance.shinobi.rl.action_mask`'s and observations
:func:`ordonnance.shinobi.rl.encode_view`'s vector, so a policy trained on the
single environment works on the batch and back.

>>> import numpy as np
>>> from ordonnance import shinobi
>>> from ordonnance.shinobi.batch import Batch
>>> from ordonnance.shinobi.rl import encode_view
>>> batch = Batch(8, shinobi.Rules(players=4), opponent="random", seat=0, seed=1)
>>> batch.observe().shape, batch.legal_action_mask().shape
((8, 70), (8, 306))
>>> rng = np.random.default_rng(0)
>>> for _ in range(30):
...     mask = batch.legal_action_mask()
...     result = batch.step(np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1))
>>> game = batch.game(3)  # the same position, as a Game
>>> bool(np.array_equal(encode_view(game.view(0)), batch.observe()[3]))
True

Seats, seeds, steps, illegal actions and the results of a step are those of every
game's batch (:class:`ordonnance.core.batch.GameBatch`): the kernel bots of the other
seats play as :class:`~ordonnance.shinobi.bots.Random` or
:class:`~ordonnance.shinobi.bots.Greedy` seeded ``bot_seeds([deal], [0] * players)[0, seat]``
would; episode ``k`` of game ``i`` deals ``Game.new(rules, seed=int(game_seeds(seed, ...)[k * games + i]))``.
At the step that ends a game the winners share +1 and the others share -1
(the rewards of :mod:`ordonnance.shinobi.rl`); ``winner`` is the seat that won alone
(-1 when several share the win) and ``scores`` each seat's cards of its clan on the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.core.batch import GameBatch
from ordonnance.shinobi import _batch_kernel as bk
from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi.actions import from_code
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rules import MAX_PLAYERS, Rules
from ordonnance.shinobi.simulation import max_decisions

__all__ = ["Batch", "observation_size"]

_POLICIES = {"random": kernel.RANDOM, "greedy": kernel.GREEDY, "self": kernel.RANDOM}


def observation_size(players: int) -> int:
    """The length of an observation vector: ``22 + 12 * players`` (as ordonnance.shinobi.rl's layout).

    >>> from ordonnance.shinobi.batch import observation_size
    >>> observation_size(4)
    70
    """
    return 22 + 12 * players


class Batch(GameBatch):
    """``games`` games of Shinobi stepped together in numba (see the module docs).

    ``opponent`` plays every seat but the learner's inside the kernel (``"random"`` or
    ``"greedy"``), or ``"self"`` leaves every seat to the caller. ``seat`` is the
    learner's seat, an int or ``"random"`` (drawn for each episode; ignored in
    self-play). ``seed`` seeds the deals (random when None); ``illegal`` is
    ``"refuse"`` (the game is unchanged) or ``"end"`` (the episode ends with
    ``illegal_reward``). Each step also computes every game's legal-action mask and,
    unless ``observe`` is None, its float32 observation.
    """

    rules_type = Rules
    num_actions = kernel.ACTION_COUNT
    seat_stream = MAX_PLAYERS  # seats are 0..4: stream 5 is no seat's


    @property
    def rules(self) -> Rules:
        """The rules every game is played under."""
        rules: Rules = self._rules
        return rules

    def game(self, index: int) -> Game:
        """Game ``index`` as a :class:`~ordonnance.shinobi.Game` in its current position, rebuilt
        from its deal seed and the actions played so far through ``Game.apply``."""
        game: Game = super().game(index)
        return game

    def _history_length(self, rules: Rules) -> int:
        return max_decisions(rules)

    def _observation_size(self, rules: Rules) -> int:
        return observation_size(rules.players)

    def _prepare(self, rules: Rules) -> None:
        self._troop = np.array(rules.troop_deck, np.int64)
        self._states = np.zeros((self.games, kernel.state_size(len(rules.troop_deck))), np.int64)
        self._work = np.zeros(kernel.WORK, np.int64)
        self._policy = _POLICIES[self.opponent]

    def _kernel_reset(self, ended_only: bool = False) -> None:
        bk.reset(
            self._states, self._episodes, self._rules.players, self._troop, self._rules.optional_attack, self._base,
            self._policy, self._settings.seat_mode, self.seat_stream, self._observe_too, self._fused, self._mask,
            self._work, ended_only,
        )  # fmt: skip

    def _step_kernel(self) -> Callable[..., object]:
        step: Callable[..., object] = bk.step
        return step

    def _kernel_step_args(self, actions: npt.NDArray[np.int64]) -> tuple[object, ...]:
        settings = self._settings
        return (
            self._states, self._episodes, self._rules.players, self._troop, self._rules.optional_attack, self._base,
            actions, self._policy, settings.seat_mode, self.seat_stream, settings.illegal_ends,
            settings.illegal_reward, self._steps, self._observe_too, self._fused, self._mask, self._work,
        )  # fmt: skip

    def _kernel_observe(self, seats: npt.NDArray[np.int64], out: npt.NDArray[Any]) -> None:
        bk.observe(self._states, seats, out)

    def _seats_to_act(self) -> npt.NDArray[np.int64]:
        return self._states[:, kernel.CUR].copy()

    def _replay(self, deal: int, actions: list[int]) -> Game:
        game = Game.new(self._rules, seed=deal)
        for code in actions:
            game.apply(from_code(code))
        return game
