"""ISMCTS's rollout policies played as bots on their own, on the kernel, against Greedy (or each other).

Each of 40 starting positions (``Game.new(Rules(players=n), seed=g).view(0)``,
g = 0..39) is dealt 250 times (the kernel's determinization, seeded g + 1)
and every deal is played once with the policy in each seat, the other seats
held by the opponent: duplicate, ``40 * 250 * n`` games. Policies: ``greedy``
(the kernel Greedy), ``potential`` (``_ismcts.planner_action``), ``odds``
(``_ismcts_model.odds_action``)::

    python benchmarks/duel_rollout_policies.py odds greedy
    python benchmarks/duel_rollout_policies.py potential greedy --players 3
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
import numpy.typing as npt

import ordonnance as od
from ordonnance import _ismcts, _ismcts_model
from ordonnance import _simulator_kernel as kernel
from ordonnance._bridge import Position, setup_of
from ordonnance._montecarlo import determinize

POLICIES = {"greedy": -1, "potential": 0, "odds": 1}
_GAMMA = np.uint64(0x9E3779B97F4A7C15)


@numba.njit
def _action(cfg: kernel.Config, s: kernel.State, kind: int, odds: _ismcts_model.Odds, scratch: npt.NDArray[np.int64]) -> int:
    if kind < 0:
        return kernel.bot_action(cfg, s, 0, scratch)
    return _ismcts.planned(cfg, s, kind, odds, scratch)


@numba.njit
def duel(cfg: kernel.Config, pos: Position, seed: np.uint64, deals: int, kind: int, other: int,
         odds: _ismcts_model.Odds) -> int:  # fmt: skip
    """Wins of policy ``kind`` in ``deals`` deals of ``pos``, each played with it in every seat."""
    n = cfg.n
    deal = np.empty(pos.pool.shape[0], np.int64)
    scores = np.zeros(n, np.int64)
    wins = 0
    for j in range(deals):
        determinize(n, pos, seed ^ (np.uint64(j) * _GAMMA), deal)
        for seat in range(n):
            kernel.copy_game(pos.dealt, 0, pos.work, 0)
            s = pos.work
            while not s.board[0, kernel.OVER]:
                p = s.board[0, kernel.CURRENT]
                kernel.apply_action(cfg, s, 0, _action(cfg, s, kind if p == seat else other, odds, pos.scratch), pos.scratch)
            wins += kernel.outcome(cfg, s, 0, scores, pos.scratch) == seat
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", choices=sorted(POLICIES))
    parser.add_argument("opponent", choices=sorted(POLICIES))
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    odds = _ismcts_model.tables()
    wins = games = 0
    start = time.process_time()
    with np.errstate(over="ignore"):
        for g in range(40):
            setup = setup_of(od.Game.new(od.Rules(players=args.players), seed=g).view(0), "greedy")
            wins += duel(setup.cfg, setup.position, np.uint64(g + 1), 250, POLICIES[args.policy], POLICIES[args.opponent], odds)
            games += 250 * args.players
    print(f"{args.policy} vs {args.opponent} ({args.players} players): won {wins}/{games} = {wins / games:.1%} "
          f"(baseline {1 / args.players:.0%}); {time.process_time() - start:.0f} s CPU with the compile")  # fmt: skip


if __name__ == "__main__":
    main()
