from __future__ import annotations

import itertools
import os
import random
import re

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ordonnance as od
from ordonnance import Card, Symbol

from . import naive
from .strategies import armies, full_armies, masks, slots


def _all_armies(size: int) -> np.ndarray:
    """Every multiset of `size` card types (1..31), padded with empty slots to 4."""
    rows = [
        list(combo) + [0] * (4 - size)
        for combo in itertools.combinations_with_replacement(range(1, 32), size)
    ]
    return np.array(rows, dtype=np.uint8).reshape(-1, 4)


def _assert_keys_induce_reference_order(rows: np.ndarray, keys: np.ndarray) -> None:
    """Equal strength <=> equal key, and stronger <=> larger key, for every pair."""
    by_strength: dict[tuple[object, ...], set[int]] = {}
    for row, key in zip(rows.tolist(), keys.tolist()):
        by_strength.setdefault(naive.strength(row), set()).add(key)
    ordered = sorted(by_strength)
    for strength in ordered:
        assert len(by_strength[strength]) == 1, f"one strength, several keys: {strength}"
    ordered_keys = [next(iter(by_strength[s])) for s in ordered]
    assert all(a < b for a, b in zip(ordered_keys, ordered_keys[1:]))


def test_every_full_army_is_ordered_exactly_as_the_rules_say() -> None:
    rows = _all_armies(4)
    assert len(rows) == 46_376
    keys = od.army_keys(rows)
    _assert_keys_induce_reference_order(rows, keys)
    # and the scalar path agrees with the batch path on every one of them
    assert [od.army_key(row) for row in rows.tolist()] == keys.tolist()


def test_every_partial_army_is_ordered_too() -> None:
    rows = np.concatenate([_all_armies(size) for size in range(5)])
    keys = od.army_keys(rows)
    _assert_keys_induce_reference_order(rows, keys)
    assert od.army_key([]) == 0


def test_every_full_army_is_described_as_the_rules_say() -> None:
    rows = _all_armies(4)
    for row, key in zip(rows.tolist(), od.army_keys(rows).tolist()):
        got = od.describe(key)
        want = naive.tiers(row)
        assert tuple(map(int, got.regiments)) == want[0]
        assert tuple(map(int, got.battalions)) == want[1]
        assert tuple(map(int, got.companies)) == want[2]


@given(armies, st.randoms())
def test_key_ignores_card_order(army: list[int], rnd: random.Random) -> None:
    shuffled = army[:]
    rnd.shuffle(shuffled)
    assert od.army_key(army) == od.army_key(shuffled)


@given(armies, st.data())
def test_adding_a_symbol_never_lowers_the_key(army: list[int], data: st.DataObject) -> None:
    assume(army)
    index = data.draw(st.integers(0, len(army) - 1))
    symbol = data.draw(st.sampled_from(Symbol))
    stronger = army[:]
    stronger[index] |= symbol.bit
    assert od.army_key(stronger) >= od.army_key(army)
    assert naive.compare(stronger, army) >= 0


@given(armies, armies)
def test_compare_armies_matches_reference(a: list[int], b: list[int]) -> None:
    assert od.compare_armies(a, b) == naive.compare(a, b)
    assert od.compare_armies(b, a) == -naive.compare(a, b)


@given(hnp.arrays(np.uint8, st.tuples(st.integers(0, 50), st.just(4)), elements=slots))
def test_batch_equals_scalar(rows: np.ndarray) -> None:
    keys = od.army_keys(rows)
    assert keys.dtype == np.uint32 and keys.shape == (rows.shape[0],)
    assert keys.tolist() == [od.army_key([m for m in row if m]) for row in rows.tolist()]


@given(hnp.arrays(np.uint8, st.tuples(st.integers(1, 20), st.just(4)), elements=slots))
def test_batch_accepts_other_integer_dtypes_and_layouts(rows: np.ndarray) -> None:
    expected = od.army_keys(rows)
    for dtype in (np.int64, np.uint16, np.int8):
        assert od.army_keys(rows.astype(dtype)).tolist() == expected.tolist()
    fortran = np.asfortranarray(rows)
    assert od.army_keys(fortran).tolist() == expected.tolist()
    strided = np.repeat(rows, 2, axis=0)[::2]
    assert od.army_keys(strided).tolist() == expected.tolist()


