"""What the OpenSpiel adapters of every game share: registration, parameters, chance nodes, states, bots.

Each game's ``openspiel`` module describes its game once as an :class:`Adapter` (its
parameters, its deal, its action indices and its observation encoding) and registers a
:class:`SpielGame` subclass with ``pyspiel.register_game``; the states
(:class:`SpielState`) play the game's own :class:`Game <ordonnance.shinobi.Game>`, so no
rule is written here. Ordonnance's adapter (:mod:`ordonnance.openspiel`) plays its
simulator's kernel instead, for speed, and shares the registration, the parameter checks
and the bots.

**Chance.** A deal is a list of shuffles (:class:`Shuffle`): one chance node per card
drawn, whose outcome is the card's number and whose probability is the copies left over
the cards left, so every order is exactly as likely as under the engine's shuffle. With a
fixed ``seed`` parameter the game is the deal of ``Game.new(rules, seed=seed)`` with no
chance node at all, and its type's ``chance_mode`` is ``DETERMINISTIC``; otherwise it is
``EXPLICIT_STOCHASTIC``. A game that draws at random later (Black Prince's breakthroughs)
makes those draws chance nodes too (:class:`Pending`).

**Bots.** :class:`LibraryBot` lets a bot of any game (``choose(view)``) play inside
OpenSpiel; :class:`OpenSpielBot` lets a ``pyspiel.Bot`` play any game through
``choose(view)``.

This module imports without OpenSpiel; building a game or a bot then raises
:class:`ImportError` with the install command.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ordonnance.core import checks
from ordonnance.core.bots import has_choose
from ordonnance.core.checks import shown
from ordonnance.core.extras import Unavailable
from ordonnance.core.seeds import check_seed
from ordonnance.errors import IllegalActionError, InvalidArgumentError, InvalidSeatError, InvalidSeedError, OrdonnanceTypeError

_IMPORT_ERROR: ImportError | None
try:
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error
    CHANCE, TERMINAL, SIMULTANEOUS = -1, -4, -2  # pyspiel.PlayerId's values
    GameBase: Any = Unavailable
    StateBase: Any = Unavailable
    _BotBase: Any = Unavailable
else:
    _IMPORT_ERROR = None
    CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
    SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
    #: ``pyspiel.Game``, the adapters' game base class (a stand-in without OpenSpiel).
    GameBase = pyspiel.Game
    #: ``pyspiel.State``, the adapters' state base class (a stand-in without OpenSpiel).
    StateBase = pyspiel.State
    _BotBase = pyspiel.Bot

#: Whether OpenSpiel is installed (the adapters register their games only then).
AVAILABLE = _IMPORT_ERROR is None
__all__ = [
    "AVAILABLE", "GameBase", "StateBase", "SEED_LIMIT", "Adapter", "Shuffle", "Pending", "SpielGame", "SpielState", "LibraryBot", "OpenSpielBot",
    "Observer", "require_openspiel", "game_type", "register", "check_params", "deal_seed", "fixed_seed", "sampler_seed", "bot_seat",
    "state_of", "state_adapter",
]  # fmt: skip

#: OpenSpiel's integer parameters are C++ ints: a fixed deal's seed is in 0..SEED_LIMIT-1.
SEED_LIMIT = 1 << 31


def require_openspiel() -> None:
    """Raise an ImportError with the install command when OpenSpiel is not installed."""
    if _IMPORT_ERROR is not None:
        raise ImportError(
            'the OpenSpiel adapters need OpenSpiel: pip install "ordonnance[openspiel]" '
            f"(or pip install open_spiel); the import failed with: {_IMPORT_ERROR}"
        )


# --------------------------------------------------------------- registration and parameters


def game_type(
    short_name: str, long_name: str, *, stochastic: bool, zero_sum: bool, players: tuple[int, int], parameters: Mapping[str, Any]
) -> Any:
    """The ``pyspiel.GameType`` of a game of the library: sequential, imperfect information,
    terminal rewards, every string and tensor provided; ``stochastic`` says whether chance
    nodes occur (``EXPLICIT_STOCHASTIC``) or not (``DETERMINISTIC``)."""
    require_openspiel()
    kind = pyspiel.GameType
    return kind(
        short_name=short_name,
        long_name=long_name,
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else kind.ChanceMode.DETERMINISTIC,
        information=kind.Information.IMPERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM if zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def register(game_class: type, short_name: str, long_name: str, **kwargs: Any) -> tuple[Any, Any]:
    """Register ``game_class`` under ``short_name`` with the type of its default parameters
    (chance nodes); returns the types with and without chance nodes (a game built with a
    fixed deal reports the second: OpenSpiel registers one type per name, but a game's own
    type is the one it was built with). ``kwargs`` are :func:`game_type`'s."""
    stochastic = game_type(short_name, long_name, stochastic=True, **kwargs)
    pyspiel.register_game(stochastic, game_class)
    return stochastic, game_type(short_name, long_name, stochastic=False, **kwargs)


