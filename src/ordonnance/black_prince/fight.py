"""The fight calculator: each side's total and its parts, as the engine computes them.

>>> from ordonnance.black_prince import Battlefield, Card, Rules, fight
>>> field = Battlefield.empty(Rules())
>>> for square, card in [((2, 1), Card("Pikemen", 2)), ((3, 1), Card("Pikemen", 1)),
...                      ((2, 2), Card("Archers", 1)), ((1, 1), Card("Knights", 3))]:
...     field = field.with_card(square, card)
>>> result = fight((2, 1), (1, 1), field)
>>> print(result)
Pikemen 2 (2 strength +1 advantage +1 double line +1 archers = 5) beats Knights 3 (3 strength = 3): Knights 3 routed
>>> result.winner, [str(c) for c in result.losses]
('attacker', ['Knights 3'])
"""

from __future__ import annotations

from typing import Literal

import attrs

from ordonnance.black_prince.board import (
    ROWS,
    Battlefield,
    Position,
    Square,
    back_row,
    check_square,
    front_row,
    owner,
    square_index,
)
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.rules import COLUMNS, Rules
from ordonnance.black_prince.errors import InvalidSquareError
from ordonnance.core.checks import shown
from ordonnance.errors import OrdonnanceTypeError

__all__ = ["fight", "FightResult", "Side", "is_engaged"]


@attrs.frozen
class Side:
    """One side of a fight: its card and the parts of its total."""

    card: Card
    """The fighting unit."""
    strength: int
    """The card's strength."""
    advantage: int
    """+1 when the card fights the other unit's type better."""
    double_line: int
    """+1 for a line-infantry unit with a card of its type behind it."""
    archers: int
    """+1 for each own archer-family unit beside it that is not engaged (when it is engaged)."""
    flank: int
    """+1 for an attacker striking diagonally while not engaged."""

    @property
    def total(self) -> int:
        """The sum of the parts."""
        return self.strength + self.advantage + self.double_line + self.archers + self.flank

    def __str__(self) -> str:
        parts = [f"{self.strength} strength"]
        for name in ("advantage", "double_line", "archers", "flank"):
            value = getattr(self, name)
            if value:
                parts.append(f"+{value} {name.replace('_', ' ')}")
        return f"{self.card} ({' '.join(parts)} = {self.total})"


@attrs.frozen
class FightResult:
    """A fight worked out: both sides, who wins and which cards are routed."""

    attacker_square: Square
    """Where the attacking unit stands."""
    defender_square: Square
    """Where the attacked unit stands."""
    attacker: Side
    """The attacking side."""
    defender: Side
    """The defending side."""
    losses: tuple[Card, ...]
    """The cards destroyed: the beaten unit, and the card behind it for a double line."""

    @property
    def diagonal(self) -> bool:
        """Whether the attack is diagonal (else frontal)."""
        return self.attacker_square[1] != self.defender_square[1]

    @property
    def winner(self) -> Literal["attacker", "defender"] | None:
        """The side with the higher total, or None on equal totals (nothing happens)."""
        a, d = self.attacker.total, self.defender.total
        return "attacker" if a > d else "defender" if d > a else None

    def __str__(self) -> str:
        verb = {"attacker": "beats", "defender": "loses to", None: "ties with"}[self.winner]
        routed = f": {', '.join(map(str, self.losses))} routed" if self.losses else ": nothing happens"
        return f"{self.attacker} {verb} {self.defender}{routed}"


def is_engaged(position: Position, seat: int, column: int) -> bool:
    """Whether ``seat``'s front unit in ``column`` has an enemy unit frontally opposite."""
    if type(position) is not Battlefield:
        position = _field(position)
    return _engaged(position, *square_index(front_row(seat), column))


def _engaged(field: Battlefield, row: int, column: int) -> bool:
    """:func:`is_engaged` of the unit of front row ``row`` (1 or 2), arguments unchecked (the calculator's own calls)."""
    return field.cells[row][column] is not None and field.cells[3 - row][column] is not None


def _field(position: object) -> Battlefield:
    """The battlefield of ``position`` (a Battlefield, a Game, a view or any :class:`Position`), checked."""
    if type(position) is Battlefield:
        return position
    field = getattr(position, "battlefield", None)
    if type(field) is Battlefield:
        return field
    cell, rules = getattr(position, "cell", None), getattr(position, "rules", None)
    if not callable(cell) or not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"a fight's position is a Game, a PlayerView or a Battlefield, got {shown(position)}")
    return Battlefield(rules, tuple(tuple(cell(r, c) for c in range(COLUMNS)) for r in range(ROWS)))


def _side(position: Battlefield, seat: int, column: int, other: Card, *, flank: bool) -> Side:
    front, cells = 2 - seat, position.cells  # front_row(seat) and the grid: the seat and column are checked
    card = cells[front][column]
    assert card is not None and card.type is not None and other.type is not None
    behind = cells[3 - 3 * seat][column]  # back_row(seat)
    engaged = _engaged(position, front, column)
    archers = 0
    if engaged:
        for side in (column - 1, column + 1):
            if 0 <= side < COLUMNS:
                friend = cells[front][side]
                if friend is not None and friend.type is not None and friend.type.is_archer:
                    archers += not _engaged(position, front, side)
    return Side(
        card=card,
        strength=card.strength,
        advantage=int(other.type in position.rules.card_advantages(card)),
        double_line=int(card.type.is_line and behind is not None and behind.type is card.type),
        archers=archers,
        flank=int(flank and not engaged),
    )


def fight(attacker: Square, defender: Square, position: Position) -> FightResult:
    """Work out the fight of the unit in square ``attacker`` against the one in ``defender``.

    Both squares are (row, column) pairs in the two front rows, in the same or
    adjacent columns, each holding a troop card. ``position`` is a
    :class:`~ordonnance.black_prince.Game`, a view or a
    :class:`~ordonnance.black_prince.Battlefield`. Nothing is changed: this is
    the calculation the engine applies for a :class:`Fight`.
    """
    attacker = check_square(attacker, "attacker square")
    defender = check_square(defender, "defender square")
    field = _field(position)
    seat = owner(attacker[0])
    if attacker[0] != front_row(seat) or defender[0] != front_row(1 - seat):
        raise InvalidSquareError(
            f"a fight is between the two front rows (1 and 2), got {attacker} against {defender}"
        )
    if abs(attacker[1] - defender[1]) > 1:
        raise InvalidSquareError(f"a unit fights frontally or diagonally, not {attacker} against {defender}")
    a_card = field.cells[attacker[0]][attacker[1]]
    d_card = field.cells[defender[0]][defender[1]]
    if a_card is None or d_card is None:
        raise InvalidSquareError(f"no unit to fight with in {attacker} or {defender}")
    diagonal = attacker[1] != defender[1]
    a_side = _side(field, seat, attacker[1], d_card, flank=diagonal)
    d_side = _side(field, 1 - seat, defender[1], a_card, flank=False)
    losses: tuple[Card, ...] = ()
    if a_side.total != d_side.total:
        loser, column, side = (1 - seat, defender[1], d_side) if a_side.total > d_side.total else (seat, attacker[1], a_side)
        losses = (side.card,)
        if side.double_line:
            behind = field.cells[back_row(loser)][column]
            assert behind is not None
            losses += (behind,)
    return FightResult(attacker, defender, a_side, d_side, losses)
