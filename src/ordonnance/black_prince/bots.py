"""Bots for Black Prince: anything with ``choose(view) -> action`` can play.

A bot sees only a :class:`~ordonnance.black_prince.PlayerView`. Bots are
seeded (a SplitMix64 stream, as the simulator's twins), so games between
them replay exactly.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.view import PlayerView
from ordonnance.bots import _SeededBot
from ordonnance.errors import IllegalActionError

__all__ = ["Bot", "Random", "Greedy", "MonteCarlo"]


@runtime_checkable
class Bot(Protocol):
    """The bot protocol: pick one of ``view.legal_actions``."""

    def choose(self, view: PlayerView) -> Action:
        """Return one of ``view.legal_actions``."""
        ...


def _legal(view: PlayerView) -> tuple[Action, ...]:
    if not view.legal_actions:
        raise IllegalActionError(None, f"seat {view.seat} has no legal action in this view")
    return view.legal_actions


class Random(_SeededBot):
    """Takes a uniformly random legal action (one output of its stream per decision)."""

    def choose(self, view: PlayerView) -> Action:
        """A uniformly random element of ``view.legal_actions``."""
        actions = _legal(view)
        return actions[self._pick(len(actions))]

    def __repr__(self) -> str:
        return f"black_prince.Random(seed={self.seed})"


from ordonnance.black_prince._greedy import Greedy  # noqa: E402  (it builds on the classes above)
from ordonnance.black_prince._montecarlo import MonteCarlo  # noqa: E402
