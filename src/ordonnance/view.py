"""What one player may see of a game: the public table and their own hand.

A view also deals the hidden cards again (:meth:`PlayerView.sample_game`): a
:class:`~ordonnance.Game` that looks exactly the same from the view's seat,
for search bots that sample what they cannot see (determinization, IS-MCTS).
It travels as JSON (:meth:`PlayerView.to_json`, :meth:`PlayerView.from_json`;
the format and its JSON Schema :data:`VIEW_SCHEMA` are in :doc:`/formats`).
"""

from __future__ import annotations

import enum
import secrets
from typing import TYPE_CHECKING

import attrs
import numpy as np

from ordonnance._sampling import Deal
from ordonnance.actions import Action, to_territory
from ordonnance.army import ARMY_SIZE
from ordonnance.cards import MAX_MASK, Card
from ordonnance.errors import InvalidSeatError, OrdonnanceTypeError
from ordonnance.core.seeds import check_seed as _check_seed
from ordonnance.rules import Rules
from ordonnance.serialization import VIEW_SCHEMA as VIEW_SCHEMA
from ordonnance.territory import Territory
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from ordonnance.game import Game

__all__ = ["PlayerView", "VIEW_SCHEMA"]


@attrs.frozen
class PlayerView:
    """A snapshot of a game as seen from one seat: what a bot or a UI may use.

    It holds no deck order and no other player's hand: two games that differ
    only in hidden information give equal views.
    """

    seat: int
    """The seat this view belongs to."""
    rules: Rules
    """The game's rules."""
    current_player: int
    """The seat to act."""
    is_over: bool
    """Whether the game has ended."""
    winner: int | None
    """The winning seat once over, else None."""
    scores: tuple[int, ...]
    """Scores so far, by seat."""
    plays: int
    """Cards played so far."""
    hand: tuple[Card, ...]
    """This seat's own hand, in the order drawn."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    deck_size: int
    """Cards left in the draw pile."""
    armies: tuple[tuple[tuple[Card, ...], ...], ...]
    """``armies[territory][seat]``: the cards face up, in play order."""
    completed_at: tuple[tuple[int | None, ...], ...]
    """``completed_at[territory][seat]``: the play number of the 4th card, or None."""
    owners: tuple[int | None, ...]
    """The seat that won each territory, or None."""
    markers: tuple[int | None, ...]
    """The victory marker on each territory, or None."""
    unseen: tuple[int, ...]
    """``unseen[mask]``: copies of that card this seat cannot see (deck and other hands)."""
    legal_actions: tuple[Action, ...]
    """This seat's legal actions now (empty when it is not this seat's turn)."""
    passed: tuple[int, ...] = ()
    """Seats that passed since the last play or claim, in increasing order.

    Passes are public. Such a seat is not asked again until someone plays or
    claims (see :meth:`Game.apply`)."""
    _deal: Deal | None = attrs.field(default=None, init=False, eq=False, repr=False)
    # Built by the first sample_game() and kept: the view is immutable.

    @classmethod
    def of(cls, game: Game, seat: int) -> PlayerView:
        """The view of ``game`` from ``seat`` (see :meth:`Game.view`)."""
        from ordonnance.game import Game

        if not isinstance(game, Game):
            raise OrdonnanceTypeError(f"a view is of a Game, not {type(game).__name__}: {shown(game)}")
        seat = game._seat(seat)
        territories = list(Territory)
        players = range(game.players)
        unseen = [0] * (MAX_MASK + 1)
        for card, count in game.unseen(seat).items():
            unseen[card.mask] = count
        return cls(
            **game._view_fields(seat),
            is_over=game.is_over,
            winner=game.winner,
            scores=game.scores,
            plays=game.plays,
            deck_size=game.deck_size,
            armies=tuple(tuple(game.army(t, p) for p in players) for t in territories),
            completed_at=tuple(tuple(game.completed_at(t, p) for p in players) for t in territories),
            owners=tuple(game.territory_owner(t) for t in territories),
            markers=tuple(game.marker(t) for t in territories),
            unseen=tuple(unseen),
            passed=tuple(p for p in players if game._passed >> p & 1),
        )

    def sample_game(self, seed: int | None = None) -> Game:
        """A game this view could be of, the hidden cards dealt uniformly at random.

        Everything the view shows is kept (the table, this seat's hand in its
        order, the size of every other hand and of the draw pile, whose turn,
        claims, markers, passes, the rules), so ``sample.view(self.seat) ==
        self``; the cards this seat cannot see (:attr:`unseen`) are dealt into
        the other hands and the pile uniformly at random among every deal that
        is a position the engine could have reached (under
        ``claim_proof="private"`` some deals are not: see
        :doc:`/tutorial`). The sample is a full :class:`~ordonnance.Game`
        (play it on, save it: it loads with :meth:`Game.from_json`) whose
        :attr:`~ordonnance.Game.seed` is None, since no shuffle seed gives
        that deal.

        ``seed`` (an int in 0..2**64-1) makes the deal reproducible; without
        one a random seed is drawn. Different seats of one seed deal
        independently. A view that no game can give (built or evolved by
        hand so that its cards do not add up) raises
        :class:`~ordonnance.errors.InvalidGameStateError`.

        >>> import ordonnance as od
        >>> game = od.Game.new(od.Rules(), seed=7)
        >>> view = game.view(0)
        >>> sample = view.sample_game(seed=1)
        >>> sample.view(0) == view, sample.hand(0) == game.hand(0)
        (True, True)
        >>> sample.hand(1) == game.hand(1)  # dealt again
        False
        """
        seed = secrets.randbits(64) if seed is None else _check_seed(seed)
        deal = self._deal
        if deal is None:
            deal = Deal(self)
            object.__setattr__(self, "_deal", deal)
        return deal.sample(seed)

    def to_json(self) -> str:
        """The view as JSON (format ``"ordonnance.view"``, version 1; :data:`VIEW_SCHEMA`):
        exactly what the seat may see, so two games that differ only in cards it
        cannot see give the same text. :meth:`from_json` reads it back.

        >>> import ordonnance as od
        >>> view = od.Game.new(od.Rules(), seed=7).view(1)
        >>> view.to_json()[:60]
        '{"format":"ordonnance.view","version":1,"rules":{"players":2'
        >>> od.PlayerView.from_json(view.to_json()) == view
        True
        """
        from ordonnance.serialization import view_to_json

        return view_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """The view of :meth:`to_json` output.

        Untrusted text is refused with
        :class:`~ordonnance.errors.InvalidGameStateError`, the reason showing
        the bad value: too long or nested too deeply (checked before parsing),
        not JSON, repeated keys, a missing or unknown key, a value of the wrong
        type or out of range, fields that do not fit the rules or cards that
        do not add up to the rules' cards, and a derived field (``scores``,
        ``winner``, ``legal_actions``) that is not what the position shown
        gives. A view that passes may still be one no game reaches
        (:meth:`sample_game` then refuses it).
        """
        from ordonnance.serialization import view_from_json

        return view_from_json(text)

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, as SVG for Jupyter."""
        from ordonnance.render import view_repr_svg

        return view_repr_svg(self)

    def army(self, territory: Territory | int, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat`` in ``territory``."""
        return self.armies[to_territory(territory)][self._seat(seat)]

    def is_open(self, territory: Territory | int) -> bool:
        """Whether this seat may still play into ``territory``."""
        t = to_territory(territory)
        return self.owners[t] is None and len(self.armies[t][self.seat]) < ARMY_SIZE

    def _seat(self, seat: object) -> int:
        if isinstance(seat, (bool, enum.Enum)) or not isinstance(seat, (int, np.integer)):
            raise OrdonnanceTypeError(f"a seat is a seat number, not {type(seat).__name__}: {shown(seat)}")
        if not 0 <= seat < self.rules.players:
            raise InvalidSeatError(f"seats are 0..{self.rules.players - 1}, got {shown(seat)}")
        return int(seat)
