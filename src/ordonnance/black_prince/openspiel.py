"""OpenSpiel adapter: Black Prince as a ``pyspiel`` game, and bots across the two libraries.

Install the optional extra first: ``pip install "ordonnance[openspiel]"``. Importing this
module registers the game with ``pyspiel.register_game`` as ``"python_black_prince"``::

    import pyspiel
    import ordonnance.black_prince.openspiel

    game = pyspiel.load_game("python_black_prince", {"army0": "Scottish", "first": "coin"})

Without OpenSpiel the module still imports; using it then raises :class:`ImportError`.

**Parameters** (all optional), as in :class:`~ordonnance.black_prince.Rules`: ``army0``
and ``army1`` (the armies' names, English and French by default), ``first``
(``"seat0"`` or ``"coin"``), ``max_turns`` (1..10000); ``deck0`` and ``deck1``, custom
decks as card texts separated by ``/`` (``"Battle/Archers 2/Knights 1/..."``; ``""``, the
default: the armies' printed decks); ``seed``, ``-1`` (the default) for chance nodes, or
a seed in 0..2**31-1 for the game of ``Game.new(rules, seed=seed)``. The advantage
table is the rules' default (:data:`~ordonnance.black_prince.DEFAULT_ADVANTAGES`).

**Chance.** With ``seed=-1`` every random event of the engine is a chance node: the
shuffle of seat 0's deck, card by card, top card first (outcome: the card's number among
the deck's different cards in :meth:`Rules.deck <ordonnance.black_prince.Rules.deck>`'s
order, probability copies left / cards left), then seat 1's, then the coin (outcomes 0
and 1, the seat that starts, one half each) with ``first="coin"``, and during play each
card a breakthrough takes at random from the enemy's hand (outcome: its place in that
hand, in the order drawn, one over the cards held), as likely as under the engine's
chance stream, which the chance nodes replace (the stream draws nothing for them, so the
game's :attr:`~ordonnance.black_prince.Game.history` starts again at the position a
breakthrough leaves, as a sampled game's does). With a ``seed`` the stream of
``Game.new(rules, seed=seed)`` decides all of it: there is no chance node and
``get_type().chance_mode`` is ``DETERMINISTIC``, else ``EXPLICIT_STOCHASTIC``.

**Actions** are the 117 indices of :mod:`ordonnance.black_prince.pettingzoo`
(:func:`~ordonnance.black_prince.pettingzoo.action_index`); a card held twice is placed
by its first hand slot's index, so every legal action has one index. **Returns**: +1
to the winner, -1 to the loser, 0 to both in a draw (zero-sum).

**Observations.** A seat's observation tensor is
:func:`ordonnance.black_prince.pettingzoo.encode_view` of its view and its observation
string the table as it sees it (:func:`ordonnance.black_prince.render.board`). Its
information state string is the seat, its hand, every decision so far and the card
each breakthrough took (all public); its information state tensor is the observation
tensor. :meth:`~ordonnance.core.openspiel.SpielState.resample_from_infostate` deals
the hidden cards again with :meth:`PlayerView.sample_game
<ordonnance.black_prince.PlayerView.sample_game>`.
"""

from __future__ import annotations

import copy

import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.black_prince import render
from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.pettingzoo import NUM_ACTIONS, action_from_index, action_index, encode_view, observation_layout
from ordonnance.black_prince.rules import COLUMNS, HAND_SIZE, Rules
from ordonnance.black_prince.view import PlayerView
from ordonnance.core import openspiel as core
from ordonnance.core.checks import shown
from ordonnance.core.openspiel import AVAILABLE, Adapter, Pending, Shuffle, SpielGame, SpielState, require_openspiel
from ordonnance.core.rng import bounded, splitmix64
from ordonnance.errors import OrdonnanceTypeError

try:
    import pyspiel
except ImportError:  # pragma: no cover - exercised without the extra
    pass

