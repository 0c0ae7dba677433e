"""The lab's studies on executors: a process pool, threads and a Dask cluster give the table
serial gives (values and intervals, bit for bit); a bad executor is refused; Ctrl-C on an
executor keeps the arms aligned."""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import ordonnance as od
from ordonnance import black_prince, lab, shinobi
from ordonnance.core import pools
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.lab import running
from ordonnance.lab.cards import card_values
from ordonnance.lab.matchup_tables import matchups

measures = importlib.import_module("ordonnance.lab.measures")

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
#: Games of a chunk task in these tests (the kernel's real chunks would need far more games to be cut).
CHUNK = 300 if JIT else 30
#: Games of a study's part or arm: two chunks and a third.
GAMES = CHUNK * 7 // 3


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of :data:`CHUNK` games (sized in this process, so on every executor)."""
    monkeypatch.setattr(running, "KERNEL_CHUNK_GAMES", CHUNK)
    monkeypatch.setattr(running, "PYTHON_CHUNK_GAMES", 7)


@pytest.fixture(scope="module")
def process_pool() -> Iterator[cf.Executor]:
    """Two spawned worker processes, shared by the tests (spawning takes seconds)."""
    pool = pools.spawn_pool(2)
    yield pool
    pool.shutdown()


def table(study: lab.Study) -> str:
    """What must not depend on the executor: every row (its estimate, interval and games) and array, as
    text (a float's repr gives it back exactly, and shows NaN equal to NaN)."""
    return repr((tuple((r.metric, r.labels, r.estimate) for r in study.rows), {k: v.tolist() for k, v in study.arrays.items()}))


def _tune(**executor: Any) -> lab.Study:
    pytest.importorskip("optuna")
    from ordonnance.lab.space import Space

    start = shinobi.Rules(players=3)
    return lab.tune(start, targets={"first-player advantage": (-0.01, 0.01)}, space=Space.of(start, options=(), cards=["Mori"]),
                    budget=3, games=GAMES, confirm_games=GAMES, keep=1, seed=5, progress=False, **executor)  # fmt: skip


#: Each study, small, its games cut into several chunks: ``study(executor=..., workers=...)``.
STUDIES: dict[str, Callable[..., lab.Study]] = {
    "metrics": lambda **ex: lab.metrics(od.Rules(players=3), games=GAMES, seed=9, trace_games=15, skill_games=30,
                                        search_games=3 if JIT else 0, search_rollouts=2, progress=False, **ex),
    "metrics(black prince)": lambda **ex: lab.metrics(black_prince.Rules(), games=GAMES, seed=2, trace_games=8,
                                                      skill_games=0, progress=False, **ex),
    "compare": lambda **ex: lab.compare(od.Rules(), od.Rules(scoring="points"), games=GAMES, seed=2, trace_games=10,
                                        skill_games=20, progress=False, **ex),
    "compare(player counts)": lambda **ex: lab.compare(shinobi.Rules(players=3), shinobi.Rules(players=4), games=GAMES,
                                                       seed=2, trace_games=0, skill_games=12, progress=False, **ex),
    "card_values": lambda **ex: card_values(od.Rules(), kinds=["LS", "L"] if JIT else ["LS"], games=GAMES, seed=4, progress=False, **ex),
    "card_values(black prince)": lambda **ex: card_values(black_prince.Rules(), kinds=["0:Battle"], changes=["remove"],
                                                          swaps=[("1:Battle", "1:Knights 3")], games=GAMES, seed=4,
                                                          progress=False, **ex),
    "matchups": lambda **ex: matchups(black_prince.Rules(), armies=["Scottish", "French"], games=GAMES, seed=3,
                                      progress=False, **ex),
    "matchups(shinobi)": lambda **ex: matchups(shinobi.Rules(), counts=[3, 5] if JIT else [3], games=GAMES, seed=3, progress=False, **ex),
    "tune": _tune,
}  # fmt: skip


@pytest.mark.parametrize("name", STUDIES)
def test_a_process_pool_and_threads_give_the_serial_table(name: str, process_pool: cf.Executor) -> None:
    study = STUDIES[name]
    serial = table(study())
    assert table(study(executor="serial")) == serial
    assert table(study(executor=process_pool)) == serial
    with cf.ThreadPoolExecutor(max_workers=3) as threads:
        assert table(study(executor=threads)) == serial


def test_our_own_process_pool_gives_the_serial_table() -> None:
    study = STUDIES["compare"]
    assert table(study(executor="process", workers=2)) == table(study())
    assert table(study(executor=None, workers=1)) == table(study())  # one worker: this process


@pytest.mark.skipif(not JIT, reason="thousands of games: too slow without the JIT (the chunks above are cut alike)")
def test_the_real_chunks_give_the_serial_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the chunks of the library, a kernel chunk of 8,192 games
    games = running.KERNEL_CHUNK_GAMES + 500
    study = lambda **ex: lab.compare(od.Rules(), od.Rules(auto_claim=True), games=games, seed=8, trace_games=0,  # noqa: E731
                                     skill_games=0, progress=False, **ex)  # fmt: skip
    with cf.ThreadPoolExecutor(max_workers=2) as threads:
        on_threads = study(executor=threads)
    assert table(on_threads) == table(study())
    assert on_threads.get("win rate", seat=0, arm="base").games == games


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """A Dask client of a local cluster of two worker threads (any free port: tests run side by side)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0", scheduler_port=0) as cluster, \
            distributed.Client(cluster) as client:  # fmt: skip
        yield client


@pytest.mark.parametrize("name", ["metrics", "compare", "card_values", "matchups"])
def test_a_dask_cluster_gives_the_serial_table(name: str, dask_client: Any) -> None:
    assert table(STUDIES[name](executor=dask_client.get_executor())) == table(STUDIES[name]())


@pytest.mark.parametrize("name", ["metrics", "compare", "card_values", "matchups", "tune"])
def test_a_bad_executor_or_workers_is_refused_showing_it(name: str) -> None:
    study = STUDIES[name]
    if name == "tune":
        pytest.importorskip("optuna")
    with pytest.raises(OrdonnanceTypeError, match="executor must be None, 'serial', 'process' or a concurrent"):
        study(executor="threads")
    with pytest.raises(OrdonnanceTypeError, match="<object object"):
        study(executor=object())
    with pytest.raises(InvalidRulesError, match="workers must be a positive int.*got 0"):
        study(workers=0)
    with pytest.raises(InvalidRulesError, match="workers must be a positive int.*got True"):
        study(workers=True)


def test_a_bot_that_cannot_be_pickled_is_refused_on_an_executor() -> None:
    class Here(od.bots.Random):  # a class defined in a function cannot be pickled
        pass

    lineup = [Here(seed=1), od.bots.Random(seed=2)]
    with cf.ThreadPoolExecutor(max_workers=2) as threads, pytest.raises(OrdonnanceTypeError, match="cannot be pickled"):
        lab.metrics(od.Rules(), players=lineup, games=50, trace_games=0, skill_games=0, progress=False, executor=threads)
    assert lab.metrics(od.Rules(), players=lineup, games=50, trace_games=0, skill_games=0, progress=False).rows


def _interrupt_at(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, call: int) -> list[Any]:
    """``module.name`` raising KeyboardInterrupt (as Ctrl-C would) at its ``call``-th call (from 1)."""
    real = getattr(module, name)
    calls: list[Any] = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == call:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, interrupted)
    return calls


def test_ctrl_c_on_an_executor_keeps_the_chunks_both_arms_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    base, variant = od.Rules(), od.Rules(scoring="points")
    options: dict[str, Any] = dict(seed=2, trace_games=0, skill_games=0, progress=False)
    _interrupt_at(monkeypatch, measures, "_read", 6)  # chunks go base, variant, base, ...: the variant's third
    with cf.ThreadPoolExecutor(max_workers=1) as one:
        stopped = lab.compare(base, variant, games=10 * CHUNK, executor=one, **options)
    assert f"stopped by Ctrl-C: the rows count the games played (games {2 * CHUNK} of {10 * CHUNK:,})" in stopped.record.notes
    assert {r.estimate.games for r in stopped.rows if r.metric == "win rate"} == {2 * CHUNK}
    monkeypatch.undo()
    monkeypatch.setattr(running, "KERNEL_CHUNK_GAMES", CHUNK)
    assert table(stopped) == table(lab.compare(base, variant, games=2 * CHUNK, **options))


def test_ctrl_c_on_an_executor_keeps_the_whole_arms_and_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupt_at(monkeypatch, shinobi, "simulate", 5)  # 3 chunks an arm: the first change's second chunk
    with cf.ThreadPoolExecutor(max_workers=1) as one:
        study = card_values(shinobi.Rules(players=3), kinds=["Oda", "Mori"], changes=["add"], games=GAMES, seed=1,
                            executor=one)  # fmt: skip
    assert study.rows == ()
    assert "stopped by Ctrl-C: 0 of the 2 changes measured" in study.record.notes
    monkeypatch.undo()  # (the pool is shut down: no task of that study runs any more)
    monkeypatch.setattr(running, "KERNEL_CHUNK_GAMES", CHUNK)
    _interrupt_at(monkeypatch, shinobi, "simulate", 4)  # the second cell's first chunk
    with cf.ThreadPoolExecutor(max_workers=1) as one:
        study = matchups(shinobi.Rules(), counts=[3, 4], games=GAMES, seed=1, executor=one)
    assert "stopped by Ctrl-C: 1 of the 2 cells played" in study.record.notes
    assert {r.label("players") for r in study.rows} == {3} and {r.estimate.games for r in study.rows} == {GAMES}


def test_a_pool_of_ours_is_stopped_without_waiting_when_a_run_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    stopped: list[bool] = []
    real_stop = pools.stop
    monkeypatch.setattr(pools, "stop", lambda pool, finished: (stopped.append(finished), real_stop(pool, finished))[1])
    with running.runner("process", 2) as ran:
        results = ran.run(abs, iter([-1, -2, -3]))
        assert next(results) == 1
        results.close()  # Ctrl-C in the study: its workers are terminated, not waited for
    with running.runner("process", 2) as ran:
        assert list(ran.run(abs, iter([-1, -2]))) == [1, 2]
    assert stopped == [False, True]


def _command(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``ordonnance ARGS``: the exit status, standard output and error."""
    from ordonnance.__main__ import main

    capsys.readouterr()
    try:
        status = main(list(args))
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) else 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


