"""Every rule of RULES-shinobi.md on hand-made positions and scripted deals."""

from __future__ import annotations

import pickle

import pytest

from ordonnance.errors import IllegalActionError, InvalidRulesError, OrdonnanceTypeError
from ordonnance.shinobi import Attack, Card, Deploy, Game, Move, Ninja, Pass, Reinforce, Rules
from ordonnance.shinobi.cards import NINJA

from .positions import dealt, position

GO, MORI, ODA, TAKEDA, UESUGI = range(5)
EMPTY = (0, 0, 0, 0, 0)


def play(game: Game, *actions: object) -> None:
    for action in actions:
        game.apply(action)  # type: ignore[arg-type]


def scripted(attack: str = "mandatory") -> Game:
    """Three turns of a real deal: seat 0 has a Go-Hojo army of 2 at home afterwards."""
    game = dealt(
        Rules(players=3, attack=attack),  # type: ignore[arg-type]
        clans=(GO, MORI, ODA),
        hands=([GO, TAKEDA, MORI, MORI], [MORI, UESUGI, UESUGI, UESUGI], [GO, ODA, ODA, ODA]),
        draws=(MORI, MORI),
    )
    play(game, Deploy(TAKEDA, 1), Reinforce(GO))  # no army of 2 at home: order 3 skipped
    assert (game.current_player, game.order, game.hand(0)) == (1, 1, tuple(map(Card, (MORI, MORI, MORI, MORI))))
    play(game, Deploy(UESUGI, 2), Reinforce(MORI))
    play(game, Deploy(GO, 0), Reinforce(ODA))
    assert [game.province(p) for p in range(3)] == [(2, 0, 0, 0, 0), (0, 1, 0, 1, 0), (0, 0, 1, 0, 1)]
    return game


# ---------------------------------------------------------------- setup


def test_the_default_troop_deck_and_the_deal() -> None:
    rules = Rules()
    assert (rules.players, len(rules.troop_deck), rules.troop_deck.count(NINJA)) == (4, 58, 3)
    game = Game.new(rules, seed=11)
    assert [len(game.hand(p)) for p in range(4)] == [4, 4, 4, 4] and game.deck_size == 58 - 16
    assert len({game.clan(p) for p in range(4)} | set(game.neutral_clans)) == 5
    assert (game.current_player, game.order, game.turns, game.final_round) == (0, 1, 0, False)


def test_cards_are_dealt_one_at_a_time_in_seat_order() -> None:
    rules = Rules(players=3)
    game = Game.new(rules, deck=list(rules.troop_deck), clans=(4, 0, 2))
    deck = rules.troop_deck
    assert [c.code for c in game.hand(1)] == [deck[1], deck[4], deck[7], deck[10]]
    assert (game.clan(0), game.neutral_clans) == (4, (1, 3))


def test_rules_refuse_impossible_decks_and_variants() -> None:
    with pytest.raises(InvalidRulesError, match="players must be 3..5, got 2"):
        Rules(players=2)
    with pytest.raises(InvalidRulesError, match="ninjas must be 0..3"):
        Rules(ninjas=4)
    with pytest.raises(InvalidRulesError, match="deals 20 cards, but the troop deck has 15"):
        Rules(players=5, samurai=3, ninjas=0)
    with pytest.raises(InvalidRulesError, match="'sometimes'"):
        Rules(attack="sometimes")  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError, match="samurai must be an int or 5 ints"):
        Rules(samurai=(1, 2))
    assert Rules(samurai=[1, 2, 3, 4, 5]).samurai == (1, 2, 3, 4, 5)
    assert Rules.from_dict(Rules(players=5, attack="optional").to_dict()) == Rules(players=5, attack="optional")


# ---------------------------------------------------------------- order 1


def test_deploy_goes_face_up_into_another_province_only() -> None:
    game = position([EMPTY] * 3, [[GO, GO, MORI, NINJA], [ODA] * 4, [ODA] * 4], clans=(0, 1, 2))
    assert game.legal_actions() == [Deploy(GO, 1), Deploy(GO, 2), Deploy(MORI, 1), Deploy(MORI, 2)]
    with pytest.raises(IllegalActionError, match="another player's province"):
        game.apply(Deploy(GO, 0))
    with pytest.raises(IllegalActionError, match="holds no Oda"):
        game.apply(Deploy(ODA, 1))
    game.apply(Deploy(MORI, 2))
    assert game.province(2) == (0, 1, 0, 0, 0) and game.changed(2, MORI) and game.order == 2
    assert sorted(c.code for c in game.hand(0)) == [GO, GO, NINJA]