__all__ = [
    "SHORT_NAME", "BlackPrinceGame", "BlackPrinceState", "LibraryBot", "OpenSpielBot", "load", "rules_of", "state_of",
    "action_of",
]  # fmt: skip

#: The name the game is registered under.
SHORT_NAME = "python_black_prince"
_DEFAULTS: dict[str, Any] = {
    "army0": "English", "army1": "French", "first": "seat0", "max_turns": 200, "deck0": "", "deck1": "", "seed": -1,
}  # fmt: skip
#: A bound on the decisions of one turn: a placement, the Battle card's choice, and a battle
#: (each unit's ride, fight and breakthrough, and its end).
_TURN_ACTIONS = 2 + 3 * COLUMNS + 1


def rules_of(params: Mapping[str, Any]) -> tuple[Rules, int | None]:
    """The :class:`~ordonnance.black_prince.Rules` and the fixed deal's seed (None: chance nodes)
    of a parameter dict (missing keys take their defaults)."""
    values = core.check_params(params, _DEFAULTS)
    decks = []
    for seat in (0, 1):
        text = values[f"deck{seat}"]
        if not isinstance(text, str):
            raise OrdonnanceTypeError(f"deck{seat} must be card texts separated by '/', got {shown(text)}")
        decks.append([Card.parse(card) for card in text.split("/")] if text.strip() else None)
    if (decks[0] is None) != (decks[1] is None):
        raise OrdonnanceTypeError(f"give both deck0 and deck1, or neither, got {shown(values['deck0'])} and {shown(values['deck1'])}")
    rules = Rules(
        armies=(values["army0"], values["army1"]), first=values["first"], max_turns=values["max_turns"],
        decks=None if decks[0] is None else (decks[0], decks[1]),
    )  # fmt: skip
    return rules, core.deal_seed(values["seed"])


def _params_of(rules: Rules, seed: int | None) -> dict[str, Any]:
    decks = ["", ""] if rules.decks is None else ["/".join(map(str, deck)) for deck in rules.decks]
    return {
        "army0": rules.armies[0], "army1": rules.armies[1], "first": rules.first, "max_turns": rules.max_turns,
        "deck0": decks[0], "deck1": decks[1], "seed": -1 if seed is None else seed,
    }  # fmt: skip


def _kinds(rules: Rules, seat: int) -> list[Card]:
    """The different cards of ``seat``'s deck, in the rules' order: a chance outcome is one's number."""
    kinds: list[Card] = []
    for card in rules.deck(seat):
        if card not in kinds:
            kinds.append(card)
    return kinds


# --------------------------------------------------------------- breakthroughs as chance nodes

_DRAWS = threading.local()  # the draws a trial game answers: .picks, and .at, the next one


class _Draw(Exception):
    """A trial game needs a draw no chance node has made yet: of ``hand`` (its place in it)."""

    def __init__(self, hand: tuple[Card, ...]) -> None:
        super().__init__(len(hand))
        self.hand = hand


class _Trial(Game):
    """A game whose breakthroughs take the cards chance nodes chose (``_DRAWS.picks``), not the
    stream's: it is a :class:`Game` again once its action is done."""

    __slots__ = ()

    def _chance_index(self, n: int) -> int:
        at = _DRAWS.at
        if at == len(_DRAWS.picks):
            enemy = self._hands[1 - self._current]  # a breakthrough takes a card of the enemy's hand
            raise _Draw(tuple(enemy) if len(enemy) == n else (None,) * n)  # type: ignore[arg-type]
        _DRAWS.at = at + 1
        pick: int = _DRAWS.picks[at]
        return pick


