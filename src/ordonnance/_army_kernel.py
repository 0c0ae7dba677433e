"""Private numba kernels of the army evaluator.

The kernels take masks that the public wrappers in :mod:`ordonnance.army`
have already validated (0..31, where 0 is an empty slot). They never raise,
never index a table and never branch on the data, so the batch loop
vectorises.

Per-symbol counts are computed bit-sliced: the four 5-bit masks are added
with a carry-save adder, giving for every symbol bit at once whether it is on
4, 3 or 2 of the cards.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

# Field positions of the key; see ordonnance.army for the documented layout.
_COMPANY_SHIFT = 0
_BATTALION_SHIFT = 8
_REGIMENT_SHIFT = 16
_COUNT_SHIFT = 5


@numba.njit(cache=True, inline="always")
def _popcount5(x: int) -> int:
    return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1) + ((x >> 4) & 1)


@numba.njit(cache=True, inline="always")
def _field(mask: int) -> int:
    return (_popcount5(mask) << _COUNT_SHIFT) | mask


@numba.njit(cache=True)
def key4(a: int, b: int, c: int, d: int) -> int:
    """The key of the army with card masks a, b, c, d (0 = empty slot)."""
    t1 = a ^ b
    c1 = a & b
    t2 = c ^ d
    c2 = c & d
    ones = t1 ^ t2
    c3 = t1 & t2
    regiments = c1 & c2
    twos = c1 ^ c2 ^ c3
    battalions = twos & ones
    companies = twos & ~ones & 31
    return (
        (_field(regiments) << _REGIMENT_SHIFT)
        | (_field(battalions) << _BATTALION_SHIFT)
        | (_field(companies) << _COMPANY_SHIFT)
    )


@numba.njit(cache=True)
def keys_from_words(words: npt.NDArray[np.uint32], out: npt.NDArray[np.uint32]) -> None:
    """Write the key of each army into ``out``; each word packs 4 mask bytes."""
    for i in range(words.shape[0]):
        w = words[i]
        out[i] = key4(w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, w >> 24)
