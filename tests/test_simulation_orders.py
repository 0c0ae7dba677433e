"""The kernel dealing from given deck orders (simulation._simulate_orders) against the engine dealt
from the same orders: same actions, winners and scores."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Rules
from ordonnance.core.seeds import game_seeds
from ordonnance.errors import InvalidRulesError
from ordonnance.game import shuffled_deck
from ordonnance.simulation import _simulate_orders
from tests.test_simulation import played_by_twins

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
RULES = [
    Rules(),
    Rules(players=3, auto_claim=True),
    Rules(players=4, claim_proof="private"),
    Rules(players=2, scoring="points", tie_break="lowest_marker_sum"),
    Rules(deck=["L"] * 37 + ["LBSHF"] * 4),
]
BOTS = {"random": od.bots.Random, "greedy": od.bots.Greedy}


def _bots(lineup: str, players: int) -> list[od.bots.Bot]:
    if lineup == "mixed":
        return [(od.bots.Greedy if seat % 2 else od.bots.Random)(seed=seat) for seat in range(players)]
    return [BOTS[lineup](seed=seat) for seat in range(players)]


@st.composite
def _deals(draw: st.DrawFn) -> tuple[Rules, np.ndarray, np.ndarray, str]:
    rules = draw(st.sampled_from(RULES))
    deck = sorted(card.mask for card in rules.cards)
    orders = draw(st.lists(st.permutations(deck), min_size=1, max_size=3))
    seeds = draw(st.lists(st.integers(0, 2**64 - 1), min_size=len(orders), max_size=len(orders)))
    return rules, np.array(orders), np.array(seeds, np.uint64), draw(st.sampled_from(["random", "greedy", "mixed"]))


@settings(max_examples=60 if JIT else 15, deadline=None)
@given(deal=_deals())
def test_games_dealt_from_orders_are_those_of_the_engine_dealt_from_them(
    deal: tuple[Rules, np.ndarray, np.ndarray, str],
) -> None:
    rules, orders, seeds, lineup = deal
    bots = _bots(lineup, rules.players)
    res = _simulate_orders(rules, orders, seeds, bots, record=True)
    for i, order in enumerate(orders.tolist()):
        game = od.Game.new(rules, deck=order)
        assert played_by_twins(game, bots, res.bot_seeds[i]) == list(res.record(i)[1])
        assert res.record(i)[0] == tuple(od.Card.from_mask(m) for m in order)
        assert (-1 if game.winner is None else game.winner) == res.winner[i]
        assert list(game.scores) == res.scores[i].tolist()
        assert res.replay(i).history == game.history


def test_the_python_road_deals_from_the_orders_too() -> None:
    class Wrapped(od.bots.Greedy):
        """A subclass: not the kernel's bot, so the games go through Game in Python (as it is: its
        own generator, so its games are not the kernel's)."""

    rules = Rules(players=3)
    seeds = game_seeds(8, 6)
    orders = np.array([shuffled_deck(rules, int(s) ^ 1)[0] for s in seeds])
    python = _simulate_orders(rules, orders, seeds, [Wrapped(seed=s) for s in range(3)], record=True)
    for i, order in enumerate(orders.tolist()):
        game = python.replay(i)  # from the order: its recorded plays are legal there, not in the seed's deal
        assert (-1 if game.winner is None else game.winner) == python.winner[i]
        assert list(game.scores) == python.scores[i].tolist()
    assert python.actions is not None and python.actions[0, 0, 1] in order_hand(orders[0], 0, 3)


def order_hand(order: np.ndarray, seat: int, players: int) -> list[int]:
    """Seat's five cards dealt from ``order`` (round-robin) and its first draw."""
    return [int(order[k * players + seat]) for k in range(5)] + [int(order[5 * players + seat])]


def test_orders_shuffled_from_the_seeds_give_simulate_s_games() -> None:
    rules = Rules(players=3, auto_claim=True)
    bots = [od.bots.Greedy(seed=s) for s in range(3)]
    dealt = od.simulate(rules, games=40, seed=5, players=bots, record=True)
    orders = np.array([shuffled_deck(rules, int(s))[0] for s in dealt.seeds])
    given_orders = _simulate_orders(rules, orders, dealt.seeds, bots, record=True)
    assert np.array_equal(dealt.actions, given_orders.actions) and np.array_equal(dealt.winner, given_orders.winner)
    assert np.array_equal(dealt.bot_seeds, given_orders.bot_seeds)


def test_orders_that_are_not_the_rules_deck_are_refused() -> None:
    rules = Rules()
    seeds = game_seeds(1, 2)
    orders = np.array([shuffled_deck(rules, int(s))[0] for s in seeds])
    with pytest.raises(InvalidRulesError, match="shape"):
        _simulate_orders(rules, orders[:, 1:], seeds, None, record=False)
    wrong = orders.copy()
    wrong[1, 0] = 31 if wrong[1, 0] != 31 else 1
    with pytest.raises(InvalidRulesError, match="permutation"):
        _simulate_orders(rules, wrong, seeds, None, record=False)
