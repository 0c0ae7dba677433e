"""Territory odds against brute force over every deal (tests/naive_odds.py)."""

from __future__ import annotations

import os
from collections import Counter
from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Rules, Territory
from ordonnance.odds import MAX_EXACT_LIMIT, Odds, territory_odds

from . import naive_odds
from .positions import position

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
C, J = Territory.CYPRUS, Territory.JERUSALEM


def _masks(counter: Counter[od.Card]) -> list[int]:
    return [card.mask for card, count in sorted(counter.items(), key=lambda kv: kv[0].mask) for _ in range(count)]


def brute_force(game: od.Game, t: Territory, player: int | None = None) -> list[Fraction]:
    """The naive odds of ``game`` from public information, or as ``player`` sees it."""
    n = game.players
    known = [c.mask for c in game.hand(player)] if player is not None else []
    return naive_odds.odds(
        [[c.mask for c in game.army(t, p)] for p in range(n)],
        [game.completed_at(t, p) for p in range(n)],
        game.current_player,
        _masks(game.unseen(player)),
        known,
        player,
    )


def assert_matches(odds: Odds, expected: list[Fraction]) -> None:
    assert odds.exact and odds.samples == 0 and odds.stderr == (0.0,) * len(expected)
    assert odds.probabilities == pytest.approx([float(x) for x in expected], abs=1e-12)
    assert sum(expected) in (0, 1)  # 0: no deal completes every army
    assert sum(odds.probabilities) == pytest.approx(float(sum(expected)), abs=1e-12)


# --- exact odds against brute force ------------------------------------------------


def test_a_small_position_by_hand() -> None:
    game = position({C: ["F F", "H"]}, hands=["S", "L B"], deck="LB SH")
    # The five unseen cards L B LB S SH fill the five missing places: player 0 gets two
    # of them and player 1 the other three, 10 equally likely splits; player 1 wins 3.
    odds = territory_odds(game, C)
    assert_matches(odds, [Fraction(7, 10), Fraction(3, 10)])
    assert_matches(odds, brute_force(game, C))
    assert str(odds) == "Cyprus: player 0 70.0%, player 1 30.0% (exact, 10 outcomes)"


def test_a_viewer_knows_their_own_hand() -> None:
    game = position({C: ["F F", "H"]}, hands=["S", "L B"], deck="LB SH")
    as_0 = territory_odds(game, C, player=0)
    assert_matches(as_0, brute_force(game, C, 0))
    assert_matches(as_0, [Fraction(1, 2), Fraction(1, 2)])
    as_1 = territory_odds(game, C, player=1)
    assert_matches(as_1, [Fraction(1), Fraction(0)])  # as player 1 sees it, player 0 cannot lose
    assert territory_odds(game.view(1), C) == as_1
    assert territory_odds(game.view(0), C, player=0) == as_0


def test_ties_go_to_the_army_complete_first() -> None:
    # Both can only end with F F F L-like armies: equal strength.
    done_first = position({C: ["F F F L", "F F F"]}, hands=["S", "L"], deck="", completed=[(C, 0)], current=1)
    assert_matches(territory_odds(done_first, C), [Fraction(1), Fraction(0)])
    # Neither complete: fewer missing cards completes first ...
    fewer = position({C: ["F F", "F F F"], J: ["L", "L"]}, hands=["L", "B"], deck="L B")
    odds = territory_odds(fewer, C)
    assert_matches(odds, brute_force(fewer, C))
    # ... and on equal counts, turn order from the player to act.
    for current in (0, 1):
        equal = position({C: ["F F F", "F F F"], J: ["L", "L"]}, hands=["L", "L B"], deck="B", current=current)
        odds = territory_odds(equal, C)
        assert_matches(odds, brute_force(equal, C))
        assert odds.probabilities[current] > odds.probabilities[1 - current]


def test_three_players() -> None:
    game = position({C: ["F F", "H H", "S S S"]}, hands=["LB", "B", "S F"], deck="H L F", current=2)
    for player in (None, 0, 1, 2):
        assert_matches(territory_odds(game, C, player=player), brute_force(game, C, player))


