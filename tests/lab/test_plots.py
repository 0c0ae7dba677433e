"""lab.plots: every figure builds for each study kind of each game, with one bar, cell or line per row."""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import lab, shinobi
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.lab import plots
from ordonnance.lab.study import Study

pytest.importorskip("matplotlib")

from matplotlib.container import BarContainer, ErrorbarContainer  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

RULES = {"ordonnance": od.Rules(), "shinobi": shinobi.Rules(players=4), "black-prince": bp.Rules()}
SMALL: dict[str, Any] = {"games": 60, "seed": 3, "trace_games": 3, "skill_games": 0, "progress": False}


def _bars(figure: Figure) -> int:
    return sum(len(c) for c in figure.axes[0].containers if isinstance(c, BarContainer))


def _says_games_and_seed(figure: Figure, study: Study) -> None:
    ax = figure.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel()
    assert f"{study.record.games:,} games" in ax.get_title() and f"seed {study.record.seed}" in ax.get_title()


@pytest.mark.parametrize("game", list(RULES))
def test_metrics_bars_one_per_seat_and_a_histogram(game: str) -> None:
    study = lab.metrics(RULES[game], **SMALL)
    figure = lab.plot(study)
    _says_games_and_seed(figure, study)
    assert _bars(figure) == RULES[game].players
    heights = sorted(round(p.get_height(), 9) for c in figure.axes[0].containers if isinstance(c, BarContainer) for p in c)
    assert heights == sorted(round(study.get("win rate", seat=s).value, 9) for s in range(RULES[game].players))
    histogram = plots.length_histogram(study)
    _says_games_and_seed(histogram, study)
    [stairs] = histogram.axes[0].patches
    counts = np.asarray(study.arrays["decisions"], dtype=float)
    assert np.allclose(stairs.get_data().values, counts / counts.sum())


@pytest.mark.parametrize("game", list(RULES))
def test_compare_bars_both_arms_and_outlines_both_lengths(game: str) -> None:
    base = RULES[game]
    variant = {"ordonnance": od.Rules(auto_claim=True), "shinobi": shinobi.Rules(players=4, attack="optional"),
               "black-prince": bp.Rules(max_turns=50)}[game]  # fmt: skip
    study = lab.compare(base, variant, **SMALL)
    figure = lab.plot(study)
    _says_games_and_seed(figure, study)
    assert "per arm" in figure.axes[0].get_title()
    assert _bars(figure) == 2 * base.players
    assert [t.get_text() for t in figure.axes[0].get_legend().get_texts()][-2:] == ["base", "variant"]
    assert len(plots.length_histogram(study).axes[0].patches) == 2
    assert [title for title, _ in plots.figures(study)][:2] == ["the study", "game length: decisions"]


def test_black_prince_heat_map_has_a_cell_per_pair() -> None:
    study = lab.matchups(bp.Rules(), games=40, seed=2, armies=["Scottish", "French", "English"], progress=False)
    figure = lab.plot(study)
    _says_games_and_seed(figure, study)
    grid = figure.axes[0].images[0].get_array()
    assert grid.shape == (3, 3)
    assert grid[0, 1] == study.get("army score", army0="Scottish", army1="French").value
    assert len(figure.axes[0].texts) == 9


def test_shinobi_heat_map_leaves_missing_seats_empty() -> None:
    study = lab.matchups(shinobi.Rules(), games=40, seed=2, counts=[3, 5], progress=False)
    grid = lab.plot(study).axes[0].images[0].get_array()
    assert grid.shape == (2, 5)
    assert list(np.ma.getmaskarray(grid)[0]) == [False, False, False, True, True]
    assert grid[1, 4] == study.get("win rate", players=5, seat=4).value
    assert _bars(plots.win_rate_bars(study)) == 3 + 5


