"""Plain-text pictures of a game, for terminals and logs.

>>> import ordonnance as od
>>> from ordonnance.text import board
>>> game = od.Game.new(od.Rules(players=4), seed=3)
>>> for _ in range(12):
...     game.apply(game.legal_actions()[0])
>>> print(board(game.view(2)))
          player 0   player 1    player 2 (you)  player 3  won by
Antioch   LBSH L SF  LF LBF LBH  LS LS F         BF LH BH
Cyprus    -          -           -               -
Jerusalem -          -           -               -
Edessa    -          -           -               -
Tripoli   -          -           -               -
deck: 79 cards; scores: 0, 0, 0, 0
player 0 to act
your hand: L  SF  L  H  SF
>>> max(len(line) for line in board(game, width=None).splitlines())  # 22 columns an army
104
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import attrs

from ordonnance.army import describe
from ordonnance.core.terminal import WIDTH, check_width, fit
from ordonnance.errors import OrdonnanceTypeError
from ordonnance.territory import Territory
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from ordonnance.cards import Card
    from ordonnance.game import Game
    from ordonnance.view import PlayerView

__all__ = ["board", "details", "army_line"]

_CELL = 22
_LABEL = 10


@attrs.frozen
class _Table:
    """What a picture may show of a Game or of one seat's PlayerView."""

    players: int
    armies: tuple[tuple[tuple[Card, ...], ...], ...]
    completed_at: tuple[tuple[int | None, ...], ...]
    owners: tuple[int | None, ...]
    markers: tuple[int | None, ...]
    deck_size: int
    scores: tuple[int, ...]
    is_over: bool
    winner: int | None
    current_player: int | None
    seat: int | None
    hand: tuple[Card, ...]

    @classmethod
    def of(cls, table: object) -> _Table:
        from ordonnance.game import Game
        from ordonnance.view import PlayerView

        if isinstance(table, PlayerView):
            return cls(table.rules.players, table.armies, table.completed_at, table.owners, table.markers,
                       table.deck_size, table.scores, table.is_over, table.winner, table.current_player,
                       table.seat, table.hand)  # fmt: skip
        if isinstance(table, Game):
            ts, ps = list(Territory), range(table.players)
            return cls(
                table.players,
                tuple(tuple(table.army(t, p) for p in ps) for t in ts),
                tuple(tuple(table.completed_at(t, p) for p in ps) for t in ts),
                tuple(table.territory_owner(t) for t in ts),
                tuple(table.marker(t) for t in ts),
                table.deck_size, table.scores, table.is_over, table.winner, table.current_player, None, (),
            )  # fmt: skip
        raise OrdonnanceTypeError(f"board() draws a Game or a PlayerView, not {type(table).__name__}: {shown(table)}")

    def first(self, t: int) -> int | None:
        """The play number of the first army completed in territory ``t``."""
        return min((d for d in self.completed_at[t] if d is not None), default=None)

    def name(self, p: int) -> str:
        return f"player {p}" + (" (you)" if p == self.seat else "")


def _cells(table: _Table) -> list[list[str]]:
    """Each territory's armies as text, a ``*`` on an army completed first there."""
    rows = []
    for t in Territory:
        first = table.first(t)
        rows.append([
            (" ".join(map(str, table.armies[t][p])) or "-") + ("*" if first is not None and table.completed_at[t][p] == first else "")
            for p in range(table.players)
        ])  # fmt: skip
    return rows


def _won(table: _Table, t: int) -> str:
    owner = table.owners[t]
    return "" if owner is None else f"player {owner} (marker {table.markers[t]})"


