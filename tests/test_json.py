"""Lossless JSON, and clear refusals of malformed or inconsistent input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import ordonnance as od
from ordonnance import Rules


def _mid_game(rules: Rules, seed: int, steps: int) -> od.Game:
    rng = random.Random(seed)
    game = od.Game.new(rules, seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


RULES = [
    Rules(),
    Rules(players=3, tie_break="lowest_marker_sum"),
    Rules(players=4, scoring="points"),
    Rules(auto_claim=True, claim_proof="private"),
    Rules(deck=list(od.standard_deck()) + ["LBSHF"] * 3),
]


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
@pytest.mark.parametrize("steps", [0, 7, 30, 1000])
def test_round_trip_is_exact_and_keeps_playing_the_same(rules: Rules, steps: int) -> None:
    game = _mid_game(rules, seed=steps, steps=steps)
    text = game.to_json()
    restored = od.Game.from_json(text)
    assert restored == game and restored.to_json() == text
    assert restored.rules == game.rules and restored.seed == game.seed
    assert od.Game.from_json(text.encode()) == game
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not game.is_over:
        game.apply(rng_a.choice(game.legal_actions()))
        restored.apply(rng_b.choice(restored.legal_actions()))
        assert restored == game
    assert restored.winner == game.winner and restored.scores == game.scores


def _broken(change: Any, *, version_2: bool = True) -> str:
    """A save of a game after 12 random actions, changed by ``change``: in version 2
    (the position alone, checked part by part) unless ``version_2`` is false."""
    data = json.loads(_mid_game(Rules(), seed=3, steps=12).to_json())
    if version_2:
        for key in ("order", "start", "history"):
            del data[key]
        data["version"] = 2
    change(data)
    return json.dumps(data)


def _set(key: str, value: Any) -> Any:
    return lambda d: d.__setitem__(key, value)


CASES = [
    ("not json", "not JSON"),
    ("[1, 2]", "expected an object"),
    (_broken(_set("version", 99)), "unsupported version 99"),
    (_broken(_set("format", "chess")), "format must be 'ordonnance.game', got 'chess'"),
    (_broken(lambda d: d.pop("plays")), "missing keys ['plays']"),
    (_broken(_set("extra", 1)), "unknown keys ['extra']"),
    (_broken(lambda d: d["hands"][0].__setitem__(0, "LX")), "hands[0][0]: unknown symbol letter 'X'"),
    (_broken(lambda d: d["hands"][0].__setitem__(0, 12)), "hands[0][0] must be a card text, got 12"),
    (_broken(lambda d: d["hands"][1].append(d["hands"][0][0])), "deck, hands and armies together"),
    (_broken(lambda d: d["deck"].pop()), "missing"),
    (_broken(lambda d: d["armies"][0][0].extend(["L"] * 5)), "holds"),
    (_broken(_set("current_player", 2)), "current_player must be an int in 0..1, got 2"),
    (_broken(_set("plays", 3)), "plays is 3 but"),
    (_broken(_set("owners", [0, None, None, None, None])), "markers"),
    (_broken(_set("markers", [2, None, None, None, None])), "marker"),
    (_broken(_set("over", "no")), "over must be true or false"),
    (_broken(lambda d: d["rules"].__setitem__("players", 7)), "rules: players must be 2..4, got 7"),
    (_broken(lambda d: d["rules"].__setitem__("colour", "red")), "unknown rules field(s): 'colour'"),
    (_broken(_set("seed", -4)), "seed must be an int"),
    (_broken(_set("armies", [])), "armies must have 5 entries, got 0"),
]


@pytest.mark.parametrize(("text", "message"), CASES, ids=range(len(CASES)))
def test_bad_json_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(od.InvalidGameStateError) as info:
        od.Game.from_json(text)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)
    data = json.loads(text) if text.startswith("{") else None
    if data is not None and data.get("version") == 2:  # the same change to a save with its history
        full = json.loads(_mid_game(Rules(), seed=3, steps=12).to_json())
        again = {**data, "version": 3, **{key: full[key] for key in ("order", "start", "history")}}
        with pytest.raises(od.InvalidGameStateError):
            od.Game.from_json(json.dumps(again))


def test_non_text_is_refused() -> None:
    with pytest.raises(od.InvalidGameStateError, match="str or bytes"):
        od.Game.from_json({"format": "ordonnance.game"})  # type: ignore[arg-type]


def test_rules_dict_round_trip() -> None:
    for rules in RULES:
        assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
