"""Plain-text pictures of a game, for terminals and logs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ordonnance.army import describe
from ordonnance.errors import OrdonnanceTypeError
from ordonnance.territory import Territory

if TYPE_CHECKING:
    from ordonnance.game import Game

__all__ = ["board"]

_CELL = 22


def board(game: Game) -> str:
    """The table: each territory's armies, their strength and who won it.

    A ``*`` marks an army completed first among the complete ones there.
    """
    from ordonnance.game import Game

    if not isinstance(game, Game):
        raise OrdonnanceTypeError(f"board() draws a Game, not {type(game).__name__}: {game!r}")
    n = game.players
    header = f"{'':<10}" + "".join(f"{'player ' + str(p):<{_CELL}}" for p in range(n)) + "won by"
    lines = [header]
    for t in Territory:
        cells = []
        done = [game.completed_at(t, p) for p in range(n)]
        finished = [d for d in done if d is not None]
        first = min(finished) if finished else None
        for p in range(n):
            cards = " ".join(str(c) for c in game.army(t, p)) or "-"
            star = "*" if done[p] is not None and done[p] == first else ""
            cells.append(f"{cards + star:<{_CELL}}")
        owner = game.territory_owner(t)
        won = "" if owner is None else f"player {owner} (marker {game.marker(t)})"
        lines.append(f"{t.label:<10}" + "".join(cells) + won)
    lines.append(f"deck: {game.deck_size} cards; scores: {', '.join(map(str, game.scores))}")
    if game.is_over:
        winner = game.winner
        lines.append("game over: " + ("a draw" if winner is None else f"player {winner} wins"))
    else:
        lines.append(f"player {game.current_player} to act")
    return "\n".join(lines)


def army_line(game: Game, territory: Territory, player: int) -> str:
    """One army and its formations, e.g. ``"SH SH LS S: 1 regiment (Sword)"``."""
    cards = " ".join(str(c) for c in game.army(territory, player))
    return f"{cards}: {describe(game.army_key(territory, player))}"
