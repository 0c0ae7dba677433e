"""Bots: anything with ``choose(view) -> action`` can play.

A bot sees only a :class:`~ordonnance.PlayerView` (its own hand and the public
table), never the deck order or another hand. Bots are seeded so that games
between them replay exactly.

>>> import ordonnance as od
>>> game = od.Game.new(od.Rules(), seed=1)
>>> bots = [od.bots.Greedy(seed=0), od.bots.Random(seed=0)]
>>> while not game.is_over:
...     game.apply(bots[game.current_player].choose(game.view(game.current_player)))
>>> game.winner in (0, 1)
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ordonnance.actions import Action, Claim, Play
from ordonnance.army import ARMY_SIZE, army_key
from ordonnance.errors import IllegalActionError
from ordonnance.view import PlayerView

__all__ = ["Bot", "Random", "Greedy"]


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


class Random:
    """Chooses uniformly among the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        """A uniformly random legal action."""
        return self._rng.choice(_legal(view))

    def __repr__(self) -> str:
        return "bots.Random()"


class Greedy:
    """Claims whatever it can prove, else plays for the strongest army right now.

    Among plays it takes the one whose army (after the play) has the highest
    key, preferring armies that are closer to complete on equal keys; the
    remaining ties are broken at random.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        """The greedy action for this view."""
        actions = _legal(view)
        claims = [a for a in actions if type(a) is Claim]
        if claims:
            return claims[0]
        plays = [a for a in actions if type(a) is Play]
        if not plays:
            return actions[0]
        scored = []
        for play in plays:
            army = view.armies[play.territory][view.seat] + (play.card,)
            scored.append(((army_key(army), len(army) == ARMY_SIZE), play))
        best = max(score for score, _ in scored)
        return self._rng.choice([play for score, play in scored if score == best])

    def __repr__(self) -> str:
        return "bots.Greedy()"