#: A small comparison on the command line.
COMMAND = ["lab", "compare", "--variant", "auto_claim=true", "--games", str(GAMES), "--trace-games", "5", "--skill-games",
           "10", "--quiet"]  # fmt: skip


def test_the_command_line_plays_on_workers_with_the_same_table_and_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, serial, _ = _command(*COMMAND, capsys=capsys)
    assert status == 0
    assert _command(*COMMAND, "--serial", capsys=capsys) == (0, serial, "")
    assert _command(*COMMAND, "--workers", "2", capsys=capsys) == (0, serial, "")  # the recorded command too


def test_the_command_line_plays_on_a_dask_scheduler(capsys: pytest.CaptureFixture[str], dask_client: Any) -> None:
    serial = _command(*COMMAND, capsys=capsys)
    assert _command(*COMMAND, "--dask", dask_client.scheduler.address, capsys=capsys) == serial


def test_the_command_lines_executor_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _command("lab", "metrics", "--games", "10", "--serial", "--workers", "2", capsys=capsys)
    assert status == 2 and "--serial cannot be combined with --workers or --dask" in err
    status, _, err = _command("lab", "matchups", "--game", "shinobi", "--games", "10", "--dask", "foo://x", capsys=capsys)
    try:
        import distributed  # noqa: F401
    except ImportError:
        dask = False
    else:
        dask = True
    if not dask:
        assert status == 1 and err.count("\n") == 1 and "--dask needs Dask: pip install 'ordonnance[distributed]'" in err
    else:
        assert status == 1 and err.count("\n") == 1 and "unknown scheme 'foo'" in err
    status, _, err = _command("lab", "cards", "--games", "10", "--workers", "0", capsys=capsys)
    assert status == 2 and "--workers" in err