@given(full_armies)
def test_cards_masks_and_strings_give_the_same_key(army: list[int]) -> None:
    cards = [Card.from_mask(m) for m in army]
    assert od.army_key(cards) == od.army_key(army) == od.army_key([str(c) for c in cards])
    assert od.army_key(tuple(army)) == od.army_key(iter(army))


def test_api_example() -> None:
    key = od.army_key(["SH", "SH", "LS", "S"])
    assert od.describe(key).regiments == (Symbol.SWORD,)
    assert od.describe(key).companies == (Symbol.HELMET,)
    assert str(od.describe(key)) == "1 regiment (Sword), 1 company (Helmet)"
    two = od.describe(od.army_key(["FHL", "FHL", "FHL", "FHL"]))
    assert str(two) == "3 regiments (Banner, Helmet, Lance)"
    mixed = od.describe(od.army_key(["FH", "FH", "FL", "L"]))
    assert str(mixed) == "1 battalion (Banner), 2 companies (Helmet, Lance)"
    assert str(od.describe(0)) == "no formation"


@pytest.mark.parametrize(
    ("army", "error", "shown"),
    [
        (["L", "B", "S", "H", "F"], od.InvalidArmyError, "at most 4 cards, got 5"),
        ([0, 1], od.InvalidCardError, "got 0"),
        ([32], od.InvalidCardError, "got 32"),
        ([-3], od.InvalidCardError, "got -3"),
        (["LX"], od.InvalidCardError, "'X'"),
        (["LL"], od.InvalidCardError, "repeated"),
        ([""], od.InvalidCardError, "''"),
        ([1.5], TypeError, "1.5"),
        ("SH", TypeError, "'SH'"),
        (12, TypeError, "12"),
        ([None], TypeError, "None"),
    ],
)
def test_bad_armies_are_refused(army: object, error: type[Exception], shown: str) -> None:
    with pytest.raises(error) as info:
        od.army_key(army)  # type: ignore[arg-type]
    assert shown in str(info.value)
    with pytest.raises(error):
        od.compare_armies(army, [])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("array", "error", "shown"),
    [
        (np.zeros((3, 5), np.uint8), od.InvalidArmyError, "(3, 5)"),
        (np.zeros((4,), np.uint8), od.InvalidArmyError, "(4,)"),
        (np.zeros((2, 2, 4), np.uint8), od.InvalidArmyError, "(2, 2, 4)"),
        (np.array([[1, 2, 3, 32]], np.uint8), od.InvalidArmyError, "got 32 in row 0"),
        (np.array([[1, 2, 3, 4], [1, 2, -1, 4]], np.int16), od.InvalidArmyError, "got -1 in row 1"),
        (np.array([[1, 2, 3, 300]], np.int64), od.InvalidArmyError, "got 300"),
        (np.zeros((2, 4), np.float64), TypeError, "float64"),
        (np.zeros((2, 4), bool), TypeError, "bool"),
        ([[1, 2, 3, 4]], TypeError, "list"),
    ],
)
def test_bad_batches_are_refused(array: object, error: type[Exception], shown: str) -> None:
    with pytest.raises(error) as info:
        od.army_keys(array)  # type: ignore[arg-type]
    assert shown in str(info.value)


def test_empty_batch() -> None:
    keys = od.army_keys(np.zeros((0, 4), np.uint8))
    assert keys.shape == (0,) and keys.dtype == np.uint32


@given(st.integers(0, (1 << 24) - 1))
def test_describe_accepts_exactly_the_keys_armies_produce(key: int) -> None:
    produced = _produced_keys()
    if key in produced:
        assert od.describe(key) is not None
    else:
        with pytest.raises(od.InvalidKeyError, match=str(key)):
            od.describe(key)


def test_describe_round_trips_every_produced_key() -> None:
    for key in _produced_keys():
        d = od.describe(key)
        army = _army_from_description(d)
        assert od.army_key(army) == key


