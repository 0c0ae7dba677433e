"""The "odds" rollout policy of :class:`~ordonnance.bots.ISMCTS`: each territory's chance, from tables.

A complete army's strength is summed up by its *percentile*: the share of
all four-card armies (drawn with replacement, each card as often as the
standard deck holds it) that it beats, ties counted half, put into one of
:data:`BINS` equal bins. An army of fewer cards gets the distribution of the
bin its completion falls in when every missing card is drawn the same way
(:func:`tables`, exact enumeration, about half a second with NumPy on first
use). So in a territory still open the chance that seat p's army ends
strongest is the sum over p's bins of the chance of that bin times the
product, over the other seats, of the chance that theirs ends in a lower
bin (the same bin: half).

:func:`odds_action` plays the move that raises the seat's chance of winning
the game the most, counting the territories as independent: with two
players under territory scoring the chance of holding at least three of the
five (decided territories are certain), plus a fiftieth of the territories
expected (so that a game already decided is still played towards the larger
margin); otherwise the territories expected. Ties go to the card with the
fewest symbols, then at random from the seat's generator.

The tables ignore which cards are already gone and what a seat holds: the
model is deliberately crude and cheap (a few hundred nanoseconds a move).
As a policy alone it beats ``Greedy`` in about 83% of two-player games
(the planner of :func:`ordonnance._ismcts.planner_action`: 54%).
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance._army_kernel import tiers_key, word_tiers
from ordonnance.core.jit import splitmix64 as _splitmix64_jit

__all__ = ["BINS", "WORK_ROWS", "Odds", "tables", "no_tables", "forced", "in_hand", "odds_action", "odds_into", "odds_work",
           "forget"]

#: Percentile bins of an army's strength.
BINS = 32
#: Rows of Odds.completion: a partial army's code (its cards' masks sorted downwards, base 32).
CODES = 32**3


class Odds(NamedTuple):
    """The tables of the odds policy (see the module docs).

    ``completion[code]`` is the bin distribution of the completion of the
    army of fewer than four cards with that code (:func:`code`); ``keys``
    the distinct keys of complete armies, ascending, and ``bin_of[i]`` the
    bin of ``keys[i]``; ``complete_bin[32 * c + m]`` the bin of the complete
    army of the three cards of code ``c`` and the card ``m`` (the same bins,
    looked up without computing a key).
    """

    completion: npt.NDArray[np.float64]
    keys: npt.NDArray[np.int64]
    bin_of: npt.NDArray[np.int64]
    complete_bin: npt.NDArray[np.int8]


def no_tables() -> Odds:
    """Empty tables of the right types, for searches that do not use the odds policy."""
    return Odds(np.zeros((1, BINS), np.float64), np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(CODES * 32, np.int8))


@functools.lru_cache(maxsize=1)
def tables() -> Odds:
    """The odds policy's tables for the standard deck's card frequencies (built once, cached)."""
    masks = np.arange(1, 32, dtype=np.int64)
    symbols = np.array([bin(m).count("1") for m in masks.tolist()], np.int64)
    copies = np.where(symbols == 1, 4.0, np.where(symbols == 2, 2.0, 1.0))
    grids = np.meshgrid(masks, masks, masks, masks, indexing="ij")
    a, b, c, d = (g.ravel() for g in grids)  # every ordered four-card army
    words: Any = (a | (b << 8) | (c << 16) | (d << 24)).astype(np.uint32)  # word_tiers runs on arrays too
    keys = np.asarray(tiers_key(word_tiers(words)), np.int64)
    weight = copies[a - 1] * copies[b - 1] * copies[c - 1] * copies[d - 1]
    distinct, which = np.unique(keys, return_inverse=True)
    mass = np.bincount(which, weights=weight).astype(np.int64)  # whole numbers (at most 256 ** 4): exact
    below = np.cumsum(mass) - mass
    # the bin of the percentile (below + mass / 2) / total, in integers (no rounding at the edges)
    bin_of = np.minimum(BINS * (2 * below + mass) // (2 * int(mass.sum())), BINS - 1)
    final_bin = bin_of[which]
    flat = np.zeros(CODES * BINS, np.float64)
    cards = (a, b, c, d)
    for length in range(kernel.ARMY):
        rest = np.ones_like(weight)
        for x in cards[length:]:
            rest = rest * copies[x - 1]
        codes = np.zeros_like(a)
        if length:
            for x in np.sort(np.stack(cards[:length]), axis=0)[::-1]:
                codes = codes * 32 + x
        flat += np.bincount(codes * BINS + final_bin, weights=rest, minlength=CODES * BINS)
    completion = flat.reshape(CODES, BINS)
    total = completion.sum(axis=1, keepdims=True)
    completion = np.divide(completion, total, out=np.zeros_like(completion), where=total > 0)
    top, middle, low = np.sort(np.stack((a, b, c)), axis=0)[::-1]
    complete_bin = np.zeros(CODES * 32, np.int8)
    complete_bin[((top * 32 + middle) * 32 + low) * 32 + d] = final_bin  # every order of a, b, c: one bin
    return Odds(completion, distinct.astype(np.int64), bin_of, complete_bin)


@numba.njit(cache=True, inline="always")
def code(word: int, length: int) -> int:
    """The row of Odds.completion for the army of ``length`` (< 4) cards in ``word``."""
    x0, x1, x2 = word & 255, (word >> 8) & 255, (word >> 16) & 255
    if length == 0:
        return 0
    if length == 1:
        return x0
    if length == 2:
        return max(x0, x1) * 32 + min(x0, x1)
    if x0 < x1:
        x0, x1 = x1, x0
    if x1 < x2:
        x1, x2 = x2, x1
    if x0 < x1:
        x0, x1 = x1, x0
    return (x0 * 32 + x1) * 32 + x2


@numba.njit(cache=True)
def distribution(odds: Odds, word: int, length: int, out: npt.NDArray[np.float64]) -> None:
    """The bin distribution of the army of ``length`` cards in ``word`` when complete, into ``out``."""
    if length >= kernel.ARMY:
        out[:] = 0.0
        out[_bin(odds, word)] = 1.0
    else:
        out[:] = odds.completion[code(word, length)]


@numba.njit(cache=True, inline="always")
def forced(cfg: kernel.Config, b: npt.NDArray[np.int64], p: int, scratch: npt.NDArray[np.int64]) -> int:
    """What the rollout policies play before they weigh a card: the claim of seat p's first
    provable territory (game 0 of the board ``b``), a pass when p has no play, else -1."""
    if cfg.explicit_claims:
        t = kernel.first_claim(cfg, b, kernel.ONLY_GAME, p, scratch)
        if t >= 0:
            return kernel.CLAIM_ACTIONS + t
    if b[0, kernel.OPEN + p] == 0 or b[0, kernel.HAND_LEN + p] == 0:
        return kernel.PASS_ACTION  # only reachable when the engine would not ask: defensive
    return -1


@numba.njit(cache=True, inline="always")
def in_hand(b: npt.NDArray[np.int64], p: int) -> tuple[int, int, int]:
    """Seat p's hand word, hand size and open territories (a bit each) in game 0 of the board ``b``."""
    return b[0, kernel.HAND + p], b[0, kernel.HAND_LEN + p], b[0, kernel.OPEN + p]


