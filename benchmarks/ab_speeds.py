"""Fixed workloads of every game, timed, for A/B comparisons of two commits' speeds.

Prints one JSON object: each workload's median seconds over 5 runs after one
warm-up run, in the package that Python imports. It uses only API that old
commits have too, so the same script times both sides::

    git archive <old> src | tar -x -C /tmp/old
    for i in 1 2 3; do
        PYTHONPATH=/tmp/old/src python benchmarks/ab_speeds.py >> old.jsonl
        python benchmarks/ab_speeds.py >> new.jsonl
    done

Alternate the two sides (as above) so that a busy machine slows both alike, and
compare the medians over the processes. ``python benchmarks/ab_speeds.py TEXT``
times only the workloads whose name contains TEXT.
"""
import json
import statistics
import sys
import time

import numpy as np
import ordonnance as od
from ordonnance import shinobi, black_prince as bp

def best(f, n=5):
    f()
    ts = []
    for _ in range(n):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)

def playthrough(m, rules, games):
    def run():
        rng = np.random.default_rng(0)
        for s in range(games):
            g = m.Game.new(rules, seed=s)
            while not g.is_over:
                acts = g.legal_actions()
                g.apply(acts[int(rng.integers(len(acts)))])
    return run

def mc(m, rules, rollouts, moves=5):
    def run():
        for s in range(moves):
            g = m.Game.new(rules, seed=s)
            m.bots.MonteCarlo(seed=s, rollouts=rollouts).choose(g.view(g.current_player))
    return run

def ismcts(iterations, moves=3):
    def run():
        for s in range(moves):
            g = od.Game.new(od.Rules(), seed=s)
            od.bots.ISMCTS(seed=s, iterations=iterations).choose(g.view(g.current_player))
    return run

def batch(games, steps):
    from ordonnance.batch import Batch
    def run():
        b = Batch(games, od.Rules(), opponent="greedy", seed=1)
        rng = np.random.default_rng(0)
        for _ in range(steps):
            mask = b.legal_action_mask()
            b.step(np.argmax(mask * rng.random(mask.shape), axis=1))
    return run

cases = {
 "ordonnance simulate random 100k": lambda: od.simulate(od.Rules(), games=100_000, seed=1),
 "ordonnance simulate greedy 20k": lambda: od.simulate(od.Rules(), games=20_000, seed=1, players=[od.bots.Greedy(seed=0), od.bots.Greedy(seed=1)]),
 "shinobi simulate random 20k": lambda: shinobi.simulate(shinobi.Rules(), games=20_000, seed=1),
 "black_prince simulate random 20k": lambda: bp.simulate(bp.Rules(), games=20_000, seed=1),
 "ordonnance Game API 200 games": playthrough(od, od.Rules(), 200),
 "shinobi Game API 50 games": playthrough(shinobi, shinobi.Rules(), 50),
 "black_prince Game API 50 games": playthrough(bp, bp.Rules(), 50),
 "ordonnance MonteCarlo 5 moves x 4000": mc(od, od.Rules(), 4000),
 "shinobi MonteCarlo 5 moves x 64": mc(shinobi, shinobi.Rules(), 64),
 "black_prince MonteCarlo 5 moves x 64": mc(bp, bp.Rules(), 64),
 "ordonnance ISMCTS 3 moves x 3000": ismcts(3000),
 "ordonnance Batch 512 games x 40 steps": batch(512, 40),
}
if len(sys.argv) > 1:
    cases = {k: v for k, v in cases.items() if sys.argv[1] in k}
with np.errstate(over="ignore"):
    print(json.dumps({name: best(f) for name, f in cases.items()}))
