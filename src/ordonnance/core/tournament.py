"""Tournaments: every bot against every other, in every seat, over many deals.

>>> import ordonnance as od
>>> from ordonnance.tournament import tournament  # also od.tournament
>>> result = tournament([od.bots.Greedy(seed=1), od.bots.Random(seed=2)],
...                     games=400, rules=od.Rules(), seed=1, executor="serial")
>>> result.names, result.games, result.seatings
(('Greedy', 'Random'), 400, ((0, 1), (1, 0)))
>>> result.standings[0], result.win_rate[0] > 0.6
('Greedy', True)

**Format.** With ``k`` bots and ``n`` players per game, every *seating* (an
ordered choice of ``n`` different bots, one per seat: ``k! / (k - n)!`` of
them) plays the same number of games, ``ceil(games / seatings)``, so that no
bot gains from its seat. The tournament is *duplicate*: every seating plays
the very same deals (game ``j`` of every seating is shuffled from the same
seed), so a comparison between bots is not blurred by the luck of the deal.

**Chunks and seeds.** Each seating's games are cut into chunks of
``chunk_size`` games, and each chunk is one call of
:func:`~ordonnance.simulate` (the built-in :class:`~ordonnance.bots.Random`
and :class:`~ordonnance.bots.Greedy` play inside its numba kernel; other bots
through :class:`~ordonnance.Game` in Python). The chunk starting at game
``start`` of the deal stream uses ``seed + start * 0x9E3779B97F4A7C15``
(mod 2**64): the SplitMix64 stream of ``seed`` jumped ahead by ``start``
games, so its deals are exactly games ``start, start + 1, ...`` of
``simulate(rules, games=..., seed=seed)``. The chunks therefore depend only on
the arguments, never on the executor, and the counts are added up as
integers: **the same arguments give the same result with any executor**
(serial, threads, local processes or a Dask cluster). For the built-in
Random and Greedy bots, whose per-game seeds come from the deal, the result
does not even depend on ``chunk_size``. Any other bot starts every chunk as a
fresh copy of the object passed in (bots are pickled once and unpickled per
chunk), so that chunks never share state. A bot that cannot be pickled (an
:class:`ordonnance.openspiel.OpenSpielBot`, a bot holding a lambda) plays only
where every chunk runs in the calling process (``executor="serial"``, or a
pool that would have one worker); it then plays every chunk as the object
passed in, so any state it keeps carries from one chunk to the next.

**Any game.** ``rules`` may be the ``Rules`` of any of the library's games
(:mod:`ordonnance.games`): Ordonnance, :mod:`ordonnance.shinobi` or
:mod:`ordonnance.black_prince`; the bots are then that game's, and each chunk
is a call of that game's ``simulate`` (its built-in Random and Greedy in its
kernel) or is played through that game's ``Game``, with the same seeds,
time limits and error reports.

**Executors.** ``executor=None`` (or ``"process"``) runs the chunks on a local
:class:`~concurrent.futures.ProcessPoolExecutor` of ``workers`` processes
(default: one per CPU; processes are *spawned*, so a script that calls
:func:`tournament` needs the usual ``if __name__ == "__main__":`` guard).
A tournament of one chunk runs in the calling process. ``"serial"`` runs
every chunk in the calling process. Any
:class:`concurrent.futures.Executor` works too, in particular a Dask
``distributed.Client(...).get_executor()`` to run on a cluster (see
``docs/cluster.rst``); the caller then owns it and shuts it down.

**Progress.** A `tqdm <https://tqdm.github.io>`_ progress bar on standard
error counts the games: by default (``progress=None``) only when standard
error is a terminal and only once the run has taken longer than
:data:`PROGRESS_DELAY` seconds; ``True`` forces it on, ``False`` off.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import pickle
import signal
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import attrs
import numpy as np

from ordonnance.core import registry
from ordonnance.core import executing
from ordonnance.core.bots import Bot, has_choose
from ordonnance.core.seeds import bot_seeds, game_seeds, own_seed as _own_seed, wrapping
from ordonnance.core.simulate import MAX_GAMES as MAX_SIMULATE_GAMES, hooks_for, play_in_python, simulate
from ordonnance.core.spec import RulesLike as GameRules
from ordonnance.core.stats import wilson as _wilson
from ordonnance.core.summary import Summary
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.core import checks
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = [
    "tournament",
    "TournamentResult",
    "PROGRESS_DELAY",
    "KERNEL_CHUNK_SIZE",
    "PYTHON_CHUNK_SIZE",
    "MAX_GAMES",
    "MAX_SEATINGS",
    "MAX_WORKERS",
    "MAX_CHUNK_SIZE",
]

#: Seconds a run must last before the automatic progress bar appears.
PROGRESS_DELAY = 1.0
#: Games per chunk when every bot of a seating runs in the numba kernel (Random, Greedy).
KERNEL_CHUNK_SIZE = 4_096
#: Games per chunk when some bot of a seating is played from Python (MonteCarlo, your own).
PYTHON_CHUNK_SIZE = 16
#: The most seatings (ordered choices of bots, one per seat) a tournament may have.
MAX_SEATINGS = 100_000
#: The most local worker processes a tournament starts.
MAX_WORKERS = executing.MAX_WORKERS
#: The largest ``chunk_size``: one chunk is one :func:`~ordonnance.simulate` call.
MAX_CHUNK_SIZE = MAX_SIMULATE_GAMES
#: The most games one :func:`tournament` may play (chunks are made as they are needed,
#: so this bounds the time, not the memory: about a day of kernel games on 64 cores).
MAX_GAMES = 10**12

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_ELO_BASE = 1500.0
_WIN = 1 << 20  # ranks a game's winner above every score

ExecutorLike = executing.ExecutorLike
"""What :func:`tournament` accepts as ``executor``."""


# --------------------------------------------------------------------- the result


@attrs.frozen
class TournamentResult:
    """The outcome of :func:`tournament`: integer counts, and the rates derived from them.

    Bots are numbered as in :attr:`names`; every per-bot tuple follows that
    order. Two results compare equal when every count is equal.
    """

    rules: GameRules
    """The rules played."""
    seed: int
    """The tournament's seed."""
    names: tuple[str, ...]
    """The bots' names."""
    seatings: tuple[tuple[int, ...], ...]
    """Every seating played: the bot (index into :attr:`names`) in each seat."""
    games_per_seating: int
    """Games each seating played (the same deals for every seating)."""
    chunks: int = attrs.field(eq=False)
    """How many chunks (tasks) the games were cut into (not compared by ``==``)."""
    wins: tuple[int, ...]
    """Games each bot won."""
    played: tuple[int, ...]
    """Games each bot played."""
    seat_wins: tuple[tuple[int, ...], ...]
    """``[bot][seat]``: games the bot won from that seat."""
    seat_played: tuple[tuple[int, ...], ...]
    """``[bot][seat]``: games the bot played from that seat."""
    draws: int
    """Games nobody won."""
    pairwise_wins: tuple[tuple[int, ...], ...]
    """``[a][b]``: games where bot ``a`` finished above bot ``b`` (the winner above
    everyone, then by score: territories or points)."""
    pairwise_games: tuple[tuple[int, ...], ...]
    """``[a][b]``: games in which bots ``a`` and ``b`` both played."""
    forfeits: tuple[int, ...]
    """Games each bot lost by taking longer than ``time_limit`` over a decision
    (counted among its games played, not among its wins)."""
    time_limit: float | None = None
    """The time limit per decision, in seconds (None: no limit)."""
    decisions: int = 0
    """Decisions taken in all games (a game lost on time counts those up to the late one)."""
    rounds: int = 0
    """Rounds played in all games (a round as the game's ``SimulationResult.rounds`` defines it)."""

    @property
    def games(self) -> int:
        """Games played in all."""
        return self.games_per_seating * len(self.seatings)

    @property
    def players(self) -> int:
        """Seats per game."""
        return self.rules.players

    @property
    def win_rate(self) -> tuple[float, ...]:
        """Share of its games each bot won (a fair share is ``1 / players``)."""
        return tuple(w / p if p else 0.0 for w, p in zip(self.wins, self.played))

    @property
    def win_rate_ci(self) -> tuple[tuple[float, float], ...]:
        """95% Wilson score interval of each bot's win rate."""
        return tuple(_wilson(w, p) for w, p in zip(self.wins, self.played))

    @property
    def seat_summary(self) -> Summary:
        """The figures of the seats, whoever sat there, as every game's simulation summary gives them:
        each seat's win rate with its 95% interval, the games nobody won alone, the
        first-player advantage and the mean game length."""
        return Summary.from_counts(
            games=self.games,
            players=self.players,
            wins=[sum(row[s] for row in self.seat_wins) for s in range(self.players)],
            decisions=self.decisions,
            rounds=self.rounds,
        )

    @property
    def seat_win_rate(self) -> tuple[float, ...]:
        """Share of all games won from each seat, whoever sat there (:attr:`seat_summary`'s ``win_rate``)."""
        return self.seat_summary.win_rate

    @property
    def draw_rate(self) -> float:
        """Share of games nobody won alone (:attr:`seat_summary`'s ``draw_rate``)."""
        return self.seat_summary.draw_rate

    def pairwise_score(self, a: int | str, b: int | str) -> float | None:
        """Bot ``a``'s score against bot ``b``: (games above + half the ties) / games together.

        With two players that is the head-to-head win rate (ties: games nobody
        won). None when they never met (or ``a`` is ``b``).
        """
        i, j = self.index(a), self.index(b)
        together = self.pairwise_games[i][j]
        if i == j or not together:
            return None
        ties = together - self.pairwise_wins[i][j] - self.pairwise_wins[j][i]
        return (self.pairwise_wins[i][j] + 0.5 * ties) / together

    def pairwise_table(self, order: Sequence[str] | None = None) -> list[str]:
        """The lines of the table of :meth:`pairwise_score`, rows and columns in ``order``
        (default: :attr:`standings`)."""
        order = self.standings if order is None else tuple(order)
        width = max(8, *(len(name) for name in self.names))
        column = max(7, width)
        lines = [
            "pairwise score (row against column: games finished above, ties count half)",
            " " * (width + 2) + "".join(f"{name:>{column + 2}}" for name in order),
        ]
        for row in order:
            cells = []
            for col in order:
                score = self.pairwise_score(row, col)
                cells.append(f"{'-' if score is None else f'{score:.1%}':>{column + 2}}")
            lines.append(f"{row:<{width + 2}}" + "".join(cells))
        return lines

    @property
    def elo(self) -> tuple[float, ...]:
        """Elo ratings (mean 1500) of a Bradley-Terry model fitted to the pairwise results.

        A tie counts half a win each way, and every pair that met gets one
        extra virtual tie, so that a bot that always wins has a finite rating.
        Only differences mean something: 400 points is 10 to 1 odds.
        """
        return bradley_terry_elo(self.pairwise_wins, self.pairwise_games)

    @property
    def standings(self) -> tuple[str, ...]:
        """The names, best first: by win rate, then Elo, then name order."""
        rates, elo = self.win_rate, self.elo
        order = sorted(range(len(self.names)), key=lambda b: (-rates[b], -elo[b], b))
        return tuple(self.names[b] for b in order)

    def index(self, bot: int | str) -> int:
        """The number of a bot given by name or number."""
        if isinstance(bot, str):
            if bot not in self.names:
                raise InvalidRulesError(f"no bot named {shown(bot)} in this tournament; names: {', '.join(self.names)}")
            return self.names.index(bot)
        if not checks.is_integer(bot) or not 0 <= bot < len(self.names):
            raise InvalidRulesError(f"a bot is a name or a number 0..{len(self.names) - 1}, got {shown(bot)}")
        return int(bot)

    def __str__(self) -> str:
        k = len(self.names)
        width = max(8, *(len(name) for name in self.names))
        lines = [
            f"tournament: {k} bots, {self.players} players a game, {len(self.seatings):,} seatings x "
            f"{self.games_per_seating:,} deals = {self.games:,} games (seed {self.seed})",
            f"rank  {'bot':<{width}}  {'games':>9}  {'wins':>9}  {'win rate':>8}  {'95% CI':<17}  {'Elo':>6}",
        ]
        rates, cis, elo = self.win_rate, self.win_rate_ci, self.elo
        for rank, name in enumerate(self.standings, 1):
            b = self.names.index(name)
            low, high = cis[b]
            lines.append(
                f"{rank:>4}  {name:<{width}}  {self.played[b]:>9,}  {self.wins[b]:>9,}  {rates[b]:>8.2%}  "
                f"{low:>6.2%} .. {high:<6.2%}  {elo[b]:>6.0f}"
            )
        lines.append("")
        lines.extend(self.pairwise_table(self.standings))
        lines.append("")
        summary = self.seat_summary
        seats = ", ".join(f"seat {s} {rate:.2%}" for s, rate in enumerate(summary.win_rate))
        lines.append(f"wins by seat: {seats}" + (f"; nobody wins {summary.draw_rate:.2%}" if self.draws else ""))
        lines.append(summary.advantage_line().strip())
        lines.append(summary.length_line().strip())
        if any(self.forfeits):
            lost = ", ".join(f"{name} {count:,}" for name, count in zip(self.names, self.forfeits) if count)
            lines.append(f"games lost on time (over {self.time_limit:g} s for a decision): {lost}")
        return "\n".join(lines)


