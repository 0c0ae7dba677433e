"""Hand-made positions for every rule of RULES-black-prince.md.

Rows: 0 = seat 1's back row, 1 = seat 1's front row, 2 = seat 0's front row,
3 = seat 0's back row.
"""

from __future__ import annotations

import random

import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import EndBattle, EndTurn, Fight, MountedMove, Move, Place, PlaceBehind, PlayBattle
from ordonnance.errors import IllegalActionError, OrdonnanceTypeError

from ordonnance.black_prince.bots import Random

from .positions import TEST_RULES, position, seat_cards

C = bp.Card.parse


def kinds(game: bp.Game, kind: type) -> list[object]:
    return [a for a in game.legal_actions() if type(a) is kind]


# ---------------------------------------------------------------- the deal


def test_new_game_deals_six_each_and_seat_zero_starts() -> None:
    game = bp.Game.new(bp.Rules(armies=("Scottish", "French")), seed=11)
    assert [len(game.hand(s)) for s in (0, 1)] == [6, 6] and [game.deck_size(s) for s in (0, 1)] == [19, 19]
    assert game.current_player == 0 and game.phase == "place" and game.turn == 1 and game.front_count() == 0
    assert game == bp.Game.new(bp.Rules(armies=("Scottish", "French")), seed=11)
    assert game != bp.Game.new(bp.Rules(armies=("Scottish", "French")), seed=12)


# ---------------------------------------------------------------- placement


def test_the_first_card_may_go_anywhere_in_the_front_row() -> None:
    game = position({}, hands=[["Knights 3", "Battle"], ["Archers 1"]])
    assert kinds(game, Place) == [Place(C("Knights 3"), c) for c in range(6)]
    assert not kinds(game, PlaceBehind) and not kinds(game, Move)


def test_later_cards_go_opposite_an_enemy_or_beside_an_own_unit() -> None:
    game = position({(2, 1): "Knights 3", (1, 4): "Archers 2"}, hands=[["Archers 1"], []])
    assert [a.column for a in kinds(game, Place)] == [0, 2, 4]  # beside column 1, or opposite column 4
    with pytest.raises(IllegalActionError):
        game.apply(Place(C("Archers 1"), 5))


def test_the_front_line_never_holds_more_than_six_cards() -> None:
    cells = {(2, 0): "Archers 1", (2, 1): "Archers 1", (1, 0): "Knights 1", (1, 1): "Knights 1", (1, 2): "Knights 2"}
    game = position(cells, hands=[["Archers 2", "Pikemen 1"], []])
    assert game.front_count() == 5 and kinds(game, Place)
    game.apply(Place(C("Archers 2"), 2))  # the sixth card: a battle is forced
    assert game.front_count() == 6 and game.phase == "battle" and game.current_player == 0
    full = position({(2, 0): "Archers 1", (2, 1): "Archers 1", (2, 2): "Archers 2", (1, 0): "Knights 1",
                     (1, 1): "Knights 1", (1, 3): "Knights 2"}, hands=[["Pikemen 1"], []])  # fmt: skip
    assert full.legal_actions() == [Move(2, 1)]  # a full line takes no card; a move is still possible
    full.apply(Move(2, 1))
    assert full.phase == "battle" and full.current_player == 0  # still six after step 1: a battle


def test_place_behind_needs_line_infantry_of_the_same_type_and_ignores_strength() -> None:
    cells = {(2, 0): "Pikemen 1", (2, 1): "Knights 3", (2, 2): "Swordsmen 2", (3, 2): "Swordsmen 1", (1, 0): "Archers 1"}
    game = position(cells, hands=[["Pikemen 3", "Knights 2", "Swordsmen 3", "Halberdiers 1"], []])
    assert kinds(game, PlaceBehind) == [PlaceBehind(C("Pikemen 3"), 0)]  # not behind knights, not a third rank
    game.apply(PlaceBehind(C("Pikemen 3"), 0))
    assert game.cell(3, 0) == C("Pikemen 3") and game.front_count() == 4


