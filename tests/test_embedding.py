"""What embeds the engine in other programs: territory names, actions built from text,
the action and view JSON (with their JSON Schemas), and the one constructor of a
game set up in a position (nothing outside game.py writes a Game's private fields)."""

from __future__ import annotations

import ast
import json
import os
import pathlib
import random
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Card, Claim, Pass, Play, Rules, Territory
from ordonnance.actions import ACTION_SCHEMA, action_from_data, action_to_data
from ordonnance.serialization import GAME_SCHEMA
from ordonnance.view import VIEW_SCHEMA

from .test_saves import _new
from .test_saves import _rules as every_rules

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
EXAMPLES = 40 if JIT else 10
SRC = pathlib.Path(od.__file__).parent
# Every JSON type, and values of the right type that are still wrong in most places.
EVERY_TYPE: list[Any] = [
    None, True, False, 0, -1, 7, 2**70, 1.5, -0.0, "", "x", "L", "cyprus", "LL", [], [None], [[]], ["L"], {}, {"a": 1},
]  # fmt: skip


def _played(rules: Rules, seed: int, steps: int, *, seeded: bool = True) -> od.Game:
    rng = random.Random(seed)
    game = _new(rules, seed, rng, seeded)
    for _ in range(steps):
        if game.is_over:
            break
        actions = game.legal_actions()
        game.apply(Pass() if Pass() in actions and rng.random() < 0.5 else rng.choice(actions))
    return game


# --------------------------------------------------------------------- Territory.parse, actions from text


@pytest.mark.parametrize(
    ("text", "territory"),
    [("antioch", Territory.ANTIOCH), ("CYPRUS", Territory.CYPRUS), ("Jer", Territory.JERUSALEM),
     ("e", Territory.EDESSA), ("tRiP", Territory.TRIPOLI), ("c", Territory.CYPRUS)],
)  # fmt: skip
def test_a_territory_is_parsed_from_its_name_or_a_start_of_it(text: str, territory: Territory) -> None:
    assert Territory.parse(text) is territory


@pytest.mark.parametrize("text", ["", "x", "cyprusx", " cyprus", "cyp rus", "antioch!", "\u0130", "Ｃｙｐｒｕｓ"])
def test_a_text_that_names_no_territory_is_refused_showing_it(text: str) -> None:
    with pytest.raises(od.InvalidTerritoryError, match="no territory is called") as info:
        Territory.parse(text)
    assert repr(text)[:20] in str(info.value)


@pytest.mark.parametrize("value", [None, 1, Territory.CYPRUS, b"cyprus", ["cyprus"]])
def test_only_text_is_parsed(value: object) -> None:
    with pytest.raises(od.OrdonnanceTypeError, match="a territory name is a str"):
        Territory.parse(value)  # type: ignore[arg-type]


def test_actions_take_cards_and_territories_as_text() -> None:
    assert Play("LS", "cyprus") == Play(Card.parse("LS"), Territory.CYPRUS) == Play(Card.parse("sl"), Territory.parse("Cyp"))
    assert Play("LS", "cyprus") in od.actions.PLAYS[Card.parse("LS").mask]
    assert Claim("tripoli") == Claim(Territory.TRIPOLI) and hash(Claim("t")) == hash(Claim(4))
    assert Play(Card.parse("H"), Territory.EDESSA).territory is Territory.EDESSA  # unchanged
    with pytest.raises(od.InvalidTerritoryError, match="'Narnia'"):
        Play("LS", "Narnia")
    with pytest.raises(od.InvalidCardError, match="'Q'"):
        Play("Q", "cyprus")


def test_the_command_line_reads_territories_with_territory_parse() -> None:
    from ordonnance import cli

    assert [cli._territory(text) for text in ("cyp", " Jer ", "", "zz")] == [Territory.CYPRUS, Territory.JERUSALEM, None, None]


# --------------------------------------------------------------------- the action codec


def _every_action() -> list[od.Action]:
    return [*(Play(Card.from_mask(m), t) for m in range(1, 32) for t in Territory), *(Claim(t) for t in Territory), Pass()]