def bradley_terry_elo(
    pairwise_wins: tuple[tuple[int, ...], ...], pairwise_games: tuple[tuple[int, ...], ...]
) -> tuple[float, ...]:
    """Bradley-Terry strengths from pairwise win and game counts, as Elo ratings whose geometric mean strength is 1500."""
    k = len(pairwise_wins)
    wins = np.zeros((k, k))
    for a in range(k):
        for b in range(k):
            if a != b and pairwise_games[a][b]:
                ties = pairwise_games[a][b] - pairwise_wins[a][b] - pairwise_wins[b][a]
                wins[a, b] = pairwise_wins[a][b] + 0.5 * ties + 0.5  # + one virtual tie
    games = wins + wins.T
    total = wins.sum(axis=1)
    strength = np.ones(k)
    for _ in range(10_000):  # minorisation-maximisation (Hunter 2004); converges fast
        denominator = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denominator > 0, total / np.where(denominator > 0, denominator, 1.0), 1.0)
        new = np.maximum(new, 1e-300)
        new /= math.exp(float(np.mean(np.log(new))))
        done = bool(np.max(np.abs(new - strength) / strength) < 1e-12)
        strength = new
        if done:
            break
    return tuple(_ELO_BASE + 400.0 * math.log10(float(s)) for s in strength)


