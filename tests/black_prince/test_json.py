"""Lossless JSON with the move history, replayed on loading; old saves; refusals of malformed
saves and of positions the engine cannot reach."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince.conformance import check_invariants
from ordonnance.black_prince.serialization import GAME_SCHEMA, MAX_TEXT_SIZE
from ordonnance.errors import IllegalActionError, InvalidGameStateError

#: One value of every JSON type (and the ints just outside a field's range).
EVERY_TYPE: list[Any] = [None, True, False, 0, -1, 7, 2**64, 1.5, "x", "Knights 3", [], [0], {}, {"a": 1}]


def mid_game(seed: int, steps: int, rules: bp.Rules | None = None, **new: Any) -> bp.Game:
    rng = random.Random(seed)
    game = bp.Game.new(rules or bp.Rules(armies=("French", "Burgundian")), seed=seed, **new)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def old_save(game: bp.Game) -> str:
    """``game``'s position as a save of version 1 (the format before histories)."""
    data = json.loads(game.to_json())
    return json.dumps({"format": data["format"], "version": 1, "rules": data["rules"], "seed": data["seed"],
                       **data["position"]})  # fmt: skip


def test_a_new_game_has_an_empty_history_and_each_action_joins_it() -> None:
    game = bp.Game.new(bp.Rules(), seed=4)
    assert game.history == ()
    played = []
    rng = random.Random(4)
    for _ in range(20):
        action = rng.choice(game.legal_actions())
        game.apply(action)
        played.append(action)
        assert game.history == tuple(played)
    clone = game.clone()
    clone.apply(clone.legal_actions()[0])
    assert len(clone.history) == 21 and game.history == tuple(played)  # the clone's history is its own
    with pytest.raises(IllegalActionError):
        game.apply(bp.Fight(5, 5) if game.phase != "battle" else bp.PlayBattle())
    assert game.history == tuple(played)  # a refused action is not recorded


@pytest.mark.parametrize("steps", [0, 5, 17, 40, 1000])
def test_round_trip_is_exact_keeps_the_history_and_plays_on_the_same(steps: int) -> None:
    game = mid_game(steps, steps)
    text = game.to_json()
    restored = bp.Game.from_json(text)
    assert restored == game and restored.history == game.history and restored.to_json() == text
    assert bp.Game.from_json(text.encode()) == game and bp.Game.from_json(bytearray(text.encode())) == game
    data = json.loads(text)
    jsonschema.validate(data, GAME_SCHEMA)
    assert data["version"] == 2 and data["history"] == [json.loads(bp.action_to_json(a)) for a in game.history]
    assert data["orders"] is None and data["start"] is None
    a, b = random.Random(1), random.Random(1)
    while not game.is_over:
        game.apply(a.choice(game.legal_actions()))
        restored.apply(b.choice(restored.legal_actions()))
        assert restored == game


def test_replaying_the_history_from_the_seed_gives_the_game() -> None:
    game = mid_game(8, 120, bp.Rules(armies=("Scottish", "English"), first="coin"))
    replayed = bp.Game.new(game.rules, seed=game.seed)
    for action in game.history:
        replayed.apply(action)
    assert replayed == game


def test_games_from_custom_decks_and_given_orders_round_trip() -> None:
    decks = ([bp.Card("Archers", 1, advantages=["Knights", "Pikemen"])] * 6 + ["Knights 3"] * 6 + ["Battle"] * 2,
             ["Pikemen 2"] * 10 + ["Battle"] * 3)  # fmt: skip
    custom = bp.Rules(armies=("Blue", "Red"), decks=decks, max_turns=60)
    english = bp.Rules(armies=("English", "Scottish"))
    orders = [list(english.deck(0)), list(english.deck(1))[::-1]]
    for game in (mid_game(2, 50, custom), mid_game(3, 50, english, orders=orders), mid_game(4, 0, custom)):
        text = game.to_json()
        jsonschema.validate(json.loads(text), GAME_SCHEMA)
        restored = bp.Game.from_json(text)
        assert restored == game and restored.history == game.history and restored.to_json() == text
    data = json.loads(mid_game(3, 50, english, orders=orders).to_json())
    assert data["orders"] == [[str(c) for c in order] for order in orders]
    # the orders are part of the deal: other orders do not lead to the saved position
    data["orders"][0] = data["orders"][0][::-1]
    with pytest.raises(InvalidGameStateError, match="history"):
        bp.Game.from_json(json.dumps(data))
    data["orders"][0] = data["orders"][0][1:]
    with pytest.raises(InvalidGameStateError, match=r"orders: orders\[0\] does not hold exactly"):
        bp.Game.from_json(json.dumps(data))


