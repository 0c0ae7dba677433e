"""What every study returns: a tidy table of estimates, and the record that reproduces it.

A :class:`Study` holds :class:`Row` s, one per measured number: the metric's name, the
labels that say which arm, seat, card or army it is about, and its
:class:`~ordonnance.lab.stats.Estimate`. Its :meth:`Study.table` is the tidy pandas
DataFrame (one row per metric and labels; columns ``metric``, each label, ``value``,
``low``, ``high``, ``games`` and, when a row is a difference, ``unpaired_games``); its
:class:`Record` says how to get the same numbers again (the call, the seed, the games,
the library version, the rules as text).

>>> from ordonnance.lab.stats import proportion
>>> from ordonnance.lab.study import Record, Study, row
>>> study = Study(
...     (row("win rate", proportion(55, 100), seat=0), row("win rate", proportion(45, 100), seat=1)),
...     Record("metrics", "lab.metrics(Rules(), games=100, seed=1)", seed=1, games=100),
... )
>>> study.get("win rate", seat=1).value
0.45
>>> print(study.text())
metric    seat  value   low     high    games
win rate  0     0.5500  0.4524  0.6439  100
win rate  1     0.4500  0.3561  0.5476  100

Only :meth:`Study.table`, :meth:`Study.to_csv` and :meth:`Study.to_parquet` need pandas
(the ``lab`` extra); ``to_parquet`` needs pyarrow as well.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.core.extras import require_extra
from ordonnance.errors import InvalidArgumentError, shown
from ordonnance.lab.stats import Difference, Estimate

if TYPE_CHECKING:
    import pandas

__all__ = ["Label", "Row", "row", "Record", "Study", "rules_text", "ESTIMATE_COLUMNS"]

#: A label's value: which seat (an int), arm, card or army (a str), or a number the row is about.
Label = str | int | float

#: The columns every row's estimate fills, after the labels.
ESTIMATE_COLUMNS = ("value", "low", "high", "games")


@attrs.frozen
class Row:
    """One measured number of a study: ``metric`` for the ``labels`` given."""

    metric: str
    """What was measured (``"win rate"``, ``"decisions"``, ``"first-player advantage"``)."""
    estimate: Estimate
    """The number with its 95% interval."""
    labels: tuple[tuple[str, Label], ...] = ()
    """``(column, value)`` pairs naming what the number is about (``("seat", 0)``, ``("arm", "variant")``)."""

    def label(self, name: str) -> Label | None:
        """The value of label ``name`` (None when the row has none)."""
        return dict(self.labels).get(name)


def row(metric: str, estimate: Estimate, **labels: Label) -> Row:
    """A :class:`Row`, its labels given as keywords: ``row("win rate", e, seat=0)``."""
    return Row(metric, estimate, tuple(labels.items()))


def rules_text(rules: Any) -> str:
    """A rule set as text, as the record keeps it: the game's name and the rules' ``to_dict``, as JSON.

    >>> from ordonnance import shinobi
    >>> rules_text(shinobi.Rules(players=3))[:40]
    '{"game": "shinobi", "rules": {"players":'
    """
    from ordonnance.core import registry

    return json.dumps({"game": registry.name_of(rules), "rules": rules.to_dict()})


def _version() -> str:
    from ordonnance import __version__

    return __version__


@attrs.frozen
class Record:
    """How a study was made, so anyone can make it again."""

    study: str
    """Which study (``"metrics"``, ``"compare"``, ...)."""
    call: str
    """The command line or Python call that reproduces it."""
    seed: int
    """The seed it was given."""
    games: int
    """The games it played (per arm, per cell: what its ``games=`` said)."""
    rules: tuple[str, ...] = ()
    """Each arm's rules, as :func:`rules_text` writes them."""
    players: tuple[str, ...] = ()
    """The bots of each seat, as text."""
    notes: tuple[str, ...] = ()
    """What a reader must know to read the numbers (``"deals not paired: the decks differ"``)."""
    version: str = attrs.field(factory=_version)
    """The library's version that made it."""

    def as_dict(self) -> dict[str, Any]:
        """The record as plain JSON data."""
        return {
            "study": self.study,
            "call": self.call,
            "seed": self.seed,
            "games": self.games,
            "rules": list(self.rules),
            "players": list(self.players),
            "notes": list(self.notes),
            "version": self.version,
        }

    def text(self) -> str:
        """The record as lines of ``name: value``, for people."""
        lines = [f"study: {self.study}", f"call: {self.call}", f"seed: {self.seed}", f"games: {self.games}"]
        lines += [f"rules: {rules}" for rules in self.rules]
        if self.players:
            lines.append(f"players: {', '.join(self.players)}")
        lines += [f"note: {note}" for note in self.notes]
        lines.append(f"ordonnance version: {self.version}")
        return "\n".join(lines)


