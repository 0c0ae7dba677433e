"""The exceptions ordonnance raises.

Every error is a :class:`ValueError` or :class:`TypeError` subclass, so callers
that only know the standard exceptions can still catch them, and every message
shows the offending value with ``repr``.
"""

from __future__ import annotations

__all__ = [
    "OrdonnanceError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidArmyError",
    "InvalidKeyError",
    "OrdonnanceTypeError",
    "InvalidTerritoryError",
    "InvalidRulesError",
    "InvalidSeatError",
    "InvalidSeedError",
    "IllegalActionError",
    "InvalidGameStateError",
]


class OrdonnanceError(Exception):
    """Base class of every exception raised deliberately by ordonnance."""


class InvalidCardError(OrdonnanceError, ValueError):
    """A card could not be built: unknown or repeated letter, empty card, bad mask."""


class InvalidDeckError(OrdonnanceError, ValueError):
    """A deck is not a valid multiset of cards for the requested use."""


class InvalidArmyError(OrdonnanceError, ValueError):
    """An army has too many cards, or a batch of armies has the wrong shape or range."""


class InvalidKeyError(OrdonnanceError, ValueError):
    """An integer is not a key that :func:`ordonnance.army_key` can produce."""


class OrdonnanceTypeError(OrdonnanceError, TypeError):
    """An argument has a type that the function does not accept."""


class InvalidTerritoryError(OrdonnanceError, ValueError):
    """A territory number is outside 0..4."""


class InvalidRulesError(OrdonnanceError, ValueError):
    """A :class:`~ordonnance.Rules` was asked for an impossible combination."""


class InvalidSeatError(OrdonnanceError, ValueError):
    """A seat number is not one of the game's players."""


class InvalidSeedError(OrdonnanceError, ValueError):
    """A seed is outside 0..2**64-1."""


class IllegalActionError(OrdonnanceError, ValueError):
    """An action is not legal in the current position; the game is left unchanged.

    ``action`` is the refused action and ``reason`` says why in words.
    """

    def __init__(self, action: object, reason: str) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class InvalidGameStateError(OrdonnanceError, ValueError):
    """Serialised game state (JSON) is malformed or inconsistent."""