def test_a_save_loads_only_if_its_history_reaches_its_position() -> None:
    game = mid_game(5, 60)
    data = json.loads(game.to_json())

    def load(change: Any) -> None:
        changed = json.loads(json.dumps(data))
        change(changed)
        bp.Game.from_json(json.dumps(changed))

    with pytest.raises(InvalidGameStateError, match=r"position.hands is .*, but the history leads to"):
        load(lambda d: d["position"]["hands"].reverse())
    with pytest.raises(InvalidGameStateError, match=r"position.rng is .*, but the history leads to"):
        load(lambda d: d["position"].__setitem__("rng", d["position"]["rng"] ^ 1))
    with pytest.raises(InvalidGameStateError, match=r"position.turn is 3.0, but"):
        load(lambda d: d["position"].__setitem__("turn", 3.0))
    with pytest.raises(InvalidGameStateError, match="position.turn"):  # 1 == 1.0 == True in Python, not in JSON
        load(lambda d: d["position"].__setitem__("turn", float(d["position"]["turn"])))
    with pytest.raises(InvalidGameStateError, match=r"history\[0\] \(.*\) cannot be played: illegal action"):
        load(lambda d: d["history"].insert(0, {"type": "end_battle"}))
    with pytest.raises(InvalidGameStateError, match=r"history\[2\]: .*unknown keys \['x'\]"):
        load(lambda d: d["history"][2].__setitem__("x", 1))
    with pytest.raises(InvalidGameStateError, match="history"):
        load(lambda d: d.__setitem__("seed", d["seed"] + 1))  # another deal
    with pytest.raises(InvalidGameStateError, match="but the history leads to"):
        load(lambda d: d["history"].pop())  # one action short
    with pytest.raises(InvalidGameStateError, match="has no deck orders"):
        load(lambda d: d.__setitem__("start", d["position"]) or d.__setitem__("orders", [[], []]))


def test_every_single_change_of_a_save_is_refused_or_is_what_it_loads() -> None:
    """Change one leaf of a save at a time: it is refused with the library's error, or it
    is a save of the game it loads (a change of a value to an equal one)."""
    rng = random.Random(5)
    for steps in (6, 40):
        original = json.loads(mid_game(11, steps).to_json())
        mutations = _mutations(original)
        for path, value in rng.sample(mutations, min(250, len(mutations))):
            data = _changed(original, path, value)
            try:
                game = bp.Game.from_json(json.dumps(data))
            except InvalidGameStateError:
                continue
            assert json.loads(game.to_json()) == data, path


@pytest.mark.parametrize("key", ["format", "version", "rules", "seed", "orders", "start", "history", "position"])
def test_every_json_type_in_every_key_is_refused(key: str) -> None:
    original = json.loads(mid_game(7, 10).to_json())
    for value in EVERY_TYPE:
        if value == original[key] and type(value) is type(original[key]):
            continue
        with pytest.raises(InvalidGameStateError):
            bp.Game.from_json(json.dumps({**original, key: value}))
    for item in EVERY_TYPE:
        with pytest.raises(InvalidGameStateError, match=r"history\[0\]"):
            bp.Game.from_json(json.dumps({**original, "history": [item] + original["history"]}))
    for position_key in original["position"]:
        for value in EVERY_TYPE:
            position = {**original["position"], position_key: value}
            if position != original["position"]:
                with pytest.raises(InvalidGameStateError, match=f"position.{position_key}|position: "):
                    bp.Game.from_json(json.dumps({**original, "position": position}))


