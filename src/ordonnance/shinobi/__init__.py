"""Shinobi: War of Clans ("Синоби. Война кланов"), the rules of :doc:`/shinobi_rules`.

3-5 players secretly serve one of five clans, deploy and move samurai of any
clan between the players' provinces, attack, and send ninjas; the clan with
the most cards left on the table wins.

>>> from ordonnance import shinobi
>>> game = shinobi.Game.new(shinobi.Rules(players=4), seed=1)
>>> bots = [shinobi.bots.Greedy(seed=s) for s in range(4)]
>>> while not game.is_over:
...     game.apply(bots[game.current_player].choose(game.view(game.current_player)))
>>> len(game.winners) >= 1, sum(game.discard) + sum(game.totals) + game.deck_size <= 58
(True, True)
"""

from __future__ import annotations

from ordonnance.shinobi import bots
from ordonnance.shinobi.actions import (
    ACTION_COUNT,
    Action,
    Attack,
    Deploy,
    Move,
    Ninja,
    Pass,
    Reinforce,
    action_from_json,
    action_to_json,
    from_code,
)
from ordonnance.shinobi.cards import CLAN_NAMES, CLANS, NINJA, Card, clan_name
from ordonnance.shinobi.game import Game, dealt
from ordonnance.shinobi.rules import HAND_SIZE, Rules
from ordonnance.shinobi.simulation import SimulationResult, Summary, simulate
from ordonnance.shinobi.view import PlayerView

__all__ = [
    "Rules", "Game", "PlayerView", "Card", "CLAN_NAMES", "CLANS", "NINJA", "HAND_SIZE", "clan_name",
    "Action", "Deploy", "Ninja", "Reinforce", "Move", "Attack", "Pass", "ACTION_COUNT", "from_code",
    "action_to_json", "action_from_json",
    "dealt", "bots", "simulate", "SimulationResult", "Summary",
]  # fmt: skip