def test_a_move_takes_the_card_behind_and_needs_the_placement_rule() -> None:
    cells = {(2, 1): "Pikemen 1", (3, 1): "Pikemen 2", (2, 2): "Archers 1", (1, 0): "Knights 1"}
    game = position(cells, hands=[["Battle"], []])
    # column 1 may go left (opposite the knights); column 2 may not go right (nothing there once it left)
    assert kinds(game, Move) == [Move(1, -1)]  # column 2 -> 3 would stand beside nobody, opposite nobody
    game.apply(Move(1, -1))
    assert game.cell(2, 0) == C("Pikemen 1") and game.cell(3, 0) == C("Pikemen 2")
    assert game.cell(2, 1) is None and game.cell(3, 1) is None


def test_a_move_needs_a_neighbour_other_than_its_old_square() -> None:
    game = position({(2, 2): "Archers 1", (1, 5): "Knights 1"}, hands=[["Pikemen 1"], []])
    assert kinds(game, Move) == []  # column 2 alone: after moving it would stand beside nobody
    game = position({(2, 2): "Archers 1", (2, 3): "Archers 2", (1, 4): "Knights 1"}, hands=[["Battle"], []])
    assert kinds(game, Move) == [Move(3, 1)]  # 3 -> 4 is opposite the knights; 2 -> 1 is beside nobody


def test_battle_cards_are_never_placed_and_the_step_is_skipped_without_a_legal_one() -> None:
    game = position({(1, 0): "Knights 1"}, hands=[["Battle"], ["Archers 2"]], current=1)
    game.apply(Place(C("Archers 2"), 1))
    # seat 0 holds only a Battle card and has no unit to move: its first step is skipped, it draws
    assert game.current_player == 0 and game.phase == "choose" and len(game.hand(0)) == 6
    assert game.legal_actions() == [PlayBattle(), EndTurn()]


def test_the_draw_fills_the_hand_to_six_and_never_discards() -> None:
    game = position({(1, 0): "Knights 1"}, hands=[["Archers 1", "Archers 2"], ["Knights 2"]])
    top = list(game._parts()["decks"][0][:5])
    game.apply(Place(C("Archers 1"), 0))
    assert len(game.hand(0)) == 6 and list(game.hand(0)[1:]) == top


# ---------------------------------------------------------------- starting a battle


def test_a_battle_card_may_be_played_after_placing() -> None:
    game = position({(1, 0): "Knights 1"}, hands=[["Archers 1", "Battle"], ["Knights 2"]])
    game.apply(Place(C("Archers 1"), 0))
    assert game.phase == "choose"
    game.apply(PlayBattle())
    assert game.phase == "battle" and game.discard(0) == (bp.BATTLE,) and bp.BATTLE not in game.hand(0)
    assert game.legal_actions() == [Fight(0, 0)]  # frontal: mandatory, so no EndBattle


def test_ending_the_turn_keeps_the_battle_card() -> None:
    game = position({(1, 0): "Knights 1"}, hands=[["Archers 1", "Battle"], ["Knights 2"]])
    game.apply(Place(C("Archers 1"), 0))
    game.apply(EndTurn())
    assert game.current_player == 1 and bp.BATTLE in game.hand(0) and game.phase == "place"


# ---------------------------------------------------------------- the battle


def battle(cells: dict[tuple[int, int], str], **flags: object) -> bp.Game:
    return position(cells, hands=[["Battle"], ["Archers 3"]], phase="battle", battle={"contact": [], **flags})


