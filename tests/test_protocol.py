"""One protocol test for every game (as pgx's ``api_test`` and OpenSpiel's ``random_sim_test``
serve every game): whatever a shared tool relies on, each game provides and honours.

Each test is parametrized over the registry's games, so a fourth game is held to the same
contract the day it is registered.
"""

from __future__ import annotations

import importlib
import io
import json
import random
from contextlib import redirect_stdout
from types import ModuleType
from typing import Any

import jsonschema
import numpy as np
import pytest

from ordonnance import games
from ordonnance.core import registry
from ordonnance.errors import OrdonnanceError

GAMES = registry.names()
#: A spread of rule sets per game (keyword arguments of its Rules).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "ordonnance": [{}, {"players": 3}, {"players": 4}],
    "shinobi": [{"players": 3}, {}, {"players": 5}],
    "black-prince": [{}, {"armies": ("English", "English")}],
}


def _module(name: str, sub: str | None = None) -> ModuleType:
    package = registry.package(name)
    return package if sub is None else importlib.import_module(f"{package.__name__}.{sub}")


def _rules(name: str, variant: dict[str, Any]) -> Any:
    return _module(name).Rules(**variant)


def _played(name: str, variant: dict[str, Any], seed: int) -> list[Any]:
    """Every position of one random game, from the deal to the end (copies)."""
    module = _module(name)
    game = module.Game.new(_rules(name, variant), seed=seed)
    rng = random.Random(seed)
    positions = [module.Game.from_json(game.to_json())]
    while not game.is_over:
        game.apply(rng.choice(list(game.legal_actions())))
        positions.append(module.Game.from_json(game.to_json()))
    return positions


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(name, variant) for name in GAMES for variant in VARIANTS[name]]


def _id(case: tuple[str, dict[str, Any]]) -> str:
    return case[0] + "".join(f"-{k}={v}" for k, v in case[1].items())


CASES = pytest.mark.parametrize("case", _cases(), ids=[_id(c) for c in _cases()])


@CASES
def test_random_playthroughs_keep_the_invariants(case: tuple[str, dict[str, Any]]) -> None:
    name, variant = case
    conformance = _module(name, "conformance")
    for seed in range(3):
        game = conformance.random_playthrough(_rules(name, variant), seed)
        assert game.is_over and list(game.legal_actions()) == []


@CASES
def test_views_round_trip_through_json_and_follow_their_schema(case: tuple[str, dict[str, Any]]) -> None:
    name, variant = case
    module = _module(name)
    schema = _module(name, "view").VIEW_SCHEMA
    jsonschema.Draft202012Validator.check_schema(schema)
    for game in _played(name, variant, seed=11)[::3]:
        for seat in range(game.rules.players):
            view = game.view(seat)
            text = view.to_json()
            jsonschema.validate(json.loads(text), schema)
            assert module.PlayerView.from_json(text) == view
            assert json.loads(text)["format"].endswith(".view") and json.loads(text)["version"] >= 1


@CASES
def test_actions_round_trip_through_the_codec(case: tuple[str, dict[str, Any]]) -> None:
    name, variant = case
    module = _module(name)
    seen = 0
    for game in _played(name, variant, seed=5)[::2]:
        for action in game.legal_actions():
            text = module.action_to_json(action)
            assert isinstance(text, str) and module.action_from_json(text) == action
            seen += 1
    assert seen > 10


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    "bad",
    ["", "null", "[]", "{}", '{"type": "nonsense"}', '{"type": 5}', "[" * 50000 + "]" * 50000, b"\xff\xfe", "1e999", 3, None],
)
def test_the_action_codec_refuses_bad_input_with_the_librarys_errors(name: str, bad: object) -> None:
    with pytest.raises(OrdonnanceError):
        _module(name).action_from_json(bad)


@CASES
def test_saves_keep_the_history_and_replay_it(case: tuple[str, dict[str, Any]]) -> None:
    name, variant = case
    module = _module(name)
    rules = _rules(name, variant)
    game = module.Game.new(rules, seed=21)
    rng = random.Random(21)
    for step in range(10_000):
        restored = module.Game.from_json(game.to_json())
        assert tuple(restored.history) == tuple(game.history) and len(game.history) == step
        if game.is_over:
            break
        game.apply(rng.choice(list(game.legal_actions())))
    replayed = module.Game.new(rules, seed=21)
    for action in game.history:
        replayed.apply(action)
    assert replayed == game and replayed.to_json() == game.to_json()


@CASES
def test_summaries_share_their_definitions(case: tuple[str, dict[str, Any]]) -> None:
    name, variant = case
    module = _module(name)
    rules = _rules(name, variant)
    games_played = 40
    result = module.simulate(rules, games=games_played, seed=3, record=True)
    summary = result.summary()
    n = rules.players
    replays = [result.replay(i) for i in range(games_played)]
    sole = [g.winner for g in replays]  # the seat that won alone, else None
    for seat in range(n):
        assert summary.win_rate[seat] == pytest.approx(sum(w == seat for w in sole) / games_played)
        low, high = summary.win_rate_ci[seat]
        assert low <= summary.win_rate[seat] <= high
    assert summary.draw_rate == pytest.approx(sum(w is None for w in sole) / games_played)
    assert sum(summary.win_rate) + summary.draw_rate == pytest.approx(1.0)
    assert summary.first_player_advantage == pytest.approx(summary.win_rate[0] - 1 / n)
    low, high = summary.first_player_advantage_ci
    assert low <= summary.first_player_advantage <= high
    assert summary.mean_decisions == pytest.approx(np.mean([len(g.history) for g in replays]))
    assert 1 <= summary.mean_rounds <= summary.mean_decisions
    text = str(summary)
    assert "first-player advantage" in text and f"{games_played:,} games" in text


@pytest.mark.parametrize("name", GAMES)
def test_every_search_bot_takes_a_time_limit(name: str) -> None:
    module = _module(name)
    game = module.Game.new(module.Rules(), seed=4)
    bot = module.bots.MonteCarlo(seed=1, time_limit=0.05)
    view = game.view(game.current_player)
    assert bot.choose(view) in view.legal_actions
    assert "time_limit" in repr(bot)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_is_registered_with_its_facts(name: str) -> None:
    info = registry.info(name)
    module = _module(name)
    assert module.__name__ == info.package and games.module(name) is module
    assert info.min_players <= module.Rules().players <= info.max_players
    assert registry.name_of(module.Rules()) == name


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "20", "--bots", "greedy,random"],
        ["tournament", "--games", "20", "--serial"],
        ["demo"],
    ],
    ids=["simulate", "tournament", "demo"],
)
def test_every_command_takes_the_game(name: str, argv: list[str]) -> None:
    from ordonnance.cli import main

    players = registry.package(name).Rules().players
    if "--bots" in argv:
        argv = argv[:-1] + [",".join((["greedy", "random"] * players)[:players])]
    out = io.StringIO()
    with redirect_stdout(out):
        code = main([argv[0], "--game", name, *argv[1:]])
    assert code in (0, None), out.getvalue()
    assert out.getvalue().strip()
