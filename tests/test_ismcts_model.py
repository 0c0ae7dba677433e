"""The odds rollout policy of ISMCTS: its tables against plain Python, and its plain-Python twin
(``python_odds``, held to the kernel over whole rollouts in test_ismcts.py)."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import _ismcts_model
from ordonnance import _simulator_kernel as kernel
from ordonnance.core.rng import bounded, splitmix64

JIT = not __import__("numba").config.DISABLE_JIT
BINS = _ismcts_model.BINS
MASKS = range(1, 32)


def _copies(m: int) -> int:
    """Copies of card m in the standard deck."""
    return {1: 4, 2: 2}.get(bin(m).count("1"), 1)


def _key(cards: tuple[int, ...]) -> int:
    return od.army_key([od.Card.from_mask(m) for m in cards])


def _python_bins() -> dict[int, int]:
    """Each complete army's key -> its percentile bin, from the multisets of four cards (each
    weighted by its orderings and the copies of its cards)."""
    mass: dict[int, int] = defaultdict(int)
    for army in itertools.combinations_with_replacement(MASKS, 4):
        orders = math.factorial(4)
        for m in set(army):
            orders //= math.factorial(army.count(m))
        mass[_key(army)] += orders * math.prod(_copies(m) for m in army)
    total = sum(mass.values())
    bins, below = {}, 0
    for key in sorted(mass):
        bins[key] = min(BINS * (2 * below + mass[key]) // (2 * total), BINS - 1)  # percentile (below + mass/2) / total
        below += mass[key]
    return bins


@pytest.fixture(scope="module")
def python_bins() -> dict[int, int]:
    return _python_bins()


def test_percentile_bins_match_python(python_bins: dict[int, int]) -> None:
    odds = _ismcts_model.tables()
    assert odds.keys.tolist() == sorted(python_bins)
    assert odds.bin_of.tolist() == [python_bins[k] for k in sorted(python_bins)]
    assert odds.bin_of[0] == 0 and odds.bin_of[-1] == BINS - 1


def _python_completion(cards: tuple[int, ...], bins: dict[int, int]) -> list[float]:
    """The bin distribution of the army ``cards`` completed by every draw (with replacement)."""
    weight = [0.0] * BINS
    for rest in itertools.product(MASKS, repeat=4 - len(cards)):
        weight[bins[_key(cards + rest)]] += math.prod(_copies(m) for m in rest)
    total = sum(weight)
    return [w / total for w in weight]


@settings(max_examples=30 if JIT else 10, deadline=None)
@given(cards=st.lists(st.integers(1, 31), min_size=2, max_size=3), order=st.randoms(use_true_random=False))
def test_completion_tables_match_python(cards: list[int], order: object, python_bins: dict[int, int]) -> None:
    odds = _ismcts_model.tables()
    word = sum(m << (8 * i) for i, m in enumerate(cards))
    got = np.empty(BINS)
    _ismcts_model.distribution(odds, word, len(cards), got)
    assert got == pytest.approx(_python_completion(tuple(cards), python_bins), abs=1e-12)


@pytest.mark.parametrize("cards", [(), (1,), (31,), (6,)])
def test_completion_tables_of_short_armies(cards: tuple[int, ...], python_bins: dict[int, int]) -> None:
    odds = _ismcts_model.tables()
    got = np.empty(BINS)
    _ismcts_model.distribution(odds, sum(m << (8 * i) for i, m in enumerate(cards)), len(cards), got)
    if cards:
        assert got == pytest.approx(_python_completion(cards, python_bins), abs=1e-12)
    else:  # every army: each bin holds about 1/BINS of the mass (the percentiles' bins)
        assert got.sum() == pytest.approx(1.0) and (abs(got - 1 / BINS) < 0.03).all()


def test_complete_armies_are_one_bin(python_bins: dict[int, int]) -> None:
    odds = _ismcts_model.tables()
    got = np.empty(BINS)
    for army in [(1, 1, 1, 1), (31, 31, 31, 31), (3, 5, 9, 17), (16, 16, 16, 1)]:
        _ismcts_model.distribution(odds, sum(m << (8 * i) for i, m in enumerate(army)), 4, got)
        assert got.tolist() == [1.0 if i == python_bins[_key(army)] else 0.0 for i in range(BINS)]


def test_complete_bins_of_every_ordered_army(python_bins: dict[int, int]) -> None:
    """Odds.complete_bin, read by the kernel for complete armies: every ordered army of four cards
    (three sorted into a code, then the fourth) finds its multiset's bin (exhaustive, 31**4)."""
    odds = _ismcts_model.tables()
    expected = np.full(32**4, -1, np.int64)  # by the code of the four cards sorted downwards
    for army in itertools.combinations_with_replacement(MASKS, 4):
        top = sorted(army, reverse=True)
        expected[((top[0] * 32 + top[1]) * 32 + top[2]) * 32 + top[3]] = python_bins[_key(army)]
    a, b, c, d = (g.ravel() for g in np.meshgrid(*[np.arange(1, 32)] * 4, indexing="ij"))
    hi, mid, lo = np.sort(np.stack((a, b, c)), axis=0)[::-1]
    four = np.sort(np.stack((a, b, c, d)), axis=0)[::-1]
    want = expected[((four[0] * 32 + four[1]) * 32 + four[2]) * 32 + four[3]]
    got = odds.complete_bin[((hi * 32 + mid) * 32 + lo) * 32 + d]
    assert (want >= 0).all() and np.array_equal(got, want)


