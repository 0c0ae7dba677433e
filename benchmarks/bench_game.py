"""The game engine through its public API: decisions per second, and the claim check.

Full random games (``legal_actions`` then ``apply``) for 2 and 4 players, with
and without auto-claims; and ``Game.can_claim`` on a hard position against the
brute-force claim check of the tests.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import ordonnance as od
from conftest import items
from tests import naive, naive_completion
from tests.positions import position

GAMES = 20


def play_random_games(rules: od.Rules, games: int = GAMES) -> int:
    """Play ``games`` random games through the public API; returns the decisions made."""
    rng = random.Random(0)
    decisions = 0
    for seed in range(games):
        game = od.Game.new(rules, seed=seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
    return decisions


@pytest.mark.benchmark(group="game: decisions through the public API")
@pytest.mark.parametrize(
    "rules",
    [od.Rules(), od.Rules(auto_claim=True), od.Rules(players=4), od.Rules(scoring="points")],
    ids=["2p", "2p-auto_claim", "4p", "2p-points"],
)
def test_random_game_decisions(benchmark: Any, rules: od.Rules) -> None:
    od.warm_up()
    play_random_games(rules, 1)
    items(benchmark, play_random_games(rules))
    benchmark.pedantic(play_random_games, args=(rules,), rounds=5, iterations=1)


@pytest.fixture(scope="module")
def hard_claim() -> od.Game:
    """Player 0 holds a strong complete army in Cyprus; player 1 has nothing there yet
    and 40 cards are unseen."""
    deck = list(od.standard_deck())
    army = ["LBSHF", "LBSH", "LBSF", "LBHF"]
    for card in army:
        deck.remove(od.Card.parse(card))
    rest = [str(c) for c in deck]
    random.Random(1).shuffle(rest)
    return position(
        {od.Territory.CYPRUS: [" ".join(army), ""], od.Territory.JERUSALEM: ["", ""]},
        hands=[" ".join(rest[:5]), " ".join(rest[5:10])],
        deck=" ".join(rest[10:40]),
    )


def brute_force_can_claim(game: od.Game, claimant: int, territory: od.Territory) -> bool:
    armies = [[c.mask for c in game.army(territory, p)] for p in range(game.players)]
    done = [game.completed_at(territory, p) for p in range(game.players)]
    pool = Counter({c.mask: n for c, n in game.unseen().items()})
    return naive.can_claim(armies, done, claimant, lambda partial: naive_completion.best_strength(partial, pool))


@pytest.mark.benchmark(group="game: can_claim, empty opponent army, 40 unseen cards")
def test_can_claim(benchmark: Any, hard_claim: od.Game) -> None:
    expected = brute_force_can_claim(hard_claim, 0, od.Territory.CYPRUS)
    assert hard_claim.can_claim(0, od.Territory.CYPRUS) == expected
    items(benchmark, 1, subject=True)
    benchmark(hard_claim.can_claim, 0, od.Territory.CYPRUS)


@pytest.mark.benchmark(group="game: can_claim, empty opponent army, 40 unseen cards")
def test_can_claim_brute_force(benchmark: Any, hard_claim: od.Game) -> None:
    items(benchmark, 1)
    benchmark.pedantic(brute_force_can_claim, args=(hard_claim, 0, od.Territory.CYPRUS), rounds=3, iterations=1)
