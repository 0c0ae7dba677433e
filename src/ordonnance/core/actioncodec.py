"""The JSON form of a game's actions, written once for every game: an :class:`ActionCodec`.

An action's JSON is an object whose ``"type"`` names its kind and whose other keys
are its fields, each written by a :class:`FieldCodec`. A game gives its table of
kinds (``"type"`` name to action class, an ``attrs`` class whose fields are the
keys) and one field codec per field name; the codec writes the JSON Schema of
the output, writes actions, and reads untrusted JSON back, refusing anything
else with :class:`~ordonnance.errors.InvalidArgumentError` showing the value:

>>> import attrs
>>> @attrs.frozen
... class Jump:
...     square: int
>>> codec = ActionCodec("toy", "A toy action", {"jump": Jump}, {"square": int_field(0, 8)})
>>> codec.to_json(Jump(3))
'{"type":"jump","square":3}'
>>> codec.from_json('{"type": "jump", "square": 3}')
Jump(square=3)
>>> codec.from_json('{"type": "jump", "square": "3"}')
Traceback (most recent call last):
...
ordonnance.errors.InvalidArgumentError: invalid toy action JSON: {'type': 'jump', 'square': '3'}: square must be an int, got '3'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs

from ordonnance.core import jsonio
from ordonnance.errors import InvalidArgumentError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = [
    "FieldCodec", "ActionCodec", "int_field", "name_field", "check_int", "kind_schema",
    "SCHEMA_DIALECT", "MAX_SIZE", "MAX_DEPTH",
]  # fmt: skip

#: The JSON Schema dialect of every action schema.
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The longest action JSON :meth:`ActionCodec.from_json` reads, in characters (or bytes).
MAX_SIZE = 10_000
#: The deepest nesting of action JSON :meth:`ActionCodec.from_json` reads.
MAX_DEPTH = 4


def _same(value: Any) -> Any:
    return value


def _no_check(_field: str, _value: Any) -> str | None:
    return None


def check_int(field: str, value: Any) -> str | None:
    """A :attr:`FieldCodec.check` refusing a JSON value that is not an int (a bool or a float is not)."""
    return None if type(value) is int else f"{field} must be an int, got {value!r:.80}"


@attrs.frozen
class FieldCodec:
    """How one field of an action is written in JSON and read back."""

    schema: Mapping[str, object]
    """The JSON Schema of the field's JSON value."""
    encode: Callable[[Any], Any] = _same
    """The field's JSON value from the action's attribute."""
    check: Callable[[str, Any], str | None] = _no_check
    """``check(field, value)``: why a JSON value is refused (None: it is not), before any action is built."""
    decode: Callable[[Any], Any] = _same
    """The action class's argument from a checked JSON value; it may raise the library's errors."""


def int_field(low: int, high: int) -> FieldCodec:
    """A field written as an int in ``low..high`` (the action class checks the range)."""
    return FieldCodec({"type": "integer", "minimum": low, "maximum": high}, check=check_int)


def name_field(names: Sequence[str]) -> FieldCodec:
    """A field whose value is an index 0..len(names)-1 written as ``names[value]``; the action
    class converts the name back."""

    def check(field: str, value: Any) -> str | None:
        if isinstance(value, str) and value in names:
            return None
        return f"{field} must be one of {', '.join(names)}, got {value!r:.80}"

    return FieldCodec({"enum": list(names)}, encode=names.__getitem__, check=check)


def kind_schema(name: str, fields: Sequence[str], schemas: Mapping[str, object]) -> dict[str, object]:
    """The JSON Schema of one kind of action: ``{"type": name, field: ..., ...}``, nothing else."""
    return {
        "type": "object",
        "properties": {"type": {"const": name}, **{field: schemas[field] for field in fields}},
        "required": ["type", *fields],
        "additionalProperties": False,
    }


_A = TypeVar("_A")