def test_every_action_round_trips_and_fits_the_schema() -> None:
    texts = set()
    for action in _every_action():
        text = od.action_to_json(action)
        jsonschema.validate(json.loads(text), ACTION_SCHEMA)
        assert od.action_from_json(text) == action and od.action_from_json(text.encode()) == action
        assert action_from_data(action_to_data(action)) == action
        texts.add(text)
    assert len(texts) == 31 * 5 + 5 + 1
    assert json.loads(od.action_to_json(Play("LS", "cyprus"))) == {"type": "play", "card": "LS", "territory": "cyprus"}
    assert od.action_from_json('{"territory": "edessa", "card": "hs", "type": "play"}') == Play("SH", "edessa")


def test_the_codec_is_exported_from_the_actions_module_too() -> None:
    assert od.action_to_json is od.actions.action_to_json and od.action_from_json is od.actions.action_from_json


@pytest.mark.parametrize("value", [None, "pass", Card.parse("L"), Territory.CYPRUS, 3])
def test_only_actions_are_written(value: object) -> None:
    with pytest.raises(od.OrdonnanceTypeError, match="an action is a Play, Claim or Pass"):
        od.action_to_json(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["play", "claim", "pass"])
@pytest.mark.parametrize("field", ["type", "card", "territory", "extra"])
def test_every_json_type_in_every_field_of_an_action_is_refused(kind: str, field: str) -> None:
    valid = action_to_data({"play": Play("SH", "cyprus"), "claim": Claim("edessa"), "pass": Pass()}[kind])
    for value in EVERY_TYPE:
        if valid.get(field) == value or (field, value) in (("card", "L"), ("territory", "cyprus")) and field in valid:
            continue
        with pytest.raises(od.InvalidArgumentError, match="invalid action JSON") as info:
            od.action_from_json(json.dumps({**valid, field: value}))
        assert isinstance(info.value, ValueError)
    without = {key: value for key, value in valid.items() if key != field}
    if without != valid:
        with pytest.raises(od.InvalidArgumentError, match="missing|got None"):
            od.action_from_json(json.dumps(without))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON"),
        ("[1]", "an action is an object, got [1]"),
        ('{"type": "pass", "type": "pass"}', "repeated keys ['type']"),
        ('{"type": "Pass"}', "got 'Pass'"),
        ('{"type": "claim", "territory": "Cyprus"}', "got 'Cyprus'"),
        ('{"type": "play", "card": "LX", "territory": "cyprus"}', "unknown symbol letter 'X'"),
        ('{"type": "play", "card": 12, "territory": "cyprus"}', "card must be card text such as 'SH', got 12"),
        ("[" * 50 + "]" * 50, "nested deeper"),
        ('{"type": "pass"}' + " " * 20_000, "more than 10,000"),
        ('{"type": NaN}', "NaN is not a number"),
    ],
)
def test_bad_action_json_is_refused_with_the_value(text: str, message: str) -> None:
    with pytest.raises(od.InvalidArgumentError, match="invalid action JSON") as info:
        od.action_from_json(text)
    assert message in str(info.value)


@pytest.mark.parametrize("value", [None, 3, {"type": "pass"}, ["{}"]])
def test_an_action_is_read_from_text_only(value: object) -> None:
    with pytest.raises(od.OrdonnanceTypeError, match="str or bytes"):
        od.action_from_json(value)  # type: ignore[arg-type]


# --------------------------------------------------------------------- the view JSON


@settings(max_examples=EXAMPLES, deadline=None)
@given(rules=every_rules(), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 150), seeded=st.booleans())
def test_every_view_round_trips_and_fits_the_schema(rules: Rules, seed: int, steps: int, seeded: bool) -> None:
    game = _played(rules, seed, steps, seeded=seeded)
    for seat in range(rules.players):
        view = game.view(seat)
        text = view.to_json()
        jsonschema.validate(json.loads(text), VIEW_SCHEMA)
        loaded = od.PlayerView.from_json(text)
        assert loaded == view and loaded.to_json() == text
        assert loaded.sample_game(seed).view(seat) == view  # a working view
    jsonschema.validate(json.loads(game.to_json()), GAME_SCHEMA)


