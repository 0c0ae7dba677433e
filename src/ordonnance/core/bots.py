"""What every game's bots share: the bot protocol, seeding, the legal-action check and the search bots' clock.

A bot is anything with ``choose(view) -> action``; it sees one seat's view only.
The built-in bots of every game derive from :class:`SeededBot`: a SplitMix64
stream (the generator the kernels use too), so that a seeded bot replays exactly
and the simulators can play it as its kernel twin. The search bots (every game's
``MonteCarlo``, Ordonnance's ``ISMCTS``) derive from :class:`SearchBot`, which
adds one way to limit a decision's time (``time_limit=``) for every game.

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
import warnings
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from ordonnance.core.clock import HalvingClock, check_time_limit
from ordonnance.core.rng import bounded, splitmix64
from ordonnance.errors import IllegalActionError, InvalidSeedError, OrdonnanceTypeError
import numpy as np

from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = ["Bot", "GameBot", "SeededBot", "SearchBot", "UniformRandom", "legal", "seeded_copies"]

_MASK64 = (1 << 64) - 1


_V = TypeVar("_V", contravariant=True)
_A = TypeVar("_A", covariant=True)


@runtime_checkable
class GameBot(Protocol[_V, _A]):
    """The bot protocol typed by a game's view and action types: ``choose(view)`` picks one of
    ``view.legal_actions``. Each game's ``Bot`` is this protocol for its ``PlayerView`` and
    ``Action`` (``class Bot(GameBot[PlayerView, Action], Protocol)``)."""

    def choose(self, view: _V) -> _A:
        """Return one of ``view.legal_actions``."""
        ...


@runtime_checkable
class Bot(GameBot[Any, Any], Protocol):
    """The bot protocol of every game: ``choose(view)`` picks one of ``view.legal_actions``."""


def has_choose(bot: object) -> bool:
    """Whether ``bot`` looks like a bot: a ``choose`` method (NumPy scalars and arrays have an
    unrelated one, so they are not bots)."""
    return not isinstance(bot, (np.generic, np.ndarray)) and callable(getattr(bot, "choose", None))


def legal(view: object, view_type: type | None = None) -> tuple[Any, ...]:
    """``view.legal_actions``, checked: a ``view_type`` (a game's ``PlayerView``; when None, a
    view of any game, duck-typed) with at least one action. Else the library's error:
    :class:`~ordonnance.errors.OrdonnanceTypeError` for anything but such a view,
    :class:`~ordonnance.errors.IllegalActionError` when its seat has no action."""
    actions = getattr(view, "legal_actions", None)
    if view_type is not None and not isinstance(view, view_type):
        raise OrdonnanceTypeError(
            f"this bot chooses from a {view_type.__module__}.{view_type.__qualname__} (game.view(seat)), "
            f"not {type(view).__module__}.{type(view).__qualname__}: {shown(view)}"
        )
    if not isinstance(actions, tuple):
        raise OrdonnanceTypeError(f"a bot chooses from a PlayerView (game.view(seat)), not {type(view).__name__}: {shown(view)}")
    if not actions:
        raise IllegalActionError(None, f"seat {getattr(view, 'seat', '?')} has no legal action in this view")
    return actions


def check_bot_seed(seed: object) -> int:
    """A bot's seed: drawn at random when None, else an int in 0..2**64-1."""
    if seed is None:
        return secrets.randbits(64)
    if not checks.is_integer(seed) or not 0 <= seed <= _MASK64:
        raise OrdonnanceTypeError(f"a bot seed is an int in 0..2**64-1 or None, got {shown(seed)}")
    return int(seed)


class SeededBot:
    """Shared seeding: a SplitMix64 stream, the generator the simulators use too.

    ``repr`` names the bot by its game's module (``bots.Greedy(seed=1)``,
    ``shinobi.bots.Greedy(seed=1)``) through the class attribute :attr:`prefix`.
    """

    #: What ``repr`` puts before the class name (each game's bots set their module's path).
    prefix = "bots."
    #: The views the bot chooses from (each game's bots set their game's ``PlayerView``;
    #: None: a view of any game).
    view_type: ClassVar[type | None] = None

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
        state = checks.integer(seed, "seed", low=0, high=_MASK64, error=InvalidSeedError)
        fresh = copy.copy(self)
        fresh._state = state
        return fresh

    def __repr__(self) -> str:
        return f"{self.prefix}{type(self).__name__}(seed={self.seed})"


