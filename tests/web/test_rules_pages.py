"""The rules pages the server ships are made from the docs' rules text of today."""

from __future__ import annotations

from pathlib import Path

import pytest

from ordonnance.server.rules_pages import SOURCES, page

pytest.importorskip("docutils")

DOCS = Path(__file__).parents[2] / "docs"
STATIC = Path(__file__).parents[2] / "src" / "ordonnance" / "server" / "static"


@pytest.mark.parametrize("game", SOURCES)
def test_the_rules_pages_are_current(game: str) -> None:
    shipped = (STATIC / f"rules-{game}.html").read_text(encoding="utf-8")
    assert shipped == page(game, (DOCS / SOURCES[game]).read_text(encoding="utf-8")), (
        "regenerate: python -m ordonnance.server.rules_pages"
    )
    assert "<script" not in shipped and "style=" not in shipped and ":class:" not in shipped
