"""What a program embedding the engine uses: one seat's view as JSON (and its schema), the
action codec, views dealt again (sample_game) on the one validated constructor, and the
history a game replays from its root."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest

from ordonnance import shinobi
from ordonnance.errors import InvalidArgumentError, InvalidGameStateError, InvalidSeedError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.shinobi import ACTION_COUNT, CLAN_NAMES, CLANS, Game, PlayerView, Rules, from_code
from ordonnance.shinobi.actions import ACTION_SCHEMA, action_from_data, action_to_data
from ordonnance.shinobi.cards import NINJA
from ordonnance.shinobi.rules import HAND_SIZE, RULES_SCHEMA
from ordonnance.shinobi.serialization import GAME_SCHEMA
from ordonnance.shinobi.view import VIEW_SCHEMA

from .test_game import random_game
from .test_json import _at, _other_typed, _slots

VIEWS = jsonschema.Draft202012Validator(VIEW_SCHEMA)
ACTIONS = jsonschema.Draft202012Validator(ACTION_SCHEMA)
VARIANTS = [Rules(players=n, attack=a) for n in (3, 4, 5) for a in ("mandatory", "optional")]  # type: ignore[arg-type]


def played(rules: Rules, seed: int) -> Iterator[Game]:
    """Every position of one random game of ``rules``, the finished one included."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    yield game
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        yield game


# ------------------------------------------------------------------ the view's JSON


def test_the_schemas_are_valid_json_schemas() -> None:
    for schema in (VIEW_SCHEMA, ACTION_SCHEMA, RULES_SCHEMA, GAME_SCHEMA):
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.attack}")
def test_every_view_of_played_games_fits_the_schema_and_round_trips(rules: Rules) -> None:
    """Every seat's view of every position of two random games round trips; those of every
    fourth position and of the end are checked against the schema too (a check costs
    milliseconds)."""
    seen_over = seen_final = 0
    for seed in range(2):
        for step, game in enumerate(played(rules, seed)):
            for seat in range(rules.players):
                view = game.view(seat)
                text = view.to_json()
                if step % 4 == 0 or game.is_over:
                    VIEWS.validate(json.loads(text))
                restored = PlayerView.from_json(text)
                assert restored == view and restored.to_json() == text
            seen_over += game.is_over
            seen_final += game.final_round
    assert PlayerView.from_json(text.encode()) == view
    assert seen_over == 2 and seen_final > 2


def test_a_view_holds_its_own_clan_and_hand_and_the_table_by_name() -> None:
    game = random_game(4, 6, 30)
    data = json.loads(game.view(2).to_json())
    assert data["format"] == "ordonnance.shinobi.view" and data["version"] == 1
    assert data["clan"] == CLAN_NAMES[game.clan(2)] and data["hand"] == [card.name for card in game.hand(2)]
    assert data["clans"] == [CLAN_NAMES[game.clan(2)] if seat == 2 else None for seat in range(4)]
    assert data["neutral_clans"] is None and data["deck_size"] == game.deck_size
    assert data["provinces"] == [list(game.province(seat)) for seat in range(4)]
    assert data["hand_sizes"] == [len(game.hand(seat)) for seat in range(4)]
    assert "deck" not in data and "hands" not in data


def test_the_json_of_a_finished_game_shows_every_clan() -> None:
    game = random_game(5, 3, 10_000)
    data = json.loads(game.view(0).to_json())
    assert data["is_over"] and data["legal_actions"] == [] and data["winners"] == list(game.winners)
    assert data["clans"] == [CLAN_NAMES[game.clan(seat)] for seat in range(5)]
    assert data["neutral_clans"] == [CLAN_NAMES[clan] for clan in game.neutral_clans]


def _deck_with_hands(rules: Rules, hands: list[list[int]], draws: list[int]) -> list[int]:
    """A deck (top first) that deals ``hands`` and then yields ``draws``, the rest of the
    rules' cards in code order."""
    top = [hands[seat][k] for k in range(HAND_SIZE) for seat in range(rules.players)] + draws
    return top + sorted((Counter(rules.troop_deck) - Counter(top)).elements())


