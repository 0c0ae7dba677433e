"""ISMCTS strength and decision latency: against MonteCarlo and Greedy, 2-4 players.

A match is duplicate: each deal (``game_seeds(2026, ...)``) is played once per
seat of the ISMCTS bot (twice with two players, three times with three, four
times with four), the other seats held by copies of the opponent, all
through ``Game``, the Python engine. Bots are seeded per game and seat with
distinct seeds (the SplitMix64 mix of the game, the seat and the bot).

Budgets: ``ORDONNANCE_BENCH_BUDGET=time`` (the default) gives ISMCTS
``time_limit=0.05`` and MonteCarlo ``time_limit=0.05`` with a rollout
budget so large that the time is what stops it (``rollouts=1_000_000``;
MonteCarlo shares its time out between the rounds of sequential halving as
ISMCTS does, so both spend their 50 ms). Any integer instead,
``ORDONNANCE_BENCH_BUDGET=2500``, gives ISMCTS that many iterations and
MonteCarlo ``MC_RATIO`` x as many rollouts per decision, without a clock:
reproducible on any machine (2,500 iterations and 3,500 rollouts both take
about 50 ms for the first decision of a two-player game on the development
machine).

Every ISMCTS decision with more than one legal action is timed (wall time of
``choose(view)``, and the CPU time the process got meanwhile, ``time.thread_time``:
a decision much longer in wall time than in CPU time was held up by the
machine, not by the search), and so is every opponent's (reported beside them). The targets with two players: at least 60% of the games
against MonteCarlo, 97% against Greedy, and no decision over 100 ms.

``ORDONNANCE_BENCH_GAMES`` (default 2,000) sets the games (rounded up to
whole deals), ``ORDONNANCE_BENCH_PLAYERS`` the players (default 2),
``ORDONNANCE_BENCH_WORKERS`` the processes (default 1; with more the
decisions are timed with the cores shared)::

    ORDONNANCE_BENCH_GAMES=400 python -m pytest benchmarks/bench_ismcts.py --benchmark-only -s -k montecarlo

The same as a script, with the figures as one line of JSON::

    python benchmarks/bench_ismcts.py montecarlo --games 400 --players 2 --budget time --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance.simulation import _wilson, bot_seeds, game_seeds

sys.path.insert(0, os.path.dirname(__file__))
from bench_bots import _positions  # noqa: E402  (the same four positions)
from conftest import items  # noqa: E402

GAMES = int(os.environ.get("ORDONNANCE_BENCH_GAMES", "2000"))
PLAYERS = int(os.environ.get("ORDONNANCE_BENCH_PLAYERS", "2"))
WORKERS = int(os.environ.get("ORDONNANCE_BENCH_WORKERS", "1"))
BUDGET = os.environ.get("ORDONNANCE_BENCH_BUDGET", "time")
DEAL_SEED = 2026
TIME = 0.05
#: MonteCarlo rollouts per ISMCTS iteration under an iteration budget (equal time per decision).
MC_RATIO = 1.4
TARGETS = {"montecarlo": 0.60, "greedy": 0.97}
_ISMCTS_SEED, _OPPONENT_SEED = 0x15C7, 0x3C


def make_ismcts(budget: str, seed: int = 0, **options: Any) -> od.bots.ISMCTS:
    """The ISMCTS bot of a match: 50 ms a decision, or a number of iterations."""
    if budget == "time":
        return od.bots.ISMCTS(seed=seed, time_limit=TIME, **options)
    return od.bots.ISMCTS(seed=seed, iterations=int(budget), **options)


def make_opponent(kind: str, budget: str, seed: int = 0) -> od.bots.Bot:
    """The opponent of a match: Greedy, or MonteCarlo at the ISMCTS bot's time or budget."""
    if kind == "greedy":
        return od.bots.Greedy(seed=seed)
    if budget == "time":
        return od.bots.MonteCarlo(seed=seed, rollouts=1_000_000, time_limit=TIME)
    return od.bots.MonteCarlo(seed=seed, rollouts=round(MC_RATIO * int(budget)))


