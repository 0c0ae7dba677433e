"""Command line: ``python -m ordonnance COMMAND``; the commands live in :mod:`ordonnance.cli`.

``python -m ordonnance demo`` plays a seeded game between two bots;
``python -m ordonnance --help`` lists every command.
"""

from __future__ import annotations

import sys

from ordonnance.cli import demo, main

__all__ = ["main", "demo"]

if __name__ == "__main__":
    sys.exit(main())