def test_games_that_differ_only_in_hidden_cards_give_a_seat_the_same_view_json() -> None:
    """Two deals: other hands, the deck order below seat 0's next draws and the other seats'
    clans all differ; seat 0's view JSON is the same text, and stays so after the same
    actions, seat 0's refill included. A change to seat 0's own hand does show (the
    comparison can fail)."""
    rules = Rules(players=3)
    a = Game.new(rules, deck=_deck_with_hands(rules, [[0, 1, 2, 3], [4, 4, 5, 0], [1, 1, 2, 2]], [5, 0]), clans=(0, 1, 2))
    b_deck = _deck_with_hands(rules, [[0, 1, 2, 3], [4, 3, 2, 1], [0, 4, 3, 4]], [5, 0])
    b = Game.new(rules, deck=b_deck[:14] + b_deck[14:][::-1], clans=(0, 4, 3))
    assert a.hand(1) != b.hand(1) and a.clan(1) != b.clan(1) and a.neutral_clans != b.neutral_clans
    assert a.view(0).to_json() == b.view(0).to_json()
    for action in [shinobi.Deploy(0, 1), shinobi.Reinforce(3), shinobi.Deploy(4, 0)]:
        a.apply(action)
        b.apply(action)
        assert a.view(0).to_json() == b.view(0).to_json()
    assert a.turns == 1 and a.hand(0) == b.hand(0) and a.hand(1) != b.hand(1)
    c = Game.new(rules, deck=_deck_with_hands(rules, [[0, 1, 2, 2], [4, 4, 5, 0], [1, 1, 2, 3]], [5, 0]), clans=(0, 1, 2))
    fresh = Game.new(rules, deck=_deck_with_hands(rules, [[0, 1, 2, 3], [4, 4, 5, 0], [1, 1, 2, 2]], [5, 0]), clans=(0, 1, 2))
    assert c.view(0).to_json() != fresh.view(0).to_json()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_dealing_the_hidden_things_again_never_changes_a_seats_view_json(players: int) -> None:
    rng = random.Random(players)
    for game in played(Rules(players=players), seed=players):
        if game.turns % 3 or game.order != 1:
            continue
        for seat in range(players):
            text = game.view(seat).to_json()
            for _ in range(2):
                assert game.view(seat).sample_game(rng.getrandbits(64)).view(seat).to_json() == text


def _view_text(players: int = 4, seed: int = 7, steps: int = 30, seat: int | None = None) -> str:
    game = random_game(players, seed, steps)
    return game.view(game.current_player if seat is None else seat).to_json()


@pytest.mark.parametrize(("players", "seed", "steps"), [(4, 7, 30), (3, 2, 10_000), (5, 1, 0)])
def test_any_value_of_another_json_type_in_a_view_is_refused(players: int, seed: int, steps: int) -> None:
    """Every value of a view's JSON (nested ones, action fields and rules included) replaced
    by each value of another JSON type: InvalidGameStateError showing the value."""
    text = _view_text(players, seed, steps)
    slots = _slots(json.loads(text))[1:]
    assert len(slots) > 60
    for slot in slots:
        for other in _other_typed(_at(json.loads(text), slot)):
            mutated = json.loads(text)
            _at(mutated, slot[:-1])[slot[-1]] = other
            try:
                PlayerView.from_json(json.dumps(mutated))
            except InvalidGameStateError as error:
                assert str(error).startswith("invalid shinobi view JSON"), str(error)
                shown = repr(other)[:60] in str(error) or any(f"got {repr(part)[:60]}" in str(error) for part in _nested(other))
                assert shown, (slot, other, str(error))
            else:
                pytest.fail(f"{slot} = {other!r} was accepted")


def _nested(value: Any) -> Iterator[Any]:
    """``value`` and, if it is an array or object, every value inside it, at any depth: the
    error may show (after "got") the part of a value that is wrong."""
    yield value
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    for item in items:
        yield from _nested(item)


