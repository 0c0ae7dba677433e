"""The checks every game's conformance shares (ordonnance.core.conformance), on each game."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import attrs
import pytest

import ordonnance as od
from ordonnance.core.conformance import ConformanceError, check_copies, check_view, check_views

GAMES = {"ordonnance": "ordonnance", "shinobi": "ordonnance.shinobi", "black_prince": "ordonnance.black_prince"}
RULES: dict[str, dict[str, Any]] = {"ordonnance": {}, "shinobi": {"players": 3}, "black_prince": {}}


def _game(name: str) -> Any:
    package = importlib.import_module(GAMES[name])
    game = package.Game.new(package.Rules(**RULES[name]), seed=5)
    game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize("name", GAMES)
def test_each_games_random_playthrough_is_its_own_documented_function(name: str) -> None:
    module = importlib.import_module(f"{GAMES[name]}.conformance")
    function = module.random_playthrough
    assert function.__module__ == module.__name__ and function.__name__ == "random_playthrough"
    assert "checking every step" in (function.__doc__ or "")
    assert list(inspect.signature(function).parameters) == ["rules", "seed", "policy", "deep", "max_steps"]
    package = importlib.import_module(GAMES[name])
    assert function.__annotations__["rules"] is package.Rules and function.__annotations__["return"] is package.Game
    assert function(package.Rules(**RULES[name]), 2, deep=False).is_over


@pytest.mark.parametrize("name", GAMES)
def test_check_copies_passes_an_honest_game_and_catches_a_clone_that_is_not_one(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(name)
    check_copies(game)
    monkeypatch.setattr(type(game), "clone", lambda self: self)
    with pytest.raises(ConformanceError, match="applying to a clone changed the original"):
        check_copies(game)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("view_json", [False, True])
def test_check_view_passes_honest_views_and_catches_actions_out_of_turn(name: str, view_json: bool) -> None:
    game = _game(name)
    for seat in range(game.players):
        check_view(game, game.view(seat), samples=[1, 2], view_json=view_json)
    waiting = next(seat for seat in range(game.players) if seat != game.current_player)
    cheat = attrs.evolve(game.view(waiting), legal_actions=tuple(game.legal_actions()))
    with pytest.raises(ConformanceError, match="a view offers actions out of turn"):
        check_view(game, cheat, samples=[], view_json=view_json)


def test_check_view_catches_a_hand_that_is_not_the_seats() -> None:
    game = _game("ordonnance")
    other = game.view(1 - game.current_player)
    with pytest.raises(ConformanceError, match="view shows the wrong hand"):
        check_view(game, attrs.evolve(other, seat=game.current_player), samples=[])


def test_view_json_is_checked_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game("ordonnance")
    view = game.view(0)
    monkeypatch.setattr(od.PlayerView, "to_json", lambda self: '"not a view"')
    check_view(game, view, samples=[3])
    with pytest.raises(ConformanceError, match="a view's JSON does not read back to it"):
        check_view(game, view, samples=[3], view_json=True)


@pytest.mark.parametrize("name", GAMES)
def test_check_views_runs_the_games_own_check_and_the_leak_test_on_every_seat(name: str) -> None:
    game = _game(name)
    checked: list[int] = []
    asked: list[int] = []

    def samples(g: Any, seat: int) -> list[int]:
        assert g is game
        asked.append(seat)
        return [seat + 1]

    check_views(game, samples, lambda g, view: checked.append(view.seat))
    assert checked == asked == list(range(game.rules.players))