def test_mounted_units_move_once_each_before_the_first_fight() -> None:
    cells = {(2, 1): "Knights 2", (2, 2): "Pikemen 1", (2, 4): "Light cavalry 1", (1, 2): "Archers 1"}
    game = battle(cells, contact=[1, 2])
    moves = kinds(game, MountedMove)
    assert moves == [MountedMove(1, -1), MountedMove(4, -1), MountedMove(4, 1)]  # pikemen never ride
    game.apply(MountedMove(4, -1))
    assert game.cell(2, 3) == C("Light cavalry 1") and MountedMove(3, 1) not in game.legal_actions()
    assert game.battle_state()[2][3]  # now beside the archers: contact
    game.apply(Fight(2, 2))
    assert kinds(game, MountedMove) == []


def test_frontal_fights_are_mandatory_and_diagonal_ones_optional() -> None:
    game = battle({(2, 1): "Swordsmen 1", (2, 3): "Archers 1", (1, 1): "Archers 1", (1, 4): "Archers 1"},
                  contact=[1, 3])  # fmt: skip
    assert game.legal_actions() == [Fight(1, 1), Fight(3, 4)]  # no EndBattle: column 1 must fight
    game.apply(Fight(1, 1))  # 1 + 0 (swordsmen vs archers) ties 1: nothing happens
    assert game.cell(1, 1) == C("Archers 1") and game.cell(2, 1) == C("Swordsmen 1")
    assert game.legal_actions() == [Fight(3, 4), EndBattle()]  # each unit attacks once; diagonal optional
    game.apply(EndBattle())
    assert game.current_player == 1 and game.phase == "place"


def test_a_unit_may_be_attacked_by_several_units() -> None:
    cells = {(2, 2): "Pikemen 2", (2, 1): "Swordsmen 2", (1, 2): "Pikemen 2"}
    game = battle(cells, contact=[1, 2])
    game.apply(Fight(2, 2))  # 2 against 2: nothing happens
    assert game.cell(1, 2) == C("Pikemen 2")
    result = game.fight_preview(Fight(1, 2))
    assert (result.attacker.advantage, result.attacker.flank, result.attacker.total, result.defender.total) == (1, 1, 4, 2)
    game.apply(Fight(1, 2))
    assert game.cell(1, 2) is None and game.routed == (1, 0)


def test_a_unit_that_attacked_still_supports() -> None:
    cells = {(2, 1): "Archers 3", (2, 2): "Pikemen 1", (1, 2): "Knights 3", (1, 0): "Archers 1"}
    game = battle(cells, contact=[1, 2])
    first = game.fight_preview(Fight(1, 0))
    assert (first.attacker.total, first.attacker.flank, first.defender.total) == (4, 1, 1)
    game.apply(Fight(1, 0))
    assert game.cell(1, 0) is None and game.routed == (1, 0)
    second = game.fight_preview(Fight(2, 2))
    assert (second.attacker.advantage, second.attacker.archers, second.attacker.total) == (1, 1, 3)
    assert second.defender.total == 3 and second.winner is None


@pytest.mark.parametrize(
    ("cells", "square", "parts"),
    [
        # double line: +1 for line infantry with its own type behind
        ({(2, 2): "Pikemen 1", (3, 2): "Pikemen 3", (1, 2): "Pikemen 1"}, (2, 2), (1, 0, 1, 0, 0)),
        # archer support: an own archer beside, itself not engaged, for an engaged unit
        ({(2, 2): "Halberdiers 1", (2, 1): "Archers 1", (2, 3): "Light cavalry 1", (1, 2): "Swordsmen 1",
          (1, 3): "Pikemen 1"}, (2, 2), (1, 0, 0, 1, 0)),  # column 3 is engaged: it does not support
        # flank: a diagonal attack by a unit that is not engaged
        ({(2, 1): "Knights 1", (1, 2): "Knights 1", (2, 2): "Archers 1"}, (2, 1), (1, 0, 0, 0, 1)),
        # advantage: +1 against a type the unit fights better
        ({(2, 2): "Spearmen 1", (1, 2): "Light cavalry 1"}, (2, 2), (1, 1, 0, 0, 0)),
    ],
)
def test_each_support(cells: dict[tuple[int, int], str], square: tuple[int, int], parts: tuple[int, ...]) -> None:
    game = battle(cells, contact=[c for (r, c) in cells if r == 2])
    target = (1, 2)
    result = bp.fight(square, target, game)
    side = result.attacker
    assert (side.strength, side.advantage, side.double_line, side.archers, side.flank) == parts
    assert result == game.fight_preview(Fight(square[1], 2))


