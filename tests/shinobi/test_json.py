"""Lossless JSON, and saves the engine could not have reached refused with the reason."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordonnance.core.checks import shown
from ordonnance.errors import InvalidGameStateError
from ordonnance.shinobi import Game, Move, Rules
from ordonnance.shinobi.serialization import GAME_SCHEMA

from .test_game import random_game

SAVES = jsonschema.Draft202012Validator(GAME_SCHEMA)


@given(st.integers(3, 5), st.integers(0, 10_000), st.integers(0, 200), st.sampled_from(["mandatory", "optional"]))
def test_round_trip_is_exact_and_keeps_playing_the_same(players: int, seed: int, steps: int, attack: str) -> None:
    game = Game.new(Rules(players=players, attack=attack), seed=seed)  # type: ignore[arg-type]
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    restored = Game.from_json(game.to_json())
    assert restored == game and restored.to_json() == game.to_json()
    SAVES.validate(json.loads(game.to_json()))
    if not game.is_over:
        action = game.legal_actions()[-1]
        game.apply(action)
        restored.apply(action)
        assert restored == game


def test_a_given_deal_round_trips_too() -> None:
    rules = Rules(players=3, samurai=(3, 4, 5, 6, 7), ninjas=1)
    game = Game.new(rules, deck=sorted(rules.troop_deck, reverse=True), clans=(4, 2, 0))
    game.apply(game.legal_actions()[3])
    assert Game.from_json(game.to_json()) == game and Game.from_json(game.to_json()).seed is None


def _mutations(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Single changes to a save, each of which the engine could not have reached."""
    out = []

    def edit(name: str, change: Any) -> None:
        copy = json.loads(json.dumps(data))
        change(copy)
        out.append((name, copy))

    edit("hand card", lambda d: d["position"]["hands"][1].__setitem__(0, "Ninja" if d["position"]["hands"][1][0] != "Ninja" else "Oda"))
    edit("province", lambda d: d["position"]["provinces"][2].__setitem__(0, d["position"]["provinces"][2][0] + 1))
    edit("discard", lambda d: d["position"]["discard"].__setitem__(5, 3))
    edit("deck size", lambda d: d["position"].__setitem__("deck_size", d["position"]["deck_size"] - 1))
    edit("current player", lambda d: d["position"].__setitem__("current_player", (d["position"]["current_player"] + 1) % 4))
    edit("order", lambda d: d["position"].__setitem__("order", 1 + d["position"]["order"] % 3))
    edit("turns", lambda d: d["position"].__setitem__("turns", d["position"]["turns"] + 1))
    edit("over", lambda d: d["position"].__setitem__("over", True))
    edit("over as int", lambda d: d["position"].__setitem__("over", 0))
    edit("seed", lambda d: d.__setitem__("seed", d["seed"] + 1))
    edit("clans", lambda d: d.__setitem__("clans", d["clans"][1:] + d["clans"][:1]))
    edit("deck order", lambda d: d.__setitem__("deck", d["deck"][1:] + d["deck"][:1]))
    edit("deck card", lambda d: d["deck"].__setitem__(0, "Ninja" if d["deck"][0] != "Ninja" else "Mori"))
    edit("an action", lambda d: d["history"].__setitem__(0, {"type": "attack", "clan": "Go-Hojo", "province": 1, "target_clan": "Oda"}))
    edit("a dropped action", lambda d: d["history"].pop())
    edit("an extra action", lambda d: d["history"].append({"type": "pass"}))
    edit("a bad action", lambda d: d["history"].__setitem__(1, {"type": "deploy", "card_clan": "Go-Hojo"}))
    edit("a bool field", lambda d: d["history"].__setitem__(1, {"type": "reinforce", "card_clan": True}))
    edit("an action of version 1", lambda d: d["history"].__setitem__(1, ["Reinforce", 0]))
    edit("a start", lambda d: d.__setitem__("start", {}))
    edit("rules", lambda d: d["rules"].__setitem__("players", 5))
    edit("rules field", lambda d: d["rules"].__setitem__("colour", "red"))
    edit("version", lambda d: d.__setitem__("version", 3))
    edit("version 1 with a start", lambda d: d.__setitem__("version", 1))
    edit("format", lambda d: d.__setitem__("format", "ordonnance.game"))
    edit("extra key", lambda d: d.__setitem__("comment", "hi"))
    edit("missing key", lambda d: d.pop("position"))
    # Values of the wrong JSON type: each once raised a bare TypeError or was taken for the right value.
    edit("a string clan", lambda d: d["clans"].__setitem__(1, "a"))
    edit("a null clan", lambda d: d["clans"].__setitem__(0, None))
    edit("a list action kind", lambda d: d["history"][0].__setitem__("type", [d["history"][0]["type"]]))
    edit("an object action kind", lambda d: d["history"][0].__setitem__("type", {"deploy": 1}))
    edit("version as bool", lambda d: d.__setitem__("version", True))
    edit("version as float", lambda d: d.__setitem__("version", 1.0))
    edit("province as float", lambda d: d["position"]["provinces"][0].__setitem__(0, float(d["position"]["provinces"][0][0])))
    edit("discard as bool", lambda d: d["position"]["discard"].__setitem__(0, bool(d["position"]["discard"][0])))
    return out


