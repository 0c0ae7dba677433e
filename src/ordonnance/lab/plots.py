"""Plots of the lab's studies (matplotlib, drawn off screen: no display needed).

:func:`plot` draws the figure that fits a study's kind; the named functions draw one
figure each. Every function returns the matplotlib ``Figure`` (drawn on ``ax`` when one
is given, on a new figure otherwise), labels its axes and says the study's games and
seed. Colours come from the Okabe-Ito palette and the ``cividis`` map, readable with
any colour vision, and never carry a meaning alone: arms differ by hatch or line style
too, changes by marker shape, and heat-map cells print their value.

* :func:`win_rate_bars`: win rate of each seat with its 95% interval (``metrics``,
  ``compare``'s arms, Shinobi's seat table);
* :func:`length_histogram`: the distribution of a game length (``decisions``,
  ``rounds``...) from the study's arrays, one outline per arm;
* :func:`matchup_heat_map`: Black Prince's army table (seat 0's score) or Shinobi's seat
  table (win rate by player count and seat);
* :func:`card_value_forest`: each card change's value to its holder with its interval;
* :func:`tuner_progress`: each trial's score and the best so far (``tune``).

For example (it needs matplotlib, the ``lab`` extra)::

    import ordonnance as od
    from ordonnance import lab

    study = lab.metrics(od.Rules(), games=10_000, seed=1)
    lab.plot(study).savefig("win_rates.png")
    lab.plots.length_histogram(study, measure="lead changes").savefig("lead_changes.png")
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ordonnance.core.extras import require_extra
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError, shown
from ordonnance.lab.study import Label, Row, Study

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "plot", "figures", "win_rate_bars", "length_histogram", "matchup_heat_map", "card_value_forest",
    "tuner_progress", "caption", "PALETTE",
]  # fmt: skip

#: The Okabe-Ito colours (blue, orange, bluish green, reddish purple, sky blue, vermilion, yellow).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
_HATCHES = ("", "//", "..", "xx", "\\\\", "oo", "++")
_LINES = ("-", "--", ":", "-.")
_MARKERS = {"add": "o", "remove": "s"}
_PER = {"metrics": "", "compare": " per arm", "card_values": " per arm", "matchups": " per cell", "tune": " per trial"}


def _figure_class() -> Any:
    """matplotlib's Figure class, or the ImportError naming the ``lab`` extra."""
    try:
        from matplotlib.figure import Figure
    except ImportError as error:
        require_extra("lab", error, "the lab's plots", "matplotlib")
        raise  # pragma: no cover - require_extra raised
    return Figure


def _study(study: object) -> Study:
    if not isinstance(study, Study):
        raise OrdonnanceTypeError(f"study must be an ordonnance.lab.Study, got {shown(study)}")
    return study


