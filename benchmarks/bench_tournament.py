"""Tournament throughput: one process against a local process pool and a Dask cluster.

The same tournament (same seed, so the same games and the same result) runs

* ``serial``: every chunk in this process;
* ``process pool, started per call``: ``executor=None``, what a user gets by
  default, pool start-up (spawned workers importing ordonnance and loading
  the cached kernels) included in every round;
* ``process pool, reused``: a :class:`~concurrent.futures.ProcessPoolExecutor`
  started once and passed in;
* ``Dask LocalCluster``: ``Client(LocalCluster(...)).get_executor()``, the
  cluster started once, as a long-lived cluster would be.

with one worker per core (this machine: ``os.cpu_count()``). Two workloads:
kernel bots (Greedy against Random: the numba simulator, ~10^4-10^5 games/s
per core, so chunks are short and overheads show) and Python bots
(MonteCarlo with a small budget against Greedy: seconds per chunk, so the
work dominates). The summary table prints games per second and each
executor's speed relative to serial: the scaling ratio on this machine.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
from collections.abc import Iterator
from typing import Any

import pytest

import ordonnance as od
from conftest import items
from ordonnance.tournament import TournamentResult, tournament

WORKERS = os.cpu_count() or 1
KERNEL_GAMES = 100_000
PYTHON_GAMES = 48
SEED = 2026


def kernel_bots() -> dict[str, od.bots.Bot]:
    return {"greedy": od.bots.Greedy(seed=1), "random": od.bots.Random(seed=2)}


def python_bots() -> dict[str, od.bots.Bot]:
    monte_carlo = getattr(od.bots, "MonteCarlo", None)
    if monte_carlo is None:
        monte_carlo = pytest.importorskip("ordonnance._montecarlo").MonteCarlo
    return {"montecarlo": monte_carlo(seed=1, rollouts=8), "greedy": od.bots.Greedy(seed=2)}


WORKLOADS = {
    "kernel bots": (kernel_bots, KERNEL_GAMES, None),
    "Python bots": (python_bots, PYTHON_GAMES, 4),
}


@pytest.fixture(scope="module")
def pool() -> Iterator[cf.ProcessPoolExecutor]:
    with cf.ProcessPoolExecutor(max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn")) as executor:
        yield executor


@pytest.fixture(scope="module")
def dask_executor() -> Iterator[cf.Executor]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        # pure=False: Dask would otherwise hand back the previous round's results
        # for identical tasks instead of playing the games again.
        yield client.get_executor(pure=False)


def _run(workload: str, executor: Any, warm: bool = True) -> TournamentResult:
    make, games, chunk_size = WORKLOADS[workload]
    if warm:  # compile, start the workers and import ordonnance there, outside the timing
        tournament(make(), games=games // 8 or 1, seed=SEED, executor=executor, chunk_size=chunk_size, progress=False)
    return tournament(make(), games=games, seed=SEED, executor=executor, chunk_size=chunk_size, progress=False)


def _bench(benchmark: Any, workload: str, executor: Any, subject: bool = False) -> Any:
    make, games, chunk_size = WORKLOADS[workload]
    benchmark.group = f"tournament, {workload}: {games:,} games on {WORKERS} cores"
    _run(workload, executor)
    items(benchmark, games, subject=subject)
    return benchmark.pedantic(
        tournament, args=(make(),),
        kwargs={"games": games, "seed": SEED, "executor": executor, "chunk_size": chunk_size, "progress": False},
        rounds=3, iterations=1,
    )  # fmt: skip


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_serial(benchmark: Any, workload: str) -> None:
    _bench(benchmark, workload, "serial")


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_process_pool_started_per_call(benchmark: Any, workload: str) -> None:
    _bench(benchmark, workload, None)


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_process_pool_reused(benchmark: Any, workload: str, pool: cf.ProcessPoolExecutor) -> None:
    _bench(benchmark, workload, pool, subject=True)


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_dask_local_cluster(benchmark: Any, workload: str, dask_executor: cf.Executor) -> None:
    result = _bench(benchmark, workload, dask_executor, subject=True)
    assert result == _run(workload, "serial", warm=False)  # the same games, whatever ran them
