"""Shinobi: simulator throughput and bot strength, with the issue's targets.

* **Simulator**: random 4-player games per second on one core (target 300,000),
  against the same games driven through ``shinobi.Game`` from Python, and the
  3- and 5-player and Greedy figures beside them.
* **Greedy vs Random**: one Greedy and three Random bots in the kernel; Greedy
  takes each seat in turn on the same deals (target: at least 60% of the games,
  where 25% is parity).
* **MonteCarlo vs Greedy**: one MonteCarlo and three Greedy bots through
  ``Game``; the deals come from ``game_seeds(2026, games // 4)`` and each deal
  is played four times, MonteCarlo in each seat, so seats and deals are shared
  fairly; each game's bots are seeded from a per-game seed (``game_seeds(2027,
  games)``), the seat and the bot's own seed by ``bot_seeds``, so no two
  games or seats share a stream. A shared win counts as ``1/k``. Every
  MonteCarlo decision with more than one legal action is timed (``choose(view)`` only), in wall time and in
  CPU time of the thread (target: at least 60% of the games, at most 50 ms a
  decision).

* **Batched games**: ``shinobi.rl.VectorEnv(4096, opponent="random")``, 4 players,
  float32 box observations, env steps a second in ``step`` and ``action_masks``
  (target 1,000,000), beside ``simulate``'s decisions a second and the single
  env's steps a second, measured in the same run::

      cd benchmarks && python -m pytest bench_shinobi.py -k vector_env --benchmark-only --benchmark-timer time.thread_time

``ORDONNANCE_BENCH_GAMES`` sets the games of the MonteCarlo match (a multiple
of 4, default 200; several minutes)::

    python -m pytest benchmarks/bench_shinobi.py --benchmark-only -s

On a shared machine, time the simulator in CPU time of the thread, which the
neighbours disturb far less than the wall clock::

    cd benchmarks && python -m pytest bench_shinobi.py -k "simulate or game_api" --benchmark-only --benchmark-timer time.thread_time

To compare simulator kernels without the noise between processes, run this file
as a script with kernel files (``_kernel.py`` of this commit, of another one in a
``git worktree``, or a scratch copy): it loads them side by side in one process,
checks that they play the same 30,000 random 4-player games, and times them in
alternated rounds (CPU time of the thread), printing each one's games a second
and the median of its per-round ratios to the first (``--players 3`` or ``5`` for
the other tables, ``--games`` and ``--rounds`` to change the sizes)::

    python benchmarks/bench_shinobi.py /work/base/src/ordonnance/shinobi/_kernel.py src/ordonnance/shinobi/_kernel.py
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import items, of_target
from ordonnance import shinobi
from ordonnance.simulation import _wilson, bot_seeds, game_seeds

GAMES = 200_000
TARGET = 300_000  # random 4-player games a second (issue 14)
PYTHON_GAMES = 50
MATCH_GAMES = int(os.environ.get("ORDONNANCE_BENCH_GAMES", "200"))
DEAL_SEED = 2026
BOT_SEED = 2027  # the per-game seeds the bots of a MonteCarlo match are mixed from
_GREEDY_SEED, _MONTECARLO_SEED = 0x6E, 0x3C


def python_games(rules: shinobi.Rules, games: int = PYTHON_GAMES) -> None:
    """The alternative: the same bots through the Game API, one decision at a time."""
    for seed in range(games):
        game = shinobi.Game.new(rules, seed=seed)
        players = [shinobi.bots.Random(seed=seed * 8 + p) for p in range(rules.players)]
        while not game.is_over:
            seat = game.current_player
            game.apply(players[seat].choose(game.view(seat)))


CASES = {
    "4p random": (shinobi.Rules(players=4), "random"),
    "3p random": (shinobi.Rules(players=3), "random"),
    "5p random": (shinobi.Rules(players=5), "random"),
    "4p greedy": (shinobi.Rules(players=4), "greedy"),
}


def _bots(kind: str, n: int) -> list[Any]:
    return [(shinobi.bots.Random if kind == "random" else shinobi.bots.Greedy)(seed=p) for p in range(n)]


@pytest.mark.parametrize("case", list(CASES))
def test_simulate(benchmark: Any, case: str) -> None:
    rules, kind = CASES[case]
    benchmark.group = "shinobi simulate: 4p random" if case == "4p random" else f"shinobi simulate: {case}"
    games = GAMES if kind == "random" else GAMES // 20
    shinobi.simulate(rules, games=10, players=_bots(kind, rules.players))  # compile outside the timing
    items(benchmark, games, subject=True)
    benchmark.pedantic(shinobi.simulate, args=(rules,), kwargs={"games": games, "seed": 1, "players": _bots(kind, rules.players)},
                       rounds=5, iterations=1)  # fmt: skip
    if case == "4p random":
        of_target(benchmark, case, TARGET)


def test_game_api_with_python_bots(benchmark: Any) -> None:
    benchmark.group = "shinobi simulate: 4p random"
    items(benchmark, PYTHON_GAMES)
    benchmark.pedantic(python_games, args=(shinobi.Rules(players=4),), rounds=3, iterations=1)


def test_greedy_beats_random(benchmark: Any) -> None:
    benchmark.group = "shinobi bots: Greedy vs 3 Random"
    rules, games = shinobi.Rules(players=4), 40_000
    share: list[float] = []

    def run() -> None:
        share.clear()
        for seat in range(4):
            players = [shinobi.bots.Random(seed=p) for p in range(4)]
            players[seat] = shinobi.bots.Greedy(seed=seat)
            res = shinobi.simulate(rules, games=games // 4, seed=DEAL_SEED, players=players)
            share.append(float(np.mean(res.winners[:, seat] / res.winners.sum(axis=1))))

    items(benchmark, games, subject=True)
    benchmark.pedantic(run, rounds=1, iterations=1)
    rate = statistics.mean(share)
    benchmark.extra_info["win_rate"] = rate
    print(f"\nGreedy vs 3 Random: {rate:.1%} of {games:,} games (by seat: {', '.join(f'{s:.1%}' for s in share)})")
    assert rate >= 0.60


def clan_guesses(kind: str, games: int = 400, seed: int = 7) -> tuple[float, float]:
    """How much ``kind`` bots show their clan: the share of seats whose clan an observer
    names by its largest army at home at the end, and by the clan it played most
    (deploys and reinforcements, all public); 20% is chance."""
    bot = shinobi.bots.Greedy if kind == "greedy" else shinobi.bots.Random
    res = shinobi.simulate(shinobi.Rules(players=4), games=games, seed=seed, players=[bot(seed=s) for s in range(4)])
    home = played = 0
    for i in range(games):
        game = res.replay(i)
        counts = np.zeros((4, 5))
        replay = shinobi.Game.new(game.rules, seed=game.seed)
        for action in game.history:
            if isinstance(action, (shinobi.Deploy, shinobi.Reinforce)):
                counts[replay.current_player, action.card_clan] += 1
            replay.apply(action)
        for p in range(4):
            home += int(np.argmax(game.province(p))) == game.clan(p)
            played += int(np.argmax(counts[p])) == game.clan(p)
    return home / (4 * games), played / (4 * games)


def test_how_much_greedy_shows_its_clan(benchmark: Any) -> None:
    benchmark.group = "shinobi bots: clan shown"
    figures: dict[str, tuple[float, float]] = {}
    benchmark.pedantic(lambda: figures.update({k: clan_guesses(k) for k in ("random", "greedy")}), rounds=1, iterations=1)
    for kind, (home, played) in figures.items():
        print(f"\n{kind}: its largest army at home names its clan in {home:.1%} of the seats, "
              f"its most-played clan in {played:.1%} (chance: 20%)")  # fmt: skip


def play_match(games: int, **settings: Any) -> dict[str, Any]:
    """MonteCarlo (``settings``) against three Greedy bots; the figures as a dict."""
    rules = shinobi.Rules(players=4)
    shinobi.bots.MonteCarlo(seed=0, rollouts=8).choose(shinobi.Game.new(rules, seed=0).view(0))  # load the kernels
    deals = game_seeds(DEAL_SEED, games // 4)
    # Each game's bots: seeds mixed from a per-game seed, the seat and the bot's own seed
    # (distinct for every game and seat; the four games of a deal share only the deal).
    per_game = game_seeds(BOT_SEED, games)
    seeds = bot_seeds(per_game, [_GREEDY_SEED] * 4)
    mc_seeds = bot_seeds(per_game, [_MONTECARLO_SEED] * 4)
    won = 0.0
    times: list[tuple[float, float]] = []
    start = time.perf_counter()
    for g in range(games):
        seat = g % 4
        players: list[Any] = [shinobi.bots.Greedy(seed=int(seeds[g, p])) for p in range(4)]
        players[seat] = shinobi.bots.MonteCarlo(seed=int(mc_seeds[g, seat]), **settings)
        game = shinobi.Game.new(rules, seed=int(deals[g // 4]))
        while not game.is_over:
            p = game.current_player
            view = game.view(p)
            wall, cpu = time.perf_counter(), time.thread_time()
            action = players[p].choose(view)
            if p == seat and len(view.legal_actions) > 1:
                times.append((time.perf_counter() - wall, time.thread_time() - cpu))
            game.apply(action)
        if seat in game.winners:
            won += 1 / len(game.winners)
    walls = sorted(w for w, _ in times)
    cpus = sorted(c for _, c in times)
    return {
        "games": games,
        "win_rate": won / games,
        "decisions": len(walls),
        "median_ms": statistics.median(walls) * 1e3,
        "p95_ms": walls[int(0.95 * (len(walls) - 1))] * 1e3,
        "p99_ms": walls[int(0.99 * (len(walls) - 1))] * 1e3,
        "max_ms": walls[-1] * 1e3,
        "cpu_median_ms": statistics.median(cpus) * 1e3,
        "cpu_p95_ms": cpus[int(0.95 * (len(cpus) - 1))] * 1e3,
        "cpu_p99_ms": cpus[int(0.99 * (len(cpus) - 1))] * 1e3,
        "cpu_max_ms": cpus[-1] * 1e3,
        "cpu_over_50ms": sum(c > 0.05 for c in cpus),
        "over_50ms": sum(w > 0.05 for w in walls),
        "seconds": time.perf_counter() - start,
    }


def test_montecarlo_beats_greedy(benchmark: Any) -> None:
    benchmark.group = "shinobi bots: MonteCarlo vs 3 Greedy"
    items(benchmark, MATCH_GAMES, subject=True)
    figures: dict[str, Any] = {}
    benchmark.pedantic(lambda: figures.update(play_match(MATCH_GAMES)), rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    low, high = _wilson(round(figures["win_rate"] * figures["games"]), figures["games"])
    print(
        f"\nMonteCarlo vs 3 Greedy: {figures['win_rate']:.1%} of {figures['games']} games (95% CI {low:.1%} .. {high:.1%}); "
        f"{figures['decisions']:,} decisions, median {figures['median_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms, max {figures['max_ms']:.1f} ms ({figures['over_50ms']} over 50 ms); "
        f"CPU median {figures['cpu_median_ms']:.1f} ms, p95 {figures['cpu_p95_ms']:.1f} ms, p99 {figures['cpu_p99_ms']:.1f} ms, "
        f"max {figures['cpu_max_ms']:.1f} ms ({figures['cpu_over_50ms']} over 50 ms); {figures['seconds']:.0f} s"
    )
    assert figures["win_rate"] >= 0.60


VECTOR_ENVS = 4096
VECTOR_ROUNDS = 150
VECTOR_TARGET = 1_000_000  # issue 35: env steps a second, VectorEnv(4096, opponent="random"), 4 players
VECTOR_GROUP = "shinobi batch: env steps (learner actions) per second, 4 players"


def _vector_round(env: Any) -> Any:
    """The untimed setup of a round: random legal actions from the current masks."""
    masks = env.action_masks()
    return (np.argmax(np.where(masks, env._bench_rng.random(masks.shape), -1.0), axis=1),), {}


@pytest.mark.parametrize("opponent", ["random", "greedy", "self"])
def test_vector_env(benchmark: Any, opponent: str) -> None:
    """``shinobi.rl.VectorEnv(4096)``, float32 box observations: a round times ``step`` and
    ``action_masks`` for every env (an env step is one learner action, then the kernel bots'
    turns up to its next one); the random legal actions are drawn in the untimed setup."""
    pytest.importorskip("gymnasium")
    from ordonnance.shinobi.rl import VectorEnv

    benchmark.group = VECTOR_GROUP
    env = VectorEnv(VECTOR_ENVS, shinobi.Rules(players=4), opponent=opponent, observation="box")  # type: ignore[arg-type]
    env.reset(seed=1)
    env._bench_rng = np.random.default_rng(0)  # type: ignore[attr-defined]

    def step(actions: Any) -> None:
        env.step(actions)
        env.action_masks()

    for _ in range(3):  # compile and warm up outside the timing
        step(*_vector_round(env)[0])
    items(benchmark, VECTOR_ENVS, subject=opponent == "random")
    benchmark.pedantic(step, setup=lambda: _vector_round(env), rounds=VECTOR_ROUNDS, iterations=1)
    if opponent == "random":
        of_target(benchmark, f"VectorEnv({VECTOR_ENVS}, opponent='random'), 4 players", VECTOR_TARGET)


def test_vector_env_beside_simulate_decisions(benchmark: Any) -> None:
    """The simulator's decisions a second, random 4-player games (the rules kernel's speed limit)."""
    benchmark.group = VECTOR_GROUP
    rules = shinobi.Rules(players=4)
    shinobi.simulate(rules, games=10)
    decisions = int(shinobi.simulate(rules, games=GAMES, seed=1).decisions.sum())
    items(benchmark, decisions)
    benchmark.pedantic(shinobi.simulate, args=(rules,), kwargs={"games": GAMES, "seed": 1}, rounds=5, iterations=1)


def test_vector_env_beside_the_single_env(benchmark: Any) -> None:
    """``shinobi.rl.SingleAgentEnv`` against Random, box observations: learner steps a second."""
    pytest.importorskip("gymnasium")
    from ordonnance.shinobi.rl import SingleAgentEnv

    benchmark.group = VECTOR_GROUP
    env = SingleAgentEnv(opponent="random", observation="box")
    env.reset(seed=1)
    priorities = np.random.default_rng(0).random((64, env.action_space.n))
    steps = 1000

    def run() -> None:
        for i in range(steps):  # a random legal action: the argmax of the mask times a random row
            _, _, terminated, truncated, _ = env.step(int(np.argmax(env.action_masks() * priorities[i & 63])))
            if terminated or truncated:
                env.reset()

    run()
    items(benchmark, steps)
    benchmark.pedantic(run, rounds=3, iterations=1)


def compare_kernels(paths: list[str], games: int = 30_000, rounds: int = 30, players: int = 4) -> None:
    """Time the ``simulate`` of the kernel files ``paths`` on the same random games of ``players``,
    in alternated rounds of one process (see the module's docstring)."""
    from ordonnance.shinobi.simulation import _Outputs

    # copies under their own names in a scratch directory: numba caches a compiled function
    # beside its source, under its module's name, which a copy must not share with the package
    scratch = tempfile.mkdtemp(prefix="shinobi-kernels-")
    sys.path.insert(0, scratch)
    kernels = []
    for i, path in enumerate(paths):
        shutil.copy(path, Path(scratch) / f"_compared_kernel_{i}.py")
        kernels.append(importlib.import_module(f"_compared_kernel_{i}"))
    rules = shinobi.Rules(players=players)
    seeds = game_seeds(1, games)
    per_game = np.ascontiguousarray(bot_seeds(seeds, list(range(players))))
    troop = np.array(rules.troop_deck, np.int64)

    def run(kernel: Any) -> tuple[float, Any]:
        out = _Outputs(games, rules, record=False)
        start = time.thread_time()
        kernel.simulate(players, troop, False, seeds, per_game, np.zeros(players, np.int64), out.results())
        return time.thread_time() - start, out

    first = run(kernels[0])[1]
    for kernel in kernels[1:]:
        out = run(kernel)[1]
        assert all(np.array_equal(getattr(first, f), getattr(out, f)) for f in ("winners", "scores", "turns", "decisions"))
    times: list[list[float]] = [[] for _ in kernels]
    for _ in range(rounds):
        for i, kernel in enumerate(kernels):
            times[i].append(run(kernel)[0])
    for path, mine in zip(paths, times):
        ratio = statistics.median(t0 / t for t0, t in zip(times[0], mine))
        print(f"{path}: {games / statistics.median(mine):,.0f} games/s, {ratio:.3f}x the first (median of {rounds} rounds)")
    shutil.rmtree(scratch)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Compare Shinobi simulator kernel files in one process.")
    parser.add_argument("kernels", nargs="+", help="_kernel.py files; ratios are to the first")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    compare_kernels(args.kernels, args.games, args.rounds, args.players)
