"""The game's random number generator: SplitMix64, written out so that a seed
gives the same deck on every machine, Python and NumPy version, and so that
the numba simulator can reproduce it bit for bit.
"""

from __future__ import annotations

from typing import TypeVar

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


def splitmix64(state: int) -> tuple[int, int]:
    """Advance ``state``; returns ``(new_state, output)``, both 64-bit."""
    state = (state + _GAMMA) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def skipped(state: int, steps: int) -> int:
    """The state ``steps`` draws after ``state``, at once (SplitMix64's state only adds its constant).

    >>> state = 5
    >>> for _ in range(3):
    ...     state, _ = splitmix64(state)
    >>> skipped(5, 3) == state
    True
    """
    return (state + steps * _GAMMA) & _MASK64


def bounded(value: int, n: int) -> int:
    """Map a 64-bit output to 0..n-1 (n < 2**32) by multiply-shift: no division."""
    return ((value >> 32) * n) >> 32


def shuffle(items: list[T], state: int) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new RNG state."""
    for i in range(len(items) - 1, 0, -1):
        state, value = splitmix64(state)
        j = bounded(value, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
