"""Batched games: many games held as arrays and stepped together in numba (pgx style).

A :class:`Batch` holds ``games`` games of one :class:`~ordonnance.Rules` in
fixed-shape NumPy arrays and steps them all at once, one action per game, on
the simulator's own rules kernel (the very functions :func:`ordonnance.simulate`
and the Monte-Carlo bot run). Actions, legal-action masks and observations
are those of :mod:`ordonnance.rl` (:data:`~ordonnance.rl.NUM_ACTIONS` = 161
indices; :func:`~ordonnance.rl.encode_view`'s layout), so a policy trained on
one works on the other.

>>> import numpy as np
>>> import ordonnance as od
>>> from ordonnance.batch import Batch
>>> batch = Batch(8, od.Rules(), opponent="random", seat=0, seed=1)
>>> batch.observe().shape, batch.legal_action_mask().shape
((8, 452), (8, 161))
>>> rng = np.random.default_rng(0)
>>> for _ in range(30):
...     mask = batch.legal_action_mask()
...     actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
...     result = batch.step(actions)
>>> game = batch.game(3)  # the same position, as a Game
>>> bool(np.array_equal(od.rl.encode_view(game.view(0)), batch.observe()[3]))
True

**Seats.** ``seat`` is the learner's seat (an int, or ``"random"`` for a
fresh seat each episode); the other seats are played inside the kernel by
``opponent`` (``"random"``: :class:`~ordonnance.bots.Random`, ``"greedy"``:
:class:`~ordonnance.bots.Greedy`), so after every step it is the learner's
turn again, or the game is over. With ``opponent="self"`` the caller acts for
every seat: each step is one action of the seat to act, and observations are
from that seat.

**Seeds.** ``reset(seed=s)`` starts game ``i`` with the deal of
``Game.new(rules, seed=int(game_seeds(s, games)[i]))`` (:func:`ordonnance.simulation.game_seeds`,
the same seeds :func:`~ordonnance.simulate` gives its games). When a game ends,
its next episode deals from the next seed of its own share of the same
stream: episode ``k`` of game ``i`` is output number ``k * games + i``, so no
two episodes of a batch ever share a seed. The kernel bot of seat ``p``
plays an episode dealt from seed ``d`` with the generator seed
``bot_seeds([d], [0] * players)[0, p]`` (:func:`ordonnance.simulation.bot_seeds`),
so ``bots.Random(seed=...)`` with that seed in a :class:`~ordonnance.Game`
plays the same actions. :attr:`Batch.deal_seeds` holds each game's current
deal seed and :meth:`Batch.game` rebuilds any game as a ``Game``.

**Steps.** :meth:`Batch.step` takes one action index per game. A game whose
episode ended at the previous step starts its next episode instead and its
action is not read (gymnasium's "next step" autoreset). An illegal action is
refused: that game is unchanged and ``illegal`` is set (with
``illegal="end"`` it ends the episode instead, with ``illegal_reward`` for
the seat that chose it). Actions outside 0..160, or of the wrong shape or
type, raise before any game is touched.

**Rewards.** ``rewards[i, p]`` is +1 for the winner and -1 for every other
seat at the step that ends game ``i``, 0 for everyone on a draw and on every
other step (the convention of :mod:`ordonnance.rl`). ``reward[i]`` is
``rewards[i, observer]``: the learner's seat, or in self-play the seat that
acted.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import ClassVar, Literal, cast

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance import _batch_kernel as bk
from ordonnance import _simulator_kernel as kernel
from ordonnance._entry import compiled_entry
from ordonnance.errors import IllegalActionError, InvalidArgumentError, InvalidSeatError, OrdonnanceTypeError
from ordonnance.core.seeds import check_seed as _check_seed
from ordonnance.game import Game
from ordonnance.rules import Rules
from ordonnance.core import checks
from ordonnance.core import batch as shared
from ordonnance.core.batch import StepResult
from ordonnance.core.checks import shown

__all__ = ["Batch", "StepResult", "MAX_GAMES", "observation_size"]

#: The most games one :class:`Batch` holds (about 8 kB of state a game): every game's batch has this bound.
MAX_GAMES = shared.MAX_GAMES
_OPPONENTS = {"random": kernel.RANDOM, "greedy": kernel.GREEDY, "self": None}


def observation_size(players: int) -> int:
    """The length of an observation vector: ``74 + 189 * players`` (as ordonnance.rl's layout).

    >>> from ordonnance.batch import observation_size
    >>> observation_size(2)
    452
    """
    return 74 + 189 * players


class Batch:
    """``games`` games of Ordonnance stepped together in numba (see the module docs).

    ``opponent`` plays every seat but the learner's inside the kernel
    (``"random"`` or ``"greedy"``), or ``"self"`` leaves every seat to the
    caller. ``seat`` is the learner's seat, an int or ``"random"`` (drawn for
    each episode; ignored in self-play). ``seed`` seeds the deals (random
    when None); ``illegal`` is ``"refuse"`` (the game is unchanged) or
    ``"end"`` (the episode ends with ``illegal_reward``). Each step also
    computes every game's legal-action mask and, unless ``observe`` is None,
    its observation (``"float32"`` or ``"uint8"``) in the same pass, while the
    game is in the processor's cache: :meth:`legal_action_mask` and
    :meth:`observe` then return them without another pass.
    """

    #: The number of action indices (:data:`ordonnance.rl.NUM_ACTIONS`).
    num_actions: ClassVar[int] = kernel.NUM_ACTIONS

    def __init__(
        self,
        games: int,
        rules: Rules | None = None,
        *,
        opponent: Literal["random", "greedy", "self"] = "self",
        seat: int | Literal["random"] = 0,
        seed: int | None = None,
        illegal: Literal["refuse", "end"] = "refuse",
        illegal_reward: float = -1.0,
        observe: Literal["float32", "uint8"] | None = "float32",
    ) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
        settings = shared.check_settings(games, rules.players, opponent, seat, illegal, illegal_reward)
        n = rules.players
        seat_mode = settings.seat_mode
        if observe is not None and (not isinstance(observe, str) or observe not in ("float32", "uint8")):
            raise InvalidArgumentError(f"observe must be 'float32', 'uint8' or None, got {shown(observe)}")
        if observe == "uint8" and len(rules.cards) > 255:
            raise InvalidArgumentError(f"uint8 observations need a deck of at most 255 cards, got {len(rules.cards)}")
        games = settings.games
        policy = _OPPONENTS[settings.opponent]
        self._rules = rules
        self._opponent = settings.opponent
        self._seat_mode = seat_mode
        self._illegal_ends = settings.illegal_ends
        self._illegal_reward = settings.illegal_reward
        self._cfg = kernel.config(rules, [kernel.RANDOM if policy is None else policy] * n, unseen=True)
        self._cards = kernel.deck_of(rules)
        self._state = kernel.new_state(games, len(rules.cards))
        self._episodes = bk.new_episodes(games)
        self._base = np.uint64(0)
        self._scratch = np.zeros(kernel.SCRATCH, np.int64)
        self._rewards = np.zeros((games, n), np.float32)
        self._reward = np.zeros(games, np.float32)
        self._terminated = np.zeros(games, np.bool_)
        self._illegal = np.zeros(games, np.bool_)
        self._actor = np.zeros(games, np.int64)
        self._winner = np.zeros(games, np.int64)
        self._scores = np.zeros((games, n), np.int64)
        self._finished = np.zeros(games, np.bool_)
        self._restarted = np.zeros(games, np.bool_)
        self._steps = bk.Steps(self._rewards, self._terminated, self._illegal, self._actor, self._winner, self._scores,
                               self._reward, self._finished, self._restarted)  # fmt: skip
        self._step_entry: Callable[..., object] | None = None  # bk.step's machine code, found at the first step
        self._observers = np.zeros(games, np.int64)
        self._observation = np.zeros((games, observation_size(n)), np.float32)
        self._compact: npt.NDArray[np.uint8] | None = None
        if observe == "uint8":
            self._compact = np.zeros(self._observation.shape, np.uint8)
        self._observe_too = observe is not None
        self._fused: npt.NDArray[np.float32] | npt.NDArray[np.uint8] = (
            self._compact if self._compact is not None else self._observation
        )
        self._fresh = False  # the mask and the observation of self._fused are current
        # The step updates self._fused in place from the previous step's rows, so
        # callers get read-only views: a write into them would corrupt later rows.
        self._views: dict[int, npt.NDArray[np.float32] | npt.NDArray[np.uint8]] = {}
        self._mask = np.zeros((games, kernel.NUM_ACTIONS), np.bool_)
        self.reset(seed)

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> Rules:
        """The rules every game is played under."""
        return self._rules

    @property
    def games(self) -> int:
        """The number of games in the batch."""
        return int(self._state.board.shape[0])

    @property
    def opponent(self) -> str:
        """``"random"`` or ``"greedy"`` (the kernel bot of the other seats), or ``"self"``."""
        return self._opponent

    @property
    def seed(self) -> int:
        """The seed of the last :meth:`reset` (drawn at random when None was given)."""
        return int(self._base)

    @property
    def deal_seeds(self) -> npt.NDArray[np.uint64]:
        """``[game]``: the seed of each game's current deal (``Game.new(rules, seed=...)``); a copy."""
        return self._episodes.seeds[:, bk.DEAL].copy()

    @property
    def episodes(self) -> npt.NDArray[np.uint64]:
        """``[game]``: the episode number of each game's current deal in the seed stream; a copy."""
        return self._episodes.seeds[:, bk.INDEX].copy()

    @property
    def current_player(self) -> npt.NDArray[np.int64]:
        """``[game]``: the seat to act (once a game is over: the seat that acted last); a copy."""
        return self._state.board[:, kernel.CURRENT].copy()

    @property
    def is_over(self) -> npt.NDArray[np.bool_]:
        """``[game]``: whether the game has ended (it starts its next episode at the next step)."""
        done: npt.NDArray[np.bool_] = self._episodes.book[:, bk.DONE] != 0
        return done

    @property
    def observers(self) -> npt.NDArray[np.int64]:
        """``[game]``: the seat each game is observed from: the learner's, or in self-play the seat to act."""
        bk.observers(self._state, self._episodes, self._observers)
        return self._observers.copy()

    # ------------------------------------------------------------------ stepping

    def reset(self, seed: int | None = None) -> None:
        """Start every game afresh: game ``i`` deals from ``game_seeds(seed, games)[i]``."""
        seed = secrets.randbits(64) if seed is None else _check_seed(seed)
        self._base = np.uint64(seed)
        with np.errstate(over="ignore"):
            bk.reset(self._cfg, self._state, self._episodes, self._cards, self._base, self._seat_mode, self._scratch)
        self._fresh = False

    def restart(self) -> npt.NDArray[np.bool_]:
        """Start now the next episode of every game whose episode has ended, instead of at the
        next step; the other games are untouched. Returns ``[game]``: which games restarted (a copy).

        The restarted games deal, play their kernel bots and update their masks and
        observations as the next step would have (Stable-Baselines3 resets a finished env
        within the step that ended it; see :mod:`ordonnance.sb3`)."""
        restarted = np.zeros(self.games, np.bool_)
        with np.errstate(over="ignore"):
            bk.restart(self._cfg, self._state, self._episodes, self._cards, self._base, self._seat_mode,
                       self._observe_too, self._fused, self._mask, restarted, self._scratch)  # fmt: skip
        return restarted

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Play one action index per game (see the module docs); returns what happened.

        ``actions`` is an integer array of shape ``(games,)`` with values in
        0..160. The arrays of the result belong to the batch and are
        overwritten by the next step: copy what you keep.
        """
        chosen = self._check_actions(actions)
        args = (
            self._cfg, self._state, self._episodes, self._cards, self._base, chosen, self._seat_mode, self._illegal_ends,
            self._illegal_reward, self._steps, self._observe_too, self._fused, self._mask, self._scratch,
        )  # fmt: skip
        with np.errstate(over="ignore"):
            if self._step_entry is None:  # the dispatcher's call (it compiles, or loads from the disk cache)
                self._step_entry = compiled_entry(cast(Callable[..., int], bk.step), *args)  # returns None
            else:
                self._step_entry(*args)
        self._fresh = True
        return StepResult(
            rewards=self._rewards,
            reward=self._reward,
            terminated=self._terminated,
            illegal=self._illegal,
            reset=self._restarted,
            actor=self._actor,
            winner=self._winner,
            scores=self._scores,
            finished=self._finished,
        )

    def _check_actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        return shared.check_actions(actions, self.games, kernel.NUM_ACTIONS)

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """``[game, action]``: the legal actions of the seat to act (all False once over).

        The array belongs to the batch and is overwritten by the next call.
        """
        if not self._fresh:
            with np.errstate(over="ignore"):  # 64-bit words wrap by design (NumPy scalars warn without the JIT)
                bk.legal_masks(self._cfg, self._state, self._mask, self._scratch)
        return self._mask

    def observe(self, dtype: type[np.float32] | type[np.uint8] = np.float32) -> npt.NDArray[np.float32 | np.uint8]:
        """``[game, :]``: each game as :func:`ordonnance.rl.encode_view` encodes the observer's view.

        ``dtype=np.uint8`` gives the same numbers as bytes (a quarter of the
        memory; every value is a small whole number, but decks of more than
        255 cards are refused). The array belongs to the batch, is read-only
        (the next step updates it in place, writing only what changed) and is
        overwritten by the next call: copy what you keep or change.
        """
        if dtype is np.uint8:
            if len(self._rules.cards) > 255:
                raise InvalidArgumentError(
                    f"uint8 observations need a deck of at most 255 cards, got {len(self._rules.cards)}"
                )
            if self._compact is None:
                self._compact = np.zeros(self._observation.shape, np.uint8)
            elif self._fresh and self._observe_too and self._fused is self._compact:
                return self._read_only(self._compact)
            self._encode(self._compact)
            return self._read_only(self._compact)
        if dtype is not np.float32:
            raise InvalidArgumentError(f"dtype must be np.float32 or np.uint8, got {shown(dtype)}")
        if self._fresh and self._observe_too and self._fused is self._observation:
            return self._read_only(self._observation)
        self._encode(self._observation)
        return self._read_only(self._observation)

    def _encode(self, out: npt.NDArray[np.float32] | npt.NDArray[np.uint8]) -> None:
        """Every game's observation written afresh into ``out``."""
        bk.observers(self._state, self._episodes, self._observers)
        with np.errstate(over="ignore"):
            bk.observe(self._cfg, self._state, self._observers, out, self._scratch)

    def _read_only(self, array: npt.NDArray[np.float32] | npt.NDArray[np.uint8]) -> npt.NDArray[np.float32 | np.uint8]:
        view = self._views.get(id(array))
        if view is None:
            view = array.view()
            view.flags.writeable = False
            self._views[id(array)] = view
        return view

    def game(self, index: int) -> Game:
        """Game ``index`` as a :class:`~ordonnance.Game` in its current position.

        Rebuilt from its deal seed and the actions played so far (every
        seat's), through ``Game.apply``: a rule the kernel got wrong would
        raise here.
        """
        i = shared.check_game_index(index, self.games)
        from ordonnance.rl import action_from_index

        game = Game.new(self._rules, seed=int(self._episodes.seeds[i, bk.DEAL]))
        for a in self._episodes.history[i, : int(self._episodes.book[i, bk.LENGTH])].tolist():
            game.apply(action_from_index(a))
        return game

    def __getstate__(self) -> dict[str, object]:
        """The batch without bk.step's machine code, which does not pickle (found again at the
        next step), nor its read-only views, which are kept by their arrays' ids (made again)."""
        return {**self.__dict__, "_step_entry": None, "_views": {}}

    def __repr__(self) -> str:
        return f"Batch({self.games}, {self._rules!r}, opponent={self._opponent!r})"
