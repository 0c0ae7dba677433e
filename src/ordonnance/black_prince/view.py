"""What one player may see of a game of Black Prince: the table and their own hand.

>>> from ordonnance.black_prince import Game, Rules
>>> game = Game.new(Rules(), seed=7)
>>> view = game.view(1)
>>> view.hand == game.hand(1), view.hand_sizes, view.deck_sizes
(True, (6, 6), (19, 19))
>>> len(view.unseen(0)), len(view.unseen(1))
(25, 19)

A view has a JSON form (:meth:`PlayerView.to_json`; :data:`VIEW_SCHEMA` is its JSON
Schema) holding exactly what the seat sees, which :meth:`PlayerView.from_json` reads
back, and :meth:`PlayerView.sample_game` deals a game it could be of:

>>> from ordonnance.black_prince import PlayerView
>>> PlayerView.from_json(view.to_json()) == view
True
>>> view.sample_game(seed=5).view(1) == view
True
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs

from ordonnance.black_prince.actions import SCHEMA_DEFS, Action, action_from_data, action_to_data
from ordonnance.black_prince.board import ROWS, Battlefield, back_row, front_row
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.rules import COLUMNS, RULES_SCHEMA, Rules, card_data, card_from_data, rules_from_json
from ordonnance.core import jsonio
from ordonnance.core.rng import shuffle, splitmix64
from ordonnance.core.seeds import check_seed
from ordonnance.core.checks import shown
from ordonnance.errors import InvalidArgumentError, InvalidGameStateError, OrdonnanceError, OrdonnanceTypeError

if TYPE_CHECKING:
    from ordonnance.black_prince.game import Game, Phase

__all__ = ["PlayerView", "VIEW_FORMAT", "VIEW_VERSION", "VIEW_SCHEMA"]

#: The ``"format"`` of :meth:`PlayerView.to_json`.
VIEW_FORMAT = "ordonnance.black_prince.view"
#: The version :meth:`PlayerView.to_json` writes.
VIEW_VERSION = 1
_PHASES = ("place", "choose", "battle", "over")
#: Deals :meth:`PlayerView.sample_game` draws before it gives up on a view.
_SAMPLE_TRIES = 1000


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
        from ordonnance.black_prince.game import Game

        if not isinstance(game, Game):
            raise OrdonnanceTypeError(f"PlayerView.of takes a Black Prince Game, got {shown(game)}")
        attacked, moved, contact, fought = game.battle_state()
        return cls(
            **game._view_fields(seat),
            phase=game.phase,
            turn=game.turn,
            winner=game.winner,
            routed=game.routed,
            deck_sizes=(game.deck_size(0), game.deck_size(1)),
            battlefield=game.battlefield,
            discards=(game.discard(0), game.discard(1)),
            attacked=attacked,
            moved=moved,
            contact=contact,
            fought=fought,
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

    def sample_game(self, seed: int | None = None) -> Game:
        """A game this view could be of, the hidden cards dealt at random.

        Everything the view shows is kept (the table, both discard piles, this
        seat's hand in its order, every hand's and deck's size, the step, the
        battle flags, the rules), so ``sample.view(self.seat) == self``; the cards
        this seat cannot see (:meth:`unseen`: its own deck's order, the other
        seat's hand and deck) are shuffled from ``seed`` and dealt, and the chance
        stream (breakthroughs) is drawn from it too. Deals the rules cannot have
        led to (the other seat to choose whether to play a Battle card without one
        in hand, or to place with nothing it can place or move) are drawn again, so
        the sample is uniform among the deals that fit the view. The sample's
        :attr:`~ordonnance.black_prince.Game.seed` is ``seed`` and its
        :attr:`~ordonnance.black_prince.Game.history` starts at this position.

        ``seed`` (an int in 0..2**64-1) makes the deal reproducible; without one a
        random seed is drawn. A view no game can give (built by hand so that its
        cards or sizes do not add up, or a position the rules cannot reach)
        raises :class:`~ordonnance.errors.InvalidGameStateError`.
        """
        from ordonnance.black_prince.game import Game

        seed = secrets.randbits(64) if seed is None else check_seed(seed)
        me, other = self.seat, 1 - self.seat
        own, theirs = list(self.unseen(me)), list(self.unseen(other))
        if len(self.hand) != self.hand_sizes[me] or len(own) != self.deck_sizes[me]:
            raise InvalidGameStateError(f"seat {me}'s hand and deck sizes {self.hand_sizes[me]}, {self.deck_sizes[me]} "
                                        f"do not match its {len(self.hand)} cards in hand and {len(own)} unseen")  # fmt: skip
        if len(theirs) != self.hand_sizes[other] + self.deck_sizes[other]:
            raise InvalidGameStateError(f"seat {other}'s hand and deck sizes {self.hand_sizes[other]}, "
                                        f"{self.deck_sizes[other]} do not add up to its {len(theirs)} unseen cards")  # fmt: skip
        # The step can tell something of the other hand when that seat is to decide (a
        # "choose" step means a Battle card in it): a deal the rules would not have led to is
        # drawn again. No other hidden card can make a deal impossible.
        state, split = seed, self.hand_sizes[other]
        tries = _SAMPLE_TRIES if self.current_player == other and self.phase in ("place", "choose") else 1
        for _ in range(tries):
            state = shuffle(own, state)
            state = shuffle(theirs, state)
            state, rng = splitmix64(state)
            decks, hands = [own, own], [list(self.hand), list(self.hand)]
            decks[other], hands[other] = theirs[split:], theirs[:split]
            try:
                return Game._from_position(
                    self.rules, seed=seed, rng=rng, decks=decks, hands=hands, cells=self.battlefield.cells,
                    discards=self.discards, current_player=self.current_player, phase=self.phase, turn=self.turn,
                    attacked=self.attacked, moved=self.moved, contact=self.contact, fought=self.fought,
                )  # fmt: skip
            except InvalidGameStateError as error:
                refusal = error
        raise refusal

    def to_json(self) -> str:
        """The view as compact JSON: exactly what this seat sees (see :data:`VIEW_SCHEMA`)::

            {"format": "ordonnance.black_prince.view", "version": 1, "seat": 0,
             "rules": {...}, "current_player": 0, "phase": "place", "turn": 1,
             "winner": null, "routed": [0, 0], "hand": ["Archers 2", ...],
             "hand_sizes": [6, 6], "deck_sizes": [19, 19], "cells": [[null, ...] x 4],
             "discards": [[], []], "attacked": [false x 6], "moved": [...],
             "contact": [...], "fought": false,
             "legal_actions": [{"type": "place", "card": "Archers 2", "column": 0}, ...]}

        Cards and actions are written as in saves and :func:`action_to_json`.
        """
        return jsonio.dumps(
            {
                "format": VIEW_FORMAT,
                "version": VIEW_VERSION,
                "seat": self.seat,
                "rules": self.rules.to_dict(),
                "current_player": self.current_player,
                "phase": self.phase,
                "turn": self.turn,
                "winner": self.winner,
                "routed": list(self.routed),
                "hand": [card_data(card) for card in self.hand],
                "hand_sizes": list(self.hand_sizes),
                "deck_sizes": list(self.deck_sizes),
                "cells": [[None if card is None else card_data(card) for card in row] for row in self.battlefield.cells],
                "discards": [[card_data(card) for card in pile] for pile in self.discards],
                "attacked": list(self.attacked),
                "moved": list(self.moved),
                "contact": list(self.contact),
                "fought": self.fought,
                "legal_actions": [action_to_data(action) for action in self.legal_actions],
            }
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """The view of :meth:`to_json` output.

        Untrusted text is refused with :class:`~ordonnance.errors.InvalidGameStateError`
        showing the value: not JSON, too long or deep (see :func:`ordonnance.core.jsonio.parse`),
        another format or version, a missing or unknown key, a value of the wrong JSON type
        or out of range, and a view the engine would not give: one whose cards do not add
        up, whose position the rules cannot reach, or whose winner, routs or legal actions
        are not those of its position (checked on :meth:`sample_game`).
        """
        data = jsonio.parse(text, _fail)
        jsonio.check_format(data, _fail, VIEW_FORMAT, (VIEW_VERSION,))
        jsonio.check_keys(data, _fail, _VIEW_KEYS)
        rules = rules_from_json(data["rules"], _fail)
        winner = data["winner"]
        if winner is not None:
            winner = _read.integer(winner, "winner", 0, 1)
        if data["phase"] not in _PHASES:
            raise _fail(f"phase must be one of {', '.join(map(repr, _PHASES))}, got {data['phase']!r:.80}")
        rows = [enumerate(_read.array(row, f"cells[{r}]", COLUMNS)) for r, row in enumerate(_read.array(data["cells"], "cells", ROWS))]
        cells = tuple(tuple(_card_or_none(card, f"cells[{r}][{c}]") for c, card in row) for r, row in enumerate(rows))
        piles = _read.array(data["discards"], "discards", 2)
        actions = []
        for i, item in enumerate(_read.array(data["legal_actions"], "legal_actions")):
            try:
                actions.append(action_from_data(item))
            except InvalidArgumentError as error:
                raise _fail(f"legal_actions[{i}]: {error}") from None
        view = cls(
            seat=_read.integer(data["seat"], "seat", 0, 1),
            rules=rules,
            current_player=_read.integer(data["current_player"], "current_player", 0, 1),
            phase=data["phase"],
            turn=_read.integer(data["turn"], "turn", 1, rules.max_turns),
            winner=winner,
            routed=_pair(data["routed"], "routed"),
            hand=tuple(_cards(data["hand"], "hand")),
            hand_sizes=_pair(data["hand_sizes"], "hand_sizes"),
            deck_sizes=_pair(data["deck_sizes"], "deck_sizes"),
            battlefield=Battlefield(rules, cells),
            discards=(tuple(_cards(piles[0], "discards[0]")), tuple(_cards(piles[1], "discards[1]"))),
            attacked=_flags(data["attacked"], "attacked"),
            moved=_flags(data["moved"], "moved"),
            contact=_flags(data["contact"], "contact"),
            fought=_read.boolean(data["fought"], "fought"),
            legal_actions=tuple(actions),
        )
        _check_given(view)
        return view

    def _repr_svg_(self) -> str:
        """The battlefield as this seat sees it, as SVG for Jupyter."""
        from ordonnance.black_prince.render import svg

        return svg(self)


_VIEW_KEYS = (
    "format", "version", "seat", "rules", "current_player", "phase", "turn", "winner", "routed", "hand",
    "hand_sizes", "deck_sizes", "cells", "discards", "attacked", "moved", "contact", "fought", "legal_actions",
)  # fmt: skip


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid Black Prince view JSON: {message}")


_read = jsonio.Reader(_fail)


def _pair(value: Any, where: str) -> tuple[int, int]:
    first, second = (_read.integer(n, f"{where}[{i}]", 0, 1 << 16) for i, n in enumerate(_read.array(value, where, 2)))
    return (first, second)


def _flags(value: Any, where: str) -> tuple[bool, ...]:
    return tuple(_read.boolean(flag, f"{where}[{i}]") for i, flag in enumerate(_read.array(value, where, COLUMNS)))


def _card_or_none(value: Any, where: str) -> Card | None:
    if value is None:
        return None
    try:
        return card_from_data(value)
    except (OrdonnanceError, TypeError) as error:
        raise _fail(f"{where}: {error}") from None


def _cards(value: Any, where: str) -> list[Card]:
    cards = []
    for i, item in enumerate(_read.array(value, where)):
        card = None if item is None else _card_or_none(item, f"{where}[{i}]")
        if card is None:
            raise _fail(f"{where}[{i}] must be a card, got null")
        cards.append(card)
    return cards


def _check_given(view: PlayerView) -> None:
    """Refuse a view the engine would not give: the view of a game sampled from it must be itself."""
    try:
        given = view.sample_game(seed=0).view(view.seat)
    except InvalidGameStateError as error:
        raise _fail(str(error)) from None
    for field in attrs.fields(PlayerView):
        mine, engine = getattr(view, field.name), getattr(given, field.name)
        if mine != engine:
            raise _fail(f"{field.name} is {mine!r:.200}, but its position gives {engine!r:.200}")


def _nullable(schema: object) -> dict[str, object]:
    return {"oneOf": [{"type": "null"}, schema]}


_CARD = {"$ref": "#/$defs/card"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 1}
_COUNTS = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
_FLAGS = {"type": "array", "items": {"type": "boolean"}, "minItems": COLUMNS, "maxItems": COLUMNS}
_CARDS = {"type": "array", "items": _CARD}
#: The JSON Schema (draft 2020-12) of :meth:`PlayerView.to_json`'s output.
VIEW_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A Black Prince player view (ordonnance.black_prince.PlayerView.to_json)",
    "$defs": SCHEMA_DEFS,
    "type": "object",
    "properties": {
        "format": {"const": VIEW_FORMAT},
        "version": {"const": VIEW_VERSION},
        "seat": _SEAT,
        "rules": RULES_SCHEMA,
        "current_player": _SEAT,
        "phase": {"enum": list(_PHASES)},
        "turn": {"type": "integer", "minimum": 1},
        "winner": _nullable(_SEAT),
        "routed": _COUNTS,
        "hand": {**_CARDS, "maxItems": 6},
        "hand_sizes": _COUNTS,
        "deck_sizes": _COUNTS,
        "cells": {
            "type": "array",
            "items": {"type": "array", "items": _nullable(_CARD), "minItems": COLUMNS, "maxItems": COLUMNS},
            "minItems": ROWS,
            "maxItems": ROWS,
        },
        "discards": {"type": "array", "items": _CARDS, "minItems": 2, "maxItems": 2},
        "attacked": _FLAGS,
        "moved": _FLAGS,
        "contact": _FLAGS,
        "fought": {"type": "boolean"},
        "legal_actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
    },
    "required": list(_VIEW_KEYS),
    "additionalProperties": False,
}
