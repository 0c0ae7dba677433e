from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Card
from ordonnance._entry import compiled_entry
from ordonnance.completion import (
    Completion,
    _best_completion_masks,
    _can_beat_masks,
    best_completion,
    best_completion_key,
    can_beat,
    pool_counts,
)

from . import naive, naive_completion
from .strategies import armies, masks

DECK = [card.mask for card in od.standard_deck()]
DECK_COUNTS = pool_counts(DECK)
ALL_MASKS = list(range(1, 32))
SMALL_POOLS = {
    "every card once": ALL_MASKS,
    "copies": [16, 16, 16, 8, 8, 3, 28, 31],
    "singles": [1, 1, 1, 1, 2, 2, 4, 8, 16, 16],
    "one card": [21],
    "empty": [],
}


def _check_best(partial: Sequence[int], pool: Sequence[int]) -> int | None:
    """Check all three entry points against brute force; return the best key."""
    stock = Counter(pool)
    reference = naive_completion.best_completion(partial, stock)
    got = best_completion(partial, pool)
    assert best_completion_key(partial, pool) == (None if got is None else got.key)
    if reference is None:
        assert got is None
        assert len(pool) < 4 - len(partial)
        return None
    assert got is not None
    assert type(got.key) is int
    added = [card.mask for card in got.cards]
    assert len(added) == 4 - len(partial)
    assert not Counter(added) - stock, "the completion uses cards the pool lacks"
    assert od.army_key([*partial, *added]) == got.key
    assert naive.strength([*partial, *added]) == reference[0]
    assert got.key == od.army_key([*partial, *reference[1]])
    assert list(got.cards) == sorted(got.cards, reverse=True)
    return got.key


def _check_can_beat(partial: Sequence[int], pool: Sequence[int], threshold: int) -> None:
    stock = Counter(pool)
    reachable = [
        od.army_key([*partial, *added])
        for added in naive_completion.completions(partial, stock)
    ]
    found = can_beat(partial, pool, threshold)
    if not any(key >= threshold for key in reachable):
        assert found is None
        return
    assert found is not None
    added = [card.mask for card in found.cards]
    assert not Counter(added) - stock
    assert found.key == od.army_key([*partial, *added]) >= threshold


# --------------------------------------------------------------- exhaustive


def test_every_complete_army_keeps_its_own_key() -> None:
    for army in itertools.combinations_with_replacement(ALL_MASKS, 4):
        key = od.army_key(army)
        assert _best_completion_masks(army, np.zeros(32, np.int64)) == (key, ())
        assert _can_beat_masks(army, DECK_COUNTS, key) == (key, ())
        assert _can_beat_masks(army, DECK_COUNTS, key + 1) is None


@pytest.mark.parametrize("pool", [ALL_MASKS, DECK], ids=["every card once", "standard deck"])
def test_every_army_missing_one_card(pool: list[int]) -> None:
    counts = pool_counts(pool)
    for partial in itertools.combinations_with_replacement(ALL_MASKS, 3):
        want = max(naive.strength([*partial, m]) for m in set(pool))
        found = _best_completion_masks(partial, counts)
        assert found is not None
        key, added = found
        assert len(added) == 1 and added[0] in pool
        assert type(key) is int and type(added[0]) is int
        assert naive.strength([*partial, *added]) == want
        assert key == od.army_key([*partial, *added])


@pytest.mark.parametrize("name", sorted(SMALL_POOLS))
def test_every_army_missing_two_cards(name: str) -> None:
    pool = SMALL_POOLS[name]
    for partial in itertools.combinations_with_replacement(ALL_MASKS, 2):
        _check_best(partial, pool)


@pytest.mark.parametrize("name", ["copies", "singles", "one card", "empty"])
def test_every_army_missing_three_cards(name: str) -> None:
    for partial in ALL_MASKS:
        _check_best([partial], SMALL_POOLS[name])