@settings(max_examples=EXAMPLES, deadline=None)
@given(rules=every_rules(), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 150), redeal=st.integers(0, 2**64 - 1))
def test_games_that_differ_only_in_hidden_cards_give_the_same_view_json(
    rules: Rules, seed: int, steps: int, redeal: int
) -> None:
    game = _played(rules, seed, steps)
    for seat in range(rules.players):
        other = game.view(seat).sample_game(redeal)  # every card the seat cannot see dealt again
        assert other.view(seat).to_json() == game.view(seat).to_json()


def test_the_view_json_shows_the_seats_own_hand_and_no_other() -> None:
    deck = list(od.standard_deck())
    game = od.Game.new(Rules(), deck=deck)
    swapped = deck[:]
    swapped[1], swapped[20] = swapped[20], swapped[1]  # seat 1's first card and one deep in the pile
    assert swapped[1] != deck[1]
    other = od.Game.new(Rules(), deck=swapped)
    assert other.view(0).to_json() == game.view(0).to_json()
    assert other.view(1).to_json() != game.view(1).to_json()
    data = json.loads(game.view(0).to_json())
    assert data["hand"] == [str(card) for card in game.hand(0)]
    assert sum(data["unseen"].values()) == 56 - 6 and data["hand_sizes"] == [6, 5] and data["deck_size"] == 45
    assert "deck" not in data and "hands" not in data and "seed" not in data and "history" not in data


def _view_data(seat: int = 0) -> dict[str, Any]:
    game = _played(Rules(players=3), 5, 30)
    while game.current_player != seat:
        game.apply(game.legal_actions()[0])
    data: dict[str, Any] = json.loads(game.view(seat).to_json())
    assert data["legal_actions"]
    return data


@pytest.mark.parametrize("key", sorted(VIEW_SCHEMA["properties"]))
def test_every_json_type_in_every_field_of_a_view_is_refused(key: str) -> None:
    valid = _view_data()
    for value in EVERY_TYPE + [valid[key], [valid[key]]]:
        if value == valid[key] and type(value) is type(valid[key]):
            continue
        with pytest.raises(od.InvalidGameStateError, match="invalid view JSON"):
            od.PlayerView.from_json(json.dumps({**valid, key: value}))
    with pytest.raises(od.InvalidGameStateError, match=f"missing keys \\['{key}'\\]|got None|version None"):
        od.PlayerView.from_json(json.dumps({k: v for k, v in valid.items() if k != key}))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.__setitem__("extra", 1), "unknown keys ['extra']"),
        (lambda d: d.__setitem__("format", "ordonnance.game"), "format must be 'ordonnance.view'"),
        (lambda d: d.__setitem__("version", 2), "unsupported version 2"),
        (lambda d: d["scores"].__setitem__(0, 1), "scores is (1, 0, 0), but the position shown gives (0, 0, 0)"),
        (lambda d: d.__setitem__("winner", 1), "winner is 1, but the position shown gives None"),
        (lambda d: d["legal_actions"].pop(), "legal_actions is"),
        (lambda d: d["legal_actions"].append({"type": "pass"}), "legal_actions is"),
        (lambda d: d["hand"].pop(), "hand sizes"),
        (lambda d: d.__setitem__("deck_size", d["deck_size"] + 1), "unseen cards, but the other hands and the deck hold"),
        (lambda d: d["unseen"].__setitem__("LBSHF", 5), "unseen"),
        (lambda d: d["unseen"].__setitem__("hs", 1), "unseen names card SH twice"),
        (lambda d: d["unseen"].__setitem__("LX", 1), "unseen: unknown symbol letter 'X'"),
        (lambda d: d["unseen"].__setitem__("L", 0), "unseen['L'] must be an int in 1.."),
        (lambda d: d.__setitem__("passed", [1, 1]), "passed must list"),
        (lambda d: d.__setitem__("markers", [1, 2, 3, 4, 5]), "a marker lies on an undecided territory"),
        (lambda d: d["armies"][0][0].extend(["L"] * 5), "the hand and the table are not the rules' cards"),
        (lambda d: d["completed_at"][0].__setitem__(0, 0), "completed_at[0][0] does not match an army of"),
        (lambda d: d.__setitem__("current_player", 3), "current_player must be an int in 0..2, got 3"),
        (lambda d: d["rules"].__setitem__("players", 2), "armies[0] must have 2 entries, got 3"),
        (lambda d: d["rules"].pop("auto_claim"), "rules: missing fields ['auto_claim']"),
    ],
)
def test_a_view_no_game_gives_is_refused_with_the_reason(change: Any, message: str) -> None:
    data = _view_data()
    change(data)
    with pytest.raises(od.InvalidGameStateError) as info:
        od.PlayerView.from_json(json.dumps(data))
    assert message in str(info.value)


