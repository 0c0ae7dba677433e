"""Running tasks on an executor, written once for tournaments and the lab's studies.

``executor`` is what :func:`ordonnance.tournament` and every lab study accept: None or
``"process"`` (a pool of spawned local processes, :mod:`ordonnance.core.pools`), ``"serial"``
(this process), or any :class:`concurrent.futures.Executor` (a Dask
``distributed.Client(...).get_executor()`` included), which the caller owns.

:func:`execute` runs a function over tasks made one at a time, keeping a bounded number in
flight: a long run has tens of thousands of tasks, and submitting them all up front makes
every wait scan them all and can fill the process pool's wake-up pipe (Python's
ProcessPoolExecutor then deadlocks, gh-105829). Results come back as they finish, or in
the tasks' order (``ordered=True``) for callers that join them in order.

>>> list(execute(abs, iter([-3, 2, -1]), 3, "serial", None, ordered=True))
[3, 2, 1]
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import itertools
import os
import pickle
from collections.abc import Callable, Generator, Iterator
from typing import Any, Literal, TypeVar

from ordonnance.core import pools
from ordonnance.core.checks import is_integer, shown
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError

__all__ = [
    "ExecutorLike", "MAX_WORKERS", "IN_FLIGHT", "check_executor", "check_workers", "pool_size", "in_this_process",
    "execute", "run_on", "pickled",
]  # fmt: skip

ExecutorLike = cf.Executor | Literal["serial", "process"] | None
"""What ``executor=`` accepts: None or ``"process"`` (a local process pool), ``"serial"``, or an Executor."""

#: The most local worker processes a run starts.
MAX_WORKERS = 1_024

#: Tasks kept submitted at once on an executor we did not start (its size is unknown).
IN_FLIGHT = 256

_Task = TypeVar("_Task")
_Result = TypeVar("_Result")


def pickled(value: Any, what: str) -> bytes:
    """``value`` pickled, to go to a worker; the library's error naming ``what`` when it cannot be."""
    try:
        return pickle.dumps(value)
    except Exception as error:  # pickling raises many kinds of errors
        raise OrdonnanceTypeError(
            f"{what} cannot be pickled, so it cannot be sent to a worker: {error} "
            f"(executor=\"serial\" plays in this process): {shown(value)}"
        ) from None


def check_executor(executor: object) -> ExecutorLike:
    """``executor`` as given when it is one ``executor=`` accepts; the library's error showing it otherwise.

    >>> check_executor("threads")
    Traceback (most recent call last):
    ...
    ordonnance.errors.OrdonnanceTypeError: executor must be None, 'serial', 'process' or a concurrent.futures.Executor, got 'threads'
    """
    if executor is None or isinstance(executor, cf.Executor):
        return executor
    if isinstance(executor, str) and executor in ("serial", "process"):
        return "serial" if executor == "serial" else "process"
    raise OrdonnanceTypeError(
        f"executor must be None, 'serial', 'process' or a concurrent.futures.Executor, got {shown(executor)}"
    )


def check_workers(workers: object) -> int | None:
    """``workers`` (the local processes of ``executor="process"``) as a plain int, or None (one per CPU)."""
    if workers is None:
        return None
    if not is_integer(workers) or not 1 <= workers <= MAX_WORKERS:
        raise InvalidRulesError(f"workers must be a positive int of at most {MAX_WORKERS:,} or None, got {shown(workers)}")
    return int(workers)


def pool_size(workers: int | None, count: int) -> int:
    """The processes of a local pool for ``count`` tasks: ``workers`` (default one per CPU), at most ``count``."""
    return min(workers or os.cpu_count() or 1, count)


def in_this_process(executor: ExecutorLike, workers: int | None, count: int) -> bool:
    """Whether ``count`` tasks run in this process: ``"serial"``, or a pool of ours that
    would have one worker (never on an executor of the caller's)."""
    if isinstance(executor, cf.Executor):
        return False
    return executor == "serial" or pool_size(workers, count) <= 1


def execute(
    function: Callable[[_Task], _Result], tasks: Iterator[_Task], count: int, executor: ExecutorLike,
    workers: int | None, *, ordered: bool = False,
) -> Generator[_Result, None, None]:  # fmt: skip
    """``function`` of each of the ``count`` ``tasks``, on ``executor`` (see the module
    documentation); on our own pool, interrupted (Ctrl-C, an error), the workers are
    terminated instead of waited for (a task can take minutes: think NUMBA_DISABLE_JIT=1)."""
    if isinstance(executor, cf.Executor):
        yield from run_on(executor, function, tasks, ordered=ordered)
        return
    if in_this_process(executor, workers, count):
        for task in tasks:
            yield function(task)
        return
    size = pool_size(workers, count)
    pool = pools.spawn_pool(size)
    finished = False
    try:
        yield from run_on(pool, function, tasks, own_pool=True, in_flight=4 * size, ordered=ordered)
        finished = True
    finally:
        pools.stop(pool, finished)


def run_on(
    executor: cf.Executor, function: Callable[[_Task], _Result], tasks: Iterator[_Task], *, own_pool: bool = False,
    in_flight: int = IN_FLIGHT, ordered: bool = False,
) -> Generator[_Result, None, None]:  # fmt: skip
    """``function`` of each task on ``executor``, at most ``in_flight`` submitted at once,
    yielded as they finish (``ordered``: in the tasks' order).

    On the way out, what is still pending is cancelled, except on our own pool: its
    workers are terminated instead, and the pool then fails every pending future itself;
    a future cancelled first makes its manager thread die with InvalidStateError
    (Python 3.11) and print a traceback."""
    pending: collections.deque[cf.Future[_Result]] = collections.deque()
    try:
        while True:
            # Our pool spawns its workers during submits; they inherit the
            # blocked Ctrl-C, so one pressed while they start reaches only us.
            with pools.ctrl_c_held() if own_pool else contextlib.nullcontext():
                for task in itertools.islice(tasks, max(in_flight - len(pending), 0)):
                    pending.append(executor.submit(function, task))
            if not pending:
                return
            # Wake up now and then: Ctrl-C may be delivered to another thread, and
            # only a main thread that runs Python code can raise KeyboardInterrupt.
            if ordered:
                cf.wait([pending[0]], timeout=pools.WAKE_SECONDS)
                while pending and pending[0].done():
                    yield pending.popleft().result()
                continue
            done, _ = cf.wait(pending, timeout=pools.WAKE_SECONDS, return_when=cf.FIRST_COMPLETED)
            for future in done:
                pending.remove(future)
                yield future.result()
    finally:
        if not own_pool:
            for future in pending:
                future.cancel()
