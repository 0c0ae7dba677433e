"""One ``simulate`` driver for every game, and the result every game's ``simulate`` returns.

Each game's ``simulate(rules, *, games, seed, players, record)`` is this module's
:func:`simulate` given the game's :class:`Hooks` (its ``simulation`` module's
``HOOKS``). The driver does what every game does alike:

1. check the arguments (the library's errors, showing the bad value), and
   refuse a record larger than :data:`MAX_RECORD_BYTES` before allocating it;
2. deal game ``i`` from ``game_seeds(seed, games)[i]`` and give seat ``p``'s bot
   the stream ``bot_seeds(...)[i, p]`` (:mod:`ordonnance.core.seeds`);
3. check the bots (:func:`ordonnance.core.play.check_players`; Random in every
   seat by default);
4. play every game in the game's numba kernel when the kernel plays every
   seat's bot (the built-in Random and Greedy), else through the game's
   ``Game`` in Python, one decision at a time (:func:`play_in_python`);
5. fill the output arrays and build the result.

**Ctrl-C.** Numba code cannot be interrupted: a signal's Python handler runs
only once the kernel returns. So the seeds and the games go to the kernels in
consecutive chunks (:func:`in_chunks`), each sized from the rate measured so far
to take about :data:`CHUNK_SECONDS`; a ``KeyboardInterrupt`` comes out of
``simulate`` within a chunk's time of the signal, whatever the game count.
Each game's results depend only on its own seeds, so the chunks change no
seeded result.

The hooks say only what differs: which bots the kernel plays (their policy
codes), how to run the kernel on the games of a :class:`Call`, how to read one
finished ``Game``'s own figures into the outputs, and which result class to
build.

>>> from ordonnance import shinobi
>>> from ordonnance.core.simulate import hooks_for
>>> hooks_for(shinobi.Rules(players=3)).rules_name
'ordonnance.shinobi.Rules'
"""

from __future__ import annotations

import copy
import importlib
import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Self, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.core import jit, registry, rng
from ordonnance.core.bots import seeded_copies
from ordonnance.core.checks import flag, is_integer, shown
from ordonnance.core.play import check_players, play_to_the_end
from ordonnance.core.seeds import SEED_LIMIT, own_seed, wrapping
from ordonnance.core.summary import Summary
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError

__all__ = [
    "MAX_GAMES", "MAX_RECORD_BYTES", "CHUNK_SECONDS", "Outputs", "SimulationResult", "Call", "Hooks", "simulate",
    "play_in_python", "hooks_for", "in_chunks", "Step",
]  # fmt: skip

#: The most games one ``simulate`` call plays (its results are kept in memory).
MAX_GAMES = 100_000_000

#: The most bytes of recorded actions one ``simulate`` call keeps (16 GiB): a record
#: that would take more is refused before anything is allocated, with its size.
MAX_RECORD_BYTES = 16 << 30

#: The wall time each kernel call of ``simulate`` aims at, in seconds: Ctrl-C waits
#: for the running call to return (numba code cannot be interrupted).
CHUNK_SECONDS = 0.2

#: Games (or seeds) in the first kernel call, before the rate is known; each next call
#: takes at most :data:`_GROWTH` times as many as the one before.
_FIRST_CHUNK = 256
_GROWTH = 4

#: One action of a game as the Python road sees it: (seat, action).
Step = tuple[int, Any]

R = TypeVar("R")


class Outputs:
    """The arrays a ``simulate`` call fills, one row per game; a game's subclass adds its own
    (every array attribute has one row per game: :meth:`rows` slices them all)."""

    def __init__(self, games: int, players: int, *, decisions: type[np.integer[Any]] = np.int16) -> None:
        self.winner: npt.NDArray[np.int8] = np.zeros(games, np.int8)
        """The sole winning seat, or -1."""
        self.scores: npt.NDArray[np.int16] = np.zeros((games, players), np.int16)
        """``[game, seat]``: the seat's score (higher is better)."""
        self.decisions: npt.NDArray[np.integer[Any]] = np.zeros(games, decisions)
        """Actions the seats took in each game."""
        self.rounds: npt.NDArray[np.int16] = np.zeros(games, np.int16)
        """Rounds each game lasted (as the game defines a round)."""

    def rows(self, start: int, stop: int) -> Self:
        """These outputs for games ``start..stop-1`` only: every array a view of its rows (what a
        kernel writes into them lands here)."""
        part = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                setattr(part, name, value[start:stop])
        return part


