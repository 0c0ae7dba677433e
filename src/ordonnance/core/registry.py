"""The registry of games: each game's :class:`~ordonnance.core.spec.GameInfo`, its package on demand.

>>> from ordonnance.core import registry
>>> registry.names()
('ordonnance', 'shinobi', 'black-prince')
>>> registry.info("shinobi").max_players
5
>>> registry.package("black-prince").__name__
'ordonnance.black_prince'

Packages are imported on first use, so ``import ordonnance`` stays cheap.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from ordonnance.core.spec import GameInfo
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = ["GAMES", "names", "info", "package", "loaded", "name_of", "kernel_bot"]

#: Every game, in the order the docs and the command line list them.
GAMES: tuple[GameInfo, ...] = (
    GameInfo("ordonnance", "Ordonnance (The Kingdoms of Crusaders)", "ordonnance", 2, 4),
    GameInfo("shinobi", "Shinobi: War of Clans", "ordonnance.shinobi", 3, 5),
    GameInfo("black-prince", "Black Prince", "ordonnance.black_prince", 2, 2),
)
_BY_NAME = {game.name: game for game in GAMES}


def names() -> tuple[str, ...]:
    """The games' names, as ``--game`` takes them."""
    return tuple(_BY_NAME)


def info(name: str) -> GameInfo:
    """The :class:`GameInfo` of the game called ``name``."""
    if not isinstance(name, str) or name not in _BY_NAME:
        raise InvalidArgumentError(f"a game is one of {', '.join(_BY_NAME)}, got {shown(name)}")
    return _BY_NAME[name]


def package(name: str) -> ModuleType:
    """The package that implements the game called ``name``."""
    return importlib.import_module(info(name).package)


def loaded() -> list[tuple[str, ModuleType]]:
    """The games whose packages are imported (an object of a game can only come from those)."""
    return [(game.name, sys.modules[game.package]) for game in GAMES if game.package in sys.modules]


def name_of(rules: object) -> str:
    """The name of the game whose ``Rules`` ``rules`` is."""
    for name, game in loaded():
        if type(rules) is getattr(game, "Rules", None):
            return name
    raise OrdonnanceTypeError(
        f"rules must be the Rules of one of the games ({', '.join(_BY_NAME)}), "
        f"not {type(rules).__name__}: {shown(rules)}"
    )


def kernel_bot(bot: object) -> bool:
    """Whether ``bot`` is one that its game's ``simulate`` plays inside the numba kernel."""
    for _, game in loaded():
        bots = getattr(game, "bots", None)
        if bots is not None and (type(bot) is getattr(bots, "Random", None) or type(bot) is getattr(bots, "Greedy", None)):
            return True
    return False
