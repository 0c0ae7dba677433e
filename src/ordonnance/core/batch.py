"""Batched games, the part every game shares: arguments, seed streams, actions, results, bookkeeping.

Each game's ``batch.Batch`` holds thousands of its games as NumPy arrays and steps
them together in numba, on that game's own rules kernel (the functions its
``simulate`` runs). What does not depend on the rules is written here once:

* the argument checks (:func:`check_settings`, :func:`check_actions`), so every
  game's batch refuses the same bad values with the same messages;
* the seed streams: episode ``k`` of game ``i`` of a batch reset with seed ``s``
  deals from output ``k * games + i`` of ``game_seeds(s, ...)``
  (:func:`ordonnance.core.seeds.game_seeds`, the seeds ``simulate`` gives its
  games), so no two episodes share a deal; the kernel bot of seat ``p`` plays an
  episode dealt from seed ``d`` with the generator seed ``bot_seeds([d], [0] *
  players)[0, p]`` (:func:`ordonnance.core.seeds.bot_seeds`), as the game's
  ``bots.Random(seed=...)`` or ``bots.Greedy(seed=...)`` would; a learner's seat
  drawn per episode (``seat="random"``) comes from the bot-seed stream of a seat
  no game has (:func:`learner_seat`);
* :class:`StepResult`, what a step did to each game;
* the numba bookkeeping of episodes (:class:`Episodes`: seeds, the learner's seat,
  the actions so far) and of a step's outputs (:class:`Steps`);
* :class:`GameBatch`, the Python side of a batch, whose subclasses supply the
  kernel calls of their game.

>>> from ordonnance.core.batch import episode_deal_seeds
>>> from ordonnance.core.seeds import game_seeds
>>> stream = game_seeds(5, 3 * 4)
>>> bool((episode_deal_seeds(5, 4, 2) == stream[8:12]).all())  # episode 2 of each of 4 games
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple, cast

import attrs
import numba
import numpy as np
import numpy.typing as npt

from ordonnance.core import checks
from ordonnance.core.checks import shown
from ordonnance.core.entry import compiled_entry
from ordonnance.core.jit import bounded, mix_bot_seed, nth_output, unsigned as _u
from ordonnance.core.seeds import check_seed, game_seeds, wrapping
from ordonnance.errors import IllegalActionError, InvalidArgumentError, OrdonnanceTypeError

__all__ = [
    "MAX_GAMES", "OPPONENTS", "ILLEGAL", "EVERY_SEAT", "RANDOM_SEAT", "Settings", "check_settings",
    "check_games", "check_actions", "check_game_index", "episode_deal_seeds", "StepResult", "Episodes",
    "Steps", "new_episodes", "new_steps", "episode_seed", "learner_seat", "begin_episode", "record",
    "clear_step", "finish_step", "GameBatch",
]  # fmt: skip

#: The most games one batch holds.
MAX_GAMES = 1 << 20
#: Who plays the seats other than the learner's: a kernel bot, or the caller (``"self"``).
OPPONENTS = ("random", "greedy", "self")
#: What an illegal action does: nothing (``"refuse"``), or end the episode (``"end"``).
ILLEGAL = ("refuse", "end")
#: The caller acts for every seat (self-play): the seat mode, and Episodes.book's SEAT of such games.
EVERY_SEAT = -1
#: The seat mode of a batch whose learner's seat is drawn for each episode.
RANDOM_SEAT = -2


@attrs.frozen
class Settings:
    """A batch's checked arguments (:func:`check_settings`)."""

    games: int
    """The number of games, 1..:data:`MAX_GAMES`."""
    opponent: str
    """``"random"``, ``"greedy"`` or ``"self"``."""
    seat_mode: int
    """The learner's seat, :data:`RANDOM_SEAT` or (self-play) :data:`EVERY_SEAT`."""
    illegal_ends: bool
    """Whether an illegal action ends its episode (``illegal="end"``)."""
    illegal_reward: float
    """The reward of the seat whose illegal action ended its episode."""


def check_games(games: object) -> int:
    """``games`` as a plain int in 1..:data:`MAX_GAMES`, else the library's error showing it."""
    if not checks.is_integer(games):
        raise OrdonnanceTypeError(f"games must be an int, got {shown(games)}")
    if not 1 <= games <= MAX_GAMES:
        raise InvalidArgumentError(f"games must be 1..{MAX_GAMES:,}, got {shown(games)}")
    return int(games)


