"""Black Prince ("Чёрный принц"), the two-player card game of the Hundred Years' War.

The rules are those of the docs' Black Prince rules page (:ref:`black-prince-rules`): four
army decks, a 6x4 battlefield, placement, mounted movement, fights decided by
strength, advantages and supports, breakthroughs; the first to rout six enemy
troops wins.

>>> from ordonnance import black_prince as bp
>>> game = bp.Game.new(bp.Rules(armies=("English", "French")), seed=1)
>>> bots = [bp.Greedy(seed=1), bp.Random(seed=2)]
>>> while not game.is_over:
...     game.apply(bots[game.current_player].choose(game.view(game.current_player)))
>>> game.winner, game.routed, game.turn
(0, (6, 0), 7)
"""

from __future__ import annotations

from ordonnance.black_prince.actions import (
    Action,
    EndBattle,
    EndTurn,
    Fight,
    MountedMove,
    Move,
    Place,
    PlaceBehind,
    PlayBattle,
    action_from_json,
    action_to_json,
)
from ordonnance.black_prince.board import Battlefield, back_row, front_row
from ordonnance.black_prince.bots import Bot, Greedy, MonteCarlo, Random
from ordonnance.black_prince.cards import ARMIES, BATTLE, Card, TroopType, deck
from ordonnance.black_prince.errors import InvalidSquareError
from ordonnance.black_prince.fight import FightResult, Side, fight
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.rules import DEFAULT_ADVANTAGES, Rules
from ordonnance.black_prince.simulation import SimulationResult, simulate
from ordonnance.black_prince.view import PlayerView

__all__ = [
    "ARMIES", "BATTLE", "DEFAULT_ADVANTAGES", "Action", "Battlefield", "Bot", "Card", "EndBattle", "EndTurn",
    "Fight", "FightResult", "Game", "Greedy", "InvalidSquareError", "MonteCarlo", "MountedMove", "Move", "Place",
    "PlaceBehind", "PlayBattle", "PlayerView", "Random", "Rules", "Side", "SimulationResult", "TroopType",
    "action_from_json", "action_to_json", "back_row", "deck", "fight", "front_row", "simulate",
]  # fmt: skip
