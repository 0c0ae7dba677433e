"""The lab's card-value table and army table against issue 36's targets, on one core.

* The full card-value table for Ordonnance: every distinct card (31), one copy added and
  one removed, Greedy bots, 2 players, intervals of at most +-0.5 points (half-widths
  <= 0.005) in at most 10 minutes. 220,000 games an arm (63 arms: the base and 62
  variants), every variant paired with the base deal by deal (the same deck order but for
  the changed place and the bottom, the same bot seeds); the games where the changed
  place is drawn have a holder (the record's notes give the share left out). The report
  also gives the games an arm would need for +-0.5 points (the widest half-interval
  scales as one over the square root of the games) and the range of ``unpaired_games``
  over the games with a holder (what pairing saves).
* Black Prince's 4x4 army table at 100,000 games a cell (1.6 million games, Greedy) in
  at most 5 minutes.

Each case runs once (a study is minutes long) and prints its time, its share of the
target and, for the card table, the widest half-interval.

A third case checks the intervals' coverage: 300 small card-value studies (400 games an
arm, seeds 0..299) of Ordonnance's five-symbol card added and removed, Shinobi's Oda
samurai added and Black Prince's seat-1 Battle card removed (300 games), against the
value of one large study (600,000 and 200,000 games); about 95% of the intervals should
hold it. Run with::

    python -m pytest benchmarks/bench_lab_cards.py --benchmark-only -s

or as a script (``python benchmarks/bench_lab_cards.py``), which prints the same figures.
"""

from __future__ import annotations

import time
from typing import Any

import ordonnance
from ordonnance import black_prince, shinobi
from ordonnance.lab import card_values, matchups
from ordonnance.lab.study import Study

CARD_GAMES = 220_000
CARD_SECONDS = 600.0
CARD_HALF_WIDTH = 0.005
MATCHUP_GAMES = 100_000
MATCHUP_SECONDS = 300.0


def _warm() -> None:
    """Compile (or load) the kernels first: a study's time is its games'."""
    card_values(ordonnance.Rules(), kinds=["L"], games=100, seed=1)
    matchups(black_prince.Rules(), games=10, seed=1, armies=["French"])


def card_table() -> tuple[Study, float]:
    began = time.perf_counter()
    study = card_values(ordonnance.Rules(), games=CARD_GAMES, seed=2026)
    return study, time.perf_counter() - began


def army_table() -> tuple[Study, float]:
    began = time.perf_counter()
    study = matchups(black_prince.Rules(), games=MATCHUP_GAMES, seed=2026)
    return study, time.perf_counter() - began


COVERAGE_STUDIES = 300


def coverage() -> dict[str, float]:
    """The share of small studies' intervals that hold a large study's value, per change."""
    cases = {
        "Ordonnance LBSHF add": (ordonnance.Rules(), "LBSHF", "add", 400, 600_000),
        "Ordonnance LBSHF remove": (ordonnance.Rules(), "LBSHF", "remove", 400, 600_000),
        "Shinobi Oda add (3 players)": (shinobi.Rules(players=3), "Oda", "add", 300, 200_000),
        "Black Prince 1:Battle remove": (black_prince.Rules(), "1:Battle", "remove", 300, 200_000),
    }
    shares = {}
    for name, (rules, kind, change, small, large) in cases.items():
        metric = "holder win rate change"
        truth = card_values(rules, kinds=[kind], changes=[change], games=large, seed=10**9).get(metric, kind=kind)
        held = sum(
            card_values(rules, kinds=[kind], changes=[change], games=small, seed=s).get(metric, kind=kind).covers(truth.value)
            for s in range(COVERAGE_STUDIES)
        )
        shares[name] = held / COVERAGE_STUDIES
    return shares


def _widest(study: Study) -> float:
    return max((r.estimate.high - r.estimate.low) / 2 for r in study.rows)


def _unpaired_ratios(study: Study) -> tuple[float, float]:
    """The least and most ``unpaired_games / games`` of the table's rows."""
    ratios = [r.estimate.unpaired_games / r.estimate.games for r in study.rows]  # type: ignore[attr-defined]
    return min(ratios), max(ratios)


def _report_cards(study: Study, seconds: float) -> None:
    low, high = _unpaired_ratios(study)
    print(
        f"\nOrdonnance card-value table: {len(study.rows)} rows, {CARD_GAMES:,} games an arm, {seconds:.0f} s "
        f"({seconds / CARD_SECONDS:.0%} of the 10-minute target); widest half-interval {_widest(study):.4f} "
        f"(target {CARD_HALF_WIDTH}; {_games_for_target(study):,} games an arm would reach it); "
        f"unpaired_games / games {low:.1f} to {high:.1f}; {study.record.notes[-1]}"
    )


def _games_for_target(study: Study) -> int:
    """The games an arm needs for the widest half-interval to be :data:`CARD_HALF_WIDTH`."""
    return round(CARD_GAMES * (_widest(study) / CARD_HALF_WIDTH) ** 2)


def _report_armies(study: Study, seconds: float) -> None:
    print(
        f"\nBlack Prince army table: 16 cells x {MATCHUP_GAMES:,} games, {seconds:.0f} s "
        f"({seconds / MATCHUP_SECONDS:.0%} of the 5-minute target); widest half-interval {_widest(study):.4f}"
    )


def test_card_value_table(benchmark: Any) -> None:
    _warm()
    study, seconds = benchmark.pedantic(card_table, rounds=1, iterations=1)
    _report_cards(study, seconds)
    benchmark.extra_info.update(
        seconds=seconds, widest=_widest(study), target_seconds=CARD_SECONDS, games_for_target=_games_for_target(study)
    )


def test_army_table(benchmark: Any) -> None:
    _warm()
    study, seconds = benchmark.pedantic(army_table, rounds=1, iterations=1)
    _report_armies(study, seconds)
    benchmark.extra_info.update(seconds=seconds, widest=_widest(study), target_seconds=MATCHUP_SECONDS)


def test_interval_coverage(benchmark: Any) -> None:
    _warm()
    shares = benchmark.pedantic(coverage, rounds=1, iterations=1)
    for name, share in shares.items():
        print(f"\n{name}: {share:.1%} of {COVERAGE_STUDIES} intervals hold the large study's value (nominal 95%)")
    benchmark.extra_info.update(shares)


if __name__ == "__main__":
    _warm()
    _report_armies(*army_table())
    cards, seconds = card_table()
    _report_cards(cards, seconds)
    print(cards.text())
    for name, share in coverage().items():
        print(f"{name}: {share:.1%} of {COVERAGE_STUDIES} intervals hold the large study's value (nominal 95%)")
