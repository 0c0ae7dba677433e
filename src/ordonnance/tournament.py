"""Tournaments: every bot against every other, in every seat, over many deals, in any game.

They live in the shared layer, :mod:`ordonnance.core.tournament` (the format,
the seeds, the executors); this module is the path users import them by, and
``od.tournament`` is the function itself.

>>> import ordonnance as od
>>> from ordonnance.tournament import TournamentResult, tournament
>>> tournament is od.tournament and TournamentResult is od.TournamentResult
True
"""

from __future__ import annotations

from ordonnance.core.tournament import (
    KERNEL_CHUNK_SIZE,
    MAX_CHUNK_SIZE,
    MAX_GAMES,
    MAX_SEATINGS,
    MAX_WORKERS,
    PROGRESS_DELAY,
    PYTHON_CHUNK_SIZE,
    ExecutorLike,
    TournamentResult,
    bradley_terry_elo,
    named_bots,
    tournament,
)

__all__ = [
    "tournament",
    "TournamentResult",
    "PROGRESS_DELAY",
    "KERNEL_CHUNK_SIZE",
    "PYTHON_CHUNK_SIZE",
    "MAX_GAMES",
    "MAX_SEATINGS",
    "MAX_WORKERS",
    "MAX_CHUNK_SIZE",
    "ExecutorLike",
    "bradley_terry_elo",
    "named_bots",
]
