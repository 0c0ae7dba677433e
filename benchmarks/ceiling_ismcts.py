"""A ceiling for ISMCTS against Greedy: the same search told the true deal (an experiment, not a bot).

The cheating search is :class:`ordonnance.bots.ISMCTS` with its
determinization replaced by one that deals the *true* hidden cards: the
other seats' real hands and the real draw pile in its real order, in every
iteration (so the search is perfect-information Monte-Carlo tree search on
the real game; the rollouts' ties stay random draws of the policies).
With ``--know hand`` it is told the other seats' real hands only: the draw
pile is shuffled afresh in every iteration, as the honest search does, so
the two ceilings part what the hands are worth from what the pile's order is.
Nothing of the library changes: a copy of ``_ismcts.iterate_halving`` is
compiled (uncached) against that determinizer, and a wrapper of
``setup_of`` writes the true cards of the game being played into the
position's start.
The matches are those of ``bench_ismcts.py`` (the same duplicate deals and
bot seeds), with an iteration budget::

    python benchmarks/ceiling_ismcts.py --games 400 --budget 300 --first-deal 0
    python benchmarks/ceiling_ismcts.py --games 400 --budget 300 --honest   # the same loop, not cheating
    python benchmarks/ceiling_ismcts.py --games 400 --budget 300 --know hand  # the other hands, not the pile

``--oracle B`` plays honestly, then each lost game again with the search
told the true deal at ``B`` iterations (``--oracle-option`` for its
settings): how many of the honest search's losses could be won at all::

    python benchmarks/ceiling_ismcts.py --games 400 --budget 2000 --oracle 20000 --oracle-option rollout_policy=mixed
    python benchmarks/ceiling_ismcts.py --games 400 --budget 2000 --oracle 2000 --oracle-honest --oracle-seed 777  # a control
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import types
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

import ordonnance as od
from ordonnance import _ismcts
from ordonnance import _simulator_kernel as kernel
from ordonnance._bridge import Position, Setup, setup_of
from ordonnance._montecarlo import determinize
from ordonnance.simulation import _wilson, bot_seeds, game_seeds

sys.path.insert(0, os.path.dirname(__file__))
from bench_ismcts import _ISMCTS_SEED, _OPPONENT_SEED, DEAL_SEED, parse_options  # noqa: E402

_TRUE: list[od.Game] = []  # the game being played (set before each decision of the cheating bot)


@numba.njit
def true_deal(n: int, pos: Position, state: np.uint64, deal: npt.NDArray[np.int64]) -> np.uint64:
    """determinize, then the board of ``pos.start`` again: it holds the true hands and draw pile
    (:func:`_true_setup`); the bots' seeds stay those determinize drew."""
    state = determinize(n, pos, state, deal)
    for k in range(pos.start.board.shape[1]):
        pos.dealt.board[0, k] = pos.start.board[0, k]
    return state


@numba.njit
def hand_deal(n: int, pos: Position, state: np.uint64, deal: npt.NDArray[np.int64]) -> np.uint64:
    """determinize over the draw pile only (:func:`_hand_setup` leaves the hands out of the pool and
    their sizes at 0), then the other seats' true hands from ``pos.start`` again."""
    state = determinize(n, pos, state, deal)
    for q in range(n):
        if q != pos.me:
            pos.dealt.board[0, kernel.HAND + q] = pos.start.board[0, kernel.HAND + q]
    return state


def _write_true_hands(view: od.PlayerView, setup: Setup) -> list[int]:
    """Write the other seats' true hands (of the game being played) into ``setup``'s start; returns
    their cards."""
    game, row = _TRUE[-1], setup.position.start.board[0]
    hidden: list[int] = []
    for q in range(view.rules.players):
        if q != view.seat:
            row[kernel.HAND + q] = kernel.pack(np.array(game._hands[q], np.int64))
            hidden += game._hands[q]
    return hidden


def _hand_setup(view: od.PlayerView, rollout_policy: str) -> Setup:
    setup = setup_of(view, rollout_policy)
    pos, pool = setup.position, setup.position.pool.tolist()
    for m in _write_true_hands(view, setup):
        pool.remove(m)
    for q in range(view.rules.players):
        if q != view.seat:
            pos.sizes[q] = 0
    assert sorted(pool) == sorted(_TRUE[-1]._deck), "the pool left is not the draw pile"
    return Setup(cfg=setup.cfg, position=pos._replace(pool=np.array(pool, np.int64)), max_score=setup.max_score)


def _true_setup(view: od.PlayerView, rollout_policy: str) -> Setup:
    setup = setup_of(view, rollout_policy)
    hidden = _write_true_hands(view, setup)
    deck = _TRUE[-1]._deck[::-1]  # the top card first, as the kernel's ORDER
    assert sorted(deck + hidden) == sorted(setup.position.pool.tolist()), "the true cards are not the unseen ones"
    setup.position.start.board[0, kernel.ORDER : kernel.ORDER + len(deck)] = deck
    return setup


