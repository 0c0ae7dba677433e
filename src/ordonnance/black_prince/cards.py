"""Troop types, cards and the four army decks of the rules (:ref:`black-prince-rules-armies`).

>>> from ordonnance.black_prince import deck, TroopType
>>> cards = deck("Scottish")
>>> len(cards), sum(card.is_battle for card in cards)
(25, 4)
>>> cards[0], cards[0].type.label, str(cards[0])
(Card(TroopType.KNIGHTS, 2), 'Knights', 'Knights 2')
>>> TroopType.LIGHT_CAVALRY.label, TroopType.LIGHT_CAVALRY.is_mounted, TroopType.LIGHT_CAVALRY.is_archer
('Light cavalry', True, True)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import attrs

from ordonnance.core.checks import bounded, integer, is_integer, shown
from ordonnance.errors import InvalidCardError, InvalidDeckError, OrdonnanceTypeError

__all__ = ["TroopType", "Card", "BATTLE", "ARMIES", "deck", "MAX_STRENGTH", "CARD_SCHEMA"]

#: The highest strength a card may have (the printed decks use 1..3).
MAX_STRENGTH = 9


class _NumberedOnly(enum.EnumMeta):
    """``TroopType(n)`` takes a Python or NumPy int 0..7 (or a TroopType), nothing else: a float
    or a string would otherwise pass when it hashes like a number, and a huge int break the
    enum's own message."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs or not cls._member_map_:  # the functional API, or the class being built
            return super().__call__(value, *args, **kwargs)
        if type(value) is cls:
            return value
        if not is_integer(value):
            raise OrdonnanceTypeError(f"a troop type's number is an int, got {shown(value)}")
        number = integer(value, "a troop type's number", low=0, high=len(cls._member_map_) - 1, error=InvalidCardError)
        return super().__call__(number)


class TroopType(enum.IntEnum, metaclass=_NumberedOnly):
    """A troop type, numbered in the order of the rules' advantage table (:ref:`black-prince-rules-advantages`)."""

    KNIGHTS = 0
    CAVALRY = 1
    LIGHT_CAVALRY = 2
    PIKEMEN = 3
    SPEARMEN = 4
    SWORDSMEN = 5
    HALBERDIERS = 6
    ARCHERS = 7

    @property
    def label(self) -> str:
        """The name as the rules list it, e.g. ``"Light cavalry"``."""
        return _LABELS[self]

    @property
    def is_mounted(self) -> bool:
        """Knights, Cavalry and Light cavalry: they move in a battle's mounted movement."""
        return self in _MOUNTED

    @property
    def is_line(self) -> bool:
        """Line infantry (Pikemen, Spearmen, Swordsmen, Halberdiers): they form double lines."""
        return self in _LINE

    @property
    def is_archer(self) -> bool:
        """Archers and Light cavalry: they give archer support."""
        return self in _ARCHERS

    @classmethod
    def parse(cls, text: str) -> TroopType:
        """The type named ``text`` (its label or enum name, any case)."""
        if not isinstance(text, str):
            raise OrdonnanceTypeError(f"a troop type is named by a str, got {shown(text)}")
        key = text.strip().upper().replace(" ", "_")
        try:
            return cls[key]
        except KeyError:
            raise InvalidCardError(f"unknown troop type {shown(text)}") from None

    def __repr__(self) -> str:
        return f"TroopType.{self.name}"


_LABELS = tuple(kind.name.replace("_", " ").capitalize() for kind in TroopType)
_MOUNTED = frozenset({TroopType.KNIGHTS, TroopType.CAVALRY, TroopType.LIGHT_CAVALRY})
_LINE = frozenset({TroopType.PIKEMEN, TroopType.SPEARMEN, TroopType.SWORDSMEN, TroopType.HALBERDIERS})
_ARCHERS = frozenset({TroopType.ARCHERS, TroopType.LIGHT_CAVALRY})