def test_view_text_is_checked_before_parsing() -> None:
    text = json.dumps(_view_data())
    for bad, message in [
        ("[" * 100_000 + "]" * 100_000, "nested deeper than 8 levels"),
        (text + " " * 1_000_000, "more than 1,000,000"),
        (text[:-1] + ', "seat": 0}', "repeated keys ['seat']"),
        (text.replace('"plays":', '"plays": NaN, "x":', 1), "NaN is not a number"),
        (b"\xff\xfe\x00", "not JSON"),
        ("", "not JSON"),
    ]:
        with pytest.raises(od.InvalidGameStateError, match="invalid view JSON") as info:
            od.PlayerView.from_json(bad)
        assert message in str(info.value)
    with pytest.raises(od.InvalidGameStateError, match="str or bytes"):
        od.PlayerView.from_json(None)  # type: ignore[arg-type]


def test_a_loaded_view_deals_like_the_view_it_was_written_from() -> None:
    view = _played(Rules(claim_proof="private"), 3, 40).view(1)
    loaded = od.PlayerView.from_json(view.to_json())
    assert [loaded.sample_game(s) for s in range(5)] == [view.sample_game(s) for s in range(5)]
    assert attrs.evolve(loaded) == view


# --------------------------------------------------------------------- one constructor


def _writes_outside_game_py() -> list[str]:
    """``Game.__new__`` calls, and assignments to a private attribute of another object
    named as a Game's slot, in Ordonnance's modules other than game.py."""
    slots = set(od.Game.__slots__)
    found = []
    for path in sorted(SRC.glob("*.py")):
        if path.name == "game.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "__new__" and getattr(node.value, "id", None) == "Game":
                found.append(f"{path.name}:{node.lineno}: Game.__new__")
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
            for target in targets:
                for item in ast.walk(target):
                    if (
                        isinstance(item, ast.Attribute) and item.attr in slots
                        and not (isinstance(item.value, ast.Name) and item.value.id == "self")
                    ):  # fmt: skip
                        found.append(f"{path.name}:{item.lineno}: writes .{item.attr}")
    return found


def test_nothing_outside_game_py_builds_a_game_or_writes_its_fields() -> None:
    assert _writes_outside_game_py() == []