# --------------------------------------------------------------------- chunks


@attrs.frozen
class _Chunk:
    """One task: ``games`` deals of one seating, from the deal stream at ``start``."""

    rules: GameRules
    seating: int
    start: int
    games: int
    seed: int
    players: bytes | tuple[Bot, ...]  # the seating's bots, pickled (every chunk unpickles fresh copies), or the
    # bots themselves where they cannot be pickled and every chunk runs in this process
    names: tuple[str, ...] = ()  # the bot of each seat, for error messages
    time_limit: float | None = None


@attrs.frozen
class _Counts:
    """What a chunk sends back: small integer counts, by seat."""

    seating: int
    games: int
    wins: tuple[int, ...]
    draws: int
    above: tuple[tuple[int, ...], ...]  # [i][j]: games where seat i finished above seat j
    forfeits: tuple[int, ...] = ()  # by seat: games lost on time
    decisions: int = 0  # in all the chunk's games
    rounds: int = 0


def _play_chunk(chunk: _Chunk) -> _Counts:
    """Run one chunk (in whichever process or machine the executor picks)."""
    players = pickle.loads(chunk.players) if isinstance(chunk.players, bytes) else list(chunk.players)
    n = chunk.rules.players
    forfeits = np.zeros(n, np.int64)
    # The kernels' SplitMix64 wraps around uint64 on purpose; without the JIT
    # (NUMBA_DISABLE_JIT=1) NumPy would report each wraparound as an overflow.
    with wrapping():
        if all(_in_kernel(p) for p in players):
            res = simulate(hooks_for(chunk.rules), chunk.rules, games=chunk.games, seed=chunk.seed, players=players,
                           record=False)  # fmt: skip
            winner, scores = res.winner.astype(np.int64), res.scores.astype(np.int64)
            decisions, rounds = res.decisions, res.rounds
        else:
            winner, scores, forfeits, decisions, rounds = _play_python(chunk, players)
    standing = scores + _WIN * (winner[:, None] == np.arange(n)[None, :])
    above = tuple(
        tuple(int(np.count_nonzero(standing[:, i] > standing[:, j])) for j in range(n)) for i in range(n)
    )
    return _Counts(
        seating=chunk.seating,
        games=chunk.games,
        wins=tuple(int(np.count_nonzero(winner == seat)) for seat in range(n)),
        draws=int(np.count_nonzero(winner < 0)),
        above=above,
        forfeits=tuple(int(f) for f in forfeits),
        decisions=int(decisions.sum(dtype=np.int64)),
        rounds=int(rounds.sum(dtype=np.int64)),
    )


