"""Bots for Shinobi: anything with ``choose(view) -> action`` can play.

A bot sees only a :class:`~ordonnance.shinobi.PlayerView` (its own clan and
hand, the public table). Bots are seeded (SplitMix64, the generator of the
simulator) so that games between them replay exactly, and the built-in
:class:`Random` and :class:`Greedy` have exact twins in the numba kernel.

>>> from ordonnance import shinobi
>>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=4)
>>> bots = [shinobi.bots.Greedy(seed=0), shinobi.bots.Random(seed=1), shinobi.bots.Random(seed=2)]
>>> while not game.is_over:
...     game.apply(bots[game.current_player].choose(game.view(game.current_player)))
>>> game.is_over
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ordonnance.core import checks
from ordonnance.core.bots import GameBot, SeededBot, UniformRandom, legal
from ordonnance.errors import InvalidArgumentError, InvalidSeatError
from ordonnance.shinobi.actions import Action, Attack, Deploy, Move, Ninja, Pass, Reinforce
from ordonnance.shinobi.cards import CLANS, to_clan
from ordonnance.shinobi.rules import MAX_PLAYERS, MIN_PLAYERS
from ordonnance.shinobi.view import PlayerView

__all__ = ["Bot", "Random", "Greedy", "MonteCarlo", "evaluate"]


@runtime_checkable
class Bot(GameBot[PlayerView, Action], Protocol):
    """The bot protocol of Shinobi: ``choose(view)`` picks one of the
    :class:`~ordonnance.shinobi.PlayerView`'s ``legal_actions`` (:class:`ordonnance.core.bots.GameBot`
    for Shinobi's views and actions)."""


class _ShinobiBot(SeededBot):
    prefix = "shinobi.bots."
    view_type = PlayerView


class Random(UniformRandom):
    """Gives a uniformly random legal order (one SplitMix64 draw per decision)."""

    prefix = "shinobi.bots."
    view_type = PlayerView


#: Weights of :func:`evaluate` (integers, so that the kernel's twin agrees exactly).
OWN_WEIGHT = 6
STRONGEST_WEIGHT = 3
OTHERS_WEIGHT = 1
HOME_WEIGHT = 2
WEAPON_WEIGHT = 1


def evaluate(provinces: list[list[int]], seat: int, clan: int) -> int:
    """:class:`Greedy`'s value of a table for ``seat`` working for ``clan`` (higher is better).

    Each clan's strength is twice its cards less one for each of its armies that
    some army of another clan in another province outnumbers by at least one
    (it can be attacked next). The value weighs the bot's own clan's strength
    (x6) against the strongest other clan's (x3) and all other clans' (x1), and
    adds its own clan's cards at home (x2, the tie-break) and its largest army
    at home (x1, its weapon for attacks).

    ``provinces[q][c]`` is the size of clan ``c``'s army in province ``q`` (3..5 rows of 5
    counts, not negative); ``seat`` is one of its provinces and ``clan`` 0..4. Anything else
    raises the library's error.
    """
    rows = checks.bounded(provinces, "provinces", MAX_PLAYERS)
    if not MIN_PLAYERS <= len(rows) <= MAX_PLAYERS:
        raise InvalidArgumentError(f"provinces must have {MIN_PLAYERS}..{MAX_PLAYERS} rows, got {checks.shown(provinces)}")
    table = []
    for q, row in enumerate(rows):
        counts = checks.bounded(row, f"provinces[{q}]", CLANS)
        if len(counts) != CLANS:
            raise InvalidArgumentError(f"provinces[{q}] must hold {CLANS} counts, got {checks.shown(row)}")
        table.append([checks.integer(size, f"provinces[{q}][{c}]", low=0) for c, size in enumerate(counts)])
    seat = checks.integer(seat, "seat", low=0, high=len(table) - 1, error=InvalidSeatError)
    return _evaluate(table, seat, to_clan(clan))


def _evaluate(provinces: list[list[int]], seat: int, clan: int) -> int:
    """:func:`evaluate` of arguments known to be good."""
    n = len(provinces)
    strength = [2 * sum(provinces[q][c] for q in range(n)) for c in range(CLANS)]
    for q in range(n):
        for c in range(CLANS):
            size = provinces[q][c]
            if size and any(provinces[r][a] > size for r in range(n) if r != q for a in range(CLANS) if a != c):
                strength[c] -= 1
    others = [strength[c] for c in range(CLANS) if c != clan]
    return (OWN_WEIGHT * strength[clan] - STRONGEST_WEIGHT * max(others) - OTHERS_WEIGHT * sum(others)
            + HOME_WEIGHT * provinces[seat][clan] + WEAPON_WEIGHT * max(provinces[seat]))  # fmt: skip


def after(provinces: tuple[tuple[int, ...], ...], seat: int, action: Action) -> list[list[int]]:
    """The armies' sizes after ``seat`` gives ``action`` (a copy; the input is unchanged)."""
    table = [list(row) for row in provinces]
    if type(action) is Deploy:
        table[action.province][action.card_clan] += 1
    elif type(action) is Ninja:
        table[action.province][action.clan] -= 1
    elif type(action) is Reinforce:
        table[seat][action.card_clan] += 1
    elif type(action) is Move:
        table[action.from_province][action.clan] -= 1
        table[action.to_province][action.clan] += 1
    elif type(action) is Attack:
        table[action.province][action.target_clan] -= 1
    else:
        assert type(action) is Pass
    return table


class Greedy(_ShinobiBot):
    """Gives the order that leaves the table with the best :func:`evaluate` value.

    One decision ahead: it helps its own clan's count, hurts the strongest
    other clan's (and the others' a little), keeps its clan's armies out of
    reach of bigger armies, and builds a large army at home to attack with.
    Its own clan's cards weigh more than others' only through these counts,
    so it plays them where they gain something (at home, or where no bigger
    army can reach them) rather than wherever it can. Ties are broken at random.
    """

    def choose(self, view: PlayerView) -> Action:
        """The greedy action for this view."""
        actions = legal(view, PlayerView)
        best: list[Action] = []
        best_value = 0
        for action in actions:
            value = _evaluate(after(view.provinces, view.seat, action), view.seat, view.clan)
            if not best or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[self._pick(len(best))]



from ordonnance.shinobi._montecarlo import MonteCarlo  # noqa: E402  (it builds on the classes above)
