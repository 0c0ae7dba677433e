"""Common deals for Ordonnance's card values: each variant's deck order derived from the base's.

Game ``i`` of the base arm is dealt from seed ``seeds[i]`` as ``simulate`` deals it (the
kernel's shuffle of the deck sorted by mask). The variant's order for game ``i`` is that
order with one change, chosen from a stream of its own (the SplitMix64 output of the
game's seed XOR :data:`CHOICES`, a constant no other stream uses), and **every other card
stays in its place**:

* ``ADD``: the new copy put at a uniformly chosen place ``p`` in ``0..size`` (``size``
  the base deck's); the card that was at ``p`` moves to the bottom (``p == size``: the
  copy is appended);
* ``REMOVE``: a uniformly chosen copy of the kind taken out of its place ``q``; the bottom
  card moves into ``q`` (a copy at the bottom is simply dropped);
* ``SWAP``: a uniformly chosen copy of the kind replaced, in place, by the other kind.

Each arm's order is still a uniformly random order of its own deck: each change is a
bijection between (the base's order, the choice) and the variant's orders (with the
changed place, which the variant's order and the base's name), and the base's order and
the choice are uniform and independent, so every order of the variant's deck comes from
as many pairs, equally likely.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance.core.jit import bounded, mixed, unsigned
from ordonnance.core.seeds import game_seeds, wrapping
from ordonnance.errors import InvalidArgumentError

__all__ = ["ADD", "REMOVE", "SWAP", "CHOICES", "base_orders", "derived_orders", "drawers", "Derived"]

#: The changes, as :func:`derived_orders` numbers them.
ADD, REMOVE, SWAP = 0, 1, 2

#: XORed into a game's seed for the stream of its derived order's choice (used by nothing else; for no seed
#: does it meet the shuffle's draws or the bots' streams of the game: the tests check the algebra).
CHOICES = np.uint64(0x5BD1E9955BD1E995)

_u = unsigned


def base_orders(rules: Any, seeds: npt.NDArray[np.uint64]) -> npt.NDArray[np.int8]:
    """``[game, i]``: the deck order (card masks, top first) ``simulate(rules, ...)`` deals game
    ``i`` from, for each game seed."""
    cards = kernel.deck_of(rules)
    out = np.empty((len(seeds), len(cards)), np.int8)
    with wrapping():
        _derive(cards, np.ascontiguousarray(seeds, np.uint64), -1, 0, 0, out, np.empty(len(seeds), np.int64))
    return out


def derived_orders(
    rules: Any, seeds: npt.NDArray[np.uint64], change: int, mask: int, other: int = 0
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The variant's deck order of each game and where its change is: ``rules``' base order of
    game ``i`` (:func:`base_orders`) with ``change`` (:data:`ADD`, :data:`REMOVE`, :data:`SWAP`) made
    to a copy of the card ``mask`` (``other``: the card a swap puts in its place), every other
    card in its place but the one the change moves to or from the bottom (the module says how).

    The place is the changed copy's index in the variant's order (an added or swapped-in copy)
    or in the base's (a removed one); it is the same index in both, and the two orders agree
    everywhere else but at the bottom. The caller makes sure the base deck holds a copy of
    ``mask`` to remove or swap."""
    cards = kernel.deck_of(rules)
    size = len(cards) + (1 if change == ADD else -1 if change == REMOVE else 0)
    out = np.empty((len(seeds), size), np.int8)
    at = np.empty(len(seeds), np.int64)
    with wrapping():
        _derive(cards, np.ascontiguousarray(seeds, np.uint64), change, mask, other, out, at)
    return out, at


def drawers(result: Any, orders: npt.NDArray[np.integer[Any]], places: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """The seat that drew card ``places[g]`` of game ``g``'s deck order ``orders[g]`` (top first) in the
    recorded games of ``result`` (``simulate`` or ``_simulate_orders`` with ``record=True``, dealt from
    those orders), or -1 where the game ended before that card was drawn: each game replayed in the
    kernel from its recorded actions (:func:`ordonnance._simulator_kernel.drawers`)."""
    if result.actions is None:
        raise InvalidArgumentError("drawers needs a result simulated with record=True")
    if int(result.decisions.max(initial=0)) > kernel.MAX_ACTIONS:
        raise InvalidArgumentError(f"a game took more than {kernel.MAX_ACTIONS} actions: its record is cut short")
    rules = result.rules
    cfg = kernel.config(rules, [kernel.RANDOM] * rules.players)
    out = np.empty(len(result), np.int64)
    with wrapping():  # the kernel's words wrap around on purpose, also without the JIT
        kernel.drawers(
            cfg, kernel.new_state(1, len(rules.cards)), np.ascontiguousarray(orders, np.int8), result.actions,
            np.ascontiguousarray(result.decisions, np.int64), np.ascontiguousarray(places, np.int64), out,
            np.zeros(kernel.SCRATCH, np.int64),
        )  # fmt: skip
    return out


@numba.njit(cache=True)
def _derive(
    cards: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.uint64],
    change: int,
    mask: int,
    other: int,
    out: npt.NDArray[np.int8],
    at: npt.NDArray[np.int64],
) -> None:
    """Each game's base order (``change`` -1) or derived order into ``out``, the changed place into ``at``."""
    size = cards.shape[0]
    row = np.empty(size, np.int64)
    draws = np.empty(kernel.SHUFFLE_DRAWS, np.int64)
    for g in range(seeds.shape[0]):
        kernel._shuffle(cards, seeds[_u(g)], row, draws)
        value = mixed(seeds[_u(g)] ^ CHOICES)
        place = 0
        if change == ADD:
            place = bounded(value, size + 1)
        elif change >= 0:
            copies = 0
            for i in range(size):
                copies += row[_u(i)] == mask
            nth = bounded(value, copies)
            for i in range(size):
                if row[_u(i)] == mask:
                    if nth == 0:
                        place = i
                        break
                    nth -= 1
        at[_u(g)] = place
        for i in range(min(size, out.shape[1])):
            out[_u(g), _u(i)] = row[_u(i)]
        if change == ADD:
            if place < size:
                out[_u(g), _u(size)] = row[_u(place)]
            out[_u(g), _u(place)] = mask
        elif change == REMOVE:
            if place < size - 1:
                out[_u(g), _u(place)] = row[_u(size - 1)]
        elif change == SWAP:
            out[_u(g), _u(place)] = other


@attrs.frozen
class Derived:
    """How a variant's deals come from the base's: ``change`` made to a copy of the card ``mask``
    (``other``: the card a swap puts in) in each base order of ``base`` (picklable, for chunk tasks)."""

    base: Any
    """The base rules."""
    change: int
    """:data:`ADD`, :data:`REMOVE` or :data:`SWAP`."""
    mask: int
    """The card changed."""
    other: int = 0
    """The card a swap puts in its place."""

    def simulate(self, variant: Any, games: int, seed: int, players: Sequence[Any] | None, record: bool) -> Any:
        """Games ``0..games-1`` of ``variant`` (the base's deck with the change) dealt from the
        orders derived from those of ``simulate(base, games=games, seed=seed)``, each with the
        bot seeds that game has there: the base's games and this arm's are paired deal by deal."""
        from ordonnance.simulation import _simulate_orders

        seeds = game_seeds(seed, games)
        orders, _ = derived_orders(self.base, seeds, self.change, self.mask, self.other)
        return _simulate_orders(variant, orders, seeds, players, record)
