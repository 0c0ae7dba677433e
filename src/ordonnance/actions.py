"""The actions a player can take: :class:`Play`, :class:`Claim` and :class:`Pass`, and their JSON.

Actions are immutable values that compare by value, so an action built by hand
equals the matching element of :meth:`Game.legal_actions`; cards and
territories may be given as text:

>>> from ordonnance import Card, Territory
>>> Play(Card.parse("SH"), Territory.CYPRUS) == Play(Card.parse("hs"), Territory(1)) == Play("SH", "cyprus")
True
>>> Play(Card.parse("SH"), Territory.CYPRUS)
Play(Card.parse('SH'), Territory.CYPRUS)

Each action has a JSON form (:func:`action_to_json`, :func:`action_from_json`;
the format and its JSON Schema :data:`ACTION_SCHEMA` are in :doc:`/formats`):

>>> action_to_json(Play("SH", "cyprus"))
'{"type":"play","card":"SH","territory":"cyprus"}'
>>> action_from_json('{"type": "claim", "territory": "tripoli"}')
Claim(Territory.TRIPOLI)
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Union

import attrs
import numpy as np

from ordonnance.cards import MAX_MASK, Card, CardLike, to_mask
from ordonnance.core import jsonio
from ordonnance.core.actioncodec import SCHEMA_DIALECT, kind_schema
from ordonnance.errors import InvalidArgumentError, InvalidTerritoryError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.territory import Territory
from ordonnance.core.checks import shown

__all__ = [
    "Play", "Claim", "Pass", "Action", "to_territory", "action_to_json", "action_from_json", "action_to_data",
    "action_from_data", "ACTION_SCHEMA",
]  # fmt: skip


def _to_card(card: CardLike) -> Card:
    return card if type(card) is Card else Card.from_mask(to_mask(card))


def to_territory(territory: Territory | int) -> Territory:
    """A :class:`Territory` from itself or its number 0..4 (an int or a NumPy integer).

    Other enumerations (a :class:`~ordonnance.Symbol`, say) are not territories,
    although they are ints.
    """
    if type(territory) is Territory:
        return territory
    if (
        isinstance(territory, (bool, enum.Enum, np.bool_))
        or not isinstance(territory, (int, np.integer))
    ):
        raise OrdonnanceTypeError(
            f"a territory is a Territory or an int 0..4, not {type(territory).__name__}: "
            f"{shown(territory)}"
        )
    if not 0 <= territory < len(Territory):
        raise InvalidTerritoryError(f"a territory number must be in 0..4, got {shown(territory)}")
    return Territory(int(territory))


def _territory_or_name(territory: Territory | int | str) -> Territory:
    """:func:`to_territory`, and :meth:`Territory.parse` for a name."""
    if type(territory) is Territory:
        return territory
    return Territory.parse(territory) if isinstance(territory, str) else to_territory(territory)


@attrs.frozen(repr=False)
class Play:
    """Play ``card`` from hand face up into ``territory``; this ends the turn."""

    card: Card = attrs.field(converter=_to_card)
    """The card to play (it must be in the player's hand); also given as a mask or text (``"SH"``)."""
    territory: Territory = attrs.field(converter=_territory_or_name)
    """Where to play it (a territory open to the player); also given as 0..4 or a name (:meth:`Territory.parse`)."""

    def __repr__(self) -> str:
        return f"Play({self.card!r}, {self.territory!r})"

    def __str__(self) -> str:
        return f"play {self.card} to {self.territory.label}"


@attrs.frozen(repr=False)
class Claim:
    """Claim ``territory`` early, proving no opponent can still beat the army there."""

    territory: Territory = attrs.field(converter=_territory_or_name)
    """The territory claimed; also given as 0..4 or a name (:meth:`Territory.parse`)."""

    def __repr__(self) -> str:
        return f"Claim({self.territory!r})"

    def __str__(self) -> str:
        return f"claim {self.territory.label}"


@attrs.frozen(repr=False)
class Pass:
    """End the turn without playing (only when no play is possible)."""

    def __repr__(self) -> str:
        return "Pass()"

    def __str__(self) -> str:
        return "pass"


#: Any action.
Action = Union[Play, Claim, Pass]

# Shared instances, so that legal_actions() allocates nothing per call.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(Card.from_mask(mask), t) for t in Territory) if mask else ()
    for mask in range(MAX_MASK + 1)
)
CLAIMS: tuple[Claim, ...] = tuple(Claim(t) for t in Territory)
PASS = Pass()


# --------------------------------------------------------------------- JSON

