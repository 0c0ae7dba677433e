"""The estimates every study reports, written once: each an :class:`Estimate` with its 95% interval.

* :func:`proportion`: a share of games (a win rate), with the Wilson interval;
* :func:`mean`: a mean of per-game values, with the normal interval from their spread;
* :func:`quantile`: a quantile of per-game values, with the distribution-free interval
  of order statistics;
* :func:`paired_difference`: the mean difference of two arms that played the same deals
  and bot seeds, its interval from the per-game differences, and how many games an
  unpaired comparison would need for the same width (a :class:`Difference`);
* :func:`unpaired_difference`: the difference of two independent arms' means.

A win rate is the mean of per-game outcomes (1 won, 0 not), so the differences of win
rates are differences of means of 0/1 values:

>>> import numpy as np
>>> from ordonnance.lab.stats import paired_difference, proportion
>>> proportion(30, 100).value
0.3
>>> base = np.array([1, 0, 1, 1, 0, 0, 1, 0])
>>> variant = np.array([1, 0, 1, 1, 0, 1, 1, 0])
>>> difference = paired_difference(variant, base)
>>> difference.value, difference.games
(0.125, 8)

Only numpy is needed: the module imports without the ``lab`` extra.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.core.checks import bounded, integer, real
from ordonnance.core.stats import Z95, wilson
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError, shown

__all__ = [
    "Z95",
    "Estimate",
    "Difference",
    "proportion",
    "mean",
    "quantile",
    "quantiles",
    "paired_difference",
    "unpaired_difference",
]

_NAN = float("nan")

#: The most games a proportion counts: every count up to it is exact as a float.
MOST_GAMES = 2**53


@attrs.frozen
class Estimate:
    """A number measured on simulated games, with its 95% interval.

    ``low`` and ``high`` are NaN when the games cannot bound it (a mean of fewer than
    two values)."""

    value: float
    """The estimate."""
    low: float
    """The low end of its 95% interval."""
    high: float
    """The high end of its 95% interval."""
    games: int
    """The games behind it (for a paired difference, the pairs: each arm played that many)."""

    @property
    def width(self) -> float:
        """``high - low``: the interval's width."""
        return self.high - self.low

    def covers(self, truth: float) -> bool:
        """Whether ``truth`` lies in the interval."""
        return self.low <= truth <= self.high

    def columns(self) -> dict[str, float | int]:
        """The estimate as the table's columns: ``value``, ``low``, ``high``, ``games``."""
        return {"value": self.value, "low": self.low, "high": self.high, "games": self.games}


@attrs.frozen
class Difference(Estimate):
    """A difference of two arms, and what pairing them saved."""

    unpaired_games: float
    """The games per arm an unpaired comparison (independent deals and bot seeds) would need
    for an interval as narrow: ``games * (var_a + var_b) / var_diff`` for a paired difference
    (``inf`` when the pairs never differ but the arms vary), ``games`` for an unpaired one."""

    def columns(self) -> dict[str, float | int]:
        """The estimate's columns, and ``unpaired_games``."""
        return {**super().columns(), "unpaired_games": self.unpaired_games}


