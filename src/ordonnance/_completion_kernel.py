"""Private numba kernels: the strongest completion of a partial army.

The public wrappers in :mod:`ordonnance.completion` validate everything
first. Here a partial army is four card masks (0 = empty slot; the number of
empty slots is ``k``, the cards still to add) and the pool is a ``counts``
array indexed by card mask (``counts[m]`` copies of mask ``m``; entry 0 and
non-positive counts are ignored, and at most the first 32 entries are read).
The kernels never raise and only index their own tables with values they
have bounded.

A kernel returns one ``int64``: ``NONE`` (-1) when there is no completion
(or none at the threshold), else the key and the added cards packed as::

    bits 23 and up   22..20   19..15  14..10  9..5    4..0
    key              k        card 3  card 2  card 1  card 0

where ``k`` is the number of cards added and cards ``0 .. k-1`` are their
masks in search order (most symbols first); see :func:`unpack`. Packing
spares the caller an output array per call.

The search is a depth-first branch and bound over the multisets of ``k`` pool
cards, written as a loop over an explicit stack of at most four slots:

* **Order.** The 31 card masks are tried most symbols first, then highest
  mask first (``_ORDER``). A slot only takes masks at or after the previous
  slot's position, so each multiset is met once, and the first leaves are
  usually close to the best.
* **Bound.** Strength is monotone (adding a symbol or a card never lowers the
  key), so filling every open slot with the OR of the pool's masks from the
  current position on bounds every completion below. That OR only shrinks
  along the order, so once the bound cannot beat the best key found, the rest
  of the slot's loop is cut.
* **Dominance.** If a completion uses mask ``m`` while a strict superset of
  ``m`` still has a spare copy, swapping them is at least as strong. So once a
  slot passes over a mask with copies left, every subset of it is forbidden
  in that slot and the slots after it. Supersets come first in the order, and
  the candidates of a slot are one bitset (present, not forbidden, not yet
  tried) whose lowest bit is the next position to try.
* **Early exit.** The bound at the root is the best key any completion could
  have; reaching it ends the search. In "beats" mode the first completion at
  or above the threshold ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba.core import types
from numba.extending import overload

from ordonnance._army_kernel import key4, word_key

_MASKS = range(1, 32)

#: The card masks in search order: most symbols first, then highest mask first.
_ORDER = np.array(sorted(_MASKS, key=lambda m: (-m.bit_count(), -m)), dtype=np.int64)
_POSITION = {int(m): i for i, m in enumerate(_ORDER)}
#: _SUBSETS[i]: bit j set when _ORDER[j] is a strict subset of _ORDER[i] (then j > i).
_SUBSETS = np.array(
    [
        sum(1 << _POSITION[s] for s in _MASKS if s != m and s & m == s)
        for m in _ORDER.tolist()
    ],
    dtype=np.int64,
)
#: De Bruijn table: the index of the lowest set bit of a 32-bit word.
_DEBRUIJN = 0x077CB531
_LOWEST_BIT = np.zeros(32, np.int64)
for _bit in range(32):
    _LOWEST_BIT[((_DEBRUIJN << _bit) & 0xFFFFFFFF) >> 27] = _bit
del _bit

#: Returned when no completion exists (pool too small) or none reaches the threshold.
NONE = -1
#: Bits per card mask, and where k and the key sit, in a packed result.
CARD_BITS = 5
COUNT_SHIFT = 20
KEY_SHIFT = 23


@numba.njit(cache=True, inline="always")
def _lowest_bit(x: int) -> int:
    """The index of the lowest set bit of ``x`` (0 < x < 2**32)."""
    return int(_LOWEST_BIT[(((x & -x) * _DEBRUIJN) & 0xFFFFFFFF) >> 27])


@numba.njit(cache=True, inline="always")
def _key_filled(c: npt.NDArray[np.int64], pos: int, fill: int) -> int:
    """The key of ``c[:pos]`` with every slot from ``pos`` on holding ``fill``."""
    a = c[0] if pos > 0 else fill
    b = c[1] if pos > 1 else fill
    d = c[2] if pos > 2 else fill
    return key4(a, b, d, fill)


@numba.njit(cache=True, inline="always")
def _place(c: npt.NDArray[np.int64], n: int, mask: int) -> int:
    """Put a partial army's card into ``c[n]`` unless it is an empty slot; the new count."""
    if mask == 0:
        return n
    c[n] = mask & 31
    return n + 1