def test_untrusted_text_is_refused_before_it_is_parsed() -> None:
    text = mid_game(7, 10).to_json()
    cases = [
        (123, "must be str or bytes"),
        ("not json", "not JSON"),
        ("[1]", "expected an object"),
        ("[" * 50 + "]" * 50, "nested deeper than 8 levels"),
        (" " * (MAX_TEXT_SIZE + 1), "more than"),
        (text[:-1] + ',"seed":1}', "repeated keys ['seed']"),
        (text.replace('"turn":', '"turn":NaN,"x":'), "NaN is not a number"),
        (text.replace('"version":2', '"version":true'), "unsupported version True"),
        (text.replace('"version":2', '"version":3'), "unsupported version 3"),
        (b"\xff\xfe\x00", "not JSON"),
    ]
    for bad, message in cases:
        with pytest.raises(InvalidGameStateError) as info:
            bp.Game.from_json(bad)  # type: ignore[arg-type]
        assert message in str(info.value)


# ---------------------------------------------------------------- saves of version 1


def test_old_saves_still_load_and_their_history_starts_at_their_position() -> None:
    game = mid_game(6, 20)
    loaded = bp.Game.from_json(old_save(game))
    assert loaded.history == () and loaded.view(0) == game.view(0) and loaded.view(1) == game.view(1)
    assert old_save(loaded) == old_save(game)  # the same position, hidden cards and chance stream included
    rng = random.Random(2)
    for _ in range(30):
        if loaded.is_over:
            break
        action = rng.choice(loaded.legal_actions())
        loaded.apply(action)
        game.apply(action)
    assert loaded.history and game.history[20:] == loaded.history
    text = loaded.to_json()
    data = json.loads(text)
    jsonschema.validate(data, GAME_SCHEMA)
    assert data["start"] == json.loads(mid_game(6, 20).to_json())["position"] and data["orders"] is None
    assert data["history"] == [json.loads(bp.action_to_json(a)) for a in loaded.history]
    restored = bp.Game.from_json(text)
    assert restored == loaded and restored.history == loaded.history and restored.to_json() == text
    assert old_save(restored) == old_save(game)
    data["history"] = data["history"][:-1]
    with pytest.raises(InvalidGameStateError, match="but the history leads to"):
        bp.Game.from_json(json.dumps(data))
    data["start"]["turn"] = 0
    with pytest.raises(InvalidGameStateError, match=r"start: turn must be an int in 1..200, got 0"):
        bp.Game.from_json(json.dumps(data))


def _broken(change: Any, steps: int = 9) -> str:
    data = json.loads(old_save(mid_game(3, steps)))
    change(data)
    return json.dumps(data)


def _set(key: str, value: Any) -> Any:
    return lambda d: d.__setitem__(key, value)


def _swap_hand_card(d: dict[str, Any]) -> None:
    d["hands"][0][0] = "Pikemen 3"


OLD_CASES = [
    (_broken(_set("version", 0)), "unsupported version 0"),
    (_broken(_set("format", "chess")), "format must be"),
    (_broken(lambda d: d.pop("turn")), "missing keys ['turn']"),
    (_broken(_set("extra", 1)), "unknown keys ['extra']"),
    (_broken(_swap_hand_card), "do not hold exactly its deck"),
    (_broken(lambda d: d["hands"][0].__setitem__(0, "Dragoons 2")), "unknown troop type 'Dragoons'"),
    (_broken(lambda d: d["hands"][0].__setitem__(0, 7)), "hands[0][0]"),
    (_broken(lambda d: d["hands"][1].append(d["decks"][1].pop())), "at most 6"),
    (_broken(_set("current_player", 2)), "current_player must be an int in 0..1, got 2"),
    (_broken(_set("phase", "dance")), "phase must be one of"),
    (_broken(_set("phase", "battle"), steps=0), "is to decide in the 'battle' step but has no legal action"),
    (_broken(_set("phase", "over"), steps=0), "phase is 'over' at turn 1"),
    (_broken(_set("fought", 1)), "fought must be True or False"),
    (_broken(_set("moved", [True] + [False] * 5)), "battle flags are set outside a battle"),
    (_broken(_set("attacked", [False] * 5)), "attacked must have 6 entries"),
    (_broken(_set("seed", -1)), "seed must be an int"),
    (_broken(_set("turn", 0)), "turn must be an int in 1..200, got 0"),
    (_broken(lambda d: d["rules"].__setitem__("first", "dice")), "rules: first must be one of"),
    (_broken(lambda d: d["rules"].__setitem__("armies", ["French", "Welsh"])), "unknown army 'Welsh'"),
    (_broken(lambda d: d["cells"].append([None] * 6)), "cells must have 4 entries"),
    (_broken(lambda d: d["cells"][0].__setitem__(2, d["decks"][1].pop())), "behind"),
]