def _to_type(value: TroopType | str | None) -> TroopType | None:
    if value is None or type(value) is TroopType:
        return value
    if isinstance(value, str):
        return TroopType.parse(value)
    if is_integer(value) and 0 <= integer(value, "a card's type") < len(TroopType):
        return TroopType(integer(value, "a card's type"))
    raise InvalidCardError(f"a card's type is a TroopType, its name, or None for a Battle card, got {shown(value)}")


def _to_advantages(value: Iterable[TroopType | str] | None) -> frozenset[TroopType] | None:
    if value is None:
        return None
    if isinstance(value, str):
        raise OrdonnanceTypeError(f"advantages are a collection of troop types, not a str: {shown(value)}")
    types = set()
    for item in bounded(value, "advantages", len(TroopType), error=InvalidCardError):
        parsed = _to_type(item)
        if parsed is None:
            raise InvalidCardError(f"an advantage is a troop type, got {shown(item)}")
        types.add(parsed)
    return frozenset(types)


def _to_strength(value: object) -> int:
    return integer(value, "a card's strength")


def _check_strength(instance: Card, _attribute: object, value: int) -> None:
    if instance.type is None:
        if value != 0 or instance.advantages is not None:
            raise InvalidCardError(f"a Battle card has no strength or advantages, got strength {shown(value)}")
    elif not 1 <= value <= MAX_STRENGTH:
        raise InvalidCardError(f"a troop card's strength is 1..{MAX_STRENGTH}, got {shown(value)}")


