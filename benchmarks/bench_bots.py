"""Bot strength and decision latency: MonteCarlo against Greedy and Random.

Each match is 1,000 two-player games (default rules) through ``Game``, the
Python engine: the deals come from ``game_seeds(2026, 500)`` and each deal is
played twice, MonteCarlo in seat 0 and then in seat 1, so both seats and the
luck of the deal are shared fairly. Every MonteCarlo decision is timed
(``bot.choose(view)`` only, not building the view; decisions with a single
legal action, answered without search, are not counted), in wall time and in
CPU time of the thread (wall time also counts waiting for a core on a busy
machine). The targets: at least 65%
of the games against Greedy and 95% against Random, under 50 ms a decision.

A match takes several minutes (about 20 MonteCarlo decisions per game).
``ORDONNANCE_BENCH_GAMES`` sets the number of games (even), and
``ORDONNANCE_BENCH_WORKERS`` spreads them over processes (decision times are
then measured with the cores shared)::

    python -m pytest benchmarks/bench_bots.py --benchmark-only -s
"""

from __future__ import annotations

import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import ordonnance as od
from conftest import items
from ordonnance._montecarlo import MonteCarlo
from ordonnance.simulation import game_seeds

GAMES = int(os.environ.get("ORDONNANCE_BENCH_GAMES", "1000"))
WORKERS = int(os.environ.get("ORDONNANCE_BENCH_WORKERS", "1"))
DEAL_SEED = 2026
OPPONENTS = {"greedy": od.bots.Greedy, "random": od.bots.Random}
TARGETS = {"greedy": 0.65, "random": 0.95}


def play_games(opponent: str, first: int, count: int) -> tuple[int, int, list[tuple[float, float]]]:
    """Games ``first .. first + count - 1``: (MonteCarlo wins, draws, (wall, CPU) seconds of each decision)."""
    MonteCarlo(seed=0, rollouts=8).choose(od.Game.new(od.Rules(), seed=0).view(0))  # load the kernels
    deals = game_seeds(DEAL_SEED, (first + count + 1) // 2)
    wins = draws = 0
    times: list[tuple[float, float]] = []
    for g in range(first, first + count):
        seat = g % 2
        bots: list[od.bots.Bot] = [OPPONENTS[opponent](seed=g), OPPONENTS[opponent](seed=g)]
        mc = MonteCarlo(seed=g)
        bots[seat] = mc
        game = od.Game.new(od.Rules(), seed=int(deals[g // 2]))
        while not game.is_over:
            p = game.current_player
            view = game.view(p)
            start, cpu = time.perf_counter(), time.thread_time()
            action = bots[p].choose(view)
            if p == seat and len(view.legal_actions) > 1:
                times.append((time.perf_counter() - start, time.thread_time() - cpu))
            game.apply(action)
        wins += game.winner == seat
        draws += game.winner is None
    return wins, draws, times


def run_match(opponent: str, games: int = GAMES, workers: int = WORKERS) -> dict[str, Any]:
    """MonteCarlo against ``opponent`` over ``games`` games; the figures as a dict."""
    start = time.perf_counter()
    if workers <= 1:
        parts = [play_games(opponent, 0, games)]
    else:
        step = -(-games // workers) + (-(-games // workers)) % 2
        chunks = [(opponent, first, min(step, games - first)) for first in range(0, games, step)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(play_games, *zip(*chunks)))
    wins = sum(w for w, _, _ in parts)
    draws = sum(d for _, d, _ in parts)
    times = sorted(wall for _, _, ts in parts for wall, _ in ts)
    cpu = sorted(c for _, _, ts in parts for _, c in ts)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": wins / games,
        "decisions": len(times),
        "median_ms": statistics.median(times) * 1e3,
        "p99_ms": times[int(0.99 * (len(times) - 1))] * 1e3,
        "max_ms": times[-1] * 1e3,
        "over_50ms": sum(t > 0.05 for t in times),
        "cpu_median_ms": statistics.median(cpu) * 1e3,
        "cpu_max_ms": cpu[-1] * 1e3,
        "seconds": time.perf_counter() - start,
    }


@pytest.mark.parametrize("opponent", sorted(OPPONENTS))
def test_montecarlo_match(benchmark: Any, opponent: str) -> None:
    benchmark.group = "bots: MonteCarlo matches"
    items(benchmark, GAMES, subject=True)
    figures: dict[str, Any] = {}

    def run() -> None:
        figures.update(run_match(opponent))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print(
        f"\nMonteCarlo vs {opponent}: won {figures['wins']}/{figures['games']} = {figures['win_rate']:.1%} "
        f"({figures['draws']} draws); {figures['decisions']:,} decisions, median {figures['median_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms, max {figures['max_ms']:.1f} ms ({figures['over_50ms']} over 50 ms); "
        f"CPU time median {figures['cpu_median_ms']:.1f} ms, max {figures['cpu_max_ms']:.1f} ms; {figures['seconds']:.0f} s"
    )
    assert figures["win_rate"] >= TARGETS[opponent]


# --------------------------------------------------------- one decision


def _positions() -> dict[str, od.PlayerView]:
    """The first decision of a game, and one after 20 greedy plays, for 2 and 4 players."""
    found = {}
    for players in (2, 4):
        game = od.Game.new(od.Rules(players=players), seed=11)
        found[f"{players}p start"] = game.view(0)
        bots = [od.bots.Greedy(seed=s) for s in range(players)]
        for _ in range(20):
            p = game.current_player
            game.apply(bots[p].choose(game.view(p)))
        found[f"{players}p after 20 plays"] = game.view(game.current_player)
    return found


POSITIONS = _positions()


@pytest.mark.parametrize("where", list(POSITIONS))
def test_montecarlo_decision(benchmark: Any, where: str) -> None:
    view = POSITIONS[where]
    benchmark.group = f"bots: one decision, {where}"
    items(benchmark, 1, subject=True)
    bot = MonteCarlo(seed=0)
    bot.choose(view)
    benchmark.extra_info["rollouts"] = bot.budget(view)
    benchmark(bot.choose, view)


@pytest.mark.parametrize("where", list(POSITIONS))
def test_greedy_decision(benchmark: Any, where: str) -> None:
    view = POSITIONS[where]
    benchmark.group = f"bots: one decision, {where}"
    items(benchmark, 1)
    benchmark(od.bots.Greedy(seed=0).choose, view)