def test_archers_do_not_support_a_unit_that_is_not_engaged() -> None:
    game = battle({(2, 1): "Knights 1", (2, 0): "Archers 1", (1, 2): "Archers 1"}, contact=[1])
    result = bp.fight((2, 1), (1, 2), game)
    assert result.attacker.archers == 0 and result.attacker.flank == 1
    # the defender is not engaged either (nothing opposite column 2): no archer support for it
    assert result.defender.archers == 0


def test_supports_count_for_the_defender_too() -> None:
    cells = {(2, 2): "Knights 1", (1, 2): "Pikemen 1", (0, 2): "Pikemen 1", (1, 1): "Archers 1"}
    result = bp.fight((2, 2), (1, 2), battle(cells, contact=[2]))
    assert (result.defender.advantage, result.defender.double_line, result.defender.archers) == (1, 1, 1)
    assert result.defender.total == 4 and result.winner == "defender" and result.losses == (C("Knights 1"),)


def test_a_beaten_double_line_loses_both_cards() -> None:
    cells = {(2, 2): "Knights 3", (1, 2): "Swordsmen 1", (0, 2): "Swordsmen 2"}
    game = battle(cells, contact=[2])
    result = game.fight_preview(Fight(2, 2))
    assert result.attacker.total == 4 and result.defender.total == 2
    game.apply(Fight(2, 2))
    assert game.cell(1, 2) is None and game.cell(0, 2) is None
    assert game.discard(1) == (C("Swordsmen 1"), C("Swordsmen 2")) and game.routed == (2, 0)


def test_the_attacker_can_lose_its_unit() -> None:
    game = battle({(2, 2): "Archers 1", (1, 2): "Knights 3"}, contact=[2])
    game.apply(Fight(2, 2))
    assert game.cell(2, 2) is None and game.discard(0)[-1] == C("Archers 1") and game.routed == (0, 1)


def test_equal_totals_change_nothing() -> None:
    game = battle({(2, 2): "Archers 2", (1, 2): "Archers 2"}, contact=[2])
    before = game.battlefield
    game.apply(Fight(2, 2))
    assert game.battlefield == before and game.routed == (0, 0)


# ---------------------------------------------------------------- breakthroughs


def test_a_unit_without_contact_all_battle_breaks_through() -> None:
    cells = {(2, 0): "Archers 1", (2, 5): "Knights 1", (1, 0): "Archers 1"}
    game = position(cells, hands=[["Battle"], ["Archers 3", "Battle", "Knights 2"]], phase="battle",
                    battle={"contact": [0]})  # fmt: skip
    game.apply(Fight(0, 0))  # a tie; nothing is left to decide, and the knights never met an enemy
    assert game.phase == "place" and game.current_player == 1
    assert len(game.hand(1)) == 2 and len(game.discard(1)) == 1
    taken = game.discard(1)[0]
    assert game.routed[0] == (0 if taken.is_battle else 1)


def test_riding_away_from_contact_does_not_break_through() -> None:
    cells = {(2, 1): "Knights 1", (1, 0): "Archers 1", (2, 0): "Archers 2"}
    game = position(cells, hands=[["Battle"], ["Archers 3", "Knights 2"]], phase="battle",
                    battle={"contact": [0, 1]})  # fmt: skip
    game.apply(MountedMove(1, 1))  # to column 2: no enemy near now, but it had contact
    game.apply(Fight(0, 0))  # 2 + 0 vs 1: archers routed
    assert game.phase == "place" and len(game.hand(1)) == 2 and game.routed == (1, 0)