CARDS = ["L", "B", "S", "H", "F", "LB", "SH", "HF", "LS", "BF", "LBS"]


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[od.Game, int | None]:
    """A two-player game where Cyprus is open, with at most 7 unseen cards and 5 missing."""
    cards = st.sampled_from(CARDS)
    lengths = draw(st.tuples(st.integers(0, 3), st.integers(0, 4)).filter(lambda ls: sum(ls) >= 3))
    armies = [draw(st.lists(cards, min_size=k, max_size=k)) for k in lengths]
    hands = [draw(st.lists(cards, min_size=1, max_size=2)), draw(st.lists(cards, max_size=2))]
    room = 8 - sum(lengths)  # the cards not face up, unless more are given (then Lances pad)
    held = len(hands[0]) + len(hands[1])
    deck = draw(st.lists(cards, max_size=max(0, room - held)))
    deck += draw(st.lists(cards, max_size=7 - max(room, held)))  # spare cards beyond the 40 needed
    game = position({C: [" ".join(a) for a in armies]}, hands=[" ".join(h) for h in hands], deck=" ".join(deck))
    player = draw(st.sampled_from([None, 0, 1]))
    return game, player


@(settings() if JIT else settings(max_examples=10))
@given(small_positions())
def test_exact_odds_match_brute_force(case: tuple[od.Game, int | None]) -> None:
    game, player = case
    assert sum(game.unseen(player).values()) <= 7
    assert_matches(territory_odds(game, C, player=player), brute_force(game, C, player))


# --- sampling ---------------------------------------------------------------------


def _midgame(seed: int, plays: int, players: int = 2) -> od.Game:
    game = od.Game.new(Rules(players=players), seed=seed)
    bots = [od.bots.Greedy(seed=seed + s) for s in range(players)]
    for _ in range(plays):
        p = game.current_player
        game.apply(bots[p].choose(game.view(p)))
    return game


#: (deal seed, greedy plays, territory): undecided territories between 0.15 and 0.85,
#: with 400 to 180,000 joint outcomes.
MEDIUM = [(3, 22, 3), (0, 22, 2), (2, 22, 1), (4, 16, 0), (8, 16, 1), (9, 22, 4), (12, 16, 1)]


@pytest.mark.parametrize("case", MEDIUM if JIT else MEDIUM[:1])
def test_sampled_odds_fall_within_their_error_bars(case: tuple[int, int, int]) -> None:
    seed, plays, territory = case
    game, t = _midgame(seed, plays), Territory(territory)
    exact = territory_odds(game, t, max_exact=MAX_EXACT_LIMIT)
    assert exact.exact and exact.outcomes >= 400
    assert 0.15 < exact.probabilities[0] < 0.85
    sampled = territory_odds(game, t, max_exact=0, samples=20_000 if JIT else 2_000, seed=seed)
    assert not sampled.exact and sampled.samples > 0 and sampled.outcomes == 0
    assert sum(sampled.probabilities) == pytest.approx(1.0)
    for seat in range(2):
        p, e = sampled.probabilities[seat], sampled.stderr[seat]
        assert e > 0
        # 4.5 standard errors: a false alarm once in ~150,000 seeds (these seeds are fixed)
        assert abs(p - exact.probabilities[seat]) <= 4.5 * e
        low, high = sampled.interval(seat)
        assert low <= p <= high and high - low == pytest.approx(2 * 1.959963984540054 * e)


def test_sampling_is_seeded() -> None:
    game = _midgame(3, 10)
    t = next(t for t in Territory if not game.is_decided(t))
    a = territory_odds(game, t, max_exact=0, samples=500, seed=7)
    assert a == territory_odds(game, t, max_exact=0, samples=500, seed=7)
    assert a != territory_odds(game, t, max_exact=0, samples=500, seed=8)
    assert "500 samples" in str(a) and "±" in str(a)


