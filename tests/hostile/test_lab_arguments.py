"""lab.metrics, lab.compare (where their games play included), the lab's plots and reports and its estimates with bad values of every type in each
argument: a return or the library's error, never a bare exception or a hang."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

import ordonnance as od
from ordonnance import lab, shinobi
from ordonnance.lab.plots import length_histogram
from ordonnance.lab.reports import report_html
from ordonnance.lab.stats import mean, paired_difference, proportion, quantiles, unpaired_difference
from ordonnance.lab.study import Record, Study, row

from .sweep import EXECUTOR, EXECUTOR_OK, NONE, Target, sweep

#: A hand-made study to plot and report: two seats' win rates and a length array.
MADE = Study((row("win rate", proportion(6, 10), seat=0), row("win rate", proportion(4, 10), seat=1)),
             Record("metrics", "by hand", seed=1, games=10), {"decisions": np.array([0, 4, 6])})  # fmt: skip


def _report(study: object, title: object = None) -> None:
    """lab.report into a temporary directory (the sweep tries the study and the title; the path is fixed)."""
    with tempfile.TemporaryDirectory() as folder:
        lab.report(study, Path(folder) / "report.html", title)  # type: ignore[arg-type]

EMPTY = {"empty list"}
BOOLS = {"True", "np.bool_"}
STUDY = {"games": 3, "seed": 1, "players": None, "trace_games": 2, "skill_games": 0, "search_games": 0,
         "search_rollouts": 1, "progress": False, **EXECUTOR}  # fmt: skip
TARGETS: list[Target] = [
    Target("metrics", lab.metrics, (od.Rules(),), STUDY, ok={"players": NONE, "progress": NONE | BOOLS, **EXECUTOR_OK},
           needs="pandas"),
    Target("metrics(shinobi)", lab.metrics, (shinobi.Rules(players=3),), STUDY,
           ok={"players": NONE, "progress": NONE | BOOLS, **EXECUTOR_OK}, needs="pandas"),
    Target("compare", lab.compare, (od.Rules(), od.Rules(auto_claim=True)), {**STUDY, "variant_players": None},
           ok={"players": NONE, "variant_players": NONE, "progress": NONE | BOOLS, **EXECUTOR_OK}, needs="pandas"),
    Target("plot", lab.plot, (MADE,), {"ax": None}, ok={"ax": NONE}, needs="matplotlib"),
    Target("length_histogram", length_histogram, (MADE,), {"ax": None, "measure": "decisions"}, ok={"ax": NONE},
           needs="matplotlib"),
    Target("report_html", report_html, (MADE,), {"title": None}, ok={"title": NONE | {"empty str", "escape str",
           "non-ASCII digits", "huge str", "np.str_", "NUL str"}}, needs="matplotlib"),
    Target("report", _report, (MADE,), {"title": None}, ok={"title": NONE | {"empty str", "escape str",
           "non-ASCII digits", "huge str", "np.str_", "NUL str"}}, needs="matplotlib"),
    Target("proportion", proportion, (3, 10)),
    Target("mean", mean, ([1, 2, 3],), ok={0: EMPTY}),
    Target("quantiles", quantiles, ([1, 2, 3], [0.5]), ok={0: EMPTY, 1: EMPTY}),
    Target("paired_difference", paired_difference, ([1, 0, 1], [0, 0, 1])),
    Target("unpaired_difference", unpaired_difference, ([1, 0, 1], [0, 1]), ok={0: EMPTY, 1: EMPTY}),
]  # fmt: skip


@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_the_lab_calls_answer_bad_values_with_the_librarys_error(target: Target) -> None:
    assert sweep(target) == []