def test_breakthrough_draws_at_random_from_the_game_stream() -> None:
    taken = set()
    for seed in range(30):
        game = position({(2, 3): "Pikemen 1"}, hands=[["Battle"], ["Archers 3", "Battle", "Knights 2"]],
                        phase="choose", seed=seed)  # fmt: skip
        game.apply(PlayBattle())
        taken.add(game.discard(1)[0])
    assert taken == {C("Archers 3"), bp.BATTLE, C("Knights 2")}


# ---------------------------------------------------------------- the end


def test_the_sixth_rout_wins_at_once_in_mid_battle() -> None:
    cells = {(2, 1): "Knights 3", (2, 2): "Knights 3", (1, 1): "Archers 1", (1, 2): "Archers 1"}
    routed = ["Archers 2"] * 2 + ["Knights 1"] * 2 + ["Swordsmen 1"]
    game = position(cells, hands=[["Battle"], ["Archers 3"]], discards=[[], routed], phase="battle",
                    battle={"contact": [1, 2]})  # fmt: skip
    game.apply(Fight(1, 1))
    assert game.is_over and game.winner == 0 and game.winners == (0,) and game.routed == (6, 0)
    assert game.legal_actions() == [] and game.cell(1, 2) == C("Archers 1")
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(Fight(2, 2))


SMALL = bp.Rules(armies=("Blue", "Red"), decks=(["Knights 1", "Archers 2"] + ["Battle"] * 4,
                                                ["Archers 1", "Pikemen 1"] + ["Battle"] * 4))  # fmt: skip


def test_exhausted_decks_and_hands_end_the_game_on_routs() -> None:
    cells = {(2, 0): "Knights 1", (1, 3): "Archers 1"}
    game = position(cells, hands=[["Archers 2"], []], decks=[[], []], rules=SMALL,
                    discards=[["Battle"] * 4, ["Pikemen 1"] + ["Battle"] * 4])  # fmt: skip
    game.apply(Place(C("Archers 2"), 3))  # both hands and decks are now empty
    assert game.is_over and game.winner == 0 and game.routed == (1, 0) and game.winners == (0,)
    cells[(1, 4)] = "Pikemen 1"
    draw = position(cells, hands=[["Archers 2"], []], decks=[[], []], rules=SMALL,
                    discards=[["Battle"] * 4, ["Battle"] * 4])  # fmt: skip
    draw.apply(Place(C("Archers 2"), 1))
    assert draw.is_over and draw.winner is None and draw.winners == (0, 1)


def test_a_player_out_of_cards_keeps_playing_while_the_other_has_some() -> None:
    cells = {(2, 0): "Knights 1", (1, 3): "Archers 1"}
    game = position(cells, hands=[["Archers 2"], ["Pikemen 1"]], decks=[[], []], rules=SMALL,
                    discards=[["Battle"] * 4, ["Battle"] * 4])  # fmt: skip
    game.apply(Place(C("Archers 2"), 3))
    assert not game.is_over and game.current_player == 1


P2, P1 = C("Pikemen 2"), C("Pikemen 1")
PIKES = bp.Rules(armies=("A", "B"), decks=([P2] * 3 + [P1] * 3, [P2] * 3 + [P1] * 3))
#: Both seats' six cards played out by the end of turn 12, the front line full.
PIKES_PLAY = (
    [Place(P2, 1)] * 2 + [PlaceBehind(P1, 1)] * 2 + [Place(P2, 2)] * 2 + [PlaceBehind(P1, 2)] * 2
    + [Place(P2, 3), Place(P2, 0), Fight(1, 1), Fight(2, 2), EndBattle(), PlaceBehind(P1, 3), Fight(1, 1),
       Fight(2, 2), EndBattle(), PlaceBehind(P1, 0), Fight(1, 1), Fight(2, 2), EndBattle()]
)  # fmt: skip


