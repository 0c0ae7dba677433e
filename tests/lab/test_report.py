"""lab.report: one self-contained HTML file that parses, carries the record, embeds its figures and escapes every text."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from pathlib import Path

import attrs
import pytest

import ordonnance as od
from ordonnance import lab, shinobi
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.lab.reports import report_html
from ordonnance.lab.study import Study

pytest.importorskip("matplotlib")

HOSTILE = '<script>alert("x")</script> & <img src="https://example.com/t.png">'


class Page(HTMLParser):
    """The tags, attributes and text of a page, and whether its tags balance."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (self.open, tag)
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(page: str) -> Page:
    parser = Page()
    parser.feed(page)
    parser.close()
    assert parser.open == []
    return parser


def _study() -> Study:
    return lab.compare(od.Rules(), od.Rules(auto_claim=True), games=80, seed=7, trace_games=3, skill_games=0,
                       progress=False)  # fmt: skip


def test_the_report_carries_the_record_the_table_and_the_figures(tmp_path: Path) -> None:
    study = _study()
    lab.report(study, tmp_path / "r.html")
    page = _parsed((tmp_path / "r.html").read_text(encoding="utf-8"))
    text = " ".join(page.text)
    assert study.record.call in text and study.record.version in text
    assert "Seed" in text and f"{study.record.seed}" in text and "80" in text
    assert all(rules in text for rules in study.record.rules)
    tags = [tag for tag, _ in page.tags]
    assert tags.count("tr") == len(study.rows) + 1
    assert tags.count("th") == len(study.columns())
    images = [attributes for tag, attributes in page.tags if tag == "img"]
    assert len(images) >= 2
    for image in images:
        source = image["src"] or ""
        assert source.startswith("data:image/svg+xml;base64,")
        drawing = base64.b64decode(source.split(",", 1)[1]).decode("utf-8")
        assert "<svg" in drawing and "</svg>" in drawing
        assert "<script" not in drawing and "<foreignObject" not in drawing
        assert all(target.startswith("#") for target in re.findall(r'href="([^"]*)"', drawing))  # nothing fetched


def test_the_report_loads_nothing_from_outside(tmp_path: Path) -> None:
    page = _parsed(report_html(_study()))
    assert not [tag for tag, _ in page.tags if tag in ("script", "link", "iframe", "object", "embed")]
    for _, attributes in page.tags:
        for name in ("src", "href"):
            assert (attributes.get(name) or "data:").startswith("data:")


def test_the_same_study_gives_the_same_page() -> None:
    study = _study()
    assert report_html(study) == report_html(study)


def test_hostile_text_is_escaped() -> None:
    deck_note = attrs.evolve(_study().record, notes=(HOSTILE,), players=(HOSTILE,), rules=(HOSTILE,))
    study = Study(_study().rows, deck_note)
    page_text = report_html(study, title=HOSTILE)
    page = _parsed(page_text)
    assert "<script" not in page_text and "https://example.com" not in [a.get("src") for _, a in page.tags]
    assert [tag for tag, _ in page.tags if tag == "script"] == []
    assert HOSTILE in page.text


def test_other_kinds_of_study_report(tmp_path: Path) -> None:
    study = lab.matchups(shinobi.Rules(players=3), games=30, seed=4, counts=[3, 4], progress=False)
    lab.report(study, tmp_path / "m.html", title="Seats")
    page = _parsed((tmp_path / "m.html").read_text(encoding="utf-8"))
    assert "Seats" in page.text and len([t for t, _ in page.tags if t == "img"]) == 1
    cards = lab.card_values(od.Rules(), kinds=["L"], games=30, seed=4, progress=False)
    assert "Card values" in report_html(cards)


def test_bad_arguments_get_the_librarys_error(tmp_path: Path) -> None:
    with pytest.raises(OrdonnanceTypeError, match="study must be an ordonnance.lab.Study"):
        lab.report("study", tmp_path / "r.html")  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError, match="path must be a file path, got 3"):
        lab.report(_study(), 3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="path must name a file"):
        lab.report(_study(), "")
    with pytest.raises(OrdonnanceTypeError, match="title must be a str or None"):
        report_html(_study(), title=5)  # type: ignore[arg-type]


def test_a_tuners_report_shows_its_progress_and_variants() -> None:
    pytest.importorskip("optuna")
    tuned = lab.tune(od.Rules(), targets={"first-player advantage": (-0.05, 0.05)}, budget=4, games=20,
                     confirm_games=20, keep=1, seed=2, progress=False)  # fmt: skip
    page = _parsed(report_html(tuned))
    assert "Rules tuner" in page.text and [t for t, _ in page.tags].count("img") == 1
    assert [t for t, _ in page.tags].count("tr") == len(tuned.rows) + 1
