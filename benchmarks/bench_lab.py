"""lab.compare against the two simulate calls it plays (issue 36's target: at most 2x).

A 2-player Ordonnance comparison of the standard rules (the base) and ``auto_claim=True``
(the variant: every provable territory is awarded after each play, so the games differ
while the deals stay identical), Random bots, ``games`` games each, the games part only
(no trace or skill games: the like-for-like work of the two simulate calls). Each round
times the two ``simulate`` calls alone and then ``lab.compare`` in the same process; the
best of the rounds is kept. Also printed: the first-player advantage's difference with
its paired interval, and the ratio of the unpaired interval's width to the paired one's,
``sqrt(unpaired_games / games)`` (an unpaired interval is ``2 * 1.96 * sqrt((var_a +
var_b) / n)`` wide, the paired one ``2 * 1.96 * sqrt(var_diff / n)``).

Run::

    python benchmarks/bench_lab.py --games 1000000 --rounds 3

With ``--executor process [--workers N]`` it times instead the comparison in this process
(``executor="serial"``) against the same comparison on a pool of local processes it starts
(``executor="process"``, the pool's start-up included), the median of the rounds, and
checks that both give the same table.

or the timed small case with ``python -m pytest benchmarks/bench_lab.py --benchmark-only``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

import ordonnance as od
from ordonnance import lab

BASE = od.Rules()
VARIANT = od.Rules(auto_claim=True)


def _compare(games: int, seed: int, **executor: Any) -> lab.Study:
    return lab.compare(BASE, VARIANT, games=games, seed=seed, trace_games=0, skill_games=0, progress=False, **executor)


def _simulate_both(games: int, seed: int) -> None:
    od.simulate(BASE, games=games, seed=seed)
    od.simulate(VARIANT, games=games, seed=seed)


def measure(games: int, rounds: int, seed: int) -> tuple[float, float, lab.Study]:
    """The best seconds of the two simulate calls and of the comparison, and the comparison."""
    _compare(2_000, seed)  # compile and warm everything first
    simulate_best = compare_best = math.inf
    study = None
    for _ in range(rounds):
        began = time.perf_counter()
        _simulate_both(games, seed)
        simulate_best = min(simulate_best, time.perf_counter() - began)
        began = time.perf_counter()
        study = _compare(games, seed)
        compare_best = min(compare_best, time.perf_counter() - began)
    assert study is not None
    return simulate_best, compare_best, study


def measure_executor(games: int, rounds: int, seed: int, workers: int | None) -> tuple[float, float]:
    """The median seconds of the comparison in this process and on a local process pool of
    ``workers`` (None: one per CPU), each round both; their tables must be equal."""
    _compare(2_000, seed)
    serial, pooled = [], []
    for _ in range(rounds):
        began = time.perf_counter()
        here = _compare(games, seed)
        serial.append(time.perf_counter() - began)
        began = time.perf_counter()
        there = _compare(games, seed, executor="process", workers=workers)
        pooled.append(time.perf_counter() - began)
        assert [(r.metric, r.labels, repr(r.estimate)) for r in here.rows] == [
            (r.metric, r.labels, repr(r.estimate)) for r in there.rows
        ], "the process pool gave another table"
    return statistics.median(serial), statistics.median(pooled)


def test_compare_against_two_simulate_calls(benchmark: Any) -> None:
    """A small timed run: 100,000 games an arm."""
    _compare(2_000, 1)
    study = benchmark.pedantic(lambda: _compare(100_000, 1), rounds=3, iterations=1)
    benchmark.extra_info["items"] = 200_000
    difference = study.get("first-player advantage", arm="variant - base")
    assert difference.unpaired_games > difference.games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--executor", choices=["process"], default=None,
                        help="time lab.compare serial against executor='process' instead")  # fmt: skip
    parser.add_argument("--workers", type=int, default=None, help="the pool's processes (default: one per CPU)")
    args = parser.parse_args()
    if args.executor is not None:
        serial, pooled = measure_executor(args.games, args.rounds, args.seed, args.workers)
        print(f"{args.games:,} games an arm, median of {args.rounds} rounds, the same table both ways")
        print(f"  lab.compare, executor='serial'    {serial:6.2f} s")
        print(f"  lab.compare, executor='process'   {pooled:6.2f} s   ({args.workers or 'one per CPU'} workers; "
              f"speed-up {serial / pooled:.2f}x)")  # fmt: skip
        return
    simulate_seconds, compare_seconds, study = measure(args.games, args.rounds, args.seed)
    difference = study.get("first-player advantage", arm="variant - base")
    assert isinstance(difference, lab.Difference)
    paired = difference.width
    ratio = math.sqrt(difference.unpaired_games / difference.games)
    print(f"{args.games:,} games an arm, best of {args.rounds} rounds")
    print(f"  two simulate calls   {simulate_seconds:6.2f} s")
    print(f"  lab.compare          {compare_seconds:6.2f} s   ratio {compare_seconds / simulate_seconds:.2f}x (target <= 2x)")
    print(f"  first-player advantage, variant - base: {difference.value:+.4%} "
          f"(paired 95% CI {difference.low:+.4%} .. {difference.high:+.4%}, width {paired:.4%})")  # fmt: skip
    print(f"  unpaired width / paired width: {ratio:.2f} (an unpaired comparison would need "
          f"{difference.unpaired_games:,.0f} games an arm for the paired width)")  # fmt: skip


if __name__ == "__main__":
    main()
