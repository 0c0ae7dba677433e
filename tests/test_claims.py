"""can_claim and claim_counterexample against brute force on random positions."""

from __future__ import annotations

from collections import Counter

import os

import numba
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Card, Claim, Territory, rl
from ordonnance import _simulator_kernel as kernel

from . import naive, naive_completion
from .positions import position

C, J = Territory.CYPRUS, Territory.JERUSALEM
MEMO_GAMES = 24 if os.environ.get("NUMBA_DISABLE_JIT") != "1" else 4
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


MEMO_RULES = [
    od.Rules(players=players, claim_proof=proof, auto_claim=auto, deck=deck)
    for players in (2, 3, 4)
    for proof in ("public", "private")
    for auto in (False, True)
    for deck in (None, (["LB", "SF", "H"] * 80)[: 20 * players + 3], ["L"] * 20 * players)
]
MEMO_IDS = [f"{r.players}p-{r.claim_proof}-{'auto' if r.auto_claim else 'manual'}-{len(r.cards)}" for r in MEMO_RULES]


@pytest.mark.parametrize("rules", MEMO_RULES, ids=MEMO_IDS)
def test_remembered_proofs_agree_with_a_fresh_proof_at_every_step(rules: od.Rules) -> None:
    """The kernel remembers proven claims in the game state (PROVEN) and answers from
    it until the territory is decided. At every step of random games (random legal
    actions, claims included) every remembered proof must still be one for the
    engine, and every seat's claimability and the legal mask must agree with it.
    Games follow one another in one state, so a memo left from a previous game or
    kept past a change that could break a proof fails here. In odd games only the
    proofs the rules made themselves are checked (asking every seat proves more)."""
    n = rules.players
    cfg = kernel.config(rules, [kernel.RANDOM] * n)
    cards = kernel.deck_of(rules)
    state = kernel.new_state(1, len(cards))
    scratch = np.zeros(kernel.SCRATCH, np.int64)
    mask = np.zeros(kernel.NUM_ACTIONS, np.bool_)
    choose = np.random.default_rng(len(cards) * 10 + n)
    remembered = 0
    with np.errstate(over="ignore"):  # 64-bit arithmetic wraps by design (NumPy scalars without the JIT)
        for seed in range(MEMO_GAMES):
            kernel.deal(cfg, state, 0, cards, np.uint64(seed), np.zeros(kernel.SEATS, np.uint64), scratch)
            game = od.Game.new(rules, seed=seed)
            while not game.is_over:
                proven = int(state.board[0, kernel.PROVEN])
                for t in range(5):
                    for p in range(n):
                        if proven >> (t * kernel.SEATS + p) & 1:
                            remembered += 1
                            assert game.territory_owner(t) is not None or game.can_claim(p, t), (seed, t, p)
                        if seed % 2 == 0:
                            assert kernel.claimable(cfg, state, 0, t, p, scratch) == game.can_claim(p, t), (seed, t, p)
                kernel.legal_mask(cfg, state, 0, mask, scratch)
                assert mask.astype(np.int8).tolist() == rl.action_mask(game.view(game.current_player)).tolist()
                a = int(choose.choice(np.flatnonzero(mask)))
                kernel.apply_action(cfg, state, 0, a, scratch)
                game.apply(rl.action_from_index(a))
            assert state.board[0, kernel.OVER] == 1
    assert remembered > 0 or rules.auto_claim  # (automatic claims award a proof at once)


masks = st.integers(1, 31)


