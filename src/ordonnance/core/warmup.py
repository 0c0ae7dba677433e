"""Compile the library's kernels ahead of their first use: ``ordonnance warm-up``.

numba compiles each kernel the first time a program needs it and keeps the
machine code in its cache (:func:`cache_locations`), so only the first run after
installing waits. :func:`warm_up` pays that wait at a time of the user's
choosing: it runs every *first use* of a game (or of all games), small
workloads that reach every kernel a user meets, in worker processes that share
the machine's cores, and leaves the compiled kernels in the cache for every
later process.

A first use that needs an optional extra which is not installed (the Gymnasium
environment without the ``rl`` extra) is skipped and said so; nothing else is.

>>> from ordonnance.core import warmup
>>> [use.name for use in warmup.first_uses("black-prince")]  # doctest: +NORMALIZE_WHITESPACE
['Black Prince: simulate (Random and Greedy bots)', 'Black Prince: MonteCarlo first move',
 'Black Prince: batched games (Batch)']
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import os
import pkgutil
import time
from collections.abc import Callable, Sequence

import attrs

from ordonnance.core import pools, registry
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = ["FirstUse", "Outcome", "first_uses", "montecarlo_name", "simulate_name", "batch_first_use", "warm_up", "cache_locations", "common_folder", "default_jobs"]


@attrs.frozen
class FirstUse:
    """One small workload that compiles the kernels a user's first use of a feature needs."""

    game: str
    """The game it belongs to (a name of :func:`ordonnance.core.registry.names`)."""
    name: str
    """What it does, for people."""
    run: Callable[[], object] = attrs.field(eq=False, repr=False)
    """The workload; run in a worker process, it leaves its kernels in the cache."""
    cost: float = 1.0
    """About how many seconds it takes cold (for the order: the longest start first)."""
    extra: str | None = None
    """The optional extra it needs (``"rl"``), or None."""
    module: str | None = None
    """A module that must be importable for it to run (the extra's), or None."""
    after: str | None = None
    """The name of a first use whose kernels this one calls too, or None: :func:`warm_up`
    starts it once that one has finished, so that it loads them from the cache instead
    of compiling them again in another worker at the same time (ignored when that one is
    not run)."""

    @property
    def available(self) -> bool:
        """Whether what it needs is installed."""
        return self.module is None or importlib.util.find_spec(self.module) is not None


@attrs.frozen
class Outcome:
    """What one first use did in its worker."""

    use: FirstUse
    """The first use."""
    seconds: float
    """Wall seconds it took in its worker (compiles included), 0 when skipped."""
    error: str | None = None
    """Why it failed, or None."""
    skipped: bool = False
    """Whether it was skipped for a missing optional extra."""


def montecarlo_name(game: str) -> str:
    """The name of ``game``'s first use that makes a MonteCarlo move (for a :attr:`FirstUse.after`)."""
    return f"{registry.info(game).title}: MonteCarlo first move"


def simulate_name(game: str) -> str:
    """The name of ``game``'s first use that runs ``simulate`` (for a :attr:`FirstUse.after`)."""
    return f"{registry.info(game).title}: simulate (Random and Greedy bots)"


def batch_first_use(game: str, *, after: str | None = None, cost: float = 15.0) -> FirstUse:
    """The first use of ``game``'s batched games (``M.batch.Batch``: a few steps of four games
    against Greedy), after the first use named ``after`` (None: ``game``'s ``simulate``, whose
    kernels the batch calls)."""
    title = registry.info(game).title

    def steps() -> object:
        import numpy as np

        batch = importlib.import_module(f"{registry.info(game).package}.batch").Batch(4, opponent="greedy", seed=0)
        for _ in range(3):
            batch.step(np.argmax(batch.legal_action_mask(), axis=1))
        return batch.observe()

    return FirstUse(game, f"{title}: batched games (Batch)", steps, cost=cost, after=simulate_name(game) if after is None else after)


def _generic(game: str) -> list[FirstUse]:
    """The first uses every game has: ``simulate`` with the kernel's bots, a MonteCarlo move."""
    title = registry.info(game).title

    def simulate() -> object:  # one kernel plays both bots: one worker compiles it
        package = registry.package(game)
        rules = package.Rules()
        package.simulate(rules, games=20, seed=1)
        players = [package.bots.Greedy(seed=seat) for seat in range(rules.players)]
        return package.simulate(rules, games=20, seed=1, players=players)

    def montecarlo_move() -> object:
        package = registry.package(game)
        game_ = package.Game.new(package.Rules(), seed=1)
        bot = package.bots.MonteCarlo(seed=0, rollouts=8)
        return bot.choose(game_.view(game_.current_player))

    return [
        FirstUse(game, simulate_name(game), simulate, cost=25.0),
        FirstUse(game, montecarlo_name(game), montecarlo_move, cost=20.0),
    ]


def first_uses(game: str | None = None) -> list[FirstUse]:
    """The first uses of ``game`` (a registry name), or of every game when None: those every
    game has, then the game's own (its command-line hooks' ``first_uses``)."""
    from ordonnance.core.cli import hooks_of

    if game is not None and (not isinstance(game, str) or game not in registry.names()):
        raise InvalidRulesError(f"game must be one of {', '.join(registry.names())}, got {shown(game)}")
    uses = []
    for name in registry.names() if game is None else (game,):
        uses += _generic(name) + list(hooks_of(name).first_uses())
    return uses