@pytest.mark.parametrize("copies", [1, 2])
def test_empty_army_against_whole_decks(copies: int) -> None:
    pool = DECK * copies
    key = _check_best([], pool)
    assert key is not None
    if copies == 1:
        # SHF, LSHF, BSHF and LBSHF: three regiments, and Lance and Bow twice each
        want = "3 regiments (Banner, Helmet, Sword), 2 companies (Bow, Lance)"
        assert str(od.describe(key)) == want


def test_can_beat_every_threshold_of_a_small_case() -> None:
    partial, pool = [12], SMALL_POOLS["copies"]
    keys = {od.army_key([*partial, *added])
            for added in naive_completion.completions(partial, Counter(pool))}
    for key in sorted(keys):
        for threshold in (key - 1, key, key + 1):
            _check_can_beat(partial, pool, threshold)


# --------------------------------------------------------------- hypothesis

pools = st.lists(masks, max_size=10)
"""A small pool: any cards, repeats allowed."""


@st.composite
def deck_pools(draw: st.DrawFn, copies: int = 2) -> list[int]:
    """A random part (any size) of one or ``copies`` standard decks."""
    deck = DECK * draw(st.integers(1, copies))
    shuffled = draw(st.permutations(deck))
    return shuffled[: draw(st.integers(0, len(deck)))]


@given(armies, pools)
def test_small_pools_match_brute_force(partial: list[int], pool: list[int]) -> None:
    _check_best(partial, pool)


@given(st.lists(masks, min_size=1, max_size=3), deck_pools())
def test_parts_of_decks_match_brute_force(partial: list[int], pool: list[int]) -> None:
    _check_best(partial, pool)


@settings(max_examples=10)
@given(deck_pools())
def test_empty_army_against_parts_of_decks(pool: list[int]) -> None:
    _check_best([], pool)


@given(armies, st.lists(st.tuples(masks, st.integers(0, 6)), max_size=8))
def test_many_copies_match_brute_force(
    partial: list[int], entries: list[tuple[int, int]]
) -> None:
    stock: Counter[int] = Counter()
    for mask, copies in entries:
        stock[mask] += copies
    pool = list(stock.elements())
    key = _check_best(partial, pool)
    assert best_completion_key(partial, stock) == key
    assert best_completion_key(partial, {Card.from_mask(m): c for m, c in stock.items()}) == key


@given(armies, pools, st.data())
def test_can_beat_matches_brute_force(
    partial: list[int], pool: list[int], data: st.DataObject
) -> None:
    reachable = {
        od.army_key([*partial, *added])
        for added in naive_completion.completions(partial, Counter(pool))
    }
    near = [key + step for key in sorted(reachable) for step in (-1, 0, 1)]
    threshold = data.draw(
        st.one_of(st.sampled_from([-5, 0, 1 << 24, *near]), st.integers(-10, 1 << 24))
    )
    _check_can_beat(partial, pool, threshold)


