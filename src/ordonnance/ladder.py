"""Ratings: a ladder of bots from a tournament, in any game.

It lives in the shared layer, :mod:`ordonnance.core.ladder` (the
Bradley-Terry fit, its intervals and anchor); this module is the path users
import it by, and ``od.ladder`` is the function itself.

>>> import ordonnance as od
>>> from ordonnance.ladder import Ladder, ladder
>>> ladder is od.ladder and Ladder is od.Ladder
True
"""

from __future__ import annotations

from ordonnance.core.ladder import DEFAULT_ANCHOR, Ladder, bradley_terry, ladder, rate

__all__ = ["Ladder", "ladder", "rate", "bradley_terry", "DEFAULT_ANCHOR"]
