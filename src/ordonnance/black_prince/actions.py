"""The decisions of a game of Black Prince, one class per kind.

A turn's first step offers :class:`Place`, :class:`PlaceBehind` and
:class:`Move`; after the draw, a player holding a Battle card chooses
:class:`PlayBattle` or :class:`EndTurn`; in a battle the attacker chooses
:class:`MountedMove` (before the first fight), :class:`Fight` and
:class:`EndBattle`. Actions are immutable values that compare by value:

>>> from ordonnance.black_prince import Card, Place, Fight
>>> Place(Card("Knights", 3), 2) == Place(Card("Knights", 3), 2)
True
>>> str(Fight(2, 3))
'fight: column 2 attacks column 3'

Each action has a JSON form (:func:`action_to_json`; :data:`ACTION_SCHEMA` is its JSON
Schema), which :func:`action_from_json` reads back, refusing anything else:

>>> from ordonnance.black_prince import action_from_json, action_to_json
>>> action_to_json(Place(Card("Knights", 3), 2))
'{"type":"place","card":"Knights 3","column":2}'
>>> action_from_json('{"type": "fight", "column": 2, "target": 3}')
Fight(column=2, target=3)
>>> action_from_json('{"type": "fight", "column": 2, "target": 9}')
Traceback (most recent call last):
...
ordonnance.errors.InvalidArgumentError: invalid Black Prince action JSON: {'type': 'fight', 'column': 2, 'target': 9}: target must be a column 0..5, got 9
"""

from __future__ import annotations

from typing import Any, Union

import attrs

from ordonnance.black_prince.cards import CARD_SCHEMA, Card
from ordonnance.black_prince.errors import InvalidSquareError
from ordonnance.black_prince.rules import COLUMNS, card_data, card_from_data
from ordonnance.core.actioncodec import ActionCodec, FieldCodec, check_int, int_field
from ordonnance.core.checks import is_integer, shown
from ordonnance.errors import OrdonnanceTypeError

__all__ = [
    "Place",
    "PlaceBehind",
    "Move",
    "PlayBattle",
    "EndTurn",
    "MountedMove",
    "Fight",
    "EndBattle",
    "Action",
    "PLAY_BATTLE",
    "END_TURN",
    "END_BATTLE",
    "ACTION_SCHEMA",
    "action_to_data",
    "action_from_data",
    "action_to_json",
    "action_from_json",
]


def _plain(instance: object, attribute: attrs.Attribute[int], value: object) -> int:
    """``value`` as a plain int: a NumPy integer is stored as one (a validator rather than a
    converter does it, so that the engine's plain ints pay one type check only)."""
    if not is_integer(value):
        raise OrdonnanceTypeError(f"{attribute.name} must be an int, got {shown(value)}")
    object.__setattr__(instance, attribute.name, int(value))
    return int(value)


