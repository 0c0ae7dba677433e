"""ordonnance: the reference rules engine for the card game Ordonnance.

>>> import ordonnance as od
>>> # a regiment of Swords beats a battalion of Banners
>>> od.army_key(["SH", "SH", "LS", "S"]) > od.army_key(["F", "F", "F", "L"])
True
"""

from __future__ import annotations

import os as _os

from ordonnance import _numba_cache

_numba_cache.install(_os.path.dirname(__file__))  # before any kernel is decorated

from ordonnance.core import compiling as _compiling

_compiling.install()  # a notice on stderr before a long compile

from ordonnance.army import (
    ARMY_SIZE,
    KEY_BITS,
    ArmyDescription,
    army_key,
    army_keys,
    compare_armies,
    describe,
    warm_up,
)
from ordonnance import bots, games, render
from ordonnance.actions import Action, Claim, Pass, Play, action_from_json, action_to_json
from ordonnance.cards import Card, CardLike, Symbol, build_deck, deck_counts, standard_deck
from ordonnance.completion import Completion, best_completion, best_completion_key, can_beat
from ordonnance.errors import (
    BotError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidArmyError,
    InvalidCardError,
    InvalidDeckError,
    InvalidGameStateError,
    InvalidKeyError,
    InvalidRulesError,
    InvalidSeatError,
    InvalidSeedError,
    InvalidTerritoryError,
    OrdonnanceError,
    OrdonnanceTypeError,
)
from ordonnance.game import Counterexample, Game
from ordonnance.ladder import Ladder, ladder
from ordonnance.odds import Odds, territory_odds
from ordonnance.rules import Rules
from ordonnance.simulation import SimulationResult, Summary, simulate
from ordonnance.territory import Territory
from ordonnance.tournament import TournamentResult, tournament
from ordonnance.view import PlayerView

__version__ = "0.1.0.dev0"

__all__ = [
    "ARMY_SIZE",
    "KEY_BITS",
    "Action",
    "ArmyDescription",
    "BotError",
    "Card",
    "CardLike",
    "Claim",
    "Completion",
    "Counterexample",
    "Game",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidArmyError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidGameStateError",
    "InvalidKeyError",
    "InvalidRulesError",
    "InvalidSeatError",
    "InvalidSeedError",
    "InvalidTerritoryError",
    "Ladder",
    "Odds",
    "OrdonnanceError",
    "OrdonnanceTypeError",
    "Pass",
    "Play",
    "PlayerView",
    "Rules",
    "SimulationResult",
    "Summary",
    "Symbol",
    "Territory",
    "TournamentResult",
    "action_from_json",
    "action_to_json",
    "army_key",
    "bots",
    "army_keys",
    "best_completion",
    "best_completion_key",
    "build_deck",
    "can_beat",
    "compare_armies",
    "deck_counts",
    "describe",
    "games",
    "ladder",
    "render",
    "simulate",
    "standard_deck",
    "territory_odds",
    "tournament",
    "warm_up",
]