def _grid(table: _Table, widths: list[int], rows: int = 1) -> list[str]:
    """One line per territory, each seat's army in a column of ``widths[p]`` characters;
    with ``rows=2``, two lines per territory, the second half of the seats under the first."""
    per_row = -(-table.players // rows)
    seats = [list(range(r * per_row, min((r + 1) * per_row, table.players))) for r in range(rows)]
    columns = [max(widths[p] for p in range(column, table.players, per_row)) for column in range(per_row)]

    def line(label: str, texts: list[str], won: str) -> str:
        return (f"{label:<{_LABEL}}" + "".join(f"{x:<{w}}" for x, w in zip(texts, columns)) + won).rstrip()

    lines = [line("", [table.name(p) for p in seats[r]], "won by" if r == 0 else "") for r in range(rows)]
    for t, cells in zip(Territory, _cells(table)):
        lines += [line(t.label if r == 0 else "", [cells[p] for p in seats[r]], _won(table, t) if r == 0 else "")
                  for r in range(rows)]  # fmt: skip
    return lines


def _stacked(table: _Table, width: int) -> list[str]:
    """Two lines a territory: its name and owner, then every seat's army."""
    lines = []
    for t, cells in zip(Territory, _cells(table)):
        won = _won(table, t)
        lines.append(f"{t.label}: " + (f"won by {won}" if won else "open"))
        lines.append(fit("  " + "  ".join(f"{table.name(p)}: {c}" for p, c in enumerate(cells)), width, 4))
    return lines


def board(game: Game | PlayerView, *, width: int | None = WIDTH) -> str:
    """The table: each territory's armies, who won it, the deck, the scores and who is to act.

    A ``*`` marks an army completed first among the complete ones there. Of a
    :class:`~ordonnance.PlayerView` the picture shows that seat's own hand too,
    and nothing that seat cannot see. Lines fit ``width`` columns (None: no
    limit, each army in a column of 22 characters): with three or four players
    the columns narrow to their armies, and when even that is too wide each
    territory takes two lines, the last seats under the first.
    """
    table = _Table.of(game)
    width = check_width(width)
    lines = _grid(table, [_CELL] * table.players)
    if width is not None and max(map(len, lines)) > width:
        cells = _cells(table)
        narrow = [max(len(table.name(p)), *(len(row[p]) for row in cells)) + 2 for p in range(table.players)]
        for rows in (1, 2):
            lines = _grid(table, narrow, rows)
            if max(map(len, lines)) <= width:
                break
        else:
            lines = _stacked(table, width)
    lines.append(f"deck: {table.deck_size} cards; scores: {', '.join(map(str, table.scores))}")
    if table.is_over:
        lines.append("game over: " + ("a draw" if table.winner is None else f"player {table.winner} wins"))
    else:
        lines.append(f"player {table.current_player} to act")
    if table.seat is not None:
        lines.append(fit(f"your hand: {'  '.join(map(str, table.hand)) or '-'}", width))
    return "\n".join(lines)


def details(game: Game | PlayerView, *, width: int | None = WIDTH) -> str:
    """Every army with its size and formations (``3/4``, ``complete (first)``, ``1 company (Bow)``),
    a territory at a time, then the deck, the scores and, of a view, the hand; lines fit ``width``."""
    from ordonnance.army import army_key

    table = _Table.of(game)
    width = check_width(width)
    rows: list[tuple[str, list[tuple[str, str, str, str]]]] = []
    for t, cells in zip(Territory, _cells(table)):
        won = _won(table, t)
        armies = []
        for p, cell in enumerate(cells):
            cards = table.armies[t][p]
            first = cell.endswith("*") and table.players > 1
            size = ("complete (first)" if first else "complete") if len(cards) == 4 else f"{len(cards)}/4"
            armies.append((table.name(p), " ".join(map(str, cards)) or "-", size, str(describe(army_key(cards))) if cards else ""))
        rows.append((f"{t.label}: " + (f"won by {won}" if won else "open"), armies))
    widths = [max(len(army[i]) for _, armies in rows for army in armies) for i in range(3)]
    indent = 2 + sum(widths) + 6  # where the formations start
    lines = []
    for heading, armies in rows:
        lines.append(heading)
        for army in armies:
            head = "  " + "  ".join(f"{x:<{w}}" for x, w in zip(army, widths)) + "  "
            room = None if width is None else width - indent
            if room is None or room < 20 or not army[3]:
                lines.append(fit((head + army[3]).rstrip(), width, indent))
            else:  # the formations wrap in their own column
                parts = textwrap.wrap(army[3], room, break_on_hyphens=False) or [""]
                lines += [head + parts[0]] + [" " * indent + part for part in parts[1:]]
    lines.append(f"deck: {table.deck_size} cards; scores: {', '.join(map(str, table.scores))}")
    if table.seat is not None:
        lines.append(fit(f"your hand: {'  '.join(map(str, table.hand)) or '-'}", width))
    return "\n".join(lines)


def army_line(game: Game, territory: Territory, player: int) -> str:
    """One army and its formations, e.g. ``"SH SH LS S: 1 regiment (Sword)"``."""
    cards = " ".join(str(c) for c in game.army(territory, player))
    return f"{cards}: {describe(game.army_key(territory, player))}"