_CARD_TEXTS = [str(Card.from_mask(m)) for m in sorted(range(1, MAX_MASK + 1), key=lambda m: (bin(m).count("1"), m))]
_TEXT = ["", *(str(Card.from_mask(m)) for m in range(1, MAX_MASK + 1))]  # by mask: str(card) is slow
_NAMES = [t.name.lower() for t in Territory]
_BY_NAME = {name: Territory(t) for t, name in enumerate(_NAMES)}
_FIELDS = {"play": ("type", "card", "territory"), "claim": ("type", "territory"), "pass": ("type",)}

_FIELD_SCHEMAS = {"card": {"$ref": "#/$defs/card"}, "territory": {"$ref": "#/$defs/territory"}}
#: The JSON Schema (draft 2020-12) of an action's JSON (:func:`action_to_json`).
ACTION_SCHEMA: dict[str, Any] = {
    "$schema": SCHEMA_DIALECT,
    "title": "An Ordonnance action",
    "oneOf": [kind_schema(kind, fields[1:], _FIELD_SCHEMAS) for kind, fields in _FIELDS.items()],
    "$defs": {
        "card": {"enum": _CARD_TEXTS, "description": "a card: its symbols' letters in rank order L B S H F"},
        "territory": {"enum": _NAMES},
    },
}


def action_to_data(action: Action) -> dict[str, str]:
    """``action`` as JSON data (a dict): ``{"type": "play", "card": "SH", "territory": "cyprus"}``,
    ``{"type": "claim", "territory": "cyprus"}`` or ``{"type": "pass"}``."""
    kind = type(action)
    if kind is Play:
        assert isinstance(action, Play)
        return {"type": "play", "card": _TEXT[action.card.mask], "territory": _NAMES[action.territory]}
    if kind is Claim:
        assert isinstance(action, Claim)
        return {"type": "claim", "territory": _NAMES[action.territory]}
    if kind is Pass:
        return {"type": "pass"}
    raise OrdonnanceTypeError(f"an action is a Play, Claim or Pass, not {type(action).__name__}: {shown(action)}")


def action_to_json(action: Action) -> str:
    """``action`` as compact JSON text (see :func:`action_to_data`); :func:`action_from_json` reads it back."""
    return jsonio.dumps(action_to_data(action))


def _invalid_action(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"invalid action JSON: {message}")


def action_from_data(data: Any, fail: Callable[[str], Exception] = _invalid_action) -> Action:
    """The action of JSON data written by :func:`action_to_data`.

    Anything else raises ``fail(reason)`` (by default
    :class:`~ordonnance.errors.InvalidArgumentError`), the reason showing the
    bad value: not an object, an unknown ``type``, a missing or unknown key, a
    card that is not card text (letters ``L B S H F``, any order or case), a
    territory that is not one of the five lower-case names.
    """
    if not isinstance(data, dict):
        raise fail(f"an action is an object, got {shown(data):.80}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise fail(f"type must be one of 'play', 'claim', 'pass', got {shown(kind):.80}")
    fields = _FIELDS[kind]
    if set(data) != set(fields):
        missing, extra = sorted(set(fields) - set(data)), sorted(set(data) - set(fields))
        raise fail(f"a {kind} has the keys {list(fields)}: missing {missing}, unknown {shown(extra):.80}")
    if kind == "pass":
        return PASS
    territory = data["territory"]
    if not isinstance(territory, str) or territory not in _BY_NAME:
        raise fail(f"territory must be one of {', '.join(_NAMES)}, got {shown(territory):.80}")
    if kind == "claim":
        return CLAIMS[_BY_NAME[territory]]
    card = data["card"]
    if not isinstance(card, str):
        raise fail(f"card must be card text such as 'SH', got {shown(card):.80}")
    try:
        mask = Card.parse(card).mask
    except OrdonnanceError as error:
        raise fail(f"card: {error}") from None
    return PLAYS[mask][_BY_NAME[territory]]


def action_from_json(text: str | bytes) -> Action:
    """The action of :func:`action_to_json` output.

    Untrusted text is refused with :class:`~ordonnance.errors.InvalidArgumentError`
    showing the reason and the value: not JSON, too long or nested (parsed with
    :func:`ordonnance.core.jsonio.parse`), repeated keys, or data
    :func:`action_from_data` refuses; anything but str or bytes is an
    :class:`~ordonnance.errors.OrdonnanceTypeError`.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise OrdonnanceTypeError(f"action JSON is str or bytes, not {type(text).__name__}: {shown(text):.80}")
    return action_from_data(jsonio.parse(text, _invalid_action, max_size=10_000, max_depth=4))