class UniformRandom(SeededBot):
    """Takes a uniformly random legal action: one output of its stream per decision,
    mapped onto ``view.legal_actions`` in the game's order (the kernels' twin does the same)."""

    def choose(self, view: Any) -> Any:
        """A uniformly random element of ``view.legal_actions``."""
        actions = legal(view, self.view_type)
        return actions[self.pick(len(actions))]


#: The search bots warmed up in this process: (bot class, what its kernels' types depend on).
_WARM: set[tuple[type, Hashable]] = set()


class SearchBot(SeededBot):
    """What the search bots of every game share: a seed, a time limit per decision, a warm-up.

    A search bot's decision is bounded by a fixed budget (``rollouts=`` and ``work=``
    for ``MonteCarlo``, ``iterations=`` for ``ISMCTS``, each game's module says what
    they count) and by ``time_limit=`` (seconds, None: none). They are limits, as a
    chess engine's are: the search stops at the first one it reaches. A fixed budget
    left out takes its default when there is no time limit, and does not apply under
    one (the time alone decides); a fixed budget is reproducible (the same seed and
    views give the same actions on every machine), a time limit is not, unless a
    fixed budget always ends the search first.

    ``time_limit`` covers the whole decision: the translation of the view into the
    kernel's arrays as well as the search, whose rounds of sequential halving share
    it out (:class:`~ordonnance.core.clock.HalvingClock`). It leaves out one thing,
    the first decision's compile: numba compiles a kernel (or loads it from its disk
    cache, about half a second) the first time a process runs it. Before starting
    the clock of a decision under a time limit the bot checks whether it has
    already searched these rules in this process and, if not, first runs one
    smallest search of the same view, untimed (:meth:`warm_up`): that first
    decision then takes the compile's time more, the others do not. Call
    :meth:`warm_up` beforehand (say, before a tournament's timed games) to keep the
    compile out of the first decision altogether.
    """

    def __init__(self, seed: int | None = None, *, time_limit: float | None = None) -> None:
        super().__init__(seed)
        self.time_limit: float | None = check_time_limit(time_limit)
        """Seconds a decision may take (None: no limit; see :class:`SearchBot`)."""

    @property
    def time_budget(self) -> float | None:
        """Deprecated: the old name of :attr:`time_limit`."""
        warnings.warn("time_budget is deprecated: use time_limit", DeprecationWarning, stacklevel=2)
        return self.time_limit

    @time_budget.setter
    def time_budget(self, value: float | None) -> None:
        warnings.warn("time_budget is deprecated: use time_limit", DeprecationWarning, stacklevel=2)
        self.time_limit = check_time_limit(value, "time_budget")

    def warm_up(self, view: Any = None) -> None:
        """Compile (or load from numba's disk cache) the kernels of this bot's search for
        ``view``'s rules, and build what they need, by searching ``view`` (None: the start
        of a game of the default rules) once with the smallest budget and no clock.

        Nothing the bot decides changes: its stream is not drawn from. It runs once per
        process for each rules (and each kind of search of the bot's options); a decision
        under a time limit calls it itself before starting its clock.
        """
        if view is None:
            view = self._example_view()
        actions = legal(view, self.view_type)  # checks the view before anything reads it
        key = (type(self), self._warm_key(view))
        if key in _WARM:
            return
        if len(actions) > 1:  # a single action is played without a search
            self._rehearse(view)
            _WARM.add(key)

    def _clock(self, view: Any) -> HalvingClock:
        """The clock of a decision in ``view``, started after a warm-up when the time is limited."""
        if self.time_limit is not None:
            self.warm_up(view)
        return HalvingClock(self.time_limit)

    def _warm_key(self, view: Any) -> Hashable:
        """What the kernels and tables of a search of ``view`` depend on (their rules)."""
        rules: Hashable = view.rules
        return rules

    def _rehearse(self, view: Any) -> None:
        """Search ``view`` once with the smallest budget, untimed, without drawing from the stream."""
        raise NotImplementedError

    def _example_view(self) -> Any:
        """A view to warm up on: the first seat to act in a game of the default rules."""
        raise NotImplementedError


_B = TypeVar("_B")


def seeded_copies(bots: Sequence[_B], seeds: Sequence[int]) -> list[_B]:
    """The bots of one game: a fresh copy of each built-in bot (of any game) seeded with
    its seat's seed there, every other bot as it is."""
    return [bot.reseeded(seed) if isinstance(bot, SeededBot) else bot for bot, seed in zip(bots, seeds)]  # type: ignore[misc]