@pytest.mark.parametrize("key", [-1, 1 << 24, 2**40])
def test_describe_refuses_out_of_range(key: int) -> None:
    with pytest.raises(od.InvalidKeyError, match=str(key)):
        od.describe(key)


@pytest.mark.parametrize("key", ["12", 1.0, None, True])
def test_describe_refuses_non_ints(key: object) -> None:
    with pytest.raises(TypeError):
        od.describe(key)  # type: ignore[arg-type]


_PRODUCED: set[int] = set()


def _produced_keys() -> set[int]:
    if not _PRODUCED:
        rows = np.concatenate([_all_armies(size) for size in range(5)])
        _PRODUCED.update(od.army_keys(rows).tolist())
    return _PRODUCED


def _army_from_description(d: od.ArmyDescription) -> list[int]:
    army = [0, 0, 0, 0]
    for symbols, copies in ((d.regiments, 4), (d.battalions, 3), (d.companies, 2)):
        for symbol in symbols:
            for i in range(copies):
                army[i] |= symbol.bit
    return [m for m in army if m]


def test_scalar_table_agrees_with_the_kernel_on_every_ordered_army() -> None:
    """army_key's nested table, read exactly as army_key reads it, against the batch
    kernel on every ordered 4-tuple of slots 0..31 (0 = empty; a subsample without the JIT)."""
    from ordonnance import army

    masks = np.arange(32)
    rows = np.stack(np.meshgrid(masks, masks, masks, masks, indexing="ij"), axis=-1).reshape(-1, 4)
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        rows = rows[::97]
    table = army._KEYS
    got = [table[a][b][c][d] for a, b, c, d in rows.tolist()]
    assert got == od.army_keys(rows.astype(np.uint8)).tolist()
    assert all(len(level) == 32 for level in (table, table[5], table[5][7], table[5][7][9]))


def test_card_int_check_is_true_exactly_for_plain_ints_1_to_31() -> None:
    """army_key's fast path trusts ``_CARD_INT[x] is x`` (or an IndexError/TypeError) to
    mean "x is a plain int card mask"; anything else must fail it."""
    from ordonnance import army

    def passes(x: object) -> bool:
        try:
            return army._CARD_INT[x] is x  # type: ignore[index]
        except (IndexError, TypeError):
            return False

    for x in range(-300, 300):
        assert passes(x) == (1 <= x <= 31), x
    others: list[object] = [True, False, 2**70, -(2**70), 1.0, 12.0, "1", None, Card.from_mask(3)]
    others += [np.int64(3), np.uint8(12), np.bool_(True), Symbol.SWORD]
    assert not any(passes(x) for x in others)


def test_scalar_path_agrees_with_the_batch_on_every_partial_army() -> None:
    rows = np.concatenate([_all_armies(size) for size in range(4)])
    scalar = [od.army_key([m for m in row if m]) for row in rows.tolist()]
    assert scalar == od.army_keys(rows).tolist()
    cards = [od.army_key([Card.from_mask(m) for m in row if m]) for row in rows.tolist()[::7]]
    assert cards == scalar[::7]


@pytest.mark.parametrize(
    ("army", "error", "shown"),
    [
        ({"SH": 1}, TypeError, "{'SH': 1}"),
        ({12, 5}, TypeError, "{"),
        (frozenset([12]), TypeError, "frozenset"),
        (itertools.count(1), od.InvalidArmyError, "at most 4 cards, got 5"),
        ([True, 1, 2, 3], TypeError, "bool"),
        ([12, 12, 5, 0], od.InvalidCardError, "got 0"),
        ([12, 12, 5, -1], od.InvalidCardError, "got -1"),
        ([12, 12, 5, 2**70], od.InvalidCardError, str(2**70)),
    ],
)
def test_more_bad_armies_are_refused(army: object, error: type[Exception], shown: str) -> None:
    with pytest.raises(error) as info:
        od.army_key(army)  # type: ignore[arg-type]
    assert shown in str(info.value)