# The working space of odds_into (odds_work), a row of BINS floats each: for seat p and territory t,
# row BELOW + p * T + t holds t's ``below`` for p and row VALUES + p * T + t the chance of t with each
# card m that p may play there (column m; NaN: not weighed yet); row CHANCES + p holds p's chance of
# each territory (columns 0..T-1) and the cards in t when those rows were made (column T + t); row
# LANES the value of each hand lane for the territory being weighed.
_T = kernel.TERRITORIES
BELOW = 0
VALUES = kernel.SEATS * _T
CHANCES = 2 * kernel.SEATS * _T
LANES = CHANCES + kernel.SEATS
#: Rows of the working space of :func:`odds_into` (see :func:`odds_work`).
WORK_ROWS = LANES + 1


@numba.njit(cache=True)
def odds_work() -> npt.NDArray[np.float64]:
    """A fresh working space for :func:`odds_into`, for one game: what it remembers of a territory
    holds while no card is added there, and a game only adds cards, so one working space serves
    every call on a game as it goes on (a rollout), and a new game needs a new one (or :func:`forget`)."""
    work = np.empty((WORK_ROWS, BINS), np.float64)
    forget(work)
    return work


@numba.njit(cache=True)
def forget(work: npt.NDArray[np.float64]) -> None:
    """Make :func:`odds_into` weigh every territory anew (before a call on another game)."""
    for p in range(kernel.SEATS):
        for t in range(_T):
            work[CHANCES + p, _T + t] = -1.0


@numba.njit(cache=True)
def odds_action(cfg: kernel.Config, s: kernel.State, odds: Odds, scratch: npt.NDArray[np.int64]) -> int:
    """The action of the odds policy for the seat to act in game 0 of ``s`` (see the module docs)."""
    return odds_into(cfg, s, odds, scratch, odds_work())


@numba.njit(cache=True, inline="always")
def _bin(odds: Odds, word: int) -> int:
    """The bin of the complete army ``word``."""
    return int(odds.complete_bin[code(word, 3) * 32 + ((word >> 24) & 255)])


@numba.njit(cache=True, inline="always")
def _chance_of(odds: Odds, word: int, length: int, below: npt.NDArray[np.float64], row: int) -> float:
    """The chance that the army of ``length`` cards in ``word`` beats every other seat's in its territory
    (``below[row, i]``, a row of odds_into's working space: the chance that an army of bin i does), read from the
    tables' row without building its :func:`distribution` (the same sums in the same order)."""
    if length >= kernel.ARMY:
        return float(below[row, _bin(odds, word)])  # one bin of chance 1: the sum's only term that is not +0.0
    partial = code(word, length)
    chance = 0.0
    for i in range(BINS):
        chance += odds.completion[partial, i] * below[row, i]
    return chance