def _play_python(chunk: _Chunk, players: list[Bot]) -> tuple[Any, Any, Any, Any, Any]:
    """Play a chunk through its game's ``Game``, one decision at a time: the games of
    ``simulate(rules, games, seed, players)`` (the same deals, and built-in bots
    seeded alike; :func:`ordonnance.core.simulate.play_in_python`), with each
    decision timed and every failure named.

    Returns the winner of each game (-1: nobody), the scores ``[game, seat]``
    (-1 for a seat that lost on time, below every score), the games each
    seat lost on time, and each game's decisions and rounds.
    """
    rules, n = chunk.rules, chunk.rules.players
    hooks = hooks_for(rules)
    seeds = game_seeds(chunk.seed, chunk.games)
    per_game = bot_seeds(seeds, [_own_seed(bot) for bot in players])
    out = hooks.outputs(rules, chunk.games, record=False, in_kernel=False)
    late_seats = play_in_python(
        hooks, rules, players, seeds, per_game, out, first=chunk.start,
        names=chunk.names or None, time_limit=chunk.time_limit, untimed=_in_kernel,
    )  # fmt: skip  (the built-in Random and Greedy are never timed, wherever they play)
    winner = out.winner.astype(np.int64)
    scores = out.scores.astype(np.int64)
    forfeits = np.zeros(n, np.int64)
    for g, late in enumerate(late_seats):
        if late is None:
            continue
        forfeits[late] += 1
        scores[g, late] = -1
        best = max(scores[g])
        leaders = np.flatnonzero(scores[g] == best)
        winner[g] = int(leaders[0]) if len(leaders) == 1 else -1
    return winner, scores, forfeits, out.decisions, out.rounds