class ActionCodec(Generic[_A]):
    """The JSON codec of one game's actions.

    ``game`` names the game in messages (``"invalid shinobi action JSON: ..."``), ``title``
    is the schema's title, ``kinds`` maps each ``"type"`` to its ``attrs`` action class (in
    the schema's order), ``fields`` gives the codec of every field name of those classes and
    ``defs`` what the schema holds under ``$defs``.
    """

    def __init__(
        self,
        game: str,
        title: str,
        kinds: Mapping[str, type[_A]],
        fields: Mapping[str, FieldCodec],
        defs: Mapping[str, object] | None = None,
    ) -> None:
        self.game = game
        self.kinds: dict[str, type[_A]] = dict(kinds)
        self._names = {kind: name for name, kind in self.kinds.items()}
        self._fields = {
            kind: tuple(field.name for field in attrs.fields(kind)) for kind in self.kinds.values()  # type: ignore[arg-type]
        }
        self._codecs = dict(fields)
        schemas = {field: codec.schema for field, codec in self._codecs.items()}
        self.schema: dict[str, object] = {
            "$schema": SCHEMA_DIALECT,
            "title": title,
            **({"$defs": dict(defs)} if defs else {}),
            "oneOf": [kind_schema(name, self._fields[kind], schemas) for name, kind in self.kinds.items()],
        }
        """The JSON Schema (draft 2020-12) of :meth:`to_data`'s output."""

    def __repr__(self) -> str:
        return f"ActionCodec({self.game!r}, kinds={list(self.kinds)})"

    def fail(self, message: str) -> InvalidArgumentError:
        """The error refusing action JSON (or data) for ``message``."""
        return InvalidArgumentError(f"invalid {self.game} action JSON: {message}")

    def is_action(self, value: object) -> bool:
        """Whether ``value`` is an instance of one of the action classes (exactly, not a subclass)."""
        return type(value) in self._names

    def to_data(self, action: _A) -> dict[str, Any]:
        """``action`` as JSON data: ``{"type": name, field: value, ...}``."""
        name = self._names.get(type(action))
        if name is None:
            raise OrdonnanceTypeError(f"not a {self.game} action: {shown(action):.80}")
        data: dict[str, Any] = {"type": name}
        for field in self._fields[type(action)]:
            data[field] = self._codecs[field].encode(getattr(action, field))
        return data

    def from_data(self, data: Any, fail: Callable[[str], Exception] | None = None) -> _A:
        """The action of :meth:`to_data` output; anything else raises ``fail(reason)`` (by
        default :meth:`fail`), the reason showing the value."""
        refuse = self.fail if fail is None else fail
        name = data.get("type") if isinstance(data, dict) else None
        # The type is checked to be a str before the lookup: a list or object is unhashable.
        if not isinstance(name, str) or name not in self.kinds:
            raise refuse(f"an action is an object whose type is one of {', '.join(self.kinds)}, got {shown(data):.120}")
        kind = self.kinds[name]
        fields = self._fields[kind]
        jsonio.check_keys(data, lambda message: refuse(f"{data!r:.120}: {message}"), ["type", *fields])
        for field in fields:
            reason = self._codecs[field].check(field, data[field])
            if reason is not None:
                raise refuse(f"{shown(data):.120}: {reason}")
        try:
            return kind(**{field: self._codecs[field].decode(data[field]) for field in fields})
        except (OrdonnanceError, TypeError) as error:
            raise refuse(f"{shown(data):.120}: {error}") from None

    def to_json(self, action: _A) -> str:
        """``action`` as compact JSON text."""
        return jsonio.dumps(self.to_data(action))

    def from_json(self, text: str | bytes) -> _A:
        """The action of :meth:`to_json` output, from untrusted text: refused when not str or
        bytes, not JSON, longer than 10,000 characters or nested deeper than 4 levels, with
        repeated keys, or data :meth:`from_data` refuses."""
        return self.from_data(jsonio.parse(text, self.fail, max_size=MAX_SIZE, max_depth=MAX_DEPTH))
