"""The rules of a game of Black Prince: the two decks, the advantage table, who starts.

>>> from ordonnance.black_prince import Rules, TroopType
>>> rules = Rules(armies=("Scottish", "French"))
>>> len(rules.deck(0)), rules.advantages_of(TroopType.KNIGHTS) == {
...     TroopType.ARCHERS, TroopType.SWORDSMEN, TroopType.LIGHT_CAVALRY}
(25, True)
>>> Rules(armies=("French", "French")).deck(1) == Rules().deck(1)  # a mirror match
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, get_args

import attrs
import numpy as np

from ordonnance.black_prince.cards import _LABELS, ARMIES, Card, TroopType, deck
from ordonnance.core import rulesio
from ordonnance.core.checks import bounded, choice, integer, is_integer, shown, text
from ordonnance.core.rulesio import DictRules
from ordonnance.errors import InvalidDeckError, InvalidRulesError, OrdonnanceTypeError

__all__ = [
    "Rules", "First", "DEFAULT_ADVANTAGES", "HAND_SIZE", "COLUMNS", "FRONT_LIMIT", "ROUT_TO_WIN", "RULES_SCHEMA",
]  # fmt: skip

First = Literal["seat0", "coin"]

#: Cards a player holds after drawing.
HAND_SIZE = 6
#: Columns of the battlefield.
COLUMNS = 6
#: Cards the front line (both front rows together) may hold.
FRONT_LIMIT = 6
#: Enemy troop cards a player must rout to win.
ROUT_TO_WIN = 6
#: The largest deck a player may have (custom decks included).
MAX_DECK = 64
#: The default turn limit (see :attr:`Rules.max_turns`).
DEFAULT_MAX_TURNS = 200
#: The highest turn limit.
MAX_TURNS = 10_000
#: The longest army name (a label, when ``decks`` gives the cards).
MAX_ARMY_NAME = 100

_T = TroopType
#: The reconstructed advantage table of the rules (:ref:`black-prince-rules-advantages`): +1 against each listed type.
DEFAULT_ADVANTAGES: Mapping[TroopType, frozenset[TroopType]] = {
    _T.KNIGHTS: frozenset({_T.ARCHERS, _T.SWORDSMEN, _T.LIGHT_CAVALRY}),
    _T.CAVALRY: frozenset({_T.ARCHERS, _T.LIGHT_CAVALRY}),
    _T.LIGHT_CAVALRY: frozenset({_T.PIKEMEN, _T.SPEARMEN}),
    _T.PIKEMEN: frozenset({_T.KNIGHTS, _T.CAVALRY}),
    _T.SPEARMEN: frozenset({_T.KNIGHTS, _T.CAVALRY, _T.LIGHT_CAVALRY}),
    _T.HALBERDIERS: frozenset({_T.KNIGHTS, _T.PIKEMEN}),
    _T.SWORDSMEN: frozenset({_T.PIKEMEN, _T.SPEARMEN, _T.HALBERDIERS}),
    _T.ARCHERS: frozenset({_T.KNIGHTS, _T.HALBERDIERS}),
}


def _to_table(value: Mapping[Any, Iterable[Any]] | None) -> tuple[frozenset[TroopType], ...]:
    """The table as one frozenset per type in enum order; a type left out fights no type better."""
    if value is None:
        value = DEFAULT_ADVANTAGES
    if isinstance(value, tuple) and len(value) == len(TroopType) and all(isinstance(v, frozenset) for v in value):
        value = dict(zip(TroopType, value))
    if not isinstance(value, Mapping):
        raise OrdonnanceTypeError(f"advantages must map troop types to the types they beat, got {shown(value)}")
    table: list[frozenset[TroopType]] = [frozenset()] * len(TroopType)
    for key, beaten in bounded(value.items(), "advantages", len(TroopType), error=InvalidRulesError):
        kind = _troop(key, "an advantage table key")
        if isinstance(beaten, str) or not isinstance(beaten, Iterable):
            raise InvalidRulesError(f"advantages of {kind.label} must be a collection of types, got {shown(beaten)}")
        listed = bounded(beaten, f"advantages of {kind.label}", len(TroopType), error=InvalidRulesError)
        table[kind] = frozenset(_troop(t, "an advantage") for t in listed)
    return tuple(table)


def _troop(value: object, what: str) -> TroopType:
    """A troop type given as itself or by name."""
    if isinstance(value, str):
        return TroopType.parse(value)
    if type(value) is not TroopType:
        raise InvalidRulesError(f"{what} must be a troop type, got {shown(value)}")
    return value


def _to_armies(value: object) -> tuple[str, str]:
    if isinstance(value, str) or not isinstance(value, (tuple, list)) or len(value) != 2:
        raise OrdonnanceTypeError(f"armies must be a pair of army names, got {shown(value)}")
    names = [text(name, "an army's name", most=MAX_ARMY_NAME, printable=True, error=InvalidRulesError) for name in value]
    return (names[0].strip().capitalize(), names[1].strip().capitalize())


def _to_decks(value: object) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, (tuple, list)) or len(value) != 2:
        raise OrdonnanceTypeError(f"decks must be a pair of card lists (one per seat), got {shown(value)}")
    out = []
    for seat, given in enumerate(value):
        if isinstance(given, str) or not isinstance(given, Iterable):
            raise OrdonnanceTypeError(f"decks[{seat}] must be a list of cards, got {shown(given)}")
        listed = bounded(given, f"decks[{seat}]", MAX_DECK, error=InvalidDeckError)
        cards = tuple(card_from_data(c) if isinstance(c, (str, list)) else c for c in listed)
        for card in cards:
            if type(card) is not Card:
                raise InvalidDeckError(f"decks[{seat}] holds {shown(card)}, which is no Card")
        if not HAND_SIZE <= len(cards) <= MAX_DECK:
            raise InvalidDeckError(f"decks[{seat}] must hold {HAND_SIZE}..{MAX_DECK} cards, got {len(cards)}")
        if all(card.is_battle for card in cards):
            raise InvalidDeckError(f"decks[{seat}] holds no troop card")
        out.append(tuple(sorted(cards, key=lambda c: c.sort_key)))
    return (out[0], out[1])


def _to_first(value: object) -> First:
    return choice(value, "first", get_args(First), error=InvalidRulesError)


def _to_max_turns(value: object) -> int:
    return integer(value, "max_turns", low=1, high=MAX_TURNS, error=InvalidRulesError)


@attrs.frozen
class Rules(DictRules):
    """Everything fixed for a whole game of Black Prince; immutable and validated.

    ``armies`` names each seat's army: two printed armies, the same one twice
    for a mirror match (the rules sheet gives each player a different army; a
    mirror match measures the seat's advantage alone), or, when ``decks`` gives
    the cards, only labels (printable text of at most :data:`MAX_ARMY_NAME` characters).
    ``advantages`` maps each type to the types it fights better (None: the
    reconstructed table :data:`DEFAULT_ADVANTAGES`); a card may also carry
    its own set (:attr:`Card.advantages`).
    """

    armies: tuple[str, str] = attrs.field(default=("English", "French"), converter=_to_armies)
    """The army of seat 0 and of seat 1."""
    advantages: tuple[frozenset[TroopType], ...] = attrs.field(default=None, converter=_to_table)
    """One set per :class:`TroopType`, in enum order: the types it gets +1 against."""
    first: First = attrs.field(default="seat0", converter=_to_first)
    """``"seat0"``: seat 0 starts; ``"coin"``: a seeded coin decides."""
    decks: tuple[tuple[Card, ...], tuple[Card, ...]] | None = attrs.field(default=None, converter=_to_decks)
    """Custom decks, one per seat (sorted canonically), or None for the armies' printed decks."""
    max_turns: int = attrs.field(default=DEFAULT_MAX_TURNS, converter=_to_max_turns)
    """After this many turns (both players' together) the game ends and is scored as
    when both players have run out of cards: the sheet gives no end to a stalled game."""

    @property
    def players(self) -> int:
        """Always 2."""
        return 2

    def __attrs_post_init__(self) -> None:
        if self.decks is None:
            for name in self.armies:
                if name not in ARMIES:
                    raise InvalidDeckError(f"unknown army {shown(name)}; the armies are {', '.join(ARMIES)}")

    def deck(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat``'s deck, in canonical order (the order shuffled from)."""
        if type(seat) is not int or seat not in (0, 1):
            seat = _seat(seat)
        if self.decks is not None:
            return self.decks[seat]
        return _printed(self.armies[seat])

    def advantages_of(self, kind: TroopType | str | int) -> frozenset[TroopType]:
        """The types ``kind`` (a :class:`TroopType`, its name or its number) fights better under this table."""
        if is_integer(kind) and type(kind) is not TroopType:
            kind = TroopType(integer(kind, "a troop type's number", low=0, high=len(TroopType) - 1, error=InvalidRulesError))
        return self.advantages[_troop(kind, "a troop type")]

    def card_advantages(self, card: Card) -> frozenset[TroopType]:
        """The types ``card`` fights better: its own set, else its type's."""
        if type(card) is not Card:
            raise OrdonnanceTypeError(f"card_advantages takes a Card, got {shown(card)}")
        if card.advantages is not None:
            return card.advantages
        return frozenset() if card.type is None else self.advantages[card.type]

    def __repr__(self) -> str:
        """Python that makes these rules again: ``Rules(...)`` with the fields that differ from
        the defaults, as :meth:`to_dict` writes them (troop types and cards as text).

        >>> Rules(armies=("Scottish", "French"), first="coin")
        Rules(armies=['Scottish', 'French'], first='coin')
        """
        data, defaults = self.to_dict(), _DEFAULT_FIELDS
        return f"Rules({', '.join(f'{name}={value!r}' for name, value in data.items() if value != defaults[name])})"

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON-ready data; :meth:`from_dict` reverses it (``Rules(**data)``
        too)."""
        return {
            "armies": list(self.armies),
            "advantages": {kind.label: sorted(t.label for t in self.advantages[kind]) for kind in TroopType},
            "first": self.first,
            "decks": None if self.decks is None else [[card_data(c) for c in d] for d in self.decks],
            "max_turns": self.max_turns,
        }

    @classmethod
    def _from_fields(cls, fields: dict[str, Any]) -> Rules:
        """The rules of :meth:`to_dict`'s fields: the decks' cards turned back from JSON."""
        decks = fields.get("decks")
        if decks is not None:
            if not isinstance(decks, list):
                raise OrdonnanceTypeError(f"decks must be a list, got {shown(decks)}")
            fields["decks"] = [[card_from_data(c) for c in _as_list(d)] for d in decks]
        return cls(**fields)


#: The default rules' fields, as :meth:`Rules.to_dict` writes them (what ``repr`` leaves out).
_DEFAULT_FIELDS = Rules().to_dict()


def _seat(seat: object) -> int:
    """A seat 0 or 1 of any integer type, or the library's error."""
    if not isinstance(seat, (int, np.integer)) or isinstance(seat, (bool, np.bool_)):
        raise OrdonnanceTypeError(f"a seat is an int, got {shown(seat)}")
    if int(seat) not in (0, 1):
        raise InvalidRulesError(f"seats are 0 and 1, got {shown(seat)}")
    return int(seat)


def rules_from_json(data: Any, fail: Callable[[str], Exception]) -> Rules:
    """The rules of a save or a view: :meth:`Rules.from_dict` of an object listing every
    field (as :meth:`Rules.to_dict` writes them); anything else raises ``fail(message)``
    (:func:`ordonnance.core.rulesio.rules_from_json`)."""
    return rulesio.rules_from_json(Rules, data, fail)


def _as_list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise OrdonnanceTypeError(f"a deck must be a list, got {shown(value)}")
    return value


def card_data(card: Card) -> Any:
    """A card as JSON: its text, or [text, advantage labels] with a per-card set."""
    if type(card) is not Card:
        raise OrdonnanceTypeError(f"card_data takes a Card, got {shown(card)}")
    if card.advantages is None:
        return str(card)
    return [str(card), sorted(t.label for t in card.advantages)]


def card_from_data(data: Any) -> Card:
    """A card from its JSON form (see ``card_data``)."""
    if isinstance(data, str):
        return Card.parse(data)
    if isinstance(data, list) and len(data) == 2 and isinstance(data[0], str) and isinstance(data[1], list):
        plain = Card.parse(data[0])
        return Card(plain.type, plain.strength, advantages=data[1])
    raise OrdonnanceTypeError(f"a card is a text or [text, advantages], got {shown(data)}")


_PRINTED: dict[str, tuple[Card, ...]] = {}


def _printed(army: str) -> tuple[Card, ...]:
    if army not in _PRINTED:
        _PRINTED[army] = tuple(sorted(deck(army), key=lambda c: c.sort_key))
    return _PRINTED[army]


_CARD = {"$ref": "#/$defs/card"}
#: The JSON Schema of :meth:`Rules.to_dict` (in saves and views), for a schema whose
#: ``$defs`` holds ``card`` (:data:`~ordonnance.black_prince.cards.CARD_SCHEMA`).
RULES_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "armies": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
        "advantages": {
            "type": "object",
            "propertyNames": {"enum": list(_LABELS)},
            "additionalProperties": {"type": "array", "items": {"enum": list(_LABELS)}, "uniqueItems": True},
        },
        "first": {"enum": list(get_args(First))},
        "decks": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "array",
                    "items": {"type": "array", "items": _CARD, "minItems": HAND_SIZE, "maxItems": MAX_DECK},
                    "minItems": 2,
                    "maxItems": 2,
                },
            ]
        },
        "max_turns": {"type": "integer", "minimum": 1, "maximum": 10_000},
    },
    "required": ["armies", "advantages", "first", "decks", "max_turns"],
    "additionalProperties": False,
}
