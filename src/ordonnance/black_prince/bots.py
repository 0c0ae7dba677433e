"""Bots for Black Prince: anything with ``choose(view) -> action`` can play.

A bot sees only a :class:`~ordonnance.black_prince.PlayerView`. Bots are
seeded (a SplitMix64 stream, as the simulator's twins), so games between
them replay exactly.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.view import PlayerView
from ordonnance.core.bots import GameBot, UniformRandom

__all__ = ["Bot", "Random", "Greedy", "MonteCarlo"]


@runtime_checkable
class Bot(GameBot[PlayerView, Action], Protocol):
    """The bot protocol of Black Prince: ``choose(view)`` picks one of the
    :class:`~ordonnance.black_prince.PlayerView`'s ``legal_actions``
    (:class:`ordonnance.core.bots.GameBot` for Black Prince's views and actions)."""


class Random(UniformRandom):
    """Takes a uniformly random legal action (one output of its stream per decision)."""

    prefix = "black_prince."
    view_type = PlayerView


from ordonnance.black_prince._greedy import Greedy  # noqa: E402  (it builds on the classes above)
from ordonnance.black_prince._montecarlo import MonteCarlo  # noqa: E402