def test_no_card_left_does_not_end_the_game_while_a_forced_battle_remains() -> None:
    """Issue 34: with every card played the next seat must still move, and the full front
    line then forces a battle; the game ends only when neither seat can do anything."""
    game = bp.Game.new(PIKES, seed=0)
    for action in PIKES_PLAY:
        game.apply(action)
    assert [len(game.hand(s)) + game.deck_size(s) for s in (0, 1)] == [0, 0] and game.front_count() == 6
    assert not game.is_over and (game.turn, game.current_player, game.phase) == (13, 0, "place")
    assert game.legal_actions() == [Move(1, -1)]  # the only first step
    game.apply(Move(1, -1))
    assert game.phase == "battle" and game.current_player == 0  # the full line forces it
    result = game.fight_preview(Fight(3, 2))
    a, d = result.attacker, result.defender
    assert (a.strength, a.double_line, a.flank, a.total) == (2, 1, 1, 4) and (d.total, result.winner) == (3, "attacker")
    game.apply(Fight(3, 2))
    assert game.routed == (2, 0) and game.discard(1) == (P2, P1)
    engine_moves = bp.Game.from_json(game.to_json())  # a save of such a game loads, and plays on alike
    assert engine_moves == game


def test_no_card_left_and_a_move_possible_the_game_goes_on_to_the_turn_limit() -> None:
    rules = bp.Rules(armies=("Blue", "Red"), max_turns=20,
                     decks=(["Knights 1", "Knights 2", "Archers 2"] + ["Battle"] * 4, SMALL.decks[1]))  # fmt: skip
    game = position({(2, 0): "Knights 1", (2, 1): "Knights 2", (1, 3): "Archers 1"}, hands=[["Archers 2"], []],
                    decks=[[], []], rules=rules, discards=[["Battle"] * 4, ["Pikemen 1"] + ["Battle"] * 4])  # fmt: skip
    game.apply(Place(C("Archers 2"), 2))  # every card is played and the line holds 4
    assert game.front_count() == 4 and not game.is_over
    assert (game.current_player, game.legal_actions()) == (1, [Move(3, -1)])  # seat 1 can still move
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.turn == 20 and game.routed == (1, 0) and game.winner == 0  # the result could not change


def test_the_first_card_is_the_only_one_placed_with_both_front_rows_empty() -> None:
    """The rules open the whole front row to the very first card of the game; the engine
    opens it whenever both front rows are empty. The same: once a card stands in the
    front line, a fight always leaves its winner there, so the line is never empty again."""
    for seed in range(40):
        rng = random.Random(seed)
        game = bp.Game.new(bp.Rules(armies=("Scottish", "English")), seed=seed)
        placed = False
        while not game.is_over:
            assert not placed or game.front_count() > 0, (seed, game.history)
            game.apply(rng.choice(game.legal_actions()))
            placed = placed or game.front_count() > 0


def test_the_turn_limit_ends_a_stalled_game() -> None:
    rules = bp.Rules(armies=("Blue", "Red"), decks=TEST_RULES.decks, max_turns=6)
    game = position({(2, 0): "Archers 1", (1, 0): "Archers 1"}, hands=[["Archers 2"], ["Archers 2"]], rules=rules,
                    turn=6)  # fmt: skip
    game.apply(Place(C("Archers 2"), 1))
    assert game.is_over and game.winner is None and game.turn == 6