def default_jobs() -> int:
    """Worker processes by default: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _priorities(uses: Sequence[FirstUse]) -> list[float]:
    """Each use's cost plus that of the longest chain of uses that wait for it: the
    order in which :func:`warm_up` starts the uses that are ready (the longest first)."""
    index = {use.name: i for i, use in enumerate(uses)}
    waiting: list[list[int]] = [[] for _ in uses]
    for i, use in enumerate(uses):
        if use.after in index and use.after != use.name:
            waiting[index[use.after]].append(i)
    memo: dict[int, float] = {}

    def chain(i: int) -> float:
        if i not in memo:
            memo[i] = uses[i].cost  # until the chains below are added: a cycle back to i stops here
            memo[i] += max((chain(j) for j in waiting[i]), default=0.0)
        return memo[i]

    return [chain(i) for i in range(len(uses))]


def _ready(uses: Sequence[FirstUse], pending: set[int], finished: set[int], busy: bool) -> list[int]:
    """The pending uses that may start now, the highest :func:`_priorities` first: those
    whose ``after`` has finished or is not run. When none may and no worker is ``busy``
    (only uses waiting for each other are left), all the pending ones."""
    index = {use.name: i for i, use in enumerate(uses)}
    priority = _priorities(uses)

    def free(i: int) -> bool:
        after = uses[i].after
        waited = None if after is None else index.get(after)
        return waited is None or waited == i or waited in finished

    ready = [i for i in pending if free(i)] or ([] if busy else list(pending))
    return sorted(ready, key=lambda i: (-priority[i], i))


def _run_in_worker(game: str | None, index: int) -> tuple[float, str | None]:
    """Run first use ``index`` of ``first_uses(game)`` in this (worker) process."""
    import numpy as np

    use = first_uses(game)[index]
    start = time.perf_counter()
    try:
        with np.errstate(over="ignore"):  # SplitMix64 wraps on purpose (visible without the JIT)
            use.run()
    except Exception as error:
        return time.perf_counter() - start, f"{type(error).__name__}: {error}"
    return time.perf_counter() - start, None


def warm_up(
    game: str | None = None,
    *,
    jobs: int | None = None,
    progress: Callable[[Outcome], object] | None = None,
) -> list[Outcome]:
    """Run every first use of ``game`` (or of every game) in ``jobs`` worker processes
    (default: :func:`default_jobs`), so their kernels are compiled and cached. A use starts
    once the use it comes ``after`` has finished (it then loads their shared kernels from the
    cache); of the uses ready, the one heading the costliest chain starts first.

    ``progress`` is called with each :class:`Outcome` as it comes. Returns the outcomes in
    the order of :func:`first_uses`. A failed first use is reported in its outcome, never
    raised; the compile notices are silenced in the workers.
    """
    uses = first_uses(game)
    if jobs is None:
        jobs = default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise OrdonnanceTypeError(f"jobs must be an int, got {shown(jobs)}")
    if not 1 <= jobs <= 256:
        raise InvalidRulesError(f"jobs must be in 1..256, got {shown(jobs)}")
    outcomes: dict[int, Outcome] = {}
    for index, use in enumerate(uses):
        if not use.available:
            outcomes[index] = Outcome(use, 0.0, skipped=True)
            if progress is not None:
                progress(outcomes[index])
    pending = {index for index in range(len(uses)) if index not in outcomes}
    finished = set(outcomes)  # skipped ones count as finished: nothing waits for them
    workers = min(jobs, max(len(pending), 1))
    os.environ.setdefault("ORDONNANCE_NO_COMPILE_NOTICES", "1")  # inherited by the workers
    pool = pools.spawn_pool(workers)  # a fresh interpreter each: no state shared
    done_all = False
    try:
        running: dict[cf.Future[tuple[float, str | None]], int] = {}
        while pending or running:
            with pools.ctrl_c_held():
                for index in _ready(uses, pending, finished, busy=bool(running))[: workers - len(running)]:
                    pending.discard(index)
                    try:
                        future = pool.submit(_run_in_worker, game, index)
                    except Exception as broken:  # a worker died earlier and took the pool with it
                        future = cf.Future()
                        future.set_exception(broken)
                    running[future] = index
            done, _ = cf.wait(running, timeout=pools.WAKE_SECONDS, return_when=cf.FIRST_COMPLETED)
            for future in done:
                index = running.pop(future)
                try:
                    seconds, error = future.result()
                except Exception as crash:  # the worker died (e.g. killed)
                    seconds, error = 0.0, f"the worker failed: {crash!r}"
                finished.add(index)
                outcomes[index] = Outcome(uses[index], seconds, error)
                if progress is not None:
                    progress(outcomes[index])
        done_all = True
    finally:
        pools.stop(pool, done_all)  # Ctrl-C: the workers are stopped, not waited for
    return [outcomes[index] for index in range(len(uses))]


def cache_locations() -> list[str]:
    """The folders where numba keeps this library's compiled kernels: ``NUMBA_CACHE_DIR``'s
    subfolders when that variable is set, else the ``__pycache__`` folders beside the
    modules (or numba's folder for the user when those cannot be written)."""
    import importlib

    from numba.core.dispatcher import Dispatcher

    package_folder = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # core's parent
    found: set[str] = set()
    for info in pkgutil.walk_packages([package_folder], "ordonnance."):
        spec = importlib.util.find_spec(info.name)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        with open(spec.origin, encoding="utf-8") as file:
            if "cache=True" not in file.read():
                continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra's module
            continue
        for value in vars(module).values():
            cache = getattr(value, "_cache", None) if isinstance(value, Dispatcher) else None
            path = getattr(cache, "cache_path", None)
            if isinstance(path, str):
                found.add(path)
    return sorted(found)


def common_folder(paths: Sequence[str]) -> str:
    """The deepest folder that holds every path of ``paths`` (``""`` for none)."""
    return os.path.commonpath(list(paths)) if paths else ""
