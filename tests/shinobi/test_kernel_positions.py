"""Position by position: the kernel's state record after every action is the Game's position,
and the kernel's legal actions there are the Game's (the deal included)."""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

from ordonnance.shinobi import CLANS, Game, Rules
from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi.cards import CODES
from ordonnance.shinobi.rules import MAX_DECK

GAMES = 3 if numba.config.DISABLE_JIT else 40


def assert_same(state: np.ndarray, game: Game) -> None:
    n = game.players
    hands = state[kernel.HAND : kernel.HAND + kernel.CODES * n].reshape(n, CODES)
    for p in range(n):
        assert list(hands[p]) == [sum(c.code == code for c in game.hand(p)) for code in range(CODES)]
        assert state[kernel.HAND_LEN + p] == len(game.hand(p))
        assert tuple(state[kernel.PROV + CLANS * p : kernel.PROV + CLANS * (p + 1)]) == game.province(p)
        assert [bool(state[kernel.CHANGED + p] >> c & 1) for c in range(CLANS)] == [game.changed(p, c) for c in range(CLANS)]
    # the masks and lane words the kernel keeps up to date equal those worked out afresh
    fresh = state.copy()
    kernel.refresh(fresh)
    assert list(fresh[kernel.ARMIES : kernel.DECK]) == list(state[kernel.ARMIES : kernel.DECK])
    assert tuple(state[kernel.CLAN : kernel.CLAN + CLANS]) == tuple(game._clan_order)
    assert tuple(state[kernel.DISCARD : kernel.DISCARD + CODES]) == game.discard
    assert state[kernel.DECK_END] - state[kernel.DECK_POS] == game.deck_size
    assert list(state[kernel.DECK + state[kernel.DECK_POS] : kernel.DECK + state[kernel.DECK_END]]) == game._deck[::-1]
    assert bool(state[kernel.OVER]) == game.is_over and state[kernel.TURNS] == game.turns
    assert (state[kernel.EXTRA] if state[kernel.EXTRA] != kernel.NOT_FINAL else None) == game.extra_turns_left
    if not game.is_over:
        assert (state[kernel.CUR], state[kernel.ORDER]) == (game.current_player, game.order)
        work = np.zeros(kernel.WORK, np.int64)
        count = kernel.legal(state, work)
        assert [int(c) for c in work[:count]] == [a.code for a in game.legal_actions()]
        if game.order == 3:  # the Random bot's fast path counts and picks attacks from the lane words
            attacks = [int(c) for c in work[:count] if c != kernel.PASS_CODE]
            p, n = game.current_player, game.players
            by_clan = [sum((c - kernel.ATTACK_BASE) // (kernel.SEATS * CLANS) == a for c in attacks) for a in range(CLANS)]
            assert [state[kernel.ATTACKS] >> (8 * a) & 255 for a in range(CLANS)] == by_clan
            picked = [kernel._nth_attack(state, p, n, a, i) for a in range(CLANS) for i in range(by_clan[a])]
            assert picked == attacks


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=4, attack="optional"), Rules(players=5),
                                   Rules(players=3, samurai=2, ninjas=2)], ids=str)  # fmt: skip
def test_the_kernel_follows_the_game_position_by_position(rules: Rules) -> None:
    troop = np.array(rules.troop_deck, np.int64)
    state = np.zeros(kernel.state_size(len(troop)), np.int64)
    with np.errstate(over="ignore"):
        for seed in range(GAMES):
            game = Game.new(rules, seed=seed)
            kernel.deal(state, rules.players, troop, rules.optional_attack, np.uint64(seed))
            assert_same(state, game)
            rng = random.Random(seed)
            while not game.is_over:
                action = rng.choice(game.legal_actions())
                game.apply(action)
                kernel.apply(state, action.code)
                assert_same(state, game)
            assert kernel.winners(state) == sum(1 << p for p in game.winners)


def test_the_lane_words_compare_every_army_size_the_rules_allow() -> None:
    assert MAX_DECK < kernel._HIGH  # no army can reach a lane's top bit
    full = (1 << kernel.LANE) - 1
    rng = random.Random(5)
    for _ in range(200 if numba.config.DISABLE_JIT else 5000):
        sizes = [rng.choice((0, 1, 2, 3, rng.randint(0, MAX_DECK))) for _ in range(CLANS)]
        targets = kernel._targets(sum(v << (kernel.LANE * c) for c, v in enumerate(sizes)))
        assert [targets >> (kernel.LANE * c) & full for c in range(CLANS)] == [v or kernel._NO_TARGET for v in sizes]
        size = rng.randint(1, MAX_DECK + 1)
        assert kernel._gather(kernel._below(targets, size)) == sum(1 << c for c, v in enumerate(sizes) if 0 < v < size)


def test_a_borrowed_record_is_the_record_itself() -> None:
    @numba.njit
    def bump(state: np.ndarray) -> int:
        view = kernel.borrowed(state)
        view[1] += 5
        return int(view.shape[0])

    state = np.arange(7, dtype=np.int64)
    assert bump(state) == 7 and list(state) == [0, 6, 2, 3, 4, 5, 6]
