"""Process pools that stop at Ctrl-C, written once for tournaments and the warm-up.

A terminal sends Ctrl-C to the whole process group. The pools here are spawned (a fresh
interpreter each: forking a process that runs threads can deadlock) with workers that
ignore it, so that only the caller stops: it raises ``KeyboardInterrupt`` within a wait's
timeout and :func:`stop` terminates the workers instead of waiting for their work."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import signal
from collections.abc import Iterator

__all__ = ["WAKE_SECONDS", "ctrl_c_held", "leave_ctrl_c_to_the_caller", "spawn_pool", "stop"]

#: How often a caller waiting on its pool wakes up: only a main thread running Python code
#: raises ``KeyboardInterrupt``, and a signal may be delivered to another thread.
WAKE_SECONDS = 0.25


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold SIGINT back (it stays pending, then arrives) while the block runs: a pool spawns
    its workers during submits, and they inherit the blocked signal, so a Ctrl-C pressed while
    they start reaches only the caller."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def leave_ctrl_c_to_the_caller() -> None:
    """In a pool's workers: ignore Ctrl-C; the caller stops the work, and a worker exits
    quietly instead of printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def spawn_pool(size: int) -> cf.ProcessPoolExecutor:
    """A pool of ``size`` spawned workers that leave Ctrl-C to the caller."""
    context = multiprocessing.get_context("spawn")
    return cf.ProcessPoolExecutor(max_workers=size, mp_context=context, initializer=leave_ctrl_c_to_the_caller)


def stop(pool: cf.ProcessPoolExecutor, finished: bool) -> None:
    """Shut ``pool`` down; unless its work ``finished``, terminate its workers first (a piece
    of work can take minutes, and the pool has no public way to stop one)."""
    if not finished:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
    pool.shutdown(wait=True)  # not cancel_futures: a future cancelled first kills the manager thread (3.11)
