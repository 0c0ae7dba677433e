"""The lab's estimates: their intervals cover the truth at the nominal rate on synthetic
studies with a known answer, and pairing narrows a difference when the arms agree."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.lab.stats import (
    Difference,
    Estimate,
    mean,
    paired_difference,
    proportion,
    quantile,
    quantiles,
    unpaired_difference,
)

STUDIES = 2000
NOMINAL = (0.935, 0.965)  # 95% +- about 3.3 binomial standard errors of 2,000 studies


def _coverage(hits: list[bool]) -> float:
    assert len(hits) == STUDIES
    return sum(hits) / STUDIES


def test_proportion_covers_a_known_rate() -> None:
    rng = np.random.default_rng(1)
    truth, n = 0.3, 400
    wins = rng.binomial(n, truth, STUDIES)
    assert NOMINAL[0] <= _coverage([proportion(int(k), n).covers(truth) for k in wins]) <= NOMINAL[1]


def test_mean_covers_a_known_mean() -> None:
    rng = np.random.default_rng(2)
    hits = [mean(rng.poisson(20.0, 300)).covers(20.0) for _ in range(STUDIES)]
    assert NOMINAL[0] <= _coverage(hits) <= NOMINAL[1]


def test_quantile_covers_a_known_median() -> None:
    rng = np.random.default_rng(3)
    hits = [quantile(rng.exponential(1.0, 301), 0.5).covers(math.log(2)) for _ in range(STUDIES)]
    assert 0.93 <= _coverage(hits) <= 0.975  # order statistics are a little conservative by design


def test_quantiles_count_integers_as_they_sort_floats() -> None:
    rng = np.random.default_rng(7)
    for values in (rng.poisson(30, 999), rng.integers(-5, 3, 50), np.array([True, False, True]), rng.integers(0, 10**12, 20)):
        qs = [0.0, 0.1, 0.25, 0.5, 0.9, 1.0]
        counted = quantiles(values, qs)
        assert counted == quantiles(values.astype(np.float64), qs)
        assert [e.value for e in counted] == [float(np.quantile(values, q, method="inverted_cdf")) for q in qs]
        assert all(e.low <= e.value <= e.high for e in counted)


def _correlated_arms(rng: np.random.Generator, n: int, difference: float) -> tuple[np.ndarray, np.ndarray]:
    """Win (1) or not (0) of two arms on common random numbers: the same uniform decides
    both, so they agree most of the time and differ in ``difference`` of the games."""
    shared = rng.random(n)
    base = (shared < 0.5).astype(np.int64)
    variant = (shared < 0.5 + difference).astype(np.int64)
    return variant, base


def test_paired_difference_covers_a_known_difference() -> None:
    rng = np.random.default_rng(4)
    hits = []
    for _ in range(STUDIES):
        variant, base = _correlated_arms(rng, 500, 0.05)
        hits.append(paired_difference(variant, base).covers(0.05))
    assert NOMINAL[0] <= _coverage(hits) <= NOMINAL[1]


def test_unpaired_difference_covers_a_known_difference() -> None:
    rng = np.random.default_rng(5)
    hits = [
        unpaired_difference(rng.binomial(1, 0.55, 500), rng.binomial(1, 0.5, 400)).covers(0.05) for _ in range(STUDIES)
    ]
    assert NOMINAL[0] <= _coverage(hits) <= NOMINAL[1]


def test_pairing_narrows_the_interval_under_positive_correlation() -> None:
    variant, base = _correlated_arms(np.random.default_rng(6), 10_000, 0.02)
    paired = paired_difference(variant, base)
    unpaired = unpaired_difference(variant, base)
    assert paired.width < unpaired.width / 3
    assert paired.value == pytest.approx(unpaired.value)
    # the unpaired games for the same width follow from the widths: width ~ 1/sqrt(games)
    assert paired.unpaired_games == pytest.approx(paired.games * (unpaired.width / paired.width) ** 2, rel=1e-6)


def test_unpaired_games_by_hand() -> None:
    a = np.array([1.0, 2.0, 3.0, 4.0])
    b = np.array([1.0, 2.0, 3.0, 5.0])
    var_a, var_b, var_d = np.var(a, ddof=1), np.var(b, ddof=1), np.var(a - b, ddof=1)
    difference = paired_difference(a, b)
    assert isinstance(difference, Difference)
    assert difference.value == -0.25
    assert difference.unpaired_games == pytest.approx(4 * (var_a + var_b) / var_d)
    half = 1.959963984540054 * math.sqrt(var_d / 4)
    assert (difference.low, difference.high) == pytest.approx((-0.25 - half, -0.25 + half))


def test_identical_arms_differ_by_nothing() -> None:
    same = paired_difference([1, 0, 1], [1, 0, 1])
    assert (same.value, same.low, same.high, same.unpaired_games) == (0.0, 0.0, 0.0, math.inf)
    constant = paired_difference([1, 1], [1, 1])
    assert constant.unpaired_games == 2


def test_too_few_values_have_no_interval() -> None:
    assert math.isnan(mean([]).value) and mean([]).games == 0
    one = mean([3])
    assert one.value == 3 and math.isnan(one.low) and math.isnan(one.high)
    assert math.isnan(proportion(0, 0).value) and proportion(0, 0).games == 0
    assert math.isnan(paired_difference([1], [0]).low)


def test_estimate_columns() -> None:
    estimate = Estimate(0.5, 0.4, 0.6, 10)
    assert estimate.columns() == {"value": 0.5, "low": 0.4, "high": 0.6, "games": 10}
    assert Difference(0.1, 0.0, 0.2, 10, 40.0).columns()["unpaired_games"] == 40.0
    assert estimate.width == pytest.approx(0.2)


def test_bad_input_gets_the_librarys_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="3 and 2"):
        paired_difference([1, 2, 3], [1, 2])
    with pytest.raises(OrdonnanceTypeError, match="'x'"):
        mean(["x"])
    with pytest.raises(OrdonnanceTypeError):
        mean([[1, 2]])
    with pytest.raises(InvalidArgumentError, match="nan"):
        mean([1.0, float("nan")])
    with pytest.raises(InvalidArgumentError, match="11"):
        proportion(11, 10)
    with pytest.raises(InvalidArgumentError, match="1.5"):
        quantile([1, 2], 1.5)
