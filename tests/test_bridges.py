"""Each game's bridge between its engine and its kernel, checked against the engine.

Random games are played in the engine (and, for Shinobi, in the kernel beside
it); at every position the bridge's translations must agree with the engine:
a game through a row and back is the same game, and a seat's view as a row
holds exactly the kernel's fields of the real game that the seat may see.
"""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

import ordonnance as od
from ordonnance import _bridge
from ordonnance import _simulator_kernel as kernel
from ordonnance.rl import NUM_ACTIONS, action_from_index, action_index
from ordonnance.shinobi import _bridge as shinobi_bridge
from ordonnance.shinobi import _kernel as shinobi_kernel
from ordonnance import shinobi
from ordonnance import black_prince as bp
from ordonnance.black_prince import _bridge as bp_bridge
from ordonnance.black_prince import _kernel as bp_kernel

from .black_prince.test_kernel_twin import state_of as bp_state_of

GAMES = 2 if numba.config.DISABLE_JIT else 8
ORDONNANCE_RULES = [od.Rules(), od.Rules(players=3, scoring="points"), od.Rules(players=4, auto_claim=True)]


def _random_positions(game: object, seed: int) -> list[object]:
    """Every position of one random game from ``game`` (copies)."""
    rng = random.Random(seed)
    positions = [game.clone()]  # type: ignore[attr-defined]
    while not game.is_over:  # type: ignore[attr-defined]
        game.apply(rng.choice(game.legal_actions()))  # type: ignore[attr-defined]
        positions.append(game.clone())  # type: ignore[attr-defined]
    return positions


# ----------------------------------------------------------------- Ordonnance


def test_word_and_lanes_are_inverse() -> None:
    masks = [3, 31, 1, 17, 8]
    assert _bridge.lanes(_bridge.word(masks), len(masks)) == masks
    assert _bridge.word([]) == 0 and _bridge.lanes(0, 0) == []


def test_action_code_is_the_rl_numbering() -> None:
    for index in range(NUM_ACTIONS):
        action = action_from_index(index)
        assert _bridge.action_code(action) == action_index(action) == index


@pytest.mark.parametrize("rules", ORDONNANCE_RULES, ids=str)
def test_a_game_through_a_row_and_back_is_the_same_game(rules: od.Rules) -> None:
    size = kernel.new_state(1, len(rules.cards)).board.shape[1]
    for seed in range(GAMES):
        for game in _random_positions(od.Game.new(rules, seed=seed), seed):
            row = _bridge.game_row(game, size)  # type: ignore[arg-type]
            back = _bridge.game_of_row(rules, row, seed=None, rng_state=None, history=None, order=None)
            assert back._deck == game._deck  # type: ignore[attr-defined]
            for p in range(rules.players):
                assert back.view(p) == game.view(p)  # type: ignore[attr-defined]
            assert back.is_over == game.is_over and back.scores == game.scores and back.winner == game.winner  # type: ignore[attr-defined]


@pytest.mark.parametrize("rules", ORDONNANCE_RULES, ids=str)
def test_a_view_as_a_row_holds_the_games_public_fields_and_the_seats_hand(rules: od.Rules) -> None:
    size = kernel.new_state(1, len(rules.cards)).board.shape[1]
    n = rules.players
    public = [
        (kernel.HAND_LEN, n), (kernel.ARMY_AT, kernel.TERRITORIES * kernel.SEATS),
        (kernel.ARMY_LEN, kernel.TERRITORIES * kernel.SEATS), (kernel.COMPLETED, kernel.TERRITORIES * kernel.SEATS),
        (kernel.OWNER, kernel.TERRITORIES), (kernel.MARKER, kernel.TERRITORIES), (kernel.PLAYS, 1),
        (kernel.DECIDED, 1), (kernel.CURRENT, 1),
    ]  # fmt: skip
    for seed in range(GAMES):
        for game in _random_positions(od.Game.new(rules, seed=seed), seed):
            if game.is_over:  # type: ignore[attr-defined]
                continue
            me = game.current_player  # type: ignore[attr-defined]
            view = game.view(me)  # type: ignore[attr-defined]
            truth = _bridge.game_row(game, size)  # type: ignore[arg-type]
            setup = _bridge.setup_of(view, "greedy")
            ours = setup.position.start.board[0]
            for at, length in public:
                assert list(ours[at : at + length]) == truth[at : at + length]
            assert ours[kernel.HAND + me] == truth[kernel.HAND + me]
            assert all(ours[kernel.HAND + q] == 0 for q in range(n) if q != me)  # nothing of the others' hands
            # the pool is every card the seat cannot see: the others' hands and the pile
            hidden = sorted(m for q in range(n) if q != me for m in game._hands[q]) + list(game._deck)  # type: ignore[attr-defined]
            assert sorted(setup.position.pool.tolist()) == sorted(hidden)
            assert setup.position.sizes.tolist() == [0 if q == me else len(game.hand(q)) for q in range(n)]  # type: ignore[attr-defined]


