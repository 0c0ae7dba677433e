"""What every game's bots share: the bot protocol, seeding and the legal-action check.

A bot is anything with ``choose(view) -> action``; it sees one seat's view only.
The built-in bots of every game derive from :class:`SeededBot`: a SplitMix64
stream (the generator the kernels use too), so that a seeded bot replays exactly
and the simulators can play it as its kernel twin.

>>> from ordonnance.core.bots import SeededBot
>>> a, b = SeededBot(seed=3), SeededBot(seed=3)
>>> [a.pick(10) for _ in range(5)] == [b.pick(10) for _ in range(5)]
True
>>> a
bots.SeededBot(seed=3)
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from ordonnance.core.rng import bounded, splitmix64
from ordonnance.errors import IllegalActionError, OrdonnanceTypeError

__all__ = ["Bot", "SeededBot", "UniformRandom", "legal", "seeded_copies"]

_MASK64 = (1 << 64) - 1


@runtime_checkable
class Bot(Protocol):
    """The bot protocol of every game: pick one of ``view.legal_actions``."""

    def choose(self, view: Any) -> Any:
        """Return one of ``view.legal_actions``."""
        ...


def legal(view: object) -> tuple[Any, ...]:
    """``view.legal_actions``, checked: a view of some game (duck-typed) with at least one action."""
    actions = getattr(view, "legal_actions", None)
    if not isinstance(actions, tuple):
        raise OrdonnanceTypeError(f"a bot chooses from a PlayerView (game.view(seat)), not {type(view).__name__}: {view!r}")
    if not actions:
        raise IllegalActionError(None, f"seat {getattr(view, 'seat', '?')} has no legal action in this view")
    return actions


def check_bot_seed(seed: object) -> int:
    """A bot's seed: drawn at random when None, else an int in 0..2**64-1."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
        raise OrdonnanceTypeError(f"a bot seed is an int in 0..2**64-1 or None, got {seed!r}")
    return seed


class SeededBot:
    """Shared seeding: a SplitMix64 stream, the generator the simulators use too.

    ``repr`` names the bot by its game's module (``bots.Greedy(seed=1)``,
    ``shinobi.bots.Greedy(seed=1)``) through the class attribute :attr:`prefix`.
    """

    #: What ``repr`` puts before the class name (each game's bots set their module's path).
    prefix = "bots."

    def __init__(self, seed: int | None = None) -> None:
        self.seed: int = check_bot_seed(seed)
        """The seed the bot was created with (drawn at random when None was given)."""
        self._state = self.seed

    def pick(self, n: int) -> int:
        """The next draw of the bot's stream, mapped to 0..n-1."""
        self._state, value = splitmix64(self._state)
        return bounded(value, n)

    _pick = pick  # the name the bots' code has used

    def reseeded(self, seed: int) -> SeededBot:
        """A copy of this bot whose stream starts at ``seed`` (the seed of one seat in one game)."""
        fresh = copy.copy(self)
        fresh._state = int(seed)
        return fresh

    def __repr__(self) -> str:
        return f"{self.prefix}{type(self).__name__}(seed={self.seed})"


class UniformRandom(SeededBot):
    """Takes a uniformly random legal action: one output of its stream per decision,
    mapped onto ``view.legal_actions`` in the game's order (the kernels' twin does the same)."""

    def choose(self, view: Any) -> Any:
        """A uniformly random element of ``view.legal_actions``."""
        actions = legal(view)
        return actions[self.pick(len(actions))]


_B = TypeVar("_B")


def seeded_copies(bots: Sequence[_B], seeds: Sequence[int]) -> list[_B]:
    """The bots of one game: a fresh copy of each built-in bot (of any game) seeded with
    its seat's seed there, every other bot as it is."""
    return [bot.reseeded(seed) if isinstance(bot, SeededBot) else bot for bot, seed in zip(bots, seeds)]  # type: ignore[misc]