@given(st.lists(masks, min_size=1, max_size=3), deck_pools(), st.data())
def test_can_beat_parts_of_decks(partial: list[int], pool: list[int], data: st.DataObject) -> None:
    best = best_completion_key(partial, pool)
    near = [0] if best is None else [best, best + 1, best // 2]
    threshold = data.draw(st.one_of(st.sampled_from(near), st.integers(0, 1 << 24)))
    _check_can_beat(partial, pool, threshold)


@given(st.lists(masks, max_size=3), pools)
def test_too_small_pools_give_none(partial: list[int], pool: list[int]) -> None:
    pool = pool[: max(0, 3 - len(partial))]  # one card short
    assert best_completion_key(partial, pool) is None
    assert best_completion(partial, pool) is None
    assert can_beat(partial, pool, 0) is None


@given(armies, pools)
def test_fast_entries_ignore_padding_and_non_positive_counts(
    partial: list[int], pool: list[int]
) -> None:
    counts = pool_counts(pool)
    noisy = counts.copy()
    noisy[[m for m in ALL_MASKS if not counts[m]]] = -3
    noisy[0] = 7
    padded = [*partial, *[0] * (4 - len(partial))]
    want = _best_completion_masks(partial, counts)
    assert _best_completion_masks(padded[::-1], noisy) == want
    assert _can_beat_masks(padded[::-1], noisy, 0) == _can_beat_masks(partial, counts, 0)


# --------------------------------------------------------------- the API


def test_card_forms_and_pool_forms_agree() -> None:
    pool = ["F", "F", "LB", "SHF", "LBSHF"]
    pool_forms: list[Callable[[], object]] = [
        lambda: pool,
        lambda: tuple(pool),
        lambda: iter(pool),
        lambda: (card for card in pool),
        lambda: [Card.parse(c) for c in pool],
        lambda: [Card.parse(c).mask for c in pool],
        lambda: [Card(Card.parse(c).mask) for c in pool],
        lambda: [np.uint8(Card.parse(c).mask) for c in pool],
        lambda: Counter(pool),
        lambda: {"F": 1, Card.parse("F"): 1, 3: 1, "FHS": 1, 31: 1},
        lambda: {Card.parse(c): n for c, n in Counter(pool).items()},
        lambda: {"F": np.int64(2), "LB": 1, "SHF": 1, "LBSHF": np.uint8(1), "S": 0},
    ]
    want = Completion(
        key=od.army_key(["F", "H", "LBSHF", "SHF"]),
        cards=(Card.parse("LBSHF"), Card.parse("SHF")),
    )
    partial_forms: list[Callable[[], Iterable[od.CardLike]]] = [
        lambda: ["F", "H"],
        lambda: [Card.parse("F"), 8],
        lambda: (16, "h"),
        lambda: iter(["h", "f"]),
    ]
    for partial in partial_forms:
        for form in pool_forms:
            assert best_completion(partial(), form()) == want  # type: ignore[arg-type]
            assert best_completion_key(partial(), form()) == want.key  # type: ignore[arg-type]
            assert can_beat(partial(), form(), want.key) == want  # type: ignore[arg-type]


def _unpacked(packed: int) -> tuple[int, tuple[int, ...]] | None:
    return None if packed < 0 else od._completion_kernel.unpack(packed)


@given(armies, st.lists(masks, max_size=40), st.data())
def test_bulk_pools_and_card_by_card_pools_agree(partial: list[int], pool: list[int], data: st.DataObject) -> None:
    """Lists and tuples of masks (or of Cards) are validated and counted in bulk;
    every other form card by card: the results are the same."""
    threshold = data.draw(st.integers(0, 1 << 24))
    counts = od.completion.pool_counts(iter(pool))
    want = od.completion._best_completion_masks(partial, counts)
    want_beat = od.completion._can_beat_masks(partial, counts, threshold)
    for form in (pool, tuple(pool), [Card.from_mask(m) for m in pool], [np.int64(m) for m in pool]):
        assert _unpacked(od.completion._search(partial, form, -1)) == want
        assert _unpacked(od.completion._search(partial, form, threshold)) == want_beat
    assert (best_completion_key(partial, pool) is None) == (want is None)


def test_copies_beyond_four_are_harmless() -> None:
    assert best_completion_key([], {"F": 10**40}) == od.army_key(["F"] * 4)
    assert best_completion_key([], {"F": 3}) is None
    assert can_beat(["F"], {"F": 2**70, "L": 1}, 2**80) is None
    assert can_beat(["F"], {"F": 2**70}, -(2**80)) == Completion(
        key=od.army_key(["F"] * 4), cards=(Card.parse("F"),) * 3
    )


def test_completion_is_a_frozen_value() -> None:
    a = Completion(key=1, cards=(Card.parse("F"),))
    assert a == Completion(key=1, cards=(Card.parse("F"),))
    assert hash(a) == hash(Completion(key=1, cards=(Card.parse("F"),)))
    with pytest.raises(AttributeError):
        a.key = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("partial", "pool", "error", "shown"),
    [
        (["L", "B", "S", "H", "F"], [], od.InvalidArmyError, "at most 4 cards, got 5"),
        ([0], ["L"], od.InvalidCardError, "got 0"),
        (["LX"], ["L"], od.InvalidCardError, "'X'"),
        ("SH", ["L"], od.OrdonnanceTypeError, "'SH'"),
        ([None], ["L"], od.OrdonnanceTypeError, "None"),
        ([1.5], ["L"], od.OrdonnanceTypeError, "1.5"),
        ([], ["L", 32], od.InvalidCardError, "position 1: card mask must be in 1..31, got 32"),
        ([], ["L", "LL"], od.InvalidCardError, "position 1: repeated symbol letter 'L'"),
        ([], [1, None], od.OrdonnanceTypeError, "position 1"),
        ([], [True], od.OrdonnanceTypeError, "True"),
        ([], [12, 1, 5, True, 1], od.OrdonnanceTypeError, "position 3"),
        ([], (1, 1, 1, True), od.OrdonnanceTypeError, "position 3"),
        ([1, 2], [*[1] * 10, 2, True], od.OrdonnanceTypeError, "position 11"),
        ([], [True, 1, 1], od.OrdonnanceTypeError, "position 0"),
        ([], [1, 1, True], od.OrdonnanceTypeError, "position 2"),
        ([], [3, 1, 1, 7, True, 1], od.OrdonnanceTypeError, "position 4"),
        ([], (12, False), od.OrdonnanceTypeError, "position 1"),
        ([], [12, 0, 5], od.InvalidCardError, "position 1: card mask must be in 1..31, got 0"),
        ([], [12, 200], od.InvalidCardError, "got 200"),
        ([], [12, 256], od.InvalidCardError, "got 256"),
        ([], [12, -1], od.InvalidCardError, "got -1"),
        ([], [12, 2**70], od.InvalidCardError, str(2**70)),
        ([], [12, 5.0], od.OrdonnanceTypeError, "5.0"),
        ([], [Card.parse("L"), "Q"], od.InvalidCardError, "position 1"),
        ([], "LBS", od.OrdonnanceTypeError, "'LBS'"),
        ([], Card.parse("L"), od.OrdonnanceTypeError, "Card.parse('L')"),
        ([], 7, od.OrdonnanceTypeError, "7"),
        ([], {"L": -1}, od.InvalidDeckError, "got -1"),
        ([], {"L": 1.0}, od.InvalidDeckError, "got 1.0"),
        ([], {"L": "2"}, od.InvalidDeckError, "got '2'"),
        ([], {"L": True}, od.InvalidDeckError, "got True"),
        ([], {"L": None}, od.InvalidDeckError, "got None"),
        ([], {"Q": 1}, od.InvalidCardError, "pool card 'Q'"),
        ([], {0: 1}, od.InvalidCardError, "got 0"),
    ],
)
def test_bad_input_is_refused(
    partial: object, pool: object, error: type[Exception], shown: str
) -> None:
    for call in (
        lambda: best_completion_key(partial, pool),  # type: ignore[arg-type]
        lambda: best_completion(partial, pool),  # type: ignore[arg-type]
        lambda: can_beat(partial, pool, 0),  # type: ignore[arg-type]
    ):
        with pytest.raises(error) as info:
            call()
        assert shown in str(info.value)


