"""The game protocol: what every game of the library provides, and what the shared tools may use.

A game is a package (Ordonnance's is the top level of :mod:`ordonnance`) that
exports the names below; the registry (:mod:`ordonnance.core.registry`) knows each
game by a :class:`GameInfo` and imports its package on first use. Every shared
tool (simulation summaries, tournaments, the ladder, the command line, the play
server and the research adapters) reaches a game through these names only, so a
fourth game plugs in by implementing them and adding one :class:`GameInfo`.

What a game package ``M`` exports:

* ``M.Rules``: an immutable rule set (:class:`RulesLike`), ``M.Rules()`` the default;
* ``M.Game``: a mutable position (:class:`GameLike`), ``M.Game.new(rules, seed=)``;
  ``game.view(seat)`` is what one seat may see, ``game.public_view_json()`` what anyone
  may see (a spectator: the view less the seat's own keys, its schema
  ``M.Game.public_view_schema()``), ``game.to_json()`` everything;
* ``M.PlayerView``: one seat's view (:class:`ViewLike`), ``M.PlayerView.from_json(text)``;
* ``M.action_to_json(action)`` and ``M.action_from_json(text)``: the action codec;
* ``M.simulate(rules, *, games, seed, players, record)``: a result with
  ``winner``, ``scores`` and ``summary()`` (:class:`ordonnance.core.summary.Summary`
  or a subclass);
* ``M.bots``: ``Random`` and ``Greedy`` (the kernel's bots) and ``MonteCarlo``
  (a search bot taking ``time_limit=``);
* ``M.render``: ``svg(game_or_view)`` and ``board(game_or_view)`` (text);
* ``M.cli``: the command line's hooks (see :mod:`ordonnance.core.cli`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

__all__ = ["GameInfo", "RulesLike", "GameLike", "ViewLike"]


@attrs.frozen
class GameInfo:
    """A game as the registry knows it, declared once (OpenSpiel's ``GameType``)."""

    name: str
    """The name ``--game`` takes: ``"ordonnance"``, ``"shinobi"``, ``"black-prince"``."""
    title: str
    """The game's title, for people."""
    package: str
    """The package that implements the protocol (``"ordonnance.shinobi"``)."""
    min_players: int
    """The fewest seats a rule set may have."""
    max_players: int
    """The most seats a rule set may have."""
    hidden_information: bool = True
    """Whether a seat's view hides cards (every game here hides hands)."""
    chance: bool = True
    """Whether shuffles (chance) decide part of the game."""


@runtime_checkable
class RulesLike(Protocol):
    """What the shared tools read of any game's ``Rules``."""

    @property
    def players(self) -> int:
        """Players a game."""


@runtime_checkable
class ViewLike(Protocol):
    """What one seat may see of a position."""

    @property
    def seat(self) -> int:
        """The seat whose view this is."""

    @property
    def legal_actions(self) -> tuple[Any, ...]:
        """The seat's legal actions (empty when it is not to act)."""

    def to_json(self) -> str:
        """The view as versioned JSON: exactly what the seat may see."""


@runtime_checkable
class GameLike(Protocol):
    """A position of any game, as the shared tools drive it."""

    @property
    def rules(self) -> Any:
        """The rules played."""

    @property
    def current_player(self) -> int | None:
        """The seat to act (None once the game is over)."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def history(self) -> Sequence[Any]:
        """The actions applied since the deal, in order."""

    def legal_actions(self) -> Sequence[Any]:
        """The actions the seat to act may take."""

    def apply(self, action: Any) -> None:
        """Play ``action``; an illegal one raises and leaves the game as it was."""

    def view(self, seat: int) -> Any:
        """What ``seat`` may see."""

    def public_view_json(self) -> str:
        """What anyone may see (a spectator), as JSON: no card any seat hides."""

    def to_json(self) -> str:
        """A lossless save."""