def test_large_positions_are_sampled_by_default() -> None:
    game = od.Game.new(Rules(players=4), seed=1)
    odds = territory_odds(game, C, samples=2_000)
    assert not odds.exact and odds.samples == 2_000
    assert sum(odds.probabilities) == pytest.approx(1.0)
    assert all(0.1 < p < 0.4 for p in odds.probabilities)


# --- decided territories, finished games, every variant --------------------------


def test_a_decided_territory_belongs_to_its_owner() -> None:
    game = position({C: ["F F F F", "L"]}, hands=["S", "B"], deck="H", current=0)
    game.apply(od.Claim(C))
    odds = territory_odds(game, C)
    assert odds.probabilities == (1.0, 0.0) and odds.exact and odds.favourite == 0
    filler = territory_odds(game.view(1), Territory.ANTIOCH)
    assert filler.probabilities == (1.0, 0.0) and str(filler) == "Antioch: player 0 100.0%, player 1 0.0% (exact)"


def test_a_territory_left_undecided_at_the_end_goes_to_nobody() -> None:
    game = position({C: ["L L L", "F F F"]}, hands=["", "F B"], deck="", current=1, scoring="points")
    game.apply(od.Play("F", C))
    assert game.is_over and not game.is_decided(C)
    assert territory_odds(game, C).probabilities == (0.0, 0.0)


def test_a_viewer_holding_the_cards_an_opponent_needs() -> None:
    # Player 1 needs 3 cards in Cyprus, but player 0 sees only 2 cards they cannot see
    # (L, LB): the others are in player 0's hand. No deal completes both armies.
    blocked = position({C: ["F F F", "H"]}, hands=["S F", "L"], deck="LB", current=0)
    assert sum(blocked.unseen(0).values()) == 2
    assert territory_odds(blocked, C, player=0).probabilities == (0.0, 0.0)
    assert sum(territory_odds(blocked, C).probabilities) == pytest.approx(1.0)  # public: always possible


def test_a_provable_claim_has_probability_one() -> None:
    game = position({C: ["F F F L", "F F F"], J: ["L", "B"]}, hands=["S", "H"], deck="B H")
    assert game.can_claim(0, C)
    assert territory_odds(game, C).probabilities == (1.0, 0.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_probabilities_add_up_in_real_games(players: int) -> None:
    game = _midgame(players, 6 * players, players)
    for t in Territory:
        for player in (None, game.current_player):
            odds = territory_odds(game, t, player=player, samples=1_000)
            assert len(odds.probabilities) == players
            assert sum(odds.probabilities) == pytest.approx(1.0)
            assert all(0.0 <= p <= 1.0 for p in odds.probabilities)


# --- errors -----------------------------------------------------------------------


def test_bad_arguments() -> None:
    game = od.Game.new(Rules(), seed=1)
    with pytest.raises(od.InvalidTerritoryError, match="got 5"):
        territory_odds(game, 5)
    with pytest.raises(TypeError, match="territory"):
        territory_odds(game, "Cyprus")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidSeatError, match="seats are 0..1, got 2"):
        territory_odds(game, C, player=2)
    with pytest.raises(TypeError, match="seat number"):
        territory_odds(game, C, player="0")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidSeatError, match="belongs to seat 0"):
        territory_odds(game.view(0), C, player=1)
    with pytest.raises(TypeError, match="Game or a PlayerView"):
        territory_odds("game", C)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="samples must be 1..100000000, got 0"):
        territory_odds(game, C, samples=0)
    with pytest.raises(ValueError, match="seed must be 0..18446744073709551615"):
        territory_odds(game, C, seed=-1)
    with pytest.raises(TypeError, match="max_exact must be an int"):
        territory_odds(game, C, max_exact=1.5)  # type: ignore[arg-type]
    with pytest.raises(od.InvalidSeatError, match="got 3"):
        territory_odds(game, C).interval(3)
    crafted = attrs.evolve(game.view(0), unseen=(0,) * 32)  # a view no game can give
    with pytest.raises(od.InvalidGameStateError, match="8 cards missing in Cyprus, only 6 not face up"):
        territory_odds(crafted, C)
