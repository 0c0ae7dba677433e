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

from typing import Protocol, runtime_checkable

from ordonnance.core.bots import GameBot, SeededBot, legal
from ordonnance.core.rng import bounded, splitmix64
from ordonnance.actions import PASS, Action, Claim, Play
from ordonnance.army import ARMY_SIZE, army_key
from ordonnance.view import PlayerView

__all__ = ["Bot", "Random", "Greedy", "MonteCarlo", "ISMCTS", "Search"]

_MASK64 = (1 << 64) - 1


@runtime_checkable
class Bot(GameBot[PlayerView, Action], Protocol):
    """The bot protocol: ``choose(view)`` picks one of the :class:`~ordonnance.PlayerView`'s
    ``legal_actions`` (:class:`ordonnance.core.bots.GameBot` for Ordonnance's views and actions)."""


_SeededBot = SeededBot  # the name the Ordonnance bots' modules have used


class Random(_SeededBot):
    """Plays a uniformly random legal card; without a play, claims what it can.

    The choice is uniform over the legal plays (each distinct card in hand
    into each open territory). A player who cannot play but can claim takes
    the first provable territory; otherwise passes.
    """

    view_type = PlayerView

    def choose(self, view: PlayerView) -> Action:
        """A uniformly random legal play (or a claim, or a pass, when no play exists)."""
        actions = legal(view, PlayerView)
        plays = [a for a in actions if type(a) is Play]
        if plays:
            # Plays come as distinct cards x open territories; one output picks
            # the card (high half) and the territory (low half), as the simulator does.
            territories = sum(1 for a in plays if a.card == plays[0].card)
            cards = len(plays) // territories
            self._state, value = splitmix64(self._state)
            card = bounded(value, cards)
            territory = bounded((value << 32) & _MASK64, territories)
            return plays[card * territories + territory]
        return next((a for a in actions if type(a) is Claim), PASS)


class Greedy(_SeededBot):
    """Claims whatever it can prove, else plays for the strongest army right now.

    Among plays it takes the one whose army (after the play) has the highest
    key, preferring an army that the play completes on equal keys; remaining
    ties are broken at random.
    """

    view_type = PlayerView

    def choose(self, view: PlayerView) -> Action:
        """The greedy action for this view."""
        actions = legal(view, PlayerView)
        claim = next((a for a in actions if type(a) is Claim), None)
        if claim is not None:
            return claim
        best: list[Play] = []
        best_score = (-1, False)
        for play in actions:
            if type(play) is not Play:
                continue
            army = view.armies[play.territory][view.seat] + (play.card,)
            score = (army_key(army), len(army) == ARMY_SIZE)
            if score > best_score:
                best, best_score = [play], score
            elif score == best_score:
                best.append(play)
        if not best:
            return PASS
        return best[self._pick(len(best))]


from ordonnance._montecarlo import MonteCarlo, Search  # noqa: E402  (it builds on the classes above)
from ordonnance._ismcts import ISMCTS  # noqa: E402  (it builds on the classes above)