@pytest.mark.parametrize(("text", "message"), OLD_CASES, ids=range(len(OLD_CASES)))
def test_bad_old_saves_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidGameStateError) as info:
        bp.Game.from_json(text)
    assert message in str(info.value)


def test_impossible_positions_are_refused() -> None:
    def front_full(d: dict[str, Any]) -> None:
        for row in (1, 2):
            for column in range(6):
                d["cells"][row][column] = None
        cards = [c for c in d["decks"][0] if c != "Battle"][:4]
        for column, card in enumerate(cards):
            d["decks"][0].remove(card)
            d["cells"][2][column] = card
        others = [c for c in d["decks"][1] if c != "Battle"][:3]
        for column, card in enumerate(others):
            d["decks"][1].remove(card)
            d["cells"][1][column] = card

    data = json.loads(old_save(mid_game(3, 0)))
    front_full(data)
    with pytest.raises(InvalidGameStateError, match="front line holds 7 cards"):
        bp.Game.from_json(json.dumps(data))
    battle_on_table = json.loads(old_save(mid_game(3, 0)))
    battle_on_table["decks"][0].remove("Battle")
    battle_on_table["cells"][2][0] = "Battle"
    with pytest.raises(InvalidGameStateError, match="Battle card lies on the table"):
        bp.Game.from_json(json.dumps(battle_on_table))


def _mutations(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every leaf of the JSON with a few replacement values each."""
    out: list[tuple[tuple[Any, ...], Any]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            out += _mutations(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _mutations(value, path + (i,))
        out.append((path, data[:-1]))
    else:
        for bad in (None, -1, 7, True, "Knights 3", "Battle", 2**64):
            if bad != data or type(bad) is not type(data):
                out.append((path, bad))
    return out


def _changed(original: Any, path: tuple[Any, ...], value: Any) -> Any:
    data = json.loads(json.dumps(original))
    target = data
    for key in path[:-1]:
        target = target[key]
    if path:
        target[path[-1]] = value
    return data


def test_every_single_change_of_an_old_save_is_refused_or_gives_a_reachable_game() -> None:
    """Change one leaf of an old save at a time: the result loads only as a position the checks accept."""
    rng = random.Random(5)
    for steps in (6, 25):
        original = json.loads(old_save(mid_game(11, steps)))
        mutations = _mutations(original)
        for path, value in rng.sample(mutations, min(300, len(mutations))):
            try:
                game = bp.Game.from_json(json.dumps(_changed(original, path, value)))
            except InvalidGameStateError:
                continue
            check_invariants(game, deep=False)  # accepted: it must be a consistent position


def test_an_old_save_of_a_game_that_should_have_ended_is_refused() -> None:
    data = json.loads(old_save(mid_game(3, 0)))
    troops = [c for c in data["decks"][1] if c != "Battle"][:6]
    for card in troops:
        data["decks"][1].remove(card)
    data["discards"][1] = troops  # six enemy troops routed, yet the game goes on
    with pytest.raises(InvalidGameStateError, match="the game has ended"):
        bp.Game.from_json(json.dumps(data))
    data["phase"] = "over"
    # as an ended game it is still refused: seed 3 does not deal those cards to the discard pile
    with pytest.raises(InvalidGameStateError, match=r"decks\[1\] is not what the shuffle of seed 3 leaves"):
        bp.Game.from_json(json.dumps(data))