def _played(before: Game, action: Action, picks: list[int]) -> Game | _Draw:
    """``before`` after ``action`` with the breakthroughs' draws ``picks``, or the next draw it needs."""
    trial = before.clone()
    trial.__class__ = _Trial
    _DRAWS.picks, _DRAWS.at = picks, 0
    try:
        trial.apply(action)
    except _Draw as draw:
        return draw
    finally:
        _DRAWS.picks = None
    trial.__class__ = Game
    if not picks:
        return trial
    # The seed's stream did not take these cards, so the history from the deal would not lead
    # here: the game's history starts at this position instead (as a sampled game's does).
    return Game._from_position(trial.rules, **trial._parts())


class _Breakthroughs(Pending):
    """The draws of an action's breakthroughs: one chance node each."""

    def __init__(self, before: Game, action: Action, draw: _Draw) -> None:
        self.before, self.action, self.hand = before, action, draw.hand
        self.picks: list[int] = []

    def outcomes(self) -> list[tuple[int, float]]:
        n = len(self.hand)
        return [(i, 1 / n) for i in range(n)]

    def take(self, outcome: int) -> Game | None:
        self.picks.append(outcome)
        after = _played(self.before, self.action, self.picks)
        if isinstance(after, _Draw):
            self.hand = after.hand
            return None
        return after

    def text(self, outcome: int) -> str:
        return f"Breakthrough takes the enemy's hand card {outcome} ({self._card(outcome)})"

    def event(self, outcome: int) -> str:
        return f"Breakthrough takes {self._card(outcome)}"  # which of the enemy's cards it was is the enemy's to know

    def _card(self, outcome: int) -> str:
        card = self.hand[outcome] if 0 <= outcome < len(self.hand) else None
        return "?" if card is None else str(card)

    def copy(self) -> _Breakthroughs:
        twin = copy.copy(self)
        twin.picks = self.picks[:]  # the one part a copy changes
        return twin


def _coin_seed(starter: int) -> int:
    """The smallest seed whose stream's first draw, the engine's coin, gives ``starter``."""
    seed = 0
    while bounded(splitmix64(seed)[1], 2) != starter:
        seed += 1
    return seed


# --------------------------------------------------------------- the adapter


class _BlackPrince(Adapter):
    short_name = SHORT_NAME
    long_name = "Python Black Prince (the ordonnance library)"
    defaults = _DEFAULTS
    players = (2, 2)
    zero_sum = True
    num_actions = NUM_ACTIONS
    game_class = Game

    def rules_of(self, params: Mapping[str, Any]) -> tuple[Rules, int | None]:
        return rules_of(params)

    def params_of(self, rules: Rules, seed: int | None) -> dict[str, Any]:
        return _params_of(rules, seed)

    def new_game(self, rules: Rules, seed: int) -> Game:
        return Game.new(rules, seed=seed)

    def deal(self, rules: Rules) -> list[Shuffle]:
        shuffles = []
        for seat in (0, 1):
            kinds = _kinds(rules, seat)
            deck = rules.deck(seat)
            shuffles.append(Shuffle([deck.count(card) for card in kinds], names=[f"seat {seat}: {card}" for card in kinds]))
        if rules.first == "coin":
            shuffles.append(Shuffle([1, 1], 1, ["coin: seat 0 starts", "coin: seat 1 starts"]))
        return shuffles

    def dealt(self, rules: Rules, cards: list[list[int]]) -> Game:
        orders = [[kinds[i] for i in drawn] for kinds, drawn in zip((_kinds(rules, 0), _kinds(rules, 1)), cards)]
        seed = _coin_seed(cards[2][0]) if rules.first == "coin" else 0
        return Game.new(rules, seed=seed, orders=orders)

    def legal(self, game: Game, view: Callable[[int], PlayerView]) -> list[int]:
        seen = view(game.current_player)
        return sorted({action_index(action, seen) for action in seen.legal_actions})

    def action_of(self, game: Game, view: Callable[[int], PlayerView], index: int) -> Action:
        return action_from_index(index, view(game.current_player))

    def index_of(self, view: PlayerView, action: Any) -> int:
        return action_index(action, view)

    def apply(self, game: Game, action: Action, chance: bool) -> Any:
        if not chance:
            game.apply(action)
            return game
        after = _played(game, action, [])
        return _Breakthroughs(game, action, after) if isinstance(after, _Draw) else after

    def returns(self, game: Game) -> list[float]:
        winner = game.winner
        return [0.0, 0.0] if winner is None else [1.0 if seat == winner else -1.0 for seat in (0, 1)]

    def layout(self, rules: Rules) -> tuple[tuple[str, int], ...]:
        return observation_layout()

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        return encode_view(view)

    def private_text(self, view: PlayerView) -> str:
        return f"hand {' '.join(map(str, view.hand))}"

    def board_text(self, table: Any) -> str:
        return render.board(table, width=None)

    def max_game_length(self, rules: Rules) -> int:
        return len(rules.deck(0)) + len(rules.deck(1)) + 1 + rules.max_turns * _TURN_ACTIONS

    def max_chance_outcomes(self, rules: Rules) -> int:
        return max(super().max_chance_outcomes(rules), HAND_SIZE)