def play_deals(
    opponent: str, players: int, budget: str, first: int, count: int, options: dict[str, Any] | None = None
) -> tuple[int, int, list[float], list[float], list[float]]:
    """Deals ``first .. first + count - 1``, each in every ISMCTS seat: (ISMCTS wins, games without
    winner, ISMCTS decision seconds, the opponents' decision seconds, ISMCTS decision CPU seconds)."""
    rules = od.Rules(players=players)
    warm = od.Game.new(rules, seed=0).view(0)
    od.bots.ISMCTS(seed=0, iterations=8, **(options or {})).choose(warm)  # load the kernels (and tables)
    od.bots.MonteCarlo(seed=0, rollouts=8).choose(warm)
    deals = game_seeds(DEAL_SEED, first + count)[first:]
    wins = draws = 0
    times: list[float] = []
    cpu_times: list[float] = []  # the process's CPU time in each ISMCTS decision: what the OS gave it
    opponent_times: list[float] = []
    for deal in deals.tolist():
        for seat in range(players):
            own = [_OPPONENT_SEED] * players
            own[seat] = _ISMCTS_SEED
            seeds = bot_seeds(np.array([deal], np.uint64), own)[0].tolist()
            bots = [make_opponent(opponent, budget, int(seeds[p])) for p in range(players)]
            bots[seat] = make_ismcts(budget, int(seeds[seat]), **(options or {}))
            game = od.Game.new(rules, seed=deal)
            while not game.is_over:
                p = game.current_player
                view = game.view(p)
                start, cpu = time.perf_counter(), time.thread_time()
                action = bots[p].choose(view)
                if len(view.legal_actions) > 1:
                    (times if p == seat else opponent_times).append(time.perf_counter() - start)
                    if p == seat:
                        cpu_times.append(time.thread_time() - cpu)
                game.apply(action)
            wins += game.winner == seat
            draws += game.winner is None
    return wins, draws, times, opponent_times, cpu_times


