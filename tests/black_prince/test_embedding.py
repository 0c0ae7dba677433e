"""What an application embedding Black Prince relies on: views as JSON (exactly one seat's
information, a JSON Schema), the action codec, sampled games, mirror matches, and one
validated constructor of a Game."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince.actions import ACTION_SCHEMA
from ordonnance.black_prince.conformance import random_playthrough
from ordonnance.black_prince.game import shuffled_decks
from ordonnance.black_prince.serialization import GAME_SCHEMA
from ordonnance.black_prince.view import VIEW_SCHEMA
from ordonnance.errors import InvalidArgumentError, InvalidGameStateError, OrdonnanceTypeError

VIEWS = jsonschema.Draft202012Validator(VIEW_SCHEMA)
ACTIONS = jsonschema.Draft202012Validator(ACTION_SCHEMA)
EVERY_TYPE: list[Any] = [None, True, False, 0, -1, 1, 7, 2**64, 1.5, "x", "Knights 3", [], [0], {}, {"a": 1}]
MIRRORS = [bp.Rules(armies=(army, army)) for army in bp.ARMIES]
CUSTOM = bp.Rules(
    armies=("Blue", "Red"),
    decks=([bp.Card("Archers", 1, advantages=["Knights"])] * 8 + ["Knights 3"] * 4 + ["Battle"] * 2,
           ["Light cavalry 2", "Halberdiers 1", "Halberdiers 2", "Battle"] * 4),
    first="coin",
)  # fmt: skip
RULES = [bp.Rules(), bp.Rules(armies=("Scottish", "Burgundian"), first="coin"), MIRRORS[1], CUSTOM]


def played(rules: bp.Rules, seed: int) -> list[bp.Game]:
    """Every position of a game between two Greedy bots, from the deal to the end."""
    game = bp.Game.new(rules, seed=seed)
    bots = [bp.Greedy(seed=seed), bp.Random(seed=seed + 1)]
    positions = [game.clone()]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
        positions.append(game.clone())
    return positions


@pytest.mark.parametrize(("name", "schema"), [("action", ACTION_SCHEMA), ("view", VIEW_SCHEMA), ("game", GAME_SCHEMA)])
def test_the_schemas_shown_in_the_docs_are_the_librarys(name: str, schema: dict[str, Any]) -> None:
    """docs/formats.rst includes docs/schemas/*.json; after changing a schema, write them again with
    ``json.dumps(schema, indent=2) + "\\n"`` (the text this test expects)."""
    jsonschema.Draft202012Validator.check_schema(schema)
    path = Path(bp.__file__).parents[3] / "docs" / "schemas" / f"ordonnance.black_prince.{name}.json"
    assert path.read_text(encoding="utf-8") == json.dumps(schema, indent=2) + "\n"


# ---------------------------------------------------------------- views


@pytest.mark.parametrize("rules", RULES, ids=["default", "coin", "mirror", "custom"])
def test_every_view_of_played_games_validates_and_reads_back(rules: bp.Rules) -> None:
    for seed in (1, 2):
        for game in played(rules, seed):
            for seat in (0, 1):
                view = game.view(seat)
                text = view.to_json()
                data = json.loads(text)
                VIEWS.validate(data)
                assert data["format"] == "ordonnance.black_prince.view" and data["version"] == 1
                assert bp.PlayerView.from_json(text) == view and bp.PlayerView.from_json(text.encode()) == view
                for action in data["legal_actions"]:
                    ACTIONS.validate(action)


def test_a_view_holds_only_what_its_seat_sees() -> None:
    game = played(bp.Rules(), 3)[9]
    for seat in (0, 1):
        data = json.loads(game.view(seat).to_json())
        assert data["hand"] == [str(card) for card in game.hand(seat)]
        assert data["hand_sizes"] == [len(game.hand(0)), len(game.hand(1))]
        assert set(data) == set(VIEW_SCHEMA["required"])  # type: ignore[call-overload]  # no seed, rng, decks, other hand


def test_games_that_differ_only_in_hidden_cards_give_that_seat_equal_view_json() -> None:
    rules = bp.Rules(armies=("English", "French"))
    decks, _ = shuffled_decks(rules, 5)
    other = [decks[0], decks[1][:6] + decks[1][6:][::-1]]  # seat 1's deck order below its hand
    a, b = bp.Game.new(rules, seed=5, orders=decks), bp.Game.new(rules, seed=5, orders=other)
    assert a != b and a.to_json() != b.to_json()
    compared = 0
    while a.current_player == 0 and not a.is_over:  # until seat 1 draws and decides
        assert a.view(0).to_json() == b.view(0).to_json()
        action = a.legal_actions()[-1]
        a.apply(action)
        b.apply(action)
        compared += 1
    assert compared >= 2
    for game in played(bp.Rules(armies=("Burgundian", "French")), 4)[::5]:
        for seat in (0, 1):
            view = game.view(seat)
            for seed in range(3):
                sample = view.sample_game(seed)
                assert sample.view(seat).to_json() == view.to_json()
                compared += sample.hand(1 - seat) != game.hand(1 - seat)
    assert compared > 10  # the samples did deal other hidden cards


def test_sample_game_keeps_the_view_and_deals_the_unseen_cards() -> None:
    for game in played(bp.Rules(armies=("Scottish", "English")), 6)[::3]:
        for seat in (0, 1):
            view = game.view(seat)
            sample = view.sample_game(seed=9)
            assert sample.view(seat) == view and sample.seed == 9 and sample.history == ()
            assert sample.hand(seat) == game.hand(seat) and sample.to_json() == view.sample_game(seed=9).to_json()
            assert sorted(view.unseen(1 - seat), key=lambda c: c.sort_key) == sorted(
                [*sample.hand(1 - seat), *json_decks(sample)[1 - seat]], key=lambda c: c.sort_key)  # fmt: skip
            assert bp.Game.from_json(sample.to_json()) == sample  # a sample saves and loads
            if not sample.is_over:
                sample.apply(sample.legal_actions()[0])  # and plays on
    assert isinstance(bp.Game.new(bp.Rules(), seed=1).view(0).sample_game(), bp.Game)  # a random seed
    with pytest.raises(OrdonnanceTypeError):
        bp.Game.new(bp.Rules(), seed=1).view(0).sample_game(seed="1")  # type: ignore[arg-type]


def json_decks(game: bp.Game) -> list[list[bp.Card]]:
    return [[bp.Card.parse(c) for c in deck] for deck in json.loads(game.to_json())["position"]["decks"]]


def test_a_choose_step_of_the_other_seat_samples_a_battle_card_into_its_hand() -> None:
    found = 0
    for seed in range(40):
        for game in played(bp.Rules(), seed):
            if game.phase == "choose":
                view = game.view(1 - game.current_player)
                for s in range(5):
                    assert any(card.is_battle for card in view.sample_game(s).hand(game.current_player))
                found += 1
        if found > 5:
            break
    assert found > 5


def _view_data(steps: int = 10) -> dict[str, Any]:
    game = played(bp.Rules(), 3)[steps]
    return dict(json.loads(game.view(game.current_player).to_json()))


@pytest.mark.parametrize("key", list(VIEW_SCHEMA["required"]))  # type: ignore[call-overload]
def test_every_json_type_in_every_key_of_a_view_is_refused_or_is_what_it_reads(key: str) -> None:
    original = _view_data()
    for value in EVERY_TYPE:
        data = {**original, key: value}
        if data == original and json.dumps(data) == json.dumps(original):
            continue
        try:
            view = bp.PlayerView.from_json(json.dumps(data))
        except InvalidGameStateError as error:
            assert "invalid Black Prince view JSON" in str(error)
            continue
        assert json.loads(view.to_json()) == data, (key, value)


def test_a_view_the_engine_would_not_give_is_refused() -> None:
    original = _view_data()
    assert original["legal_actions"] and original["phase"] == "place"

    def refused(change: Any, message: str) -> None:
        data = json.loads(json.dumps(original))
        change(data)
        with pytest.raises(InvalidGameStateError, match=message):
            bp.PlayerView.from_json(json.dumps(data))

    refused(lambda d: d["legal_actions"].pop(), "legal_actions is .*, but its position gives")
    refused(lambda d: d["legal_actions"].append({"type": "end_turn"}), "legal_actions is")
    refused(lambda d: d.__setitem__("winner", 1), "winner is 1, but its position gives None")
    refused(lambda d: d.__setitem__("routed", [1, 0]), "routed is")
    refused(lambda d: d["hand"].__setitem__(0, "Pikemen 3"), "do not match its 5 cards in hand and 17 unseen")
    refused(lambda d: d["discards"][1].append("Pikemen 3"), "do not hold exactly its deck")  # French have none
    refused(lambda d: d["hand_sizes"].__setitem__(1 - d["seat"], d["hand_sizes"][1 - d["seat"]] - 1), "do not add up")
    refused(lambda d: d["deck_sizes"].__setitem__(d["seat"], d["deck_sizes"][d["seat"]] - 1), "do not match")
    refused(lambda d: d.__setitem__("moved", [True] + [False] * 5), "battle flags are set outside a battle")
    refused(lambda d: d.__setitem__("turn", 0), r"turn must be an int in 1..200, got 0")
    refused(lambda d: d.__setitem__("phase", "dance"), "phase must be one of")
    refused(lambda d: d["cells"][0].__setitem__(0, "Dragoons 1"), r"cells\[0\]\[0\]: unknown troop type")
    refused(lambda d: d["hand"].__setitem__(0, None), r"hand\[0\] must be a card, got null")
    refused(lambda d: d.__setitem__("extra", 1), r"unknown keys \['extra'\]")
    refused(lambda d: d.__setitem__("version", 2), "unsupported version 2")
    refused(lambda d: d.__setitem__("format", "ordonnance.view"), "format must be")
    refused(lambda d: d["legal_actions"].__setitem__(0, {"type": "fly"}), r"legal_actions\[0\]: .*type is one of")


def test_untrusted_view_text_is_refused_before_it_is_parsed() -> None:
    text = json.dumps(_view_data())
    for bad, message in [(None, "must be str or bytes"), ("{", "not JSON"), ("[" * 40 + "]" * 40, "nested deeper"),
                         (text[:-1] + ',"seat":0}', "repeated keys"), (" " * 2_000_000, "more than")]:  # fmt: skip
        with pytest.raises(InvalidGameStateError, match=message):
            bp.PlayerView.from_json(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------- actions


def test_every_legal_action_round_trips_through_json() -> None:
    seen = set()
    for rules in RULES:
        for game in played(rules, 7):
            for action in game.legal_actions():
                text = bp.action_to_json(action)
                ACTIONS.validate(json.loads(text))
                assert bp.action_from_json(text) == action and bp.action_from_json(text.encode()) == action
                seen.add(json.loads(text)["type"])
    assert seen == {"place", "place_behind", "move", "play_battle", "end_turn", "mounted_move", "fight", "end_battle"}
    special = bp.Place(bp.Card("Archers", 1, advantages=["Knights"]), 0)
    assert bp.action_to_json(special) == '{"type":"place","card":["Archers 1",["Knights"]],"column":0}'
    assert bp.action_from_json(bp.action_to_json(special)) == special


def test_every_json_type_in_every_field_of_an_action_is_refused() -> None:
    examples = [bp.Place(bp.Card("Knights", 3), 2), bp.PlaceBehind(bp.Card("Pikemen", 1), 0), bp.Move(1, -1),
                bp.MountedMove(4, 1), bp.Fight(2, 3), bp.PlayBattle(), bp.EndTurn(), bp.EndBattle()]  # fmt: skip
    for action in examples:
        original = json.loads(bp.action_to_json(action))
        for key in [*original, "extra"]:
            for value in EVERY_TYPE:
                data = {**original, key: value}
                if data == original and json.dumps(data) == json.dumps(original):
                    continue
                accepted = key != "extra" and (key in ("column", "target") and value in (0, 1) and type(value) is int
                                               or key == "step" and value in (-1, 1) and type(value) is int
                                               or key == "card" and value == "Knights 3")  # fmt: skip
                if accepted:
                    assert json.loads(bp.action_to_json(bp.action_from_json(json.dumps(data)))) == data
                    continue
                with pytest.raises(InvalidArgumentError, match="invalid Black Prince action JSON"):
                    bp.action_from_json(json.dumps(data))
    for bad, message in [("[]", "type is one of"), ("{}", "type is one of"), ('{"type": ["place"]}', "type is one of"),
                         ('{"type": "place", "column": 1}', r"missing keys \['card'\]"), ("nope", "not JSON"),
                         ('{"type": "end_turn", "type": "end_turn"}', "repeated keys"), (None, "str or bytes"),
                         (" " * 10_001, "more than"), ('{"type": "move", "column": 1, "step": 1.0}', "step must be an int"),
                         ('{"type": "place", "card": ["Knights 3", ["Dragons"]], "column": 1}', "unknown troop type"),
                         ('{"type": "place", "card": ["Knights 3", "Archers"], "column": 1}', "a card is a text")]:  # fmt: skip
        with pytest.raises(InvalidArgumentError, match=message):
            bp.action_from_json(bad)  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError, match="not a Black Prince action"):
        bp.action_to_json("place")  # type: ignore[arg-type]


# ---------------------------------------------------------------- mirror matches


@pytest.mark.parametrize("rules", MIRRORS, ids=lambda r: r.armies[0])
def test_mirror_matches_keep_every_invariant_and_save(rules: bp.Rules) -> None:
    for seed in range(6):
        game = random_playthrough(rules, seed=seed, deep=seed == 0)
        assert game.is_over and bp.Game.from_json(game.to_json()) == game


def test_mirror_matches_simulate_in_the_kernel_as_the_engine_plays_them() -> None:
    rules = bp.Rules(armies=("French", "French"), first="coin")
    for players in ([bp.Greedy(seed=1), bp.Random(seed=2)], [bp.Random(seed=3), bp.Random(seed=4)]):
        res = bp.simulate(rules, games=60, seed=3, players=players, record=True)
        for i in range(0, 60, 7):
            game = res.replay(i)
            assert game.routed == tuple(res.scores[i]) and game.history == res.record(i)
            assert res.winner[i] == (-1 if game.winner is None else game.winner)
    summary = bp.simulate(bp.Rules(armies=("English", "English")), games=2000, seed=1).summary()
    assert summary.games == 2000 and abs(summary.win_rate[0] + summary.win_rate[1] + summary.draw_rate - 1) < 1e-9
    # the seat advantage alone: both seats hold the same cards
    assert np.isfinite(summary.first_player_advantage)


def test_rules_other_than_mirrors_deal_as_before() -> None:
    """Allowing mirror matches changed no deal: the first cards of seeded games are pinned."""
    game = bp.Game.new(bp.Rules(), seed=7)
    assert [str(c) for c in game.hand(0)][:2] == ["Archers 2", "Archers 3"]  # as the game module's doctest
    mirror = bp.Game.new(bp.Rules(armies=("English", "English")), seed=7)
    assert mirror.hand(0) == game.hand(0)  # seat 0 shuffles first, from the same stream


# ---------------------------------------------------------------- one constructor


def test_nothing_outside_game_py_builds_a_game_or_touches_its_fields() -> None:
    fields = set(bp.Game.__slots__)
    package = Path(bp.__file__).parent
    for path in sorted(package.glob("*.py")):
        if path.name in ("game.py", "_kernel.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "__new__":
                raise AssertionError(f"{path.name}:{node.lineno} calls __new__")
            if isinstance(node, ast.Attribute) and node.attr in fields:
                base = node.value
                assert isinstance(base, ast.Name) and base.id == "self", f"{path.name}:{node.lineno} .{node.attr}"


def test_the_constructor_checks_every_part() -> None:
    view = bp.Game.new(bp.Rules(), seed=2).view(0)
    good = view.sample_game(1)
    parts = good._parts()
    assert bp.Game._from_position(good.rules, **parts) == good
    bad: list[tuple[str, Any, str]] = [
        ("seed", -1, "seed must be an int"), ("rng", 1.0, "rng must be an int"), ("decks", "ab", "decks must be a list"),
        ("hands", [[], [], []], "hands must have 2 entries"), ("hands", [["Knights 1"], []], r"hands\[0\]\[0\] must be a Card"),
        ("cells", parts["cells"][:3], "cells must have 4 entries"), ("current_player", 2, "current_player"),
        ("phase", "dance", "phase must be one of"), ("turn", True, "turn must be an int"),
        ("attacked", (1,) * 6, "attacked must hold 6 booleans"), ("fought", 0, "fought must be True or False"),
    ]  # fmt: skip
    for key, value, message in bad:
        with pytest.raises(InvalidGameStateError, match=message):
            bp.Game._from_position(good.rules, **{**parts, key: value})
    with pytest.raises(OrdonnanceTypeError):
        bp.Game._from_position("rules", **parts)  # type: ignore[arg-type]


def test_a_random_mix_of_hidden_cards_never_changes_a_view() -> None:
    rng = random.Random(3)
    for game in played(bp.Rules(armies=("Scottish", "French")), 8)[1::4]:
        for seat in (0, 1):
            texts = {game.view(seat).sample_game(rng.getrandbits(64)).view(seat).to_json() for _ in range(4)}
            assert texts == {game.view(seat).to_json()}