def _in_kernel(bot: object) -> bool:
    return registry.kernel_bot(bot)


def _chunk_size(players: Sequence[Bot], chunk_size: int | None) -> int:
    if chunk_size is not None:
        return chunk_size
    return KERNEL_CHUNK_SIZE if all(_in_kernel(p) for p in players) else PYTHON_CHUNK_SIZE


def _chunks(
    rules: GameRules,
    seatings: list[tuple[int, ...]],
    bots: list[Bot],
    names: list[str],
    per_seating: int,
    seed: int,
    chunk_size: int | None,
    time_limit: float | None,
    in_process: bool = False,
) -> Iterator[_Chunk]:
    """The chunks, made one at a time as the executor takes them (a tournament of
    10**12 games has hundreds of millions). ``in_process``: every chunk runs in this
    process, so bots that cannot be pickled play as they are."""
    for s, seating in enumerate(seatings):
        players = [bots[b] for b in seating]
        size = _chunk_size(players, chunk_size)
        blob: bytes | tuple[Bot, ...]
        try:
            blob = pickle.dumps(players)
        except Exception:  # only in this process: tournament() refused such bots for any other
            if not in_process:
                raise
            blob = tuple(players)
        seat_names = tuple(names[b] for b in seating)
        for start in range(0, per_seating, size):
            games = min(size, per_seating - start)
            yield _Chunk(rules, s, start, games, (seed + start * _GAMMA) & _MASK64, blob, seat_names, time_limit)


