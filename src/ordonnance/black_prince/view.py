"""What one player may see of a game of Black Prince: the table and their own hand.

>>> from ordonnance.black_prince import Game, Rules
>>> game = Game.new(Rules(), seed=7)
>>> view = game.view(1)
>>> view.hand == game.hand(1), view.hand_sizes, view.deck_sizes
(True, (6, 6), (19, 19))
>>> len(view.unseen(0)), len(view.unseen(1))
(25, 19)
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import attrs

from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.board import Battlefield, back_row, front_row
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.rules import Rules

if TYPE_CHECKING:
    from ordonnance.black_prince.game import Game, Phase

__all__ = ["PlayerView"]


@attrs.frozen
class PlayerView:
    """A snapshot of a game as one seat sees it: what a bot or a UI may use.

    It holds no deck order and not the other hand: two games that differ only
    in hidden information give equal views.
    """

    seat: int
    """The seat this view belongs to."""
    rules: Rules
    """The game's rules."""
    current_player: int
    """The seat to decide."""
    phase: Phase
    """``"place"``, ``"choose"``, ``"battle"`` or ``"over"``."""
    turn: int
    """Turns begun so far."""
    winner: int | None
    """The winning seat once over, else None."""
    routed: tuple[int, int]
    """Enemy troops each seat has routed."""
    hand: tuple[Card, ...]
    """This seat's own hand, in the order drawn."""
    hand_sizes: tuple[int, int]
    """How many cards each seat holds."""
    deck_sizes: tuple[int, int]
    """How many cards are left in each deck."""
    battlefield: Battlefield
    """The cards on the table."""
    discards: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Each seat's discard pile (public), oldest first."""
    attacked: tuple[bool, ...]
    """In a battle, by the attacker's column: that unit has attacked."""
    moved: tuple[bool, ...]
    """In a battle: that mounted unit has moved."""
    contact: tuple[bool, ...]
    """In a battle: that unit has had an enemy unit frontally or diagonally opposite."""
    fought: bool
    """In a battle: a fight has been fought (mounted movement is over)."""
    legal_actions: tuple[Action, ...]
    """This seat's legal actions now (empty when it is not this seat's decision)."""

    @classmethod
    def of(cls, game: Game, seat: int) -> PlayerView:
        """The view of ``game`` from ``seat`` (see :meth:`Game.view`)."""
        attacked, moved, contact, fought = game.battle_state()
        return cls(
            seat=seat,
            rules=game.rules,
            current_player=game.current_player,
            phase=game.phase,
            turn=game.turn,
            winner=game.winner,
            routed=game.routed,
            hand=game.hand(seat),
            hand_sizes=(len(game.hand(0)), len(game.hand(1))),
            deck_sizes=(game.deck_size(0), game.deck_size(1)),
            battlefield=game.battlefield,
            discards=(game.discard(0), game.discard(1)),
            attacked=attacked,
            moved=moved,
            contact=contact,
            fought=fought,
            legal_actions=tuple(game.legal_actions()) if game.current_player == seat else (),
        )

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == "over"

    def cell(self, row: int, column: int) -> Card | None:
        """The card in square (row, column), or None."""
        return self.battlefield.cell(row, column)

    def front_count(self) -> int:
        """Cards in the front line."""
        return self.battlefield.front_count()

    def unseen(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat``'s deck this view cannot place, in canonical order.

        For the own seat: the deck (its order is hidden). For the other seat:
        its hand and deck together.
        """
        cards = Counter(self.rules.deck(seat))
        cards.subtract(self.discards[seat])
        for row in (front_row(seat), back_row(seat)):
            cards.subtract(c for c in self.battlefield.cells[row] if c is not None)
        if seat == self.seat:
            cards.subtract(self.hand)
        out = []
        for card in self.rules.deck(seat):
            if cards[card] > 0:
                cards[card] -= 1
                out.append(card)
        return tuple(out)

    def _repr_svg_(self) -> str:
        """The battlefield as this seat sees it, as SVG for Jupyter."""
        from ordonnance.black_prince.render import svg

        return svg(self)
