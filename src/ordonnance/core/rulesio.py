"""Rules as JSON data, alike in every game: the base :class:`DictRules` of each game's
attrs ``Rules`` (its :meth:`~DictRules.from_dict`) and :func:`rules_from_json`, which
reads the rules a save or a view holds.

A game's ``Rules`` writes its own ``to_dict`` (what JSON holds of each field) and, when
a field is not JSON as it stands, ``_from_fields`` to turn it back.

>>> from ordonnance import shinobi
>>> shinobi.Rules.from_dict({"players": 3, "ninjas": 2}) == shinobi.Rules(players=3, ninjas=2)
True
>>> shinobi.Rules.from_dict({"players": 3, "colour": "red"})
Traceback (most recent call last):
    ...
ordonnance.errors.InvalidRulesError: unknown rules field(s): 'colour' in {'players': 3, 'colour': 'red'}
>>> from ordonnance.core.rulesio import rules_from_json
>>> rules_from_json(shinobi.Rules, {"players": 9, "samurai": [8] * 5, "ninjas": 3, "attack": "optional"}, ValueError)
Traceback (most recent call last):
    ...
ValueError: rules: players must be 3..5, got 9 in {'players': 9, 'samurai': [8, 8, 8, 8, 8], 'ninjas': 3, 'attack': 'optional'}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self, TypeVar, cast

import attrs

from ordonnance.errors import InvalidRulesError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = ["DictRules", "rules_from_json"]

R = TypeVar("R", bound="DictRules")


class DictRules:
    """The base of a game's attrs ``Rules``: rules rebuilt from the plain data of their ``to_dict``."""

    __slots__ = ()

    @classmethod
    def _field_names(cls) -> tuple[str, ...]:
        """The rules' fields, in order: the keys of ``to_dict``."""
        return tuple(field.name for field in attrs.fields(cast(Any, cls)))

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Rebuild rules from :meth:`to_dict` output; bad data raises ValueError/TypeError."""
        if not isinstance(data, dict):
            raise OrdonnanceTypeError(f"rules must be a JSON object, got {shown(data)}")
        unknown = set(data) - set(cls._field_names())
        if unknown:
            raise InvalidRulesError(f"unknown rules field(s): {', '.join(sorted(map(repr, unknown)))} in {shown(data):.80}")
        return cls._from_fields(dict(data))

    @classmethod
    def _from_fields(cls, fields: dict[str, Any]) -> Self:
        """The rules of ``fields`` (known field names, values as JSON holds them): by default as they are."""
        return cast(Self, cast(Any, cls)(**fields))


def rules_from_json(kind: type[R], data: Any, fail: Callable[[str], Exception]) -> R:
    """The rules of a save or a view: ``kind.from_dict`` of an object listing every field,
    as ``to_dict`` writes them; anything else raises ``fail(message)`` saying why."""
    fields = set(kind._field_names())
    if isinstance(data, dict) and not fields <= set(data):
        missing, extra = sorted(fields - set(data)), sorted(set(data) - fields)
        raise fail(f"rules: missing fields {missing} (every field is listed){f', unknown {extra}' if extra else ''}")
    try:
        return kind.from_dict(data)
    except (OrdonnanceError, TypeError, ValueError) as error:
        raise fail(f"rules: {error} in {shown(data):.120}") from None