def check_params(params: object, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` (a dict of OpenSpiel parameters) over ``defaults``, unknown names refused."""
    if not isinstance(params, Mapping):
        raise OrdonnanceTypeError(f"the parameters are a dict, got {shown(params)}")
    unknown = sorted(map(str, set(params) - set(defaults)))
    if unknown:
        raise OrdonnanceTypeError(f"unknown parameter(s) {shown(unknown)} (the parameters are {', '.join(defaults)})")
    return {**defaults, **params}


def deal_seed(value: object) -> int | None:
    """The ``seed`` parameter: -1 (None: chance nodes deal) or a seed in 0..2**31-1."""
    if not checks.is_integer(value):
        raise OrdonnanceTypeError(f"seed must be an int, got {shown(value)}")
    seed = int(value)
    if not -1 <= seed < SEED_LIMIT:
        raise InvalidSeedError(f"seed must be -1 (deal by chance nodes) or in 0..2**31-1, got {shown(seed)}")
    return None if seed == -1 else seed


def fixed_seed(seed: object) -> int | None:
    """A ``load(rules, seed=)`` argument: None (chance nodes deal) or a seed in 0..2**31-1 (a fixed deal)."""
    return None if seed is None else checks.integer(seed, "seed", low=0, high=SEED_LIMIT - 1, error=InvalidSeedError)


def sampler_seed(probability_sampler: Callable[[], float] | None) -> int:
    """A 64-bit seed from OpenSpiel's probability sampler (uniform in [0, 1)), or at random without one."""
    if probability_sampler is None:
        return secrets.randbits(64)
    return int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)


# --------------------------------------------------------------- chance


class Shuffle:
    """A shuffle dealt card by card: ``counts[i]`` copies of card number ``i``, ``draws`` of them
    drawn (all by default). A chance node's outcomes are the numbers left, each with
    probability copies left / cards left: every order is as likely as under a uniform shuffle
    (the first ``draws`` cards of one, when fewer than all are drawn)."""

    def __init__(self, counts: Sequence[int], draws: int | None = None, names: Sequence[str] | None = None) -> None:
        self.counts = tuple(counts)
        """Copies of each card number."""
        self.draws = sum(self.counts) if draws is None else draws
        """Cards drawn."""
        self.names = tuple(names) if names is not None else tuple(map(str, range(len(self.counts))))
        """Each card number's text (for ``action_to_string``)."""

    def outcomes(self, left: Sequence[int]) -> list[tuple[int, float]]:
        """The chance outcomes with ``left[i]`` copies of each number left."""
        total = sum(left)
        return [(i, c / total) for i, c in enumerate(left) if c]


class Pending:
    """Random draws of an action still to be made (chance nodes after a decision): each game
    that draws during play subclasses it."""

    def outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes and their probabilities."""
        raise NotImplementedError

    def take(self, outcome: int) -> Any:
        """Make the next draw (an outcome of :meth:`outcomes`, checked by the caller); returns the
        game once the action is done, or None when another draw follows."""
        raise NotImplementedError

    def text(self, outcome: int) -> str:
        """The outcome as text (different for each outcome)."""
        raise NotImplementedError

    def event(self, outcome: int) -> str:
        """What every seat sees of the outcome, as text (the information-state strings list it)."""
        raise NotImplementedError

    def copy(self) -> Pending:
        """An independent copy."""
        raise NotImplementedError


class Adapter:
    """One game as OpenSpiel sees it; each game's ``openspiel`` module fills it in."""

    #: The registered name and the long name.
    short_name: ClassVar[str]
    long_name: ClassVar[str]
    #: The parameters and their defaults (OpenSpiel's parameter specification).
    defaults: ClassVar[Mapping[str, Any]]
    #: The fewest and most players.
    players: ClassVar[tuple[int, int]]
    #: Whether the returns always sum to 0.
    zero_sum: ClassVar[bool]
    #: The number of action indices.
    num_actions: ClassVar[int]
    #: The game's ``Game`` class.
    game_class: ClassVar[type[Any]]

    def rules_of(self, params: Mapping[str, Any]) -> tuple[Any, int | None]:
        """The rules and the fixed deal's seed (None: chance nodes) of a parameter dict."""
        raise NotImplementedError

    def params_of(self, rules: Any, seed: int | None) -> dict[str, Any]:
        """The parameter dict of ``rules`` and a fixed deal's ``seed`` (None: chance nodes)."""
        raise NotImplementedError

    def new_game(self, rules: Any, seed: int) -> Any:
        """``Game.new(rules, seed=seed)``."""
        raise NotImplementedError

    def deal(self, rules: Any) -> list[Shuffle]:
        """The shuffles of a deal, in the order their chance nodes come."""
        raise NotImplementedError

    def dealt(self, rules: Any, cards: list[list[int]]) -> Any:
        """The game dealt by the chance outcomes (one list per shuffle of :meth:`deal`)."""
        raise NotImplementedError

    def legal(self, game: Any, view: Callable[[int], Any]) -> list[int]:
        """The legal action indices of the seat to act, increasing (``view(seat)``: a seat's view)."""
        raise NotImplementedError

    def action_of(self, game: Any, view: Callable[[int], Any], index: int) -> Any:
        """The game's action of a legal ``index`` (``view(seat)``: a seat's view)."""
        raise NotImplementedError

    def index_of(self, view: Any, action: Any) -> int:
        """The index of ``action`` in ``view`` (what :class:`LibraryBot` answers)."""
        raise NotImplementedError

    def apply(self, game: Any, action: Any, chance: bool) -> Any:
        """Apply a legal ``action``; returns the game after it, or, when ``chance`` says the
        game's random draws are chance nodes and the action draws, the :class:`Pending` draws
        (the game is then left as it was)."""
        game.apply(action)
        return game

    def returns(self, game: Any) -> list[float]:
        """Each seat's return of a finished game."""
        raise NotImplementedError

    def layout(self, rules: Any) -> tuple[tuple[str, int], ...]:
        """The observation tensor's fields (the game's ``observation_layout``)."""
        raise NotImplementedError

    def encode(self, view: Any) -> npt.NDArray[np.float32]:
        """The observation tensor of a view (the game's ``encode_view``)."""
        raise NotImplementedError

    def private_text(self, view: Any) -> str:
        """What only the view's seat knows, as text (its hand, its clan)."""
        raise NotImplementedError

    def board_text(self, table: Any) -> str:
        """A game or a view as text (the game's ``render.board``)."""
        raise NotImplementedError

    def max_game_length(self, rules: Any) -> int:
        """A bound on the actions of a game, chance nodes included."""
        raise NotImplementedError

    def max_chance_outcomes(self, rules: Any) -> int:
        """A bound on the chance outcomes' numbers (plus one)."""
        return max(len(shuffle.counts) for shuffle in self.deal(rules))


# --------------------------------------------------------------- games


class _Setup:
    """What every state of one game and parameter set shares. OpenSpiel copies games by
    pickling them; a setup pickles as its adapter's name and its key, so a copy finds the
    same one again."""

    def __init__(self, adapter: Adapter, key: tuple[tuple[str, Any], ...]) -> None:
        self.adapter = adapter
        self.key = key
        self.rules, self.seed = adapter.rules_of(dict(key))
        self.players: int = self.rules.players
        self.shuffles = adapter.deal(self.rules)
        self.start = None if self.seed is None else adapter.new_game(self.rules, self.seed)

    def __reduce__(self) -> tuple[Callable[..., _Setup], tuple[str, tuple[tuple[str, Any], ...]]]:
        return _setup, (self.adapter.short_name, self.key)

    def __deepcopy__(self, memo: dict[int, object]) -> _Setup:
        return self


_ADAPTERS: dict[str, Adapter] = {}
_SETUPS: dict[tuple[str, tuple[tuple[str, Any], ...]], _Setup] = {}


#: The module of each game adapted here (a state unpickled in a fresh process imports it).
_MODULES = {"python_shinobi": "ordonnance.shinobi.openspiel", "python_black_prince": "ordonnance.black_prince.openspiel"}


def _setup(name: str, key: tuple[tuple[str, Any], ...]) -> _Setup:
    found = _SETUPS.get((name, key))
    if found is None:
        if name not in _ADAPTERS:
            import importlib

            _ADAPTERS[name] = importlib.import_module(_MODULES[name])._ADAPTER
        found = _SETUPS[name, key] = _Setup(_ADAPTERS[name], key)
    return found


def _key_of(adapter: Adapter, params: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    rules, seed = adapter.rules_of(params)
    return tuple(sorted(adapter.params_of(rules, seed).items()))


class SpielGame(GameBase):  # type: ignore[misc]
    """A ``pyspiel.Game`` of one of the library's games under one parameter set (subclassed by each game)."""

    adapter: ClassVar[Adapter]
    #: The types with and without chance nodes (set by the game's module when it registers).
    types: ClassVar[tuple[Any, Any]]
    state_type: ClassVar[type[SpielState]]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        require_openspiel()
        adapter = self.adapter
        _ADAPTERS.setdefault(adapter.short_name, adapter)
        key = _key_of(adapter, dict(params or {}))
        setup = _setup(adapter.short_name, key)
        rules = setup.rules
        info = pyspiel.GameInfo(
            num_distinct_actions=adapter.num_actions,
            max_chance_outcomes=adapter.max_chance_outcomes(rules),
            num_players=setup.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if adapter.zero_sum else None,
            max_game_length=adapter.max_game_length(rules),
        )
        super().__init__(self.types[0] if setup.seed is None else self.types[1], info, dict(key))
        self._shared = setup

    @property
    def _setup(self) -> _Setup:
        found = self.__dict__.get("_shared")
        if found is None:  # a copy made by OpenSpiel (pickled without its attributes)
            _ADAPTERS.setdefault(self.adapter.short_name, self.adapter)
            found = self._shared = _setup(self.adapter.short_name, _key_of(self.adapter, self.get_parameters()))
        return found

    @property
    def rules(self) -> Any:
        """The rules of every game."""
        return self._setup.rules

    @property
    def deal_seed(self) -> int | None:
        """The seed of the fixed deal, or None when the deal is by chance nodes."""
        return self._setup.seed

    def new_initial_state(self) -> SpielState:
        """A game before the deal (chance nodes), or dealt from the fixed seed."""
        return self.state_type(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> Observer:
        """The observer of a seat: its view (or its information state, with perfect recall)."""
        if params:
            raise OrdonnanceTypeError(f"the observer takes no parameters, got {shown(params)}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self._setup, perfect_recall=perfect_recall)


# --------------------------------------------------------------- states


class _Play:
    """A state's game and history, copied in one step (OpenSpiel clones a Python state by
    deep-copying its attributes one by one)."""

    __slots__ = ("setup", "game", "stage", "left", "cards", "events", "legal", "pending", "views")

    def __init__(self, setup: _Setup, game: Any) -> None:
        self.setup = setup
        self.game = game  # the engine's Game; None while dealing
        self.stage = 0  # the shuffle being dealt
        self.left = list(setup.shuffles[0].counts) if game is None and setup.shuffles else []
        self.cards: list[list[int]] = [[] for _ in setup.shuffles]  # the chance outcomes of the deal
        self.events: list[str] = []  # every decision, and what the later draws showed, as text
        self.legal: list[int] = []
        self.pending: Pending | None = None
        self.views: dict[int, Any] = {}  # views by seat, made on demand, dropped by every action

    def __deepcopy__(self, memo: dict[int, object]) -> _Play:
        copy = _Play.__new__(_Play)
        copy.setup = self.setup
        copy.game = None if self.game is None else self.game.clone()
        copy.stage = self.stage
        copy.left = self.left[:]
        copy.cards = [drawn[:] for drawn in self.cards]
        copy.events = self.events[:]
        copy.legal = self.legal
        copy.pending = None if self.pending is None else self.pending.copy()
        copy.views = {}
        return copy

    def view(self, seat: int) -> Any:
        found = self.views.get(seat)
        if found is None:
            found = self.views[seat] = self.game.view(seat)
        return found


class SpielState(StateBase):  # type: ignore[misc]
    """A ``pyspiel.State`` playing the game's engine (subclassed by each game)."""

    def __init__(self, game: SpielGame, *, deal: bool = True) -> None:
        super().__init__(game)
        setup = game._setup
        start = setup.start.clone() if deal and setup.start is not None else None
        self._p = _Play(setup, start)
        self._current = CHANCE  # the deal's first chance node (or, deal=False, set up by the caller)
        if start is not None:
            self._settled(start)

    def _settled(self, game: Any) -> None:
        """The game (its deal done, its action's draws made) is the state's: read who acts."""
        play = self._p
        play.game = game
        play.pending = None
        play.views = {}
        if game.is_over:
            play.legal = []
            self._current = TERMINAL
        else:
            play.legal = play.setup.adapter.legal(game, play.view)
            self._current = game.current_player

    # --------------------------------------------------------------- pyspiel's State

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` at a chance node, or ``TERMINAL``."""
        return self._current

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self._current == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether the next action is chance's (a card dealt, a random draw)."""
        return self._current == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action indices of ``player`` (default: the one to act), increasing; the
        chance outcomes at a chance node."""
        current = self._current
        if player is None or player == current:
            if current >= 0:
                return self._p.legal[:]
            if current == CHANCE:
                return [outcome for outcome, _ in self.chance_outcomes()]
        return []

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next chance node's outcomes with their probabilities (empty elsewhere)."""
        if self._current != CHANCE:
            return []
        play = self._p
        if play.pending is not None:
            return play.pending.outcomes()
        return play.setup.shuffles[play.stage].outcomes(play.left)

    def _apply_action(self, action: int) -> None:
        play = self._p
        if self._current >= 0:
            if action not in play.legal:
                raise IllegalActionError(action, f"action {shown(action)} is not legal (legal now: {play.legal})")
            game = play.game
            move = play.setup.adapter.action_of(game, play.view, action)
            after = play.setup.adapter.apply(game, move, play.setup.seed is None)
            play.events.append(repr(move))
            if isinstance(after, Pending):
                play.pending = after
                play.views = {}
                self._current = CHANCE
            else:
                self._settled(after)
        elif self._current == CHANCE:
            if action not in [outcome for outcome, _ in self.chance_outcomes()]:
                raise IllegalActionError(action, f"chance outcome {shown(action)} is not possible here")
            if play.pending is not None:
                play.events.append(play.pending.event(action))
                done = play.pending.take(action)
                if done is not None:
                    self._settled(done)
            else:
                self._deal(action)
        else:
            raise IllegalActionError(action, f"action {shown(action)} is not legal (the game is over)")

    def _deal(self, card: int) -> None:
        """The next card of the deal; the last one makes the game."""
        play = self._p
        shuffles = play.setup.shuffles
        play.left[card] -= 1
        play.cards[play.stage].append(card)
        if len(play.cards[play.stage]) == shuffles[play.stage].draws:
            play.stage += 1
            if play.stage == len(shuffles):
                self._settled(play.setup.adapter.dealt(play.setup.rules, play.cards))
            else:
                play.left = list(shuffles[play.stage].counts)

    def _action_to_string(self, player: int, action: int) -> str:
        play = self._p
        if player == CHANCE:
            if play.pending is not None:
                return play.pending.text(action)
            shuffle = play.setup.shuffles[min(play.stage, len(play.setup.shuffles) - 1)]
            return f"Deal {shuffle.names[action]}" if 0 <= action < len(shuffle.names) else f"Deal {action}"
        if play.game is not None and action in play.legal:
            return repr(play.setup.adapter.action_of(play.game, play.view, action))
        return f"action {action}"

    def returns(self) -> list[float]:
        """Each seat's return once the game is over (see the game's module); zeros before."""
        play = self._p
        if self._current != TERMINAL:
            return [0.0] * play.setup.players
        return play.setup.adapter.returns(play.game)

    def resample_from_infostate(self, player: int, probability_sampler: Callable[[], float] | None = None) -> SpielState:
        """A state with ``player``'s information state whose hidden cards are dealt again
        uniformly (the view's ``sample_game``), seeded from ``probability_sampler`` (uniform in
        [0, 1), as OpenSpiel passes it) or at random without one."""
        if self._current == CHANCE:
            raise IllegalActionError(None, "this is a chance node: there is nothing to resample")
        seed = sampler_seed(probability_sampler)
        play = self._p
        sample = play.view(int(checks.seat(player, play.setup.players))).sample_game(seed)
        state = type(self)(self.get_game(), deal=False)
        state._p.events = play.events[:]
        state._settled(sample)
        return state

    def game(self) -> Any:
        """This position as the game's ``Game`` (a copy)."""
        if self._p.game is None or self._current == CHANCE:
            raise IllegalActionError(None, "a chance node: the deal, or the draws of an action, is not done")
        return self._p.game.clone()

    def __str__(self) -> str:
        play = self._p
        if play.game is None:
            return f"dealing: {sum(map(len, play.cards))} cards dealt"
        text = play.setup.adapter.board_text(play.game)
        return text + ("\n(drawing at random)" if play.pending is not None else "")


def state_of(spiel_game: SpielGame, game: Any, events: Sequence[str] = ()) -> SpielState:
    """A state of ``spiel_game`` at ``game``'s position (a copy of it); ``events`` is the history
    its information-state strings list (none by default)."""
    if not isinstance(game, spiel_game.adapter.game_class):
        raise OrdonnanceTypeError(f"state_of() takes a Game of {spiel_game.adapter.long_name}, not {shown(game)}")
    if game.rules != spiel_game.rules:
        raise InvalidArgumentError(f"the game's rules {shown(game.rules)} are not the OpenSpiel game's {shown(spiel_game.rules)}")
    state = spiel_game.state_type(spiel_game, deal=False)
    state._p.events = list(events)
    state._settled(game.clone())
    return state


# --------------------------------------------------------------- observations


class Observer:
    """OpenSpiel's PyObserver: a seat's view (the game's ``encode_view``), or its information state."""

    def __init__(self, setup: _Setup, *, perfect_recall: bool) -> None:
        self._setup = setup
        self._perfect_recall = perfect_recall
        layout = setup.adapter.layout(setup.rules)
        self.tensor = np.zeros(sum(size for _, size in layout), np.float32)
        """The observation tensor (written by :meth:`set_from`)."""
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        """The tensor's fields by name (views of it)."""
        at = 0
        for name, size in layout:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: SpielState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor` (zeros before the deal)."""
        play = state._p
        if play.game is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self._setup.adapter.encode(play.view(player))

    def string_from(self, state: SpielState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as text."""
        play = state._p
        if play.game is None:
            return f"seat {player}: dealing, {sum(map(len, play.cards))} cards dealt"
        view = play.view(player)
        adapter = self._setup.adapter
        if self._perfect_recall:
            return f"seat {player} | {adapter.private_text(view)} | history {'; '.join(play.events)}"
        return adapter.board_text(view)


# --------------------------------------------------------------- bots across the libraries


class LibraryBot(_BotBase):  # type: ignore[misc]
    """A bot of the library (anything with ``choose(view)``) as a ``pyspiel.Bot`` for one game's
    states; it sees only the view of the seat to act."""

    #: The states it plays (set by each game's subclass).
    state_type: ClassVar[type[Any]]

    def __init__(self, bot: Any) -> None:
        require_openspiel()
        if not has_choose(bot):
            raise OrdonnanceTypeError(f"a bot has a choose(view) method, got {shown(bot)}")
        super().__init__()
        self.bot = bot
        """The library's bot."""

    def step(self, state: Any) -> int:
        """The bot's action index in ``state`` (for the seat to act)."""
        if not isinstance(state, self.state_type):
            raise OrdonnanceTypeError(f"{type(self).__name__} plays {self.state_type.__name__}, not {type(state).__name__}")
        view = self._view(state)
        action = self.bot.choose(view)
        index = self._index(view, action)
        if index not in state.legal_actions():
            raise IllegalActionError(action, f"the bot {shown(self.bot)} chose an action that is not legal")
        return index

    def _view(self, state: Any) -> Any:
        if not 0 <= state.current_player():
            raise IllegalActionError(None, "no seat is to act in this state (a chance node, or the game is over)")
        return state._p.view(state.current_player())

    def _index(self, view: Any, action: Any) -> int:
        return state_adapter(self.state_type).index_of(view, action)

    def restart_at(self, state: Any) -> None:
        """Nothing to do: the bot decides from the view alone."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: the bot decides from the view alone."""


def state_adapter(state_type: type) -> Adapter:
    """The adapter of a game's state class."""
    adapter: Adapter = state_type.adapter  # type: ignore[attr-defined]
    return adapter


class OpenSpielBot:
    """A ``pyspiel.Bot`` as a bot of the library: ``choose(view)`` asks it in a state of a game
    the view could be of (the view's ``sample_game``), so it sees only what the seat sees (plus
    a random deal of the rest, which a sound imperfect-information bot resamples anyway).

    A bot OpenSpiel made for one seat (``pyspiel.make_uniform_random_bot(0, seed)``) is found
    out when wrapped and refused for another seat with
    :class:`~ordonnance.errors.InvalidSeatError` (OpenSpiel would crash the process)."""

    def __init__(self, bot: Any, *, seed: int | None = None) -> None:
        require_openspiel()
        if not callable(getattr(bot, "step", None)):
            raise OrdonnanceTypeError(f"an OpenSpiel bot has a step(state) method, got {shown(bot)}")
        self.bot = bot
        """The OpenSpiel bot."""
        self.seat: int | None = bot_seat(bot)
        """The one seat the bot plays, when OpenSpiel made it for one (None: any seat, or a C++ bot
        that does not say: one made for one seat and asked at another may then still crash)."""
        self._rng = np.random.default_rng(secrets.randbits(64) if seed is None else check_seed(seed))
        self._games: dict[Any, Any] = {}

    def choose(self, view: Any) -> Any:
        """The OpenSpiel bot's action for ``view``'s seat."""
        module = _game_module(view)
        if module is None:
            raise OrdonnanceTypeError(f"choose() takes a PlayerView of one of the games, not {type(view).__name__}: {shown(view)}")
        if view.is_over or view.current_player != view.seat:
            raise IllegalActionError(None, f"it is not seat {view.seat}'s turn")
        if self.seat is not None and view.seat != self.seat:
            raise InvalidSeatError(
                f"{shown(self.bot)} was made by OpenSpiel for player {self.seat} only, and cannot play seat "
                f"{view.seat}: wrap one such bot per seat"
            )
        key = (module.__name__, view.rules)
        spiel_game = self._games.get(key)
        if spiel_game is None:
            spiel_game = self._games[key] = module.load(view.rules)
        sample = view.sample_game(int(self._rng.integers(0, 2**63)))
        state = module.state_of(sample, spiel_game)
        index = int(self.bot.step(state))
        if index not in state.legal_actions():
            raise IllegalActionError(index, f"{shown(self.bot)} chose action {index}, which is not legal")
        return module.action_of(state, index)

    def __repr__(self) -> str:
        return f"OpenSpielBot({self.bot!r})"


def _game_module(view: object) -> Any:
    """The ``openspiel`` module of the game ``view`` is a view of (None: no game's view)."""
    import importlib

    package = type(view).__module__.rsplit(".", 1)[0]
    if package not in ("ordonnance", "ordonnance.shinobi", "ordonnance.black_prince"):
        return None
    module = importlib.import_module(f"{package}.openspiel")
    return module if isinstance(view, module.PlayerView) else None


# --------------------------------------------------------------- bots OpenSpiel made for one seat


class _SeatProbe(StateBase):  # type: ignore[misc]
    """A state in which every player has one legal action, its own number: a bot that OpenSpiel
    made for one player answers with that player (a simultaneous node, so that OpenSpiel asks
    the state for any player's actions)."""

    def current_player(self) -> int:
        return SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[int]:
        return [player]

    def is_terminal(self) -> bool:
        return False

    def is_chance_node(self) -> bool:
        return False

    def _apply_action(self, action: int) -> None:  # pragma: no cover - never played
        raise IllegalActionError(action, "the seat probe is not played")

    def __str__(self) -> str:
        return "seat probe"


_PROBE_PLAYERS = 16
_probe_game: Any = None


def bot_seat(bot: object) -> int | None:
    """The one player a bot made by OpenSpiel's C++ factories plays (``make_uniform_random_bot(p,
    seed)`` plays p only: asked in another player's turn it crashes the process), found by
    asking a copy of it in a state where every player has one legal action, its own number;
    None for a bot written in Python (it plays the player to act) or one that cannot say."""
    if _IMPORT_ERROR is not None or type(bot) is not pyspiel.Bot:
        return None
    global _probe_game
    if _probe_game is None:
        kind = pyspiel.GameType
        probe_type = kind(
            short_name="ordonnance_seat_probe", long_name="seat probe", dynamics=kind.Dynamics.SIMULTANEOUS,
            chance_mode=kind.ChanceMode.DETERMINISTIC, information=kind.Information.IMPERFECT_INFORMATION,
            utility=kind.Utility.GENERAL_SUM, reward_model=kind.RewardModel.TERMINAL, max_num_players=_PROBE_PLAYERS,
            min_num_players=1, provides_information_state_string=False, provides_information_state_tensor=False,
            provides_observation_string=False, provides_observation_tensor=False, parameter_specification={},
        )  # fmt: skip
        info = pyspiel.GameInfo(num_distinct_actions=_PROBE_PLAYERS, max_chance_outcomes=0, num_players=_PROBE_PLAYERS,
                                min_utility=-1.0, max_utility=1.0, utility_sum=None, max_game_length=1)  # fmt: skip
        _probe_game = pyspiel.Game(probe_type, info, {})
    try:
        probe: Any = bot.clone() if bot.is_clonable() else bot  # type: ignore[attr-defined]
        state = _SeatProbe(_probe_game)
        probe.restart_at(state)  # a bot that follows the game (make_stateful_random_bot) starts from the probe
        seat = probe.step(state)
    except Exception:  # a bot that cannot answer the probe: its seat is not known
        return None
    return int(seat) if checks.is_integer(seat) and 0 <= seat < _PROBE_PLAYERS else None
