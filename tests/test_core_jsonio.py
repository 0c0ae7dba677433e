"""core.jsonio.Reader: one check of each JSON value kind, for every game's saves and views."""

from __future__ import annotations

from typing import Any

import pytest

from ordonnance.core.jsonio import Reader
from ordonnance.errors import InvalidGameStateError

READ = Reader(lambda message: InvalidGameStateError(f"invalid test JSON: {message}"))


def test_good_values_come_back_as_they_are() -> None:
    assert READ.integer(0, "seat", 0, 1) == 0
    assert READ.integer_or_null(None, "winner", 0, 1) is None
    assert READ.integer_or_null(1, "winner", 0, 1) == 1
    assert READ.boolean(False, "over") is False
    value = [1, 2]
    assert READ.array(value, "scores", 2) is value and READ.array([], "history") == []


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (lambda: READ.integer(True, "seat", 0, 1), "seat must be an int in 0..1, got True"),
        (lambda: READ.integer(2, "seat", 0, 1), "seat must be an int in 0..1, got 2"),
        (lambda: READ.integer(1.0, "seat", 0, 1), "seat must be an int in 0..1, got 1.0"),
        (lambda: READ.integer(None, "seat", 0, 1), "seat must be an int in 0..1, got None"),
        (lambda: READ.integer_or_null("1", "winner", 0, 1), "winner must be an int in 0..1 or null, got '1'"),
        (lambda: READ.boolean(0, "over"), "over must be true or false, got 0"),
        (lambda: READ.array({"a": 1}, "hands"), "hands must be a list, got {'a': 1}"),
        (lambda: READ.array([[1]], "hands", 2), "hands must have 2 entries, got 1: [[1]]"),
    ],
)
def test_bad_values_raise_the_callers_error_naming_and_showing_them(read: Any, message: str) -> None:
    with pytest.raises(InvalidGameStateError) as info:
        read()
    assert str(info.value) == f"invalid test JSON: {message}"
