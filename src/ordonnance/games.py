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
from types import ModuleType

from ordonnance.core.registry import kernel_bot, name_of, names
from ordonnance.core.registry import package as module
from ordonnance.core.spec import RulesLike as GameRules
from ordonnance.errors import InvalidArgumentError

__all__ = ["GAMES", "GameRules", "module", "cli", "name_of", "kernel_bot"]

#: The games, by the name the command line's ``--game`` takes.
GAMES = names()


def cli(name: str) -> ModuleType:
    """The command-line module of a game other than Ordonnance (``--game name``)."""
    if name == "ordonnance":
        raise InvalidArgumentError("Ordonnance's command line is ordonnance.cli itself, not a game's cli module")
    return importlib.import_module(module(name).__name__ + ".cli")