def run_match(
    opponent: str,
    games: int = GAMES,
    players: int = PLAYERS,
    budget: str = BUDGET,
    workers: int = WORKERS,
    options: dict[str, Any] | None = None,
    first_deal: int = 0,
) -> dict[str, Any]:
    """ISMCTS against ``players - 1`` copies of ``opponent`` over about ``games`` games (deals from
    ``first_deal`` on); the figures as a dict."""
    start = time.perf_counter()
    deals = -(-games // players)
    if workers <= 1:
        parts = [play_deals(opponent, players, budget, first_deal, deals, options)]
    else:
        step = -(-deals // workers)
        firsts = list(range(first_deal, first_deal + deals, step))
        with ProcessPoolExecutor(workers) as pool:
            futures = [
                pool.submit(play_deals, opponent, players, budget, f, min(step, first_deal + deals - f), options)
                for f in firsts
            ]
            parts = [f.result() for f in futures]
    played = deals * players
    wins = sum(p[0] for p in parts)
    times = sorted(t for p in parts for t in p[2])
    opponent_times = sorted(t for p in parts for t in p[3])
    cpu_times = sorted(t for p in parts for t in p[4])
    low, high = _wilson(wins, played)
    return {
        "opponent": opponent,
        "players": players,
        "budget": budget,
        "mc_ratio": MC_RATIO,
        "options": options or {},
        "first_deal": first_deal,
        "games": played,
        "wins": wins,
        "draws": sum(p[1] for p in parts),
        "win_rate": wins / played,
        "ci95": (low, high),
        "baseline": 1 / players,
        "decisions": len(times),
        "median_ms": statistics.median(times) * 1e3,
        "p99_ms": times[int(0.99 * (len(times) - 1))] * 1e3,
        "max_ms": times[-1] * 1e3,
        "over_100ms": sum(t > 0.1 for t in times),
        "cpu_p99_ms": cpu_times[int(0.99 * (len(cpu_times) - 1))] * 1e3,
        "cpu_max_ms": cpu_times[-1] * 1e3,
        "cpu_over_100ms": sum(t > 0.1 for t in cpu_times),
        "opponent_median_ms": statistics.median(opponent_times) * 1e3,
        "opponent_p99_ms": opponent_times[int(0.99 * (len(opponent_times) - 1))] * 1e3,
        "seconds": time.perf_counter() - start,
    }


def summary(f: dict[str, Any]) -> str:
    """One line of figures."""
    low, high = f["ci95"]
    return (
        f"ISMCTS vs {f['players'] - 1} x {f['opponent']} ({f['players']} players, budget {f['budget']}): "
        f"won {f['wins']}/{f['games']} = {f['win_rate']:.1%} (95% CI {low:.1%}-{high:.1%}; baseline "
        f"{f['baseline']:.0%}; {f['draws']} without winner); {f['decisions']:,} decisions, median "
        f"{f['median_ms']:.1f} ms, p99 {f['p99_ms']:.1f} ms, max {f['max_ms']:.1f} ms "
        f"({f['over_100ms']} over 100 ms; CPU time p99 {f['cpu_p99_ms']:.1f} ms, max {f['cpu_max_ms']:.1f} ms, "
        f"{f['cpu_over_100ms']} over 100 ms); {f['opponent']} decisions median {f['opponent_median_ms']:.1f} ms, "
        f"p99 {f['opponent_p99_ms']:.1f} ms; {f['seconds']:.0f} s"
    )


@pytest.mark.parametrize("opponent", sorted(TARGETS))
def test_ismcts_match(benchmark: Any, opponent: str) -> None:
    benchmark.group = "bots: ISMCTS matches"
    items(benchmark, GAMES, subject=True)
    figures: dict[str, Any] = {}

    def run() -> None:
        figures.update(run_match(opponent))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update({k: v for k, v in figures.items() if k != "options"})
    print("\n" + summary(figures))
    if PLAYERS == 2:
        assert figures["win_rate"] >= TARGETS[opponent]


# --------------------------------------------------------- one decision


@pytest.mark.parametrize("where", ["2p start", "2p after 20 plays", "4p start", "4p after 20 plays"])
def test_ismcts_iterations(benchmark: Any, where: str) -> None:
    """1,000 iterations of one decision (items: iterations)."""
    view = _positions()[where]
    benchmark.group = f"bots: ISMCTS, 1,000 iterations, {where}"
    items(benchmark, 1_000, subject=True)
    bot = od.bots.ISMCTS(seed=0, iterations=1_000)
    bot.choose(view)
    benchmark(bot.choose, view)


def parse_options(items: list[str]) -> dict[str, Any]:
    """``--option keyword=value`` items as ISMCTS keywords (a value a number where it reads as one)."""
    options: dict[str, Any] = {}
    for item in items:
        key, _, value = item.partition("=")
        try:
            options[key] = float(value)
        except ValueError:
            options[key] = value
    return options


def main() -> None:
    global MC_RATIO
    parser = argparse.ArgumentParser(description="ISMCTS against MonteCarlo or Greedy over duplicate deals")
    parser.add_argument("opponent", choices=sorted(TARGETS))
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--budget", default=BUDGET, help="'time' (50 ms) or ISMCTS iterations per decision")
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal (split a long match over processes)")
    parser.add_argument("--option", action="append", default=[], help="ISMCTS keyword=value (a number or a word)")
    parser.add_argument("--mc-ratio", type=float, default=MC_RATIO,
                        help="MonteCarlo rollouts per ISMCTS iteration under an iteration budget")  # fmt: skip
    args = parser.parse_args()
    MC_RATIO = args.mc_ratio  # read by make_opponent (worker processes fork and inherit it)
    options = parse_options(args.option)
    figures = run_match(args.opponent, args.games, args.players, args.budget, args.workers, options, args.first_deal)
    print(summary(figures))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