#: Returned by :func:`first_completion` when only a search can tell.
UNDECIDED = 0
#: _LEVEL_START[i]: where the masks with 5 - i symbols start in _ORDER (then _LEVEL_START[i + 1]).
_LEVEL_START = np.array([0, 1, 6, 16, 26, 31], dtype=np.int64)
#: _REPEATED[c]: a 1 in each of the first c bytes (times a mask: c copies of it in an army word).
_REPEATED = np.array([0, 0x1, 0x101, 0x10101, 0x1010101], dtype=np.int64)


def entry(counts: npt.NDArray[np.int64], g: int, i: int) -> int:
    """``counts[i]`` of a 1-D array or a pointer, ``counts[g, i]`` of a 2-D array
    (compiled: chosen by the type, so one kernel reads a pool array, a board or a
    pointer to a board's row)."""
    return int(counts[g, i] if counts.ndim == 2 else counts[i])


@overload(entry)
def _entry(counts: Any, g: Any, i: Any) -> Any:
    if isinstance(counts, types.CPointer):

        def at(counts: Any, g: Any, i: Any) -> Any:  # numba wants the overload's parameters, annotations included
            return counts[np.uint64(i)]

        return at

    if counts.ndim == 2:

        def row(counts: Any, g: Any, i: Any) -> Any:  # numba wants the overload's parameters, annotations included
            return counts[np.uint64(g), np.uint64(i)]

        return row

    def flat(counts: Any, g: Any, i: Any) -> Any:
        return counts[np.uint64(i)]

    return flat


@numba.njit(cache=True, inline="always")
def army_word_key(word: int) -> int:
    """The key of the army in an army word (card masks in bytes 0..3, 0 = empty slot;
    :func:`ordonnance._army_kernel.key4` of its lanes)."""
    return np.int64(word_key(np.uint32(word)))  # type: ignore[return-value]


@numba.njit(cache=True, inline="always")
def first_completion(army: int, length: int, counts: Any, g: int, base: int, size: int, floor: int) -> int:
    """What a search in "beats" mode (threshold ``floor + 1``) can tell at once about the
    army word ``army`` (``length`` < 4 cards in lanes 0..length-1) and the pool whose
    copies of mask ``m`` are :func:`entry` ``(counts, g, base + m)`` for ``m < size``
    (none above):

    * the search's first leaf, as an army word (the army's lanes, then the added
      cards in search order), when its key is above ``floor``: the search
      returns it;
    * NONE when the pool holds too few cards or even every empty slot holding
      the OR of the pool's masks (the search's bound at the root) is not above
      ``floor``: the search finds nothing;
    * else UNDECIDED.

    No views, no working memory: the automatic claims call it before a search.
    The pool is read a level of ``_ORDER`` (a number of symbols) at a time,
    each level's copies taken without branches, and no further than the level
    that fills the army, unless the leaf is too weak and the bound needs the
    OR of every mask the pool holds.
    """
    word = army
    at = length
    fill = 0  # the OR of the pool's masks met so far
    i = 0
    for level in range(5):
        # A level's masks in search order, copies taken without branches.
        for i in range(_LEVEL_START[level], _LEVEL_START[level + 1]):
            m = _ORDER[i]
            copies = entry(counts, g, base + m) if m < size else 0
            taken = min(max(copies, 0), 4 - at)
            word |= (m * _REPEATED[taken]) << (8 * at)
            at += taken
            fill |= m if copies > 0 else 0
        if at == 4:
            break
    if at < 4:
        return NONE
    if army_word_key(word) > floor:
        return word
    for j in range(i + 1, 31):
        m = _ORDER[j]
        fill |= m if m < size and entry(counts, g, base + m) > 0 else 0
    ceiling = army
    for j in range(length, 4):
        ceiling |= fill << (8 * j)
    return NONE if army_word_key(ceiling) <= floor else UNDECIDED