def test_the_check_finds_such_writes(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "game.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_text("def f(g, Game):\n    g._deck = []\n    other = Game.__new__(Game)\n")
    monkeypatch.setitem(globals(), "SRC", tmp_path)
    assert _writes_outside_game_py() == ["bad.py:2: writes ._deck", "bad.py:3: Game.__new__"]


def _parts(game: od.Game) -> dict[str, Any]:
    return {
        "pile": game._deck[:], "hands": [h[:] for h in game._hands], "armies": [[a[:] for a in r] for r in game._armies],
        "completed": [r[:] for r in game._completed], "owners": game._owner[:], "markers": game._marker[:],
        "plays": game._plays, "current": game._current, "over": game._over, "passed": game._passed,
    }  # fmt: skip


def test_the_constructor_checks_as_much_as_asked() -> None:
    game = _played(Rules(), 9, 20)
    for check in ("none", "parts", "consistent", "reachable"):
        built = od.Game._from_position(game.rules, **_parts(game), seed=game.seed, rng_state=game._rng_state, check=check)
        assert built == game and built.history == () and built.root() == built
    parts = _parts(game)
    parts["hands"][0].append(parts["pile"].pop())  # consistent, but not reachable: drawn out of turn
    od.Game._from_position(game.rules, **parts, check="consistent")
    with pytest.raises(od.InvalidGameStateError, match="unreachable position"):
        od.Game._from_position(game.rules, **parts, check="reachable")
    parts = _parts(game)
    parts["hands"][0].append(1)  # one card too many: parts fine, not consistent
    od.Game._from_position(game.rules, **parts, check="parts")
    with pytest.raises(od.InvalidGameStateError, match="deck, hands and armies together"):
        od.Game._from_position(game.rules, **parts, check="consistent")
    for key, value, message in [
        ("hands", [[]], "hands must be a list of 2 entries"),
        ("pile", [0], "deck must be a list of card masks 1..31"),
        ("owners", [5] * 5, "owners[0] must be an int in -1..1, got 5"),
        ("current", True, "current_player must be an int in 0..1, got True"),
        ("over", 1, "over must be True or False, got 1"),
        ("passed", 4, "passed must be an int in 0..3, got 4"),
    ]:
        with pytest.raises(od.InvalidGameStateError, match=message.replace("[", "\\[").replace("]", "\\]")):
            od.Game._from_position(game.rules, **{**_parts(game), key: value}, check="parts")
    with pytest.raises(od.OrdonnanceTypeError, match="check must be one of"):
        od.Game._from_position(game.rules, **_parts(game), check="all")  # type: ignore[arg-type]
    with pytest.raises(od.OrdonnanceTypeError, match="rules must be a Rules"):
        od.Game._from_position(None, **_parts(game))  # type: ignore[arg-type]


def test_a_history_given_to_the_constructor_is_checked_by_replay() -> None:
    game = _played(Rules(), 9, 20)
    history = list(game.history)
    built = od.Game._from_position(game.rules, **_parts(game), seed=game.seed, rng_state=game._rng_state,
                                   history=history[:], check="consistent")  # fmt: skip
    assert built == game and built.history == game.history and built.root() == game.root()
    with pytest.raises(od.InvalidGameStateError, match="the history does not lead to the position"):
        od.Game._from_position(game.rules, **_parts(game), seed=game.seed, rng_state=game._rng_state,
                               history=history[:-1], check="consistent")  # fmt: skip
    with pytest.raises(od.InvalidGameStateError, match="cannot be played"):
        od.Game._from_position(game.rules, **_parts(game), seed=game.seed, rng_state=game._rng_state,
                               history=[Pass(), *history], check="consistent")  # fmt: skip
    with pytest.raises(od.InvalidGameStateError, match="give a seed or a deck order"):
        od.Game._from_position(game.rules, **_parts(game), history=history, check="consistent")


# --------------------------------------------------------------------- OpenSpiel's games keep their history


def test_an_openspiel_state_gives_its_game_with_the_history() -> None:
    pytest.importorskip("pyspiel")
    ops = pytest.importorskip("ordonnance.openspiel")
    from ordonnance.rl import action_from_index

    for params in ({}, {"seed": 5, "players": 3}):
        rng = random.Random(1)
        state = ops.load(**({"seed": params["seed"], "rules": Rules(players=3)} if params else {})).new_initial_state()
        decisions = []
        while not state.is_terminal() and len(decisions) < 30:
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                decisions.append(rng.choice(state.legal_actions()))
                state.apply_action(decisions[-1])
        game = state.game()
        assert game.history == tuple(action_from_index(a) for a in decisions)
        replayed = game.root()
        for action in game.history:
            replayed.apply(action)
        assert replayed == game and od.Game.from_json(game.to_json()).history == game.history
        resampled = state.resample_from_infostate(state.current_player(), lambda: 0.5).game()
        assert resampled.history == () and od.Game.from_json(resampled.to_json()) == resampled


# --------------------------------------------------------------------- the schemas in the docs


@pytest.mark.parametrize(
    ("name", "schema"), [("ordonnance.action", ACTION_SCHEMA), ("ordonnance.game", GAME_SCHEMA), ("ordonnance.view", VIEW_SCHEMA)]
)
def test_the_schemas_shown_in_the_docs_are_the_librarys(name: str, schema: dict[str, Any]) -> None:
    """docs/formats.rst includes docs/schemas/*.json; after changing a schema, write them again with
    ``json.dumps(schema, indent=2) + "\\n"`` (the text this test expects)."""
    jsonschema.Draft202012Validator.check_schema(schema)
    path = SRC.parent.parent / "docs" / "schemas" / f"{name}.json"
    assert path.read_text() == json.dumps(schema, indent=2) + "\n"