#: What the cheating search can be told: its determinizer and the setup that writes the true cards.
KNOWS = {"deal": (true_deal, _true_setup), "hand": (hand_deal, _hand_setup)}


def cheat(know: str = "deal") -> None:
    """Make every ISMCTS search of this process see the true deal, or with ``know="hand"`` the other
    hands only (the draw pile still shuffled in every iteration; see the module docs)."""
    determinizer, setup = KNOWS[know]
    f = _ismcts.iterate_halving.py_func
    glob = dict(f.__globals__, determinize=determinizer)
    _ismcts.iterate_halving = numba.njit(types.FunctionType(f.__code__, glob, f.__name__, f.__defaults__))
    _ismcts.setup_of = setup


def one_game(deal: int, seat: int, budget: int, options: dict[str, Any], own_seed: int = _ISMCTS_SEED) -> bool:
    """Whether ISMCTS (iterations ``budget``, own seed ``own_seed``) in ``seat`` beats Greedy on ``deal``
    (bench_ismcts's bot seeds by default)."""
    own = [_OPPONENT_SEED] * 2
    own[seat] = own_seed
    seeds = bot_seeds(np.array([deal], np.uint64), own)[0].tolist()
    bots: list[od.bots.Bot] = [od.bots.Greedy(seed=int(seeds[p])) for p in range(2)]
    bots[seat] = od.bots.ISMCTS(seed=int(seeds[seat]), iterations=budget, **options)
    game = od.Game.new(od.Rules(players=2), seed=deal)
    while not game.is_over:
        _TRUE[:] = [game]
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    return game.winner == seat


def play(games: int, budget: int, first: int, options: dict[str, Any]) -> dict[str, Any]:
    """ISMCTS (iterations ``budget``) against Greedy, deals ``first ..``, each in both seats."""
    start = time.perf_counter()
    deals = game_seeds(DEAL_SEED, first + games // 2)[first:]
    lost = [(first + i, seat) for i, deal in enumerate(deals.tolist()) for seat in range(2) if not one_game(deal, seat, budget, options)]
    played = 2 * len(deals)
    wins = played - len(lost)
    low, high = _wilson(wins, played)
    return {"games": played, "wins": wins, "win_rate": wins / played, "ci95": (low, high), "lost": lost,
            "budget": budget, "first_deal": first, "options": options, "seconds": time.perf_counter() - start}  # fmt: skip


def oracle(lost: list[tuple[int, int]], budget: int, options: dict[str, Any], own_seed: int) -> dict[str, Any]:
    """The games ``lost`` (deal index, seat) played again (by the search told the true deal once cheat() ran)."""
    seeds = game_seeds(DEAL_SEED, 1 + max((d for d, _ in lost), default=0)).tolist()
    won = [(d, seat) for d, seat in lost if one_game(seeds[d], seat, budget, options, own_seed)]
    return {"oracle_budget": budget, "oracle_options": options, "oracle_seed": own_seed, "oracle_won": won, "oracle_wins": len(won)}


def main() -> None:
    parser = argparse.ArgumentParser(description="ISMCTS told the true deal, against Greedy")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--honest", action="store_true", help="do not cheat (the same loop, as bench_ismcts.py)")
    parser.add_argument("--know", choices=tuple(KNOWS), default="deal",
                        help="what the cheating search is told: the whole deal, or the other hands only")
    parser.add_argument("--option", action="append", default=[], help="ISMCTS keyword=value (a number or a word)")
    parser.add_argument("--oracle", type=int, default=0, metavar="B",
                        help="play honestly, then the lost games again told the true deal at B iterations")
    parser.add_argument("--oracle-option", action="append", default=[], help="the oracle's ISMCTS keyword=value")
    parser.add_argument("--oracle-honest", action="store_true", help="the lost games again without the true deal (a control)")
    parser.add_argument("--oracle-seed", type=int, default=_ISMCTS_SEED, help="ISMCTS's own seed in the games played again")
    args = parser.parse_args()
    options = parse_options(args.option)
    if not args.honest and not args.oracle:
        cheat(args.know)
    figures = play(args.games, args.budget, args.first_deal, options)
    figures["cheat"] = not args.honest and not args.oracle
    figures["know"] = args.know if figures["cheat"] else None
    if args.oracle:
        if not args.oracle_honest:
            cheat()
        figures.update(oracle(figures["lost"], args.oracle, parse_options(args.oracle_option), args.oracle_seed))
        figures["oracle_cheat"] = not args.oracle_honest
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