@attrs.frozen(eq=False)
class SimulationResult(Generic[R]):
    """What every game's ``simulate`` returns: per-game results as NumPy arrays, one row per game.

    Each game's result is a subclass with the game's own arrays; its docstring
    says what a decision and a round are in that game.
    """

    rules: R
    """The rules played."""
    players: tuple[str, ...]
    """The bot of each seat, as its repr."""
    seeds: npt.NDArray[np.uint64]
    """Each game's deal seed: ``Game.new(rules, seed=int(seeds[i]))``."""
    bot_seeds: npt.NDArray[np.uint64]
    """``[game, seat]``: the seed each seat's bot played that game with."""
    winner: npt.NDArray[np.int8]
    """The seat that won the game alone, or -1 (a draw, or a win shared by tied seats)."""
    scores: npt.NDArray[np.int16]
    """``[game, seat]``: each seat's score at the end (higher is better)."""
    decisions: npt.NDArray[np.integer[Any]]
    """Decisions each game took: the actions the seats chose."""
    rounds: npt.NDArray[np.int16]
    """Rounds each game lasted (what a round is: the game's result class)."""

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def summary(self) -> Summary:
        """Aggregate the games: win rates, games without a sole winner, first-player advantage, length."""
        return Summary.of(self.winner, self.decisions, self.rounds, int(self.bot_seeds.shape[1]))

    def record(self, game: int) -> Any:
        """Game ``game``'s actions (each game's result says in which form)."""
        raise NotImplementedError

    def replay(self, game: int) -> Any:
        """Game ``game`` replayed through the game's ``Game``: the finished game."""
        raise NotImplementedError


O = TypeVar("O", bound=Outputs)
Res = TypeVar("Res", bound=SimulationResult[Any])


@attrs.frozen(eq=False)
class Call(Generic[R, O]):
    """The games of one ``simulate`` call, as the driver hands them to a game's :class:`Hooks`."""

    rules: R
    """The rules played."""
    bots: tuple[Any, ...]
    """The bot of each seat."""
    seeds: npt.NDArray[np.uint64]
    """Each game's deal seed."""
    bot_seeds: npt.NDArray[np.uint64]
    """``[game, seat]``: the seed each seat's bot plays that game with (C-contiguous)."""
    policies: npt.NDArray[np.int64]
    """The kernel's policy code of each seat's bot (-1 for a bot the kernel cannot play)."""
    out: O
    """The arrays being filled."""
    record: bool
    """Whether the caller asked to keep each game's actions."""
    in_kernel: bool
    """Whether the kernel plays every seat (else the games go through the game's ``Game``)."""

    def rows(self, start: int, stop: int) -> Call[R, O]:
        """The games ``start..stop-1`` of this call, writing into the same outputs."""
        return attrs.evolve(
            self, seeds=self.seeds[start:stop], bot_seeds=self.bot_seeds[start:stop], out=self.out.rows(start, stop)
        )

    def shared(self) -> dict[str, Any]:
        """The fields every game's :class:`SimulationResult` has, from these games."""
        return dict(
            rules=self.rules, players=tuple(repr(bot) for bot in self.bots), seeds=self.seeds,
            bot_seeds=self.bot_seeds, winner=self.out.winner, scores=self.out.scores,
            decisions=self.out.decisions, rounds=self.out.rounds,
        )  # fmt: skip


class Hooks(Generic[R, O, Res]):
    """What one game tells :func:`simulate`: its rules, ``Game``, kernel bots, and the steps that differ.

    A game subclasses it once (its ``simulation.HOOKS``) and implements the
    methods that raise :class:`NotImplementedError` here.
    """

    def __init__(
        self,
        rules_type: type[R],
        rules_name: str,
        default_rules: Callable[[], R],
        default_bot: Callable[..., Any],
        game_type: Any,
        kernel_bots: Mapping[type, int],
    ) -> None:
        self.rules_type = rules_type
        """The game's ``Rules`` class."""
        self.rules_name = rules_name
        """How error messages name it (``"ordonnance.shinobi.Rules"``)."""
        self.default_rules = default_rules
        """The rules of ``simulate(None, ...)``."""
        self.default_bot = default_bot
        """The bot of every seat when ``players`` is None: ``default_bot(seed=seat)``."""
        self.game_type = game_type
        """The game's ``Game`` class (its ``new(rules, seed=...)`` deals a game)."""
        self.kernel_bots = dict(kernel_bots)
        """The kernel's policy code of each bot class it plays (subclasses are not the same bot)."""

    def policy(self, bot: object) -> int | None:
        """The kernel's policy code for ``bot``, or None for a bot the kernel cannot play."""
        return self.kernel_bots.get(type(bot))

    def new_game(self, rules: R, seed: int) -> Any:
        """``Game.new(rules, seed=seed)`` of the game."""
        return self.game_type.new(rules, seed=seed)

    def outputs(self, rules: R, games: int, *, record: bool, in_kernel: bool) -> O:
        """The arrays to fill for ``games`` games (``record``: keep the actions)."""
        raise NotImplementedError

    def record_bytes(self, rules: R, *, record: bool, in_kernel: bool) -> int:
        """The bytes of actions :meth:`outputs` keeps for each game (0: none)."""
        raise NotImplementedError

    def run_kernel(self, call: Call[R, O]) -> None:
        """Play the games of ``call`` in the kernel, seat ``p`` by policy ``call.policies[p]``,
        into ``call.out`` (with 64-bit arithmetic wrapping: :func:`ordonnance.core.seeds.wrapping`).
        The driver calls it on consecutive slices of the games (:meth:`Call.rows`), each a
        fraction of a second of play."""
        raise NotImplementedError

    def read(self, game: Any, steps: Sequence[Step], out: O, g: int) -> None:
        """Row ``g`` of ``out``'s own arrays and rounds from ``game``, played with ``steps`` (the
        driver reads the winner, the scores and the decisions); the game may have been stopped
        before its end (a bot over a tournament's time limit)."""
        raise NotImplementedError

    def result(self, call: Call[R, O]) -> Res:
        """The result of the games of ``call``: :meth:`Call.shared` and the game's own fields."""
        raise NotImplementedError


