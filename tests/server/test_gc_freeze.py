"""While a server runs, the garbage collector's passes scan only what is young: what exists at
startup and what survives the young passes is frozen, and a full pass (each would stall the event
loop, and every move waiting on it, for as long as it scans every object) runs only when the
memory in Python's objects has grown by a quarter."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from ordonnance.server.app import create_app  # noqa: E402
from ordonnance.server.garbage import FULL_PASS_GROWTH, YOUNG_PASS_AFTER, collection_schedule  # noqa: E402
from ordonnance.server.store import SQLiteStore  # noqa: E402

NEVER = 2**31 - 1


def test_the_objects_of_startup_are_frozen_while_the_server_runs(tmp_path: Path) -> None:
    frozen: list[int] = []

    async def run() -> None:
        app = create_app(SQLiteStore(tmp_path / "t.db"), bot_workers=1)
        async with app.router.lifespan_context(app):
            frozen.append(gc.get_freeze_count())
        frozen.append(gc.get_freeze_count())

    assert gc.get_freeze_count() == 0
    asyncio.run(run())
    assert frozen[0] > 10_000, "the modules and tables of startup are frozen"
    assert frozen[1] == 0, "and unfrozen when the server stops"


class Passes:
    """The collector's passes while counting: each one's generation."""

    def __init__(self) -> None:
        self.generations: list[int] = []

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.generations.append(info["generation"])

    def __enter__(self) -> Passes:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_exc: object) -> None:
        gc.callbacks.remove(self)


def test_only_young_passes_run_on_their_own_and_their_survivors_are_frozen() -> None:
    before = gc.get_threshold()

    async def run() -> tuple[list[int], int]:
        async with collection_schedule(every=0.05, growth=100.0):
            assert gc.get_threshold() == (YOUNG_PASS_AFTER, NEVER, NEVER)
            frozen = gc.get_freeze_count()
            with Passes() as passes:
                kept = [[i] for i in range(10 * YOUNG_PASS_AFTER)]  # survivors of ten young passes
                await asyncio.sleep(0.3)
            grown = gc.get_freeze_count() - frozen
            del kept
        return passes.generations, grown

    generations, grown = asyncio.run(run())
    assert generations and set(generations) == {0}, "young passes only, however many objects survive"
    assert grown >= 10 * YOUNG_PASS_AFTER, "the survivors are frozen"
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


class Cycle:
    """An object in a reference cycle of its own."""

    def __init__(self) -> None:
        self.me = self


def test_a_full_pass_runs_once_the_memory_grows_by_the_share_and_frees_frozen_garbage() -> None:
    async def run() -> tuple[list[int], list[int], bool]:
        async with collection_schedule(every=0.05, growth=FULL_PASS_GROWTH):
            cycle = Cycle()
            freed = weakref.ref(cycle)
            await asyncio.sleep(0.15)  # frozen
            del cycle  # garbage now, frozen: only a full pass frees it
            with Passes() as steady:
                for _ in range(20):  # short-lived objects: nothing grows
                    junk = [[i] for i in range(YOUNG_PASS_AFTER)]
                    del junk
                    await asyncio.sleep(0.01)
            garbage_kept = freed() is not None
            with Passes() as growing:
                kept = [[i] for i in range(int(FULL_PASS_GROWTH * sys.getallocatedblocks()) + 2 * YOUNG_PASS_AFTER)]
                await asyncio.sleep(0.3)
                del kept
            return steady.generations, growing.generations, garbage_kept and freed() is None

    steady, growing, freed_by_the_full_pass = asyncio.run(run())
    assert 2 not in steady, "no full pass while the memory holds steady"
    assert growing.count(2) == 1, growing
    assert freed_by_the_full_pass, "the cycle frozen before it became garbage is freed by the full pass"
