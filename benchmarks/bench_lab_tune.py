"""The rules tuner on a real problem: every Black Prince army matchup within 45-55%.

Greedy against Greedy, each of the 16 army pairs (mirror matches included) is a
scenario of :func:`ordonnance.lab.tune`; the target is seat 0's win rate in
0.45..0.55 in every one. The space: who starts (``first``) and, for each army,
its strongest troop card and its Battle cards, one or two copies either way.
The printed armies miss the band in most matchups (English wins 59-73% as seat 0,
French 35-38% against the others).

Run the full study (prints the table of the best variants, re-measured on fresh
seeds, and the time it took)::

    python benchmarks/bench_lab_tune.py --budget 150 --games 500 --confirm-games 5000

or the timed small case with ``python -m pytest benchmarks/bench_lab_tune.py --benchmark-only``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ordonnance import black_prince as bp
from ordonnance.black_prince.cards import ARMIES
from ordonnance.lab.space import Space
from ordonnance.lab.tuner import Tuned, target, tune

#: Each army's cards the space may add or remove: its strongest troops and its Battle cards.
CARDS = (
    "French:Knights 3", "French:Battle", "English:Archers 3", "English:Battle",
    "Burgundian:Knights 3", "Burgundian:Battle", "Scottish:Pikemen 3", "Scottish:Battle",
)  # fmt: skip


def study(budget: int, games: int, confirm_games: int, seed: int, progress: bool) -> Tuned:
    """The matchup study (see the module documentation)."""
    start = bp.Rules()
    space = Space.of(start, options=("first",), cards=CARDS, spread=2)
    scenarios = {f"{a} v {b}": {"armies": (a, b)} for a in ARMIES for b in ARMIES}
    return tune(
        start, targets=[target("win rate", 0.45, 0.55, seat=0)], space=space, budget=budget, games=games,
        confirm_games=confirm_games, keep=3, seed=seed, players=[bp.bots.Greedy(seed=0), bp.bots.Greedy(seed=1)],
        scenarios=scenarios, progress=progress,
    )  # fmt: skip


def report(tuned: Tuned) -> str:
    """Each re-measured variant: its changes, misses, and seat 0's win rate in each matchup."""
    lines = []
    for rank, variant in enumerate(tuned.variants):
        inside = sum(
            0.45 <= tuned.get("win rate", variant=rank, scenario=name, seat=0).value <= 0.55 for name in variant.studies
        )
        lines.append(
            f"#{rank} {variant.changes or '(the printed rules)'}: distance {variant.distance}, miss {variant.miss:.3f}, "
            f"{inside} of {len(variant.studies)} matchups in 45-55%"
        )
        for name in variant.studies:
            e = tuned.get("win rate", variant=rank, scenario=name, seat=0)
            lines.append(f"    {name:<26} {e.value:6.1%}  ({e.low:.1%} .. {e.high:.1%})")
    return "\n".join(lines)


def test_tune_black_prince_matchups(benchmark: Any) -> None:
    """A small run: 10 trials of 16 matchups of 200 games, 2 variants re-measured on 1,000 games each."""
    tuned = benchmark.pedantic(lambda: study(10, 200, 1000, 1, False), rounds=1, iterations=1)
    benchmark.extra_info["items"] = 10 * 16 * 200 + len(tuned.variants) * 16 * 1000
    assert tuned.variants


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=150)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--confirm-games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    tuned = study(args.budget, args.games, args.confirm_games, args.seed, True)
    print(report(tuned))
    print(f"\n{len(tuned.arrays['score'])} trials in {time.perf_counter() - began:.0f} s; record:\n{tuned.record.text()}")


if __name__ == "__main__":
    main()
