"""The five territories, in table order.

>>> from ordonnance import Territory
>>> Territory.parse("cyprus"), Territory.parse("Jer")
(Territory.CYPRUS, Territory.JERUSALEM)
"""

from __future__ import annotations

import enum

from ordonnance.errors import InvalidTerritoryError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = ["Territory", "TERRITORY_COUNT"]


class Territory(enum.IntEnum):
    """A territory, numbered 0..4 in table order."""

    ANTIOCH = 0
    CYPRUS = 1
    JERUSALEM = 2
    EDESSA = 3
    TRIPOLI = 4

    @classmethod
    def _missing_(cls, value: object) -> Territory:
        raise InvalidTerritoryError(f"a territory number must be in 0..4, got {shown(value)}")

    @classmethod
    def parse(cls, text: str) -> Territory:
        """The territory named ``text``: its name in any case, or the start of it
        that names no other (``"cyprus"``, ``"CYP"``, ``"e"``).

        Raises :class:`~ordonnance.errors.InvalidTerritoryError` for a text that
        names no territory, or more than one (``""``), and
        :class:`~ordonnance.errors.OrdonnanceTypeError` for anything but a str.
        """
        if not isinstance(text, str):
            raise OrdonnanceTypeError(f"a territory name is a str, not {type(text).__name__}: {shown(text)}")
        lowered = text.lower()
        found = [t for t in cls if t.name.lower().startswith(lowered)] if lowered.isascii() else []
        if len(found) != 1:
            names = ", ".join(t.name.lower() for t in cls)
            raise InvalidTerritoryError(f"no territory is called {shown(text):.40} (one of {names}, or the start of one)")
        return found[0]

    @property
    def label(self) -> str:
        """The name as a person reads it, e.g. ``"Cyprus"``."""
        return self.name.capitalize()

    def __repr__(self) -> str:
        return f"Territory.{self.name}"


#: How many territories a game has.
TERRITORY_COUNT = len(Territory)
