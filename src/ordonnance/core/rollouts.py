"""What every game's Monte-Carlo bot shares: its options, their checks, their defaults, its repr.

Each game's ``MonteCarlo`` (:class:`ordonnance.bots.MonteCarlo`,
:class:`ordonnance.shinobi.bots.MonteCarlo`,
:class:`ordonnance.black_prince.MonteCarlo`) is a :class:`RolloutBot`: a
:class:`~ordonnance.core.bots.SearchBot` (seed, ``time_limit``, warm-up) that
plays each legal action out many times in its game's kernel, every seat played
by a kernel bot (``rollout_policy``), and values a rollout by its outcome plus
``margin_weight`` times the final margin. Its fixed budgets are ``rollouts``
(in total per decision) and ``work`` (a bound on the rollouts' own work, each
game's module says what it counts). The game gives its limits and defaults as
class attributes and its search as ``_search``.

>>> from ordonnance import shinobi
>>> shinobi.bots.MonteCarlo(seed=1, rollouts=64, margin_weight=0.2)
shinobi.bots.MonteCarlo(seed=1, rollouts=64, margin_weight=0.2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ordonnance.core.bots import SearchBot, legal
from ordonnance.core.clock import HalvingClock
from ordonnance.core.rng import splitmix64
from ordonnance.errors import InvalidRulesError, OrdonnanceError
from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = ["RolloutBot", "WorkShare", "check_rollout_options"]


def check_rollout_options(
    rollout_policy: object,
    margin_weight: object,
    policies: tuple[str, ...] = ("greedy", "random"),
    margin_error: type[OrdonnanceError] = InvalidRulesError,
) -> None:
    """Raise :class:`~ordonnance.errors.InvalidRulesError` unless the rollout policy is one of
    ``policies``, and ``margin_error`` unless the margin weight is a number in 0..1."""
    if not isinstance(rollout_policy, str) or rollout_policy not in policies:
        named = ", ".join(repr(p) for p in policies[:-1]) + f" or {policies[-1]!r}"
        raise InvalidRulesError(f"rollout_policy must be {named}, got {shown(rollout_policy)}")
    if not checks.is_real(margin_weight) or not 0 <= margin_weight <= 1:
        raise margin_error(f"margin_weight must be a number in 0..1, got {shown(margin_weight)}")


class RolloutBot(SearchBot):
    """A game's Monte-Carlo bot: the options every game's ``MonteCarlo`` takes, checked, and its repr.

    ``rollouts`` and ``work`` are the fixed budgets of a decision (ints in
    ``1..ROLLOUT_LIMIT`` and ``1..WORK_LIMIT``); one left out is the game's
    default (``UNTIMED_ROLLOUTS``, ``UNTIMED_WORK``) without a time limit and
    its limit under one, so that the time decides; a game whose default is
    None keeps None (its search works the budget out). ``time_limit`` is
    :class:`~ordonnance.core.bots.SearchBot`'s. ``rollout_policy`` is the
    kernel bot of every seat in the rollouts (``"greedy"`` or ``"random"``)
    and ``margin_weight`` (0..1) the weight of the final margin in a
    rollout's value. ``repr`` lists the options that differ from their
    defaults, in the order of the constructor.
    """

    #: The most ``rollouts`` and ``work`` a decision may be given.
    ROLLOUT_LIMIT: ClassVar[int]
    WORK_LIMIT: ClassVar[int]
    #: Their values when left out without a time limit (None: left None, for the game's search to decide).
    UNTIMED_ROLLOUTS: ClassVar[int | None]
    UNTIMED_WORK: ClassVar[int | None]
    #: The default ``margin_weight``.
    DEFAULT_MARGIN_WEIGHT: ClassVar[float]
    #: The game's message for a budget out of range (``name``, ``limit``, and ``value`` as :func:`~ordonnance.errors.shown` shows it).
    BUDGET_ERROR: ClassVar[str] = "{name} must be an int in 1..{limit:,}, got {value}"
    #: The error of a bad ``margin_weight``.
    MARGIN_ERROR: ClassVar[type[OrdonnanceError]] = InvalidRulesError
    #: The game's own options and their defaults, listed by ``repr`` after the budgets
    #: (``BUDGET_OPTIONS``) and after ``margin_weight`` (``SEARCH_OPTIONS``).
    BUDGET_OPTIONS: ClassVar[tuple[tuple[str, Any], ...]] = ()
    SEARCH_OPTIONS: ClassVar[tuple[tuple[str, Any], ...]] = ()

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int | None = None,
        work: int | None = None,
        time_limit: float | None = None,
        rollout_policy: str = "greedy",
        margin_weight: float | None = None,
    ) -> None:
        super().__init__(seed, time_limit=time_limit)
        for name, value, limit in (("rollouts", rollouts, self.ROLLOUT_LIMIT), ("work", work, self.WORK_LIMIT)):
            if value is not None:
                self.check_budget(name, value, limit)
        margin_weight = self.DEFAULT_MARGIN_WEIGHT if margin_weight is None else margin_weight
        check_rollout_options(rollout_policy, margin_weight, margin_error=self.MARGIN_ERROR)
        self.rollouts: Any = self._left_out(self.UNTIMED_ROLLOUTS, self.ROLLOUT_LIMIT) if rollouts is None else int(rollouts)
        """The most rollouts of a decision, in total."""
        self.work: Any = self._left_out(self.UNTIMED_WORK, self.WORK_LIMIT) if work is None else int(work)
        """The most work of one decision (the game's module says what it counts): a bound on its time."""
        self.rollout_policy = str(rollout_policy)
        """The kernel bot of every seat in the rollouts."""
        self.margin_weight = float(margin_weight)
        """The weight of the final margin in a rollout's value."""

    @classmethod
    def check_budget(cls, name: str, value: object, limit: int) -> None:
        """Raise :class:`~ordonnance.errors.InvalidRulesError` unless ``value`` is an int in ``1..limit``."""
        if not checks.is_integer(value) or not 1 <= value <= limit:
            raise InvalidRulesError(cls.BUDGET_ERROR.format(name=name, value=shown(value), limit=limit))

    def _left_out(self, default: int | None, limit: int) -> int | None:
        """A budget left out: ``default`` (None stays None), or ``limit`` under a time limit."""
        if default is None:
            return None
        return limit if self.time_limit is not None else default

    def __repr__(self) -> str:
        defaults = (("rollouts", self._left_out(self.UNTIMED_ROLLOUTS, self.ROLLOUT_LIMIT)),
                    ("work", self._left_out(self.UNTIMED_WORK, self.WORK_LIMIT)), *self.BUDGET_OPTIONS,
                    ("time_limit", None), ("rollout_policy", "greedy"), ("margin_weight", self.DEFAULT_MARGIN_WEIGHT),
                    *self.SEARCH_OPTIONS)  # fmt: skip
        parts = [f"seed={self.seed}"]
        for name, default in defaults:
            value = getattr(self, name)
            if value != default:
                parts.append(f"{name}={value!r}")
        return f"{self.prefix}{type(self).__name__}({', '.join(parts)})"

    def choose(self, view: Any) -> Any:
        """The action with the best mean rollout value (see the game's ``MonteCarlo``)."""
        actions = legal(view, self.view_type)
        self._state, seed = splitmix64(self._state)
        if len(actions) == 1:
            return actions[0]
        clock = self._clock(view)
        return actions[self._halving(view, actions, seed, self.rollouts, self.work, clock)]

    def _halving(self, view: Any, actions: tuple[Any, ...], seed: int, budget: int, work_left: int,
                 clock: HalvingClock) -> int:  # fmt: skip
        """The index in ``actions`` of the action the game's sequential halving keeps, with
        ``budget`` rollouts and ``work_left`` work in all, timed by ``clock`` (a game that
        overrides :meth:`choose` and :meth:`_rehearse` need not give it)."""
        raise NotImplementedError

    def _rehearse(self, view: Any) -> None:
        self._halving(view, legal(view, self.view_type), 0, 1, 1, HalvingClock(None))


class WorkShare:
    """One round of sequential halving under a work bound, played in the chunks the clock asks
    for (:meth:`HalvingClock.run_round <ordonnance.core.clock.HalvingClock.run_round>`).

    ``run(first, stop, max_work)`` plays rollout indices ``first .. stop - 1`` of every
    action left, stopping after the first index whose work reaches ``max_work``, and
    returns the next index and the work it spent. The round stops after the first rollout
    index whose work reaches ``share``, whichever chunk that falls in, so a round in
    chunks plays exactly the rollouts of the same round in one call.
    """

    def __init__(self, share: int, run: Callable[[int, int, int], tuple[int, int]]) -> None:
        self.share = share
        """The work the round may spend."""
        self.used = 0
        """The work spent so far."""
        self._run = run

    def play(self, first: int, count: int) -> int:
        """Play up to ``count`` rollout indices from ``first``; return how many were played."""
        if first and self.used >= self.share:  # spent by the last rollout index of an earlier chunk
            return 0
        with np.errstate(over="ignore"):
            end, spent = self._run(first, first + count, self.share - self.used)
        self.used += int(spent)
        return int(end) - first
