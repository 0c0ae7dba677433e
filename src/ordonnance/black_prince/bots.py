"""Bots for Black Prince: anything with ``choose(view) -> action`` can play.

A bot sees only a :class:`~ordonnance.black_prince.PlayerView`. Bots are
seeded (a SplitMix64 stream, as the simulator's twins), so games between
them replay exactly.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.view import PlayerView
from ordonnance.core.bots import UniformRandom, legal

__all__ = ["Bot", "Random", "Greedy", "MonteCarlo"]


@runtime_checkable
class Bot(Protocol):
    """The bot protocol: pick one of ``view.legal_actions``."""

    def choose(self, view: PlayerView) -> Action:
        """Return one of ``view.legal_actions``."""
        ...


def _legal(view: PlayerView) -> tuple[Action, ...]:
    """``view.legal_actions``, checked (:func:`ordonnance.core.bots.legal`): a Black Prince view with an action."""
    return legal(view, PlayerView)


class Random(UniformRandom):
    """Takes a uniformly random legal action (one output of its stream per decision)."""

    prefix = "black_prince."
    view_type = PlayerView


from ordonnance.black_prince._greedy import Greedy  # noqa: E402  (it builds on the classes above)
from ordonnance.black_prince._montecarlo import MonteCarlo  # noqa: E402
