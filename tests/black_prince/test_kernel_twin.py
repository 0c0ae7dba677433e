"""The kernel's state machine against the engine, position by position.

Every position of random games is converted to the kernel's arrays; the
kernel must list the same legal actions in the same order, and applying any
of them must give the position the engine reaches (hidden cards, chance
stream and battle flags included).
"""

from __future__ import annotations

import itertools
import random

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ordonnance import black_prince as bp
from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince._greedy import score
from ordonnance.black_prince.simulation import decode, encode, tables

PAIRINGS = list(itertools.permutations(bp.ARMIES, 2))
MIRRORS = [(army, army) for army in bp.ARMIES]
#: Small custom decks run out of cards within a few turns, so games reach the end the
#: rules give when neither seat has a card left (and the turns of moves and forced battles before it).
SMALL_DECK = st.lists(
    st.one_of(
        st.builds(bp.Card, st.sampled_from(list(bp.TroopType)), st.integers(1, 3)),
        st.just(bp.Card(None)),
    ),
    min_size=6,
    max_size=9,
).filter(lambda cards: any(not card.is_battle for card in cards))
PHASES = {"place": kernel.PLACE, "choose": kernel.CHOOSE, "battle": kernel.BATTLE, "over": kernel.OVER}


def state_of(game: bp.Game) -> kernel.State:
    """The whole position of ``game`` as the kernel's arrays."""
    kinds = tables(game.rules)
    index = kinds.index
    s = kernel.new_state(kinds.canon.shape[1])
    parts = game._parts()
    for r in range(4):
        for c in range(6):
            card = game.cell(r, c)
            s.cells[r, c] = -1 if card is None else index[card]
    for seat in (0, 1):
        hand = game.hand(seat)
        s.hands[seat, : len(hand)] = [index[c] for c in hand]
        s.hand_len[seat] = len(hand)
        deck = parts["decks"][seat][::-1]  # the kernel's decks have their top card last
        s.decks[seat, : len(deck)] = [index[c] for c in deck]
        s.deck_len[seat] = len(deck)
        pile = game.discard(seat)
        s.discards[seat, : len(pile)] = [index[c] for c in pile]
        s.discard_len[seat] = len(pile)
    attacked, moved, contact, fought = game.battle_state()
    s.flags[0], s.flags[1], s.flags[2] = attacked, moved, contact
    s.ints[kernel.CURRENT] = game.current_player
    s.ints[kernel.PHASE] = PHASES[game.phase]
    s.ints[kernel.TURN] = game.turn
    s.ints[kernel.FOUGHT] = fought
    s.ints[kernel.ROUTED], s.ints[kernel.ROUTED + 1] = game.routed
    s.ints[kernel.MAX_TURNS] = game.rules.max_turns
    s.rng[0] = parts["rng"]
    return s


def same(a: kernel.State, b: kernel.State) -> bool:
    """Equal positions (only the used part of each hand, deck and pile counts)."""
    for seat in (0, 1):
        if not (a.hand_len[seat] == b.hand_len[seat] and a.deck_len[seat] == b.deck_len[seat]
                and a.discard_len[seat] == b.discard_len[seat]):  # fmt: skip
            return False
        if not (np.array_equal(a.hands[seat, : a.hand_len[seat]], b.hands[seat, : b.hand_len[seat]])
                and np.array_equal(a.decks[seat, : a.deck_len[seat]], b.decks[seat, : b.deck_len[seat]])
                and np.array_equal(a.discards[seat, : a.discard_len[seat]], b.discards[seat, : b.discard_len[seat]])):  # fmt: skip
            return False
    return bool(np.array_equal(a.cells, b.cells) and np.array_equal(a.flags != 0, b.flags != 0)
                and np.array_equal(a.ints, b.ints) and a.rng[0] == b.rng[0])  # fmt: skip


def check_position(game: bp.Game) -> None:
    kinds = tables(game.rules)
    s = state_of(game)
    out = np.empty(kernel.MAX_LEGAL, np.int64)
    n = kernel.legal(kinds.tables, s, out)
    assert [decode(int(code), kinds) for code in out[:n]] == game.legal_actions()
    if not game.is_over:  # the Greedy bot's score of every action, kernel against Python
        view = game.view(game.current_player)
        work = np.empty((4, 6), np.int64)
        kernel_scores = [kernel.greedy_score(kinds.tables, s, int(code), work) for code in out[:n]]
        assert kernel_scores == [score(view, action) for action in game.legal_actions()]
    for action in game.legal_actions():
        after = game.clone()
        after.apply(action)
        t = state_of(game)
        with np.errstate(over="ignore"):
            kernel.apply(kinds.tables, t, encode(action, kinds), out)
        assert same(t, state_of(after)), (action, str(game))


def test_deal_is_the_engine_deal() -> None:
    for i, armies in enumerate(PAIRINGS + MIRRORS):
        for first in ("seat0", "coin"):
            rules = bp.Rules(armies=armies, first=first)  # type: ignore[arg-type]
            kinds = tables(rules)
            s = kernel.new_state(kinds.canon.shape[1])
            with np.errstate(over="ignore"):
                kernel.deal(kinds.tables, s, kinds.canon, kinds.canon_len, np.uint64(1000 + i), first == "coin",
                            rules.max_turns)  # fmt: skip
                kernel.settle(kinds.tables, s, np.empty(kernel.MAX_LEGAL, np.int64))
            assert same(s, state_of(bp.Game.new(rules, seed=1000 + i)))


@settings(max_examples=25 if not numba.config.DISABLE_JIT else 4, deadline=None)
@given(st.sampled_from(PAIRINGS), st.integers(0, 2**32), st.sampled_from(["seat0", "coin"]))
def test_every_position_of_a_random_game_twins(armies: tuple[str, str], seed: int, first: str) -> None:
    rng = random.Random(seed)
    game = bp.Game.new(bp.Rules(armies=armies, first=first), seed=seed)  # type: ignore[arg-type]
    while not game.is_over:
        check_position(game)
        game.apply(rng.choice(game.legal_actions()))
    check_position(game)


@settings(max_examples=12 if not numba.config.DISABLE_JIT else 3, deadline=None)
@given(st.sampled_from(MIRRORS), st.integers(0, 2**32), st.sampled_from(["seat0", "coin"]))
def test_every_position_of_a_mirror_match_twins(armies: tuple[str, str], seed: int, first: str) -> None:
    """Mirror matches: the same army on both sides, so both decks share every card kind."""
    rng = random.Random(seed)
    game = bp.Game.new(bp.Rules(armies=armies, first=first), seed=seed)  # type: ignore[arg-type]
    while not game.is_over:
        check_position(game)
        game.apply(rng.choice(game.legal_actions()))
    check_position(game)


@settings(max_examples=40 if not numba.config.DISABLE_JIT else 8, deadline=None)
@given(SMALL_DECK, SMALL_DECK, st.integers(0, 2**32), st.sampled_from(["seat0", "coin"]))
def test_every_position_of_a_game_that_runs_out_of_cards_twins(
    deck0: list[bp.Card], deck1: list[bp.Card], seed: int, first: str
) -> None:
    """Custom decks of 6 to 9 cards: the cards run out early, so most positions lie where
    the game goes on (a move, a forced battle) or ends with no card left."""
    rng = random.Random(seed)
    rules = bp.Rules(armies=("A", "B"), decks=(deck0, deck1), first=first, max_turns=60)  # type: ignore[arg-type]
    game = bp.Game.new(rules, seed=seed)
    while not game.is_over:
        check_position(game)
        game.apply(rng.choice(game.legal_actions()))
    check_position(game)
