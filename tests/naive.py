"""Slow, obviously correct twins of the kernels, written straight from RULES.md.

Nothing here is fast or clever on purpose: each function follows the text of
the rules so that the kernels can be checked against it.
"""

from __future__ import annotations

from collections.abc import Sequence

SYMBOL_COUNT = 5


def symbol_counts(masks: Sequence[int]) -> list[int]:
    """For each symbol rank, the number of cards (non-zero masks) that carry it."""
    return [sum(1 for mask in masks if mask and mask >> rank & 1) for rank in range(SYMBOL_COUNT)]


def strength(masks: Sequence[int]) -> tuple[object, ...]:
    """RULES.md's six comparisons, as a tuple that Python compares in that order.

    (number of regiments, their ranks strongest first, number of battalions,
    their ranks, number of companies, their ranks).
    """
    counts = symbol_counts(masks)
    result: list[object] = []
    for tier_size in (4, 3, 2):
        ranks = tuple(sorted((r for r in range(SYMBOL_COUNT) if counts[r] == tier_size), reverse=True))
        result.extend([len(ranks), ranks])
    return tuple(result)


def compare(a: Sequence[int], b: Sequence[int]) -> int:
    """1 if army a is stronger, -1 if b is, 0 if equally strong."""
    sa, sb = strength(a), strength(b)
    return (sa > sb) - (sa < sb)


def tiers(masks: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Ranks (strongest first) of the regiments, battalions and companies."""
    s = strength(masks)
    return s[1], s[3], s[5]  # type: ignore[return-value]