def _view_mutations(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Single changes to a view's JSON, each of the right JSON type, that no game gives."""
    out = []

    def edit(name: str, change: Any) -> None:
        copy = json.loads(json.dumps(data))
        change(copy)
        out.append((name, copy))

    other = (data["seat"] + 1) % len(data["hand_sizes"])
    edit("a card from nowhere", lambda d: d["provinces"][0].__setitem__(0, d["provinces"][0][0] + 1))
    edit("a hand card", lambda d: d["hand"].__setitem__(0, "Ninja" if d["hand"][0] != "Ninja" else "Oda"))
    edit("a card dropped from the hand", lambda d: d["hand"].pop())
    edit("a hand size", lambda d: d["hand_sizes"].__setitem__(other, d["hand_sizes"][other] - 1))
    edit("the deck size", lambda d: d.__setitem__("deck_size", d["deck_size"] + 1))
    edit("a final round", lambda d: d.__setitem__("extra_turns_left", 1))
    edit("another seat's clan shown", lambda d: d["clans"].__setitem__(other, next(c for c in CLAN_NAMES if c != d["clan"])))
    edit("the seat's clan", lambda d: d.__setitem__("clan", next(c for c in CLAN_NAMES if c != d["clan"])))
    edit("neutral clans shown", lambda d: d.__setitem__("neutral_clans", [c for c in CLAN_NAMES if c != d["clan"]][:1]))
    edit("a legal action dropped", lambda d: d["legal_actions"].pop())
    edit("a legal action added", lambda d: d["legal_actions"].append({"type": "pass"}))
    edit("a winner", lambda d: d.__setitem__("winners", [0]))
    edit("over", lambda d: d.__setitem__("is_over", True))
    edit("order", lambda d: d.__setitem__("order", 1 + d["order"] % 3))
    edit("the seat to act", lambda d: d.__setitem__("current_player", other))
    edit("the seat", lambda d: d.__setitem__("seat", other))
    edit("a seat past the players", lambda d: d.__setitem__("seat", 4))
    edit("rules", lambda d: d["rules"].__setitem__("ninjas", 2))
    edit("a rules key missing", lambda d: d["rules"].pop("attack"))
    edit("a clan's case", lambda d: d.__setitem__("clan", d["clan"].lower()))
    edit("a province's row", lambda d: d["provinces"][0].append(0))
    edit("an extra key", lambda d: d.__setitem__("deck", []))
    edit("a missing key", lambda d: d.pop("winners"))
    edit("version", lambda d: d.__setitem__("version", 2))
    edit("format", lambda d: d.__setitem__("format", "ordonnance.view"))
    return out


def test_every_single_change_no_game_gives_is_refused() -> None:
    data = json.loads(_view_text(4, 7, 30))
    assert data["legal_actions"] and data["deck_size"] > 0 and data["seat"] == data["current_player"]
    mutations = _view_mutations(data)
    assert len(mutations) == 25
    for name, mutated in mutations:
        with pytest.raises(InvalidGameStateError, match="invalid shinobi view JSON"):
            PlayerView.from_json(json.dumps(mutated))
            pytest.fail(f"mutation {name!r} was accepted")


def test_the_refusal_names_what_no_game_gives() -> None:
    data = json.loads(_view_text(4, 7, 30))
    data["legal_actions"].pop()
    with pytest.raises(InvalidGameStateError, match=r"no game gives this view: legal_actions \[Reinforce"):
        PlayerView.from_json(json.dumps(data))


@pytest.mark.parametrize(("text", "message"), [
    ("", "not JSON"), ("[]", "expected an object"), ("{}", "format must be"), (b"\xff", "not JSON"),
    ("[" * 100, "nested deeper than 8 levels"), ('{"format": 1, "format": 1}', "repeated keys"),
    ('{"a": Infinity}', "Infinity is not a number"), ("x" * 1_000_001, "more than 1,000,000"),
    (12, "str or bytes, not int"), (None, "str or bytes, not NoneType"),
])  # fmt: skip
def test_malformed_view_text_is_refused(text: Any, message: str) -> None:
    with pytest.raises(InvalidGameStateError, match=message):
        PlayerView.from_json(text)


# ------------------------------------------------------------------ the action codec


def test_every_action_round_trips_through_json_and_fits_the_schema() -> None:
    kinds = set()
    for code in range(ACTION_COUNT):
        action = from_code(code)
        text = shinobi.action_to_json(action)
        ACTIONS.validate(json.loads(text))
        assert shinobi.action_from_json(text) == action and shinobi.action_from_json(text.encode()) == action
        kinds.add(json.loads(text)["type"])
    assert kinds == {"deploy", "ninja", "reinforce", "move", "attack", "pass"}
    assert shinobi.action_to_json(shinobi.Move(1, "Oda", 0)) == '{"type":"move","from_province":1,"clan":"Oda","to_province":0}'
    assert shinobi.action_to_json is shinobi.actions.action_to_json and shinobi.action_from_json is shinobi.actions.action_from_json


def _close_to(value: Any) -> list[Any]:
    """Values a field might be given instead of ``value``: every JSON type, near misses too."""
    near = [-1, 5, 4, "oda", "Oda ", "Shimazu", "Ninja", "Go-Hojo", "Uesugi", 2.0]
    return [other for other in _other_typed(value) + near if other != value or type(other) is not type(value)]


def test_every_hostile_action_is_refused_exactly_when_the_schema_refuses_it() -> None:
    """Each field of each kind of action replaced (every JSON type, out of range, a clan's
    name misspelt), a key dropped or added: the reader accepts exactly what the schema
    allows (JSON Schema also takes 2.0 for the integer 2: the reader does not), and
    refuses with InvalidArgumentError showing the value."""
    samples = [shinobi.Deploy(2, 1), shinobi.Ninja(3, 0), shinobi.Reinforce(4), shinobi.Move(1, 2, 0),
               shinobi.Attack(0, 2, 3), shinobi.Pass()]  # fmt: skip
    tried = refused = 0
    for action in samples:
        data = action_to_data(action)
        variants = [{key: v for key, v in data.items() if key != drop} for drop in data] + [{**data, "x": 1}]
        for key, value in data.items():
            variants += [{**data, key: other} for other in _close_to(value)]
        for variant in variants:
            tried += 1
            integral_float = any(type(v) is float and v.is_integer() for v in variant.values())
            try:
                got = action_from_data(variant)
            except InvalidArgumentError as error:
                refused += 1
                assert not ACTIONS.is_valid(variant) or integral_float, variant
                assert str(error).startswith("invalid shinobi action JSON")
                assert all(repr(v)[:40] in str(error) for k, v in variant.items() if data.get(k) != v or k not in data)
            else:
                assert ACTIONS.is_valid(variant) and not integral_float, variant
                assert action_to_data(got) == variant
    assert tried > 150 and 0 < tried - refused < refused


@pytest.mark.parametrize(("text", "message"), [
    ('{"type": "pass", "type": "pass"}', "repeated keys"), ("[[[[[1]]]]]", "nested deeper than 4"),
    ('{"type": "pass", "x": "' + "y" * 10_000 + '"}', "more than 10,000"), ("pass", "not JSON"),
    (b'{"type": "pass"', "not JSON"), ("[]", "an action is an object"), ('"pass"', "an action is an object"),
    (7, "str or bytes, not int"),
])  # fmt: skip
def test_malformed_action_text_is_refused(text: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        shinobi.action_from_json(text)


def test_only_actions_are_written() -> None:
    with pytest.raises(OrdonnanceTypeError, match="'deploy'"):
        shinobi.action_to_json("deploy")  # type: ignore[arg-type]


# ------------------------------------------------------------------ sample_game and the constructor


def test_a_sample_keeps_what_the_seat_sees_and_deals_the_rest_again() -> None:
    game = random_game(4, 12, 25)
    view = game.view(1)
    samples = [view.sample_game(seed) for seed in range(200)]
    assert all(sample.view(1) == view and sample.hand(1) == game.hand(1) and sample.clan(1) == game.clan(1) for sample in samples)
    assert all(sample.seed is None and sample.history == () and sample.root() == sample for sample in samples)
    assert view.sample_game(3) == samples[3] and view.sample_game(3).to_json() == samples[3].to_json()
    assert len({sample.hand(0) for sample in samples}) > 100 and len({sample.clan(2) for sample in samples}) == CLANS - 1
    assert len({tuple(sample._deck) for sample in samples}) == 200


def test_samples_deal_clans_and_cards_uniformly() -> None:
    """At the deal, from seat 0: seat 1 works for each of the four other clans a quarter of
    the time, and the first card of its hand is a ninja as often as the unseen ninjas say."""
    game = Game.new(Rules(players=4), seed=4)
    view = game.view(0)
    samples = [view.sample_game(seed) for seed in range(4000)]
    clans = Counter(sample.clan(1) for sample in samples)
    assert set(clans) == set(range(CLANS)) - {game.clan(0)}
    assert all(900 < count < 1100 for count in clans.values()), clans
    ninjas = sum(sample.hand(1)[0].is_ninja for sample in samples)
    expected = 4000 * view.unseen()[NINJA] / sum(view.unseen())
    assert abs(ninjas - expected) < 4 * (expected * (1 - expected / 4000)) ** 0.5, (ninjas, expected)


def test_a_sample_of_a_finished_game_keeps_every_clan() -> None:
    game = random_game(3, 5, 10_000)
    sample = game.view(2).sample_game(1)
    assert sample.is_over and sample.winners == game.winners and sample.view(2) == game.view(2)
    assert [sample.clan(seat) for seat in range(3)] == [game.clan(seat) for seat in range(3)]
    assert sample.neutral_clans == game.neutral_clans


def test_a_sample_plays_on_to_the_end_and_replays_from_its_root() -> None:
    sample = random_game(5, 2, 40).view(3).sample_game(9)
    bots = [shinobi.bots.Greedy(seed=seat) for seat in range(5)]
    while not sample.is_over:
        sample.apply(bots[sample.current_player].choose(sample.view(sample.current_player)))
    replay = sample.root()
    assert replay.history == () and replay.turns == 20 * 0 + replay.turns and not replay.is_over
    for action in sample.history:
        replay.apply(action)
    assert replay == sample and sample.root() == sample.root().root()


@pytest.mark.parametrize("seed", [-1, 2**64, "1", 1.0, True])
def test_a_bad_sample_seed_is_refused_with_the_value(seed: Any) -> None:
    with pytest.raises(OrdonnanceError, match=repr(seed).replace("(", r"\(")):
        Game.new(Rules(), seed=1).view(0).sample_game(seed)
    assert isinstance(InvalidSeedError("x"), OrdonnanceError)


@pytest.mark.parametrize(("change", "message"), [
    ({"deck_size": 50}, "cards do not add up"),
    ({"hand_sizes": (4, 3, 4, 4)}, "cards do not add up"),
    ({"hand": ()}, r"seat 0 holds 0 cards, but hand_sizes says \[4, 4, 4, 4\]"),
    ({"provinces": "xyz"}, "provinces must be a sequence of 4, got 'xyz'"),
    ({"provinces": ((0,) * 5,) * 3}, "provinces must be a sequence of 4"),
    ({"discard": (0, 0, 0, 0, 0, -1)}, r"discard\[5\] must be in 0.., got -1"),
    ({"changed": ((0,) * 5,) * 4}, r"changed\[0\] must hold 5 bools"),
    ({"seat": 4}, "seat must be in 0..3, got 4"),
    ({"clan": None}, "clan must be an int, got None"),
    ({"turns": 1.5}, "turns must be an int, got 1.5"),
    ({"is_over": 1}, "is_over must be a bool, got 1"),
    ({"hand": ("Oda",) * 4}, "hand must hold at most 4 Cards"),
    ({"rules": "rules"}, "rules must be a shinobi Rules, got 'rules'"),
    ({"legal_actions": (1,)}, r"legal_actions must hold actions, got \(1,\)"),
    ({"extra_turns_left": 2}, r"the final round \(extra_turns_left=2\) starts once the deck is empty"),
    ({"is_over": True}, "a finished game shows every clan"),
])  # fmt: skip
def test_a_view_no_game_gives_cannot_be_sampled(change: dict[str, Any], message: str) -> None:
    view = Game.new(Rules(), seed=1).view(0)
    with pytest.raises(InvalidGameStateError, match=message):
        attrs.evolve(view, **change).sample_game(1)


def test_game_is_not_built_directly() -> None:
    with pytest.raises(OrdonnanceTypeError, match=r"Game.new\(rules, seed=...\).*got arguments \(3,\) \{'seed': 1\}"):
        Game(3, seed=1)  # type: ignore[call-arg]
    with pytest.raises(OrdonnanceTypeError, match="not Game"):
        shinobi.Game()


def _start_of_turn() -> Game:
    """A position at the start of a turn with cards in the deck: seat 2 to give order 1."""
    game = Game.new(Rules(players=3), seed=3)
    while not (game.turns == 8 and game.order == 1):
        game.apply(game.legal_actions()[-1])
    assert game.current_player == 2 and game.deck_size > 10
    return game


def test_the_constructor_takes_the_parts_of_every_position_of_a_game() -> None:
    for rules in VARIANTS[:2] + VARIANTS[-2:]:
        for game in played(rules, seed=1):
            made = Game._from_position(game.rules, **game._parts())
            assert made._parts() == game._parts() and made.history == () and made.seed is None
            assert all(made.view(seat) == game.view(seat) for seat in range(rules.players))
            assert made.legal_actions() == game.legal_actions() and made.winners == game.winners


def _parts(game: Game, **change: Any) -> dict[str, Any]:
    parts = {key: list(map(list, value)) if key in ("hands", "provinces", "changed") else value
             for key, value in game._parts().items()}  # fmt: skip
    parts.update(change)
    return parts


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: {"provinces": [[p["provinces"][0][0] + 1, *p["provinces"][0][1:]], *p["provinces"][1:]]}, "troop cards once each"),
    (lambda p: {"deck": p["deck"][1:], "discard": p["discard"]}, "troop cards once each"),
    (lambda p: {"hands": [p["hands"][0] + [p["deck"][0]], *p["hands"][1:]], "deck": p["deck"][1:]}, "at most 4 cards, got hands of"),
    (lambda p: {"hands": [p["hands"][0][1:], *p["hands"][1:]], "deck": [p["hands"][0][0], *p["deck"]]}, r"hands of \[3, 4, 4\] with current_player=2 at order=1"),
    (lambda p: {"hands": [*p["hands"][:2], p["hands"][2][1:]], "deck": [p["hands"][2][0], *p["deck"]]}, r"hands of \[4, 4, 3\] with current_player=2 at order=1"),
    (lambda p: {"extra_turns_left": 3}, r"final round \(extra_turns_left=3\) starts once the deck is empty"),
    (lambda p: {"extra_turns_left": 0}, r"final round \(extra_turns_left=0\) starts once the deck is empty"),
    (lambda p: {"changed": [[True, False, False, False, False], *p["changed"][1:]]}, "no army has changed before a turn's first order"),
    (lambda p: {"clans": [0, 0, 1]}, "clans: clans must give 3 different clans"),
    (lambda p: {"clans": [0, 1]}, "clans: clans must give 3 different clans"),
    (lambda p: {"clans": [0, 1, "Shimazu"]}, "'Shimazu'"),
    (lambda p: {"deck": "Oda"}, "deck must be a sequence of cards, got 'Oda'"),
    (lambda p: {"deck": [*p["deck"][:-1], 6]}, r"deck: a troop card is a Card, a code 0..5 or a name, got 6"),
    (lambda p: {"hands": p["hands"][:2]}, "hands must be a sequence of 3 items"),
    (lambda p: {"provinces": [[0, 0, 0, 0], *p["provinces"][1:]]}, r"provinces\[0\] must be a sequence of 5 items"),
    (lambda p: {"provinces": [[True, 0, 0, 0, 0], *p["provinces"][1:]]}, r"provinces\[0\]\[0\] must be an int, got True"),
    (lambda p: {"discard": [0, 0, 0, 0, 0, -1]}, r"discard\[5\] must be in 0.., got -1"),
    (lambda p: {"changed": [[0] * 5, *p["changed"][1:]]}, r"changed\[0\] must hold 5 bools, got \[0, 0, 0, 0, 0\]"),
    (lambda p: {"current_player": 3}, "current_player must be in 0..2, got 3"),
    (lambda p: {"order": 4}, "order must be in 1..3, got 4"),
    (lambda p: {"order": "1"}, "order must be an int, got '1'"),
    (lambda p: {"turns": -1}, "turns must be in 0.., got -1"),
    (lambda p: {"extra_turns_left": 4}, "extra_turns_left must be in 0..3, got 4"),
])  # fmt: skip
def test_the_constructor_refuses_each_part_no_game_reaches(change: Any, message: str) -> None:
    game = _start_of_turn()
    parts = _parts(game)
    with pytest.raises(InvalidGameStateError, match=message):
        Game._from_position(game.rules, **{**parts, **change(parts)})
    Game._from_position(game.rules, **parts)  # the parts unchanged are a position