def simulate(
    hooks: Hooks[R, O, Res],
    rules: R | None,
    *,
    games: int,
    seed: int,
    players: Sequence[Any] | None,
    record: bool,
) -> Res:
    """Play ``games`` whole games of the game of ``hooks`` (see the module documentation)."""
    rules = hooks.default_rules() if rules is None else rules
    if not isinstance(rules, hooks.rules_type):
        raise OrdonnanceTypeError(f"rules must be an {hooks.rules_name}, got {shown(rules)}")
    if not is_integer(games) or games < 0:
        raise InvalidRulesError(f"games must be a non-negative int, got {shown(games)}")
    if games > MAX_GAMES:
        raise InvalidRulesError(
            f"games must be at most {MAX_GAMES:,} per call (results are kept in memory), got {shown(games)}; "
            "simulate in chunks, or use tournament()"
        )
    games = int(games)
    if not is_integer(seed):  # InvalidRulesError: what simulate has always raised for a seed
        raise InvalidRulesError(f"seed must be an int, got {shown(seed)}")
    if not 0 <= seed < SEED_LIMIT:
        raise InvalidRulesError(f"seed must be in 0..2**64-1, got {shown(seed)}")
    seed = int(seed)
    record = flag(record, "record")
    bots = _bots(hooks, players, getattr(rules, "players"))
    policies = [hooks.policy(bot) for bot in bots]
    in_kernel = all(p is not None for p in policies)
    _check_record_size(hooks.record_bytes(rules, record=record, in_kernel=in_kernel), games, record)
    seeds, per_game = _seeds(seed, games, [own_seed(bot) for bot in bots])
    call = Call(
        rules, tuple(bots), seeds, per_game, np.array([-1 if p is None else p for p in policies], np.int64),
        hooks.outputs(rules, games, record=record, in_kernel=in_kernel), record, in_kernel,
    )  # fmt: skip
    if in_kernel:
        in_chunks(games, lambda start, stop: hooks.run_kernel(call.rows(start, stop)))
    else:
        play_in_python(hooks, rules, bots, seeds, per_game, call.out)
    return hooks.result(call)


def _bots(hooks: Hooks[Any, Any, Any], players: Sequence[Any] | None, n: int) -> list[Any]:
    """The bot of each seat (:func:`~ordonnance.core.play.check_players`), reading at most
    ``n + 1`` items of ``players`` (a sequence can be huge, or endless)."""
    if players is not None:
        if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise OrdonnanceTypeError(f"players must be a sequence of {n} bots (one per seat), got {shown(players)}")
        listed = list(itertools.islice(players, n + 1))
        if len(listed) != n:
            count = len(listed) if len(listed) < n else "more"
            raise InvalidRulesError(f"players must list {n} bots (one per seat), got {count}: {shown(players)}")
        players = listed
    return check_players(players, n, hooks.default_bot)


def _check_record_size(row_bytes: int, games: int, record: bool) -> None:
    """Refuse keeping ``row_bytes`` of actions for each of ``games`` games if that passes
    :data:`MAX_RECORD_BYTES`."""
    if row_bytes * games <= MAX_RECORD_BYTES:
        return
    why = "record=True would keep" if record else "bots played in Python would keep every game's actions,"
    raise InvalidRulesError(
        f"{why} {_size(row_bytes * games)} for {games:,} games ({row_bytes:,} bytes a game), more than the "
        f"{_size(MAX_RECORD_BYTES)} one simulate call may keep; record at most "
        f"{MAX_RECORD_BYTES // row_bytes:,} games a call"
    )


