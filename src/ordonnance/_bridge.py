"""Every translation between Ordonnance's engine and the simulator kernel's row, in one place.

The simulator kernel (:mod:`ordonnance._simulator_kernel`) keeps a game in one
row of int64 (``State.board[g]``), at the offsets it names. What maps to what:

* a card is its mask; a run of cards (a hand in the order drawn, an army in
  play order) is one word of 8-bit lanes, the first card lowest
  (:func:`word`, :func:`lanes`), with its length beside it (``HAND_LEN``,
  ``ARMY_LEN``); army ``[t][p]`` sits at ``t * SEATS + p``;
* the draw pile: the engine keeps it top card *last*, the row top card first
  from ``ORDER + TOP`` to ``ORDER + deck``;
* owners are a seat or ``NOBODY``, markers 1..5 or 0, ``COMPLETED`` the play
  number of an army's fourth card or ``NOT_COMPLETE``, ``PASSED`` a bit per
  seat, ``HIDDEN`` the copies of each mask not face up;
* an action is its index in :mod:`ordonnance.rl`'s numbering (:func:`action_code`).

Three translations use it: a seat's view to a row of its public position
(:func:`setup_of`, for the search bots, which deal the rest), a game to a row
(:func:`game_row`) and a row back to a game (:func:`game_of_row`, through the
one constructor :meth:`Game._from_position <ordonnance.Game>`), both for
:mod:`ordonnance.openspiel`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance.actions import Action, Claim, Play
from ordonnance.errors import InvalidGameStateError
from ordonnance.game import NOBODY, Game
from ordonnance.rules import Rules
from ordonnance.view import PlayerView

__all__ = ["word", "lanes", "action_code", "Position", "Setup", "setup_of", "game_row", "game_of_row"]

_TERRITORIES = kernel.TERRITORIES


def word(masks: Iterable[int]) -> int:
    """The kernel's word of card lanes holding ``masks`` in order (one 8-bit lane each, the first lowest)."""
    return sum(m << (8 * i) for i, m in enumerate(masks))


def lanes(word: int, length: int) -> list[int]:
    """The masks in the first ``length`` lanes of a kernel word."""
    return [(word >> (8 * i)) & 255 for i in range(length)]


def action_code(action: Action) -> int:
    """The kernel's index of an action (:func:`ordonnance.rl.action_index`'s numbering, unchecked)."""
    if type(action) is Play:
        return (action.card.mask - 1) * _TERRITORIES + int(action.territory)
    if type(action) is Claim:
        return kernel.CLAIM_ACTIONS + int(action.territory)
    return kernel.PASS_ACTION


class Position(NamedTuple):
    """A view's position in the kernel, to be dealt again and again (``_montecarlo.determinize``).

    Each state holds one game (game 0); :func:`setup_of` builds it from a view.
    """

    start: kernel.State  # the public position: the other hands empty, no pile
    dealt: kernel.State  # start with the unseen cards dealt (written by determinize)
    work: kernel.State  # a copy of dealt to play out
    me: int  # the seat whose view it is
    pool: npt.NDArray[np.int64]  # the cards me cannot see, one entry per copy
    sizes: npt.NDArray[np.int64]  # each other seat's hand size (0 for me)
    scratch: npt.NDArray[np.int64]  # the rules functions' working memory


@attrs.frozen(eq=False)
class Setup:
    """What the search of one view needs: the rules' kernel config, the position, the top score."""

    cfg: kernel.Config
    position: Position
    max_score: int


