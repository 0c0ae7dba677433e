"""Where a lab study's games play: in this process, or as chunk tasks on an executor.

Every study (:func:`~ordonnance.lab.metrics`, :func:`~ordonnance.lab.compare`,
:func:`~ordonnance.lab.card_values`, :func:`~ordonnance.lab.matchups`,
:func:`~ordonnance.lab.tune`) takes ``executor=`` as :func:`ordonnance.tournament` does
(:mod:`ordonnance.core.executing`): ``"serial"`` (the default: this process), None or
``"process"`` (a pool of ``workers`` spawned local processes, one per CPU by default), or any
:class:`concurrent.futures.Executor` (a Dask ``distributed.Client(...).get_executor()``
included, which the caller owns and shuts down).

On an executor the games are cut by count, never by time: a *chunk task* is a run of
games ``start..stop-1`` of one part (or one arm) of the study, with its rules and its bots
pickled. Game ``i`` of a run is game ``i`` of ``simulate(seed=...)`` whatever the chunk
(SplitMix64's state skips ahead, and a built-in bot's seed depends on its game's seed and
seat only), and the chunks' results are joined in the games' order, so **any executor
gives the table serial gives**, value for value and interval for interval. Any other bot
plays each chunk as a fresh copy of the object given (unpickled), as in a tournament.

Ctrl-C on an executor cancels what is pending and keeps the longest run of finished
chunks in which every arm has the same games, as the study does in this process.

>>> KERNEL_CHUNK_GAMES, PYTHON_CHUNK_GAMES
(8192, 16)
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import pickle
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

import attrs
import numpy as np

from ordonnance.core import executing, pools, registry
from ordonnance.core.executing import ExecutorLike
from ordonnance.core.rng import skipped
from ordonnance.core.seeds import wrapping

__all__ = [
    "Runner", "runner", "checked", "KERNEL_CHUNK_GAMES", "PYTHON_CHUNK_GAMES", "chunk_games", "ranges",
    "whole_arms", "joined", "play_parts",
]  # fmt: skip

#: Games of a chunk task on an executor when every bot plays in the game's kernel (Random, Greedy).
KERNEL_CHUNK_GAMES = 8_192
#: Games of a chunk task on an executor when a bot plays from Python, or the games are replayed.
PYTHON_CHUNK_GAMES = 16

_Task = TypeVar("_Task")
_Result = TypeVar("_Result")


def checked(executor: object, workers: object) -> tuple[ExecutorLike, int | None]:
    """``executor`` and ``workers`` checked as :func:`ordonnance.tournament` checks them."""
    return executing.check_executor(executor), executing.check_workers(workers)


class Runner:
    """Runs a study's chunk tasks: in this process (``executor`` None) or on an executor."""

    def __init__(self, executor: cf.Executor | None, own: bool = False, size: int = 1) -> None:
        self.executor = executor
        """The executor (None: this process)."""
        self.own = own
        """Whether the executor is a pool of ours (stopped at the end of the study)."""
        self.size = size
        """Its workers, when it is ours."""
        self.broken = False
        """Whether a run stopped before its last task (Ctrl-C, an error)."""

    @property
    def in_process(self) -> bool:
        """Whether the games play in this process (the study's own loop, chunked by time)."""
        return self.executor is None

    def run(self, function: Callable[[_Task], _Result], tasks: Iterator[_Task]) -> Generator[_Result, None, None]:
        """``function`` of each task, in the tasks' order."""
        finished = False
        try:
            if self.executor is None:
                for task in tasks:
                    yield function(task)
            else:
                in_flight = 4 * self.size if self.own else executing.IN_FLIGHT
                yield from executing.run_on(self.executor, function, tasks, own_pool=self.own, in_flight=in_flight,
                                            ordered=True)  # fmt: skip
            finished = True
        finally:
            self.broken |= not finished


@contextlib.contextmanager
def runner(executor: ExecutorLike, workers: int | None) -> Iterator[Runner]:
    """The :class:`Runner` of a study on ``executor`` (checked): a pool of ours is started here
    and stopped on the way out (its workers terminated if a run was cut short)."""
    if isinstance(executor, cf.Executor):
        yield Runner(executor)
        return
    size = executing.pool_size(workers, executing.MAX_WORKERS)
    if executor == "serial" or size <= 1:
        yield Runner(None)
        return
    pool = pools.spawn_pool(size)
    ran = Runner(pool, own=True, size=size)
    finished = False
    try:
        yield ran
        finished = not ran.broken
    finally:
        pools.stop(pool, finished)


def chunk_games(players: Sequence[Any] | None, record: bool) -> int:
    """The games of a chunk task: :data:`KERNEL_CHUNK_GAMES` when every bot plays in the kernel
    (None: ``simulate``'s default Random) and nothing is replayed, else :data:`PYTHON_CHUNK_GAMES`."""
    in_kernel = players is None or all(registry.kernel_bot(bot) for bot in players)
    return KERNEL_CHUNK_GAMES if in_kernel and not record else PYTHON_CHUNK_GAMES


