"""CPU time of ISMCTS searches at fixed positions, and a fingerprint of their results.

27 positions (2, 3 and 4 players; deals 11-13; the first decision, and the
decision after 10 and 20 Greedy plays), each searched by
``ISMCTS(seed=5, iterations=N)``; prints the searches' summed CPU time
(``time.thread_time``) and a hash of every search's action, values and
visits, so that two checkouts can be compared for speed and for identical
results. A/B against another checkout, alternated::

    for r in 1 2 3; do
      NUMBA_CACHE_DIR=/tmp/numba-base PYTHONPATH=/path/to/base/src python benchmarks/ismcts_iteration_cost.py 1000
      PYTHONPATH=src python benchmarks/ismcts_iteration_cost.py 1000
    done
"""

from __future__ import annotations

import hashlib
import json
import sys
import time

import ordonnance as od


def positions() -> dict[str, od.PlayerView]:
    """The 27 positions (see the module docs)."""
    found = {}
    for players in (2, 3, 4):
        for seed in (11, 12, 13):
            game = od.Game.new(od.Rules(players=players), seed=seed)
            found[f"{players}p s{seed} start"] = game.view(0)
            bots = [od.bots.Greedy(seed=s) for s in range(players)]
            for k in range(20):
                p = game.current_player
                game.apply(bots[p].choose(game.view(p)))
                if k in (9, 19) and not game.is_over:
                    found[f"{players}p s{seed} after {k + 1}"] = game.view(game.current_player)
    return found


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    views = positions()
    od.bots.ISMCTS(seed=0, iterations=8).choose(views["2p s11 start"])  # load the kernels and tables
    digest = hashlib.sha256()
    seconds = 0.0
    for name, view in views.items():
        bot = od.bots.ISMCTS(seed=5, iterations=iterations)
        start = time.thread_time()
        found = bot.search(view)
        seconds += time.thread_time() - start
        digest.update(repr((name, str(found.action), found.values, found.rollouts)).encode())
    print(json.dumps({"iterations": iterations, "positions": len(views), "seconds": seconds,
                      "us_per_iteration": 1e6 * seconds / (iterations * len(views)),
                      "fingerprint": digest.hexdigest()[:16]}))  # fmt: skip


if __name__ == "__main__":
    main()