def setup_of(view: PlayerView, rollout_policy: str) -> Setup:
    """The kernel's setup of what ``view`` shows (the other hands empty, no pile: the
    search deals them), every seat played by the kernel bot ``rollout_policy``
    (``"greedy"`` or ``"random"``); an inconsistent view raises
    :class:`~ordonnance.errors.InvalidGameStateError`."""
    rules = view.rules
    n = rules.players
    me = view.seat
    unseen = np.array(view.unseen, np.int64)
    pool = np.repeat(np.arange(unseen.shape[0], dtype=np.int64), unseen)
    sizes = np.array([0 if p == me else view.hand_sizes[p] for p in range(n)], np.int64)
    if max(view.hand_sizes) > kernel.MAX_HAND:
        raise InvalidGameStateError(f"inconsistent view: hand sizes {view.hand_sizes}, at most {kernel.MAX_HAND}")
    if int(sizes.sum()) + view.deck_size != pool.shape[0]:
        raise InvalidGameStateError(
            f"inconsistent view: {pool.shape[0]} unseen cards, but the other hands and the deck hold "
            f"{int(sizes.sum()) + view.deck_size}"
        )
    start = kernel.new_state(1, view.deck_size)
    row = start.board[0]
    own = [card.mask for card in view.hand]
    row[kernel.HAND + me] = word(own)
    row[kernel.HAND_LEN : kernel.HAND_LEN + n] = view.hand_sizes
    row[kernel.HIDDEN : kernel.HIDDEN + unseen.shape[0]] = unseen
    for m in own:
        row[kernel.HIDDEN + m] += 1
    for t in range(_TERRITORIES):
        row[kernel.OWNER + t] = kernel.NOBODY if view.owners[t] is None else view.owners[t]
        row[kernel.MARKER + t] = view.markers[t] or 0
        for p in range(n):
            at = t * kernel.SEATS + p
            army = view.armies[t][p]
            row[kernel.ARMY_AT + at] = word(card.mask for card in army)
            row[kernel.ARMY_LEN + at] = len(army)
            done = view.completed_at[t][p]
            row[kernel.COMPLETED + at] = kernel.NOT_COMPLETE if done is None else done
    row[kernel.PLAYS] = view.plays
    row[kernel.DECIDED] = sum(1 for o in view.owners if o is not None)
    row[kernel.CURRENT] = view.current_player
    row[kernel.PASSED] = sum(1 << p for p in view.passed)  # not asked again before a play or claim
    policy = kernel.GREEDY if rollout_policy == "greedy" else kernel.RANDOM
    cfg = kernel.config(rules, [policy] * n)._replace(deck=view.deck_size)  # the pile left to draw
    kernel.prepare(cfg, start, 0)
    position = Position(
        start=start,
        dealt=kernel.new_state(1, view.deck_size),
        work=kernel.new_state(1, view.deck_size),
        me=me,
        pool=pool,
        sizes=sizes,
        scratch=np.zeros(kernel.SCRATCH, np.int64),
    )
    return Setup(cfg=cfg, position=position, max_score=(3 if rules.scoring == "points" else 1) * _TERRITORIES)


def game_row(game: Game, size: int) -> list[int]:
    """``game``'s position as a kernel row of ``size`` fields, in a list (a NumPy array is
    slow to fill field by field); the fields the kernel derives are left 0 (``kernel.prepare``)."""
    n, deck, at = game.players, len(game.rules.cards), kernel.SEATS
    b = [0] * size
    for p in range(n):
        hand = game._hands[p]
        b[kernel.HAND + p] = word(hand)
        b[kernel.HAND_LEN + p] = len(hand)
        for t in range(_TERRITORIES):
            army = game._armies[t][p]
            b[kernel.ARMY_AT + t * at + p] = word(army)
            b[kernel.ARMY_LEN + t * at + p] = len(army)
            b[kernel.COMPLETED + t * at + p] = game._completed[t][p]
    b[kernel.OWNER : kernel.OWNER + _TERRITORIES] = game._owner
    b[kernel.MARKER : kernel.MARKER + _TERRITORIES] = game._marker
    b[kernel.HIDDEN : kernel.HIDDEN + 32] = game._hidden.tolist()
    top = deck - len(game._deck)
    b[kernel.TOP] = top
    b[kernel.ORDER + top : kernel.ORDER + deck] = game._deck[::-1]
    b[kernel.PLAYS] = game._plays
    b[kernel.DECIDED] = sum(1 for o in game._owner if o != NOBODY)
    b[kernel.CURRENT] = game._current
    b[kernel.OVER] = int(game._over)
    b[kernel.PASSED] = game._passed
    return b


def game_of_row(
    rules: Rules,
    b: list[int],
    *,
    seed: int | None,
    rng_state: int | None,
    history: list[Action] | None,
    order: tuple[int, ...] | None,
) -> Game:
    """The kernel row ``b`` (in a list) of a game of ``rules`` as the engine's Game (every
    field mapped), unchecked (the kernel is twin-tested against the engine); ``seed``,
    ``rng_state``, ``history`` and ``order`` as :meth:`Game._from_position <ordonnance.Game>` takes them."""
    n, deck, at = rules.players, len(rules.cards), kernel.SEATS
    return Game._from_position(
        rules,
        b[kernel.ORDER + b[kernel.TOP] : kernel.ORDER + deck][::-1],
        [lanes(b[kernel.HAND + p], b[kernel.HAND_LEN + p]) for p in range(n)],
        [[lanes(b[kernel.ARMY_AT + t * at + p], b[kernel.ARMY_LEN + t * at + p]) for p in range(n)]
         for t in range(_TERRITORIES)],  # fmt: skip
        [[b[kernel.COMPLETED + t * at + p] for p in range(n)] for t in range(_TERRITORIES)],
        b[kernel.OWNER : kernel.OWNER + _TERRITORIES],
        b[kernel.MARKER : kernel.MARKER + _TERRITORIES],
        b[kernel.PLAYS],
        b[kernel.CURRENT],
        bool(b[kernel.OVER]),
        b[kernel.PASSED],
        seed=seed,
        rng_state=rng_state,
        history=history,
        order=order,
        check="none",
    )