def test_a_ninja_discards_itself_and_one_card_of_an_army_in_another_province() -> None:
    game = position([(1, 0, 0, 0, 0), (0, 0, 2, 0, 0), (0, 0, 0, 0, 1)], [[NINJA, GO, GO, GO], [ODA] * 4, [ODA] * 4],
                    clans=(0, 1, 2))  # fmt: skip
    assert game.legal_actions() == [Deploy(GO, 1), Deploy(GO, 2), Ninja(1, ODA), Ninja(2, UESUGI)]
    with pytest.raises(IllegalActionError, match="no Mori army"):
        game.apply(Ninja(1, MORI))
    with pytest.raises(IllegalActionError, match="another player's province"):
        game.apply(Ninja(0, GO))
    game.apply(Ninja(1, ODA))
    assert game.province(1) == (0, 0, 1, 0, 0) and game.discard == (0, 0, 1, 0, 0, 1)
    assert game.changed(1, ODA) and NINJA not in [c.code for c in game.hand(0)]


def test_a_ninja_without_a_target_is_no_order_1() -> None:
    game = position([EMPTY] * 3, [[NINJA, NINJA, NINJA, GO], [ODA] * 4, [ODA] * 4], clans=(0, 1, 2))
    assert all(type(a) is Deploy for a in game.legal_actions())


# ---------------------------------------------------------------- order 2


def test_reinforce_or_move_from_another_province_to_any_other() -> None:
    game = position([(3, 0, 0, 0, 0), (0, 1, 0, 0, 0), EMPTY], [[TAKEDA] * 4, [ODA] * 4, [ODA] * 4], clans=(0, 1, 2))
    game.apply(Deploy(TAKEDA, 2))
    assert game.legal_actions() == [Reinforce(TAKEDA), Move(1, MORI, 0), Move(1, MORI, 2),
                                    Move(2, TAKEDA, 0), Move(2, TAKEDA, 1)]  # fmt: skip
    with pytest.raises(IllegalActionError, match="own province"):
        game.apply(Move(0, GO, 1))
    with pytest.raises(IllegalActionError, match="order 2"):
        game.apply(Deploy(TAKEDA, 1))
    game.apply(Move(1, MORI, 2))  # to a third player's province
    assert game.province(1) == EMPTY and game.province(2) == (0, 1, 0, 1, 0)
    assert game.current_player == 1  # both armies in province 2 changed: no attack, order 3 skipped


def test_reinforce_puts_a_samurai_in_ones_own_province() -> None:
    game = scripted()
    assert game.province(0) == (2, 0, 0, 0, 0)  # one reinforced, one deployed by seat 2


# ---------------------------------------------------------------- order 3


def test_attack_needs_one_card_more_a_different_clan_and_an_unchanged_defender() -> None:
    game = scripted()
    play(game, Deploy(MORI, 1), Move(1, MORI, 2))  # Mori in and out of province 1: it changed
    assert game.province(1) == (0, 1, 0, 1, 0) and game.changed(1, MORI)
    assert game.legal_actions() == [Attack(GO, 1, TAKEDA), Attack(GO, 2, ODA), Attack(GO, 2, UESUGI)]
    with pytest.raises(IllegalActionError, match="changed size this turn"):
        game.apply(Attack(GO, 1, MORI))
    with pytest.raises(IllegalActionError, match="changed size this turn"):
        game.apply(Attack(GO, 2, MORI))  # it grew by the move
    before = game.clone()
    with pytest.raises(IllegalActionError, match="attacks are mandatory"):
        game.apply(Pass())
    assert game == before
    game.apply(Attack(GO, 2, UESUGI))
    assert game.province(2) == (0, 1, 1, 0, 0) and game.province(0) == (2, 0, 0, 0, 0)
    assert game.discard == (0, 0, 0, 0, 1, 0) and game.current_player == 1


