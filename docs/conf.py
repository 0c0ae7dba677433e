"""Sphinx configuration for the ordonnance documentation."""

from __future__ import annotations

import ordonnance

project = "ordonnance"
author = "The ordonnance developers"
copyright = "2026, The ordonnance developers"
release = ordonnance.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
]

# Local inventories (docs/make_inventories.py) so the build needs no network;
# the links still point at the real online documentation.
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", "_inventories/python.inv"),
    "numpy": ("https://numpy.org/doc/stable", "_inventories/numpy.inv"),
}

html_theme = "furo"
html_title = "ordonnance"
exclude_patterns = ["_build"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_type_aliases = {"CardLike": "ordonnance.CardLike"}
nitpicky = False

doctest_global_setup = """
import numpy as np
import ordonnance as od
from ordonnance import *
"""


def _draw_landing_table() -> None:
    """Draw the landing page's picture from the code, so it never goes stale."""
    from pathlib import Path

    game = ordonnance.Game.new(ordonnance.Rules(), seed=7)
    bots = [ordonnance.bots.Greedy(seed=1), ordonnance.bots.Random(seed=2)]
    for _ in range(24):
        seat = game.current_player
        game.apply(bots[seat].choose(game.view(seat)))
    static = Path(__file__).parent / "_static"
    static.mkdir(exist_ok=True)
    (static / "table.svg").write_text(ordonnance.render.svg(game), encoding="utf-8")


_draw_landing_table()
html_static_path = ["_static"]
