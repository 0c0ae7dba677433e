"""The shared argument checks: one policy for NumPy scalars, bools, bounds and endless iterables."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from ordonnance.core import checks
from ordonnance.errors import InvalidArgumentError, InvalidRulesError, OrdonnanceTypeError


@pytest.mark.parametrize("value", [3, np.int8(3), np.int64(3), np.uint64(3)])
def test_integer_accepts_python_and_numpy_ints_and_returns_a_plain_int(value: object) -> None:
    result = checks.integer(value, "n", low=0, high=5)
    assert result == 3 and type(result) is int


@pytest.mark.parametrize("value", [True, np.bool_(False), 3.0, np.float64(3), "3", None, [3], 1j])
def test_integer_refuses_other_types_showing_the_value(value: object) -> None:
    with pytest.raises(OrdonnanceTypeError, match="n must be an int, got"):
        checks.integer(value, "n")


@pytest.mark.parametrize(("value", "low", "high", "span"), [(-1, 0, 5, "0..5"), (6, 0, 5, "0..5"), (-1, 0, None, ">= 0"), (9, None, 5, "<= 5")])
def test_integer_refuses_values_out_of_range_with_the_error_asked(value: int, low: int | None, high: int | None, span: str) -> None:
    with pytest.raises(InvalidRulesError, match=f"n must be {span}, got {value}"):
        checks.integer(value, "n", low=low, high=high, error=InvalidRulesError)


def test_a_huge_int_is_refused_with_a_short_message() -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        checks.integer(10**5000, "n", high=10)
    assert "bits" in str(caught.value) and len(str(caught.value)) < 100


def test_optional_integer() -> None:
    assert checks.optional_integer(None, "n") is None
    assert checks.optional_integer(np.int32(4), "n") == 4


@pytest.mark.parametrize("value", [1, 0.5, np.float32(0.5), np.int64(2)])
def test_real_returns_a_plain_float(value: object) -> None:
    assert type(checks.real(value, "x")) is float


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, np.float64("nan"), 10**400])
def test_real_refuses_what_is_not_finite(value: object) -> None:
    with pytest.raises(InvalidArgumentError, match="finite"):
        checks.real(value, "x")


@pytest.mark.parametrize("value", [True, "1", None])
def test_real_refuses_other_types(value: object) -> None:
    with pytest.raises(OrdonnanceTypeError, match="x must be a number"):
        checks.real(value, "x")


def test_flag() -> None:
    assert checks.flag(np.bool_(True), "f") is True
    for value in (1, 0, "yes", None, np.int64(1)):
        with pytest.raises(OrdonnanceTypeError, match="f must be a bool"):
            checks.flag(value, "f")


def test_text_returns_a_plain_str_and_refuses_control_characters_when_asked() -> None:
    assert type(checks.text(np.str_("ab"), "t")) is str
    assert checks.text("a\x00b", "t") == "a\x00b"
    for bad in ("a\x00b", "\x1b[31m", "x\x7f", "\ud800", "\x85"):
        with pytest.raises(InvalidArgumentError, match="control characters"):
            checks.text(bad, "t", printable=True)
    assert checks.text("tab\there\nnewline é ³ 🂡", "t", printable=True)
    with pytest.raises(InvalidArgumentError, match="at most 3 characters"):
        checks.text("abcd", "t", most=3)
    with pytest.raises(OrdonnanceTypeError, match="t must be a str, got b'x'"):
        checks.text(b"x", "t")


def test_choice_gives_back_the_plain_choice() -> None:
    got = checks.choice(np.str_("points"), "scoring", ("territories", "points"))
    assert got == "points" and type(got) is str
    assert type(checks.choice(np.int64(2), "n", (1, 2))) is int
    assert checks.choice(np.bool_(True), "b", (False, True)) is True
    for bad in (True, 2.0, "2", [2], {2: 1}):
        with pytest.raises(InvalidArgumentError, match="n must be one of 1, 2"):
            checks.choice(bad, "n", (1, 2))


def test_bounded_reads_at_most_one_item_past_the_bound() -> None:
    source = itertools.count()
    with pytest.raises(InvalidArgumentError, match="deck must have at most 5 items"):
        checks.bounded(source, "deck", 5)
    assert next(source) == 6  # read 0..5, no further
    assert checks.bounded(iter("abc"), "deck", 3) == ["a", "b", "c"]
    for bad in ("abc", b"abc", 5, None):
        with pytest.raises(OrdonnanceTypeError, match="deck must be an iterable"):
            checks.bounded(bad, "deck", 3)  # type: ignore[arg-type]


def test_shown_survives_a_broken_repr_and_cuts_long_ones() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert "repr raised RuntimeError" in checks.shown(Broken())
    assert len(checks.shown(list(range(10_000)))) < 260
