"""The five territories, in table order."""

from __future__ import annotations

import enum

from ordonnance.errors import InvalidTerritoryError

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
        raise InvalidTerritoryError(f"a territory number must be in 0..4, got {value!r}")

    @property
    def label(self) -> str:
        """The name as a person reads it, e.g. ``"Cyprus"``."""
        return self.name.capitalize()

    def __repr__(self) -> str:
        return f"Territory.{self.name}"


#: How many territories a game has.
TERRITORY_COUNT = len(Territory)
