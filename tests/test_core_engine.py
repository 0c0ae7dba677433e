"""The games' shared base (ordonnance.core.engine.EngineGame): what it gives every game alike."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

import ordonnance as od
from ordonnance import black_prince, shinobi
from ordonnance.core.engine import EngineGame
from ordonnance.errors import InvalidSeatError, OrdonnanceTypeError

GAMES: dict[str, Callable[[], Any]] = {
    "ordonnance": lambda: od.Game.new(od.Rules(players=3), seed=4),
    "shinobi": lambda: shinobi.Game.new(shinobi.Rules(players=3), seed=4),
    "black_prince": lambda: black_prince.Game.new(black_prince.Rules(), seed=4),
}


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> Any:
    made = GAMES[request.param]()
    made.apply(made.legal_actions()[-1])
    return made


def test_every_game_derives_from_the_base(game: Any) -> None:
    assert isinstance(game, EngineGame)
    assert game.players == game.rules.players
    assert not game.is_over and game.current_player in range(game.players)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_game_of_every_game_is_refused(name: str) -> None:
    kind = type(GAMES[name]())
    with pytest.raises(OrdonnanceTypeError, match=r"Game.new\(rules, seed=...\) or Game.from_json\(text\).*got arguments \(1,\)"):
        kind(1)


def test_copies_are_independent_and_equal(game: Any) -> None:
    for copied in (copy.copy(game), copy.deepcopy(game)):
        assert copied == game and copied is not game
        copied.apply(copied.legal_actions()[0])
        assert copied != game
    assert len(game.history) == 1


def test_equality_is_within_one_game_and_games_are_unhashable(game: Any) -> None:
    others = [make() for make in GAMES.values()]
    assert all(other != game for other in others)
    with pytest.raises(TypeError):
        hash(game)


def test_faces_come_from_the_games_own_modules(game: Any) -> None:
    kind = type(game)
    assert kind.from_json(game.to_json()) == game
    view = game.view(1)
    assert type(view).__module__ == f"{kind._package}.view" and view.seat == 1


@pytest.mark.parametrize("name", ["ordonnance", "shinobi"])
def test_a_seat_is_checked(name: str) -> None:
    game = GAMES[name]()
    with pytest.raises(InvalidSeatError, match=r"seats are 0..2, got 3"):
        game.view(3)
    with pytest.raises(OrdonnanceTypeError, match="must be a seat number, not bool: True"):
        game.view(True)
    with pytest.raises(OrdonnanceTypeError, match="not Territory"):
        game.view(od.Territory(1))


def test_every_view_holds_the_shared_fields_alike(game: Any) -> None:
    for seat in range(game.players):
        view = game.view(seat)
        assert (view.seat, view.rules, view.current_player, view.hand) == (seat, game.rules, game.current_player, game.hand(seat))
        assert view.hand_sizes == tuple(len(game.hand(other)) for other in range(game.players))
        assert view.legal_actions == (tuple(game.legal_actions()) if seat == game.current_player else ())
        assert view.legal_actions or seat != game.current_player
