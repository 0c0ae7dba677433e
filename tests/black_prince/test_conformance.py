"""Random games of every pairing with the invariants checked after every step.

ORDONNANCE_CONFORMANCE_GAMES scales the run (default 1,000 games, the first
few of each pairing with the deep checks: JSON, clones, refusals, view leaks).
"""

from __future__ import annotations

import itertools
import os

import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince.conformance import ConformanceError, check_invariants, random_playthrough

PAIRINGS = list(itertools.permutations(bp.ARMIES, 2))
GAMES = int(os.environ.get("ORDONNANCE_CONFORMANCE_GAMES", "1000"))
DEEP = 2


@pytest.mark.parametrize("armies", PAIRINGS, ids="-".join)
def test_random_games_keep_every_invariant(armies: tuple[str, str]) -> None:
    for seed in range(max(1, GAMES // len(PAIRINGS))):
        rules = bp.Rules(armies=armies, first="coin" if seed % 2 else "seat0")
        game = random_playthrough(rules, seed=seed, deep=seed < DEEP)
        assert game.is_over and (game.winner is None or max(game.routed) >= 0)


def test_custom_decks_and_tables_play_to_the_end_too() -> None:
    rules = [
        bp.Rules(decks=(["Knights 3"] * 6 + ["Battle"], ["Pikemen 1"] * 12)),
        bp.Rules(decks=(["Archers 1", "Light cavalry 2"] * 10, ["Swordsmen 2", "Halberdiers 3"] * 10),
                 advantages={}),
        bp.Rules(decks=([bp.Card("Archers", 1, advantages=list(bp.TroopType))] * 8, bp.deck("English"))),
    ]  # fmt: skip
    for seed, r in enumerate(rules):
        random_playthrough(r, seed=seed)


def test_the_harness_catches_a_broken_engine() -> None:
    game = bp.Game.new(bp.Rules(), seed=1)
    game._hands[1].append(game._decks[1].pop())  # a seventh card
    with pytest.raises(ConformanceError, match="at most 6"):
        check_invariants(game, deep=False)
    other = bp.Game.new(bp.Rules(), seed=1)
    other._cells[2][0] = bp.Card("Knights", 3)  # a card from nowhere
    with pytest.raises(ConformanceError, match="exactly its deck"):
        check_invariants(other, deep=False)


def test_a_policy_that_cheats_is_caught() -> None:
    with pytest.raises(ConformanceError, match="illegal action"):
        random_playthrough(bp.Rules(), seed=1, policy=lambda view: bp.EndBattle())
