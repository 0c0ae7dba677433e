"""Thousands of random games, 2-4 players, every variant, invariants after every step.

ORDONNANCE_CONFORMANCE_GAMES scales the shallow run (default 1,000 games);
the deep checks (JSON round trip, clone, views and their leak test) run on a
smaller set because each costs a few milliseconds per step.
"""

from __future__ import annotations

import itertools
import os

import pytest

import ordonnance as od
from ordonnance import Rules
from ordonnance.conformance import ConformanceError, check_invariants, random_playthrough

VARIANTS = [
    Rules(players=players, scoring=scoring, tie_break=tie_break, claim_proof=proof, auto_claim=auto)
    for players, scoring, tie_break, proof, auto in itertools.product(
        (2, 3, 4), ("territories", "points"), ("latest_capture", "lowest_marker_sum"),
        ("public", "private"), (False, True),
    )  # fmt: skip
    if scoring == "territories" or (proof == "public" and not auto)
]
SHALLOW_GAMES = int(os.environ.get("ORDONNANCE_CONFORMANCE_GAMES", "1000"))
DEEP_GAMES_PER_VARIANT = 3


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.scoring}-{r.tie_break}-{r.claim_proof}-{'auto' if r.auto_claim else 'manual'}")
def test_random_games_keep_every_invariant(rules: Rules) -> None:
    per_variant = max(1, SHALLOW_GAMES // len(VARIANTS))
    for seed in range(per_variant):
        game = random_playthrough(rules, seed=seed, deep=seed < DEEP_GAMES_PER_VARIANT)
        assert game.is_over


def test_custom_decks_play_to_the_end_too() -> None:
    decks = [["LBSHF"] * 40, ["L"] * 30 + ["F"] * 10, list(od.standard_deck())[:44]]
    for seed, deck in enumerate(decks):
        for auto in (False, True):
            random_playthrough(Rules(deck=deck, auto_claim=auto), seed=seed)


def test_the_harness_catches_a_broken_engine() -> None:
    game = od.Game.new(Rules(), seed=1)
    game._marker[2] = 3  # white-box corruption: a marker on an undecided territory
    with pytest.raises(ConformanceError, match="marker"):
        check_invariants(game)
    other = od.Game.new(Rules(), seed=1)
    other._hands[1].append(other._deck.pop())  # a card in a hand out of turn: counts still add up
    check_invariants(other, deep=False)
    other._hands[1].append(5)  # a card from nowhere
    with pytest.raises(ConformanceError, match="exactly one place"):
        check_invariants(other, deep=False)


def test_a_policy_that_cheats_is_caught() -> None:
    with pytest.raises(ConformanceError, match="illegal action"):
        random_playthrough(Rules(), seed=1, policy=lambda view: od.Pass())
