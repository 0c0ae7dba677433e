"""lab.metrics, lab.compare and the lab's estimates with bad values of every type in each
argument: a return or the library's error, never a bare exception or a hang."""

from __future__ import annotations

import pytest

import ordonnance as od
from ordonnance import lab, shinobi
from ordonnance.lab.stats import mean, paired_difference, proportion, quantiles, unpaired_difference

from .sweep import NONE, Target, sweep

EMPTY = {"empty list"}
BOOLS = {"True", "np.bool_"}
STUDY = {"games": 3, "seed": 1, "players": None, "trace_games": 2, "skill_games": 0, "search_games": 0,
         "search_rollouts": 1, "progress": False}  # fmt: skip
TARGETS: list[Target] = [
    Target("metrics", lab.metrics, (od.Rules(),), STUDY, ok={"players": NONE, "progress": NONE | BOOLS}, needs="pandas"),
    Target("metrics(shinobi)", lab.metrics, (shinobi.Rules(players=3),), STUDY,
           ok={"players": NONE, "progress": NONE | BOOLS}, needs="pandas"),
    Target("compare", lab.compare, (od.Rules(), od.Rules(auto_claim=True)), {**STUDY, "variant_players": None},
           ok={"players": NONE, "variant_players": NONE, "progress": NONE | BOOLS}, needs="pandas"),
    Target("proportion", proportion, (3, 10)),
    Target("mean", mean, ([1, 2, 3],), ok={0: EMPTY}),
    Target("quantiles", quantiles, ([1, 2, 3], [0.5]), ok={0: EMPTY, 1: EMPTY}),
    Target("paired_difference", paired_difference, ([1, 0, 1], [0, 0, 1])),
    Target("unpaired_difference", unpaired_difference, ([1, 0, 1], [0, 1]), ok={0: EMPTY, 1: EMPTY}),
]  # fmt: skip


@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_the_lab_calls_answer_bad_values_with_the_librarys_error(target: Target) -> None:
    assert sweep(target) == []