def _no_copy(arrays: Mapping[str, npt.NDArray[Any]]) -> dict[str, npt.NDArray[Any]]:
    """The arrays, read-only, so a study cannot change under its readers."""
    kept = {}
    for name, array in arrays.items():
        frozen = np.array(array, copy=True)
        frozen.flags.writeable = False
        kept[name] = frozen
    return kept


@attrs.frozen(eq=False)
class Study:
    """The result of a study: its rows (:meth:`table`), its record, and arrays ready to plot."""

    rows: tuple[Row, ...]
    """The measured numbers, in the order the study made them."""
    record: Record
    """How to make them again."""
    arrays: Mapping[str, npt.NDArray[Any]] = attrs.field(factory=dict, converter=_no_copy)
    """Named arrays behind the rows, ready for a plot (``"decisions"``: how many games took
    each number of decisions, index = decisions), read-only."""

    def labels(self) -> tuple[str, ...]:
        """The label columns of the table, in the order the rows first name them."""
        names: dict[str, None] = {}
        for item in self.rows:
            for name, _ in item.labels:
                names.setdefault(name)
        return tuple(names)

    def columns(self) -> tuple[str, ...]:
        """Every column of :meth:`table`, in order."""
        extra = ("unpaired_games",) if any(isinstance(item.estimate, Difference) for item in self.rows) else ()
        return ("metric", *self.labels(), *ESTIMATE_COLUMNS, *extra)

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts of :meth:`columns` (None where a row has no such label or column)."""
        columns = self.columns()
        out = []
        for item in self.rows:
            values: dict[str, Any] = dict.fromkeys(columns)
            values["metric"] = item.metric
            values.update(item.labels)
            values.update(item.estimate.columns())
            out.append(values)
        return out

    def find(self, metric: str, **labels: Label) -> tuple[Row, ...]:
        """The rows of ``metric`` whose labels include ``labels``."""
        return tuple(
            item for item in self.rows if item.metric == metric and all(item.label(k) == v for k, v in labels.items())
        )

    def get(self, metric: str, **labels: Label) -> Estimate:
        """The estimate of the one row of ``metric`` with ``labels``; the library's error when
        none or several match."""
        found = self.find(metric, **labels)
        if len(found) != 1:
            known = sorted({item.metric for item in self.rows})
            raise InvalidArgumentError(
                f"{len(found)} rows of {shown(metric)} with labels {shown(labels)} (one was wanted); metrics: {shown(known)}"
            )
        return found[0].estimate

    def table(self) -> pandas.DataFrame:
        """The tidy table: a pandas DataFrame, one row per :class:`Row`, columns :meth:`columns`;
        its ``attrs["ordonnance.lab"]`` holds the record (:meth:`Record.as_dict`)."""
        pd = _pandas()
        frame = pd.DataFrame(self.records(), columns=list(self.columns()))
        frame.attrs["ordonnance.lab"] = self.record.as_dict()
        return frame

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`table` to ``path`` as CSV (the record is not in it: keep :meth:`Record.text`)."""
        self.table().to_csv(path, index=False)

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`table` to ``path`` as Parquet (needs pyarrow); the record goes with it, in
        the table's ``attrs``, which pandas reads back."""
        try:
            import pyarrow  # noqa: F401
        except ImportError as error:
            require_extra("lab", error, "Parquet tables", "pyarrow")
        self.table().to_parquet(path, index=False)

    def text(self, digits: int = 4) -> str:
        """The table as aligned plain text (no pandas needed): what ``ordonnance lab`` prints."""
        columns = self.columns()
        cells = [list(columns)] + [[_cell(values[name], digits) for name in columns] for values in self.records()]
        widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
        return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in cells)


def _cell(value: Any, digits: int) -> str:
    """One cell of :meth:`Study.text`."""
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return f"{value:.{digits}f}"
    return str(value)


def _pandas() -> Any:
    """pandas, or the ImportError naming the ``lab`` extra."""
    try:
        import pandas
    except ImportError as error:
        require_extra("lab", error, "Study tables", "pandas")
        raise  # pragma: no cover - require_extra raised
    return pandas
