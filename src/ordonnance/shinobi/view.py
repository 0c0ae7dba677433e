"""What one player may see of a game: the public table, counts of hidden things,
their own clan and hand (RULES-shinobi.md: everything on the table and in the
discard pile is public; hands, the deck order and other clan cards are hidden)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from ordonnance.shinobi.actions import Action
from ordonnance.shinobi.cards import CLANS, Card
from ordonnance.shinobi.rules import Rules

if TYPE_CHECKING:
    from ordonnance.shinobi.game import Game

__all__ = ["PlayerView"]


@attrs.frozen
class PlayerView:
    """A snapshot of a game as seen from one seat: what a bot or a UI may use.

    It holds no deck order, no other hand and no other clan card until the game
    is over: two games that differ only in hidden information give equal views.
    """

    seat: int
    """The seat this view belongs to."""
    rules: Rules
    """The game's rules."""
    clan: int
    """This seat's own clan."""
    hand: tuple[Card, ...]
    """This seat's own hand, in the order drawn."""
    current_player: int
    """The seat to act."""
    order: int
    """The current player's next order (1..3)."""
    is_over: bool
    """Whether the game has ended."""
    turns: int
    """Turns finished."""
    extra_turns_left: int | None
    """In the final round, the turns still to be taken; else None."""
    provinces: tuple[tuple[int, ...], ...]
    """``provinces[seat][clan]``: the size of that army."""
    changed: tuple[tuple[bool, ...], ...]
    """``changed[seat][clan]``: whether that army gained or lost a card this turn."""
    discard: tuple[int, ...]
    """The discard pile: cards of each clan, then ninjas."""
    deck_size: int
    """Cards left in the troop deck."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    clans: tuple[int | None, ...]
    """Each seat's clan: only this seat's own until the game is over, then all."""
    neutral_clans: tuple[int, ...] | None
    """The neutral clans once the game is over (all clan cards are revealed), else None."""
    winners: tuple[int, ...]
    """The winning seats once over, else empty."""
    legal_actions: tuple[Action, ...]
    """This seat's legal actions now (empty when it is not this seat's turn)."""

    @classmethod
    def of(cls, game: Game, seat: int) -> PlayerView:
        """The view of ``game`` from ``seat`` (see :meth:`Game.view`)."""
        seats = range(game.players)
        over = game.is_over
        return cls(
            seat=seat,
            rules=game.rules,
            clan=game.clan(seat),
            hand=game.hand(seat),
            current_player=game.current_player,
            order=game.order,
            is_over=over,
            turns=game.turns,
            extra_turns_left=game.extra_turns_left,
            provinces=tuple(game.province(q) for q in seats),
            changed=tuple(tuple(game.changed(q, clan) for clan in range(CLANS)) for q in seats),
            discard=game.discard,
            deck_size=game.deck_size,
            hand_sizes=tuple(len(game.hand(q)) for q in seats),
            clans=tuple(game.clan(q) if over or q == seat else None for q in seats),
            neutral_clans=game.neutral_clans if over else None,
            winners=game.winners,
            legal_actions=tuple(game.legal_actions()) if game.current_player == seat and not over else (),
        )

    @property
    def players(self) -> int:
        """The number of players."""
        return self.rules.players

    @property
    def winner(self) -> int | None:
        """The single winning seat once over, else None."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def totals(self) -> tuple[int, ...]:
        """Cards of each clan over all provinces."""
        return tuple(sum(row[clan] for row in self.provinces) for clan in range(CLANS))

    def unseen(self) -> tuple[int, ...]:
        """Troop cards this seat cannot see (deck and other hands), by code: the troop
        deck less the table, the discard pile and this seat's hand."""
        counts = list(self.rules.samurai) + [self.rules.ninjas]
        for clan in range(CLANS):
            counts[clan] -= self.totals[clan]
        for code, discarded in enumerate(self.discard):
            counts[code] -= discarded
        for card in self.hand:
            counts[card.code] -= 1
        return tuple(counts)

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, as SVG for Jupyter."""
        from ordonnance.shinobi.render import svg

        return svg(self)