def _check_column(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int:
        value = _plain(instance, attribute, value)
    if not 0 <= value < COLUMNS:
        raise InvalidSquareError(f"{attribute.name} must be a column 0..5, got {shown(value)}")


def _check_step(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int:
        value = _plain(instance, attribute, value)
    if value not in (-1, 1):
        raise InvalidSquareError(f"a move's step is -1 (left) or 1 (right), got {shown(value)}")


def _check_card(_instance: object, _attribute: object, value: Card) -> None:
    if type(value) is not Card:
        raise OrdonnanceTypeError(f"card must be a Card, got {shown(value)}")


@attrs.frozen
class Place:
    """Place ``card`` from hand into one's front row, in ``column``."""

    card: Card = attrs.field(validator=_check_card)
    """A troop card from the player's hand."""
    column: int = attrs.field(validator=_check_column)
    """An empty front cell opposite an enemy unit or beside an own front unit."""

    def __str__(self) -> str:
        return f"place {self.card} in column {self.column}"


@attrs.frozen
class PlaceBehind:
    """Place a line-infantry ``card`` behind one's own front unit of its type in ``column``."""

    card: Card = attrs.field(validator=_check_card)
    """A line-infantry card from hand, of the type of the front unit."""
    column: int = attrs.field(validator=_check_column)
    """The column of that front unit; its back cell must be empty."""

    def __str__(self) -> str:
        return f"place {self.card} behind column {self.column}"


@attrs.frozen
class Move:
    """Move one's front unit in ``column`` (and the card behind it) one column by ``step``."""

    column: int = attrs.field(validator=_check_column)
    """The unit's column."""
    step: int = attrs.field(validator=_check_step)
    """-1 (left) or +1 (right)."""

    def __str__(self) -> str:
        return f"move column {self.column} {'left' if self.step < 0 else 'right'}"


@attrs.frozen
class PlayBattle:
    """Discard a Battle card from hand and attack (after the draw)."""

    def __str__(self) -> str:
        return "play a Battle card"


@attrs.frozen
class EndTurn:
    """End the turn without a battle (when holding a Battle card and no battle is forced)."""

    def __str__(self) -> str:
        return "end the turn"


@attrs.frozen
class MountedMove:
    """In a battle, before the first fight: move a mounted front unit one column by ``step``."""

    column: int = attrs.field(validator=_check_column)
    """The mounted unit's column (each unit moves at most once a battle)."""
    step: int = attrs.field(validator=_check_step)
    """-1 (left) or +1 (right), into an empty own front cell."""

    def __str__(self) -> str:
        return f"ride column {self.column} {'left' if self.step < 0 else 'right'}"


@attrs.frozen
class Fight:
    """In a battle: the attacker's front unit in ``column`` attacks the enemy front unit in ``target``."""

    column: int = attrs.field(validator=_check_column)
    """The attacking unit's column (a unit attacks at most once a battle)."""
    target: int = attrs.field(validator=_check_column)
    """The enemy unit's column: the same (frontal) or adjacent (diagonal)."""

    def __str__(self) -> str:
        return f"fight: column {self.column} attacks column {self.target}"


@attrs.frozen
class EndBattle:
    """End the battle (once no mandatory frontal fight remains); breakthroughs follow."""

    def __str__(self) -> str:
        return "end the battle"


#: Any decision.
Action = Union[Place, PlaceBehind, Move, PlayBattle, EndTurn, MountedMove, Fight, EndBattle]

PLAY_BATTLE = PlayBattle()
END_TURN = EndTurn()
END_BATTLE = EndBattle()


# ------------------------------------------------------------------ JSON

_COLUMN = int_field(0, COLUMNS - 1)
_CODEC: ActionCodec[Action] = ActionCodec(
    "Black Prince",
    "A Black Prince action (ordonnance.black_prince.action_to_json)",
    {"place": Place, "place_behind": PlaceBehind, "move": Move, "play_battle": PlayBattle,
     "end_turn": EndTurn, "mounted_move": MountedMove, "fight": Fight, "end_battle": EndBattle},
    {"card": FieldCodec({"$ref": "#/$defs/card"}, encode=card_data, decode=card_from_data),
     "column": _COLUMN, "target": _COLUMN, "step": FieldCodec({"enum": [-1, 1]}, check=check_int)},
    defs={"card": CARD_SCHEMA},
)  # fmt: skip

#: The JSON Schema of :func:`action_to_json`'s output: an object whose ``"type"`` names the
#: kind (``"place"``, ``"place_behind"``, ``"move"``, ``"play_battle"``, ``"end_turn"``,
#: ``"mounted_move"``, ``"fight"``, ``"end_battle"``) and whose other keys are its fields.
ACTION_SCHEMA: dict[str, object] = _CODEC.schema
#: What the schemas of views and saves hold under ``$defs``: a card and an action.
SCHEMA_DEFS: dict[str, object] = {"card": CARD_SCHEMA, "action": {"oneOf": ACTION_SCHEMA["oneOf"]}}


def action_to_data(action: Action) -> dict[str, Any]:
    """``action`` as JSON data: ``{"type": ..., field: value, ...}`` (see :func:`action_to_json`)."""
    return _CODEC.to_data(action)


def action_from_data(data: Any) -> Action:
    """The action of :func:`action_to_data` output; anything else raises
    :class:`~ordonnance.errors.InvalidArgumentError` showing the value."""
    return _CODEC.from_data(data)


def action_to_json(action: Action) -> str:
    """``action`` as compact JSON text: ``{"type":"place","card":"Knights 3","column":2}``,
    ``{"type":"fight","column":2,"target":3}``, ``{"type":"end_turn"}``, ... A card is
    written as in saves: its text, or ``[text, advantage labels]`` for a card with its
    own advantage set. :data:`ACTION_SCHEMA` is the JSON Schema."""
    return _CODEC.to_json(action)


def action_from_json(text: str | bytes) -> Action:
    """The action of :func:`action_to_json` output. Untrusted text is refused with
    :class:`~ordonnance.errors.InvalidArgumentError` showing the value: not JSON, longer
    than 10,000 characters or nested deeper than 4 levels, repeated keys, an unknown
    type, a missing or unknown field, a field of the wrong JSON type or out of range."""
    return _CODEC.from_json(text)
