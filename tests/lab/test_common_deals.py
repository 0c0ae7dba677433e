"""Ordonnance's common deals for card values (lab._deals): each variant's deck order is the base's
with one copy changed, a uniformly random order of its own deck."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

import ordonnance as od
from ordonnance.cards import Card
from ordonnance.core.seeds import game_seeds
from ordonnance.game import shuffled_deck
from ordonnance.lab import _deals, decks

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
RULES = od.Rules()


def _chi_square_limit(df: int) -> float:
    """The chi-square quantile of 0.999 with ``df`` degrees of freedom (Wilson-Hilferty; within 1% for df >= 3)."""
    z = 3.0902  # the normal quantile of 0.999
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


def test_base_orders_are_simulate_s_deals() -> None:
    seeds = game_seeds(3, 200)
    orders = _deals.base_orders(RULES, seeds)
    assert [row.tolist() for row in orders] == [shuffled_deck(RULES, int(s))[0] for s in seeds]


@pytest.mark.parametrize(
    ("kind", "change", "other"),
    [("LS", "add", None), ("LBSHF", "add", None), ("L", "remove", None), ("LBSHF", "remove", None), ("L", "swap", "HF")],
)
def test_only_the_changed_copy_differs_and_each_order_is_its_own_deck(kind: str, change: str, other: str | None) -> None:
    seeds = game_seeds(11, 300)
    base = _deals.base_orders(RULES, seeds)
    code = {"add": _deals.ADD, "remove": _deals.REMOVE, "swap": _deals.SWAP}[change]
    mask, in_place = Card.parse(kind).mask, Card.parse(other).mask if other else 0
    orders, at = _deals.derived_orders(RULES, seeds, code, mask, in_place)
    variant = decks.changed(RULES, {kind: 1} if change == "add" else {kind: -1} if other is None else {kind: -1, other: 1})
    deck = sorted(card.mask for card in variant.cards)
    for row, before, place in zip(orders.tolist(), base.tolist(), at.tolist()):
        assert sorted(row) == deck
        if change == "add":
            assert row[place] == mask and row[:place] + row[place + 1 :] == before
        elif change == "remove":
            assert before[place] == mask and before[:place] + before[place + 1 :] == row
        else:
            assert before[place] == mask and row[place] == in_place
            assert row[:place] + row[place + 1 :] == before[:place] + before[place + 1 :]


def test_the_inserted_place_is_uniform() -> None:
    size = len(RULES.cards) + 1
    seeds = game_seeds(2026, size * (300 if JIT else 40))
    _, at = _deals.derived_orders(RULES, seeds, _deals.ADD, Card.parse("LS").mask)
    counts = np.bincount(at, minlength=size)
    assert len(counts) == size and _chi_square(counts) < _chi_square_limit(size - 1)


@pytest.mark.parametrize("change", [_deals.REMOVE, _deals.SWAP])
def test_the_removed_or_swapped_copy_is_uniform_among_the_copies(change: int) -> None:
    mask = Card.parse("L").mask  # four copies
    seeds = game_seeds(2027, 20_000 if JIT else 2_000)
    base = _deals.base_orders(RULES, seeds)
    _, at = _deals.derived_orders(RULES, seeds, change, mask, Card.parse("HF").mask)
    copy = np.array([np.count_nonzero(row[:place] == mask) for row, place in zip(base, at)])  # which copy, top first
    counts = np.bincount(copy, minlength=4)
    assert len(counts) == 4 and _chi_square(counts) < _chi_square_limit(3)


def test_the_place_does_not_follow_the_deal() -> None:
    """The choice's stream is not the shuffle's: where the copy goes does not depend on the base's order."""
    seeds = game_seeds(5, 4000)
    _, at = _deals.derived_orders(RULES, seeds, _deals.ADD, 3)
    base = _deals.base_orders(RULES, seeds)
    # the place is independent of the base's top card: its mean is the same whatever that card
    top_is_single = np.isin(base[:, 0], [1, 2, 4, 8, 16])
    assert abs(at[top_is_single].mean() - at[~top_is_single].mean()) < 2.5
    assert abs(at.mean() - len(RULES.cards) / 2) < 1.0


def test_the_choice_stream_never_meets_the_shuffle_s_or_the_bots() -> None:
    """The choice is SplitMix64's output for the state ``seed ^ CHOICES``; the shuffle's k-th draw is
    the output for ``seed + k * GAMMA`` and seat p's bot stream starts from ``seed + (p + 1) * SEAT_GAMMA``
    (its first output that of the state one GAMMA on). They meet for some seed only if
    ``seed ^ C == seed + d``, that is ``2 * (seed & C) == C - d`` (mod 2**64), which needs ``(C - d) / 2``
    to fit inside C's bits (mod 2**63): never, for every draw of a deck and every seat."""
    from ordonnance.core.jit import _GAMMA, _SEAT_GAMMA

    mask, c = (1 << 64) - 1, int(_deals.CHOICES)
    offsets = [k * int(_GAMMA) & mask for k in range(1, 10_001)]
    offsets += [((p + 1) * int(_SEAT_GAMMA) + int(_GAMMA)) & mask for p in range(4)]
    for d in offsets:
        twice = (c - d) & mask
        assert twice % 2 == 1 or (twice >> 1) & ~c & (mask >> 1) != 0
    # the algebra, checked where it holds: an offset built to meet does meet
    seed = 12345
    d = ((seed ^ c) - seed) & mask
    twice = (c - d) & mask
    assert twice % 2 == 0 and (twice >> 1) & ~c & (mask >> 1) == 0
