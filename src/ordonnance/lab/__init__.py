"""A designer's lab: balance studies of any game on the simulator (the ``lab`` extra).

Every study plays simulated games through the game protocol (each game's ``simulate``),
so it works for Ordonnance, Shinobi and Black Prince alike, and returns a
:class:`~ordonnance.lab.study.Study`: a tidy table of estimates with 95% intervals
(:mod:`ordonnance.lab.stats`) and the record that reproduces it.

* :func:`metrics`: the metrics of a rule set (:mod:`ordonnance.lab.measures`);
* :func:`compare`: two rule sets on common random numbers, each metric's paired
  difference (:mod:`ordonnance.lab.comparison`);
* :func:`card_values`: each card kind's value to its holder by controlled experiment
  (:mod:`ordonnance.lab.cards`); :func:`matchups`: Black Prince's army table and Shinobi's
  seat table (:mod:`ordonnance.lab.matchup_tables`);
* :func:`tune`: search rule options and deck composition toward :class:`Target` s, fewest
  changes first, over a :class:`Space` (:mod:`ordonnance.lab.tuner`, :mod:`ordonnance.lab.space`);
* :func:`plot`: the figure that fits a study (:mod:`ordonnance.lab.plots`, matplotlib);
  :func:`report`: one self-contained HTML report of a study (:mod:`ordonnance.lab.reports`);
* :mod:`ordonnance.lab.stats`: the estimates (a proportion, a mean, a quantile, paired and
  unpaired differences), each an :class:`~ordonnance.lab.stats.Estimate`;
* :mod:`ordonnance.lab.study`: :class:`~ordonnance.lab.study.Study`, its rows and record,
  its DataFrame, CSV and Parquet.

``import ordonnance.lab`` needs only the library's own dependencies; a study's table
needs pandas (``pip install 'ordonnance[lab]'``), and says so when it is missing.
"""

from __future__ import annotations

from ordonnance.lab.stats import Difference, Estimate
from ordonnance.lab.study import Record, Row, Study
from ordonnance.lab.measures import metrics
from ordonnance.lab.cards import card_values
from ordonnance.lab.matchup_tables import matchups
from ordonnance.lab.comparison import compare
from ordonnance.lab.space import Space
from ordonnance.lab.tuner import Target, Tuned, Variant, target, tune
from ordonnance.lab.plots import plot
from ordonnance.lab.reports import report

__all__ = [
    "Estimate", "Difference", "Row", "Record", "Study", "metrics", "compare", "card_values", "matchups",
    "tune", "Target", "target", "Space", "Tuned", "Variant", "plot", "report",
]  # fmt: skip