def _canvas(ax: object, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """The figure and axes to draw on: ``ax``'s, or a new figure's."""
    figure_class = _figure_class()
    if ax is None:
        figure: Figure = figure_class(figsize=size, layout="constrained")
        return figure, figure.add_subplot()
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise OrdonnanceTypeError(f"ax must be a matplotlib Axes or None, got {shown(ax)}")
    root = ax.get_figure(root=True)
    if not isinstance(root, figure_class):  # pragma: no cover - an Axes always has a figure
        raise OrdonnanceTypeError(f"ax must belong to a figure, got {shown(ax)}")
    return root, ax


def caption(study: Study) -> str:
    """What a figure says of its study: its games and seed (``"2,000 games per arm, seed 1"``)."""
    record = _study(study).record
    return f"{record.games:,} games{_PER.get(record.study, '')}, seed {record.seed}"


def _title(ax: Axes, what: str, study: Study) -> None:
    ax.set_title(f"{what}\n{caption(study)}", fontsize=10)


def _without(item: Row, *names: str) -> tuple[tuple[str, Label], ...]:
    return tuple((k, v) for k, v in item.labels if k not in names)


def _group_name(labels: tuple[tuple[str, Label], ...]) -> str:
    return ", ".join(f"{v}" if k in ("arm", "army0", "army1") else f"{k} {v}" for k, v in labels) or "all games"


def win_rate_bars(study: Study, ax: Axes | None = None) -> Figure:
    """Bars of each seat's win rate with its 95% interval, one group of bars per arm (or
    player count, or army pair); ``compare``'s differences are left out (its arms are shown)."""
    study = _study(study)
    groups: dict[tuple[tuple[str, Label], ...], list[Row]] = {}
    for item in study.rows:
        if item.metric == "win rate" and " - " not in str(item.label("arm") or "") and item.label("seat") is not None:
            groups.setdefault(_without(item, "seat"), []).append(item)
    if not groups:
        raise InvalidArgumentError(f"the study has no win rate by seat to plot (a {shown(study.record.study)} study)")
    seats = max(int(item.label("seat") or 0) for rows in groups.values() for item in rows) + 1
    figure, ax = _canvas(ax, (max(5.0, 1.2 + 0.5 * seats * len(groups)), 4.0))
    width = 0.8 / len(groups)
    for index, (labels, rows) in enumerate(groups.items()):
        x = np.array([int(item.label("seat") or 0) for item in rows], dtype=float) + (index - (len(groups) - 1) / 2) * width
        values = np.array([item.estimate.value for item in rows])
        spread = np.nan_to_num(np.array([[v - item.estimate.low, item.estimate.high - v] for v, item in zip(values, rows)]).T)
        ax.bar(x, values, width * 0.92, yerr=spread, capsize=3, label=_group_name(labels),
               color=PALETTE[index % len(PALETTE)], hatch=_HATCHES[index % len(_HATCHES)], edgecolor="black",
               linewidth=0.6, error_kw={"elinewidth": 1.0})  # fmt: skip
    counts = {len(rows) for rows in groups.values()}
    if len(counts) == 1:
        ax.axhline(1 / counts.pop(), color="black", linestyle=":", linewidth=1, label="an even share")
    ax.set_xticks(range(seats), [str(seat) for seat in range(seats)])
    ax.set_xlabel("seat (0 plays first)")
    ax.set_ylabel("win rate (95% interval)")
    highs = [item.estimate.high for rows in groups.values() for item in rows if math.isfinite(item.estimate.high)]
    ax.set_ylim(0, min(1.0, max(highs, default=0.8) * 1.25 + 0.02))
    ax.legend(fontsize=8, loc="upper right")
    _title(ax, "Win rate by seat", study)
    return figure


def _length_arrays(study: Study, measure: str) -> dict[str, Any]:
    found = {name: array for name, array in study.arrays.items() if name == measure or name.endswith(" " + measure)}
    if not found:
        raise InvalidArgumentError(
            f"the study has no array of {shown(measure)} to plot; its arrays: {shown(sorted(study.arrays))}"
        )
    return found


def length_histogram(study: Study, ax: Axes | None = None, measure: str = "decisions") -> Figure:
    """The share of games by ``measure`` (``"decisions"``, ``"rounds"``, ``"turns"``, ``"lead
    changes"``: an array of the study's, index = the length), one outline per arm."""
    study = _study(study)
    if not isinstance(measure, str):
        raise OrdonnanceTypeError(f"measure must be the name of one of the study's arrays, got {shown(measure)}")
    found = _length_arrays(study, measure)
    figure, ax = _canvas(ax, (6.0, 3.8))
    for index, (name, counts) in enumerate(found.items()):
        counts = np.asarray(counts, dtype=float)
        total = counts.sum()
        shares = counts / total if total > 0 else counts
        arm = name[: -len(measure)].strip() or "all games"
        ax.stairs(shares, np.arange(len(shares) + 1) - 0.5, label=f"{arm} ({int(total):,} games)",
                  color=PALETTE[index % len(PALETTE)], linestyle=_LINES[index % len(_LINES)], linewidth=1.8,
                  fill=len(found) == 1, alpha=0.85)  # fmt: skip
    used = np.flatnonzero(np.sum([np.pad(np.asarray(a), (0, max(map(len, found.values())) - len(a))) for a in found.values()], axis=0))
    if len(used):
        ax.set_xlim(used[0] - 1.5, used[-1] + 1.5)
    ax.set_xlabel(f"{measure} in a game")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=8)
    _title(ax, f"Game length: {measure}", study)
    return figure


def _ink(value: float) -> str:
    """Black or white text, whichever reads on ``cividis`` at ``value`` (0..1)."""
    return "black" if value > 0.55 else "white"


def matchup_heat_map(study: Study, ax: Axes | None = None) -> Figure:
    """The matchup table as a heat map: Black Prince's seat-0 army score for each pair of
    armies (rows: seat 0's army), or Shinobi's win rate by player count and seat; each
    cell prints its value and its interval's half width."""
    study = _study(study)
    if any(item.label("army0") is not None for item in study.rows):
        cells = [item for item in study.rows if item.metric == "army score"]
        rows_of = list(dict.fromkeys(str(item.label("army0")) for item in cells))
        columns_of = list(dict.fromkeys(str(item.label("army1")) for item in cells))
        where = {(str(item.label("army0")), str(item.label("army1"))): item for item in cells}
        ylabel, xlabel, what = "army of seat 0", "army of seat 1", "Seat 0's score (win 1, draw ½) by army"
        bar_label = "seat 0's score"
    elif any(item.label("players") is not None for item in study.rows):
        cells = [item for item in study.rows if item.metric == "win rate" and item.label("seat") is not None]
        rows_of = [str(n) for n in dict.fromkeys(item.label("players") for item in cells)]
        columns_of = [str(s) for s in range(max((int(item.label("seat") or 0) for item in cells), default=-1) + 1)]
        where = {(str(item.label("players")), str(item.label("seat"))): item for item in cells}
        ylabel, xlabel, what, bar_label = "players", "seat (0 plays first)", "Win rate by seat", "win rate"
    else:
        raise InvalidArgumentError(f"the study is no matchup table (a {shown(study.record.study)} study)")
    if not where:
        raise InvalidArgumentError("the matchup table has no cell to plot (was it stopped before the first?)")
    grid = np.full((len(rows_of), len(columns_of)), np.nan)
    for (r, c), item in where.items():
        grid[rows_of.index(r), columns_of.index(c)] = item.estimate.value
    figure, ax = _canvas(ax, (1.8 + 1.1 * len(columns_of), 1.4 + 0.8 * len(rows_of)))
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="cividis", vmin=0.0, vmax=1.0, aspect="auto")
    for (r, c), item in where.items():
        half = (item.estimate.high - item.estimate.low) / 2
        ax.text(columns_of.index(c), rows_of.index(r), f"{item.estimate.value:.2f}\n±{half:.2f}", ha="center",
                va="center", fontsize=8, color=_ink(item.estimate.value))  # fmt: skip
    ax.set_xticks(range(len(columns_of)), columns_of)
    ax.set_yticks(range(len(rows_of)), rows_of)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    figure.colorbar(image, ax=ax, label=bar_label)
    _title(ax, what, study)
    return figure


