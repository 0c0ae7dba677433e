"""Slow, obviously correct twin of the completion kernel: try every completion.

Every multiset of ``k`` cards that the pool can supply is built from the
pool's distinct masks (respecting copy counts), added to the partial army
and scored with :func:`tests.naive.strength`, straight from RULES.md.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

from . import naive

ARMY_SIZE = 4


def completions(partial: Sequence[int], pool: Counter[int]) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``4 - len(partial)`` masks the pool can supply, once each."""
    k = ARMY_SIZE - len(partial)
    distinct = sorted(m for m, copies in pool.items() if copies > 0)
    for combo in itertools.combinations_with_replacement(distinct, k):
        used = Counter(combo)
        if all(used[m] <= pool[m] for m in used):
            yield combo


def best_strength(partial: Sequence[int], pool: Counter[int]) -> tuple[object, ...] | None:
    """The strongest :func:`naive.strength` over all completions, None if there is none."""
    strengths = [naive.strength([*partial, *added]) for added in completions(partial, pool)]
    return max(strengths) if strengths else None


def best_completion(
    partial: Sequence[int], pool: Counter[int]
) -> tuple[tuple[object, ...], tuple[int, ...]] | None:
    """The strongest (strength, added masks); None when the pool is too small."""
    best: tuple[tuple[object, ...], tuple[int, ...]] | None = None
    for added in completions(partial, pool):
        strength = naive.strength([*partial, *added])
        if best is None or strength > best[0]:
            best = (strength, added)
    return best
