"""A decision's clock, for every search bot of every game: a time limit shared out by sequential halving.

Every search bot (Ordonnance's ``MonteCarlo`` and ``ISMCTS``, Shinobi's and Black
Prince's ``MonteCarlo``) chooses among the legal actions by sequential halving:
``ceil(log2(k))`` rounds for ``k`` actions, each sending the same deals through
every action still in the race and keeping the better half. Under a time limit
(``time_limit=`` seconds) one :class:`HalvingClock` times the decision: it starts
before the search translates the view into its kernel's arrays (so that setup
counts), plans to spend :data:`PLANNED_SHARE` of the limit, gives each round an
equal share of what is left, and runs a round in chunks sized by the speed
measured so far (:meth:`HalvingClock.run_round`). Without a limit a round runs
its whole budget in slices of about a tenth of a second (:func:`untimed`), the
same deals as one call would run, so a fixed budget gives the same search
whether or not a clock could have cut it, and Ctrl-C stops a search of any
budget between two slices.

>>> from ordonnance.core.clock import HalvingClock
>>> untimed = HalvingClock(None)
>>> untimed.run_round(lambda first, count: count, width=4, most=100, rounds_left=2)
100
>>> untimed.out()
False
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from collections.abc import Callable

from ordonnance.errors import InvalidRulesError
from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = ["PLANNED_SHARE", "CHUNK_GROWTH", "HalvingClock", "check_time_limit", "time_limit_argument"]

#: The share of a time limit that sequential halving plans to spend: the rest absorbs a
#: round's last chunk running long.
PLANNED_SHARE = 0.97

#: The most a chunk of a round under a time limit may grow over the chunk before it
#: (:meth:`HalvingClock.run_round`).
CHUNK_GROWTH = 4


#: Seconds a slice of an untimed round aims at: Ctrl-C is seen between slices.
UNTIMED_SECONDS = 0.1
#: The first slice of an untimed round, in deals (it measures their speed).
FIRST_SLICE = 64


def untimed(play: Callable[[int, int], int], most: int) -> int:
    """``play(first, count)`` over deals ``0 .. most - 1`` in slices of about
    :data:`UNTIMED_SECONDS` each (sized from the speed so far, each at most
    :data:`CHUNK_GROWTH` times the one before), returning how many ran. The deals are the
    same as one ``play(0, most)`` would run (``first`` tells each slice where it starts);
    between slices Python code runs, so Ctrl-C stops a search of any budget at once."""
    done, chunk = 0, min(most, FIRST_SLICE)
    while done < most:
        start = time.perf_counter()
        ran = play(done, chunk)
        done += ran
        if ran < chunk:  # a bound of its own (a work budget) ended the round
            break
        spent = time.perf_counter() - start
        fit = int(ran * UNTIMED_SECONDS / spent) if spent > 0 else CHUNK_GROWTH * chunk
        chunk = min(most - done, max(1, min(CHUNK_GROWTH * chunk, fit)))
    return done


class HalvingClock:
    """A decision's clock under sequential halving: the seconds since ``start`` (now when
    None), and a time ``limit`` (None: none) shared out between the rounds."""

    def __init__(self, limit: float | None, start: float | None = None) -> None:
        self.start: float = time.perf_counter() if start is None else start
        """When the decision started (``time.perf_counter()`` seconds)."""
        self.limit = limit
        """The decision's time limit in seconds, or None."""
        self.deadline: float = math.inf if limit is None else self.start + PLANNED_SHARE * limit
        """When the planned share of the limit is spent (infinity without a limit)."""

    def seconds(self) -> float:
        """The seconds since the decision started."""
        return time.perf_counter() - self.start

    def out(self) -> bool:
        """Whether the planned share of the limit is spent."""
        return time.perf_counter() >= self.deadline

    def run_round(self, play: Callable[[int, int], int], width: int, most: int, rounds_left: int) -> int:
        """Run a round's deals through each of ``width`` actions and return how many ran:
        ``play(first, count)`` runs deals ``first .. first + count - 1`` and returns how many it
        ran (fewer when a bound of its own, such as a work budget, stops the round). Without a
        limit all ``most`` at once; with one, at least one and at most ``most``, in chunks,
        until the round's equal share of what is left of the planned time is spent.

        The first chunk of a round, one deal, measures the round's speed; each later one plans
        half of what is left of the round at the slower of the round's speed so far and its
        last chunk's, and is at most :data:`CHUNK_GROWTH` times the chunk before it, so that a
        speed judged on cheaper deals (another round's actions, or a moment the machine ran
        faster) does not plan one long chunk that overruns the decision."""
        if self.limit is None:
            return untimed(play, most)
        now = time.perf_counter()
        round_end = now + max(0.0, self.deadline - now) / rounds_left
        done = 0
        spent = 0.0  # the round's seconds so far
        last, last_spent = 0, 0.0  # the last chunk's deals and seconds
        while done < most:
            chunk = 1
            if done:
                per_deal = max(spent / done, last_spent / last)
                fit = int((round_end - now) / per_deal) if per_deal > 0 else most
                if fit < 1:
                    break
                chunk = min(most - done, max(1, (fit + 1) // 2), CHUNK_GROWTH * last)
            ran = play(done, chunk)
            after = time.perf_counter()
            spent += after - now
            last, last_spent = max(ran, 1), after - now
            done += ran
            now = after
            if ran < chunk:
                break
        return done


def check_time_limit(value: object, name: str = "time_limit") -> float | None:
    """``value`` as a time limit: None, or a positive finite number of seconds (as a float);
    else :class:`~ordonnance.errors.InvalidRulesError` showing it."""
    if value is None:
        return None
    if not checks.is_real(value) or not 0 < value < math.inf or (
        isinstance(value, int) and value > sys.float_info.max  # an int no float holds
    ):
        raise InvalidRulesError(f"{name} must be a positive number of seconds or None, got {shown(value)}")
    return float(value)


def time_limit_argument(time_limit: object, time_budget: object, owner: str) -> float | None:
    """The checked time limit of a bot given ``time_limit=`` or its deprecated old name
    ``time_budget=`` (which warns: a :class:`DeprecationWarning` naming ``owner``)."""
    if time_budget is None:
        return check_time_limit(time_limit)
    if time_limit is not None:
        raise InvalidRulesError(
            f"{owner} takes time_limit= (time_budget= is its deprecated old name), not both: "
            f"got time_limit={shown(time_limit)}, time_budget={shown(time_budget)}"
        )
    limit = check_time_limit(time_budget, "time_budget")
    warnings.warn(f"{owner}(time_budget=) is deprecated: use time_limit= (the same seconds)", DeprecationWarning, stacklevel=3)
    return limit
