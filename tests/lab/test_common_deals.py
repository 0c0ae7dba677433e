"""Ordonnance's common deals for card values (lab._deals): each variant's deck order is the base's
with one copy changed and every other card in its place, a uniformly random order of its own deck;
the seat that drew the changed place, found in the kernel, against the engine's replay."""

from __future__ import annotations

import math
import os

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance.cards import Card
from ordonnance.core.seeds import game_seeds
from ordonnance.errors import OrdonnanceError
from ordonnance.game import shuffled_deck
from ordonnance.lab import _deals, decks
from ordonnance.simulation import _simulate_orders

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
    size = len(base[0])
    for row, before, place in zip(orders.tolist(), base.tolist(), at.tolist()):
        assert sorted(row) == deck
        # every other card in its place: the two orders differ only at the changed place and the bottom
        differ = {i for i in range(max(len(row), size)) if i >= min(len(row), size) or row[i] != before[i]}
        assert differ <= {place, max(len(row), size) - 1}
        if change == "add":
            assert row[place] == mask and len(row) == size + 1
            assert row[size] == (before[place] if place < size else mask)  # the displaced card goes to the bottom
        elif change == "remove":
            assert before[place] == mask and len(row) == size - 1
            if place < size - 1:
                assert row[place] == before[size - 1]  # the bottom card fills the gap
        else:
            assert before[place] == mask and row[place] == in_place and differ == {place}


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


def _drawer_by_the_engine(rules: od.Rules, order: list[int], steps: Any, place: int) -> int:
    """The seat that drew card ``place`` of ``order``, replaying the game through :class:`Game`
    and watching its draw pile (-1: never drawn)."""
    game = od.Game.new(rules, deck=order)
    n, size = rules.players, len(order)
    for seat in range(n):  # the deal is round-robin: the k-th card of seat's hand is card k * n + seat
        assert [card.mask for card in game.hand(seat)[:5]] == order[seat::n][:5]
    if place < 5 * n:
        return place % n
    if place < size - len(game._deck):
        return game.current_player  # the first turn's draw
    for _, action in steps:
        game.apply(action)
        if place < size - len(game._deck):
            return game.current_player  # a draw opens the turn of the seat now to act
    return -1


_TWIN_RULES = [od.Rules(), od.Rules(players=3, auto_claim=True), od.Rules(players=4), decks.changed(od.Rules(), {"LS": 1})]


@settings(max_examples=40 if JIT else 5, deadline=None)
@given(
    rules=st.sampled_from(_TWIN_RULES),
    data=st.data(),
    seed=st.integers(0, 2**64 - 1),
    lineup=st.sampled_from(["greedy", "random"]),
)
def test_the_kernel_s_drawer_is_the_engine_s(rules: od.Rules, data: st.DataObject, seed: int, lineup: str) -> None:
    deck = sorted(card.mask for card in rules.cards)
    games = 3
    orders = np.array([data.draw(st.permutations(deck)) for _ in range(games)], np.int8)
    places = np.array([data.draw(st.integers(0, len(deck) - 1)) for _ in range(games)], np.int64)
    bots = [(od.bots.Greedy if lineup == "greedy" else od.bots.Random)(seed=seat) for seat in range(rules.players)]
    result = _simulate_orders(rules, orders, game_seeds(seed % 2**63, games), bots, record=True)
    found = _deals.drawers(result, orders, places)
    for i in range(games):
        _, steps = result.record(i)
        assert found[i] == _drawer_by_the_engine(rules, orders[i].tolist(), steps, int(places[i]))


def test_every_place_s_drawer_and_the_places_never_drawn() -> None:
    """Every place of a few games watched (each game played once per place): the dealt ones go
    round-robin, and the places never drawn are the deck's last (the game ended before them)."""
    seeds = game_seeds(8, 3 if JIT else 1)
    orders = _deals.base_orders(RULES, seeds)
    size = orders.shape[1]
    for i in range(len(seeds)):
        same = np.repeat(orders[i : i + 1], size, axis=0)
        bots = [od.bots.Greedy(seed=s) for s in range(2)]
        result = _simulate_orders(RULES, same, np.repeat(seeds[i : i + 1], size), bots, record=True)
        every = _deals.drawers(result, same, np.arange(size)).tolist()
        _, steps = result.record(0)
        assert every == [_drawer_by_the_engine(RULES, orders[i].tolist(), steps, p) for p in range(size)]
        assert every[:10] == [0, 1] * 5
        drawn = [p for p in range(size) if every[p] >= 0]
        assert drawn == list(range(len(drawn))) and len(drawn) > 10


def test_drawers_needs_a_record() -> None:
    seeds = game_seeds(1, 2)
    result = _simulate_orders(RULES, _deals.base_orders(RULES, seeds), seeds, None, record=False)
    with pytest.raises(OrdonnanceError, match="record=True"):
        _deals.drawers(result, _deals.base_orders(RULES, seeds), np.zeros(2, np.int64))