# --------------------------------------------------------------------- running


def named_bots(bots: Sequence[Bot] | Mapping[str, Bot]) -> tuple[list[str], list[Bot]]:
    """The names and the bots of a tournament's ``bots`` argument (a list is named by each bot's class, numbered where two share one); bad names raise."""
    if isinstance(bots, Mapping):
        names = list(bots)
        for name in names:
            if not isinstance(name, str) or not name:
                raise OrdonnanceTypeError(f"bot names must be non-empty strings, got {shown(name)}")
        return names, [bots[name] for name in names]
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise OrdonnanceTypeError(f"bots must be a list of bots or a dict of named bots, got {shown(bots)}")
    listed = list(bots)
    names = [type(bot).__name__ for bot in listed]
    repeated = {name for name in names if names.count(name) > 1}
    return [f"{name}-{i}" if name in repeated else name for i, name in enumerate(names)], listed


def _progress_bar(total: int, progress: bool | None) -> tqdm[NoReturn]:
    from tqdm import tqdm

    size = _terminal_fallback()
    return tqdm(
        total=total,
        unit="game",
        unit_scale=total >= 10_000,
        desc="tournament",
        file=sys.stderr,
        disable=None if progress is None else not progress,
        delay=PROGRESS_DELAY if progress is None else 0.0,
        ncols=size[0],
        nrows=size[1],
    )


def _terminal_fallback() -> tuple[int | None, int | None]:
    """A size for tqdm when standard error is a terminal of size 0x0 (some CI
    runners, a bare pseudo-terminal), where tqdm would otherwise print nothing."""
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, ValueError, OSError):  # not a terminal, or no real file
        return (None, None)
    return (None, None) if size.columns and size.lines else (80, 24)