_ADAPTER = _BlackPrince()


class BlackPrinceState(SpielState):
    """A ``pyspiel.State`` of Black Prince: one :class:`~ordonnance.black_prince.Game` (see the module's docstring)."""

    adapter = _ADAPTER


class BlackPrinceGame(SpielGame):
    """The ``pyspiel.Game`` of Black Prince under one set of rules (see the module's docstring)."""

    adapter = _ADAPTER
    state_type = BlackPrinceState


class LibraryBot(core.LibraryBot):
    """A Black Prince bot (``choose(view)``) as a ``pyspiel.Bot``: it sees only its seat's view.

    ``LibraryBot(ordonnance.black_prince.bots.Greedy(seed=0)).step(state)``."""

    state_type = BlackPrinceState


class OpenSpielBot(core.OpenSpielBot):
    """A ``pyspiel.Bot`` as a Black Prince bot (see :class:`ordonnance.core.openspiel.OpenSpielBot`)."""


def load(rules: Rules | None = None, *, seed: int | None = None) -> BlackPrinceGame:
    """The registered OpenSpiel game of ``rules`` (default ``Rules()``), with chance nodes, or
    the game of ``Game.new(rules, seed=seed)`` (``seed`` in 0..2**31-1) with none."""
    require_openspiel()
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a black_prince Rules, got {shown(rules)}")
    if rules.advantages != Rules().advantages or any(card.advantages is not None for seat in (0, 1) for card in rules.deck(seat)):
        raise OrdonnanceTypeError(f"the OpenSpiel game plays the default advantage table, got {shown(rules)}")
    game = pyspiel.load_game(SHORT_NAME, _params_of(rules, core.fixed_seed(seed)))
    assert isinstance(game, BlackPrinceGame)
    return game


def state_of(game: Game, spiel_game: BlackPrinceGame | None = None) -> BlackPrinceState:
    """An OpenSpiel state at ``game``'s position, for ``spiel_game`` (default: the registered
    game of ``game.rules``); its information-state strings list no history."""
    require_openspiel()
    if not isinstance(game, Game):
        raise OrdonnanceTypeError(f"state_of() takes a black_prince Game, not {type(game).__name__}: {shown(game)}")
    state = core.state_of(load(game.rules) if spiel_game is None else spiel_game, game)
    assert isinstance(state, BlackPrinceState)
    return state


def action_of(state: BlackPrinceState, index: int) -> Action:
    """The Black Prince action of a legal index ``index`` of ``state``."""
    return action_from_index(index, state._p.view(state.current_player()))


if AVAILABLE:
    BlackPrinceGame.types = core.register(
        BlackPrinceGame, SHORT_NAME, _BlackPrince.long_name, zero_sum=True, players=(2, 2), parameters=_DEFAULTS
    )