def python_forced(cfg: kernel.Config, s: kernel.State) -> tuple[int | None, list[int], list[int]]:
    """Both rollout policies' start, from the engine's legal actions: (the first legal claim, or a
    pass when the seat to act has no play, or None; its hand's masks; its open territories)."""
    row = s.board[0]
    p = int(row[kernel.CURRENT])
    legal = np.zeros(kernel.NUM_ACTIONS, np.bool_)
    kernel.legal_mask(cfg, s, 0, legal, np.zeros(kernel.SCRATCH, np.int64))
    claims = [t for t in range(5) if legal[kernel.CLAIM_ACTIONS + t]] if cfg.explicit_claims else []
    hand = [int(row[kernel.HAND + p]) >> (8 * i) & 255 for i in range(int(row[kernel.HAND_LEN + p]))]
    opens = [t for t in range(5) if int(row[kernel.OPEN + p]) >> t & 1]
    if claims:
        return kernel.CLAIM_ACTIONS + claims[0], hand, opens
    return (kernel.PASS_ACTION if not hand or not opens else None), hand, opens


def keep_best(rank: tuple[int, ...], action: int, best: int, top: tuple[int, ...] | None, ties: int,
              state: int) -> tuple[int, tuple[int, ...], int, int]:  # fmt: skip
    """The rollout policies' choice so far after ``action`` of ``rank``: the best rank wins, and
    of the t-th equal best each is kept with chance 1/t drawn from ``state`` (best, top, ties, state)."""
    if top is None or rank > top:
        return action, rank, 1, state
    if rank == top:
        state, r = splitmix64(state)
        if bounded(r, ties + 1) == 0:
            best = action
        return best, top, ties + 1, state
    return best, top, ties, state


def python_odds(cfg: kernel.Config, s: kernel.State) -> int:
    """The odds policy's action for the seat to act in game 0, in plain Python over the tables'
    rows (checked above) and the Python engine's legality (twin of ``_ismcts_model.odds_action``)."""
    odds = _ismcts_model.tables()
    row = s.board[0]
    p, n = int(row[kernel.CURRENT]), cfg.n
    first, hand, opens = python_forced(cfg, s)
    if first is not None:
        return first

    def cards(t: int, q: int) -> list[int]:
        at = t * kernel.SEATS + q
        return [int(row[kernel.ARMY_AT + at]) >> (8 * i) & 255 for i in range(int(row[kernel.ARMY_LEN + at]))]

    def dist(army: list[int]) -> list[float]:
        if len(army) == 4:
            i = odds.keys.tolist().index(_key(tuple(army)))
            return [1.0 if b == odds.bin_of[i] else 0.0 for b in range(BINS)]
        code = 0
        for m in sorted(army, reverse=True):
            code = code * 32 + m
        return [float(x) for x in odds.completion[code]]

    below: dict[int, list[float]] = {}  # t -> for each bin i of p's army, the chance that it beats every other

    def chance(t: int, mine: list[float]) -> float:
        c = 0.0
        for i in range(BINS):
            c += mine[i] * below[t][i]
        return c

    chances = [0.0] * 5
    for t in range(5):
        owner = int(row[kernel.OWNER + t])
        if owner != kernel.NOBODY:
            chances[t] = 1.0 if owner == p else 0.0
            continue
        below[t] = [1.0] * BINS
        for q in range(n):
            if q != p:
                d, under = dist(cards(t, q)), 0.0
                for i in range(BINS):  # q's bin under i, or i (half: the tie)
                    below[t][i] *= under + 0.5 * d[i]
                    under += d[i]
        chances[t] = chance(t, dist(cards(t, p)))
    state, best, top, ties = int(s.rng[0, p]), kernel.PASS_ACTION, None, 0
    for t in opens:
        for m in hand:
            trial = list(chances)
            trial[t] = chance(t, dist(cards(t, p) + [m]))
            expected = 0.0
            for x in trial:
                expected += x
            if n == 2 and cfg.scoring == kernel.TERRITORIES_SCORING:
                f = [1.0, 0.0, 0.0, 0.0]  # P(0, 1, 2, 3 or more territories)
                for x in trial:
                    f = [f[0] * (1.0 - x), f[1] * (1.0 - x) + f[0] * x, f[2] * (1.0 - x) + f[1] * x, f[3] + f[2] * x]
                value = f[3] + 0.02 * expected
            else:
                value = expected
            rank = (round(value * 1e9), -bin(m).count("1"))
            best, top, ties, state = keep_best(rank, (m - 1) * 5 + t, best, top, ties, state)
    s.rng[0, p] = np.uint64(state)
    return best