def check_settings(games: object, players: int, opponent: object, seat: object, illegal: object,
                   illegal_reward: object) -> Settings:  # fmt: skip
    """Check a batch's arguments (see :class:`GameBatch`): games, the opponent, the
    learner's seat among ``players`` (an int or ``"random"``; not read in self-play),
    what an illegal action does and its reward."""
    count = check_games(games)
    if not isinstance(opponent, str) or opponent not in OPPONENTS:
        raise InvalidArgumentError(f"opponent must be one of {sorted(OPPONENTS)}, got {shown(opponent)}")
    opponent = checks.choice(opponent, "opponent", OPPONENTS)
    if opponent == "self":
        mode = EVERY_SEAT
    else:
        chosen = checks.seat(seat, players, random=True)
        mode = RANDOM_SEAT if isinstance(chosen, str) else chosen
    if not isinstance(illegal, str) or illegal not in ILLEGAL:
        raise InvalidArgumentError(f"illegal must be 'refuse' or 'end', got {shown(illegal)}")
    reward = checks.real(illegal_reward, "illegal_reward")
    return Settings(count, opponent, mode, illegal == "end", reward)


def check_actions(actions: npt.ArrayLike, games: int, num_actions: int) -> npt.NDArray[np.int64]:
    """``actions`` as a C-contiguous int64 array of shape ``(games,)`` with values in
    ``0..num_actions-1``; else the library's error naming the first bad game (nothing is stepped)."""
    array = np.asarray(actions)
    if array.dtype.kind not in "iu":
        raise OrdonnanceTypeError(f"actions must be integer action indices, got dtype {array.dtype} ({shown(actions):.80})")
    if array.shape != (games,):
        raise InvalidArgumentError(f"actions must have shape ({games},), one per game, got {shown(array.shape)}")
    if array.size and (array.min() < 0 or array.max() >= num_actions):
        bad = int(np.flatnonzero((array < 0) | (array >= num_actions))[0])
        raise IllegalActionError(
            int(array[bad]), f"action indices are 0..{num_actions - 1}: game {bad} got {shown(int(array[bad]))}"
        )
    return np.ascontiguousarray(array, dtype=np.int64)


def check_game_index(index: object, games: int) -> int:
    """A game index of a batch of ``games`` (negative ones count from the end) as 0..games-1."""
    if not checks.is_integer(index):
        raise OrdonnanceTypeError(f"a game index is an int, got {shown(index)}")
    if not -games <= index < games:
        raise InvalidArgumentError(f"game index must be in 0..{games - 1}, got {shown(index)}")
    return int(index) % games


def episode_deal_seeds(seed: int, games: int, episode: int) -> npt.NDArray[np.uint64]:
    """``[game]``: the deal seed of episode ``episode`` (from 0) of every game of a batch of
    ``games`` reset with ``seed``: outputs ``episode * games ..`` of ``game_seeds(seed, ...)``."""
    return game_seeds(seed, (episode + 1) * games)[episode * games :]


@attrs.frozen(eq=False)
class StepResult:
    """What a batch's ``step`` did to each game (arrays of the batch, overwritten by the next step)."""

    rewards: npt.NDArray[np.float32]
    """``[game, seat]``: each seat's final reward (its game's PettingZoo reward: in Ordonnance +1 for
    the winner, -1 for the others, 0 on a draw) when the game ended at this step, else 0."""
    reward: npt.NDArray[np.float32]
    """``[game]``: the reward of the observing seat (the learner's, or in self-play the seat that acted)."""
    terminated: npt.NDArray[np.bool_]
    """``[game]``: the episode ended at this step (game over, or an illegal action with ``illegal="end"``)."""
    illegal: npt.NDArray[np.bool_]
    """``[game]``: the action was illegal and refused."""
    reset: npt.NDArray[np.bool_]
    """``[game]``: the game started its next episode at this step (its action was not read)."""
    actor: npt.NDArray[np.int64]
    """``[game]``: the seat whose action was read (-1 where the game was reset)."""
    winner: npt.NDArray[np.int64]
    """``[game]``: the winner of a game that ended at this step (-1: nobody alone, or not ended)."""
    scores: npt.NDArray[np.int64]
    """``[game, seat]``: the final scores of a game that ended at this step (else 0)."""
    finished: npt.NDArray[np.bool_]
    """``[game]``: the game ended by its rules at this step (``terminated`` but not ``illegal``)."""