#: Working memory of a search, in int64 entries.
WORK = 4 + 4 + 4 + 32 + 32


@numba.njit(cache=True)
def _search(
    p0: int,
    p1: int,
    p2: int,
    p3: int,
    counts: npt.NDArray[np.int64],
    floor: int,
    first: bool,
    work: npt.NDArray[np.int64],
) -> int:
    """The best completion above key ``floor`` (the first found if ``first``), packed.

    NONE when no completion has a key above ``floor``. ``work`` holds at least
    WORK entries; its contents on entry do not matter.
    """
    # The army c (partial first, then the slots being filled), per depth the
    # next position to try and the forbidden positions, copies left per
    # position, and the OR of the pool's masks from each position on.
    c = work[0:4]
    cur = work[4:8]
    forbidden = work[8:12]
    copies = work[12:44]
    suffix_or = work[44:76]
    cur[0] = 0
    forbidden[0] = 0
    suffix_or[31] = 0

    n = _place(c, 0, p0)
    n = _place(c, n, p1)
    n = _place(c, n, p2)
    n = _place(c, n, p3)
    k = 4 - n
    if k == 0:
        key = key4(c[0], c[1], c[2], c[3])
        return key << KEY_SHIFT if key > floor else NONE
    size = min(counts.shape[0], 32)

    if first:
        # The first leaf, or no search when even the ceiling is too low.
        army = c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24)
        word = first_completion(army & ((1 << (8 * n)) - 1), n, counts, 0, 0, size, floor)
        if word == NONE:
            return NONE
        if word != UNDECIDED:
            added = 0
            for i in range(k):
                added |= ((word >> (8 * (n + i))) & 31) << (CARD_BITS * i)
            return (army_word_key(word) << KEY_SHIFT) | (k << COUNT_SHIFT) | added

    # More than k copies of a mask never matter.
    # Without branches: which masks the pool holds is data the processor cannot predict.
    present = 0
    total = 0
    for i in range(30, -1, -1):
        m = _ORDER[i]
        held = min(max(counts[m] if m < size else 0, 0), k)
        copies[i] = held
        total += held
        has = held > 0
        present |= has << i
        suffix_or[i] = suffix_or[i + 1] | (m * has)
    if total < k:
        return NONE

    best = floor
    best_added = 0
    ceiling = _key_filled(c, n, suffix_or[0])
    if ceiling <= best:
        return NONE

    s = 0
    while True:
        pos = n + s
        candidates = present & ~forbidden[s] & (-1 << cur[s])
        if candidates != 0:
            j = _lowest_bit(candidates)
            if _key_filled(c, pos, suffix_or[j]) > best:
                m = _ORDER[j]
                cur[s] = j
                if pos < 3:
                    c[pos] = m
                    copies[j] -= 1
                    if copies[j] == 0:
                        present &= ~(1 << j)
                    s += 1
                    cur[s] = j
                    forbidden[s] = forbidden[s - 1]
                    continue
                key = key4(c[0], c[1], c[2], m)
                if key > best:
                    best = key
                    best_added = m << (CARD_BITS * (k - 1))
                    for i in range(k - 1):
                        best_added |= c[n + i] << (CARD_BITS * i)
                    if first or best >= ceiling:
                        break
                # Passing over m (it still has a copy) forbids its subsets.
                forbidden[s] |= _SUBSETS[j]
                cur[s] = j + 1
                continue
        # This slot is exhausted or cannot beat `best`: back up one slot.
        if s == 0:
            break
        s -= 1
        j = cur[s]
        copies[j] += 1
        present |= 1 << j
        forbidden[s] |= _SUBSETS[j]
        cur[s] = j + 1
    if best <= floor:
        return NONE
    return (best << KEY_SHIFT) | (k << COUNT_SHIFT) | best_added