@pytest.mark.parametrize("threshold", [1.0, "3", None, True, [1]])
def test_bad_thresholds_are_refused(threshold: object) -> None:
    with pytest.raises(od.OrdonnanceTypeError, match="threshold"):
        can_beat(["F"], ["F", "F", "F"], threshold)  # type: ignore[arg-type]


def test_numpy_integer_thresholds_are_accepted() -> None:
    key = od.army_key(["F"] * 4)
    assert can_beat(["F"], ["F"] * 3, np.int64(key)) is not None  # type: ignore[arg-type]
    assert can_beat(["F"], ["F"] * 3, np.uint32(key + 1)) is None  # type: ignore[arg-type]


@given(st.lists(masks, max_size=30), st.data())
def test_a_bool_anywhere_in_a_pool_of_masks_is_refused_at_its_position(pool: list[int], data: st.DataObject) -> None:
    """The bulk path looks only at the items whose byte is 1: a True among the 1s
    (or anywhere) is still found, and the first one is named."""
    at = data.draw(st.integers(0, len(pool)))
    pool = [*pool[:at], True, *pool[at:]]
    for form in (pool, tuple(pool)):
        with pytest.raises(od.OrdonnanceTypeError, match=f"position {at}:"):
            best_completion_key([], form)
        with pytest.raises(od.OrdonnanceTypeError, match=f"position {at}:"):
            can_beat([1], form, 0)