# -------------------------------------------------------------------- Shinobi


@pytest.mark.parametrize("rules", [shinobi.Rules(players=3), shinobi.Rules(players=5, attack="optional")], ids=str)
def test_a_shinobi_view_as_a_record_holds_what_the_seat_may_see_of_the_kernels_game(rules: shinobi.Rules) -> None:
    k = shinobi_kernel
    n = rules.players
    troop = np.array(rules.troop_deck, np.int64)
    truth = np.zeros(k.state_size(len(troop)), np.int64)
    header = [k.N, k.CUR, k.ORDER, k.OVER, k.EXTRA, k.OPTIONAL, k.TURNS]
    with np.errstate(over="ignore"):
        for seed in range(GAMES):
            game = shinobi.Game.new(rules, seed=seed)
            k.deal(truth, n, troop, rules.optional_attack, np.uint64(seed))
            rng = random.Random(seed)
            while True:
                for me in range(n):
                    state, pool = shinobi_bridge.state_of_view(game.view(me))
                    assert [state[i] for i in header] == [truth[i] for i in header]
                    assert state[k.CLAN + me] == truth[k.CLAN + me]
                    own = slice(k.HAND + k.CODES * me, k.HAND + k.CODES * (me + 1))
                    assert list(state[own]) == list(truth[own])
                    for start, length in ((k.HAND_LEN, n), (k.PROV, k.CLANS * n), (k.CHANGED, n), (k.DISCARD, k.CODES),
                                          (k.ARMIES, n), (k.SIZES, n)):  # fmt: skip
                        assert list(state[start : start + length]) == list(truth[start : start + length])
                    others = [q for q in range(n) if q != me]
                    assert all(state[k.CLAN + q] == 0 for q in others)
                    assert all(state[k.HAND + k.CODES * q : k.HAND + k.CODES * (q + 1)].sum() == 0 for q in others)
                    hidden = [int(c) for c in truth[k.DECK + truth[k.DECK_POS] : k.DECK + truth[k.DECK_END]]]
                    for q in others:
                        hidden += [code for code in range(k.CODES) for _ in range(truth[k.HAND + k.CODES * q + code])]
                    assert sorted(pool.tolist()) == sorted(hidden)
                    assert state[k.DECK_END] == truth[k.DECK_END] - truth[k.DECK_POS]
                if game.is_over:
                    break
                action = rng.choice(game.legal_actions())
                game.apply(action)
                k.apply(truth, action.code)


# --------------------------------------------------------------- Black Prince


@pytest.mark.parametrize("armies", [("English", "French"), ("French", "French")])
def test_a_black_prince_view_as_arrays_holds_what_the_seat_may_see_of_the_kernels_game(armies: tuple[str, str]) -> None:
    rules = bp.Rules(armies=armies)  # type: ignore[arg-type]
    kinds = bp_bridge.tables(rules)
    for seed in range(GAMES):
        for game in _random_positions(bp.Game.new(rules, seed=seed), seed):
            truth = bp_state_of(game)  # type: ignore[arg-type]
            for me in (0, 1):
                state, own, other = bp_bridge.state_of_view(game.view(me), rules.max_turns)  # type: ignore[attr-defined]
                assert np.array_equal(state.cells, truth.cells) and np.array_equal(state.flags != 0, truth.flags != 0)
                assert np.array_equal(state.ints, truth.ints)
                assert state.hand_len[me] == truth.hand_len[me] and state.hand_len[1 - me] == 0
                assert list(state.hands[me, : state.hand_len[me]]) == list(truth.hands[me, : truth.hand_len[me]])
                for seat in (0, 1):
                    assert list(state.discards[seat, : state.discard_len[seat]]) == list(
                        truth.discards[seat, : truth.discard_len[seat]])  # fmt: skip
                assert sorted(own.tolist()) == sorted(truth.decks[me, : truth.deck_len[me]].tolist())
                theirs = truth.hands[1 - me, : truth.hand_len[1 - me]].tolist()
                theirs += truth.decks[1 - me, : truth.deck_len[1 - me]].tolist()
                assert sorted(other.tolist()) == sorted(theirs)
            for action in game.legal_actions():  # type: ignore[attr-defined]
                assert bp_bridge.decode(bp_bridge.encode(action, kinds), kinds) == action


def test_black_prince_kinds_number_both_decks() -> None:
    rules = bp.Rules(armies=("English", "French"))
    kinds = bp_bridge.tables(rules)
    assert bp_bridge.tables(rules) is kinds  # cached per rules
    for seat in (0, 1):
        deck = rules.deck(seat)
        assert [kinds.cards[k] for k in kinds.canon[seat, : kinds.canon_len[seat]]] == list(deck)
    assert [kinds.index[card] for card in kinds.cards] == list(range(len(kinds.cards)))
    assert bp_kernel.Tables is type(kinds.tables)
