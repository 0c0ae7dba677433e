"""OpenSpiel adapter: Ordonnance as a ``pyspiel`` game, and bots across the two libraries.

Install the optional extra first: ``pip install "ordonnance[openspiel]"``
(OpenSpiel's ``open_spiel`` wheel). Importing this module registers the game
with ``pyspiel.register_game`` under the short name ``"python_ordonnance"``::

    import pyspiel
    import ordonnance.openspiel

    game = pyspiel.load_game("python_ordonnance", {"players": 3, "auto_claim": True})
    state = game.new_initial_state()

Without OpenSpiel the module still imports (so its documentation builds and
the rest of the library works); using it then raises :class:`ImportError`
with the install command.

**Parameters** (all optional): ``players`` (2..4), ``scoring``,
``tie_break``, ``claim_proof``, ``auto_claim`` as in :class:`~ordonnance.Rules`;
``deck``, a custom deck as card texts separated by spaces (``""``: the
standard deck(s)); ``seed``, ``-1`` (the default) to deal by chance nodes, or
a seed in 0..2**31-1 for the fixed deal of ``Game.new(rules, seed=seed)``
with no chance nodes.

**Chance.** The deal is the shuffle: one chance node per card of the deck,
top card first, whose outcome is the card's mask (1..31) with probability
copies left / cards left. Every order of the deck is then as likely as under
``Game.new``; the first ``5 * players`` cards are dealt round-robin and the
rest is the draw pile, as in the engine. No later event is random (the
draws come from that pile), so with a ``seed`` there is no chance node at
all and the game's ``get_type().chance_mode`` is ``DETERMINISTIC``; with
``seed=-1`` it is ``EXPLICIT_STOCHASTIC``. OpenSpiel registers one type per
name (``pyspiel.registered_games()`` shows the default parameters',
``EXPLICIT_STOCHASTIC``), but a game's own type is the one it was built
with, so ``game.get_type()`` tells the truth for every parameter set.

**Actions** are :mod:`ordonnance.rl`'s 161 indices (plays, claims, the pass;
:func:`ordonnance.rl.action_index`). **Returns**: +1 to the winner, -1 to
every other seat, 0 to all in a draw (general-sum with 3-4 players).

**Observations.** The observation tensor of a seat is exactly
:func:`ordonnance.rl.encode_view` of its view (encoded in the kernel); the
observation string is the table as that seat sees it. The information state
of a seat is its view plus every decision so far, in order (every action is
public): the string lists the seat, its hand (in the order drawn) and the
action indices; the tensor is the observation tensor. Neither records when
a card already played had been drawn, so two histories that differ only in
that share an information state.

**Speed.** A state is one game of the simulator's numba kernel (the same
rules functions as ``simulate``, the batched games and the bots), and each
step computes the next legal actions once; ``legal_actions``,
``is_chance_node`` and ``chance_outcomes`` answer from Python without
crossing into C++.

**Search.** :meth:`OrdonnanceState.resample_from_infostate` deals the cards a
seat cannot see again with :meth:`PlayerView.sample_game
<ordonnance.PlayerView.sample_game>` (what OpenSpiel's IS-MCTS asks for).
:class:`LibraryBot` lets an ordonnance bot play inside OpenSpiel;
:class:`OpenSpielBot` lets any ``pyspiel.Bot`` play through ``choose(view)``.
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_left
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance import _openspiel_kernel as ok
from ordonnance import _bridge as bridge
from ordonnance import _simulator_kernel as k
from ordonnance.actions import Action
from ordonnance.cards import Card, build_deck
from ordonnance._entry import compiled_entry
from ordonnance.errors import IllegalActionError, InvalidArgumentError, OrdonnanceTypeError
from ordonnance.game import NOBODY, Game, shuffled_deck
from ordonnance.rl import NUM_ACTIONS, action_from_index, action_index, observation_layout
from ordonnance.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ordonnance.territory import TERRITORY_COUNT, Territory
from ordonnance.view import PlayerView
from ordonnance.core import openspiel as core
from ordonnance.core.checks import shown
from ordonnance.core.openspiel import AVAILABLE, GameBase, StateBase
from ordonnance.core.openspiel import CHANCE as _CHANCE, TERMINAL as _TERMINAL

try:
    import pyspiel
except ImportError:  # pragma: no cover - exercised without the extra
    pass

__all__ = [
    "SHORT_NAME", "OrdonnanceGame", "OrdonnanceState", "LibraryBot", "OpenSpielBot", "load", "rules_of", "state_of",
    "action_of",
]  # fmt: skip

#: The name the game is registered under.
SHORT_NAME = "python_ordonnance"
_CHANCE_OUTCOMES = 32  # card masks 0..31 (0 never occurs)
_DEFAULTS: dict[str, Any] = {
    "players": 2, "scoring": "territories", "tie_break": "latest_capture", "claim_proof": "public",
    "auto_claim": False, "deck": "", "seed": -1,
}  # fmt: skip
_JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
_ILLEGAL = ok.ILLEGAL
_ACTIONS = [action_from_index(i) for i in range(NUM_ACTIONS)]


def _run(kernel: Callable[..., Any], *args: Any) -> Any:
    """Call a kernel; without the JIT (NUMBA_DISABLE_JIT=1) its 64-bit generator runs on
    NumPy scalars, which warn on the wrap-around it relies on."""
    if _JIT:
        return kernel(*args)
    with np.errstate(over="ignore"):
        return kernel(*args)




def _compiled_step(work: npt.NDArray[np.int64], board: npt.NDArray[np.int64], action: int) -> int:
    """:func:`ok.step <ordonnance._openspiel_kernel.step>` by its compiled entry point, found
    on the first call (numba's dispatcher would type the three arguments of every step)."""
    global _step
    _step = compiled_entry(ok.step, work, board, -1)  # -1: never legal, so nothing changes
    return _step(work, board, action)


#: The kernel's step, called straight from a state's ``_apply_action``.
_step: Callable[..., int] = _compiled_step if _JIT else partial(_run, ok.step)


_require_extra = core.require_openspiel


def _max_decisions(players: int) -> int:
    """A bound on decisions in a game: plays and claims, and at most one pass
    per seat between two of them (a seat that passed is not asked again)."""
    events = 4 * TERRITORY_COUNT * players + TERRITORY_COUNT
    return events + players * (events + 1)


def rules_of(params: dict[str, Any]) -> tuple[Rules, int | None]:
    """The :class:`~ordonnance.Rules` and the fixed deal seed (None: chance nodes)
    of a parameter dict (missing keys take their defaults)."""
    values = core.check_params(params, _DEFAULTS)
    deck_text = values["deck"]
    if not isinstance(deck_text, str):
        raise OrdonnanceTypeError(f"deck must be card texts separated by spaces, got {shown(deck_text)}")
    deck = build_deck(deck_text.split(), min_size=0) if deck_text.strip() else None
    rules = Rules(
        players=values["players"], deck=deck, scoring=values["scoring"], tie_break=values["tie_break"],
        claim_proof=values["claim_proof"], auto_claim=values["auto_claim"],
    )  # fmt: skip
    return rules, core.deal_seed(values["seed"])


def _params_of(rules: Rules, seed: int | None) -> dict[str, Any]:
    deck = "" if rules.deck is None else " ".join(map(str, rules.deck))
    return {
        "players": rules.players, "scoring": rules.scoring, "tie_break": rules.tie_break,
        "claim_proof": rules.claim_proof, "auto_claim": rules.auto_claim, "deck": deck,
        "seed": -1 if seed is None else seed,
    }  # fmt: skip


class _Setup:
    """What every state of one set of parameters shares. OpenSpiel copies states
    (and games) by pickling their attributes; a setup pickles as its key, so a
    copy finds the same one again rather than copying it."""

    def __init__(self, key: tuple[tuple[str, Any], ...]) -> None:
        self.key = key
        rules, seed = rules_of(dict(key))
        self.rules = rules
        self.seed = seed
        self.players = rules.players
        self.work = ok.new_work(k.config(rules, [k.RANDOM] * rules.players, unseen=True))
        self.cards = k.deck_of(rules)
        self.deck = len(rules.cards)
        self.legal_at = ok.legal_at(self.deck)
        self.counts = [0] * _CHANCE_OUTCOMES
        for m in self.cards.tolist():
            self.counts[m] += 1
        # A chance node's state is a "slot" per mask still in the deck: mask m with c copies
        # left is slot base[m] + c (1 <= c <= counts[m]); the slots of the masks left, in
        # increasing order, make a state's ``_live``, and row n of the outcome table holds
        # the outcome of every slot with n cards left, so a node only looks them up.
        self.base = [-1] * _CHANCE_OUTCOMES
        self.slot_mask: list[int] = []
        for m, c in enumerate(self.counts):
            if c:
                self.base[m] = len(self.slot_mask)
                self.slot_mask += [m] * (c + 1)
        self.live = array("q", [self.base[m] + c for m, c in enumerate(self.counts) if c])
        self._outcomes: list[list[tuple[int, float]] | None] = [None] * (self.deck + 1)
        self.unshuffle = _unshuffling(self.deck)
        # A fixed deal is made once: every initial state copies it.
        self.rng_state = None if seed is None else shuffled_deck(rules, seed)[1]  # Game._rng_state after the deal
        if seed is not None:
            self.dealt = ok.new_board(self.deck)
            answer = _run(ok.start, self.work, self.dealt, self.cards, np.uint64(seed))
            self.dealt_legal: int = answer & 255
            self.dealt_current: int = answer >> 8

    def outcomes(self, cards: int) -> list[tuple[int, float]]:
        """The outcome table with ``cards`` left: ``(m, c / cards)`` at slot ``base[m] + c``
        (made once per number of cards left)."""
        row = self._outcomes[cards]
        if row is None:
            row = self._outcomes[cards] = [(m, (i - self.base[m]) / cards) for i, m in enumerate(self.slot_mask)]
        return row

    def __reduce__(self) -> tuple[Callable[..., _Setup], tuple[tuple[tuple[str, Any], ...]]]:
        return _setup, (self.key,)

    def __deepcopy__(self, memo: dict[int, object]) -> _Setup:
        return self


_SETUPS: dict[tuple[tuple[str, Any], ...], _Setup] = {}


def _setup(key: tuple[tuple[str, Any], ...]) -> _Setup:
    found = _SETUPS.get(key)
    if found is None:
        found = _SETUPS[key] = _Setup(key)
    return found


def _key_of(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    rules, seed = rules_of(params)
    return tuple(sorted(_params_of(rules, seed).items()))


class OrdonnanceGame(GameBase):  # type: ignore[misc]
    """The ``pyspiel.Game`` of Ordonnance under one set of rules (see the module's docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        _require_extra()
        key = _key_of(dict(params or {}))
        setup = _setup(key)
        n = setup.players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=_CHANCE_OUTCOMES,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=setup.deck + _max_decisions(n),
        )
        super().__init__(_GAME_TYPE if setup.seed is None else _FIXED_DEAL_TYPE, info, dict(key))
        self._shared = setup

    @property
    def _setup(self) -> _Setup:
        found = self.__dict__.get("_shared")
        if found is None:  # a copy made by OpenSpiel (pickled without its attributes)
            found = self._shared = _setup(_key_of(self.get_parameters()))
        return found

    @property
    def rules(self) -> Rules:
        """The rules of every game."""
        return self._setup.rules

    @property
    def deal_seed(self) -> int | None:
        """The seed of the fixed deal, or None when the deal is by chance nodes."""
        return self._setup.seed

    def new_initial_state(self) -> OrdonnanceState:
        """A game before the deal (chance nodes), or dealt from the fixed seed."""
        return OrdonnanceState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> _Observer:
        """The observer of a seat: its view (or its information state, with perfect recall)."""
        if params:
            raise OrdonnanceTypeError(f"the observer takes no parameters, got {shown(params)}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self._setup, perfect_recall=perfect_recall)


def _unshuffling(size: int) -> npt.NDArray[np.int64]:
    """``where[i]``: the position the kernel's shuffle from seed 0 moves to place i.

    The kernel deals by shuffling (``kernel.deal``); handing it
    ``order[where]`` instead of the cards makes that shuffle put back
    exactly ``order``, so a deal chosen card by card goes through the same code.
    """
    out = np.empty(size, np.int64)
    with np.errstate(over="ignore"):
        k._shuffle(np.arange(size, dtype=np.int64), np.uint64(0), out, np.empty(k.SHUFFLE_DRAWS, np.int64))
    where = np.empty(size, np.int64)
    where[out] = np.arange(size)
    return where


class _Play:
    """A state's game: its kernel board and its history. OpenSpiel clones a Python state
    by deep-copying its attributes one by one (about half a microsecond each, and more
    for a NumPy array), so a state keeps only this besides two ints, and this copies
    itself in one step."""

    __slots__ = ("setup", "board", "decisions", "dealt", "live", "returns", "views")

    def __init__(self, setup: _Setup, board: npt.NDArray[np.int64], live: array[int]) -> None:
        self.setup = setup
        self.board = board
        self.decisions = array("q")  # every decision so far
        self.dealt = array("q")  # the chance outcomes so far: the deck, top card first
        self.live = live  # the slots of the masks left to deal (see _Setup)
        self.returns: tuple[float, ...] | None = None
        self.views: dict[int, PlayerView] | None = None  # made by resampling, dropped by every action

    def __deepcopy__(self, memo: dict[int, object]) -> _Play:
        copy = _Play.__new__(_Play)
        copy.setup = self.setup
        copy.board = self.board.copy()
        copy.decisions = self.decisions[:]
        copy.dealt = self.dealt[:]
        copy.live = self.live[:]
        copy.returns = self.returns
        copy.views = None
        return copy


class OrdonnanceState(StateBase):  # type: ignore[misc]
    """A ``pyspiel.State``: one game on the simulator kernel (see the module's docstring)."""

    def __init__(self, game: OrdonnanceGame, *, deal: bool = True) -> None:
        super().__init__(game)
        setup = game._setup
        self._current: int
        self._legal_count: int
        if deal and setup.seed is not None:
            self._p = _Play(setup, setup.dealt.copy(), array("q"))  # no chance nodes
            self._legal_count = setup.dealt_legal
            self._current = setup.dealt_current
        else:
            self._p = _Play(setup, ok.new_board(setup.deck), setup.live[:])
            self._legal_count = 0
            self._current = _CHANCE

    # --------------------------------------------------------------- the kernel

    def _started(self, answer: int) -> None:
        """Read the kernel's answer after a step: the legal actions, or the result."""
        if answer >= 0:
            self._legal_count = answer & 255
            self._current = answer >> 8
        else:
            self._ended()

    def _ended(self) -> None:
        """The game is over: read its result."""
        play = self._p
        setup = play.setup
        scores = np.zeros(k.SEATS, np.int64)
        winner = _run(ok.result, setup.work, play.board, scores)
        n = setup.players
        play.returns = (0.0,) * n if winner < 0 else tuple(1.0 if p == winner else -1.0 for p in range(n))
        self._legal_count = 0
        self._current = _TERMINAL

    # --------------------------------------------------------------- pyspiel's State

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` while dealing, or ``TERMINAL``."""
        return self._current

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self._current == _TERMINAL

    def is_chance_node(self) -> bool:
        """Whether the next action deals a card."""
        return self._current == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action indices of ``player`` (default: the one to act), increasing;
        the chance outcomes' cards at a chance node."""
        current = self._current
        if player is None or player == current:
            if current >= 0:  # the first _legal_count places of the board's end
                play = self._p
                at = play.setup.legal_at
                return play.board[at : at + self._legal_count].tolist()  # type: ignore[no-any-return]
            if current == _CHANCE:
                play = self._p
                slot_mask = play.setup.slot_mask
                return [slot_mask[i] for i in play.live]
        return []

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck: each mask left, with probability copies left / cards left."""
        if self._current != _CHANCE:
            return []
        play = self._p
        setup = play.setup
        cards = setup.deck - len(play.dealt)
        row = setup._outcomes[cards] or setup.outcomes(cards)
        return [row[i] for i in play.live]

    def _apply_action(self, action: int) -> None:
        if self._current >= 0:
            play = self._p
            answer = _step(play.setup.work, play.board, action)
            if answer >= 0:
                self._legal_count = answer & 255
                self._current = answer >> 8
            elif answer == _ILLEGAL:
                raise IllegalActionError(action, f"action {shown(action)} is not legal (legal now: {self.legal_actions()})")
            else:
                self._ended()
            play.decisions.append(action)
            play.views = None
        elif self._current == _CHANCE:
            self._deal(action)
        else:
            raise IllegalActionError(action, f"action {shown(action)} is not legal (the game is over)")

    def _deal(self, action: int) -> None:
        """Put card mask ``action`` next on the deck; the last card deals the game."""
        play = self._p
        setup = play.setup
        base = setup.base[action] if 0 <= action < _CHANCE_OUTCOMES else -1
        live = play.live
        j = bisect_left(live, base)  # the first slot above base (a live slot holds a copy)
        if base < 0 or j == len(live) or setup.slot_mask[live[j]] != action:
            raise IllegalActionError(action, f"no card of mask {shown(action)} is left to deal")
        live[j] -= 1
        if live[j] == base:
            del live[j]
        play.dealt.append(action)
        if len(play.dealt) == setup.deck:
            order = np.frombuffer(play.dealt, np.int64)[setup.unshuffle]
            self._started(_run(ok.start, setup.work, play.board, order, np.uint64(0)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"Deal {Card.from_mask(action)}"
        return repr(action_from_index(action))

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to every other seat once over (0 to all in a draw); zeros before."""
        play = self._p
        return list(play.returns) if play.returns is not None else [0.0] * play.setup.players

    def resample_from_infostate(
        self, player: int, probability_sampler: Callable[[], float] | None = None
    ) -> OrdonnanceState:
        """A state with ``player``'s information state whose hidden cards (the other hands
        and the pile) are dealt again uniformly (:meth:`PlayerView.sample_game
        <ordonnance.PlayerView.sample_game>`), seeded from ``probability_sampler``
        (uniform in [0, 1), as OpenSpiel passes it) or at random without one."""
        if self._current == _CHANCE:
            raise IllegalActionError(None, "the deal is not done: there is nothing to resample yet")
        seed = core.sampler_seed(probability_sampler)
        play = self._p
        if play.views is None:
            play.views = {}
        view = play.views.get(player)
        if view is None:
            view = play.views[player] = self.game().view(player)
        return state_of(view.sample_game(seed), self.get_game(), decisions=play.decisions.tolist())

    def game(self) -> Game:
        """This position as a :class:`~ordonnance.Game` (read from the kernel's board)."""
        if self._current == _CHANCE:
            raise IllegalActionError(None, "the deal is not done: there is no game yet")
        return _game_of(self)

    def __str__(self) -> str:
        if self._current == _CHANCE:
            return f"dealing: {len(self._p.dealt)} of {self._p.setup.deck} cards"
        return str(self.game())


# --------------------------------------------------------------- board <-> Game


def _game_of(state: OrdonnanceState) -> Game:
    """The kernel's board of ``state`` as the engine's Game (:func:`ordonnance._bridge.game_of_row`),
    with its history when the deal is known: the setup's seed, or the chance nodes' cards (a state
    made by :func:`state_of` is past a deal it does not know: its game is set up there)."""
    play = state._p
    setup = play.setup
    dealt = play.dealt
    known = not dealt or 0 not in dealt  # no chance nodes (a seeded setup), or every card dealt by one
    return bridge.game_of_row(
        setup.rules,
        play.board.tolist(),
        seed=setup.seed if known else None,  # a position past an unknown deal is not the seed's
        rng_state=setup.rng_state if known else None,
        history=[_ACTIONS[i] for i in play.decisions] if known else None,
        order=tuple(dealt) if known and dealt else None,
    )


def state_of(
    game: Game, spiel_game: OrdonnanceGame | None = None, *, decisions: list[int] | None = None
) -> OrdonnanceState:
    """An OpenSpiel state of ``game``'s position (past the deal), for ``spiel_game``
    (default: the registered game of ``game.rules``).

    ``decisions`` (action indices) is the history its information-state strings
    list; by default none, so it is best for a bot deciding from this position.
    """
    _require_extra()
    if not isinstance(game, Game):
        raise OrdonnanceTypeError(f"state_of() takes a Game, not {type(game).__name__}: {shown(game)}")
    if spiel_game is None:
        spiel_game = load(game.rules)
    if spiel_game.rules != game.rules:
        raise InvalidArgumentError(f"the game's rules {shown(game.rules)} are not the OpenSpiel game's {shown(spiel_game.rules)}")
    state = OrdonnanceState(spiel_game, deal=False)
    play = state._p
    play.board[:] = bridge.game_row(game, len(play.board))
    play.dealt = array("q", [0] * len(game.rules.cards))  # past the deal (the order of the cards already drawn is not known)
    play.live = array("q")
    play.decisions = array("q", decisions or [])
    state._started(_run(ok.prepared, play.setup.work, play.board))
    return state


def load(rules: Rules | None = None, *, seed: int | None = None) -> OrdonnanceGame:
    """The registered OpenSpiel game of ``rules`` (default ``Rules()``), dealt by
    chance nodes, or from ``seed`` (0..2**31-1) with no chance nodes."""
    _require_extra()
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
    game = pyspiel.load_game(SHORT_NAME, _params_of(rules, core.fixed_seed(seed)))
    assert isinstance(game, OrdonnanceGame)
    return game


# --------------------------------------------------------------- observations


class _Observer:
    """OpenSpiel's PyObserver: a seat's view (``rl.encode_view``), or its information state."""

    def __init__(self, setup: _Setup, *, perfect_recall: bool) -> None:
        self._setup = setup
        self._perfect_recall = perfect_recall
        layout = observation_layout(setup.players)
        self.tensor = np.zeros(sum(size for _, size in layout), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, size in layout:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: OrdonnanceState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor` (zeros while dealing)."""
        if state._current == _CHANCE:
            self.tensor.fill(0)
            return
        _run(ok.observe, self._setup.work, state._p.board, player, self.tensor)

    def string_from(self, state: OrdonnanceState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as text."""
        if state._current == _CHANCE:
            return f"seat {player}: dealing, {len(state._p.dealt)} cards dealt"
        b = state._p.board.tolist()
        hand = _text(b[k.HAND + player], b[k.HAND_LEN + player])
        if self._perfect_recall:
            return f"seat {player} | hand {hand} | decisions {' '.join(map(str, state._p.decisions))}"
        return _table_text(b, self._setup, player, hand)


#: ``_CARD_TEXT[m]``: the text of the card of mask m (1..31).
_CARD_TEXT = [""] + [str(Card.from_mask(m)) for m in range(1, _CHANCE_OUTCOMES)]


def _text(word: int, length: int) -> str:
    """The cards in the first ``length`` lanes of a kernel word, as text."""
    return " ".join([_CARD_TEXT[(word >> (8 * i)) & 255] for i in range(length)])


def _table_text(b: list[int], setup: _Setup, player: int, hand: str) -> str:
    """The table as ``player`` sees it, read from the board ``b`` (as a list)."""
    n, at = setup.players, k.SEATS
    turn = "over" if b[k.OVER] else f"player {b[k.CURRENT]} to act"
    sizes = b[k.HAND_LEN : k.HAND_LEN + n]
    lines = [f"seat {player} | hand {hand} | hands {sizes} | pile {setup.deck - b[k.TOP]} | {turn}"]
    for t in Territory:
        armies = " / ".join(_text(b[k.ARMY_AT + t * at + p], b[k.ARMY_LEN + t * at + p]) or "-" for p in range(n))
        owner = b[k.OWNER + t]
        won = "" if owner == NOBODY else f" won by {owner} (marker {b[k.MARKER + t]})"
        lines.append(f"{t.label}: {armies}{won}")
    passed = [p for p in range(n) if b[k.PASSED] >> p & 1]
    if passed:
        lines.append(f"passed: {passed}")
    return "\n".join(lines)


# --------------------------------------------------------------- bots across the libraries


class LibraryBot(core.LibraryBot):
    """An ordonnance bot (anything with ``choose(view)``) as a ``pyspiel.Bot``.

    It sees only its seat's :class:`~ordonnance.PlayerView` of the state:
    ``LibraryBot(ordonnance.bots.Greedy(seed=0)).step(state)``.
    """

    state_type = OrdonnanceState

    def _view(self, state: Any) -> PlayerView:
        if state.current_player() < 0:
            raise IllegalActionError(None, "no seat is to act in this state (a chance node, or the game is over)")
        return state.game().view(state.current_player())  # type: ignore[no-any-return]

    def _index(self, view: Any, action: Any) -> int:
        return action_index(action)


class OpenSpielBot(core.OpenSpielBot):
    """A ``pyspiel.Bot`` as an ordonnance bot: ``choose(view)`` asks it in a state of
    a game the view could be of (:meth:`PlayerView.sample_game
    <ordonnance.PlayerView.sample_game>`), so it can see only what the seat sees
    (plus a random deal of the rest, which a sound imperfect-information bot
    resamples anyway). A bot OpenSpiel made for one seat
    (``pyspiel.make_uniform_random_bot(0, seed)``) is refused for another seat with
    :class:`~ordonnance.errors.InvalidSeatError`."""


def action_of(state: OrdonnanceState, index: int) -> Action:
    """The Ordonnance action of action index ``index`` (:func:`ordonnance.rl.action_from_index`)."""
    return action_from_index(index)


if AVAILABLE:
    #: The registered type, the default parameters' (the deal is by chance nodes), and the type of
    #: a fixed deal (seed >= 0), which has no chance node: those games report it.
    _GAME_TYPE, _FIXED_DEAL_TYPE = core.register(
        OrdonnanceGame, SHORT_NAME, "Python Ordonnance (the ordonnance library)", zero_sum=False,
        players=(MIN_PLAYERS, MAX_PLAYERS), parameters=_DEFAULTS,
    )  # fmt: skip
