"""Clans and troop cards of Shinobi: War of Clans (:ref:`shinobi-rules-components`).

A troop card is a samurai of one of the five clans or a ninja. Inside the
engine a card is a small integer *code*: the clan 0..4 for a samurai,
:data:`NINJA` (5) for a ninja.

>>> from ordonnance.shinobi import Card, CLAN_NAMES
>>> Card(2), Card(None), Card(2).name
(Card(2), Card(None), 'Oda')
>>> Card.parse("oda") == Card(2), str(Card.parse("ninja"))
(True, 'Ninja')
"""

from __future__ import annotations

import attrs

from ordonnance.core import checks
from ordonnance.errors import InvalidCardError, OrdonnanceTypeError

__all__ = ["Card", "CLAN_NAMES", "CLANS", "NINJA", "CODES", "clan_name", "to_clan"]

#: The clans, by index 0..4.
CLAN_NAMES = ("Go-Hojo", "Mori", "Oda", "Takeda", "Uesugi")
#: Number of clans.
CLANS = len(CLAN_NAMES)
#: The code of a ninja card (samurai cards have their clan as code).
NINJA = CLANS
#: Number of card codes (5 clans and the ninja).
CODES = CLANS + 1


def to_clan(value: object, what: str = "a clan") -> int:
    """A clan index 0..4 from an int (NumPy ints too) or a clan name (any case, NumPy strings too)."""
    if type(value) is int and 0 <= value < CLANS:  # the engine's own calls: checked at once
        return value
    if isinstance(value, str):
        for clan, name in enumerate(CLAN_NAMES):
            if value.strip().lower() in (name.lower(), name.lower().replace("-", "")):
                return clan
        raise InvalidCardError(f"{what} must be one of {', '.join(CLAN_NAMES)} or 0..4, got {checks.shown(value)}")
    if not checks.is_integer(value):
        raise OrdonnanceTypeError(f"{what} is an int 0..4 or a clan name, not {type(value).__name__}: {checks.shown(value)}")
    return checks.integer(value, what, low=0, high=CLANS - 1, error=InvalidCardError)


def clan_name(clan: int) -> str:
    """The name of clan ``clan`` (0..4)."""
    return CLAN_NAMES[to_clan(clan)]


def _to_card_clan(value: object) -> int | None:
    return None if value is None else to_clan(value, "a card's clan")


@attrs.frozen(repr=False)
class Card:
    """A troop card: a samurai of ``clan`` (0..4), or a ninja (``clan`` is None)."""

    clan: int | None = attrs.field(converter=_to_card_clan)
    """The samurai's clan 0..4, or None for a ninja."""

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card of engine code ``code`` (0..4 a samurai, 5 a ninja; NumPy ints too); another
        value raises :class:`~ordonnance.errors.InvalidCardError` (a ValueError) or, when it
        is no int, :class:`~ordonnance.errors.OrdonnanceTypeError`."""
        return _BY_CODE[checks.integer(code, "a card code", low=0, high=CODES - 1, error=InvalidCardError)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from its name: a clan name (``"Oda"``) or ``"ninja"``, any case."""
        if not isinstance(text, str):
            raise OrdonnanceTypeError(f"a card text is a str, got {checks.shown(text)}")
        if text.strip().lower() == "ninja":
            return _BY_CODE[NINJA]
        return _BY_CODE[to_clan(text, "a card")]

    @property
    def code(self) -> int:
        """The engine code: the clan for a samurai, :data:`NINJA` for a ninja."""
        return NINJA if self.clan is None else self.clan

    @property
    def is_ninja(self) -> bool:
        """Whether this is a ninja card."""
        return self.clan is None

    @property
    def name(self) -> str:
        """The clan's name, or ``"Ninja"``."""
        return "Ninja" if self.clan is None else CLAN_NAMES[self.clan]

    def __repr__(self) -> str:
        return f"Card({self.clan!r})"

    def __str__(self) -> str:
        return self.name


_BY_CODE = tuple(Card(None if code == NINJA else code) for code in range(CODES))