def test_an_attacker_must_outnumber_the_defender_and_may_have_grown_this_turn() -> None:
    game = position([(2, 0, 0, 0, 0), (0, 3, 1, 0, 0), EMPTY], [[NINJA] * 3 + [GO], [ODA] * 4, [ODA] * 4],
                    clans=(0, 1, 2))  # fmt: skip
    play(game, Deploy(GO, 2), Move(2, GO, 0))
    assert game.province(0) == (3, 0, 0, 0, 0) and game.changed(0, GO)
    assert game.legal_actions() == [Attack(GO, 1, ODA)]
    with pytest.raises(IllegalActionError, match="an army of 3 cannot attack an army of 3"):
        game.apply(Attack(GO, 1, MORI))
    game.apply(Attack(GO, 1, ODA))
    assert game.province(1) == (0, 3, 0, 0, 0) and game.discard == (0, 0, 1, 0, 0, 0)


def test_an_army_does_not_attack_its_own_clan() -> None:
    game = position([(2, 0, 0, 0, 0), (1, 0, 0, 0, 0), EMPTY], [[NINJA] * 3 + [MORI], [ODA] * 4, [ODA] * 4],
                    clans=(0, 1, 2))  # fmt: skip
    play(game, Deploy(MORI, 2), Move(2, MORI, 0))
    assert game.current_player == 1  # the only army it outnumbers is Go-Hojo's: order 3 skipped
    with pytest.raises(IllegalActionError):
        game.apply(Attack(GO, 1, GO))


def test_optional_attack_offers_pass_only_with_an_attack() -> None:
    game = scripted(attack="optional")
    play(game, Deploy(MORI, 1), Move(1, MORI, 2))
    assert game.legal_actions()[-1] == Pass()
    game.apply(Pass())
    assert game.current_player == 1 and game.province(2) == (0, 1, 1, 0, 1)
    quiet = position([EMPTY] * 3, [[GO] * 4, [ODA] * 4, [ODA] * 4], clans=(0, 1, 2), attack="optional")
    play(quiet, Deploy(GO, 1), Reinforce(GO))
    assert quiet.current_player == 1  # no attack, so no pass: order 3 skipped


# ---------------------------------------------------------------- skipping, refill, the final round


def test_each_order_is_skipped_on_its_own() -> None:
    # An empty hand: order 1 is skipped, order 2 (a move) is still given. (A ninja
    # needs a card in another province, and so does a move: with only ninjas in
    # hand, orders 1 and 2 are skipped together.)
    game = position([(1, 0, 0, 0, 0), EMPTY, EMPTY], [[ODA] * 4, [], [ODA] * 4], clans=(0, 1, 2),
                    current=1, extra=3, discard=(2, 0, 0, 0, 0, 1))  # fmt: skip
    assert (game.current_player, game.order) == (1, 2)
    assert game.legal_actions() == [Move(0, GO, 1), Move(0, GO, 2)]
    game.apply(Move(0, GO, 2))
    assert game.current_player == 2  # no army at home: order 3 skipped too


def test_a_turn_with_every_order_skipped_still_counts() -> None:
    # Only ninjas, and no card in another province: no ninja target, no move, no attack.
    game = position([EMPTY] * 3, [[ODA] * 4, [NINJA, NINJA], [ODA] * 4], clans=(0, 1, 2), current=1, extra=3,
                    discard=(1, 0, 0, 0, 0, 1))  # fmt: skip
    assert (game.current_player, game.order, game.turns, game.extra_turns_left) == (2, 1, 1, 2)


def test_the_refill_draws_back_to_four_while_the_deck_lasts() -> None:
    game = position([EMPTY] * 3, [[GO] * 4, [ODA] * 4, [ODA] * 4], clans=(0, 1, 2), deck=(MORI, TAKEDA, UESUGI))
    play(game, Deploy(GO, 1), Reinforce(GO))
    assert [c.code for c in game.hand(0)] == [GO, GO, MORI, TAKEDA] and game.deck_size == 1
    assert not game.final_round


