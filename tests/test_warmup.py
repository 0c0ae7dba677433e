"""``ordonnance warm-up``: every game's first uses, run in worker processes, leave their
kernels in numba's cache; bad arguments are refused; missing extras are skipped."""

from __future__ import annotations

import concurrent.futures as cf
import os
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from ordonnance.__main__ import main
from ordonnance.core import registry, warmup
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError


def test_every_game_has_its_first_uses() -> None:
    every = warmup.first_uses()
    assert {use.game for use in every} == set(registry.names())
    for game in registry.names():
        uses = warmup.first_uses(game)
        assert [use for use in every if use.game == game] == uses
        title = registry.info(game).title
        names = [use.name for use in uses]
        assert f"{title}: simulate (Random and Greedy bots)" in names and f"{title}: MonteCarlo first move" in names
        assert len(set(names)) == len(names) and all(use.cost > 0 for use in uses)
    ordonnance = [use.name for use in warmup.first_uses("ordonnance")]
    assert "Ordonnance: ISMCTS first move" in ordonnance and "Ordonnance: VectorEnv" in ordonnance


@pytest.mark.parametrize("game", ["chess", "", 3, None.__class__])
def test_an_unknown_game_is_refused(game: object) -> None:
    with pytest.raises((InvalidRulesError, OrdonnanceTypeError), match="game must be one of"):
        warmup.first_uses(game)  # type: ignore[arg-type]


@pytest.mark.parametrize(("jobs", "error"), [(0, InvalidRulesError), (257, InvalidRulesError),
                                             (True, OrdonnanceTypeError), (1.5, OrdonnanceTypeError)])  # fmt: skip
def test_bad_jobs_are_refused_before_any_work(jobs: object, error: type[Exception]) -> None:
    with pytest.raises(error, match=f"jobs must be .*got {jobs!r}"):
        warmup.warm_up("black-prince", jobs=jobs)  # type: ignore[arg-type]


