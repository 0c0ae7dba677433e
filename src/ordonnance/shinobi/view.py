"""What one player may see of a game: the public table, counts of hidden things,
their own clan and hand (everything on the table and in the discard pile is public;
hands, the deck order and other clan cards are hidden until the end).

A view has a JSON form (:meth:`PlayerView.to_json`, :data:`VIEW_SCHEMA`) that holds
exactly what its seat may see, and deals the hidden things again
(:meth:`PlayerView.sample_game`): a :class:`~ordonnance.shinobi.Game` that looks the
same from the view's seat.

>>> from ordonnance import shinobi
>>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=7)
>>> view = game.view(1)
>>> shinobi.PlayerView.from_json(view.to_json()) == view
True
>>> sample = view.sample_game(seed=1)
>>> sample.view(1) == view, sample.hand(1) == game.hand(1), sample.hand(0) == game.hand(0)
(True, True, False)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from ordonnance.core import checks, jsonio
from ordonnance.core.rng import shuffle
from ordonnance.core.seeds import check_seed
from ordonnance.errors import InvalidGameStateError, OrdonnanceTypeError
from ordonnance.shinobi.actions import ACTION_SCHEMA, Action, action_from_data, action_to_data, is_action
from ordonnance.shinobi.cards import CLAN_NAMES, CLANS, CODES, Card
from ordonnance.shinobi.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, RULES_SCHEMA, Rules, rules_from_json

if TYPE_CHECKING:
    from ordonnance.shinobi.game import Game

__all__ = ["PlayerView", "FORMAT", "VERSION", "VIEW_SCHEMA"]

FORMAT = "ordonnance.shinobi.view"
VERSION = 1
_CARD_NAMES = [Card.from_code(code).name for code in range(CODES)]
_BY_NAME = {name: Card.from_code(code) for code, name in enumerate(_CARD_NAMES)}


@attrs.frozen
class PlayerView:
    """A snapshot of a game as seen from one seat: what a bot or a UI may use.

    It holds no deck order, no other hand and no other clan card until the game
    is over: two games that differ only in hidden information give equal views.
    A view built by hand is checked: a field of the wrong type, size or range raises
    :class:`~ordonnance.errors.InvalidGameStateError` naming it.
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
        from ordonnance.shinobi.game import Game

        if not isinstance(game, Game):
            raise OrdonnanceTypeError(f"a view is of a shinobi Game, not {checks.shown(game)}")
        seat = game._seat(seat)
        seats = range(game.players)
        over = game.is_over
        return cls._trusted(
            **game._view_fields(seat),
            clan=game.clan(seat),
            order=game.order,
            is_over=over,
            turns=game.turns,
            extra_turns_left=game.extra_turns_left,
            provinces=tuple(game.province(q) for q in seats),
            changed=tuple(tuple(game.changed(q, clan) for clan in range(CLANS)) for q in seats),
            discard=game.discard,
            deck_size=game.deck_size,
            clans=tuple(game.clan(q) if over or q == seat else None for q in seats),
            neutral_clans=game.neutral_clans if over else None,
            winners=game.winners,
        )

    @classmethod
    def _trusted(cls, **fields: Any) -> PlayerView:
        """A view of fields the engine gave (known good): made without the checks of a view built by hand."""
        view = object.__new__(cls)
        for name, value in fields.items():
            object.__setattr__(view, name, value)
        return view

    def __attrs_post_init__(self) -> None:
        # A view built by hand (or by attrs.evolve) is checked here, once, so that no method meets
        # a field of the wrong type later; the engine's own views skip it (_trusted).
        self._check_shape()

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

    # ------------------------------------------------------------------ sampling

    def sample_game(self, seed: int | None = None) -> Game:
        """A game this view could be of, the hidden things dealt again at random.

        Everything the view shows is kept (the table, the discard pile, this seat's
        clan and hand in its order, the size of every other hand and of the deck,
        whose turn and order, the final round, the rules), so ``sample.view(self.seat)
        == self``; the other seats' clans are dealt from the four clans not this
        seat's (once the game is over every clan is shown and kept), and the cards this
        seat cannot see (:meth:`unseen`) into the other hands and the deck, uniformly at
        random. The view does not hold the history, so what a skipped order gave away
        about a hand is not used. The sample is a full :class:`~ordonnance.shinobi.Game`
        (play it on, save it: it loads with :meth:`Game.from_json`) whose
        :attr:`~ordonnance.shinobi.Game.seed` is None, whose
        :attr:`~ordonnance.shinobi.Game.history` starts at this position and whose
        :meth:`~ordonnance.shinobi.Game.root` is this position.

        ``seed`` (an int in 0..2**64-1) makes the deal reproducible (one SplitMix64
        stream shuffles the clans, then the cards); without one a random seed is drawn.
        A view that no game can give (built or evolved by hand so that its parts are of
        the wrong type or its cards do not add up) raises
        :class:`~ordonnance.errors.InvalidGameStateError`.
        """
        from ordonnance.shinobi.game import Game

        state = secrets.randbits(64) if seed is None else check_seed(seed)
        self._check_shape()
        n, seat = self.players, self.seat
        if len(self.hand) != self.hand_sizes[seat]:
            raise InvalidGameStateError(f"seat {seat} holds {len(self.hand)} cards, but hand_sizes says {_shown(self.hand_sizes)}")
        counts = self.unseen()
        hidden_sizes = [size for q, size in enumerate(self.hand_sizes) if q != seat]
        if min(counts) < 0 or sum(counts) != self.deck_size + sum(hidden_sizes):
            raise InvalidGameStateError(
                f"the view's cards do not add up: the rules leave {dict(zip(_CARD_NAMES, counts))} unseen "
                f"for a deck of {self.deck_size} and other hands of {hidden_sizes}"
            )
        if self.is_over:
            if None in self.clans:
                raise InvalidGameStateError(f"a finished game shows every clan, got clans={_shown(self.clans)}")
            clans = [clan for clan in self.clans if clan is not None]
        else:
            others = [clan for clan in range(CLANS) if clan != self.clan]
            state = shuffle(others, state)
            clans = [self.clan if q == seat else others.pop() for q in range(n)]
        cards = [code for code in range(CODES) for _ in range(counts[code])]
        shuffle(cards, state)
        hands: list[Sequence[Card | int]] = []
        for q in range(n):
            if q == seat:
                hands.append(self.hand)
            else:
                hands.append(cards[: self.hand_sizes[q]])
                del cards[: self.hand_sizes[q]]
        return Game._from_position(
            self.rules, clans=clans, deck=cards, hands=hands, provinces=self.provinces, discard=self.discard,
            changed=self.changed, current_player=self.current_player, order=self.order, turns=self.turns,
            extra_turns_left=self.extra_turns_left,
        )  # fmt: skip

    def _check_shape(self) -> None:
        """Refuse, with the library's error, a field of the wrong type, size or range."""
        if not isinstance(self.rules, Rules):
            raise InvalidGameStateError(f"rules must be a shinobi Rules, got {checks.shown(self.rules)}")
        n, cards = self.players, len(self.rules.troop_deck)
        # Every turn before the final round draws a card, so a game has fewer turns than cards and seats.
        for name, low, high in (("seat", 0, n - 1), ("clan", 0, CLANS - 1), ("current_player", 0, n - 1),
                                ("order", 1, 3), ("turns", 0, cards + n), ("deck_size", 0, cards)):  # fmt: skip
            _check_int(getattr(self, name), name, low, high)
        if self.extra_turns_left is not None:
            _check_int(self.extra_turns_left, "extra_turns_left", 0, n)
        if not isinstance(self.is_over, bool):
            raise InvalidGameStateError(f"is_over must be a bool, got {checks.shown(self.is_over)}")
        hand = _sized(self.hand, "hand", None)
        if len(hand) > HAND_SIZE or not all(isinstance(card, Card) for card in hand):
            raise InvalidGameStateError(f"hand must hold at most {HAND_SIZE} Cards, got {checks.shown(self.hand)}")
        for seat, row in enumerate(_sized(self.provinces, "provinces", n)):
            for clan, size in enumerate(_sized(row, f"provinces[{seat}]", CLANS)):
                _check_int(size, f"provinces[{seat}][{clan}]", 0, None)
        for seat, row in enumerate(_sized(self.changed, "changed", n)):
            if not all(isinstance(flag, bool) for flag in _sized(row, f"changed[{seat}]", CLANS)):
                raise InvalidGameStateError(f"changed[{seat}] must hold {CLANS} bools, got {checks.shown(row)}")
        for code, count in enumerate(_sized(self.discard, "discard", CODES)):
            _check_int(count, f"discard[{code}]", 0, None)
        for seat, size in enumerate(_sized(self.hand_sizes, "hand_sizes", n)):
            _check_int(size, f"hand_sizes[{seat}]", 0, HAND_SIZE)
        for seat, clan in enumerate(_sized(self.clans, "clans", n)):
            if clan is not None:
                _check_int(clan, f"clans[{seat}]", 0, CLANS - 1)
        if self.neutral_clans is not None:
            for i, clan in enumerate(_sized(self.neutral_clans, "neutral_clans", CLANS - n)):
                _check_int(clan, f"neutral_clans[{i}]", 0, CLANS - 1)
        for i, winner in enumerate(_sized(self.winners, "winners", None)):
            _check_int(winner, f"winners[{i}]", 0, n - 1)
        if not all(is_action(action) for action in _sized(self.legal_actions, "legal_actions", None)):
            raise InvalidGameStateError(f"legal_actions must hold actions, got {checks.shown(self.legal_actions)}")

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """This view as compact JSON text: exactly what its seat may see (the format is
        :data:`VIEW_SCHEMA`; clans by name, cards by name, each province's armies and the
        discard pile in the order of :data:`~ordonnance.shinobi.CLAN_NAMES`, ninjas last).
        :meth:`from_json` reads it back."""

        def names(clans: Sequence[int | None] | None) -> list[str | None] | None:
            return None if clans is None else [None if clan is None else CLAN_NAMES[clan] for clan in clans]

        return jsonio.dumps({
            "format": FORMAT,
            "version": VERSION,
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "clan": CLAN_NAMES[self.clan],
            "hand": [card.name for card in self.hand],
            "current_player": self.current_player,
            "order": self.order,
            "is_over": self.is_over,
            "turns": self.turns,
            "extra_turns_left": self.extra_turns_left,
            "provinces": [list(row) for row in self.provinces],
            "changed": [list(row) for row in self.changed],
            "discard": list(self.discard),
            "deck_size": self.deck_size,
            "hand_sizes": list(self.hand_sizes),
            "clans": names(self.clans),
            "neutral_clans": names(self.neutral_clans),
            "winners": list(self.winners),
            "legal_actions": [action_to_data(action) for action in self.legal_actions],
        })  # fmt: skip

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """The view of :meth:`to_json` output, refusing anything else with
        :class:`~ordonnance.errors.InvalidGameStateError` showing the value: not str or
        bytes, not JSON, over :data:`~ordonnance.core.jsonio.MAX_TEXT_SIZE` characters or
        nested too deep, repeated keys, another format or version, a missing or unknown
        key, a field of the wrong JSON type, size or range, and a view that no game gives
        (a sample of it, :meth:`sample_game`, must show exactly it)."""
        data = jsonio.parse(text, _fail)
        jsonio.check_format(data, _fail, FORMAT, (VERSION,))
        jsonio.check_keys(data, _fail, _KEYS)
        rules = rules_from_json(data["rules"], _fail)
        fields: dict[str, Any] = {key: _read(data[key], key, kind) for key, kind in _NUMBERS.items()}
        fields["clan"] = _clan(data["clan"], "clan")
        fields["clans"] = tuple(_clan(clan, f"clans[{seat}]", null=True) for seat, clan in enumerate(_json.array(data["clans"], "clans")))
        neutral = data["neutral_clans"]
        fields["neutral_clans"] = None if neutral is None else tuple(
            _clan(clan, f"neutral_clans[{i}]") for i, clan in enumerate(_json.array(neutral, "neutral_clans"))
        )  # fmt: skip
        fields["hand"] = tuple(_card(card, f"hand[{i}]") for i, card in enumerate(_json.array(data["hand"], "hand")))
        fields["legal_actions"] = tuple(
            action_from_data(item, lambda message, i=i: _fail(f"legal_actions[{i}]: {message}"))  # type: ignore[misc]
            for i, item in enumerate(_json.array(data["legal_actions"], "legal_actions"))
        )
        try:
            view = cls(rules=rules, **fields)
            sample = view.sample_game(seed=0)
            sample._check_turns()
        except InvalidGameStateError as error:
            raise _fail(str(error)) from None
        shown = sample.view(view.seat)
        if shown != view:
            wrong = [f"{field.name} {checks.shown(_shown(getattr(view, field.name)))} (a game gives {checks.shown(_shown(getattr(shown, field.name)))})"
                     for field in attrs.fields(cls) if getattr(view, field.name) != getattr(shown, field.name)]  # fmt: skip
            raise _fail(f"no game gives this view: {'; '.join(wrong)}")
        return view

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, as SVG for Jupyter."""
        from ordonnance.shinobi.render import svg

        return svg(self)


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid shinobi view JSON: {message}")


_json = jsonio.Reader(_fail)


_KEYS = (
    "format", "version", "seat", "rules", "clan", "hand", "current_player", "order", "is_over", "turns",
    "extra_turns_left", "provinces", "changed", "discard", "deck_size", "hand_sizes", "clans", "neutral_clans",
    "winners", "legal_actions",
)  # fmt: skip
#: The keys whose values are numbers and bools, and what each holds (lists are read as tuples);
#: PlayerView._check_shape then checks their sizes and ranges.
_NUMBERS = {
    "seat": int, "current_player": int, "order": int, "is_over": bool, "turns": int,
    "extra_turns_left": (int, None), "provinces": [[int]], "changed": [[bool]], "discard": [int],
    "deck_size": int, "hand_sizes": [int], "winners": [int],
}  # fmt: skip


def _read(value: Any, name: str, kind: Any) -> Any:
    """``value`` if it is of JSON ``kind``: an int that is no bool, a bool, ``(int, None)``
    for an int or null, ``[kind]`` for an array of them (read as a tuple). Else the error
    names the first item that is not, by its path, and shows it."""
    if isinstance(kind, list):
        if not isinstance(value, list):
            raise _fail(f"{name} must be an array, got {checks.shown(value)}")
        return tuple(_read(item, f"{name}[{i}]", kind[0]) for i, item in enumerate(value))
    if value is None and kind == (int, None):
        return None
    wanted = bool if kind is bool else int
    if type(value) is not wanted:
        raise _fail(f"{name} must be {'a bool' if kind is bool else 'an int'}, got {checks.shown(value)}")
    return value


def _clan(value: Any, name: str, *, null: bool = False) -> int | None:
    if value is None and null:
        return None
    if not isinstance(value, str) or value not in CLAN_NAMES:
        raise _fail(f"{name} must be one of {', '.join(CLAN_NAMES)}{' or null' if null else ''}, got {checks.shown(value)}")
    return CLAN_NAMES.index(value)


def _card(value: Any, name: str) -> Card:
    if not isinstance(value, str) or value not in _BY_NAME:
        raise _fail(f"{name} must be one of {', '.join(_CARD_NAMES)}, got {checks.shown(value)}")
    return _BY_NAME[value]


def _check_int(value: object, name: str, low: int, high: int | None) -> None:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidGameStateError(f"{name} must be an int, got {checks.shown(value)}")
    if value < low or (high is not None and value > high):
        raise InvalidGameStateError(f"{name} must be in {low}..{'' if high is None else high}, got {checks.shown(value)}")


def _sized(value: object, name: str, size: int | None) -> Sequence[Any]:
    if not isinstance(value, (tuple, list)) or (size is not None and len(value) != size):
        raise InvalidGameStateError(f"{name} must be a sequence{'' if size is None else f' of {size}'}, got {checks.shown(_shown(value))}")
    return value


def _shown(value: object) -> object:
    """``value`` with its tuples as lists, as JSON writes them (a view read from JSON holds tuples)."""
    return [_shown(item) for item in value] if isinstance(value, tuple) else value


def _strip(schema: dict[str, object]) -> dict[str, object]:
    """A schema to nest in another's ``$defs``: without its own ``$schema`` and ``title``."""
    return {key: value for key, value in schema.items() if key not in ("$schema", "title")}