@attrs.frozen(repr=False, order=False)
class Card:
    """A card: a troop of a ``type`` and a ``strength``, or a Battle card (``type`` None).

    ``advantages`` is None for a card that uses the rules' table for its type,
    or the exact set of types this card fights better (a per-card table).

    >>> from ordonnance.black_prince import BATTLE, Card, TroopType
    >>> Card("Pikemen", 3), Card(TroopType.ARCHERS, 1, advantages=["Knights"])
    (Card(TroopType.PIKEMEN, 3), Card(TroopType.ARCHERS, 1, advantages=[TroopType.KNIGHTS]))
    >>> BATTLE.is_battle, str(BATTLE)
    (True, 'Battle')
    """

    type: TroopType | None = attrs.field(converter=_to_type)
    """The troop type, or None for a Battle card."""
    strength: int = attrs.field(default=0, converter=_to_strength, validator=_check_strength)
    """1..3 on the printed cards (0 for a Battle card)."""
    advantages: frozenset[TroopType] | None = attrs.field(default=None, converter=_to_advantages, kw_only=True)
    """This card's own advantage set, or None to use :attr:`Rules.advantages` for its type."""

    @property
    def is_battle(self) -> bool:
        """Whether this is a Battle card (never placed; discarded to start a battle)."""
        return self.type is None

    @property
    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        """The key of the canonical order (Battle cards first, then by type, strength and advantages)."""
        kind = -1 if self.type is None else int(self.type)
        advantages = (-1,) if self.advantages is None else tuple(sorted(int(t) for t in self.advantages))
        return (kind, self.strength, advantages)

    def __repr__(self) -> str:
        if self.type is None:
            return "BATTLE"
        extra = ""
        if self.advantages is not None:
            extra = f", advantages=[{', '.join(map(repr, sorted(self.advantages)))}]"
        return f"Card({self.type!r}, {self.strength}{extra})"

    def __str__(self) -> str:
        return "Battle" if self.type is None else f"{self.type.label} {self.strength}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written as :func:`str` writes it: ``"Battle"`` or ``"Light cavalry 1"``.

        A per-card advantage set is not part of the text (see the JSON format).
        """
        if not isinstance(text, str):
            raise OrdonnanceTypeError(f"a card text is a str, got {shown(text)}")
        if text.strip().lower() == "battle":
            return BATTLE
        name, _, strength = text.strip().rpartition(" ")
        # ASCII digits only: str.isdigit() also passes "³", which int() refuses; a short number
        # only, so that int() never meets a 5,000-digit one
        if not name or not (strength.isascii() and strength.isdigit() and len(strength) <= 3):
            raise InvalidCardError(f"a card text is 'Battle' or '<type> <strength>', got {shown(text)}")
        return cls(TroopType.parse(name), int(strength))


#: The Battle card.
BATTLE = Card(None)

_T = TroopType
#: The four printed decks, troops as (type, strength, copies), exactly as the rules list them.
_LISTS: dict[str, tuple[tuple[TroopType, int, int], ...]] = {
    "Scottish": (
        (_T.KNIGHTS, 2, 1), (_T.KNIGHTS, 1, 2), (_T.PIKEMEN, 3, 3), (_T.PIKEMEN, 2, 6),
        (_T.SWORDSMEN, 3, 2), (_T.SWORDSMEN, 2, 1), (_T.ARCHERS, 2, 1), (_T.ARCHERS, 1, 5),
    ),
    "Burgundian": (
        (_T.KNIGHTS, 3, 4), (_T.KNIGHTS, 2, 2), (_T.CAVALRY, 2, 1), (_T.LIGHT_CAVALRY, 1, 2),
        (_T.SWORDSMEN, 2, 2), (_T.SWORDSMEN, 1, 2), (_T.HALBERDIERS, 1, 2), (_T.PIKEMEN, 1, 2),
        (_T.ARCHERS, 3, 2), (_T.ARCHERS, 2, 2),
    ),
    "English": (
        (_T.KNIGHTS, 2, 2), (_T.SWORDSMEN, 2, 1), (_T.SWORDSMEN, 1, 2), (_T.ARCHERS, 3, 6),
        (_T.ARCHERS, 2, 2), (_T.ARCHERS, 1, 2), (_T.HALBERDIERS, 2, 2), (_T.HALBERDIERS, 1, 2),
        (_T.SPEARMEN, 1, 1), (_T.CAVALRY, 1, 1),
    ),
    "French": (
        (_T.KNIGHTS, 3, 4), (_T.KNIGHTS, 2, 2), (_T.KNIGHTS, 1, 1), (_T.SWORDSMEN, 2, 2),
        (_T.SWORDSMEN, 1, 1), (_T.HALBERDIERS, 2, 2), (_T.HALBERDIERS, 1, 1), (_T.ARCHERS, 2, 4),
        (_T.ARCHERS, 1, 3), (_T.CAVALRY, 2, 1),
    ),
}  # fmt: skip
#: Battle cards in every printed deck.
BATTLE_CARDS = 4
#: The army names, in the order of the rules' components list.
ARMIES: tuple[str, ...] = ("French", "English", "Burgundian", "Scottish")


def deck(army: str) -> tuple[Card, ...]:
    """The 25 cards of ``army`` (``"French"``, ``"English"``, ``"Burgundian"`` or
    ``"Scottish"``): its troops in the order the rules list them, then 4 Battle cards."""
    if not isinstance(army, str):
        raise OrdonnanceTypeError(f"an army is named by a str, got {shown(army)}")
    name = army.strip().capitalize()
    if name not in _LISTS:
        raise InvalidDeckError(f"unknown army {shown(army)}; the armies are {', '.join(ARMIES)}")
    troops = tuple(Card(kind, strength) for kind, strength, copies in _LISTS[name] for _ in range(copies))
    return troops + (BATTLE,) * BATTLE_CARDS


#: The JSON Schema of a card as saves, views and actions write it: its text
#: (``str(card)``), or ``[text, advantage labels]`` for a card with its own advantage set.
CARD_SCHEMA: dict[str, object] = {
    "oneOf": [
        {"type": "string", "pattern": f"^(Battle|({'|'.join(_LABELS)}) [1-{MAX_STRENGTH}])$"},
        {
            "type": "array",
            "prefixItems": [
                {"type": "string", "pattern": f"^({'|'.join(_LABELS)}) [1-{MAX_STRENGTH}]$"},
                {"type": "array", "items": {"enum": list(_LABELS)}, "uniqueItems": True},
            ],
            "minItems": 2,
            "maxItems": 2,
        },
    ]
}
