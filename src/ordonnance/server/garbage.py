"""The cyclic garbage collector's schedule while a server runs.

Python's collector stops the whole process while it runs. A young pass scans the objects made
since the last passes; a full pass scans every object the process holds: with 500 tables and
1,000 connections, 50 to 150 ms on this project's 2-core test machine, and left to itself it
runs every few seconds under load, each time stalling every move waiting for the event loop. While the server runs
(:func:`collection_schedule`):

* what exists at startup (the modules, the tables resumed) is frozen: no pass scans it again;
* the collector's own full passes are off, and its young passes come when
  :data:`YOUNG_PASS_AFTER` more objects are alive than at the last one (Python's default is
  700): a move's objects (the game's new position, the messages sent) live about a second, the
  time until the table's next move, so with the default a young pass ran every few moves and
  scanned 30,000 young objects, 10 to 25 ms each; now most are freed by their reference counts
  before any young pass sees them;
* a full pass runs every :data:`FULL_PASS_EVERY` seconds, so cyclic garbage (a closed
  connection's, a finished game's) is still freed, a minute's worth at most.

A move thus waits for a full pass about once a minute instead of every few seconds. When the
server stops, the collector is as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator

__all__ = ["FULL_PASS_EVERY", "YOUNG_PASS_AFTER", "collection_schedule"]

#: Seconds between the server's full passes of the garbage collector.
FULL_PASS_EVERY = 60.0
#: Objects alive beyond those at the last young pass that start the next one.
YOUNG_PASS_AFTER = 20_000
# Young passes between the collector's own full passes: never, while the server runs.
_NEVER = 2**31 - 1


@contextlib.asynccontextmanager
async def collection_schedule(every: float = FULL_PASS_EVERY) -> AsyncIterator[None]:
    """Freeze what exists, turn the collector's own full passes off, make its young passes rarer
    (:data:`YOUNG_PASS_AFTER`) and run a full pass every ``every`` seconds, until the block ends;
    then unfreeze and put the collector's thresholds back."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_PASS_AFTER, thresholds[1], _NEVER)
    passes = asyncio.get_running_loop().create_task(_full_passes(every))
    try:
        yield
    finally:
        passes.cancel()
        await asyncio.gather(passes, return_exceptions=True)
        gc.set_threshold(*thresholds)
        gc.unfreeze()


async def _full_passes(every: float) -> None:
    while True:
        await asyncio.sleep(every)
        gc.collect()