@pytest.mark.parametrize(("game", "kinds"), [("ordonnance", ["L", "LS"]), ("shinobi", ["Oda", "Takeda"]),
                                             ("black-prince", ["0:Battle", "1:Battle"])])  # fmt: skip
def test_card_value_forest_has_a_line_per_change(game: str, kinds: list[str]) -> None:
    study = lab.card_values(RULES[game], kinds=kinds, games=40, seed=1, progress=False)
    figure = lab.plot(study)
    _says_games_and_seed(figure, study)
    changes = [r for r in study.rows if r.metric.endswith("win rate change")]
    assert len(figure.axes[0].get_yticklabels()) == len(changes) >= 2
    xs = sorted(float(c.lines[0].get_xdata()[0]) for c in figure.axes[0].containers if isinstance(c, ErrorbarContainer))
    assert np.allclose(xs, sorted(r.estimate.value for r in changes))


def test_tuner_progress_draws_every_trial() -> None:
    pytest.importorskip("optuna")
    tuned = lab.tune(od.Rules(), targets={"first-player advantage": (-0.05, 0.05)}, budget=5, games=20,
                     confirm_games=20, keep=1, seed=1, progress=False)  # fmt: skip
    figure = lab.plot(tuned)
    _says_games_and_seed(figure, tuned)
    scores, best = figure.axes[0].lines[:2]
    assert len(scores.get_xdata()) == len(tuned.arrays["score"]) == 5
    assert np.allclose(best.get_ydata(), tuned.arrays["best"], equal_nan=True)


def test_drawn_on_the_axes_given() -> None:
    study = lab.metrics(od.Rules(), **SMALL)
    figure = Figure()
    left, right = figure.subplots(1, 2)
    assert lab.plot(study, ax=left) is figure and plots.length_histogram(study, ax=right, measure="rounds") is figure
    assert _bars(figure) == 2 and len(right.patches) == 1


def test_wrong_studies_and_arguments_get_the_librarys_error() -> None:
    study = lab.metrics(od.Rules(), **SMALL)
    with pytest.raises(OrdonnanceTypeError, match="study must be an ordonnance.lab.Study, got 'metrics'"):
        lab.plot("metrics")  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError, match="ax must be a matplotlib Axes"):
        lab.plot(study, ax=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="no array of 'moves'.*'decisions'"):
        plots.length_histogram(study, measure="moves")
    with pytest.raises(InvalidArgumentError, match="no matchup table"):
        plots.matchup_heat_map(study)
    with pytest.raises(InvalidArgumentError, match="no card value"):
        plots.card_value_forest(study)
    with pytest.raises(InvalidArgumentError, match="no tuner's progress"):
        plots.tuner_progress(study)


def test_colours_are_not_the_only_difference_between_arms() -> None:
    study = lab.compare(od.Rules(), od.Rules(scoring="points"), **SMALL)
    ax = lab.plot(study).axes[0]
    hatches = {c.patches[0].get_hatch() or "" for c in ax.containers if isinstance(c, BarContainer)}
    assert len(hatches) == 2
    styles = {p.get_linestyle() for p in plots.length_histogram(study).axes[0].patches}
    assert len(styles) == 2


def test_without_matplotlib_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    study = lab.metrics(od.Rules(), **SMALL)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"the lab's plots need the optional extra 'lab'.*pip install 'ordonnance\[lab\]'"):
        lab.plot(study)


def test_an_estimate_without_an_interval_still_plots() -> None:
    from ordonnance.lab.stats import Estimate
    from ordonnance.lab.study import Record, row

    study = Study((row("win rate", Estimate(0.6, math.nan, math.nan, 10), seat=0), row("win rate", Estimate(0.4, 0.1, 0.7, 10), seat=1)),
                  Record("metrics", "by hand", seed=1, games=10))  # fmt: skip
    figure = lab.plot(study)
    assert _bars(figure) == 2 and figure.axes[0].get_ylim() == (0.0, pytest.approx(0.7 * 1.25 + 0.02))
