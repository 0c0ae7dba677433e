"""Argument checks shared by every public entry point of every game: one policy, written once.

* NumPy integers are accepted wherever Python ints are, NumPy strings wherever strs are,
  NumPy bools wherever bools are; what is returned (and stored) is always the plain
  Python value.
* A bool is not an int, and an int is not a bool.
* An iterable from the user is read with a bound, at most what could be valid plus one
  item, so an iterator that never ends is refused instead of hanging.
* A wrong type raises :class:`~ordonnance.errors.OrdonnanceTypeError`; a value of the
  right type out of range raises the ``error`` given (by default
  :class:`~ordonnance.errors.InvalidArgumentError`). Every message shows the value with
  ``repr`` (shortened when huge).

>>> import numpy as np
>>> integer(np.int64(3), "players", low=2, high=4)
3
>>> type(text(np.str_("points"), "scoring"))
<class 'str'>
>>> integer(True, "players")
Traceback (most recent call last):
...
ordonnance.errors.OrdonnanceTypeError: players must be an int, got True
>>> import itertools
>>> bounded(itertools.count(), "deck", 3)
Traceback (most recent call last):
...
ordonnance.errors.InvalidArgumentError: deck must have at most 3 items, got more
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any, TypeGuard, TypeVar

import numpy as np

from ordonnance.errors import InvalidArgumentError, InvalidSeatError, OrdonnanceTypeError, shown

__all__ = ["shown", "is_integer", "is_real", "integer", "optional_integer", "real", "flag", "text", "choice", "bounded", "seat"]

_T = TypeVar("_T")

def is_integer(value: object) -> TypeGuard[int | np.integer[Any]]:
    """Whether ``value`` is a Python or NumPy integer and not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_real(value: object) -> TypeGuard[int | float | np.integer[Any] | np.floating[Any]]:
    """Whether ``value`` is a Python or NumPy integer or float and not a bool."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def integer(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[ValueError] = InvalidArgumentError,
) -> int:
    """``value`` as a plain int, checked to lie in ``low..high`` (either bound may be None)."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise OrdonnanceTypeError(f"{name} must be an int, got {shown(value)}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"{low}..{high}" if low is not None and high is not None else (f">= {low}" if low is not None else f"<= {high}")
        raise error(f"{name} must be {span}, got {shown(number)}")
    return number


def optional_integer(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[ValueError] = InvalidArgumentError,
) -> int | None:
    """:func:`integer`, or None when ``value`` is None."""
    return None if value is None else integer(value, name, low=low, high=high, error=error)


def real(
    value: object,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    error: type[ValueError] = InvalidArgumentError,
) -> float:
    """``value`` (an int or float of Python or NumPy, not a bool) as a finite plain float in ``low..high``."""
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, (bool, np.bool_)):
        raise OrdonnanceTypeError(f"{name} must be a number, got {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise error(f"{name} must be a finite number, got {shown(value)}") from None
    if not math.isfinite(number):
        raise error(f"{name} must be a finite number, got {shown(value)}")
    if (low is not None and number < low) or (high is not None and number > high):
        raise error(f"{name} must be between {low} and {high}, got {shown(value)}")
    return number


def flag(value: object, name: str) -> bool:
    """``value`` (a Python or NumPy bool) as a plain bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise OrdonnanceTypeError(f"{name} must be a bool, got {shown(value)}")
    return bool(value)


def text(
    value: object,
    name: str,
    *,
    most: int | None = None,
    printable: bool = False,
    error: type[ValueError] = InvalidArgumentError,
) -> str:
    """``value`` (a Python or NumPy string) as a plain str.

    ``most`` bounds its length; ``printable`` refuses control characters (a NUL or an
    escape in a name would break XML, terminals and logs) and lone surrogates."""
    if not isinstance(value, str):
        raise OrdonnanceTypeError(f"{name} must be a str, got {shown(value)}")
    plain = str(value)
    if most is not None and len(plain) > most:
        raise error(f"{name} must have at most {most} characters, got {len(plain)}: {shown(plain)}")
    if printable:
        bad = next((c for c in plain if (c < " " and c not in "\t\n") or "\x7f" <= c < "\xa0" or "\ud800" <= c <= "\udfff"), None)
        if bad is not None:
            raise error(f"{name} must not hold control characters ({bad!r}), got {shown(plain)}")
    return plain


def choice(value: object, name: str, choices: Sequence[_T], *, error: type[ValueError] = InvalidArgumentError) -> _T:
    """The element of ``choices`` equal to ``value`` (so a NumPy string or int comes back as
    the plain choice); a value of an unhashable or foreign type is refused, not compared badly."""
    for option in choices:
        if isinstance(option, bool):
            same = isinstance(value, (bool, np.bool_)) and bool(value) is option
        elif isinstance(option, int):
            same = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and int(value) == option
        elif isinstance(option, str):
            same = isinstance(value, str) and value == option
        else:
            same = type(value) is type(option) and value == option
        if same:
            return option
    listed = ", ".join(map(repr, choices))
    raise error(f"{name} must be one of {listed}, got {shown(value)}")


def bounded(items: Iterable[_T], name: str, most: int, *, error: type[ValueError] = InvalidArgumentError) -> list[_T]:
    """The items of ``items`` as a list, reading at most ``most + 1`` of them: more than
    ``most`` is refused (so an iterator that never ends is refused, not followed forever).

    A str is refused as well: it is iterable, but never meant as a sequence of items here."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise OrdonnanceTypeError(f"{name} must be an iterable of items, got {shown(items)}")
    listed = list(itertools.islice(items, most + 1))
    if len(listed) > most:
        raise error(f"{name} must have at most {most} items, got more")
    return listed


def seat(value: object, players: int, *, name: str = "seat", random: bool = False) -> int | str:
    """``value`` as a seat number ``0..players-1`` (a plain int), or ``"random"`` when ``random``
    allows it; else :class:`~ordonnance.errors.OrdonnanceTypeError` or
    :class:`~ordonnance.errors.InvalidSeatError` showing it."""
    if random and isinstance(value, str) and value == "random":
        return "random"
    wanted = f"a seat number 0..{players - 1}" + (" or 'random'" if random else "")
    if not is_integer(value):
        raise OrdonnanceTypeError(f"{name} must be {wanted}, got {shown(value)}")
    if not 0 <= value < players:
        raise InvalidSeatError(f"{name} must be {wanted}, got {shown(value)}")
    return int(value)
