"""Slow, obviously correct territory odds: every way to deal the missing cards.

Each physical card not face up is a distinct object. Every injective
assignment of the armies' missing places to those cards is equally likely,
except that the viewer's own hand cards may only fill the viewer's places.
Each assignment is resolved with :func:`tests.naive.ranking`. The result is
exact (Fractions).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from . import naive

ARMY_SIZE = 4
LATER = 10**6


def odds(
    armies: Sequence[Sequence[int]],
    completed_at: Sequence[int | None],
    current: int,
    unseen: Sequence[int],
    known: Sequence[int] = (),
    viewer: int | None = None,
) -> list[Fraction]:
    """Each seat's probability of winning, by brute force over every deal.

    ``unseen`` and ``known`` list physical cards (masks, repeats are copies);
    ``known`` (the viewer's hand) may only go to ``viewer``. Armies complete
    in the future do so after every complete army, fewer missing cards
    first, then in turn order from ``current``.
    """
    n = len(armies)
    missing = [ARMY_SIZE - len(a) for a in armies]
    later = sorted((p for p in range(n) if completed_at[p] is None), key=lambda p: (missing[p], (p - current) % n))
    times = list(completed_at)
    for rank, p in enumerate(later):
        times[p] = LATER + rank
    places = [p for p in range(n) for _ in range(missing[p])]
    cards = [(m, False) for m in unseen] + [(m, True) for m in known]
    wins = [0] * n
    total = 0
    for chosen in itertools.permutations(range(len(cards)), len(places)):
        if any(cards[c][1] and places[i] != viewer for i, c in enumerate(chosen)):
            continue
        completed = [list(a) for a in armies]
        for i, c in enumerate(chosen):
            completed[places[i]].append(cards[c][0])
        wins[naive.ranking(completed, times)[0]] += 1
        total += 1
    if total == 0:  # no deal completes every army: nobody wins it
        return [Fraction(0)] * n
    return [Fraction(w, total) for w in wins]