def test_every_single_mutation_of_a_save_is_refused() -> None:
    game = random_game(4, 7, 25)
    data = json.loads(game.to_json())
    mutations = _mutations(data)
    assert len(mutations) == 35
    for name, mutated in mutations:
        with pytest.raises(InvalidGameStateError, match="invalid shinobi game JSON"):
            Game.from_json(json.dumps(mutated))
            pytest.fail(f"mutation {name!r} was accepted")


def _json_type(value: Any) -> str:
    return "null" if value is None else type(value).__name__  # bool, int, float, str, list, dict


def _other_typed(value: Any) -> list[Any]:
    """Values of every JSON type but ``value``'s, each as close to ``value`` as that type allows
    (1.0 and true for 1, [value], {"x": value}), so that only a type check can refuse them."""
    close: list[Any] = [None, True, False, 0, 1, 2**70, 0.5, "", "Pass", [], {}, [value], {"x": value}]
    if isinstance(value, (bool, int)):
        close += [int(value), float(value), bool(value), str(value)]
    return [other for other in close if _json_type(other) != _json_type(value)]


def _slots(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value in a JSON document, nested ones included."""
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    return [path] + [slot for key, child in children for slot in _slots(child, (*path, key))]


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


@pytest.mark.parametrize(
    ("rules", "seed", "steps", "sampled"),
    [(Rules(), 7, 25, False), (Rules(players=3, samurai=3, ninjas=2), 2, 1_000, False), (Rules(players=5), 3, 30, True)],
)
def test_any_value_of_another_json_type_is_refused_with_the_library_error(rules: Rules, seed: int, steps: int, sampled: bool) -> None:
    """Every value of a save (top level, nested, action kinds and fields, snapshot cells,
    and the start of a game sampled from a view) replaced by each value of another JSON
    type: the load raises InvalidGameStateError showing the value, never another exception
    and never a quiet success. The one exception is a null seed: it states the same deal
    as given, which loads the same game without its seed (or is refused if the neutral
    clans are not in ascending order)."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while len(game.history) < steps and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    if sampled:
        game = game.view(game.current_player).sample_game(seed=seed)
        for _ in range(4):
            game.apply(rng.choice(game.legal_actions()))
    text = game.to_json()
    slots = _slots(json.loads(text))[1:]
    assert len(slots) > 100
    tried = 0
    for slot in slots:
        for other in _other_typed(_at(json.loads(text), slot)):
            mutated = json.loads(text)
            _at(mutated, slot[:-1])[slot[-1]] = other
            tried += 1
            if slot == ("seed",) and other is None:
                try:
                    restored = Game.from_json(json.dumps(mutated))
                except InvalidGameStateError as error:
                    assert "neutral clans of a given deal are listed in ascending order" in str(error)
                else:
                    assert restored.seed is None and restored.to_json() == text.replace(f'"seed":{seed}', '"seed":null')
                continue
            try:
                Game.from_json(json.dumps(mutated))
            except InvalidGameStateError as error:
                # the value is shown, cut in the middle when long (checks.shown)
                assert str(error).startswith("invalid shinobi game JSON") and shown(other) in str(error), (slot, other, str(error))
            else:
                pytest.fail(f"{slot} = {other!r} was accepted")
    assert tried > 10 * len(slots)


@pytest.mark.parametrize(("text", "message"), [
    ("", "not JSON"), ("[]", "expected an object"), ("{}", "format must be"), (b"\xff", "not JSON"),
    ("[" * 100_000, "nested deeper than 8 levels"), ('{"format": 1, "format": 1}', "repeated keys"),
    ('{"a": NaN}', "NaN is not a number"),
])  # fmt: skip
def test_malformed_text_is_refused(text: str | bytes, message: str) -> None:
    with pytest.raises(InvalidGameStateError, match=message):
        Game.from_json(text)
    with pytest.raises(InvalidGameStateError, match="str or bytes"):
        Game.from_json(12)  # type: ignore[arg-type]


def test_the_error_names_the_reason() -> None:
    game = random_game(3, 2, 10)
    data = json.loads(game.to_json())
    data["position"]["provinces"][0][0] += 1
    with pytest.raises(InvalidGameStateError, match=r"position.provinces is .* but the history leads to"):
        Game.from_json(json.dumps(data))
    data = json.loads(game.to_json())
    data["history"][0] = {"type": "move", "from_province": 0, "clan": "Go-Hojo", "to_province": 1}
    with pytest.raises(InvalidGameStateError, match=r"history\[0\] cannot be played: illegal action"):
        Game.from_json(json.dumps(data))


def _version_1(text: str) -> str:
    """The save ``text`` as version 1 wrote it: no start, actions as ``[class name, fields...]``."""
    data = json.loads(text)
    assert data.pop("start") is None
    data["version"] = 1
    data["actions"] = [[type(action).__name__, *attrs.astuple(action)] for action in Game.from_json(text).history]
    del data["history"]
    return json.dumps(data)


@pytest.mark.parametrize("steps", [0, 1, 40, 10_000])
def test_saves_of_version_1_still_load(steps: int) -> None:
    game = random_game(4, 11, steps)
    old = _version_1(game.to_json())
    assert '"version": 1' in old and '["Deploy"' in old or steps == 0
    restored = Game.from_json(old)
    assert restored == game and restored.history == game.history and restored.to_json() == game.to_json()


def test_a_save_keeps_the_history_and_replays_move_by_move() -> None:
    game = random_game(5, 4, 10_000)
    assert game.is_over and len(game.history) > 100
    SAVES.validate(json.loads(game.to_json()))
    restored = Game.from_json(game.to_json())
    assert restored.history == game.history and isinstance(restored.history, tuple)
    replay = Game.new(game.rules, seed=game.seed)
    for i, action in enumerate(game.history):
        replay.apply(action)
        assert Game.from_json(replay.to_json()).history == game.history[: i + 1]
    assert replay == game


def test_a_game_sampled_from_a_view_saves_and_loads() -> None:
    """Its save has no seed and holds the position it started from; it loads equal, with
    its history and its root, before and after playing on."""
    game = random_game(4, 9, 33)
    sample = game.view(2).sample_game(seed=5)
    data = json.loads(sample.to_json())
    assert data["seed"] is None and data["start"]["turns"] == game.turns and data["history"] == []
    assert Game.from_json(sample.to_json()) == sample
    rng = random.Random(1)
    while not sample.is_over:
        sample.apply(rng.choice(sample.legal_actions()))
        restored = Game.from_json(sample.to_json())
        assert restored == sample and restored.history == sample.history and restored.root() == sample.root()
    SAVES.validate(json.loads(sample.to_json()))


def _start_mutations(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Single changes to the start of a save that leave every value of the right type but give
    a position the engine cannot reach or that its snapshot contradicts."""
    out = []

    def edit(name: str, change: Any) -> None:
        copy = json.loads(json.dumps(data))
        change(copy)
        out.append((name, copy))

    start = data["start"]
    edit("a card from nowhere", lambda d: d["start"]["provinces"][0].__setitem__(0, d["start"]["provinces"][0][0] + 1))
    edit("a card gone", lambda d: d["start"]["discard"].__setitem__(5, d["start"]["discard"][5] - 1 if d["start"]["discard"][5] else 9))
    edit("a card swapped", lambda d: d["start"]["hands"][1].__setitem__(0, "Ninja" if d["start"]["hands"][1][0] != "Ninja" else "Oda"))
    edit("a short hand", lambda d: d["deck"].append(d["start"]["hands"][(start["current_player"] + 1) % 4].pop()))
    edit("a final round with a deck", lambda d: d["start"].__setitem__("extra_turns_left", 2))
    edit("over with a deck", lambda d: d["start"].__setitem__("extra_turns_left", 0))
    edit("a seed", lambda d: d.__setitem__("seed", 3))
    edit("a start dropped", lambda d: d.__setitem__("start", None))
    edit("turns", lambda d: d["start"].__setitem__("turns", d["start"]["turns"] + 1))
    edit("the seat to act", lambda d: d["start"].__setitem__("current_player", (d["start"]["current_player"] + 1) % 4))
    edit("an unknown key", lambda d: d["start"].__setitem__("seed", 1))
    return out


def test_every_mutation_of_a_start_is_refused() -> None:
    game = random_game(4, 2, 41)
    sample = game.view(0).sample_game(seed=8)
    sample.apply(sample.legal_actions()[0])
    data = json.loads(sample.to_json())
    mutations = _start_mutations(data)
    assert len(mutations) == 11
    for name, mutated in mutations:
        with pytest.raises(InvalidGameStateError, match="invalid shinobi game JSON"):
            Game.from_json(json.dumps(mutated))
            pytest.fail(f"mutation {name!r} was accepted")
    three = random_game(3, 2, 20).view(1).sample_game(seed=1)  # two neutral clans
    data = json.loads(three.to_json())
    data["clans"] = data["clans"][:3] + data["clans"][3:][::-1]
    with pytest.raises(InvalidGameStateError, match="neutral clans of a set position are listed in ascending order"):
        Game.from_json(json.dumps(data))


def test_the_list_form_of_actions_is_deprecated_but_works() -> None:
    from ordonnance.shinobi import serialization

    with pytest.warns(DeprecationWarning, match="ordonnance.shinobi.actions.action_to_data"):
        data = serialization.action_to_data(Move(1, 2, 0))
    assert data == ["Move", 1, 2, 0]
    with pytest.warns(DeprecationWarning, match="ordonnance.shinobi.actions.action_from_data"):
        assert serialization.action_from_data(data) == Move(1, 2, 0)
    with pytest.warns(DeprecationWarning), pytest.raises(InvalidGameStateError, match="'Shove'"):
        serialization.action_from_data(["Shove", 1])
