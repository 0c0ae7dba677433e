"""can_claim and claim_counterexample against brute force on random positions."""

from __future__ import annotations

from collections import Counter

import os

from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Card, Claim, Territory

from . import naive, naive_completion
from .positions import position

C, J = Territory.CYPRUS, Territory.JERUSALEM
texts = st.integers(1, 31).map(lambda m: str(Card.from_mask(m)))


@st.composite
def claim_positions(draw: st.DrawFn) -> tuple[od.Game, int]:
    players = draw(st.integers(2, 3))
    claimant = draw(st.integers(0, players - 1))
    sizes = [4 if p == claimant else draw(st.integers(0, 4)) for p in range(players)]
    if all(size == 4 for size in sizes):
        sizes[(claimant + 1) % players] = draw(st.integers(0, 3))
    armies = [draw(st.lists(texts, min_size=n, max_size=n)) for n in sizes]
    complete = [p for p in range(players) if sizes[p] == 4]
    order = draw(st.permutations(complete))
    hands = [draw(st.lists(texts, min_size=1 if p == 0 else 0, max_size=4)) for p in range(players)]
    deck = draw(st.lists(texts, max_size=6))
    proof = draw(st.sampled_from(["public", "private"]))
    game = position(
        {C: [" ".join(a) for a in armies], J: [""] * players},
        hands=[" ".join(h) for h in hands],
        deck=" ".join(deck),
        completed=[(C, p) for p in order],
        current=0,
        claim_proof=proof,
    )
    return game, claimant


def _pool(game: od.Game, claimant: int) -> Counter[int]:
    private = game.rules.claim_proof == "private"
    return Counter({c.mask: n for c, n in game.unseen(claimant if private else None).items()})


# Thousands of random positions with the JIT; fewer when the kernels run as Python.
@settings(max_examples=2000 if os.environ.get("NUMBA_DISABLE_JIT") != "1" else 200, deadline=None)
@given(claim_positions())
def test_can_claim_equals_brute_force(case: tuple[od.Game, int]) -> None:
    game, claimant = case
    armies = [[c.mask for c in game.army(C, p)] for p in range(game.players)]
    done = [game.completed_at(C, p) for p in range(game.players)]
    pool = _pool(game, claimant)
    expected = naive.can_claim(armies, done, claimant, lambda partial: naive_completion.best_strength(partial, pool))
    assert game.can_claim(claimant, C) == expected
    counter = game.claim_counterexample(claimant, C)
    assert (counter is None) == expected
    if counter is not None:
        # The counterexample is real: those cards are unseen and make the opponent win.
        assert not Counter(c.mask for c in counter.cards) - pool
        theirs = armies[counter.opponent] + [c.mask for c in counter.cards]
        assert od.army_key(theirs) == counter.key
        mine = naive.strength(armies[claimant])
        if done[counter.opponent] is None:
            assert len(theirs) == 4 and naive.strength(theirs) > mine
        else:
            assert counter.cards == ()
            assert naive.ranking([armies[claimant], theirs], [done[claimant], done[counter.opponent]])[0] == 1
    if game.current_player == claimant:
        assert (Claim(C) in game.legal_actions()) == expected


@given(claim_positions())
def test_claiming_awards_the_next_marker_and_changes_nothing_else(case: tuple[od.Game, int]) -> None:
    game, claimant = case
    if game.current_player != claimant or not game.can_claim(claimant, C):
        return
    before = game.clone()
    game.apply(Claim(C))
    assert game.territory_owner(C) == claimant
    assert game.marker(C) == 1 + sum(before.marker(t) is not None for t in Territory)
    assert all(game.army(t, p) == before.army(t, p) for t in Territory for p in range(game.players))
    assert game.unseen() == before.unseen()