# ---------------------------------------------------------------- refusals


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = bp.Game.new(bp.Rules(), seed=2)
    before = game.clone()
    for bad in [Fight(0, 0), EndBattle(), PlayBattle(), Place(C("Knights 3"), 0), Move(0, 1),
                PlaceBehind(game.hand(0)[0], 0)]:  # fmt: skip
        with pytest.raises(IllegalActionError) as info:
            game.apply(bad)
        assert info.value.action == bad and isinstance(info.value, ValueError)
        assert game == before
    with pytest.raises(OrdonnanceTypeError):
        game.apply("place")  # type: ignore[arg-type]
    with pytest.raises(bp.InvalidSquareError):
        Fight(0, 6)
    for where in (game, game.battlefield, game.view(1)):
        with pytest.raises(bp.InvalidSquareError):
            where.cell(4, 0)
        with pytest.raises(bp.InvalidSquareError):
            where.cell(-1, 0)  # no wrap-around to the last row
        with pytest.raises(OrdonnanceTypeError):
            where.cell("2", 0)  # type: ignore[arg-type]


def test_seats_are_checked() -> None:
    game = bp.Game.new(bp.Rules(), seed=2)
    with pytest.raises(ValueError, match="seat must be 0..1, got 2"):
        game.hand(2)
    with pytest.raises(TypeError):
        game.view("0")  # type: ignore[arg-type]


def test_cards_are_conserved_through_a_game() -> None:
    game = bp.Game.new(bp.Rules(armies=("Burgundian", "Scottish")), seed=9)
    bots = [Random(seed=1), Random(seed=2)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
        for seat in (0, 1):
            assert sorted(seat_cards(game, seat).elements(), key=lambda c: c.sort_key) == list(game.rules.deck(seat))


def test_given_deck_orders_are_dealt_top_first_and_checked() -> None:
    rules = bp.Rules(armies=("Scottish", "English"))
    orders = [list(rules.deck(0))[::-1], list(rules.deck(1))]
    game = bp.Game.new(rules, seed=3, orders=orders)
    assert list(game.hand(0)) == orders[0][:6] and list(game.hand(1)) == orders[1][:6]
    assert list(game._parts()["decks"][0]) == orders[0][6:]
    from ordonnance.errors import InvalidDeckError, InvalidSeedError

    with pytest.raises(InvalidDeckError, match="orders\\[1\\]"):
        bp.Game.new(rules, seed=3, orders=[orders[0], orders[1][:-1]])
    with pytest.raises(OrdonnanceTypeError):
        bp.Game.new(rules, seed=3, orders=[orders[0]])
    with pytest.raises(InvalidSeedError):
        bp.Game.new(rules, seed=-1)
    with pytest.raises(OrdonnanceTypeError):
        bp.Game.new("rules")  # type: ignore[arg-type]


def test_game_entry_points_refuse_bad_values_with_the_library_error() -> None:
    """Issue 34: a bad value to ``Game.new`` or a method is the library's error, showing it."""
    import itertools

    import numpy as np

    from ordonnance.errors import InvalidArgumentError, InvalidDeckError, InvalidSeatError

    with pytest.raises(OrdonnanceTypeError, match="orders must be an iterable of items, got 5"):
        bp.Game.new(orders=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="orders must have at most 2 items"):
        bp.Game.new(orders=itertools.cycle([[]]))  # type: ignore[arg-type]
    with pytest.raises(InvalidDeckError, match=r"orders\[0\] must have at most 25 items"):
        bp.Game.new(orders=[itertools.repeat(bp.BATTLE), []])
    with pytest.raises(OrdonnanceTypeError, match=r"orders\[0\] must hold Cards, got \[1\]"):
        bp.Game.new(orders=[[[1]], []])  # type: ignore[list-item]
    game = bp.Game.new(bp.Rules(), seed=1)
    before = game.to_json()
    with pytest.raises(OrdonnanceTypeError, match=r"takes a Fight action, got EndTurn\(\)"):
        game.fight_preview(EndTurn())  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not the 'battle' step"):
        game.fight_preview(Fight(0, 0))
    with pytest.raises(InvalidSeatError, match="got -1"):
        game.hand(-1)
    with pytest.raises(OrdonnanceTypeError, match="got True"):
        game.deck_size(True)
    assert game.hand(np.int64(1)) == game.hand(1) and game.to_json() == before
