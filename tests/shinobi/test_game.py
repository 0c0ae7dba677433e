"""The Game API: creation, readers, clones, views that leak nothing, actions as values."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordonnance.errors import InvalidCardError, InvalidDeckError, InvalidSeatError, InvalidSeedError, OrdonnanceTypeError
from ordonnance.shinobi import ACTION_COUNT, Attack, Card, Deploy, Game, Move, Ninja, Pass, Reinforce, Rules, dealt, from_code
from ordonnance.shinobi.conformance import redeal_hidden


def random_game(players: int, seed: int, steps: int) -> Game:
    game = Game.new(Rules(players=players), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_seed_deals_the_same_game_everywhere() -> None:
    assert Game.new(Rules(), seed=42) == Game.new(Rules(), seed=42)
    assert Game.new(Rules(), seed=42) != Game.new(Rules(), seed=43)
    clans, deck = dealt(Rules(), 42)
    game = Game.new(Rules(), seed=42)
    assert tuple(game.clan(p) for p in range(4)) == clans[:4] and game.neutral_clans == (clans[4],)
    assert game.hand(0)[0] == Card.from_code(deck[0]) and game.hand(1)[0] == Card.from_code(deck[1])
    assert Game.new(Rules()).seed is not None


def test_bad_arguments_are_refused_with_the_value() -> None:
    rules = Rules(players=3)
    with pytest.raises(InvalidSeedError, match="-1"):
        Game.new(rules, seed=-1)
    with pytest.raises(OrdonnanceTypeError, match="both deck and clans"):
        Game.new(rules, deck=list(rules.troop_deck))
    with pytest.raises(OrdonnanceTypeError, match="not both"):
        Game.new(rules, seed=1, deck=list(rules.troop_deck), clans=(0, 1, 2))
    with pytest.raises(InvalidDeckError, match="missing Ninjax1"):
        Game.new(rules, deck=list(rules.troop_deck)[:-1], clans=(0, 1, 2))
    with pytest.raises(InvalidDeckError, match="different clans"):
        Game.new(rules, deck=list(rules.troop_deck), clans=(0, 0, 2))
    with pytest.raises(InvalidCardError, match="'Shimazu'"):
        Game.new(rules, deck=["Shimazu"] + list(rules.troop_deck)[1:], clans=(0, 1, 2))
    with pytest.raises(OrdonnanceTypeError, match="shinobi Rules"):
        Game.new("rules", seed=1)  # type: ignore[arg-type]
    game = Game.new(rules, seed=1)
    with pytest.raises(InvalidSeatError, match="got 3"):
        game.hand(3)
    with pytest.raises(OrdonnanceTypeError, match="'0'"):
        game.province("0")  # type: ignore[arg-type]


def test_a_deal_by_names_and_codes_is_the_same() -> None:
    rules = Rules(players=3)
    by_code = Game.new(rules, deck=list(rules.troop_deck), clans=(0, 1, 2))
    by_name = Game.new(rules, deck=[Card.from_code(c).name.upper() for c in rules.troop_deck], clans=("go-hojo", "Mori", 2))
    assert by_code == by_name


def test_actions_compare_by_value_and_round_trip_through_codes() -> None:
    assert Deploy("Oda", 1) == Deploy(2, 1) and hash(Deploy("Oda", 1)) == hash(Deploy(2, 1))
    codes = {from_code(code).code for code in range(ACTION_COUNT)}
    assert codes == set(range(ACTION_COUNT))
    assert {type(from_code(c)) for c in range(ACTION_COUNT)} == {Deploy, Ninja, Reinforce, Move, Attack, Pass}
    assert repr(Move(1, 2, 0)) == "Move(from_province=1, clan=2, to_province=0)"
    with pytest.raises(InvalidSeatError, match="got 7"):
        Deploy(0, 7)
    with pytest.raises(OrdonnanceTypeError, match="'x'"):
        from_code("x")  # type: ignore[arg-type]


def test_clone_is_equal_and_independent() -> None:
    game = random_game(4, 3, 20)
    clone = game.clone()
    assert clone == game
    clone.apply(clone.legal_actions()[0])
    assert clone != game and len(clone.history) == len(game.history) + 1


@given(st.integers(3, 5), st.integers(0, 2**64 - 1), st.integers(0, 150))
def test_views_do_not_change_when_hidden_cards_and_clans_are_dealt_again(players: int, seed: int, steps: int) -> None:
    game = random_game(players, seed % 1000, steps)
    rng = random.Random(seed)
    for seat in range(players):
        view = game.view(seat)
        if game.is_over:
            assert view.clans == tuple(game.clan(p) for p in range(players))
            continue
        for _ in range(3):
            assert redeal_hidden(game, seat, rng).view(seat) == view
        assert sum(1 for c in view.clans if c is not None) == 1


def test_redealing_does_change_the_hidden_things() -> None:
    game = random_game(4, 1, 10)
    others = [redeal_hidden(game, 0, random.Random(s)) for s in range(20)]
    assert any(o.hand(1) != game.hand(1) for o in others)
    assert any(o.clan(2) != game.clan(2) for o in others)
    assert all(o.clan(0) == game.clan(0) and o.hand(0) == game.hand(0) for o in others)


def test_a_view_has_counts_of_hidden_things_only() -> None:
    game = random_game(5, 8, 30)
    view = game.view(1)
    assert view.hand_sizes == tuple(len(game.hand(p)) for p in range(5))
    assert sum(view.unseen()) == game.deck_size + sum(view.hand_sizes) - len(view.hand)
    assert view.legal_actions == (tuple(game.legal_actions()) if game.current_player == 1 else ())


def test_text_and_repr() -> None:
    game = Game.new(Rules(players=3), seed=2)
    assert repr(game) == "<shinobi.Game 3 players, 0 turns, player 0 to give order 1>"
    assert str(Card.parse("Uesugi")) == "Uesugi" and Card(None).is_ninja
