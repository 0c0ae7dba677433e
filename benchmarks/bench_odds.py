"""Territory odds latency: exact enumeration against Monte-Carlo sampling.

* One typical mid-game territory (a deal after 22 greedy plays: one army of 3
  cards, the other empty; about 180,000 joint outcomes): exact, and sampled
  with 20,000 (the default) and 2,000 samples.
* The worst case: an empty territory at the start of a 2- and a 4-player game
  (far too many outcomes to enumerate: sampled by default).
* Every undecided territory of 100 mid-game positions with the default
  settings (exact up to 200,000 outcomes, else 20,000 samples), as a UI
  would call it, through a ``Game`` and through a ``PlayerView``.
* A small position against the brute force of the tests (every deal).

Run with::

    python -m pytest benchmarks/bench_odds.py --benchmark-only
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import ordonnance as od
from conftest import items
from ordonnance.odds import territory_odds
from tests import naive_odds
from tests.positions import position


def midgame(seed: int, plays: int, players: int = 2) -> od.Game:
    game = od.Game.new(od.Rules(players=players), seed=seed)
    bots = [od.bots.Greedy(seed=seed + s) for s in range(players)]
    for _ in range(plays):
        if game.is_over:
            break
        p = game.current_player
        game.apply(bots[p].choose(game.view(p)))
    return game


TYPICAL = (midgame(0, 22), od.Territory.JERUSALEM)


def test_typical_outcomes() -> None:
    game, t = TYPICAL
    odds = territory_odds(game, t, max_exact=10**9)
    assert 100_000 < odds.outcomes < 200_000
    sampled = territory_odds(game, t, max_exact=0)
    assert abs(sampled.probabilities[0] - odds.probabilities[0]) < 5 * sampled.stderr[0]


@pytest.mark.benchmark(group="odds, one mid-game territory (~180,000 outcomes)")
def test_typical_exact(benchmark: Any) -> None:
    game, t = TYPICAL
    items(benchmark, 1, subject=True)
    territory_odds(game, t)
    odds = benchmark(territory_odds, game, t, max_exact=10**9)
    assert odds.exact


@pytest.mark.parametrize("samples", [20_000, 2_000])
@pytest.mark.benchmark(group="odds, one mid-game territory (~180,000 outcomes)")
def test_typical_sampled(benchmark: Any, samples: int) -> None:
    game, t = TYPICAL
    items(benchmark, 1, subject=True)
    territory_odds(game, t, max_exact=0, samples=samples)
    odds = benchmark(territory_odds, game, t, max_exact=0, samples=samples)
    assert not odds.exact


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.benchmark(group="odds, empty territory at the start (sampled)")
def test_start_of_game(benchmark: Any, players: int) -> None:
    game = od.Game.new(od.Rules(players=players), seed=1)
    items(benchmark, 1, subject=True)
    territory_odds(game, od.Territory.ANTIOCH)
    odds = benchmark(territory_odds, game, od.Territory.ANTIOCH)
    assert not odds.exact


def _calls() -> list[tuple[od.Game, od.Territory]]:
    calls = []
    for seed in range(100):
        game = midgame(seed, 10 + seed % 25)
        calls.extend((game, t) for t in od.Territory if not game.is_decided(t))
    return calls


CALLS = _calls()


@pytest.mark.benchmark(group="odds, every open territory of 100 mid-game positions")
def test_many_positions_game(benchmark: Any) -> None:
    items(benchmark, len(CALLS), subject=True)

    def run() -> int:
        return sum(territory_odds(game, t).exact for game, t in CALLS)

    exact = run()
    benchmark.extra_info["exact share"] = exact / len(CALLS)
    benchmark.pedantic(run, rounds=3, iterations=1)


@pytest.mark.benchmark(group="odds, every open territory of 100 mid-game positions")
def test_many_positions_view(benchmark: Any) -> None:
    views = [(game.view(game.current_player), t) for game, t in CALLS]
    items(benchmark, len(views), subject=True)

    def run() -> int:
        return sum(territory_odds(view, t).exact for view, t in views)

    exact = run()
    benchmark.extra_info["exact share"] = exact / len(views)
    benchmark.pedantic(run, rounds=3, iterations=1)


SMALL = position({od.Territory.CYPRUS: ["F", "H"]}, hands=["S", "L B"], deck="LB SH HF")


@pytest.mark.benchmark(group="odds, small position (6 cards missing, 7 unseen)")
def test_small_exact(benchmark: Any) -> None:
    items(benchmark, 1, subject=True)
    territory_odds(SMALL, od.Territory.CYPRUS)
    assert benchmark(territory_odds, SMALL, od.Territory.CYPRUS).exact


@pytest.mark.benchmark(group="odds, small position (6 cards missing, 7 unseen)")
def test_small_brute_force(benchmark: Any) -> None:
    t = od.Territory.CYPRUS
    unseen: Counter[od.Card] = SMALL.unseen()
    args = (
        [[c.mask for c in SMALL.army(t, p)] for p in range(2)],
        [None, None],
        SMALL.current_player,
        [c.mask for c, k in unseen.items() for _ in range(k)],
    )
    items(benchmark, 1)
    expected = benchmark.pedantic(naive_odds.odds, args=args, rounds=3, iterations=1)
    got = territory_odds(SMALL, t).probabilities
    assert got == pytest.approx([float(x) for x in expected])
