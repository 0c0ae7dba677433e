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


# --- resolution, claims and the winner, straight from RULES.md -------------------

def ranking(armies: Sequence[Sequence[int]], completed_at: Sequence[int | None]) -> list[int]:
    """Seats from strongest army to weakest; equal strength: completed first wins."""
    never = 10**9

    def order(p: int) -> tuple[object, ...]:
        done = completed_at[p]
        return (strength(armies[p]), -(never if done is None else done))

    return sorted(range(len(armies)), key=order, reverse=True)


def can_claim(
    armies: Sequence[Sequence[int]],
    completed_at: Sequence[int | None],
    claimant: int,
    best_strength_of: object,
) -> bool:
    """The early-claim rule: no opponent can still beat the claimant.

    ``best_strength_of(partial)`` gives the strongest strength an incomplete
    opponent could reach (None if they cannot complete).
    """
    mine, my_time = strength(armies[claimant]), completed_at[claimant]
    assert my_time is not None
    for q in range(len(armies)):
        if q == claimant:
            continue
        done = completed_at[q]
        if done is not None:
            theirs = strength(armies[q])
            if theirs > mine or (theirs == mine and done < my_time):
                return False
        else:
            best = best_strength_of(armies[q])  # type: ignore[operator]
            if best is not None and best > mine:
                return False
    return True


def winner(scores: Sequence[int], markers_by_seat: Sequence[Sequence[int]], tie_break: str) -> int | None:
    """Most points wins; ties by the tie-break rule of RULES.md (None: nobody wins)."""
    best = max(scores)
    tied = [p for p in range(len(scores)) if scores[p] == best]
    if len(tied) == 1:
        return tied[0]
    if tie_break == "lowest_marker_sum":
        holders = [p for p in tied if markers_by_seat[p]]
        if holders:
            low = min(sum(markers_by_seat[p]) for p in holders)
            lowest = [p for p in holders if sum(markers_by_seat[p]) == low]
            if len(lowest) == 1:
                return lowest[0]
            tied = lowest
    holders = [p for p in tied if markers_by_seat[p]]
    if not holders:
        return None
    return max(holders, key=lambda p: max(markers_by_seat[p]))


def splitmix64(state: int) -> tuple[int, int]:
    """SplitMix64 (Steele, Lea, Flood 2014), from the published reference code."""
    state = (state + 0x9E3779B97F4A7C15) % 2**64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return state, z ^ (z >> 31)


def fisher_yates(items: list[int], state: int) -> int:
    """Fisher-Yates from the end on :func:`splitmix64`, each draw multiply-shifted into 0..i;
    shuffles ``items`` in place and returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, value = splitmix64(state)
        j = ((value >> 32) * (i + 1)) >> 32
        items[i], items[j] = items[j], items[i]
    return state