def test_masked_arrays_are_refused_not_misread() -> None:
    masked = np.ma.array([[12, 12, 5, 200]], mask=[[0, 0, 0, 1]])
    with pytest.raises(od.OrdonnanceTypeError, match="masked"):
        od.army_keys(masked)
    with pytest.raises(od.OrdonnanceTypeError, match="object"):
        od.army_keys(np.array([[12, 12, 5, 4]], dtype=object))


def test_batch_into_a_preallocated_output() -> None:
    rows = np.array([[12, 12, 5, 4], [16, 16, 1, 2], [0, 0, 0, 0]], np.uint8)
    out = np.full(3, 7, np.uint32)
    assert od.army_keys(rows, out=out) is out
    assert out.tolist() == od.army_keys(rows).tolist() == [od.army_key([12, 12, 5, 4]), od.army_key([16, 16, 1, 2]), 0]
    for bad, shown in [
        (np.empty(3, np.int64), "dtype int64"),
        (np.empty(4, np.uint32), "shape (4,)"),
        (np.empty((3, 1), np.uint32), "shape (3, 1)"),
        (np.empty(6, np.uint32)[::2], "not C-contiguous"),
        (np.ma.array(np.empty(3, np.uint32)), "MaskedArray"),
        ([0, 0, 0], "list"),
    ]:
        with pytest.raises(od.OrdonnanceTypeError, match=re.escape(shown)):
            od.army_keys(rows, out=bad)  # type: ignore[arg-type]
    readonly = np.empty(3, np.uint32)
    readonly.flags.writeable = False
    with pytest.raises(od.OrdonnanceTypeError, match="read-only"):
        od.army_keys(rows, out=readonly)


@pytest.mark.parametrize("column", range(4))
def test_an_out_of_range_byte_is_found_in_the_same_pass(column: int) -> None:
    rows = np.ones((1000, 4), np.uint8)
    rows[637, column] = 32 + 64 * column
    for batch in (rows, np.asfortranarray(rows), np.repeat(rows, 2, axis=0)[::2]):
        with pytest.raises(od.InvalidArmyError, match=f"got {32 + 64 * column} in row 637"):
            od.army_keys(batch)


@pytest.mark.parametrize("size", [0, 1, 15, 16, 17, 255, 1000, 1023, 1024, 1025, 1039, 1040, 2049])
def test_every_block_and_lane_boundary_of_the_batch_kernel(size: int) -> None:
    """The batch kernel works by blocks of 1024 armies and finishes keys 16 at a time,
    the rest one by one: around every such boundary, and into outputs at every
    offset modulo 16 words (the vector loads and stores need no alignment), its keys
    are the scalar path's; the range check still sees the last army of a batch."""
    rng = np.random.default_rng(size)
    rows = rng.integers(0, 32, size=(size, 4), dtype=np.uint8)
    expected = [od.army_key([m for m in row if m]) for row in rows.tolist()]
    for offset in (0, 1, 5, 15):
        out = np.full(size + offset, 0xFFFFFFFF, np.uint32)[offset:]
        assert od.army_keys(rows, out=out).tolist() == expected
    if size:
        rows[-1, 3] = 40
        with pytest.raises(od.InvalidArmyError, match=f"got 40 in row {size - 1}"):
            od.army_keys(rows)


def test_the_one_pass_path_of_the_batch_kernel_on_every_partial_army() -> None:
    """Batches of ``ONE_PASS`` armies or more (a million) take the kernel's one-pass
    path instead of the blocks: forced on every partial army, into outputs at two
    offsets, its keys are the scalar path's, and its range check still fires."""
    from ordonnance import _army_kernel

    rows = np.concatenate([_all_armies(size) for size in range(5)])
    words = rows.view(np.uint32).reshape(-1)
    expected = [od.army_key([m for m in row if m]) for row in rows.tolist()]
    for offset in (0, 3):
        out = np.full(len(words) + offset, 0xFFFFFFFF, np.uint32)[offset:]
        assert _army_kernel.keys_from_words(words, out, 0) == 0
        assert out.tolist() == expected
    words[-1] |= np.uint32(0x40 << 24)
    assert _army_kernel.keys_from_words(words, out, 0) == 0x40 << 24
