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
]

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
