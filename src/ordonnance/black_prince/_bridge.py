"""Every translation between Black Prince's engine and its kernel's arrays, in one place.

The kernel (:mod:`ordonnance.black_prince._kernel`) keeps a game in the arrays
of a ``State`` and reads the cards of a rules' two decks from ``Tables``. What
maps to what:

* a card is its *kind*, an index into the sorted kinds of the two decks
  (:class:`Kinds`, :func:`tables`: the kernel's tables of types, strengths and
  advantage masks, and each deck in kinds); -1 is no card;
* the battlefield is ``cells[row, column]`` (rows as in ``Game``); hands
  ``hands[seat]`` with ``hand_len[seat]``; decks ``decks[seat]``, top card
  last, with ``deck_len[seat]``; discard piles ``discards[seat]`` with
  ``discard_len[seat]``; ``rng`` the chance stream (breakthroughs);
* the turn's flags by the attacker's column: ``flags[0]`` attacked,
  ``flags[1]`` moved, ``flags[2]`` contact; ``ints`` holds the seat to act
  (``CURRENT``), the phase (``PHASE``: ``PLACE``, ``CHOOSE``, ``BATTLE``,
  ``OVER``), the ``TURN``, the view's ``fought`` (``FOUGHT``), each seat's
  routs (``ROUTED``) and the turn the game is cut at (``MAX_TURNS``);
* an action is an int (:func:`encode`, :func:`decode`; ``_kernel.encode``
  packs the operation and its two operands).

:func:`state_of_view` writes what one seat's view shows (the search bots deal
the rest).
"""

from __future__ import annotations

import functools

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince.actions import (
    END_BATTLE,
    END_TURN,
    PLAY_BATTLE,
    Action,
    EndBattle,
    EndTurn,
    Fight,
    MountedMove,
    Move,
    Place,
    PlaceBehind,
    PlayBattle,
)
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.rules import Rules
from ordonnance.black_prince.view import PlayerView

__all__ = ["Kinds", "tables", "encode", "decode", "state_of_view"]

_PHASES = {"place": kernel.PLACE, "choose": kernel.CHOOSE, "battle": kernel.BATTLE, "over": kernel.OVER}


@attrs.frozen(eq=False)
class Kinds:
    """The card kinds of a rules' two decks, as the kernel numbers them."""

    cards: tuple[Card, ...]
    """Kind i is ``cards[i]`` (sorted canonically, no repeats)."""
    tables: kernel.Tables
    """The kernel's tables of types, strengths and advantage masks."""
    canon: npt.NDArray[np.int64]
    """``[seat, i]``: kind of card i of ``rules.deck(seat)`` (padded with -1)."""
    canon_len: npt.NDArray[np.int64]
    """Each deck's size."""
    index: dict[Card, int]
    """A card's kind number."""


@functools.lru_cache(maxsize=64)
def tables(rules: Rules) -> Kinds:
    """The kernel's view of ``rules``' cards (cached per rules)."""
    cards = tuple(sorted(set(rules.deck(0)) | set(rules.deck(1)), key=lambda c: c.sort_key))
    index = {card: i for i, card in enumerate(cards)}
    kind_type = np.array([-1 if c.type is None else int(c.type) for c in cards], np.int64)
    strength = np.array([c.strength for c in cards], np.int64)
    advantages = np.array([sum(1 << int(t) for t in rules.card_advantages(c)) for c in cards], np.int64)
    size = max(len(rules.deck(0)), len(rules.deck(1)))
    canon = np.full((2, size), -1, np.int64)
    for seat in (0, 1):
        canon[seat, : len(rules.deck(seat))] = [index[c] for c in rules.deck(seat)]
    canon_len = np.array([len(rules.deck(0)), len(rules.deck(1))], np.int64)
    return Kinds(cards, kernel.Tables(kind_type, strength, advantages), canon, canon_len, index)


def encode(action: Action, kinds: Kinds) -> int:
    """The kernel's int for ``action`` (see :func:`ordonnance.black_prince._kernel.encode`)."""
    if isinstance(action, (Place, PlaceBehind)):
        return int(kernel.encode(kernel.OP_PLACE if type(action) is Place else kernel.OP_BEHIND,
                                 kinds.index[action.card], action.column))  # fmt: skip
    if isinstance(action, (Move, MountedMove)):
        op = kernel.OP_MOVE if type(action) is Move else kernel.OP_RIDE
        return int(kernel.encode(op, action.column, (action.step + 1) // 2))
    if isinstance(action, Fight):
        return int(kernel.encode(kernel.OP_FIGHT, action.column, action.target))
    op = {PlayBattle: kernel.OP_BATTLE, EndTurn: kernel.OP_END_TURN, EndBattle: kernel.OP_END_BATTLE}[type(action)]
    return int(kernel.encode(op, 0, 0))


def decode(code: int, kinds: Kinds) -> Action:
    """The action the kernel's int ``code`` stands for."""
    op, a, b = code & 7, (code >> 3) & 255, code >> 11
    if op == kernel.OP_PLACE:
        return Place(kinds.cards[a], b)
    if op == kernel.OP_BEHIND:
        return PlaceBehind(kinds.cards[a], b)
    if op == kernel.OP_MOVE:
        return Move(a, 2 * b - 1)
    if op == kernel.OP_RIDE:
        return MountedMove(a, 2 * b - 1)
    if op == kernel.OP_FIGHT:
        return Fight(a, b)
    if op == kernel.OP_BATTLE:
        return PLAY_BATTLE
    return END_TURN if op == kernel.OP_END_TURN else END_BATTLE


def state_of_view(view: PlayerView, max_turns: int) -> tuple[kernel.State, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The public state of ``view`` in the kernel's arrays, the game cut at turn ``max_turns``,
    and the two pools of unseen kinds (this seat's, the other's)."""
    kinds = tables(view.rules)
    index = kinds.index
    st = kernel.new_state(kinds.canon.shape[1])
    for r in range(4):
        for c in range(6):
            card = view.battlefield.cells[r][c]
            st.cells[r, c] = -1 if card is None else index[card]
    me = view.seat
    st.hands[me, : len(view.hand)] = [index[c] for c in view.hand]
    st.hand_len[me] = len(view.hand)
    for seat in (0, 1):
        pile = view.discards[seat]
        st.discards[seat, : len(pile)] = [index[c] for c in pile]
        st.discard_len[seat] = len(pile)
    st.flags[0] = view.attacked
    st.flags[1] = view.moved
    st.flags[2] = view.contact
    st.ints[kernel.CURRENT] = view.current_player
    st.ints[kernel.PHASE] = _PHASES[view.phase]
    st.ints[kernel.TURN] = view.turn
    st.ints[kernel.FOUGHT] = view.fought
    st.ints[kernel.ROUTED] = view.routed[0]
    st.ints[kernel.ROUTED + 1] = view.routed[1]
    st.ints[kernel.MAX_TURNS] = max_turns
    own = np.array([index[c] for c in view.unseen(me)], np.int64)
    other = np.array([index[c] for c in view.unseen(1 - me)], np.int64)
    return st, own, other
