"""JSON in and out for every game's saves, views and actions: untrusted text parsed safely.

:func:`parse` refuses, with the caller's error, anything that is not one JSON value of
bounded size and nesting: too long, nested too deeply (checked before parsing, so no
input can exhaust the parser's recursion or memory), not UTF-8, repeated keys,
``NaN``/``Infinity``. :func:`check_format` checks the envelope every format here
carries: ``{"format": ..., "version": ...}``; a :class:`Reader` checks the values inside.

>>> from ordonnance.core.jsonio import parse
>>> parse('{"a": [1, 2]}', ValueError)
{'a': [1, 2]}
>>> parse('{"a": 1, "a": 2}', ValueError)
Traceback (most recent call last):
    ...
ValueError: repeated keys ['a']
>>> parse("[" * 100 + "]" * 100, ValueError, max_depth=8)
Traceback (most recent call last):
    ...
ValueError: nested deeper than 8 levels
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from typing import Any
from ordonnance.core.checks import shown

__all__ = ["dumps", "parse", "check_format", "check_keys", "Reader", "MAX_TEXT_SIZE", "MAX_DEPTH"]

#: The longest text :func:`parse` reads by default, in characters (or bytes).
MAX_TEXT_SIZE = 1_000_000
#: The deepest nesting of arrays and objects :func:`parse` accepts by default.
MAX_DEPTH = 8
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")

Failure = Callable[[str], Exception]


class _Refused(Exception):
    """Raised by the parser's hooks; turned into the caller's error."""


def dumps(data: Any) -> str:
    """Compact JSON text, as every format here writes it."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _text_of(text: object, fail: Failure, max_size: int, max_depth: int) -> str:
    if not isinstance(text, (str, bytes, bytearray)):
        raise fail(f"JSON must be str or bytes, not {type(text).__name__}: {shown(text):.80}")
    if len(text) > max_size:
        raise fail(f"the text is {len(text):,} long, more than {max_size:,}")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode(json.detect_encoding(text))
        except (UnicodeDecodeError, LookupError) as error:
            raise fail(f"not JSON ({error})") from None
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub('""', text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > max_depth:
            raise fail(f"nested deeper than {max_depth} levels")
    return text


def parse(text: object, fail: Failure, *, max_size: int = MAX_TEXT_SIZE, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``text`` (str or bytes); anything else raises ``fail(message)``."""
    checked = _text_of(text, fail, max_size, max_depth)

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        data = dict(pairs)
        if len(data) != len(pairs):
            keys = [key for key, _ in pairs]
            raise _Refused(f"repeated keys {sorted({key for key in keys if keys.count(key) > 1})}")
        return data

    def no_constant(name: str) -> Any:
        raise _Refused(f"{name} is not a number JSON here may hold")

    try:
        return json.loads(checked, object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except _Refused as refusal:
        raise fail(str(refusal)) from None
    except (ValueError, RecursionError) as error:
        raise fail(f"not JSON ({error})") from None


def check_format(data: Any, fail: Failure, format: str, versions: Collection[int]) -> int:
    """The version of ``data``, an object whose ``"format"`` is ``format`` and whose
    ``"version"`` is one of ``versions`` (an int; a bool or any other JSON type is refused)."""
    if not isinstance(data, dict):
        raise fail(f"expected an object, got {type(data).__name__}")
    if data.get("format") != format:
        raise fail(f"format must be {shown(format)}, got {shown(data.get('format')):.80}")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version not in versions:
        raise fail(f"unsupported version {shown(version):.80} (this library reads {', '.join(map(str, versions))})")
    return version


def check_keys(data: dict[str, Any], fail: Failure, required: Collection[str], optional: Collection[str] = ()) -> None:
    """Refuse an object that lacks one of ``required`` or has a key outside ``required`` and ``optional``."""
    missing = sorted(set(required) - set(data))
    extra = sorted(set(data) - set(required) - set(optional))
    if missing or extra:
        raise fail(f"missing keys {missing}, unknown keys {extra}")


class Reader:
    """Checks of the values a parsed document holds, each refusing with ``fail(message)``
    that names where the value stands (``where``, e.g. ``"hands[1]"``) and shows it.

    >>> read = Reader(ValueError)
    >>> read.integer(3, "seat", 0, 3), read.integer_or_null(None, "winner", 0, 1)
    (3, None)
    >>> read.array([True, 1], "flags", 2)
    [True, 1]
    >>> read.boolean(1, "flags[1]")
    Traceback (most recent call last):
        ...
    ValueError: flags[1] must be true or false, got 1
    """

    __slots__ = ("fail",)

    def __init__(self, fail: Failure) -> None:
        self.fail = fail
        """Makes the error to raise from a message (the format's error class, or a function)."""

    def integer(self, value: Any, where: str, low: int, high: int) -> int:
        """``value`` if it is an int (not a bool) in ``low..high``."""
        if type(value) is not int or not low <= value <= high:
            raise self.fail(f"{where} must be an int in {low}..{high}, got {shown(value):.80}")
        return value

    def integer_or_null(self, value: Any, where: str, low: int, high: int) -> int | None:
        """``value`` if it is null or an int (not a bool) in ``low..high``."""
        if value is not None and (type(value) is not int or not low <= value <= high):
            raise self.fail(f"{where} must be an int in {low}..{high} or null, got {shown(value):.80}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        """``value`` if it is true or false."""
        if type(value) is not bool:
            raise self.fail(f"{where} must be true or false, got {shown(value):.80}")
        return value

    def array(self, value: Any, where: str, length: int | None = None) -> list[Any]:
        """``value`` if it is an array (of ``length`` items, when given)."""
        if not isinstance(value, list):
            raise self.fail(f"{where} must be a list, got {shown(value):.80}")
        if length is not None and len(value) != length:
            raise self.fail(f"{where} must have {length} entries, got {len(value)}: {shown(value):.80}")
        return value
