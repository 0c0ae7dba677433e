"""The game engine, rule by rule, on hand-made positions and seeded games."""

from __future__ import annotations

import re
from collections import Counter

import pytest

import ordonnance as od
from ordonnance import Card, Claim, Pass, Play, Rules, Territory

from . import naive
from .positions import position

A, C, J, E, T = (Territory(t) for t in range(5))


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


# --- setup, seeds, turns ------------------------------------------------------------


def test_setup_deals_five_each_round_robin_and_player_0_draws() -> None:
    deck = list(od.standard_deck())
    game = od.Game.new(Rules(), deck=deck)
    assert game.hand(0) == tuple(deck[0:10:2]) + (deck[10],)
    assert game.hand(1) == tuple(deck[1:10:2])
    assert game.deck_size == 56 - 11
    assert game.current_player == 0 and game.plays == 0 and not game.is_over
    assert game.seed is None


def test_three_and_four_players_use_two_decks() -> None:
    for players in (3, 4):
        game = od.Game.new(Rules(players=players), seed=1)
        assert sum(game.unseen().values()) == 112
        assert game.deck_size == 112 - 5 * players - 1


def test_seeded_shuffle_is_the_published_splitmix64_fisher_yates() -> None:
    # Known answer: the first SplitMix64 output from state 0.
    assert naive.splitmix64(0)[1] == 0xE220A8397B1DCDAF
    cards = sorted(c.mask for c in od.standard_deck())
    naive.fisher_yates(cards, 12345)
    game = od.Game.new(Rules(), seed=12345)
    assert [c.mask for c in game.hand(1)] == cards[1:10:2]
    assert game == od.Game.new(Rules(), seed=12345)
    assert game != od.Game.new(Rules(), seed=12346)
    assert game.seed == 12345


def test_unseeded_games_draw_a_seed_that_replays() -> None:
    game = od.Game.new(Rules())
    assert game.seed is not None
    assert od.Game.new(Rules(), seed=game.seed) == game


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seeds(seed: object) -> None:
    with pytest.raises((ValueError, TypeError), match="seed"):
        od.Game.new(Rules(), seed=seed)  # type: ignore[arg-type]


def test_given_deck_must_hold_exactly_the_rules_cards() -> None:
    deck = list(od.standard_deck())
    with pytest.raises(od.InvalidDeckError, match="missing L"):
        od.Game.new(Rules(), deck=deck[1:])
    with pytest.raises(od.InvalidDeckError, match="extra LBSHFx1"):
        od.Game.new(Rules(), deck=deck[1:] + ["LBSHF"])
    with pytest.raises(TypeError, match="either seed or deck"):
        od.Game.new(Rules(), deck=deck, seed=1)
    with pytest.raises(TypeError, match="Rules"):
        od.Game.new("2 players")  # type: ignore[arg-type]


def test_a_play_moves_the_card_face_up_and_ends_the_turn() -> None:
    game = od.Game.new(Rules(), seed=3)
    card = game.hand(0)[0]
    hand = Counter(game.hand(0))
    game.apply(Play(card, Territory.EDESSA))
    assert game.army(Territory.EDESSA, 0) == (card,)
    assert Counter(game.hand(0)) == hand - Counter([card])
    assert game.current_player == 1 and game.plays == 1
    assert len(game.hand(1)) == 6  # player 1 drew at the start of the turn


def test_legal_plays_are_distinct_cards_times_open_territories() -> None:
    game = od.Game.new(Rules(), seed=5)
    actions = game.legal_actions()
    distinct = set(game.hand(0))
    assert set(actions) == {Play(c, t) for c in distinct for t in Territory}
    assert len(actions) == len(distinct) * 5
    assert Play(str(next(iter(distinct))), 0) in actions  # type: ignore[arg-type]


# --- resolution -------------------------------------------------------------------


def test_strongest_army_wins_when_all_complete() -> None:
    game = position({C: ["F F F L", "H H H"]}, hands=["S", "H S"], deck="L B", current=1)
    game.apply(Play("H", C))
    assert game.territory_owner(C) == 1 and game.marker(C) == 5
    assert game.is_over and game.scores == (4, 1) and game.winner == 0


def test_equal_armies_go_to_the_first_to_complete() -> None:
    game = position({C: ["F F F L", "F F F"]}, hands=["S", "B S"], deck="L", current=1)
    game.apply(Play("B", C))
    assert game.army_key(C, 0) == game.army_key(C, 1)
    assert game.territory_owner(C) == 0


def test_three_players_are_ranked_with_ties_by_completion() -> None:
    game = position(
        {J: ["H H H S", "H H H L", "H H H"]},
        hands=["L", "L", "B L"],
        deck="",
        completed=[(J, 1), (J, 0)],
        current=2,
        scoring="points",
    )
    game.apply(Play("B", J))
    assert game.ranking(J) == (1, 0, 2)
    assert game.territory_owner(J) == 1
    assert game.scores[1] - game.scores[0] == 3 - 2 + (2 - 3) * 4 + 0  # filler went to player 0