@numba.njit(cache=True)
def odds_into(
    cfg: kernel.Config, s: kernel.State, odds: Odds, scratch: npt.NDArray[np.int64], work: npt.NDArray[np.float64]
) -> int:
    """:func:`odds_action` in the working space ``work`` (:func:`odds_work`), which remembers
    between calls on the same game each territory's sums until a card is added there.

    The same arithmetic as the distributions of the module docs, read from the
    tables' rows in place: a complete army's one bin multiplies ``below`` by 0
    under it, by 0.5 at it and by 1 above it, and its chance is ``below`` at
    that bin. The chance of a majority is run over the territories before
    ``t`` once for all of ``t``'s candidate moves, and a card the hand holds
    twice is weighed once (its value is the same; the ties still count it).
    What a territory's chance with a card is stays known while no card is
    added there (the same numbers: the same sums of the same rows).
    """
    b = s.board
    p = b[0, kernel.CURRENT]
    n = cfg.n
    first = forced(cfg, b, p, scratch)
    if first >= 0:
        return first
    hand, size, open_here = in_hand(b, p)
    territories = kernel.TERRITORIES
    majority = n == 2 and cfg.scoring == kernel.TERRITORIES_SCORING
    chance = work[CHANCES + p]
    for t in range(territories):
        owner = b[0, kernel.OWNER + t]
        if owner != kernel.NOBODY:
            chance[t] = 1.0 if owner == p else 0.0
            continue
        cards = 0
        for q in range(n):
            cards += b[0, kernel.ARMY_LEN + t * kernel.SEATS + q]
        if chance[territories + t] == cards:
            continue  # no card added here since this seat last weighed t
        chance[territories + t] = cards
        below = BELOW + p * territories + t
        for i in range(BINS):
            work[below, i] = 1.0
            work[VALUES + p * territories + t, i] = np.nan
        for q in range(n):
            if q != p:
                aq = t * kernel.SEATS + q
                length = b[0, kernel.ARMY_LEN + aq]
                if length >= kernel.ARMY:
                    k = _bin(odds, b[0, kernel.ARMY_AT + aq])
                    for i in range(k):
                        work[below, i] *= 0.0
                    work[below, k] *= 0.5
                    continue
                row = code(b[0, kernel.ARMY_AT + aq], length)
                under = 0.0
                for i in range(BINS):  # times the chance that q's bin is under i, plus half that it is i
                    x = odds.completion[row, i]
                    work[below, i] *= under + 0.5 * x
                    under += x
        at = t * kernel.SEATS + p
        chance[t] = _chance_of(odds, b[0, kernel.ARMY_AT + at], b[0, kernel.ARMY_LEN + at], work, below)
    best = kernel.PASS_ACTION
    b1 = b2 = -(1 << 62)
    ties = 0
    state = s.rng[0, p]
    for t in range(territories):
        if not (open_here >> t) & 1:
            continue
        at = t * kernel.SEATS + p
        length = b[0, kernel.ARMY_LEN + at]
        word = b[0, kernel.ARMY_AT + at]
        # the sums over the territories before t, as the loop over all of them starts
        e0 = 0.0
        g0, g1, g2, g3 = 1.0, 0.0, 0.0, 0.0
        for u in range(t):
            x = chance[u]
            e0 += x
            g3 = g3 + g2 * x
            g2 = g2 * (1.0 - x) + g1 * x
            g1 = g1 * (1.0 - x) + g0 * x
            g0 = g0 * (1.0 - x)
        lanes = work[LANES]  # the value of each hand lane weighed for t
        values = VALUES + p * territories + t
        for i in range(size):
            m = (hand >> (8 * i)) & 255
            earlier = kernel._lanes_holding(hand, i, m)  # the lanes before i holding the same card
            if earlier != 0:
                value = lanes[kernel._NTH_BIT[earlier * 8]]  # the same card again: the same value
            else:
                x = work[values, m]
                if x != x:  # NaN: not weighed since the last card came to t
                    x = _chance_of(odds, word | (m << (8 * length)), length + 1, work, BELOW + p * territories + t)
                    work[values, m] = x
                expected = e0 + x
                for u in range(t + 1, territories):
                    expected += chance[u]
                if majority:
                    f3 = g3 + g2 * x
                    f2 = g2 * (1.0 - x) + g1 * x
                    f1 = g1 * (1.0 - x) + g0 * x
                    f0 = g0 * (1.0 - x)
                    for u in range(t + 1, territories):
                        y = chance[u]
                        f3 = f3 + f2 * y
                        f2 = f2 * (1.0 - y) + f1 * y
                        f1 = f1 * (1.0 - y) + f0 * y
                        f0 = f0 * (1.0 - y)
                    value = f3 + 0.02 * expected
                else:
                    value = expected
            lanes[i] = value
            s1 = int(round(value * 1e9))  # rounded: sums in another order tie alike
            s2 = -kernel.bit_count(m)
            if s1 > b1 or (s1 == b1 and s2 > b2):
                b1, b2 = s1, s2
                ties = 1
                best = (m - 1) * territories + t
            elif s1 == b1 and s2 == b2:
                ties += 1
                state, draw = _splitmix64_jit(state)
                if kernel.bounded(draw, ties) == 0:
                    best = (m - 1) * territories + t
    s.rng[0, p] = state
    return best
