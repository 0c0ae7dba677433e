"""One policy for NumPy scalars: accepted wherever Python ints, strs and bools are, stored as
the plain Python value (``ordonnance.core.checks``)."""

from __future__ import annotations

import numpy as np
import pytest

import ordonnance as od
from ordonnance import bots
from ordonnance.core.terminal import check_width


def test_rules_store_plain_values_given_numpy_scalars() -> None:
    rules = od.Rules(players=np.int64(3), scoring=np.str_("points"), tie_break=np.str_("lowest_marker_sum"),
                     claim_proof=np.str_("public"), auto_claim=np.bool_(False))  # fmt: skip
    assert rules == od.Rules(players=3, scoring="points", tie_break="lowest_marker_sum")
    for value in (rules.players, rules.scoring, rules.tie_break, rules.claim_proof, rules.auto_claim):
        assert type(value) in (int, str, bool), value
    assert type(od.Rules(claim_proof=np.str_("private")).claim_proof) is str


@pytest.mark.parametrize("bad", [np.str_("nonsense"), np.bool_(True), np.int64(1)])
def test_rules_still_refuse_bad_numpy_values(bad: object) -> None:
    with pytest.raises(od.OrdonnanceError):
        od.Rules(scoring=bad)  # type: ignore[arg-type]


def test_a_tournament_takes_numpy_integers_and_reports_plain_ones() -> None:
    result = od.tournament([bots.Random(seed=1), bots.Random(seed=2)], games=np.int64(8), seed=np.uint64(3), executor="serial",
                           chunk_size=np.int32(4))  # fmt: skip
    assert result == od.tournament([bots.Random(seed=1), bots.Random(seed=2)], games=8, seed=3, executor="serial", chunk_size=4)
    assert type(result.games) is int and type(result.seed) is int
    assert result.index(np.int64(1)) == 1 and type(result.index(np.int64(1))) is int
    with pytest.raises(od.OrdonnanceError):
        result.index(np.bool_(True))


def test_decks_bots_and_widths_take_numpy_integers() -> None:
    assert od.standard_deck(np.int64(2)) == od.standard_deck(2)
    bot = bots.MonteCarlo(rollouts=np.int64(50), seed=np.uint64(7))
    assert type(bot.rollouts) is int and bot.rollouts == 50
    assert repr(bot) == repr(bots.MonteCarlo(rollouts=50, seed=7))
    assert type(check_width(np.int16(60))) is int


def test_search_bots_store_plain_numbers_and_names() -> None:
    monte = bots.MonteCarlo(seed=1, rollouts=10, time_limit=np.float32(0.5), margin_weight=np.float64(0.25))
    assert monte.time_limit == 0.5 and type(monte.time_limit) is float and type(monte.margin_weight) is float
    assert repr(monte) == repr(bots.MonteCarlo(seed=1, rollouts=10, time_limit=0.5, margin_weight=0.25))
    search = bots.ISMCTS(seed=1, iterations=np.int16(30), exploration=np.int64(1), widening=np.float64(2),
                         rollout_policy=np.str_("greedy"), root=np.str_("ucb"))  # fmt: skip
    for value in (search.iterations, search.exploration, search.widening, search.rollout_policy, search.root):
        assert type(value) in (int, float, str), value
    with pytest.raises(od.OrdonnanceError):
        bots.ISMCTS(widening=10**400)  # no float holds it
    with pytest.raises(od.OrdonnanceError):
        bots.ISMCTS(root=np.array(["ucb", "halving"]))  # type: ignore[arg-type]