def test_a_use_whose_extra_is_missing_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = warmup.FirstUse("black-prince", "needs a module nobody has", lambda: None, extra="x", module="no_such_module_x")
    assert not missing.available and warmup.FirstUse("black-prince", "plain", lambda: None).available
    monkeypatch.setattr(warmup, "first_uses", lambda game=None: [missing])
    seen: list[warmup.Outcome] = []
    assert warmup.warm_up("black-prince", jobs=1, progress=seen.append) == seen
    assert seen == [warmup.Outcome(missing, 0.0, skipped=True)]


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled without the JIT")
def test_warm_up_fills_an_empty_cache_that_a_later_process_loads(tmp_path: Path) -> None:
    """One game's warm-up in a fresh process with an empty NUMBA_CACHE_DIR writes the kernels'
    cache; a later process then plays the game without compiling (no compile notice)."""
    env = {name: value for name, value in os.environ.items() if name != "ORDONNANCE_NO_COMPILE_NOTICES"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-m", "ordonnance", "warm-up", "--game", "black-prince", "--jobs", "2"],
                          capture_output=True, text=True, env=env, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].strip().startswith("Black Prince: simulate (Random and Greedy bots)") and lines[0].endswith(" s")
    assert lines[-1].startswith("done in ") and str(tmp_path / "cache") in lines[-1]
    uses = len(warmup.first_uses("black-prince"))
    assert uses == 3  # simulate, a MonteCarlo move, the batched games
    assert f"compiling the kernels of Black Prince: {uses} first uses in 2 processes" in done.stderr
    cached = list((tmp_path / "cache").rglob("*.nbi"))
    assert any("_kernel" in path.name for path in cached), cached
    later = subprocess.run(
        [sys.executable, "-c", "from ordonnance import black_prince as bp; from ordonnance.black_prince.batch import Batch; "
         "bp.simulate(bp.Rules(), games=5, seed=3); b = Batch(2, opponent='greedy', seed=1); b.step(b.legal_action_mask().argmax(1))"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert later.returncode == 0 and "compiling" not in later.stderr, later.stderr


def test_the_command_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    for args, message in [(["--game", "chess"], "invalid choice: 'chess'"), (["--jobs", "0"], "--jobs"),
                          (["--jobs", "many"], "--jobs")]:  # fmt: skip
        with pytest.raises(SystemExit) as exit:
            main(["warm-up", *args])
        assert exit.value.code == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") <= 3, err


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no dispatchers, no cache without the JIT")
def test_cache_locations_name_existing_folders() -> None:
    locations = warmup.cache_locations()
    assert locations and all(os.path.isabs(path) for path in locations)
    assert warmup.common_folder(locations) == os.path.commonpath(locations)
    assert warmup.common_folder([]) == ""


def _use(name: str, cost: float, after: str | None = None) -> warmup.FirstUse:
    return warmup.FirstUse("black-prince", name, lambda: None, cost=cost, after=after)


def test_a_use_starts_once_the_use_it_comes_after_has_finished() -> None:
    uses = [_use("a", 50), _use("b", 15, "a"), _use("c", 10, "b"), _use("d", 25), _use("e", 10, "d"), _use("f", 1, "not run")]
    assert warmup._priorities(uses) == [75, 25, 10, 35, 10, 1]  # each cost plus the longest chain waiting for it
    every = set(range(len(uses)))
    assert warmup._ready(uses, every, set(), busy=False) == [0, 3, 5]
    assert warmup._ready(uses, every - {0, 3}, set(), busy=True) == [5]  # b and e wait while a and d run
    assert warmup._ready(uses, {1, 2, 4}, {0, 3, 5}, busy=False) == [1, 4]
    assert warmup._ready(uses, {2}, {0, 1, 3, 4, 5}, busy=False) == [2]


def test_uses_that_wait_for_each_other_still_run() -> None:
    uses = [_use("x", 1, "y"), _use("y", 2, "x"), _use("z", 1, "z")]
    assert warmup._ready(uses, {0, 1, 2}, set(), busy=True) == [2]  # waiting for itself is not waiting
    assert warmup._ready(uses, {0, 1}, {2}, busy=True) == []
    assert sorted(warmup._ready(uses, {0, 1}, {2}, busy=False)) == [0, 1]  # nothing runs: the cycle is broken


def test_every_after_names_a_first_use_of_the_same_game() -> None:
    for game in registry.names():
        uses = warmup.first_uses(game)
        names = {use.name for use in uses}
        assert {use.after for use in uses if use.after is not None} <= names
    ordonnance = {use.name: use for use in warmup.first_uses("ordonnance")}
    assert ordonnance["Ordonnance (The Kingdoms of Crusaders): batched games (Batch)"].after == "Ordonnance: ISMCTS first move"
    assert ordonnance["Ordonnance: ISMCTS first move"].after == warmup.montecarlo_name("ordonnance")


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="without the JIT it only measures the Python engine")
def test_a_use_waits_in_the_worker_pool_for_the_one_it_comes_after(monkeypatch: pytest.MonkeyPatch) -> None:
    simulate, montecarlo = warmup.first_uses("black-prince")[:2]
    monkeypatch.setattr(warmup, "first_uses", lambda game=None: [attrs.evolve(simulate, after=montecarlo.name), montecarlo])
    seen: list[warmup.Outcome] = []
    outcomes = warmup.warm_up("black-prince", jobs=2, progress=seen.append)  # the workers run the real two
    assert [outcome.error for outcome in outcomes] == [None, None]
    assert [outcome.use.name for outcome in seen] == [montecarlo.name, simulate.name]


def test_a_pool_broken_by_a_dead_worker_fails_the_uses_left_without_raising(monkeypatch: pytest.MonkeyPatch) -> None:
    class BrokenPool:
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def __enter__(self) -> BrokenPool:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def submit(self, *args: object) -> None:
            raise cf.process.BrokenProcessPool("a worker died")

        def shutdown(self, wait: bool = True) -> None:
            pass

    monkeypatch.setattr(cf, "ProcessPoolExecutor", BrokenPool)
    seen: list[warmup.Outcome] = []
    outcomes = warmup.warm_up("black-prince", jobs=2, progress=seen.append)
    assert len(seen) == len(warmup.first_uses("black-prince")) and all("the worker failed" in str(o.error) and "a worker died" in str(o.error) for o in outcomes)