def tournament(
    bots: Sequence[Bot] | Mapping[str, Bot],
    games: int = 10_000,
    rules: GameRules | None = None,
    *,
    seed: int = 0,
    executor: ExecutorLike = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool | None = None,
    time_limit: float | None = None,
) -> TournamentResult:
    """Play every bot against every other in every seat; return the counts and standings.

    ``bots`` is a list of bots (named after their class, numbered when a class
    repeats) or a dict ``{name: bot}``; at least ``rules.players`` of them
    (``rules`` defaults to two players), and picklable unless every chunk runs
    in this process (``executor="serial"``: see the module documentation). Every seating (an
    ordered choice of different bots, one per seat) plays
    ``ceil(games / seatings)`` games on the same deals, so slightly more than
    ``games`` may be played (see :attr:`TournamentResult.games`).

    ``rules`` is the ``Rules`` of any game of :mod:`ordonnance.games` (default
    ``ordonnance.Rules()``); the bots must be that game's.

    ``executor``: None or ``"process"`` for a local process pool of
    ``workers`` processes (default: one per CPU), ``"serial"`` for this
    process, or any :class:`concurrent.futures.Executor` such as
    ``distributed.Client(...).get_executor()``. ``chunk_size`` is the games
    per task (default :data:`KERNEL_CHUNK_SIZE` for seatings of kernel bots,
    :data:`PYTHON_CHUNK_SIZE` otherwise). ``progress``: None shows a progress
    bar on long runs when standard error is a terminal, True always, False
    never. The same arguments give the same result whatever the executor
    (see the module documentation for how chunks are seeded).

    ``time_limit`` (seconds, or None for no limit) bounds each decision of a
    bot played from Python: a bot that takes longer loses that game on time
    (it ranks below every other seat, the others by their scores then; see
    :attr:`TournamentResult.forfeits`). The built-in Random and Greedy bots
    decide in microseconds (inside the kernel where they can) and are never
    timed. Timing depends on the machine, so a time limit makes results
    reproducible only as far as no bot comes close to it; the time is checked
    when a decision returns, so a bot that never returns is not interrupted.
    A bot that raises an error or
    chooses an illegal action stops the tournament with a
    :class:`~ordonnance.errors.BotError` naming the bot, its seat, the game
    and the deal's seed. At most :data:`MAX_GAMES` games and
    :data:`MAX_SEATINGS` seatings.

    Interrupted (Ctrl-C, or SIGTERM as sent by ``timeout`` or a job
    scheduler), a tournament on its own process pool stops its workers
    before the interruption goes on (SIGTERM then ends the process as it
    would have).

    >>> import ordonnance as od
    >>> bots = {"greedy": od.bots.Greedy(seed=1), "random": od.bots.Random(seed=2)}
    >>> a = tournament(bots, games=200, seed=3, executor="serial")
    >>> a == tournament(bots, games=200, seed=3, executor="serial", chunk_size=32)
    True
    """
    rules = registry.package("ordonnance").Rules() if rules is None else rules
    registry.name_of(rules)  # the Rules of one of the games, or a clear refusal
    if not checks.is_integer(games) or not 1 <= games <= MAX_GAMES:
        raise InvalidRulesError(f"games must be a positive int, at most {MAX_GAMES:,}, got {shown(games)}")
    if not checks.is_integer(seed) or not 0 <= seed <= _MASK64:
        raise InvalidRulesError(f"seed must be an int in 0..2**64-1, got {shown(seed)}")
    if chunk_size is not None and (
        not checks.is_integer(chunk_size) or not 1 <= chunk_size <= MAX_CHUNK_SIZE
    ):
        raise InvalidRulesError(f"chunk_size must be a positive int of at most {MAX_CHUNK_SIZE:,} or None, got {shown(chunk_size)}")
    workers = executing.check_workers(workers)
    games, seed = int(games), int(seed)  # plain ints, whatever NumPy integers were given
    chunk_size = None if chunk_size is None else int(chunk_size)
    if progress is not None and not isinstance(progress, bool):
        raise OrdonnanceTypeError(f"progress must be True, False or None, got {shown(progress)}")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit < math.inf
    ):
        raise InvalidRulesError(f"time_limit must be a positive number of seconds or None, got {shown(time_limit)}")
    executor = executing.check_executor(executor)
    names, players = named_bots(bots)
    n = rules.players
    if len(players) < max(n, 2):
        raise InvalidRulesError(
            f"a tournament needs at least {max(n, 2)} bots for {n}-player games, got {len(players)}"
        )
    for name, bot in zip(names, players):
        if isinstance(bot, type):
            raise OrdonnanceTypeError(f"bot {shown(name)} is the class {shown(bot)}, not a bot: did you mean {bot.__name__}()?")
        if not has_choose(bot):
            raise OrdonnanceTypeError(f"bot {shown(name)} has no choose(view) method: {shown(bot)}")

    count = math.perm(len(players), n)
    if count > MAX_SEATINGS:
        raise InvalidRulesError(
            f"{len(players)} bots give {count:,} seatings of {n} players, more than {MAX_SEATINGS:,}: use fewer bots"
        )
    seatings = list(itertools.permutations(range(len(players)), n))
    per_seating = -(-games // len(seatings))
    chunk_count = sum(-(-per_seating // _chunk_size([players[b] for b in seating], chunk_size)) for seating in seatings)
    in_process = executing.in_this_process(executor, workers, chunk_count)
    if not in_process:  # the bots are sent to other processes (or machines)
        for name, bot in zip(names, players):
            executing.pickled(bot, f"bot {shown(name)}")
    chunks = _chunks(rules, seatings, players, names, per_seating, seed, chunk_size,
                     None if time_limit is None else float(time_limit), in_process)  # fmt: skip

    k = len(players)
    wins = [0] * k
    seat_wins = [[0] * n for _ in range(k)]
    pair_wins = [[0] * k for _ in range(k)]
    forfeits = [0] * k
    draws = decisions = rounds = 0
    with _sigterm_as_interruption():
        bar = _progress_bar(per_seating * len(seatings), progress)
        results = executing.execute(_play_chunk, chunks, chunk_count, executor, workers)
        try:
            for counts in results:
                seating = seatings[counts.seating]
                draws += counts.draws
                decisions += counts.decisions
                rounds += counts.rounds
                for seat, b in enumerate(seating):
                    wins[b] += counts.wins[seat]
                    seat_wins[b][seat] += counts.wins[seat]
                    forfeits[b] += counts.forfeits[seat] if counts.forfeits else 0
                    for other_seat, other in enumerate(seating):
                        pair_wins[b][other] += counts.above[seat][other_seat]
                bar.update(counts.games)
        finally:
            results.close()  # cancels what is left (an error, Ctrl-C, SIGTERM) and stops a pool of ours
            bar.close()

    seat_played = [[0] * n for _ in range(k)]
    pair_games = [[0] * k for _ in range(k)]
    for seating in seatings:
        for seat, b in enumerate(seating):
            seat_played[b][seat] += per_seating
            for other in seating:
                if other != b:
                    pair_games[b][other] += per_seating
    return TournamentResult(
        rules=rules,
        seed=seed,
        names=tuple(names),
        seatings=tuple(seatings),
        games_per_seating=per_seating,
        chunks=chunk_count,
        wins=tuple(wins),
        played=tuple(sum(row) for row in seat_played),
        seat_wins=tuple(map(tuple, seat_wins)),
        seat_played=tuple(map(tuple, seat_played)),
        draws=draws,
        pairwise_wins=tuple(map(tuple, pair_wins)),
        pairwise_games=tuple(map(tuple, pair_games)),
        forfeits=tuple(forfeits),
        time_limit=None if time_limit is None else float(time_limit),
        decisions=decisions,
        rounds=rounds,
    )


class _Terminated(BaseException):
    """SIGTERM arrived during a tournament (a BaseException, like KeyboardInterrupt)."""


@contextlib.contextmanager
def _sigterm_as_interruption() -> Iterator[None]:
    """Turn SIGTERM into an exception while the block runs, so that the block's
    clean-up (stopping our workers) runs as on Ctrl-C; then end the process by
    SIGTERM as it would have ended. Only in the main thread, and only where
    SIGTERM has its default action (a caller's own handler is left alone)."""
    if (
        threading.current_thread() is not threading.main_thread()
        or not hasattr(signal, "SIGTERM")
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        yield
        return

    def interrupt(_signum: int, _frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the clean-up short
        raise _Terminated

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    except _Terminated:
        # Our workers are stopped; stop (and reap) the resource tracker too rather than
        # leave it to outlive us, then die of SIGTERM as we would have.
        from multiprocessing import resource_tracker

        stop = getattr(getattr(resource_tracker, "_resource_tracker", None), "_stop", None)
        if callable(stop):
            with contextlib.suppress(Exception):
                stop()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise  # only reached where the signal cannot end the process at once
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