# ---------------------------------------------------------------------------- numba bookkeeping


class Episodes(NamedTuple):
    """The bookkeeping of a batch, one row per game (fields at the offsets below)."""

    seeds: npt.NDArray[np.uint64]  # [g, INDEX | DEAL | BOTS + p]
    book: npt.NDArray[np.int64]  # [g, SEAT | DONE | LENGTH]
    history: npt.NDArray[np.int16]  # [g, i]: the action indices played in the episode so far, every seat's


#: Episodes.seeds: the episode number e (game g plays e = g, g + games, g + 2 games, ...),
#: the deal's seed (the e-th output of the batch seed's stream), and seat p's kernel bot
#: generator (its seed at the deal, then its state as the bot draws).
INDEX, DEAL, BOTS = 0, 1, 2
#: Episodes.book: the learner's seat (or EVERY_SEAT), 1 once the episode has ended
#: (the next step starts the next one), the actions recorded.
SEAT, DONE, LENGTH = 0, 1, 2


def new_episodes(games: int, seats: int, history: int) -> Episodes:
    """An :class:`Episodes` for ``games`` games of up to ``seats`` seats keeping ``history`` actions each."""
    return Episodes(
        np.zeros((games, BOTS + seats), np.uint64), np.zeros((games, 3), np.int64), np.zeros((games, history), np.int16)
    )


class Steps(NamedTuple):
    """What a kernel's step writes for every game, one row each: the arrays of
    :class:`StepResult` (``restarted`` is its ``reset``)."""

    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    illegal: npt.NDArray[np.bool_]
    actor: npt.NDArray[np.int64]
    winner: npt.NDArray[np.int64]
    scores: npt.NDArray[np.int64]
    reward: npt.NDArray[np.float32]
    finished: npt.NDArray[np.bool_]
    restarted: npt.NDArray[np.bool_]