def test_the_constructor_refuses_final_rounds_and_endings_the_engine_cannot_reach() -> None:
    game = random_game(3, 8, 10_000)
    parts = _parts(game)
    assert game.is_over and parts["extra_turns_left"] == 0 and parts["order"] == 3
    assert Game._from_position(game.rules, **parts).winners == game.winners
    with pytest.raises(InvalidGameStateError, match=r"a finished game \(extra_turns_left=0\) stands at order 3, got order=2"):
        Game._from_position(game.rules, **{**parts, "order": 2})
    with pytest.raises(InvalidGameStateError, match=r"extra_turns_left=1 says 2 turns of the final round are over, but turns=1"):
        Game._from_position(game.rules, **{**parts, "extra_turns_left": 1, "turns": 1})
    with pytest.raises(InvalidGameStateError, match="the deck ran out 5 turns ago but the final round has not begun"):
        Game._from_position(game.rules, **{**parts, "extra_turns_left": None, "turns": 5})
    with pytest.raises(OrdonnanceTypeError, match="shinobi Rules"):
        Game._from_position("rules", **parts)  # type: ignore[arg-type]


def test_the_constructor_skips_orders_without_a_choice_as_the_engine_does() -> None:
    """Final round, seat 0 holds a ninja alone and every army is its own: nothing to do in
    any order, so its turn ends at once and seat 1 is to act."""
    rules = Rules(players=3, samurai=(2, 2, 2, 2, 2), ninjas=2)
    game = Game._from_position(
        rules, clans=(0, 1, 2), deck=(), hands=([NINJA], [0, 1], [2, 3]), provinces=([1, 1, 1, 1, 2], [0] * 5, [0] * 5),
        discard=(0, 0, 0, 0, 0, 1), current_player=0, order=1, turns=7, extra_turns_left=3,
    )  # fmt: skip
    assert (game.current_player, game.order, game.turns, game.extra_turns_left) == (1, 1, 8, 2)
    assert game.root() == game and game.root() is not game


# ------------------------------------------------------------------ the schemas in the docs


@pytest.mark.parametrize(("name", "schema"), [("action", ACTION_SCHEMA), ("view", VIEW_SCHEMA), ("game", GAME_SCHEMA)])
def test_the_schemas_shown_in_the_docs_are_the_librarys(name: str, schema: dict[str, Any]) -> None:
    """docs/formats.rst includes docs/schemas/ordonnance.shinobi.*.json; after changing a schema,
    write them again with ``json.dumps(schema, indent=2) + "\\n"`` (the text this test expects)."""
    jsonschema.Draft202012Validator.check_schema(schema)
    path = Path(__file__).resolve().parents[2] / "docs" / "schemas" / f"ordonnance.shinobi.{name}.json"
    assert path.read_text(encoding="utf-8") == json.dumps(schema, indent=2) + "\n"