def test_filled_and_decided_territories_refuse_cards() -> None:
    game = position({C: ["H", "F F F L"], J: ["L", "B"]}, hands=["S", "S"], deck="B B B", current=1)
    before = game.to_json()
    for action, reason in [
        (Play("S", C), "territory Cyprus already holds 4 of your cards"),
        (Play("S", A), "territory Antioch is already decided (won by player 0)"),
        (Play("LBSHF", J), "LBSHF is not in player 1's hand (S)"),
        (Pass(), "player 1 can still play"),
        (Claim(J), "army in Jerusalem is not complete (1 of 4 cards)"),
        (Claim(A), "Antioch is already decided"),
    ]:
        with pytest.raises(od.IllegalActionError, match=re.escape(reason)) as info:
            game.apply(action)
        assert info.value.action == action
        assert isinstance(info.value, ValueError)
        assert game.to_json() == before


@pytest.mark.parametrize("junk", ["S to Cyprus", None, 3, (Card.parse("S"), C)])
def test_foreign_objects_are_type_errors(junk: object) -> None:
    game = od.Game.new(Rules(), seed=1)
    before = game.to_json()
    with pytest.raises(TypeError, match="Play, Claim or Pass"):
        game.apply(junk)  # type: ignore[arg-type]
    assert game.to_json() == before


def test_actions_built_from_bad_values_fail_clearly() -> None:
    with pytest.raises(od.InvalidTerritoryError, match="got 5"):
        Play("S", 5)  # type: ignore[arg-type]
    with pytest.raises(od.InvalidCardError, match="'Q'"):
        Play("Q", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Claim(1.5)  # type: ignore[arg-type]
    with pytest.raises(od.InvalidTerritoryError, match="'Narnia'"):
        Claim("Narnia")
    assert Claim("Cyprus") == Claim(C)  # a territory's name will do


def test_acting_on_a_finished_game() -> None:
    game = position({C: ["F F F L", "H H H"]}, hands=["S", "H S"], deck="", current=1)
    game.apply(Play("H", C))
    assert game.is_over and game.legal_actions() == []
    with pytest.raises(od.IllegalActionError, match="the game is over"):
        game.apply(Play("S", C))


def test_seats_are_checked() -> None:
    game = od.Game.new(Rules(), seed=1)
    with pytest.raises(od.InvalidSeatError, match="got 2"):
        game.hand(2)
    with pytest.raises(TypeError, match="'0'"):
        game.view("0")  # type: ignore[arg-type]


# --- passing, skipping, the safety rule ---------------------------------------------


def test_a_player_without_play_or_claim_is_skipped() -> None:
    # Player 1 is complete everywhere and can prove nothing: player 0 plays again.
    armies = {C: ["LH", "H H H H"], J: ["LH", "H H H H"]}
    game = position(armies, hands=["LH", "L"], deck="LH LH LH", current=0)
    game.apply(Play("LH", J))
    assert not game.can_claim(1, C) and not game.can_claim(1, J)
    assert game.current_player == 0
    assert game.hand(0) == _cards("LH")  # drew at the start of the turn


def test_a_player_who_can_only_claim_is_asked_claim_or_pass() -> None:
    game = position({C: ["F F F F", "L"]}, hands=["S", "B"], deck="H", current=0)
    assert game.legal_actions() == [Claim(C), Pass()]
    passed = game.clone()
    passed.apply(Pass())
    assert passed.current_player == 1 and not passed.is_decided(C)
    game.apply(Claim(C))
    assert game.territory_owner(C) == 0 and game.marker(C) == 5 and game.is_over


def test_safety_rule_ends_a_game_nobody_can_continue() -> None:
    game = position(
        {C: ["L L L", "F F F"]}, hands=["", "F B"], deck="", current=1, scoring="points"
    )
    game.apply(Play("F", C))
    assert game.is_over and not game.is_decided(C)
    assert game.scores == (12, 8) and game.winner == 0


# --- early claims -------------------------------------------------------------------


def test_claim_against_an_incomplete_opponent_needs_them_unable_to_do_better() -> None:
    # Player 1 could only tie (no F left): ties go to player 0, who completed first.
    base = {C: ["F F F L", "F F F"], J: ["L", "B"]}
    provable = position(base, hands=["S", "H"], deck="B H")
    assert provable.can_claim(0, C)
    assert Claim(C) in provable.legal_actions()
    assert provable.claim_counterexample(0, C) is None
    refuted = position(base, hands=["S", "H"], deck="B F")
    assert not refuted.can_claim(0, C)
    counter = refuted.claim_counterexample(0, C)
    assert counter is not None and counter.opponent == 1 and counter.cards == _cards("F")
    with pytest.raises(od.IllegalActionError, match="player 1 could still reach 1 regiment"):
        refuted.apply(Claim(C))


def test_claim_pool_includes_the_claimants_own_hand_unless_private() -> None:
    base = {C: ["F F F L", "F F F"], J: ["L", "B"]}
    public = position(base, hands=["F", "H"], deck="B H")
    assert not public.can_claim(0, C)
    private = position(base, hands=["F", "H"], deck="B H", claim_proof="private")
    assert private.can_claim(0, C)


def test_complete_opponents_win_ties_only_if_they_completed_first() -> None:
    armies = {J: ["H H H S", "H H H L", "L"]}
    pool = dict(hands=["B", "B", "B"], deck="B B")
    earlier = position(armies, completed=[(J, 1), (J, 0)], current=2, **pool)  # type: ignore[arg-type]
    assert not earlier.can_claim(0, J)
    assert earlier.claim_counterexample(0, J) == od.Counterexample(1, (), earlier.army_key(J, 1))
    later = position(armies, completed=[(J, 0), (J, 1)], current=2, **pool)  # type: ignore[arg-type]
    assert later.can_claim(0, J) and not later.can_claim(1, J)


def test_no_claims_under_points_scoring() -> None:
    game = position({C: ["F F F F", "L"], J: ["L", "B"]}, hands=["S", "B"], deck="H", scoring="points")
    assert not game.can_claim(0, C)
    assert Claim(C) not in game.legal_actions()
    with pytest.raises(od.IllegalActionError, match="not available"):
        game.apply(Claim(C))


def test_auto_claim_awards_provable_territories_to_any_player_after_a_play() -> None:
    # Player 1 plays the last F into Jerusalem: now nobody can beat player 0 in Cyprus.
    game = position(
        {C: ["F F F L", "F F F"], J: ["L", "B"]}, hands=["S", "F"], deck="B H", current=1, auto_claim=True
    )
    game.apply(Play("F", J))
    assert game.territory_owner(C) == 0 and game.marker(C) == 4
    assert not game.is_decided(J) and not game.is_over


def test_claims_do_not_end_the_turn() -> None:
    game = position({C: ["F F F F", "L"], J: ["L", "B"]}, hands=["S", "B"], deck="H")
    assert Claim(C) in game.legal_actions()
    game.apply(Claim(C))
    assert game.current_player == 0 and game.marker(C) == 4
    game.apply(Play("S", J))
    assert game.current_player == 1


# --- scoring and tie-breaks ---------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "marker_owners", "tie_break", "expected"),
    [
        (3, [0, 1, 2, 0, 1], "latest_capture", 1),
        (3, [0, 1, 2, 0, 1], "lowest_marker_sum", 0),
        (3, [0, 1, 1, 0, 2], "lowest_marker_sum", 0),  # sums 5 and 5: latest capture decides
        (3, [0, 1, 1, 0, 2], "latest_capture", 0),
        (2, [0, 1], "latest_capture", 1),
        (2, [0, 1], "lowest_marker_sum", 0),
        (4, [], "latest_capture", None),
        (4, [3, 2, 1, 0], "latest_capture", 0),
        (4, [3, 2, 1, 0], "lowest_marker_sum", 3),
    ],
)
def test_tie_breaks(players: int, marker_owners: list[int], tie_break: str, expected: int | None) -> None:
    from ordonnance.conformance import random_playthrough

    game = random_playthrough(Rules(players=players, tie_break=tie_break), seed=3, deep=False)  # type: ignore[arg-type]
    # White-box: marker k (1-based) goes to marker_owners[k-1], on territory k-1.
    game._owner = [marker_owners[t] if t < len(marker_owners) else -1 for t in range(5)]
    game._marker = [t + 1 if t < len(marker_owners) else 0 for t in range(5)]
    markers = [[t + 1 for t in range(len(marker_owners)) if marker_owners[t] == p] for p in range(players)]
    assert game.winner == expected == naive.winner(game.scores, markers, tie_break)


