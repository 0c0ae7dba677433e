"""The games of the library, and the small protocol the shared tools rely on.

Ordonnance lives at the top level of the package, Shinobi: War of Clans in
:mod:`ordonnance.shinobi` and Black Prince in :mod:`ordonnance.black_prince`.
The shared tools (:func:`ordonnance.tournament` and the ``ordonnance``
command line) find a game's module here and use nothing of it but this
protocol:

* ``Rules``, whose instances say ``players``;
* ``simulate(rules, *, games, seed, players)``, returning a result with
  ``winner`` (a seat per game, -1 when nobody wins alone) and ``scores``
  (shape ``(games, players)``, higher is better);
* ``bots.Random`` and ``bots.Greedy``, the bots that ``simulate`` plays inside
  its numba kernel (every other bot goes through the game's Python engine);
* for the games other than Ordonnance, a ``cli`` submodule (:func:`cli`) with
  ``add_play_arguments``, ``add_simulate_arguments``, ``run_play`` and
  ``run_simulate``.

>>> from ordonnance import games
>>> games.GAMES
('ordonnance', 'shinobi', 'black-prince')
>>> import ordonnance as od
>>> games.name_of(od.Rules())
'ordonnance'
>>> games.module("shinobi").__name__
'ordonnance.shinobi'
>>> games.kernel_bot(od.bots.Greedy(seed=1)), games.kernel_bot(od.bots.MonteCarlo(seed=1))
(True, False)

The game modules are imported on first use, so ``import ordonnance`` stays cheap.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Protocol

from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError

__all__ = ["GAMES", "GameRules", "module", "cli", "name_of", "kernel_bot"]

#: The games, by the name the command line's ``--game`` takes.
GAMES = ("ordonnance", "shinobi", "black-prince")
_MODULES = {"ordonnance": "ordonnance", "shinobi": "ordonnance.shinobi", "black-prince": "ordonnance.black_prince"}


class GameRules(Protocol):
    """What the shared tools read of any game's ``Rules``."""

    @property
    def players(self) -> int:
        """Players a game."""


def module(name: str) -> ModuleType:
    """The module of the game called ``name`` (one of :data:`GAMES`)."""
    if not isinstance(name, str) or name not in _MODULES:
        raise InvalidArgumentError(f"a game is one of {', '.join(GAMES)}, got {name!r}")
    return importlib.import_module(_MODULES[name])


def cli(name: str) -> ModuleType:
    """The command-line module of a game other than Ordonnance (``--game name``)."""
    if name == "ordonnance":
        raise InvalidArgumentError("Ordonnance's command line is ordonnance.cli itself, not a game's cli module")
    return importlib.import_module(module(name).__name__ + ".cli")


def _loaded() -> list[tuple[str, ModuleType]]:
    """The games whose modules are imported (an object of a game can only come from those)."""
    return [(name, sys.modules[path]) for name, path in _MODULES.items() if path in sys.modules]


def name_of(rules: object) -> str:
    """The name of the game whose ``Rules`` ``rules`` is."""
    for name, game in _loaded():
        if type(rules) is getattr(game, "Rules", None):
            return name
    raise OrdonnanceTypeError(
        f"rules must be the Rules of one of the games ({', '.join(GAMES)}), "
        f"not {type(rules).__name__}: {rules!r}"
    )


def kernel_bot(bot: object) -> bool:
    """Whether ``bot`` is one that its game's ``simulate`` plays inside the numba kernel."""
    for _, game in _loaded():
        bots = getattr(game, "bots", None)
        if bots is not None and (type(bot) is getattr(bots, "Random", None) or type(bot) is getattr(bots, "Greedy", None)):
            return True
    return False
