"""The cyclic garbage collector's schedule while a server runs.

Python's collector stops the whole process while it runs, for as long as it takes to scan the
objects of the generations it collects. On this project's 2-core test machine, with 500 tables
and 1,000 connections, a full pass scans 250,000 to 330,000 objects and takes 230 to 430 ms; a
pass of the middle generation, 50,000 objects, up to 180 ms. Left to itself, the collector runs
them every few seconds under load, each time stalling every move waiting for the event loop.

The server makes no cyclic garbage: its connections are freed by their reference counts (see
:mod:`ordonnance.server.http` for the cycles uvicorn and Python 3.11's event loop left behind
each one). So while it runs (:func:`collection_schedule`):

* young passes come when :data:`YOUNG_PASS_AFTER` more objects are alive than at the last one
  (Python's default is 700), and scan only the objects made since: 5 to 20 ms;
* every :data:`FREEZE_EVERY` seconds the objects that survived them are frozen, as everything
  that exists at startup is: no pass scans them again (Python's middle and full passes are off);
* a full pass (everything unfrozen, collected and frozen again) runs only when the memory in
  Python's objects (``sys.getallocatedblocks()``) has grown by :data:`FULL_PASS_GROWTH` since the
  last one: the share by which Python itself lets its long-lived objects grow between full
  passes, so cyclic garbage, should some appear, holds at most that share of the memory. A
  server whose tables and connections hold steady runs none; one that grows to 500 tables runs a
  few short ones as it grows.

The count of the memory's blocks costs nothing; the count of the frozen objects
(``gc.get_freeze_count()``) walks them all: 30 to 40 ms for 300,000 objects scattered in a
server's memory, a stall of its own.

When the server stops, the collector is as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import AsyncIterator

__all__ = ["FREEZE_EVERY", "FULL_PASS_GROWTH", "YOUNG_PASS_AFTER", "collection_schedule"]

#: Objects alive beyond those at the last young pass that start the next one.
YOUNG_PASS_AFTER = 20_000
#: Seconds between freezes of the objects that survived the young passes (and checks of the memory's growth).
FREEZE_EVERY = 1.0
#: The growth of the memory in Python's objects (blocks allocated), as a share of it after the
#: last full pass, that starts the next full pass.
FULL_PASS_GROWTH = 0.25
# Passes of the middle and oldest generations on the collector's own: never, while the server runs.
_NEVER = 2**31 - 1


@contextlib.asynccontextmanager
async def collection_schedule(every: float = FREEZE_EVERY, growth: float = FULL_PASS_GROWTH) -> AsyncIterator[None]:
    """Collect and freeze what exists, leave the collector only its young passes (after
    :data:`YOUNG_PASS_AFTER` objects), freeze their survivors every ``every`` seconds and run a
    full pass when the memory in Python's objects has grown by ``growth`` since the last one,
    until the block ends; then unfreeze and put the collector's thresholds back."""
    thresholds = gc.get_threshold()
    blocks = _full_pass()
    gc.set_threshold(YOUNG_PASS_AFTER, _NEVER, _NEVER)
    freezes = asyncio.get_running_loop().create_task(_freezes(every, growth, blocks))
    try:
        yield
    finally:
        freezes.cancel()
        await asyncio.gather(freezes, return_exceptions=True)
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _full_pass() -> int:
    """Unfreeze, collect every generation and freeze what is left: the memory's blocks left."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return sys.getallocatedblocks()


async def _freezes(every: float, growth: float, after_full_pass: int) -> None:
    while True:
        await asyncio.sleep(every)
        gc.freeze()
        if sys.getallocatedblocks() > (1 + growth) * after_full_pass:
            after_full_pass = _full_pass()