def ranges(games: int, size: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of each chunk of ``games`` games, ``size`` a chunk.

    >>> ranges(5, 2)
    [(0, 2), (2, 4), (4, 5)]
    """
    return [(start, min(start + size, games)) for start in range(0, games, size)]


@attrs.frozen
class _Chunk:
    """Games ``start..stop-1`` of ``simulate(rules, seed=seed)`` with the pickled bots (None: the default)."""

    rules: Any
    seed: int
    start: int
    stop: int
    players: bytes | None
    record: bool
    deal: Any = None


def _simulated(chunk: _Chunk) -> Any:
    """Run one chunk (in whichever process or machine the executor picks)."""
    players = None if chunk.players is None else pickle.loads(chunk.players)
    with wrapping():  # the kernels' SplitMix64 wraps around on purpose, also without the JIT
        return _played(chunk.rules, skipped(chunk.seed, chunk.start), chunk.stop - chunk.start, players, chunk.record, chunk.deal)


def _played(rules: Any, seed: int, games: int, players: Sequence[Any] | None, record: bool, deal: Any) -> Any:
    """``simulate(rules, games=games, seed=seed, ...)``, or ``deal.simulate`` for an arm dealt its own way."""
    if deal is not None:
        return deal.simulate(rules, games, seed, players, record)
    package = registry.package(registry.name_of(rules))
    return package.simulate(rules, games=games, seed=seed, players=players, record=record)


def whole_arms(
    ran: Runner,
    arms: Sequence[tuple[Any, int, Sequence[Any] | None]],
    games: int,
    record: bool,
    bar: Any,
    deals: Sequence[Any] | None = None,
) -> Generator[Any, None, None]:  # fmt: skip
    """The ``simulate`` result of each arm ``(rules, seed, players)`` of ``games`` games, in order,
    the bar counting the games: in this process one call an arm, on an executor the arm's
    chunks joined (:func:`joined`); an arm is yielded only once all its games are in.
    ``deals``: for each arm, None or what plays it instead of ``simulate`` (picklable; its
    ``simulate(rules, games, seed, players, record)`` plays game ``i`` of ``simulate``'s seeds as game ``i``)."""
    own = [None] * len(arms) if deals is None else list(deals)
    if ran.in_process:
        for (rules, seed, players), deal in zip(arms, own):
            result = _played(rules, seed, games, players, record, deal)
            bar.update(games)
            yield result
        return
    blobs = [None if players is None else executing.pickled(list(players), "a bot") for _, _, players in arms]
    spans = [ranges(games, chunk_games(players, record)) for _, _, players in arms]
    tasks = (
        _Chunk(rules, seed, start, stop, blob, record, deal)
        for (rules, seed, _), blob, span, deal in zip(arms, blobs, spans, own)
        for start, stop in span
    )  # fmt: skip
    results = ran.run(_simulated, tasks)
    try:
        for span in spans:
            pieces = []
            for _ in span:
                pieces.append(next(results))
                bar.update(len(pieces[-1]))
            yield joined(pieces)
    finally:
        results.close()


def joined(results: Sequence[Any]) -> Any:
    """The ``simulate`` results of consecutive chunks as one: each per-game array joined in order.

    >>> import ordonnance as od
    >>> from ordonnance.core.rng import skipped
    >>> whole = od.simulate(od.Rules(), games=5, seed=3)
    >>> parts = [od.simulate(od.Rules(), games=2, seed=3), od.simulate(od.Rules(), games=3, seed=skipped(3, 2))]
    >>> all((getattr(joined(parts), name) == getattr(whole, name)).all() for name in ("seeds", "winner", "scores"))
    True
    """
    first = results[0]
    if len(results) == 1:
        return first
    games = [len(result) for result in results]
    changed = {}
    for field in attrs.fields(type(first)):
        values = [getattr(result, field.name) for result in results]
        if all(isinstance(v, np.ndarray) and v.ndim and len(v) == n for v, n in zip(values, games)):
            changed[field.alias or field.name] = np.concatenate(values)
    return attrs.evolve(first, **changed)


@attrs.frozen
class _PartChunk:
    """Games ``start..stop-1`` of a part of a :func:`~ordonnance.lab.metrics` study, the part and its
    rules pickled together."""

    part: bytes
    start: int
    stop: int


def _part_series(chunk: _PartChunk) -> Any:
    """The series of one chunk of a part (in whichever process or machine the executor picks)."""
    from ordonnance.lab import measures

    part, rules = pickle.loads(chunk.part)
    with wrapping():
        return measures._read(part, rules, chunk.start, chunk.stop)


def play_parts(
    ran: Runner, parts: Sequence[Sequence[Any]], arms: Sequence[Any], bar: Any
) -> tuple[list[list[Any]], list[int], bool]:  # fmt: skip
    """:func:`ordonnance.lab.measures.play` on an executor: each part cut into chunks by games,
    each chunk for every arm before the next; per arm its chunks' series in order, the games
    each part played and whether Ctrl-C stopped it (keeping only chunks every arm finished)."""
    first = parts[0]
    blobs = [[executing.pickled((arm_parts[p], rules), "a study's bots") for p in range(len(first))]
             for arm_parts, rules in zip(parts, arms)]  # fmt: skip
    spans = [
        ranges(part.games, min(chunk_games(parts[arm][p].players(rules), part.record) for arm, rules in enumerate(arms)))
        for p, part in enumerate(first)
    ]
    tasks = (
        _PartChunk(blobs[arm][p], start, stop)
        for p, span in enumerate(spans)
        for start, stop in span
        for arm in range(len(arms))
    )  # fmt: skip
    chunks: list[list[Any]] = [[] for _ in arms]
    played = [0] * len(first)
    results = ran.run(_part_series, tasks)
    try:
        for p, span in enumerate(spans):
            bar.set_postfix_str(first[p].name, refresh=False)
            for start, stop in span:
                group = [next(results) for _ in arms]
                for arm, series in enumerate(group):
                    chunks[arm].append(series)
                played[p] = stop
                bar.update((stop - start) * len(arms))
    except KeyboardInterrupt:
        return chunks, played, True
    finally:
        results.close()
    return chunks, played, False
