"""Private numba kernels: the strongest completion of a partial army.

The public wrappers in :mod:`ordonnance.completion` validate everything
first. Here a partial army is four card masks (0 = empty slot; the number of
empty slots is ``k``, the cards still to add) and the pool is a ``counts``
array indexed by card mask (``counts[m]`` copies of mask ``m``; entry 0 and
non-positive counts are ignored, and at most the first 32 entries are read).
The kernels never raise and only index their own tables with values they
have bounded.

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

import numba
import numpy as np
import numpy.typing as npt

from ordonnance._army_kernel import key4

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


@numba.njit(cache=True)
def _search(
    p0: int,
    p1: int,
    p2: int,
    p3: int,
    counts: npt.NDArray[np.int64],
    floor: int,
    first: bool,
    out: npt.NDArray[np.int64],
) -> int:
    """The best completion key above ``floor`` (the first found if ``first``), else NONE.

    The added masks of the completion returned are written to ``out[:k]``
    (as far as ``out`` reaches), in search order.
    """
    # One allocation: the army c (partial first, then the slots being filled),
    # per depth the next position to try and the forbidden positions, copies
    # left per position, and the OR of the pool's masks from each position on.
    work = np.zeros(4 + 4 + 4 + 32 + 32, np.int64)
    c = work[0:4]
    cur = work[4:8]
    forbidden = work[8:12]
    copies = work[12:44]
    suffix_or = work[44:76]

    n = 0
    for p in (p0, p1, p2, p3):
        if p != 0:
            c[n] = p & 31
            n += 1
    k = 4 - n
    if k == 0:
        key = key4(c[0], c[1], c[2], c[3])
        return key if key > floor else NONE

    # More than k copies of a mask never matter.
    present = 0
    total = 0
    size = min(counts.shape[0], 32)
    for i in range(30, -1, -1):
        m = _ORDER[i]
        suffix_or[i] = suffix_or[i + 1]
        if m < size and counts[m] > 0:
            copies[i] = min(counts[m], k)
            total += copies[i]
            present |= 1 << i
            suffix_or[i] |= m
    if total < k:
        return NONE

    best = floor
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
                    for i in range(k):
                        if i < out.shape[0]:
                            out[i] = c[n + i] if i < k - 1 else m
                    if first or best >= ceiling:
                        return best
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
    return best if best > floor else NONE


@numba.njit(cache=True)
def best_completion(
    p0: int, p1: int, p2: int, p3: int, counts: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> int:
    """The strongest key reachable by filling the empty slots from the pool, or NONE.

    NONE (-1) means the pool holds fewer cards than there are empty slots.
    The added masks are written to ``out[:k]`` (``out`` should hold 4 entries).
    """
    return _search(p0, p1, p2, p3, counts, -1, False, out)


@numba.njit(cache=True)
def beats(
    p0: int,
    p1: int,
    p2: int,
    p3: int,
    counts: npt.NDArray[np.int64],
    threshold: int,
    out: npt.NDArray[np.int64],
) -> int:
    """The key of some completion with key >= ``threshold``, or NONE if there is none.

    Stops at the first such completion found; its added masks go to ``out[:k]``.
    """
    floor = threshold - 1 if threshold > 0 else -1
    return _search(p0, p1, p2, p3, counts, floor, True, out)
