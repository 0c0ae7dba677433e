"""The rules pages the server ships are made from the docs' rules text of today."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ordonnance.server.rules_pages import SOURCES, page

pytest.importorskip("docutils")

DOCS = Path(__file__).parents[2] / "docs"
STATIC = Path(__file__).parents[2] / "src" / "ordonnance" / "server" / "static"


@pytest.mark.parametrize("game", SOURCES)
def test_the_rules_pages_are_current(game: str) -> None:
    import docutils

    shipped = (STATIC / f"rules-{game}.html").read_text(encoding="utf-8")
    made_by = re.search(r'<meta name="generator" content="docutils ([^"]+)">', shipped)
    assert made_by is not None
    if made_by.group(1) != docutils.__version__:  # another docutils writes other (equally good) HTML
        pytest.skip(f"the pages were made by docutils {made_by.group(1)}, this is {docutils.__version__}")
    assert shipped == page(game, (DOCS / SOURCES[game]).read_text(encoding="utf-8")), (
        "regenerate: python -m ordonnance.server.rules_pages"
    )
    assert "<script" not in shipped and "style=" not in shipped and ":class:" not in shipped
