"""Benchmark helpers: throughput bookkeeping and a ratio table at the end of the run.

Each benchmark records how many items (armies, positions, games, ...) one
round processes with :func:`items`. A group's *subject* is the ordonnance
function under test; every other benchmark in the group is an alternative,
and the summary prints the subject's speed relative to each, from medians.
Run with::

    python -m pytest benchmarks --benchmark-only
"""

from __future__ import annotations

from typing import Any

import pytest


def items(benchmark: Any, count: int, *, subject: bool = False) -> None:
    """Record that one round of ``benchmark`` handles ``count`` items."""
    benchmark.extra_info["items"] = count
    benchmark.extra_info["subject"] = subject


def of_target(benchmark: Any, label: str, target: float) -> float:
    """After a timed run: record ``target`` (items/s) and the median rate's share of it
    (``of_target``) in ``extra_info``, print them, and return the share."""
    rate = float(benchmark.extra_info["items"]) / float(benchmark.stats.stats.median)  # the fixture's stats, not the session's
    benchmark.extra_info["target"] = target
    benchmark.extra_info["of_target"] = share = rate / target
    print(f"\n{label}: {rate:,.0f} items/s, {share:.2f}x the target of {target:,.0f}")
    return share


def _rate(bench: Any) -> float:
    return float(bench.extra_info.get("items", 1)) / float(bench.stats.median)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    session = getattr(terminalreporter.config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    groups: dict[str, list[Any]] = {}
    for bench in session.benchmarks:
        if bench.stats is not None and bench.stats.rounds:
            groups.setdefault(bench.group or bench.name, []).append(bench)
    write = terminalreporter.write_line
    terminalreporter.section("ordonnance: throughput from medians, and ratios")
    for group, benches in groups.items():
        subjects = [b for b in benches if b.extra_info.get("subject")]
        write(f"[{group}]")
        for bench in benches:
            rate = _rate(bench)
            line = f"  {bench.name:<48} {rate:>14,.0f} items/s   median {bench.stats.median * 1e6:,.3f} us"
            write(line)
        for subject in subjects:
            for other in benches:
                if other is subject:
                    continue
                ratio = _rate(subject) / _rate(other)
                write(f"  -> {subject.name} is {ratio:,.2f}x the speed of {other.name}")


@pytest.fixture
def record_items() -> Any:
    """The :func:`items` helper as a fixture."""
    return items