@pytest.mark.parametrize("threshold", [-(2**70), -1, 0, 1, (1 << 24) - 1, 1 << 24, (1 << 24) + 1, 2**70])
def test_thresholds_are_clamped_into_the_key_range(threshold: int) -> None:
    """Ints inside 0..2**24 take a shortcut; the others are clamped: the same answers."""
    clamped = min(max(threshold, 0), 1 << 24)
    for partial in ([], ["F"], ["LBSHF", "F", "F"]):
        masks = [od.cards.to_mask(c) for c in partial]
        want = _can_beat_masks(masks, DECK_COUNTS, clamped)
        got = can_beat(partial, DECK, threshold)
        assert (None if got is None else (got.key, tuple(c.mask for c in got.cards))) == want


def test_the_compiled_entry_gives_the_kernels_results() -> None:
    """The search the public calls make without numba's dispatcher is the kernel's own."""
    kernel = od._completion_kernel.search_of_bytes
    entry = compiled_entry(kernel, 0, bytearray(1), -1)
    assert (entry is kernel) == numba.config.DISABLE_JIT
    for army, pool, threshold in [
        (0, bytes(DECK), -1),
        (0, bytes(DECK), od.army_key([31] * 4)),
        (16 | 16 << 8, bytes([16, 16, 1, 2]), 0),
        (1, bytes([1, 0, 2]), -1),
        (1, bytes([1, 40]), -1),
        (0x01010101, b"", 5),
    ]:
        assert entry(army, bytearray(pool), threshold) == kernel(army, pool, threshold)


def test_the_count_entries_give_the_kernels_results() -> None:
    """The engine's unchecked calls reach the kernels by their compiled entries too."""
    for partial in ([], [16], [1, 2, 4]):
        p = [*partial, 0, 0, 0, 0]
        for counts in (DECK_COUNTS, DECK_COUNTS[::2], DECK_COUNTS.astype(np.int32)):
            want = od._completion_kernel.best_completion(p[0], p[1], p[2], p[3], np.ascontiguousarray(counts, np.int64))
            assert _best_completion_masks(partial, counts) == (None if want < 0 else od._completion_kernel.unpack(want))
            for threshold in (0, od.army_key([31] * 4)):
                beat = od._completion_kernel.beats(p[0], p[1], p[2], p[3], np.ascontiguousarray(counts, np.int64), threshold)
                assert _can_beat_masks(partial, counts, threshold) == (None if beat < 0 else od._completion_kernel.unpack(beat))


class _OddIndex:
    """An integer-like object (``__index__``) that is not equal to its value."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class _OddOne(_OddIndex):
    """An integer-like object whose value is 5 but that compares equal to 1."""

    def __eq__(self, other: object) -> bool:
        return other == 1

    __hash__ = None  # type: ignore[assignment]


def test_the_bulk_path_sends_bools_and_odd_objects_card_by_card() -> None:
    """Only a list whose items equal to 1 are all plain 1s is taken in bulk: the bool
    check cannot be misled by objects that bytearray() accepts."""
    assert od.completion._pool_bytes([1, 2, 1, 3]) == bytearray([1, 2, 1, 3])
    for pool in ([True], [1, 2, True], [_OddIndex(1), 2], [_OddOne(5), 1, True], (1, True)):
        assert od.completion._pool_bytes(pool) is None


def test_the_compiled_entry_falls_back_to_the_function_itself() -> None:
    """Without numba's compiled overloads (no JIT, or another numba), the kernel is called."""

    def plain(a: int, b: bytes, c: int) -> int:
        return a + len(b) + c

    assert compiled_entry(plain, 0, b"", 0) is plain


