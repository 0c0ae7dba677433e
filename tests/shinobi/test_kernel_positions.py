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

GAMES = 3 if numba.config.DISABLE_JIT else 40


def assert_same(state: np.ndarray, game: Game) -> None:
    n = game.players
    hands = state[kernel.HAND : kernel.HAND + kernel.CODES * n].reshape(n, CODES)
    for p in range(n):
        assert list(hands[p]) == [sum(c.code == code for c in game.hand(p)) for code in range(CODES)]
        assert state[kernel.HAND_LEN + p] == len(game.hand(p))
        assert tuple(state[kernel.PROV + CLANS * p : kernel.PROV + CLANS * (p + 1)]) == game.province(p)
        assert [bool(x) for x in state[kernel.CHANGED + CLANS * p : kernel.CHANGED + CLANS * (p + 1)]] == \
            [game.changed(p, c) for c in range(CLANS)]  # fmt: skip
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
