"""A study's tidy table, its CSV and Parquet, and its record."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from ordonnance import shinobi
from ordonnance.errors import InvalidArgumentError
from ordonnance.lab.stats import Estimate, paired_difference, proportion
from ordonnance.lab.study import Record, Study, row, rules_text


def _study() -> Study:
    return Study(
        (
            row("win rate", proportion(60, 100), seat=0),
            row("win rate", proportion(40, 100), seat=1),
            row("win rate", paired_difference([1, 0, 1, 1], [1, 0, 0, 1]), seat=0, arm="variant - base"),
            row("decisions", Estimate(30.0, 29.0, 31.0, 100)),
        ),
        Record("compare", "lab.compare(a, b, games=100, seed=7)", seed=7, games=100, rules=(rules_text(shinobi.Rules()),)),
        {"decisions": np.array([0, 5, 95])},
    )


def test_columns_follow_the_labels_rows_name() -> None:
    study = _study()
    assert study.columns() == ("metric", "seat", "arm", "value", "low", "high", "games", "unpaired_games")
    records = study.records()
    assert records[3]["seat"] is None and records[0]["arm"] is None and records[0]["unpaired_games"] is None
    assert records[2]["unpaired_games"] == study.rows[2].estimate.columns()["unpaired_games"]


def test_get_finds_one_row_or_says_why_not() -> None:
    study = _study()
    assert study.get("win rate", seat=1).value == 0.4
    assert study.get("win rate", seat=0, arm="variant - base").games == 4
    with pytest.raises(InvalidArgumentError, match="2 rows of 'win rate'"):
        study.get("win rate", seat=0)
    with pytest.raises(InvalidArgumentError, match="0 rows of 'length'.*'decisions'"):
        study.get("length")


def test_arrays_are_kept_read_only_copies() -> None:
    counts = np.array([1, 2])
    study = Study((), Record("metrics", "", seed=0, games=3), {"decisions": counts})
    counts[0] = 9
    assert study.arrays["decisions"].tolist() == [1, 2]
    with pytest.raises(ValueError):
        study.arrays["decisions"][0] = 5


def test_record_keeps_the_version_and_rules() -> None:
    from ordonnance import __version__

    record = _study().record
    assert record.version == __version__
    assert json.loads(record.rules[0]) == {"game": "shinobi", "rules": shinobi.Rules().to_dict()}
    assert "call: lab.compare(a, b, games=100, seed=7)" in record.text()
    assert record.as_dict()["seed"] == 7


def test_text_prints_every_row() -> None:
    lines = _study().text().splitlines()
    assert lines[0].split() == list(_study().columns())
    assert len(lines) == 5 and lines[4].startswith("decisions")


def test_table_csv_and_parquet(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    study = _study()
    frame = study.table()
    assert list(frame.columns) == list(study.columns())
    assert frame["value"].tolist() == [item.estimate.value for item in study.rows]
    assert frame.attrs["ordonnance.lab"]["call"] == study.record.call
    study.to_csv(tmp_path / "study.csv")
    back = pd.read_csv(tmp_path / "study.csv")
    assert back["games"].tolist() == [100, 100, 4, 100]
    assert math.isnan(back["seat"][3])
    pytest.importorskip("pyarrow")
    study.to_parquet(tmp_path / "study.parquet")
    parquet = pd.read_parquet(tmp_path / "study.parquet")
    assert parquet["high"].tolist() == frame["high"].tolist()
    assert parquet.attrs["ordonnance.lab"]["seed"] == 7


def test_table_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"ordonnance\[lab\]"):
        _study().table()
    assert "win rate" in _study().text()  # text needs no pandas