def test_the_final_round_gives_everyone_one_more_turn_next_seat_first() -> None:
    game = position([EMPTY] * 3, [[GO] * 4, [ODA] * 4, [MORI] * 4], clans=(0, 1, 2), current=1, deck=(UESUGI,))
    play(game, Deploy(ODA, 0), Reinforce(ODA))  # the refill empties the deck: not an extra turn
    assert (game.final_round, game.extra_turns_left, game.current_player) == (True, 3, 2)
    seats = []
    while not game.is_over:
        seats.append(game.current_player)
        game.apply(game.legal_actions()[0])
    assert sorted(set(seats), key=seats.index) == [2, 0, 1] and game.turns == 4


def test_a_deck_dealt_out_completely_still_gives_the_first_player_a_normal_turn() -> None:
    rules = Rules(players=3, samurai=2, ninjas=2)  # 12 cards: all dealt
    game = Game.new(rules, seed=3)
    assert game.deck_size == 0 and not game.final_round
    turns = []
    while not game.is_over:
        if game.order == 1 or not turns or turns[-1] != game.current_player:
            turns.append(game.current_player)
        game.apply(game.legal_actions()[-1])
    assert game.turns == 4 and turns[0] == 0


# ---------------------------------------------------------------- the winner


def finished(provinces: list[tuple[int, ...]], clans: tuple[int, ...]) -> Game:
    """A finished game with this table (the winner depends only on the table and clans)."""
    game = position(provinces, [[], [], []], clans=clans, current=0, extra=1, discard=(4, 4, 4, 0, 0, 0))
    return Game._from_position(game.rules, **{**game._parts(), "extra_turns_left": 0, "order": 3, "turns": 3})


def test_the_clan_with_most_cards_wins_and_neutral_clans_do_not_count() -> None:
    game = finished([(2, 0, 0, 0, 9), (0, 3, 0, 0, 0), (1, 0, 1, 0, 0)], clans=(0, 1, 2))
    assert game.neutral_clans == (3, 4) and game.totals == (3, 3, 1, 0, 9)
    assert game.scores == (3, 3, 1)  # Uesugi's 9 cards are a neutral clan's: not counted
    assert game.winners == (1,) and game.winner == 1  # tie 3-3: Mori has 3 at home, Go-Hojo 2


def test_a_tie_on_both_counts_is_a_shared_win() -> None:
    game = finished([(2, 0, 0, 0, 0), (1, 2, 0, 0, 0), (0, 1, 2, 0, 0)], clans=(0, 1, 2))
    assert game.scores == (3, 3, 2) and game.winners == (0, 1) and game.winner is None


def test_the_tie_break_counts_only_among_the_tied() -> None:
    game = finished([(1, 0, 0, 0, 0), (2, 3, 0, 0, 0), (0, 0, 5, 0, 0)], clans=(0, 1, 2))
    assert game.scores == (3, 3, 5) and game.winners == (2,)
    game = finished([(1, 0, 0, 0, 0), (2, 3, 0, 0, 0), (0, 0, 2, 0, 0)], clans=(0, 1, 2))
    assert game.winners == (1,)  # seat 2 has the most at home but is not among the tied


def test_the_final_view_reveals_every_clan() -> None:
    game = finished([(2, 0, 0, 0, 9), (0, 3, 0, 0, 0), (1, 0, 1, 0, 0)], clans=(0, 1, 2))
    view = game.view(0)
    assert view.clans == (0, 1, 2) and view.neutral_clans == (3, 4) and view.winners == (1,)
    live = Game.new(Rules(players=3), seed=1).view(2)
    assert live.clans[:2] == (None, None) and live.neutral_clans is None


# ---------------------------------------------------------------- errors


def test_an_illegal_action_changes_nothing_and_its_error_pickles() -> None:
    game = Game.new(Rules(players=3), seed=5)
    before = game.clone()
    for bad in (Attack(0, 1, 2), Reinforce(0), Move(1, 0, 2), Pass(), Deploy(0, 4)):
        with pytest.raises(IllegalActionError) as info:
            game.apply(bad)
        assert game == before
        again = pickle.loads(pickle.dumps(info.value))
        assert type(again) is IllegalActionError and str(again) == str(info.value)
    with pytest.raises(OrdonnanceTypeError, match="not 'deploy'"):
        game.apply("deploy")  # type: ignore[arg-type]
    assert game == before