@numba.njit(cache=True)
def best_completion(p0: int, p1: int, p2: int, p3: int, counts: npt.NDArray[np.int64]) -> int:
    """The strongest completion of the army ``p0..p3`` from the pool ``counts``, packed.

    NONE (-1) means the pool holds fewer cards than there are empty slots.
    """
    return _search(p0, p1, p2, p3, counts, -1, False, np.empty(WORK, np.int64))


@numba.njit(cache=True)
def beats(
    p0: int, p1: int, p2: int, p3: int, counts: npt.NDArray[np.int64], threshold: int
) -> int:
    """Some completion with key >= ``threshold``, packed, or NONE if there is none.

    Stops at the first such completion found, which need not be the strongest.
    """
    return beats_into(p0, p1, p2, p3, counts, threshold, np.empty(WORK, np.int64))


@numba.njit(cache=True)
def beats_into(
    p0: int, p1: int, p2: int, p3: int, counts: npt.NDArray[np.int64], threshold: int, work: npt.NDArray[np.int64]
) -> int:
    """:func:`beats` with the caller's working memory (at least WORK entries)."""
    floor = threshold - 1 if threshold > 0 else -1
    return _search(p0, p1, p2, p3, counts, floor, True, work)


#: Returned by the ``*_of_bytes`` kernels when a pool byte is not a card mask (0 or above 31).
BAD_POOL = -2


@numba.njit(cache=True, inline="always")
def _counts_of_bytes(pool: bytes, counts: npt.NDArray[np.int64]) -> bool:
    """Count the masks of ``pool`` (one per byte) into ``counts``; False if a byte is no card mask."""
    bad = 0
    for i in range(len(pool)):
        m = pool[i]
        counts[m & 31] += 1
        bad |= (m == 0) | (m > 31)
    return bad == 0


@numba.njit(cache=True)
def search_of_bytes(army: int, pool: bytes, threshold: int) -> int:
    """:func:`best_completion` when ``threshold`` is negative, else :func:`beats`, with
    the pool given as one card mask per byte, or BAD_POOL when a pool byte is not a
    card mask. ``army`` is an army word: the partial army's masks in bytes 0..3 (an
    int, which numba's dispatch types far faster than a second bytes object)."""
    work = np.zeros(WORK + 32, np.int64)  # one allocation: the search's memory, then the counts
    counts = work[WORK:]
    if not _counts_of_bytes(pool, counts):
        return BAD_POOL
    p0, p1, p2, p3 = army & 31, (army >> 8) & 31, (army >> 16) & 31, (army >> 24) & 31
    if threshold < 0:
        return _search(p0, p1, p2, p3, counts, -1, False, work)
    return beats_into(p0, p1, p2, p3, counts, threshold, work)


_ADDED: tuple[Callable[[int], tuple[int, ...]], ...] = (
    lambda p: (),
    lambda p: (p & 31,),
    lambda p: (p & 31, p >> 5 & 31),
    lambda p: (p & 31, p >> 5 & 31, p >> 10 & 31),
    lambda p: (p & 31, p >> 5 & 31, p >> 10 & 31, p >> 15 & 31),
)


def unpack(packed: int) -> tuple[int, tuple[int, ...]]:
    """Split a packed result (not NONE) into the key and the added masks.

    >>> unpack((123 << KEY_SHIFT) | (2 << COUNT_SHIFT) | (16 << CARD_BITS) | 31)
    (123, (31, 16))
    """
    return packed >> KEY_SHIFT, _ADDED[(packed >> COUNT_SHIFT) & 7](packed)