def new_steps(games: int, players: int) -> Steps:
    """A :class:`Steps` for ``games`` games of ``players`` seats."""
    return Steps(
        np.zeros((games, players), np.float32), np.zeros(games, np.bool_), np.zeros(games, np.bool_),
        np.zeros(games, np.int64), np.zeros(games, np.int64), np.zeros((games, players), np.int64),
        np.zeros(games, np.float32), np.zeros(games, np.bool_), np.zeros(games, np.bool_),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def episode_seed(base: np.uint64, e: np.uint64) -> np.uint64:
    """The e-th output (from 0) of the SplitMix64 stream from ``base`` (``game_seeds(base, ...)[e]``)."""
    return nth_output(base, e + np.uint64(1))


@numba.njit(cache=True, inline="always")
def learner_seat(deal: np.uint64, players: int, stream: int) -> int:
    """The learner's seat of an episode dealt from ``deal`` under ``seat="random"``: drawn from the
    bot-seed stream of seat ``stream`` (``bot_seeds([deal], [0] * (stream + 1))[0, stream]``), a
    seat number no game has, so it is independent of every bot's stream."""
    return bounded(mix_bot_seed(deal, stream, np.uint64(0)), players)


@numba.njit(cache=True, inline="always")
def begin_episode(ep: Episodes, g: int, base: np.uint64, n: int, seat_mode: int, stream: int) -> np.uint64:
    """Start game g's episode ``ep.seeds[g, INDEX]``: its deal seed, the bots' seeds, the
    learner's seat and an empty history; returns the deal seed (the caller deals)."""
    seed = episode_seed(base, ep.seeds[_u(g), INDEX])
    ep.seeds[_u(g), DEAL] = seed
    for p in range(n):
        ep.seeds[_u(g), _u(BOTS + p)] = mix_bot_seed(seed, p, np.uint64(0))
    if seat_mode == RANDOM_SEAT:
        ep.book[_u(g), SEAT] = learner_seat(seed, n, stream)
    else:
        ep.book[_u(g), SEAT] = seat_mode
    ep.book[_u(g), DONE] = 0
    ep.book[_u(g), LENGTH] = 0
    return seed


@numba.njit(cache=True, inline="always")
def record(ep: Episodes, g: int, a: int) -> None:
    """Append action ``a`` to game g's history (while it has room; the count goes on)."""
    length = ep.book[_u(g), LENGTH]
    if length < ep.history.shape[1]:
        ep.history[_u(g), _u(length)] = a
    ep.book[_u(g), LENGTH] = length + 1


@numba.njit(cache=True, inline="always")
def clear_step(out: Steps, g: int, n: int) -> None:
    """Game g's row of ``out`` before its step: no reward, no end, no winner, no scores."""
    for p in range(n):
        out.rewards[_u(g), _u(p)] = 0.0
        out.scores[_u(g), _u(p)] = 0
    out.terminated[_u(g)] = False
    out.illegal[_u(g)] = False
    out.finished[_u(g)] = False
    out.winner[_u(g)] = -1
    out.reward[_u(g)] = 0.0


@numba.njit(cache=True, inline="always")
def finish_step(ep: Episodes, out: Steps, g: int, seat_to_act: int) -> int:
    """Game g's ``restarted``, ``finished`` and ``reward`` from the rest of its row of ``out``
    (``actor`` -1 for a restart); returns the seat it is observed from now (the learner's, or
    in self-play ``seat_to_act``)."""
    who = out.actor[_u(g)]
    out.restarted[_u(g)] = who < 0
    out.finished[_u(g)] = out.terminated[_u(g)] and not out.illegal[_u(g)]
    seat = ep.book[_u(g), SEAT]
    if seat != EVERY_SEAT:
        who = seat
    out.reward[_u(g)] = out.rewards[_u(g), _u(who)] if who >= 0 else 0.0
    return seat_to_act if seat == EVERY_SEAT else seat


# ---------------------------------------------------------------------------- the Python side


class GameBatch:
    """``games`` games of one rule set stepped together in numba: what every game's batch shares.

    ``opponent`` plays every seat but the learner's inside the kernel (``"random"``
    or ``"greedy"``: the game's ``bots.Random`` or ``bots.Greedy``, seeded as the
    module docs say), or ``"self"`` leaves every seat to the caller, each game
    observed from its seat to act. ``seat`` is the learner's seat, an int or
    ``"random"`` (drawn for each episode; ignored in self-play). ``seed`` seeds the
    deals (random when None). ``illegal`` is ``"refuse"`` (the game is unchanged
    and ``illegal`` is set) or ``"end"`` (the episode ends with ``illegal_reward``
    for the seat that chose it).

    A step plays one action index per game; a game whose episode ended at the
    previous step starts its next episode instead and its action is not read
    (Gymnasium's "next step" autoreset). Each step also computes every game's
    legal-action mask and observation: :meth:`legal_action_mask` and
    :meth:`observe` return them without another pass.

    A subclass names its game (:attr:`rules_type`, :attr:`num_actions`,
    :attr:`seat_stream`) and supplies the kernel calls: :meth:`_prepare`,
    :meth:`_kernel_reset`, :meth:`_step_kernel` with :meth:`_kernel_step_args`,
    :meth:`_kernel_observe`, :meth:`_seats_to_act` and :meth:`_replay`.
    """

    #: The game's ``Rules`` class, and a description of it for error messages.
    rules_type: ClassVar[type]
    #: The number of action indices (the width of a mask).
    num_actions: ClassVar[int]
    #: The bot-seed stream the learner's seat is drawn from under ``seat="random"`` (a seat no game has).
    seat_stream: ClassVar[int]
    #: The observation dtypes this game's batch offers (float32 always; uint8 where every value fits a byte).
    dtypes: ClassVar[tuple[str, ...]] = ("float32",)

    def __init__(
        self,
        games: int,
        rules: Any = None,
        *,
        opponent: str = "self",
        seat: int | str = 0,
        seed: int | None = None,
        illegal: str = "refuse",
        illegal_reward: float = -1.0,
        observe: str | None = "float32",
    ) -> None:
        rules = self.rules_type() if rules is None else rules
        if not isinstance(rules, self.rules_type):
            raise OrdonnanceTypeError(f"rules must be a {self.rules_type.__name__}, got {shown(rules)}")
        players: int = getattr(rules, "players")
        settings = check_settings(games, players, opponent, seat, illegal, illegal_reward)
        if observe is not None and (not isinstance(observe, str) or observe not in self.dtypes):
            raise InvalidArgumentError(f"observe must be one of {list(self.dtypes)} or None, got {shown(observe)}")
        self._rules: Any = rules
        self._settings = settings
        n = players
        self._base = np.uint64(0)
        self._steps = new_steps(settings.games, n)
        self._episodes = new_episodes(settings.games, n, self._history_length(rules))
        self._mask = np.zeros((settings.games, self.num_actions), np.bool_)
        self._observation = np.zeros((settings.games, self._observation_size(rules)), np.float32)
        self._observe_too = observe is not None
        self._compact: npt.NDArray[np.uint8] | None = None
        if observe == "uint8":
            self._compact = np.zeros(self._observation.shape, np.uint8)
        self._fused: npt.NDArray[np.float32] | npt.NDArray[np.uint8] = (
            self._compact if self._compact is not None else self._observation
        )
        self._views: dict[int, npt.NDArray[Any]] = {}
        self._step_entry: Callable[..., object] | None = None  # the step kernel's machine code, found at the first step
        self._prepare(rules)
        self.reset(seed)

    # ------------------------------------------------------------------ the game's part

    def _history_length(self, rules: Any) -> int:
        """The actions an episode can record (every seat's): a bound on a game's decisions."""
        raise NotImplementedError

    def _observation_size(self, rules: Any) -> int:
        """The length of an observation vector under ``rules``."""
        raise NotImplementedError

    def _prepare(self, rules: Any) -> None:
        """Build the game's kernel arrays (states, configuration, scratch) for :attr:`games` games."""
        raise NotImplementedError

    def _kernel_reset(self, ended_only: bool = False) -> None:
        """Start episode g of every game g from ``self._base`` (see :func:`begin_episode`), the
        kernel bots playing up to the learner's turn; fill the masks (and, with
        ``self._observe_too``, ``self._fused``). With ``ended_only``, every game whose episode
        has ended starts its next one instead (episode number + games), and only those."""
        raise NotImplementedError

    def _kernel_step_args(self, actions: npt.NDArray[np.int64]) -> tuple[object, ...]:
        """The arguments of the game's step kernel for ``actions`` (see :meth:`_step_kernel`)."""
        raise NotImplementedError

    def _step_kernel(self) -> Callable[..., object]:
        """The game's numba step kernel: one step of every game, filling ``self._steps``, the
        masks, and (with ``self._observe_too``) the observations in ``self._fused``."""
        raise NotImplementedError

    def _kernel_observe(self, seats: npt.NDArray[np.int64], out: npt.NDArray[Any]) -> None:
        """Every game's observation from ``seats[g]`` into ``out`` (float32 or uint8), afresh."""
        raise NotImplementedError

    def _seats_to_act(self) -> npt.NDArray[np.int64]:
        """``[game]``: the seat to act in each game (once over: the seat that acted last)."""
        raise NotImplementedError

    def _replay(self, deal: int, actions: list[int]) -> Any:
        """The game's ``Game`` dealt from ``deal`` with the action indices ``actions`` applied."""
        raise NotImplementedError

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> Any:
        """The rules every game is played under."""
        return self._rules

    @property
    def games(self) -> int:
        """The number of games in the batch."""
        return self._settings.games

    @property
    def opponent(self) -> str:
        """``"random"`` or ``"greedy"`` (the kernel bot of the other seats), or ``"self"``."""
        return self._settings.opponent

    @property
    def seed(self) -> int:
        """The seed of the last :meth:`reset` (drawn at random when None was given)."""
        return int(self._base)

    @property
    def deal_seeds(self) -> npt.NDArray[np.uint64]:
        """``[game]``: the seed of each game's current deal (``Game.new(rules, seed=...)``); a copy."""
        return self._episodes.seeds[:, DEAL].copy()

    @property
    def episodes(self) -> npt.NDArray[np.uint64]:
        """``[game]``: the episode number of each game's current deal in the seed stream; a copy."""
        return self._episodes.seeds[:, INDEX].copy()

    @property
    def current_player(self) -> npt.NDArray[np.int64]:
        """``[game]``: the seat to act (once a game is over: the seat that acted last); a copy."""
        return self._seats_to_act()

    @property
    def is_over(self) -> npt.NDArray[np.bool_]:
        """``[game]``: whether the game has ended (it starts its next episode at the next step)."""
        done: npt.NDArray[np.bool_] = self._episodes.book[:, DONE] != 0
        return done

    @property
    def observers(self) -> npt.NDArray[np.int64]:
        """``[game]``: the seat each game is observed from: the learner's, or in self-play the seat to act."""
        seats = self._episodes.book[:, SEAT]
        return np.where(seats == EVERY_SEAT, self._seats_to_act(), seats)

    # ------------------------------------------------------------------ stepping

    def reset(self, seed: int | None = None) -> None:
        """Start every game afresh: game ``i`` deals from ``game_seeds(seed, games)[i]``."""
        seed = secrets.randbits(64) if seed is None else check_seed(seed)
        self._base = np.uint64(seed)
        with wrapping():
            self._kernel_reset()

    def restart(self) -> npt.NDArray[np.bool_]:
        """Start now the next episode of every game whose episode has ended, instead of at the
        next step; the other games are untouched. Returns ``[game]``: which games restarted.

        The restarted games deal, play their kernel bots and update their masks and
        observations as the next step would have (Stable-Baselines3 resets a finished env
        within the step that ended it; see :mod:`ordonnance.sb3`)."""
        ended = self.is_over.copy()
        if ended.any():
            with wrapping():
                self._kernel_reset(ended_only=True)
        return ended

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Play one action index per game (see the class docs); returns what happened.

        ``actions`` is an integer array of shape ``(games,)`` with values in
        0..num_actions-1, checked before any game is touched. The arrays of the
        result belong to the batch and are overwritten by the next step: copy what you keep.
        """
        chosen = check_actions(actions, self.games, self.num_actions)
        args = self._kernel_step_args(chosen)
        with wrapping():
            if self._step_entry is None:  # the dispatcher's call (it compiles, or loads from the disk cache)
                self._step_entry = compiled_entry(cast(Callable[..., int], self._step_kernel()), *args)
            else:
                self._step_entry(*args)
        out = self._steps
        return StepResult(
            rewards=out.rewards, reward=out.reward, terminated=out.terminated, illegal=out.illegal,
            reset=out.restarted, actor=out.actor, winner=out.winner, scores=out.scores, finished=out.finished,
        )  # fmt: skip

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """``[game, action]``: the legal actions of the seat to act (all False once over).

        The array belongs to the batch, is read-only and is overwritten by the next step
        (every reset and step computes the masks)."""
        return self._read_only(self._mask)

    def observe(self, dtype: type[np.float32] | type[np.uint8] = np.float32) -> npt.NDArray[Any]:
        """``[game, :]``: each game's observation of its observer's view (the game's ``encode_view``).

        ``dtype=np.uint8`` gives the same numbers as bytes where the game offers it.
        The array belongs to the batch, is read-only and is overwritten by the next
        step: copy what you keep or change."""
        if dtype is np.uint8 and "uint8" in self.dtypes:
            if self._compact is None:
                self._compact = np.zeros(self._observation.shape, np.uint8)
            target: npt.NDArray[Any] = self._compact
        elif dtype is np.float32:
            target = self._observation
        else:
            raise InvalidArgumentError(f"dtype must be one of {['np.' + d for d in self.dtypes]}, got {shown(dtype)}")
        if not (self._observe_too and target is self._fused):  # else the last step wrote it
            with wrapping():
                self._kernel_observe(self.observers, target)
        return self._read_only(target)

    def _read_only(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        view = self._views.get(id(array))
        if view is None:
            view = array.view()
            view.flags.writeable = False
            self._views[id(array)] = view
        return view

    def game(self, index: int) -> Any:
        """Game ``index`` as the game's ``Game`` in its current position.

        Rebuilt from its deal seed and the actions played so far (every seat's)
        through ``Game.apply``: a rule the kernel got wrong would raise here. An episode longer
        than the batch keeps (a game's bound on its decisions, or its cap) raises
        :class:`~ordonnance.errors.InvalidArgumentError` rather than give another position."""
        i = check_game_index(index, self.games)
        length, kept = int(self._episodes.book[i, LENGTH]), self._episodes.history.shape[1]
        if length > kept:
            raise InvalidArgumentError(f"game {i}'s episode has {length:,} actions, more than the {kept:,} a batch keeps")
        return self._replay(int(self._episodes.seeds[i, DEAL]), self._episodes.history[i, :length].tolist())

    def __getstate__(self) -> dict[str, object]:
        """The batch without the step kernel's machine code, which does not pickle (found again
        at the next step), nor its read-only views, which are kept by their arrays' ids (made again)."""
        return {**self.__dict__, "_step_entry": None, "_views": {}}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.games}, {self._rules!r}, opponent={self.opponent!r})"
