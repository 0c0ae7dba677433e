"""The Greedy bot: one-step look-ahead with the fight calculator.

:class:`Greedy` is re-exported as :class:`ordonnance.black_prince.bots.Greedy`.
It scores every legal action and takes the best, breaking ties at random
(one draw of its stream per decision, as the simulator's twin does):

* a fight is worth what it changes: +1 for each enemy card it would destroy,
  -1 for each own card it would lose (0 on equal totals), times 4;
* a placement, place behind or move is worth 4 x the *frontal balance* of
  the battlefield after it (over each column where two units face each
  other: the worth of the fight if this seat attacked, less the worth of the
  fight if the enemy attacked), plus the placed card's strength for a
  placement and 2 for a place behind (so that cards reach the table);
* a Battle card is worth the battle it would start: the worth of each
  frontal fight, the best diagonal fight where that is positive, and 1 for
  each unit that would break through into a non-empty hand; ending the turn
  is worth 0;
* a mounted move is worth 4 x (the best fight from the new column less the
  best fight from the old one), less 1; ending a battle is worth 0.

>>> from ordonnance.black_prince import Game, Rules, Greedy
>>> game = Game.new(Rules(), seed=4)
>>> Greedy(seed=1).choose(game.view(0)) in game.legal_actions()
True
"""

from __future__ import annotations

from ordonnance.black_prince.actions import Action, Fight, MountedMove, Move, Place, PlaceBehind, PlayBattle
from ordonnance.black_prince.board import Battlefield, back_row, front_row
from ordonnance.black_prince.fight import FightResult, fight
from ordonnance.black_prince.rules import COLUMNS
from ordonnance.black_prince.view import PlayerView
from ordonnance.core.bots import SeededBot as _SeededBot, legal

__all__ = ["Greedy", "worth", "frontal_balance", "score"]


def worth(result: FightResult) -> int:
    """What a fight changes for the attacker: +cards destroyed, -cards lost, 0 on a tie."""
    if result.winner is None:
        return 0
    return len(result.losses) if result.winner == "attacker" else -len(result.losses)


def frontal_balance(field: Battlefield, seat: int) -> int:
    """Over the columns where two units face each other: the worth of ``seat`` attacking
    less the worth of the enemy attacking."""
    me, them = front_row(seat), front_row(1 - seat)
    total = 0
    for c in range(COLUMNS):
        if field.cell(me, c) is not None and field.cell(them, c) is not None:
            total += worth(fight((me, c), (them, c), field)) - worth(fight((them, c), (me, c), field))
    return total


def _best_fight(field: Battlefield, seat: int, column: int) -> int:
    me, them = front_row(seat), front_row(1 - seat)
    targets = [t for t in (column - 1, column, column + 1) if 0 <= t < COLUMNS and field.cell(them, t) is not None]
    return max((worth(fight((me, column), (them, t), field)) for t in targets), default=0)


def _battle_worth(view: PlayerView) -> int:
    field, seat = view.battlefield, view.seat
    me, them = front_row(seat), front_row(1 - seat)
    total = 0
    for c in range(COLUMNS):
        if field.cell(me, c) is None:
            continue
        if field.cell(them, c) is not None:
            total += worth(fight((me, c), (them, c), field))
        elif any(0 <= t < COLUMNS and field.cell(them, t) is not None for t in (c - 1, c + 1)):
            total += max(0, _best_fight(field, seat, c))
        elif view.hand_sizes[1 - seat]:
            total += 1
    return total


def _after(field: Battlefield, seat: int, action: Action) -> Battlefield:
    """The battlefield once a placement or move is made (nothing else of the turn)."""
    if isinstance(action, Place):
        return field.with_card((front_row(seat), action.column), action.card)
    if isinstance(action, PlaceBehind):
        return field.with_card((back_row(seat), action.column), action.card)
    assert isinstance(action, (Move, MountedMove))
    to = action.column + action.step
    for row in (front_row(seat), back_row(seat)):
        field = field.with_card((row, to), field.cell(row, action.column)).with_card((row, action.column), None)
    return field


def score(view: PlayerView, action: Action) -> int:
    """Greedy's score of ``action`` in ``view`` (higher is better)."""
    field, seat = view.battlefield, view.seat
    if isinstance(action, Fight):
        return 4 * worth(fight((front_row(seat), action.column), (front_row(1 - seat), action.target), field))
    if isinstance(action, (Place, PlaceBehind, Move)):
        bonus = action.card.strength if isinstance(action, Place) else 2 if isinstance(action, PlaceBehind) else 0
        return 4 * frontal_balance(_after(field, seat, action), seat) + bonus
    if isinstance(action, PlayBattle):
        return _battle_worth(view)
    if isinstance(action, MountedMove):
        moved = _after(field, seat, action)
        return 4 * (_best_fight(moved, seat, action.column + action.step) - _best_fight(field, seat, action.column)) - 1
    return 0  # EndTurn, EndBattle


class Greedy(_SeededBot):
    """Takes the legal action with the best one-step score (see the module), ties at random."""

    view_type = PlayerView

    def choose(self, view: PlayerView) -> Action:
        """The greedy action for this view."""
        best: list[Action] = []
        best_score = 0
        for action in legal(view, PlayerView):
            value = score(view, action)
            if not best or value > best_score:
                best, best_score = [action], value
            elif value == best_score:
                best.append(action)
        return best[self._pick(len(best))]

    def __repr__(self) -> str:
        return f"black_prince.Greedy(seed={self.seed})"