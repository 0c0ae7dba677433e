"""The battlefield: 4 rows by 6 columns, two rows per player.

Rows are numbered top to bottom as the text board draws them: row 0 is seat
1's back row, row 1 its front row, row 2 seat 0's front row and row 3 seat
0's back row. A square is a ``(row, column)`` pair.

>>> from ordonnance.black_prince.board import front_row, back_row, owner
>>> front_row(0), back_row(0), front_row(1), back_row(1), owner(1)
(2, 3, 1, 0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, cast

import attrs
import numpy as np

from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.rules import COLUMNS, Rules
from ordonnance.black_prince.errors import InvalidSquareError
from ordonnance.core.checks import bounded, integer, shown
from ordonnance.errors import InvalidArgumentError, InvalidSeatError, OrdonnanceTypeError

__all__ = ["ROWS", "Square", "Position", "Battlefield", "front_row", "back_row", "owner", "check_square", "square_index"]

#: Rows of the battlefield.
ROWS = 4
#: A square of the battlefield: (row, column).
Square = tuple[int, int]


def front_row(seat: int) -> int:
    """The row of ``seat``'s front line (2 for seat 0, 1 for seat 1)."""
    if type(seat) is not int or not 0 <= seat <= 1:
        seat = _seat(seat)
    return 2 - seat


def back_row(seat: int) -> int:
    """The row behind ``seat``'s front line (3 for seat 0, 0 for seat 1)."""
    if type(seat) is not int or not 0 <= seat <= 1:
        seat = _seat(seat)
    return 3 - 3 * seat


def owner(row: int) -> int:
    """The seat whose units stand in ``row``."""
    if type(row) is not int or not 0 <= row < ROWS:
        row = integer(row, "a row", low=0, high=ROWS - 1, error=InvalidSquareError)
    return 0 if row >= 2 else 1


def _seat(seat: object) -> int:
    return integer(seat, "a seat", low=0, high=1, error=InvalidSeatError)


def check_square(square: object, what: str = "square") -> Square:
    """``square`` as a (row, column) pair of ints on the board, or an error."""
    if not isinstance(square, tuple) or len(square) != 2:
        raise OrdonnanceTypeError(f"a {what} is a (row, column) pair, got {shown(square)}")
    row, column = square
    for value in (row, column):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise OrdonnanceTypeError(f"a {what} is a (row, column) pair of ints, got ({shown(row)}, {shown(column)})")
    if not (0 <= row < ROWS and 0 <= column < COLUMNS):
        raise InvalidSquareError(f"a {what} must be within rows 0..3 and columns 0..5, got ({shown(row)}, {shown(column)})")
    return (int(row), int(column))


def square_index(row: object, column: object) -> Square:
    """(row, column) checked on the board; plain ints in range pass at once."""
    if type(row) is int and type(column) is int and 0 <= row < ROWS and 0 <= column < COLUMNS:
        return (row, column)
    return check_square((row, column))


def _check_rules(_instance: object, _attribute: object, rules: Rules) -> None:
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"a Battlefield's rules are a black_prince.Rules, got {shown(rules)}")


def _unit(card: object, square: Square) -> Card | None:
    """``card`` if it may stand on the battlefield: None or a troop card (never a Battle card)."""
    if card is not None and type(card) is not Card:
        raise OrdonnanceTypeError(f"square {square} holds a Card or None, got {shown(card)}")
    if card is not None and card.is_battle:
        raise InvalidArgumentError(f"a Battle card is never placed on the battlefield, got it in square {square}")
    return card


class _Checked(tuple):  # type: ignore[type-arg]
    """The cells of a checked battlefield with one checked card changed (:meth:`Battlefield.with_card`):
    not checked again, since the bots build many."""

    __slots__ = ()


def _to_cells(cells: object) -> tuple[tuple[Card | None, ...], ...]:
    """``cells`` as ROWS rows of COLUMNS cards or Nones, each checked."""
    if type(cells) is _Checked:
        return tuple(cells)
    if type(cells) is tuple and len(cells) == ROWS and all(
        type(row) is tuple and len(row) == COLUMNS and all(c is None or (type(c) is Card and c.type is not None) for c in row)
        for row in cells
    ):
        return cells  # a well-formed grid: the engine's path
    rows: list[object] = bounded(cast("Iterable[object]", cells), "a Battlefield's cells", ROWS)
    grid = []
    for r, row in enumerate(rows):
        listed = bounded(cast("Iterable[object]", row), f"a Battlefield's row {r}", COLUMNS)
        if len(listed) != COLUMNS:
            raise InvalidArgumentError(f"a Battlefield's row {r} has {COLUMNS} cells, got {len(listed)}")
        grid.append(tuple(_unit(card, (r, c)) for c, card in enumerate(listed)))
    if len(grid) != ROWS:
        raise InvalidArgumentError(f"a Battlefield has {ROWS} rows of cells, got {len(grid)}")
    return tuple(grid)


class Position(Protocol):
    """Anything that shows the battlefield: a Game, a PlayerView or a Battlefield."""

    @property
    def rules(self) -> Rules:
        """The rules (for the advantage table)."""
        ...

    def cell(self, row: int, column: int) -> Card | None:
        """The card in a square, or None."""
        ...


@attrs.frozen
class Battlefield:
    """An immutable picture of the battlefield, for bots, views and "what if" fights.

    >>> from ordonnance.black_prince import Battlefield, Card, Rules, fight
    >>> field = Battlefield.empty(Rules()).with_card((2, 0), Card("Knights", 3))
    >>> field = field.with_card((1, 0), Card("Archers", 2))
    >>> fight((2, 0), (1, 0), field).attacker.total
    4
    """

    rules: Rules = attrs.field(validator=_check_rules)
    """The rules (the advantage table is read from them)."""
    cells: tuple[tuple[Card | None, ...], ...] = attrs.field(converter=_to_cells)
    """``cells[row][column]``: the card there, or None (never a Battle card)."""

    @classmethod
    def empty(cls, rules: Rules) -> Battlefield:
        """A battlefield with no card on it."""
        return cls(rules, ((None,) * COLUMNS,) * ROWS)

    def cell(self, row: int, column: int) -> Card | None:
        """The card in square (row, column), or None."""
        row, column = square_index(row, column)
        return self.cells[row][column]

    def with_card(self, square: Square, card: Card | None) -> Battlefield:
        """A copy with ``card`` (or nothing) in ``square``."""
        row, column = check_square(square)
        rows = [list(r) for r in self.cells]
        rows[row][column] = _unit(card, (row, column))
        return Battlefield(self.rules, _Checked(tuple(r) for r in rows))

    def front_count(self) -> int:
        """Cards in the front line (both front rows)."""
        return sum(card is not None for row in (1, 2) for card in self.cells[row])
