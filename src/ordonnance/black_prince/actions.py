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
"""

from __future__ import annotations

from typing import Union

import attrs

from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.rules import COLUMNS
from ordonnance.black_prince.errors import InvalidSquareError
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
]


def _check_column(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OrdonnanceTypeError(f"{attribute.name} must be an int column 0..5, got {value!r}")
    if not 0 <= value < COLUMNS:
        raise InvalidSquareError(f"{attribute.name} must be a column 0..5, got {value!r}")


def _check_step(_instance: object, _attribute: object, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OrdonnanceTypeError(f"a move's step is -1 or 1, got {value!r}")
    if value not in (-1, 1):
        raise InvalidSquareError(f"a move's step is -1 (left) or 1 (right), got {value!r}")


def _check_card(_instance: object, _attribute: object, value: Card) -> None:
    if type(value) is not Card:
        raise OrdonnanceTypeError(f"card must be a Card, got {value!r}")


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
