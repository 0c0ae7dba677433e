"""Bots at the server's tables: they see only their seat's view JSON and think in worker processes.

:func:`think` runs in a worker of a :class:`concurrent.futures.ProcessPoolExecutor`: from the
seat's view JSON alone (the same text a person's client receives) it builds the game's
``PlayerView`` and asks the bot, which returns its action as the game's action JSON; the
server then plays it through the path of a person's move. A bot is made afresh for every
decision, seeded by :func:`decision_seed` from the table's seed, the seat and the ply, so a
table rebuilt after a restart makes the same decisions (a bot with a time limit searches as
far as its time allows, which is not reproducible).
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ordonnance.core import registry

__all__ = ["BOT_KINDS", "DEFAULT_TIME_LIMIT", "BOT_NICENESS", "think", "decision_seed", "hashed_seed", "bot_pool"]

#: The bots a seat may hold: the kind's name to the attribute of the game's ``bots`` module.
BOT_KINDS = {"random": "Random", "greedy": "Greedy", "montecarlo": "MonteCarlo"}
#: Seconds a MonteCarlo bot thinks a decision when the table gives no time.
DEFAULT_TIME_LIMIT = 1.0
#: How much lower than the server's the bots' workers' scheduling priority is (``os.nice``), where
#: the system has no idle scheduling class (on Linux they are ``SCHED_IDLE``: see :func:`bot_pool`).
BOT_NICENESS = 10


def decision_seed(table_seed: int, seat: int, ply: int) -> int:
    """The seed of one bot decision: a hash of the table's seed, the seat and the ply (so decisions of
    different seats, plies and tables draw from unrelated streams), in 0..2**64-1."""
    return hashed_seed("ordonnance.server.bot", table_seed, seat, ply)


def hashed_seed(*parts: object) -> int:
    """A seed in 0..2**64-1 from the SHA-256 of ``parts`` (a label first, so the seeds of different
    uses never draw from one stream) joined with ``:``."""
    text = ":".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little")


def think(game: str, kind: str, seed: int, time_limit: float | None, view_json: str) -> str:
    """A bot's action, as the game's action JSON, for the seat whose view JSON is ``view_json``."""
    module = registry.package(game)
    view = module.PlayerView.from_json(view_json)
    options: dict[str, Any] = {"time_limit": time_limit} if kind == "montecarlo" else {}
    bot = getattr(module.bots, BOT_KINDS[kind])(seed=seed, **options)
    return str(module.action_to_json(bot.choose(view)))


def bot_pool(workers: int) -> ProcessPoolExecutor:
    """The worker processes bots think in, started with ``spawn`` (the server runs threads, which
    ``fork`` would copy half-way); each ends itself once the server is gone, even killed
    (:func:`_start_worker`).

    A bot thinking takes only the CPU the server leaves, so people's moves are answered first: on
    Linux its worker is in the ``SCHED_IDLE`` class, which any other process's thread that wakes
    takes the CPU from at once (a niceness, even 19, still leaves the thinking bot its time slice,
    a few milliseconds a move waits); elsewhere it runs :data:`BOT_NICENESS` below the server's
    priority. A bot with a time limit moves on time either way; on a machine with no CPU left it
    searches less."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(BOT_NICENESS, os.getpid()))  # fmt: skip


def _start_worker(niceness: int, server: int) -> None:
    """A bots' worker: lower its priority, and watch its parent. A server killed with SIGKILL
    never tells its workers, and the pool's queue stays open in the other workers, so a worker
    waiting for work would wait forever: it ends itself once its parent is no longer the server."""
    os.nice(niceness)
    with contextlib.suppress(AttributeError, OSError):  # no idle class here: the niceness stays
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    threading.Thread(target=_end_without, args=(server,), name="ordonnance-server-watch", daemon=True).start()


def _end_without(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK)
    os._exit(0)


#: Seconds between a bots' worker's looks at whether the server is still its parent.
PARENT_CHECK = 0.5