def _size(count: int) -> str:
    """``count`` bytes for people: ``1.1 TiB``."""
    size, unit = float(count), "bytes"
    for bigger in ("KiB", "MiB", "GiB", "TiB"):
        if size < 1024:
            break
        size, unit = size / 1024, bigger
    return f"{size:,.1f} {unit}" if unit != "bytes" else f"{count:,} bytes"


def _seeds(seed: int, games: int, own: Sequence[int]) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """:func:`ordonnance.core.seeds.game_seeds` and :func:`~ordonnance.core.seeds.bot_seeds`,
    filled in chunks (a hundred million seeds take seconds, and Ctrl-C must not wait for them)."""
    seeds = np.empty(games, np.uint64)
    per_game = np.empty((games, len(own)), np.uint64)
    mine = np.array(own, np.uint64)

    def fill(start: int, stop: int) -> None:
        with wrapping():
            # SplitMix64's state after ``start`` outputs: the seed plus ``start`` steps of its gamma.
            jit.stream(np.uint64(rng.skipped(seed, start)), seeds[start:stop])
            jit.mix_bot_seeds(seeds[start:stop], mine, per_game[start:stop])

    in_chunks(games, fill)
    return seeds, per_game


def in_chunks(items: int, run: Callable[[int, int], object], *, seconds: float | None = None) -> None:
    """``run(start, stop)`` over ``0..items`` in consecutive slices, each sized from the rate
    measured so far to take about ``seconds`` (default :data:`CHUNK_SECONDS`): between two
    slices Python runs, so Ctrl-C (any signal handler) gets through within a slice's time.

    >>> from ordonnance.core.simulate import in_chunks
    >>> slices = []
    >>> in_chunks(1000, lambda start, stop: slices.append((start, stop)))
    >>> slices[0], slices[-1][1], all(a[1] == b[0] for a, b in zip(slices, slices[1:]))
    ((0, 256), 1000, True)
    """
    aim = CHUNK_SECONDS if seconds is None else seconds
    start, size = 0, _FIRST_CHUNK
    while start < items:
        stop = min(start + size, items)
        began = time.perf_counter()
        run(start, stop)
        elapsed = time.perf_counter() - began
        done = stop - start
        size = max(1, min(done * _GROWTH, int(done * aim / elapsed) if elapsed > 0 else done * _GROWTH))
        start = stop


def play_in_python(
    hooks: Hooks[R, O, Any],
    rules: R,
    bots: Sequence[Any],
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    out: O,
    *,
    first: int = 0,
    names: Sequence[str] | None = None,
    time_limit: float | None = None,
    untimed: Callable[[object], bool] = lambda bot: False,
) -> list[int | None]:
    """Play the games of ``seeds`` through the game's ``Game``, each seat's bot a fresh copy seeded
    from ``bot_seeds`` (bots of the user's own, as they are), and read each into ``out``: its
    winner (-1: nobody alone), scores and decisions here, the rest by ``hooks.read``.

    Returns, per game, the seat that took longer than ``time_limit`` over a decision
    (the game stops there) or None. Errors name the game as number ``first + g``;
    ``names`` and ``untimed`` are :func:`~ordonnance.core.play.play_to_the_end`'s.
    """
    late: list[int | None] = []
    for g, deal_seed in enumerate(seeds.tolist()):
        game = hooks.new_game(rules, deal_seed)
        steps: list[Step] = []
        late.append(
            play_to_the_end(
                game, seeded_copies(bots, bot_seeds[g].tolist()), index=first + g, deal_seed=deal_seed, names=names,
                time_limit=time_limit, untimed=untimed, on_action=_appender(steps),
            )  # fmt: skip
        )
        out.winner[g] = -1 if game.winner is None else game.winner
        out.scores[g] = game.scores
        out.decisions[g] = len(steps)
        hooks.read(game, steps, out, g)
    return late


def _appender(steps: list[Step]) -> Callable[[int, Any], None]:
    """``on_action`` for :func:`~ordonnance.core.play.play_to_the_end`: each (seat, action) into ``steps``."""

    def append(seat: int, action: Any) -> None:
        steps.append((seat, action))

    return append


def hooks_for(rules: object) -> Hooks[Any, Any, Any]:
    """The :class:`Hooks` of the game whose ``Rules`` ``rules`` is (its package's ``simulation.HOOKS``)."""
    package = registry.info(registry.name_of(rules)).package
    hooks: Hooks[Any, Any, Any] = importlib.import_module(package + ".simulation").HOOKS
    return hooks
