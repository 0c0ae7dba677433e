"""Black Prince: simulator throughput, bot decision times, batched env steps, and (as a script) bot
strength and army balance.

Benchmarks (pytest-benchmark)::

    python -m pytest benchmarks/bench_black_prince.py --benchmark-only

The batched games alone, on one core (``VectorEnv(4096)`` env steps beside ``simulate``'s
decisions and the single env's steps, in one run; needs the "rl" extra)::

    python -m pytest benchmarks/bench_black_prince.py -k "vector or decisions_beside or single_agent" \
        --benchmark-only --benchmark-timer time.thread_time

An env step is one learner action in one env (then the kernel bot's turn), with the
float32 box observation and the legal-action mask of every env computed: a round
times ``VectorEnv.step`` and ``VectorEnv.action_masks`` for all 4096 envs, while the
learner's random legal actions are drawn in the untimed setup.

The figures of the docs, as a script::

    python benchmarks/bench_black_prince.py strength --games 1000   # MonteCarlo vs Greedy, Greedy vs Random
    python benchmarks/bench_black_prince.py balance --games 100000  # every pairing, both seats
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from typing import Any

import numpy as np
import pytest

from conftest import items, of_target
from ordonnance import black_prince as bp
from ordonnance.simulation import _wilson as wilson

PAIRINGS = list(itertools.permutations(bp.ARMIES, 2))
GAMES = 100_000
PYTHON_GAMES = 50


def python_games(games: int = PYTHON_GAMES) -> None:
    """The alternative: the same bots through the Game API, one decision at a time."""
    for seed in range(games):
        game = bp.Game.new(bp.Rules(), seed=seed)
        bots = [bp.Random(seed=2 * seed), bp.Random(seed=2 * seed + 1)]
        while not game.is_over:
            seat = game.current_player
            game.apply(bots[seat].choose(game.view(seat)))


@pytest.mark.benchmark(group="black_prince simulate: random vs random")
def test_simulate_random(benchmark: Any) -> None:
    bp.simulate(bp.Rules(), games=10)  # compile outside the timing
    items(benchmark, GAMES, subject=True)
    benchmark.pedantic(bp.simulate, args=(bp.Rules(),), kwargs={"games": GAMES, "seed": 1}, rounds=5, iterations=1)


@pytest.mark.benchmark(group="black_prince simulate: random vs random")
def test_game_api_with_python_bots(benchmark: Any) -> None:
    items(benchmark, PYTHON_GAMES)
    benchmark.pedantic(python_games, rounds=3, iterations=1)


@pytest.mark.benchmark(group="black_prince simulate: greedy vs greedy")
def test_simulate_greedy(benchmark: Any) -> None:
    players = [bp.Greedy(seed=1), bp.Greedy(seed=2)]
    bp.simulate(bp.Rules(), games=10, players=players)
    items(benchmark, 20_000, subject=True)
    benchmark.pedantic(bp.simulate, args=(bp.Rules(),), kwargs={"games": 20_000, "players": players},
                       rounds=3, iterations=1)  # fmt: skip


def _opening_views(count: int) -> list[bp.PlayerView]:
    views = []
    for seed in range(count):
        game = bp.Game.new(bp.Rules(armies=PAIRINGS[seed % len(PAIRINGS)]), seed=seed)
        bots = [bp.Greedy(seed=seed), bp.Greedy(seed=seed + 1)]
        for _ in range(seed % 9):
            if game.is_over:
                break
            game.apply(bots[game.current_player].choose(game.view(game.current_player)))
        if not game.is_over:
            views.append(game.view(game.current_player))
    return views


@pytest.mark.benchmark(group="black_prince decisions")
def test_montecarlo_decision(benchmark: Any) -> None:
    views = _opening_views(20)
    bot = bp.MonteCarlo(seed=1)
    bot.choose(views[0])
    items(benchmark, len(views), subject=True)
    benchmark.pedantic(lambda: [bot.choose(v) for v in views], rounds=3, iterations=1)


@pytest.mark.benchmark(group="black_prince decisions")
def test_greedy_decision(benchmark: Any) -> None:
    views = _opening_views(20)
    bot = bp.Greedy(seed=1)
    items(benchmark, len(views))
    benchmark.pedantic(lambda: [bot.choose(v) for v in views], rounds=3, iterations=1)


# ---------------------------------------------------------------- batched games

VECTOR_ENVS = 4096
VECTOR_ROUNDS = 100
#: Issue 35's target, env steps a second on one core, VectorEnv(4096, opponent="random"), box observations.
VECTOR_TARGET = 150_000
VECTOR_GROUP = "black_prince batch: env steps (learner actions) per second, default rules"


def _vector_round(env: Any) -> Any:
    """The untimed setup of a round: random legal actions from the current masks."""
    masks = env.action_masks()
    return (np.argmax(np.where(masks, env._bench_rng.random(masks.shape), -1.0), axis=1),), {}


def _timed_step(env: Any) -> Any:
    def step(actions: Any) -> None:
        env.step(actions)
        env.action_masks()

    return step


@pytest.mark.parametrize("opponent", ["random", "greedy", "self"])
def test_vector_env(benchmark: Any, opponent: str) -> None:
    pytest.importorskip("gymnasium")
    from ordonnance.black_prince.pettingzoo import VectorEnv

    benchmark.group = VECTOR_GROUP
    env = VectorEnv(VECTOR_ENVS, bp.Rules(), opponent=opponent, observation="box")  # type: ignore[arg-type]
    env.reset(seed=1)
    env._bench_rng = np.random.default_rng(0)  # type: ignore[attr-defined]
    for _ in range(3):  # compile and warm up outside the timing
        args, _ = _vector_round(env)
        _timed_step(env)(*args)
    items(benchmark, VECTOR_ENVS, subject=opponent == "random")
    benchmark.pedantic(_timed_step(env), setup=lambda: _vector_round(env), rounds=VECTOR_ROUNDS, iterations=1)
    if opponent == "random":
        of_target(benchmark, f"VectorEnv({VECTOR_ENVS}, opponent='random')", VECTOR_TARGET)


def test_simulate_decisions_beside_the_batch(benchmark: Any) -> None:
    """The simulator's decisions per second (the kernel's speed limit), Random bots."""
    benchmark.group = VECTOR_GROUP
    bp.simulate(bp.Rules(), games=10)
    decisions = int(bp.simulate(bp.Rules(), games=GAMES, seed=1).decisions.sum())
    items(benchmark, decisions)
    benchmark.pedantic(bp.simulate, args=(bp.Rules(),), kwargs={"games": GAMES, "seed": 1}, rounds=5, iterations=1)


def test_single_agent_env(benchmark: Any) -> None:
    """pettingzoo.SingleAgentEnv against Random, box observations: the env a VectorEnv replaces."""
    pytest.importorskip("gymnasium")
    from ordonnance.black_prince.pettingzoo import SingleAgentEnv

    benchmark.group = VECTOR_GROUP
    env = SingleAgentEnv(opponent="random", observation="box")
    env.reset(seed=1)
    priorities = np.random.default_rng(0).random((64, env.action_space.n))  # type: ignore[attr-defined]
    steps = 2000

    def run() -> None:
        for i in range(steps):  # a random legal action: the argmax of the mask times a random row
            _, _, terminated, truncated, _ = env.step(int(np.argmax(env.action_masks() * priorities[i & 63])))
            if terminated or truncated:
                env.reset()

    run()
    items(benchmark, steps)
    benchmark.pedantic(run, rounds=3, iterations=1)


# ---------------------------------------------------------------- script: strength and balance


def match(tested: bp.Bot, other: bp.Bot, games: int, seed: int) -> tuple[float, list[float], list[float]]:
    """``tested`` against ``other`` over ``games`` games, armies and seats balanced (game i plays
    pairing i % 12, ``tested`` in seat (i // 12) % 2); returns its score (wins + draws / 2) per game
    and its decision times in seconds, wall-clock and of this process's CPU (after a warm-up
    decision, so that compiling or loading the kernel is not counted)."""
    tested.choose(bp.Game.new(bp.Rules(), seed=0).view(0))
    points = 0.0
    times: list[float] = []
    cpu: list[float] = []
    for i in range(games):
        seat = (i // len(PAIRINGS)) % 2
        game = bp.Game.new(bp.Rules(armies=PAIRINGS[i % len(PAIRINGS)]), seed=seed + i)
        bots = [tested, other] if seat == 0 else [other, tested]
        while not game.is_over:
            p = game.current_player
            start, start_cpu = time.perf_counter(), time.process_time()
            action = bots[p].choose(game.view(p))
            if p == seat:
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            game.apply(action)
        points += 1.0 if game.winner == seat else 0.5 if game.winner is None else 0.0
    return points / games, times, cpu


def kernel_match(tested: bp.Bot, other: bp.Bot, games: int, seed: int) -> float:
    """As :func:`match` for kernel bots, through simulate (a chunk per pairing and seat)."""
    points = 0.0
    per = games // (2 * len(PAIRINGS))
    for k, armies in enumerate(PAIRINGS):
        for seat in (0, 1):
            bots = [tested, other] if seat == 0 else [other, tested]
            res = bp.simulate(bp.Rules(armies=armies), games=per, seed=seed + 2 * k + seat, players=bots)
            points += float(np.count_nonzero(res.winner == seat)) + 0.5 * float(np.count_nonzero(res.winner < 0))
    return points / (per * 2 * len(PAIRINGS))


def _interval(rate: float, games: int) -> str:
    low, high = wilson(rate * games, games)
    return f"95% interval {low:.1%}-{high:.1%}"


def strength(games: int, rollouts: int, work: int) -> None:
    rate = kernel_match(bp.Greedy(seed=1), bp.Random(seed=2), games, seed=1)
    print(f"Greedy vs Random, {games:,} games, seats and armies balanced: Greedy scores {rate:.1%} "
          f"({_interval(rate, games)})")  # fmt: skip
    rate, times, cpu = match(bp.MonteCarlo(seed=3, rollouts=rollouts, work=work), bp.Greedy(seed=4), games, seed=10_000)
    print(f"MonteCarlo ({rollouts} rollouts, work {work:,}) vs Greedy, {games:,} games, seats and armies balanced: "
          f"MonteCarlo scores {rate:.1%} ({_interval(rate, games)})")  # fmt: skip
    for name, values in (("wall-clock", times), ("CPU", cpu)):
        ms = sorted(t * 1000 for t in values)
        print(f"  MonteCarlo decision ({name}): median {statistics.median(ms):.1f} ms, 95th percentile "
              f"{ms[int(0.95 * len(ms))]:.1f} ms, 99th {ms[int(0.99 * len(ms))]:.1f} ms, max {ms[-1]:.1f} ms "
              f"over {len(ms):,} decisions")  # fmt: skip


def balance(games: int, bot: str) -> None:
    """Each ordered pairing of armies (seat 0 vs seat 1): seat 0's win rate, ``games`` games each."""
    make = bp.Greedy if bot == "greedy" else bp.Random
    print(f"{games:,} games per pairing, {bot} vs {bot}; cell: seat 0's wins / draws")
    armies = list(bp.ARMIES)
    print("seat 0 \\ seat 1 | " + " | ".join(armies))
    for a in armies:
        row = []
        for b in armies:
            if a == b:
                row.append("-")
                continue
            res = bp.simulate(bp.Rules(armies=(a, b)), games=games, seed=1, players=[make(seed=1), make(seed=2)])
            s = res.summary()
            row.append(f"{s.win_rate[0]:.1%} / {s.draw_rate:.1%}")
        print(f"{a} | " + " | ".join(row))
        sys.stdout.flush()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["strength", "balance"])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bot", choices=["random", "greedy"], default="greedy")
    parser.add_argument("--rollouts", type=int, default=bp.MonteCarlo(seed=0).rollouts)
    parser.add_argument("--work", type=int, default=bp.MonteCarlo(seed=0).work)
    args = parser.parse_args()
    strength(args.games, args.rollouts, args.work) if args.what == "strength" else balance(args.games, args.bot)
