"""The exceptions ordonnance raises.

Every error is a :class:`ValueError` or :class:`TypeError` subclass, so callers
that only know the standard exceptions can still catch them, and every message
shows the offending value with ``repr``. Every error pickles and unpickles to
an equal error (same message, arguments and attributes), so an error raised in
a worker process of a tournament reaches the caller intact.

>>> import pickle
>>> from ordonnance.actions import Pass
>>> error = pickle.loads(pickle.dumps(IllegalActionError(Pass(), "why")))
>>> error.action, error.reason, str(error)
(Pass(), 'why', 'illegal action Pass(): why')
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
    "BotError",
    "InvalidArgumentError",
]


#: Longest ``repr`` a message shows in full; longer ones are cut in the middle.
SHOWN_LENGTH = 200


def shown(value: object) -> str:
    """How an error message shows a value: ``repr(value)``, cut in the middle when it is
    longer than :data:`SHOWN_LENGTH` (a megabyte string must not flood a message), an int
    too long for ``repr`` by its size, a value whose ``repr`` fails by its type.

    >>> shown("x" * 1000)[:12], len(shown("x" * 1000)) < 250
    ("'xxxxxxxxxxx", True)
    """
    if isinstance(value, int) and value.bit_length() > 1000:  # repr would refuse past 4,300 digits
        text = f"<int of {value.bit_length()} bits>"
    else:
        try:
            text = repr(value)
        except Exception as error:  # a broken __repr__ must not hide the real error
            text = f"<{type(value).__name__} whose repr raised {type(error).__name__}>"
    if len(text) <= SHOWN_LENGTH:
        return text
    half = SHOWN_LENGTH // 2
    return f"{text[:half]}...({len(text) - SHOWN_LENGTH} characters)...{text[-half:]}"


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
        super().__init__(f"illegal action {shown(action)}: {reason}")
        self.action = action
        """The refused action (None when no action could be chosen at all)."""
        self.reason = reason
        """Why it was refused, in words."""

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[object, str]]:
        return (type(self), (self.action, self.reason))


class InvalidArgumentError(OrdonnanceError, ValueError):
    """An argument has an acceptable type but a value the function cannot take
    (a size out of range, a name that cannot be written, a reward that is NaN)."""


class InvalidGameStateError(OrdonnanceError, ValueError):
    """Serialised game state (JSON) is malformed or inconsistent."""


class BotError(OrdonnanceError, ValueError):
    """A bot failed during a game of a tournament: it raised an error, chose an
    illegal action, or took longer than the time limit to decide.

    The message names the bot, its seat, the game and the deal's seed, so the
    game can be replayed (``Game.new(rules, seed=deal_seed)``); ``reason``
    holds the bot's own error message.
    """

    def __init__(self, name: str, seat: int, game: int, deal_seed: int, reason: str) -> None:
        super().__init__(f"bot {name!r} (seat {seat}) failed in game {game} (deal seed {deal_seed}): {reason}")
        self.name = name
        """The bot's name in the tournament."""
        self.seat = seat
        """The seat it played."""
        self.game = game
        """The game's number within its seating (0 is the first deal)."""
        self.deal_seed = deal_seed
        """The seed of that game's shuffle."""
        self.reason = reason
        """What went wrong, in words."""

    def __reduce__(self) -> tuple[type[BotError], tuple[str, int, int, int, str]]:
        return (type(self), (self.name, self.seat, self.game, self.deal_seed, self.reason))