@st.composite
def repairs(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """A witness (4 cards), an opponent's army (some of its cards, in any order, and
    at most one other), a floor army, the hidden counts and the claimant's hand."""
    witness = draw(st.lists(masks, min_size=4, max_size=4))
    kept = draw(st.permutations(witness))[: draw(st.integers(0, 3))]
    army = kept + draw(st.lists(masks, max_size=1)) if len(kept) < 3 else kept
    army = draw(st.permutations(army))
    floor = draw(st.lists(masks, min_size=4, max_size=4))
    hidden = [0] + [draw(st.integers(0, 2)) for _ in range(31)]
    hand = draw(st.lists(masks, max_size=5))
    return witness, army, floor, hidden, hand


@settings(max_examples=2000 if os.environ.get("NUMBA_DISABLE_JIT") != "1" else 300, deadline=None)
@given(repairs(), st.booleans())
def test_a_repaired_witness_is_reachable_and_found_when_one_is(case: tuple[list[int], ...], private: bool) -> None:
    """_still_reachable against brute force: what it returns is the army followed by
    cards the pool holds, stronger than the floor; and it finds the witness itself,
    or the witness with one card swapped for the army's other card, whenever such
    an army is reachable. (A witness is stronger than the floor when it is found.)"""
    witness, army, floor, hidden, hand = case
    assume(naive.compare(witness, floor) > 0)
    b = np.zeros((1, kernel.ORDER + 1), np.int64)
    b[0, kernel.HIDDEN : kernel.HIDDEN + 32] = hidden
    b[0, kernel.HAND] = kernel.pack(np.array(hand, np.int64))
    b[0, kernel.HAND_LEN] = len(hand)
    pool = Counter({m: c for m, c in enumerate(hidden) if c > 0})
    if private:
        pool.subtract(Counter(hand))
    floor_key = int(kernel._word_key(kernel.pack(np.array(floor, np.int64))))
    with np.errstate(over="ignore"):  # 64-bit arithmetic wraps by design (NumPy scalars without the JIT)
        got = int(kernel._still_reachable(
            kernel.pack(np.array(witness, np.int64)), kernel.pack(np.array(army, np.int64)), len(army), b[0], 0, private, floor_key
        ))

    def reachable(added: list[int]) -> bool:
        return not Counter(added) - +pool and naive.compare(army + added, floor) > 0

    rest = Counter(witness) - Counter(army)
    other = list((Counter(army) - Counter(witness)).elements())
    if not other:
        expected = reachable(list(rest.elements()))
    else:
        expected = any(reachable(list((rest - Counter([m])).elements())) for m in rest)
    if got == 0:
        assert not expected
        return
    cards = [got >> (8 * i) & 255 for i in range(4)]
    assert cards[: len(army)] == army and reachable(cards[len(army) :])


def _through_pointers(b: np.ndarray, g: int, scratch: np.ndarray) -> tuple[int, int, int]:
    """Reads and writes through kernel.row_of, pointer_of and span (compiled: bare pointers)."""
    row = kernel.row_of(b, g)
    row[3] += 5
    first = row[1]
    part = kernel.span(row, 2, 3)
    part[0] = 7
    total = 0
    for i in range(3):
        total += part[i]
    work = kernel.span(kernel.pointer_of(scratch), 1, 2)
    work[:] = kernel.span(row, 0, 2)
    return int(first), int(total), int(scratch[0])


@pytest.mark.parametrize("g", [0, 2])
def test_pointers_to_a_row_read_and_write_the_board_as_views_do(g: int) -> None:
    """row_of/pointer_of/span compiled (pointers, arrays without an owner) against
    themselves in Python (views): the same values read and the same cells written."""
    results = []
    for function in (numba.njit(_through_pointers), _through_pointers):
        b = np.arange(3 * 7, dtype=np.int64).reshape(3, 7)
        scratch = np.full(4, -1, np.int64)
        results.append((function(b, g, scratch), b.tolist(), scratch.tolist()))
    assert results[0] == results[1]
    (first, total, _), board, scratch_after = results[1]
    assert (first, total) == (7 * g + 1, 7 + (7 * g + 3 + 5) + 7 * g + 4)
    assert board[g][2:4] == [7, 7 * g + 3 + 5] and scratch_after == [-1, 7 * g, 7 * g + 1, -1]