def _array_of(items: object, low: int | None = None, high: int | None = None) -> dict[str, object]:
    schema: dict[str, object] = {"type": "array", "items": items}
    if low is not None:
        schema["minItems"] = low
    if high is not None:
        schema["maxItems"] = high
    return schema


_COUNT = {"type": "integer", "minimum": 0}
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_SEATS = (MIN_PLAYERS, MAX_PLAYERS)
#: What the schemas of views and saves share: the rules, an action, a card, a clan, and
#: arrays with one item per seat.
SCHEMA_DEFS: dict[str, object] = {
    "rules": _strip(RULES_SCHEMA),
    "action": _strip(ACTION_SCHEMA),
    "card": {"enum": _CARD_NAMES, "description": "a samurai's clan, or Ninja"},
    "clan": {"enum": list(CLAN_NAMES)},
    "provinces": _array_of(_array_of(_COUNT, CLANS, CLANS), *_SEATS),
    "changed": _array_of(_array_of({"type": "boolean"}, CLANS, CLANS), *_SEATS),
    "discard": _array_of(_COUNT, CODES, CODES),
}

#: The JSON Schema (draft 2020-12) of :meth:`PlayerView.to_json`'s output. Lists by seat have
#: one item per player; what a schema cannot say (the seats within the rules' players, the
#: cards adding up, the legal actions being the position's) :meth:`PlayerView.from_json` checks.
VIEW_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": f"One seat's view of a Shinobi game ({FORMAT}, version {VERSION})",
    "type": "object",
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "seat": _SEAT,
        "rules": {"$ref": "#/$defs/rules"},
        "clan": {"$ref": "#/$defs/clan"},
        "hand": _array_of({"$ref": "#/$defs/card"}, 0, HAND_SIZE),
        "current_player": _SEAT,
        "order": {"type": "integer", "minimum": 1, "maximum": 3},
        "is_over": {"type": "boolean"},
        "turns": _COUNT,
        "extra_turns_left": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_PLAYERS},
        "provinces": {"$ref": "#/$defs/provinces"},
        "changed": {"$ref": "#/$defs/changed"},
        "discard": {"$ref": "#/$defs/discard"},
        "deck_size": _COUNT,
        "hand_sizes": _array_of({"type": "integer", "minimum": 0, "maximum": HAND_SIZE}, *_SEATS),
        "clans": _array_of({"oneOf": [{"type": "null"}, {"$ref": "#/$defs/clan"}]}, *_SEATS),
        "neutral_clans": {"oneOf": [{"type": "null"}, _array_of({"$ref": "#/$defs/clan"}, 0, CLANS - MIN_PLAYERS)]},
        "winners": _array_of(_SEAT, 0, MAX_PLAYERS),
        "legal_actions": _array_of({"$ref": "#/$defs/action"}),
    },
    "required": list(_KEYS),
    "additionalProperties": False,
    "$defs": SCHEMA_DEFS,
}  # fmt: skip
