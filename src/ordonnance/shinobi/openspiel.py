"""OpenSpiel adapter: Shinobi as a ``pyspiel`` game, and bots across the two libraries.

Install the optional extra first: ``pip install "ordonnance[openspiel]"``. Importing this
module registers the game with ``pyspiel.register_game`` as ``"python_shinobi"``::

    import pyspiel
    import ordonnance.shinobi.openspiel

    game = pyspiel.load_game("python_shinobi", {"players": 3, "attack": "optional"})

Without OpenSpiel the module still imports; using it then raises :class:`ImportError`.

**Parameters** (all optional): ``players`` (3..5), ``samurai`` (the samurai cards of
each clan: five counts separated by spaces, ``"11 11 11 11 11"`` by default, or one count
for every clan),
``ninjas`` (0..3) and ``attack`` (``"mandatory"`` or ``"optional"``) as in
:class:`~ordonnance.shinobi.Rules`; ``seed``, ``-1`` (the default) to deal by chance
nodes, or a seed in 0..2**31-1 for the fixed deal of ``Game.new(rules, seed=seed)``.

**Chance.** The deal is two shuffles, card by card: first the clan cards, one chance
node per seat (outcome: the clan 0..4 of seat 0, then seat 1...; probability one over
the clans left), then the troop deck, top card first (outcome: the card's code 0..5,
probability copies left / cards left), as likely as every order of ``Game.new``'s
shuffles. The first ``4 * players`` cards are dealt round-robin and the rest is the
draw pile, as in the engine; nothing later is random. With a ``seed`` there is no
chance node and ``get_type().chance_mode`` is ``DETERMINISTIC``, else
``EXPLICIT_STOCHASTIC``.

**Actions** are the 306 action codes (:attr:`Deploy.code
<ordonnance.shinobi.Deploy.code>`, :func:`~ordonnance.shinobi.from_code`).
**Returns**, as in the PettingZoo environment: the winners share +1 and the others
-1 (general-sum: when every seat shares the win the returns add up to 1).

**Observations.** A seat's observation tensor is
:func:`ordonnance.shinobi.rl.encode_view` of its view and its observation string
the table as it sees it (:func:`ordonnance.shinobi.render.board`). Its information
state string is the seat, its clan and hand and every action so far (all public);
its information state tensor is the observation tensor.
:meth:`~ordonnance.core.openspiel.SpielState.resample_from_infostate` deals the
hidden clans and cards again with :meth:`PlayerView.sample_game
<ordonnance.shinobi.PlayerView.sample_game>`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.core import openspiel as core
from ordonnance.core.checks import shown
from ordonnance.core.openspiel import AVAILABLE, Adapter, Shuffle, SpielGame, SpielState, require_openspiel
from ordonnance.errors import OrdonnanceTypeError
from ordonnance.shinobi import render
from ordonnance.shinobi.actions import ACTION_COUNT, Action, from_code
from ordonnance.shinobi.cards import CLAN_NAMES, CLANS, CODES, Card
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rl import encode_view, observation_layout
from ordonnance.shinobi.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ordonnance.shinobi.simulation import max_decisions
from ordonnance.shinobi.view import PlayerView

try:
    import pyspiel
except ImportError:  # pragma: no cover - exercised without the extra
    pass

__all__ = ["SHORT_NAME", "ShinobiGame", "ShinobiState", "LibraryBot", "OpenSpielBot", "load", "rules_of", "state_of", "action_of"]

#: The name the game is registered under.
SHORT_NAME = "python_shinobi"
_DEFAULTS: dict[str, Any] = {"players": 4, "samurai": "11 11 11 11 11", "ninjas": 3, "attack": "mandatory", "seed": -1}
_CARD_NAMES = tuple(str(Card.from_code(code)) for code in range(CODES))


def rules_of(params: Mapping[str, Any]) -> tuple[Rules, int | None]:
    """The :class:`~ordonnance.shinobi.Rules` and the fixed deal's seed (None: chance nodes)
    of a parameter dict (missing keys take their defaults)."""
    values = core.check_params(params, _DEFAULTS)
    samurai = values["samurai"]
    if not isinstance(samurai, str):
        raise OrdonnanceTypeError(f"samurai must be one count or {CLANS} counts separated by spaces, got {shown(samurai)}")
    words = samurai.split()
    if len(words) not in (1, CLANS) or not all(word.isascii() and word.isdigit() for word in words):
        raise OrdonnanceTypeError(f"samurai must be one count or {CLANS} counts separated by spaces, got {shown(samurai)}")
    counts = int(words[0]) if len(words) == 1 else tuple(map(int, words))
    rules = Rules(players=values["players"], samurai=counts, ninjas=values["ninjas"], attack=values["attack"])
    return rules, core.deal_seed(values["seed"])


def _params_of(rules: Rules, seed: int | None) -> dict[str, Any]:
    # Always five counts: OpenSpiel reads a game's text back and would take one count for an int.
    return {"players": rules.players, "samurai": " ".join(map(str, rules.samurai)), "ninjas": rules.ninjas, "attack": rules.attack,
            "seed": -1 if seed is None else seed}  # fmt: skip


class _Shinobi(Adapter):
    short_name = SHORT_NAME
    long_name = "Python Shinobi: War of Clans (the ordonnance library)"
    defaults = _DEFAULTS
    players = (MIN_PLAYERS, MAX_PLAYERS)
    zero_sum = False
    num_actions = ACTION_COUNT
    game_class = Game

    def rules_of(self, params: Mapping[str, Any]) -> tuple[Rules, int | None]:
        return rules_of(params)

    def params_of(self, rules: Rules, seed: int | None) -> dict[str, Any]:
        return _params_of(rules, seed)

    def new_game(self, rules: Rules, seed: int) -> Game:
        return Game.new(rules, seed=seed)

    def deal(self, rules: Rules) -> list[Shuffle]:
        deck = [0] * CODES
        for code in rules.troop_deck:
            deck[code] += 1
        return [Shuffle([1] * CLANS, rules.players, [f"clan {name}" for name in CLAN_NAMES]), Shuffle(deck, names=_CARD_NAMES)]

    def dealt(self, rules: Rules, cards: list[list[int]]) -> Game:
        clans, deck = cards
        return Game.new(rules, deck=deck, clans=clans)

    def legal(self, game: Game, view: Any) -> list[int]:
        return [action.code for action in game.legal_actions()]  # in code order

    def action_of(self, game: Game, view: Any, index: int) -> Action:
        return from_code(index)

    def index_of(self, view: PlayerView, action: Any) -> int:
        return int(action.code)

    def returns(self, game: Game) -> list[float]:
        winners, n = game.winners, game.players
        return [1 / len(winners) if seat in winners else -1 / (n - len(winners)) for seat in range(n)]

    def layout(self, rules: Rules) -> tuple[tuple[str, int], ...]:
        return observation_layout(rules.players)

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        return encode_view(view)

    def private_text(self, view: PlayerView) -> str:
        return f"clan {CLAN_NAMES[view.clan]} | hand {' '.join(map(str, view.hand))}"

    def board_text(self, table: Any) -> str:
        return render.board(table, width=None)

    def max_game_length(self, rules: Rules) -> int:
        return rules.players + len(rules.troop_deck) + max_decisions(rules)


_ADAPTER = _Shinobi()


class ShinobiState(SpielState):
    """A ``pyspiel.State`` of Shinobi: one :class:`~ordonnance.shinobi.Game` (see the module's docstring)."""

    adapter = _ADAPTER


class ShinobiGame(SpielGame):
    """The ``pyspiel.Game`` of Shinobi under one set of rules (see the module's docstring)."""

    adapter = _ADAPTER
    state_type = ShinobiState


class LibraryBot(core.LibraryBot):
    """A Shinobi bot (``choose(view)``) as a ``pyspiel.Bot``: it sees only its seat's view.

    ``LibraryBot(ordonnance.shinobi.bots.Greedy(seed=0)).step(state)``."""

    state_type = ShinobiState


class OpenSpielBot(core.OpenSpielBot):
    """A ``pyspiel.Bot`` as a Shinobi bot (see :class:`ordonnance.core.openspiel.OpenSpielBot`)."""


def load(rules: Rules | None = None, *, seed: int | None = None) -> ShinobiGame:
    """The registered OpenSpiel game of ``rules`` (default ``Rules()``), dealt by chance
    nodes, or from ``seed`` (0..2**31-1) with no chance nodes."""
    require_openspiel()
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a shinobi Rules, got {shown(rules)}")
    game = pyspiel.load_game(SHORT_NAME, _params_of(rules, core.fixed_seed(seed)))
    assert isinstance(game, ShinobiGame)
    return game


def state_of(game: Game, spiel_game: ShinobiGame | None = None) -> ShinobiState:
    """An OpenSpiel state at ``game``'s position, for ``spiel_game`` (default: the registered
    game of ``game.rules``); its information-state strings list no history."""
    require_openspiel()
    if not isinstance(game, Game):
        raise OrdonnanceTypeError(f"state_of() takes a shinobi Game, not {type(game).__name__}: {shown(game)}")
    state = core.state_of(load(game.rules) if spiel_game is None else spiel_game, game)
    assert isinstance(state, ShinobiState)
    return state


def action_of(state: ShinobiState, index: int) -> Action:
    """The Shinobi action of action index ``index`` (any index of the 306 codes)."""
    return from_code(index)


if AVAILABLE:
    ShinobiGame.types = core.register(
        ShinobiGame, SHORT_NAME, _Shinobi.long_name, zero_sum=False, players=_Shinobi.players, parameters=_DEFAULTS
    )