def test_points_scoring_gives_3_2_1_by_rank() -> None:
    from ordonnance.conformance import random_playthrough

    for seed in range(5):
        game = random_playthrough(Rules(players=4, scoring="points"), seed=seed, deep=False)
        expected = [0] * 4
        for t in Territory:
            if game.is_decided(t):
                armies = [[c.mask for c in game.army(t, p)] for p in range(4)]
                done = [game.completed_at(t, p) for p in range(4)]
                for rank, p in enumerate(naive.ranking(armies, done)):
                    expected[p] += (3, 2, 1, 0)[rank]
                assert game.territory_owner(t) == naive.ranking(armies, done)[0]
        assert game.scores == tuple(expected)
        markers = [[game.marker(t) or 0 for t in Territory if game.territory_owner(t) == p] for p in range(4)]
        assert game.winner == naive.winner(expected, markers, "latest_capture")


# --- text ------------------------------------------------------------------------


def test_board_text_shows_armies_owners_and_status() -> None:
    game = position({C: ["F F F L", "H H H"]}, hands=["S", "H S"], deck="L B", current=1)
    text = str(game)
    assert "Cyprus    F F F L*" in text and "player 1 to act" in text
    game.apply(Play("H", C))
    assert "player 1 (marker 5)" in str(game) and "game over: player 0 wins" in str(game)
    assert repr(game) == "<Game 2 players, 40 cards played, over>"