def _values(values: object, name: str) -> npt.NDArray[np.float64]:
    """``values`` (a 1-D array or sequence of finite numbers, bools counted 0/1) as float64."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as error:
        raise OrdonnanceTypeError(f"{name} must be a 1-D array of numbers, got {shown(values)}") from error
    if array.dtype.kind not in "biuf" or array.ndim != 1:
        raise OrdonnanceTypeError(f"{name} must be a 1-D array of numbers, got {shown(values)}")
    result = array.astype(np.float64, copy=False)
    if not np.all(np.isfinite(result)):
        raise InvalidArgumentError(f"{name} must hold finite numbers, got {shown(values)}")
    return result


def proportion(successes: int, games: int) -> Estimate:
    """``successes / games`` with its 95% Wilson interval (NaN and ``(0, 1)`` for no games).

    >>> from ordonnance.lab.stats import proportion
    >>> proportion(50, 100)
    Estimate(value=0.5, low=0.4038315303659956, high=0.5961684696340044, games=100)
    """
    n = integer(games, "games", low=0, high=MOST_GAMES)
    k = integer(successes, "successes", low=0, high=n)
    low, high = wilson(k, n)
    return Estimate(k / n if n else _NAN, low, high, n)


def _normal(value: float, variance: float, n: int) -> tuple[float, float]:
    """``value +- Z95`` standard errors of a mean of ``n`` values of that variance."""
    if n < 2:
        return (_NAN, _NAN)
    half = Z95 * math.sqrt(variance / n)
    return (value - half, value + half)


def mean(values: npt.ArrayLike) -> Estimate:
    """The mean of per-game ``values`` with its 95% normal interval (mean +- 1.96 standard
    errors, the sample's spread with ``n - 1``); NaN when the values cannot say.

    >>> from ordonnance.lab.stats import mean
    >>> mean([2, 4, 6, 8]).value
    5.0
    """
    array = _values(values, "values")
    n = len(array)
    if n == 0:
        return Estimate(_NAN, _NAN, _NAN, 0)
    value = float(array.mean())
    low, high = _normal(value, float(array.var(ddof=1)) if n > 1 else _NAN, n)
    return Estimate(value, low, high, n)


def quantile(values: npt.ArrayLike, q: float) -> Estimate:
    """The ``q`` quantile of ``values`` (the lower sample quantile: a value that occurred)
    with its distribution-free 95% interval: the order statistics whose ranks the
    binomial (normal approximation) puts around ``n * q``.

    >>> from ordonnance.lab.stats import quantile
    >>> quantile(range(1, 101), 0.5).value
    50.0
    """
    return quantiles(values, [q])[0]


def quantiles(values: npt.ArrayLike, qs: Sequence[float]) -> list[Estimate]:
    """:func:`quantile` of each of ``qs``, ordering the values once (integers of a modest
    range, as game lengths, are counted rather than sorted).

    >>> from ordonnance.lab.stats import quantiles
    >>> [estimate.value for estimate in quantiles([5, 1, 4, 2, 3], [0.2, 0.5, 1.0])]
    [1.0, 3.0, 5.0]
    """
    shares = [real(q, "q", low=0.0, high=1.0) for q in bounded(qs, "qs", 1000)]
    array = np.asarray(values)
    if array.dtype.kind not in "biu" or array.ndim != 1:
        array = _values(values, "values")
    n = len(array)
    if n == 0:
        return [Estimate(_NAN, _NAN, _NAN, 0) for _ in shares]
    at = _order_statistics(array)
    out = []
    for share in shares:
        spread = Z95 * math.sqrt(n * share * (1 - share))
        rank = max(0, math.ceil(n * share) - 1)
        low_rank = max(0, math.floor(n * share - spread) - 1)
        high_rank = min(n - 1, math.ceil(n * share + spread))
        out.append(Estimate(at(rank), at(low_rank), at(high_rank), n))
    return out


def _order_statistics(array: npt.NDArray[Any]) -> Callable[[int], float]:
    """``at(k)``: the ``k``-th smallest of ``array`` (from 0)."""
    if array.dtype.kind in "biu":
        smallest, largest = int(array.min()), int(array.max())
        if largest - smallest <= 4 * len(array) + 1024:
            running = np.cumsum(np.bincount(array.astype(np.int64) - smallest))
            return lambda k: float(smallest + int(np.searchsorted(running, k, side="right")))
    ordered = np.sort(array)
    return lambda k: float(ordered[k])


def paired_difference(a: npt.ArrayLike, b: npt.ArrayLike) -> Difference:
    """The mean of ``a - b`` over pairs: ``a[i]`` and ``b[i]`` are the outcomes of game ``i``
    of two arms that played the same deal and bot seeds (common random numbers).

    The interval is the normal one from the per-game differences, so it is as narrow as
    the pairing makes the arms agree; ``unpaired_games`` says how many games per arm
    independent arms would need for the same width."""
    first = _values(a, "a")
    second = _values(b, "b")
    if len(first) != len(second):
        raise InvalidArgumentError(
            f"a paired difference needs as many games in each arm, got {len(first)} and {len(second)}"
        )
    n = len(first)
    if n == 0:
        return Difference(_NAN, _NAN, _NAN, 0, _NAN)
    differences = first - second
    value = float(differences.mean())
    if n < 2:
        return Difference(value, _NAN, _NAN, n, _NAN)
    variance = float(differences.var(ddof=1))
    spread = float(first.var(ddof=1)) + float(second.var(ddof=1))
    low, high = _normal(value, variance, n)
    if variance > 0:
        unpaired = n * spread / variance
    else:
        unpaired = math.inf if spread > 0 else float(n)
    return Difference(value, low, high, n, unpaired)


def unpaired_difference(a: npt.ArrayLike, b: npt.ArrayLike) -> Difference:
    """``mean(a) - mean(b)`` of two independent arms (any sizes) with the normal interval
    of their standard errors; ``games`` counts both arms' games."""
    first = _values(a, "a")
    second = _values(b, "b")
    n, m = len(first), len(second)
    if n == 0 or m == 0:
        return Difference(_NAN, _NAN, _NAN, n + m, _NAN)
    value = float(first.mean() - second.mean())
    if n < 2 or m < 2:
        return Difference(value, _NAN, _NAN, n + m, _NAN)
    half = Z95 * math.sqrt(float(first.var(ddof=1)) / n + float(second.var(ddof=1)) / m)
    return Difference(value, value - half, value + half, n + m, (n + m) / 2)
