"""The rules tuner's public calls (ordonnance.lab.tune, Space.of, Target) with bad values of every
type in each argument: a return or the library's error, never a bare exception or a hang."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ordonnance import Rules, shinobi

from .sweep import BOOLS, EXECUTOR, EXECUTOR_OK, NONE, Target, sweep

pytest.importorskip("optuna")

from ordonnance.lab.space import Space  # noqa: E402
from ordonnance.lab.stats import mean  # noqa: E402
from ordonnance.lab.study import Record, Study, row  # noqa: E402
from ordonnance.lab.tuner import Target as Band  # noqa: E402
from ordonnance.lab.tuner import tune  # noqa: E402

FLOATS = {"1.5", "np.float64"}


def measure(rules: Any, *, games: int, seed: int, players: Any = None) -> Study:
    """A quick synthetic figure ``m`` of Shinobi rules: the Mori samurai, with seeded noise."""
    draws = np.random.default_rng(seed).normal(rules.samurai[1], 0.1, size=min(games, 20))
    return Study((row("m", mean(draws)),), Record("synthetic", "measure", seed=seed, games=games))


START = shinobi.Rules(players=3)
TARGETS: list[Target] = [
    Target("Space.of", Space.of, (START,), {"options": ("attack",), "cards": ["Mori"], "spread": 1},
           ok={"options": NONE | {"empty list"}, "cards": NONE | {"empty list"}}),
    Target("Band", Band, ("m", 1.0, 2.0), {"labels": (), "scale": None},
           ok={0: {"non-ASCII digits", "np.str_"}, 1: NONE | FLOATS | {"-1", "np.int64(-1)"}, 2: NONE | FLOATS | {"2**64"},
               "labels": {"empty list", "dict"},
               "scale": NONE | FLOATS | {"2**64"}}),
    Target("tune", tune, (START,), {
        "targets": {"m": (10.0, 10.5)}, "space": Space.of(START, options=(), cards=["Mori"]), "budget": 3, "games": 5,
        "confirm_games": 5, "keep": 1, "seed": 1, "players": None, "scenarios": None, "penalty": 0.1,
        "measure": measure, "progress": False, **EXECUTOR,
    }, ok={"players": NONE, "scenarios": NONE, "penalty": FLOATS | {"2**64"}, "progress": BOOLS, "space": NONE,
           **EXECUTOR_OK}),
]  # fmt: skip


@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_the_tuners_calls_answer_bad_values_with_the_librarys_error(target: Target) -> None:
    assert sweep(target) == []


def test_a_measure_of_the_wrong_shape_is_refused() -> None:
    from ordonnance.errors import OrdonnanceTypeError

    with pytest.raises(OrdonnanceTypeError, match="print"):
        tune(Rules(), targets={"m": (0, 1)}, space=Space.of(Rules(), cards=()), measure=print, progress=False)