def _change_label(item: Row) -> str:
    seat = item.label("seat")
    holder = item.label("holder")
    who = f" (seat {seat})" if seat is not None else f" (holder: {holder})" if holder not in (None, "played", "drew", "clan") else ""
    return f"{item.label('kind')} {item.label('change')}{who}"


def card_value_forest(study: Study, ax: Axes | None = None) -> Figure:
    """A forest plot: each card change's effect on its holder's win rate, with its 95%
    interval, one line per change (added: circles, removed: squares, swapped: diamonds)."""
    study = _study(study)
    rows = [item for item in study.rows if item.metric.endswith("win rate change")]
    if not rows:
        raise InvalidArgumentError(f"the study has no card value to plot (a {shown(study.record.study)} study)")
    figure, ax = _canvas(ax, (6.5, 1.3 + 0.26 * len(rows)))
    ys = np.arange(len(rows))[::-1]
    shown_changes: set[str] = set()
    for y, item in zip(ys, rows):
        change = str(item.label("change"))
        kind = change if change in _MARKERS else "swap"
        e = item.estimate
        ax.errorbar([e.value], [y], xerr=[[e.value - e.low], [e.high - e.value]], fmt=_MARKERS.get(kind, "D"),
                    color=PALETTE[{"add": 0, "remove": 1}.get(kind, 2)], capsize=2, markersize=5,
                    label=None if kind in shown_changes else kind)  # fmt: skip
        shown_changes.add(kind)
    ax.axvline(0.0, color="black", linewidth=0.8, linestyle=":")
    ax.set_yticks(ys, [_change_label(item) for item in rows], fontsize=7)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("change in the holder's win rate (95% interval)")
    ax.set_ylabel("card kind and change")
    ax.legend(fontsize=8, loc="best")
    _title(ax, "Card value by controlled experiment", study)
    return figure


def tuner_progress(study: Study, ax: Axes | None = None) -> Figure:
    """The tuner's search: each trial's score (open circles; impossible rules left out)
    and the best score so far (a step line), lower is better."""
    study = _study(study)
    if "score" not in study.arrays or "best" not in study.arrays:
        raise InvalidArgumentError(f"the study has no tuner's progress to plot (a {shown(study.record.study)} study)")
    scores = np.asarray(study.arrays["score"], dtype=float)
    best = np.asarray(study.arrays["best"], dtype=float)
    figure, ax = _canvas(ax, (6.0, 3.8))
    trials = np.arange(1, len(scores) + 1)
    ax.plot(trials, scores, "o", markerfacecolor="none", color=PALETTE[0], label="a trial's score")
    ax.step(trials, best, where="post", color=PALETTE[5], linestyle="--", linewidth=1.8, label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("score (target misses + changes' penalty)")
    ax.legend(fontsize=8)
    _title(ax, "The tuner's progress", study)
    return figure


def plot(study: Study, ax: Axes | None = None) -> Figure:
    """The figure that fits ``study``'s kind: win rates for ``metrics`` and ``compare``, the
    heat map for ``matchups``, the forest plot for ``card_values``, the progress for ``tune``."""
    study = _study(study)
    kind = study.record.study
    if kind == "tune":
        return tuner_progress(study, ax)
    if kind == "matchups":
        return matchup_heat_map(study, ax)
    if kind == "card_values":
        return card_value_forest(study, ax)
    return win_rate_bars(study, ax)


def figures(study: Study) -> list[tuple[str, Figure]]:
    """Every figure a report shows of ``study``, with its title: :func:`plot`'s, and for a
    study with game lengths, the histogram of decisions (and of rounds when they vary)."""
    study = _study(study)
    made = [("the study", plot(study))]
    for measure in ("decisions", "rounds"):
        arrays = [np.asarray(a) for name, a in study.arrays.items() if name == measure or name.endswith(" " + measure)]
        varied = any(np.count_nonzero(a) > 1 for a in arrays)
        if arrays and (measure == "decisions" or varied):
            made.append((f"game length: {measure}", length_histogram(study, measure=measure)))
    return made