# ------------------------------------------------ what a search decides at once


def _search_order(size: int) -> list[int]:
    """The card masks below ``size`` in the search's order: most symbols first, then highest."""
    return sorted(range(1, size), key=lambda m: (-bin(m).count("1"), -m))


@settings(max_examples=2000 if os.environ.get("NUMBA_DISABLE_JIT") != "1" else 300, deadline=None)
@given(
    st.lists(masks, max_size=3),
    st.lists(st.integers(-1, 4), min_size=32, max_size=32),
    st.integers(1, 32),
    st.lists(masks, min_size=4, max_size=4),
    st.integers(-1, 0),
    st.booleans(),
)
def test_first_completion_is_what_a_search_decides_at_once(
    partial: list[int], counts: list[int], size: int, rival: list[int], less: int, on_a_board: bool
) -> None:
    """_completion_kernel.first_completion against its definition (the first k pool
    cards in search order when they beat the floor; nothing when the pool is too
    small or its OR in every empty slot does not beat it; else undecided), read from
    a pool array or a board row, and against the search: what it returns is what
    ``beats`` returns, and ``beats`` finds nothing when it says so."""
    ck = od._completion_kernel
    floor = od.army_key(rival) + less
    pool = [m for m in _search_order(size) for _ in range(max(counts[m], 0))]
    k = 4 - len(partial)
    if len(pool) < k:
        want = ck.NONE
    elif od.army_key([*partial, *pool[:k]]) > floor:
        want = sum(m << (8 * i) for i, m in enumerate([*partial, *pool[:k]]))
    else:
        fill = 0
        for m in pool:
            fill |= m
        want = ck.NONE if od.army_key([*partial, *[fill] * k]) <= floor else ck.UNDECIDED
    army = sum(m << (8 * i) for i, m in enumerate(partial))
    if on_a_board:
        board = np.full((3, 40 + 32), 3, np.int64)
        board[1, 40:] = counts
        got = ck.first_completion(army, len(partial), board, 1, 40, size, floor)
    else:
        got = ck.first_completion(army, len(partial), np.array(counts, np.int64), 0, 0, size, floor)
    assert got == want
    p = [*partial, 0, 0, 0, 0]
    packed = ck.beats(p[0], p[1], p[2], p[3], np.array(counts[:size], np.int64), floor + 1)
    if got == ck.NONE:
        assert packed == ck.NONE
    elif got != ck.UNDECIDED:
        key, added = ck.unpack(packed)
        assert key == od.army_key([*partial, *added]) and list(added) == [got >> (8 * i) & 255 for i in range(len(partial), 4)]


def test_entry_reads_a_pool_or_a_board_row() -> None:
    ck = od._completion_kernel
    board = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert ck.entry(board, 2, 1) == 9
    assert ck.entry(board[1], 2, 3) == 7


@pytest.mark.parametrize("search", [od.best_completion_key, od.best_completion, lambda p, pool: od.can_beat(p, pool, 0)])
def test_a_pool_larger_than_any_deck_is_refused_after_reading_a_decks_worth(search: Any) -> None:
    source = itertools.cycle(["S"])
    with pytest.raises(od.InvalidDeckError, match="a pool holds at most 10,000 cards"):
        search([], source)
    with pytest.raises(od.InvalidDeckError, match="a pool holds at most 10,000 cards"):
        search([], ["S"] * 10_001)
    counted = itertools.count()
    with pytest.raises(od.InvalidDeckError):
        search([], (["S"][0] for _ in counted))
    assert next(counted) == 10_001  # read a deck's worth and one more, no further
    assert search([], ["S"] * 10_000) is not None
