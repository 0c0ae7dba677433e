"""Every translation between Shinobi's engine and its kernel's state record, in one place.

The kernel (:mod:`ordonnance.shinobi._kernel`) keeps a game in one int64
array, the *state record*, at the offsets it names. What maps to what:

* the header: players ``N``, the seat to act ``CUR``, the next ``ORDER``
  1..3, ``OVER``, the final round's turns left ``EXTRA`` (``NOT_FINAL``
  before it), ``OPTIONAL`` (``attack="optional"``), ``TURNS`` finished;
* ``CLAN + seat``: a seat's clan (after the players, the neutral clans);
* a hand is its count per card code (``HAND + CODES * seat + code``), with
  its size at ``HAND_LEN + seat``; ``DISCARD + code`` counts the discards;
* ``PROV + CLANS * seat + clan`` is an army's size, and bit ``clan`` of
  ``CHANGED + seat`` is set when it changed this turn;
* the troop deck, top card first, from ``DECK``, ``DECK_POS`` cards of it
  drawn, ``DECK_END`` long;
* an action is its :attr:`~ordonnance.shinobi.actions.Action.code`, the
  kernel's own numbering;
* the words and masks the kernel keeps beside them (``ARMIES``, ``HELD``,
  ``SIZES``, ...) are derived: ``kernel.refresh`` sets them.

:func:`state_of_view` writes what one seat's view shows (the search bots deal
the rest).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi.cards import CLANS
from ordonnance.shinobi.view import PlayerView

__all__ = ["state_of_view"]


def state_of_view(view: PlayerView) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The kernel state record of everything ``view`` shows (other hands and clans left
    empty, the deck's place holding nothing yet) and the pool of unseen card codes."""
    n = view.players
    pool = np.array([code for code, count in enumerate(view.unseen()) for _ in range(count)], np.int64)
    state = np.zeros(kernel.DECK + len(pool), np.int64)
    state[kernel.N] = n
    state[kernel.CUR] = view.current_player
    state[kernel.ORDER] = view.order
    state[kernel.OVER] = int(view.is_over)
    state[kernel.EXTRA] = kernel.NOT_FINAL if view.extra_turns_left is None else view.extra_turns_left
    state[kernel.OPTIONAL] = int(view.rules.optional_attack)
    state[kernel.DECK_POS] = 0
    state[kernel.DECK_END] = view.deck_size
    state[kernel.TURNS] = view.turns
    state[kernel.CLAN + view.seat] = view.clan
    for card in view.hand:
        state[kernel.HAND + kernel.CODES * view.seat + card.code] += 1
    for q in range(n):
        state[kernel.HAND_LEN + q] = view.hand_sizes[q]
        for c in range(CLANS):
            state[kernel.PROV + CLANS * q + c] = view.provinces[q][c]
            state[kernel.CHANGED + q] |= int(view.changed[q][c]) << c
    for code, count in enumerate(view.discard):
        state[kernel.DISCARD + code] = count
    kernel.refresh(state)
    return state, pool
