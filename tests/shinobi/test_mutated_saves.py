"""Shinobi's saves under mutation (issue 34, the hostile suite).

Saves of positions reached by play (several seeds and player counts, a game that starts
from a set position too) are mutated: every field (every key, the first and last item of
every list) replaced by values of every JSON type, every key deleted, every object given a
repeated key. Each mutated save must be refused with
:class:`~ordonnance.errors.InvalidGameStateError` in a message of at most 1,000 characters
(:func:`test_a_refusal_shows_the_value_in_short` checks that values are shown), or load
into a game that is consistent (:func:`~ordonnance.shinobi.conformance.check_invariants`)
and that the engine reaches from its start by its history. ``HOSTILE_SCALE`` multiplies the
number of positions (see :mod:`tests.hostile.values`).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from ordonnance.errors import InvalidGameStateError, OrdonnanceError
from ordonnance.shinobi import Game, PlayerView, Rules
from ordonnance.shinobi.conformance import check_invariants
from tests.hostile.values import SCALE, answer

Path = tuple[str | int, ...]

#: JSON texts put in place of a value: every JSON type, the tokens Python's parser takes
#: beyond JSON (NaN, Infinity), ints beyond 64 bits, and huge and deeply nested values.
TOKENS = [
    "null", "true", "false", "0", "-1", "18446744073709551616", "1" + "0" * 5000, "1.5", "1e400", "NaN",
    "Infinity", "-Infinity", '""', '"Oda"', '"Ninja"', '"\\u0000"', '"\\ud800"', "[]", "[null]", "{}",
    '{"a": 1}', '"' + "x" * 200_000 + '"', "[" * 5000 + "]" * 5000, "[" + ",".join(["0"] * 100_000) + "]",
]  # fmt: skip
_HOLE = "\x00hole\x00"


def _played(players: int, seed: int, steps: int | None) -> Game:
    """A game of ``players`` dealt from ``seed``, played by random legal actions for
    ``steps`` actions (None: to the end)."""
    game = Game.new(Rules(players=players, attack="optional" if seed % 2 else "mandatory"), seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (steps is None or len(game.history) < steps):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _positions() -> list[Game]:
    games = []
    for players in (3, 4, 5):
        for k in range(SCALE):
            seed = 1000 * k + players
            games.append(_played(players, seed, 7 + 11 * k))
            if players == 4 or k:
                games.append(_played(players, seed + 1, None))
    sampled = _played(4, 9, 25).view(1).sample_game(seed=2)  # a game whose save holds its start
    for action in random.Random(3).sample(sampled.legal_actions(), 1):
        sampled.apply(action)
    games.append(sampled)
    return games


POSITIONS = _positions()


def _paths(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every key of every object and the first and last item of every list (and what they hold)."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list) and value:
        for index in sorted({0, len(value) - 1}):
            yield from _paths(value[index], (*path, index))


def _at(data: Any, path: Path) -> Any:
    for step in path:
        data = data[step]
    return data


def _put(data: Any, path: Path, value: Any) -> Any:
    """A copy of ``data`` with the value at ``path`` replaced."""
    copy = json.loads(json.dumps(data))
    _at(copy, path[:-1])[path[-1]] = value
    return copy


def _text(data: Any, raw: str) -> str:
    """``data`` as JSON text with its hole filled by the raw JSON text ``raw``."""
    return json.dumps(data).replace(json.dumps(_HOLE), raw)


def _near(value: Any) -> list[Any]:
    """Values next to ``value`` of its own type: the mutations most likely to be loaded."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, str):
            return [name for name in ("Go-Hojo", "Mori", "Oda", "Takeda", "Uesugi", "Ninja", "deploy", "pass") if name != value][:3]
    if isinstance(value, list):
        return [value[::-1], value[:-1], value + value[-1:]] if value else []
    return []


#: Every STRIDE-th mutation is tried (each place still meets several values): all of them once
#: ``HOSTILE_SCALE`` is 4 or more, a quarter in the test command.
STRIDE = max(1, 4 // SCALE)


def mutations(text: str) -> Iterator[tuple[str, str]]:
    """``(what, mutated text)`` for every :data:`STRIDE`-th mutation of the save ``text``."""
    return itertools.islice(_all_mutations(text), 0, None, STRIDE)


def _all_mutations(text: str) -> Iterator[tuple[str, str]]:
    """``(what, mutated text)`` for every mutation of the save ``text``."""
    data = json.loads(text)
    for path in _paths(data):
        holder = _at(data, path[:-1])
        here = json.dumps(_at(data, path))
        for raw in TOKENS:
            if len(raw) > 100 or json.dumps(json.loads(raw)) != here:  # a token equal to the value is no mutation
                yield f"{list(path)} = {raw[:20]}", _text(_put(data, path, _HOLE), raw)
        for value in _near(_at(data, path)):
            if json.dumps(value) != here:
                yield f"{list(path)} = {json.dumps(value)[:40]}", json.dumps(_put(data, path, value))
        if isinstance(holder, dict):
            smaller = json.loads(json.dumps(data))
            del _at(smaller, path[:-1])[path[-1]]
            yield f"del {list(path)}", json.dumps(smaller)
    for path in [(), *(p for p in _paths(data) if isinstance(_at(data, p), dict))]:
        target = _at(data, path)
        for key in list(target)[:1] + list(target)[-1:]:
            for repeated in (target[key], None):
                members = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in target.items()]
                raw = "{" + ", ".join([*members, f"{json.dumps(key)}: {json.dumps(repeated)}"]) + "}"
                whole = _text(_put(data, path, _HOLE), raw) if path else raw
                yield f"{list(path)} repeats {key!r} as {json.dumps(repeated)[:20]}", whole


def _reachable(game: Game) -> str | None:
    """Why ``game`` is not a position the engine reaches from its start by its history, else None."""
    check_invariants(game, deep=False)
    replay = game.root()
    for action in game.history:
        replay.apply(action)
    if replay != game:
        return "its history does not lead from its start to it"
    if game.seed is not None and game.root() != Game.new(game.rules, seed=game.seed):
        return f"its start is not the deal of seed {game.seed}"
    again = Game.from_json(game.to_json())
    if again != game or again.to_json() != game.to_json():
        return "it does not round-trip"
    return None


def _verdict(what: str, text: str) -> tuple[str, str | None]:
    """``("refused" | "loaded", why it is wrong or None)`` for one mutated save."""
    ok, error, game = answer(lambda: Game.from_json(text))
    if not ok:
        return "refused", f"{type(error).__name__}: {str(error)[:200]}"
    if error is not None:
        if not isinstance(error, InvalidGameStateError):
            return "refused", f"refused with {type(error).__name__}, not InvalidGameStateError: {str(error)[:200]}"
        if len(str(error)) > 1000:
            return "refused", f"a message of {len(str(error))} characters"
        return "refused", None
    try:
        return "loaded", _reachable(game)
    except OrdonnanceError as problem:
        return "loaded", f"loaded but inconsistent: {problem}"


@pytest.mark.parametrize("game", POSITIONS, ids=[f"p{g.players}-t{g.turns}-{'start' if g.seed is None else g.seed}" for g in POSITIONS])
def test_a_mutated_save_is_refused_or_reachable(game: Game) -> None:
    bad, outcomes = [], []
    for what, text in mutations(game.to_json()):
        outcome, why = _verdict(what, text)
        outcomes.append(outcome)
        if why is not None:
            bad.append(f"{what}: {why}")
    assert bad == []
    assert len(outcomes) > 1000 // STRIDE and outcomes.count("refused") > 0.9 * len(outcomes)


def _version_1(game: Game) -> str:
    """``game``'s save as version 1 wrote it (no start; the history as ``"actions"``, ``[kind, fields...]``)."""
    data = json.loads(game.to_json())
    assert data.pop("start") is None
    data["version"] = 1
    del data["history"]
    data["actions"] = [[type(action).__name__, *attrs.astuple(action)] for action in game.history]
    return json.dumps(data)


DEALT = [game for game in POSITIONS if game.seed is not None][:2]


@pytest.mark.parametrize("game", DEALT, ids=[f"p{g.players}-t{g.turns}" for g in DEALT])
def test_a_mutated_version_1_save_is_refused_or_reachable(game: Game) -> None:
    text = _version_1(game)
    assert Game.from_json(text) == game
    bad = [f"{what}: {why}" for what, mutated in mutations(text) for why in [_verdict(what, mutated)[1]] if why]
    assert bad == []


@pytest.mark.parametrize("game", POSITIONS, ids=[f"p{g.players}-t{g.turns}" for g in POSITIONS])
def test_every_position_reached_by_play_round_trips(game: Game) -> None:
    replay = game.root()
    for action in [None, *game.history]:
        if action is not None:
            replay.apply(action)
        loaded = Game.from_json(replay.to_json())
        assert loaded == replay and loaded.to_json() == replay.to_json()
        assert _reachable(loaded) is None


def _save(game: Game, **changes: Any) -> str:
    data = json.loads(game.to_json())
    for path, value in changes.items():
        *where, last = path.split("__")
        _at(data, tuple(where))[last] = value
    return json.dumps(data)


def test_a_refusal_shows_the_value_in_short() -> None:
    game = POSITIONS[0]
    for changes, shown in (({"version": [2]}, "[2]"), ({"seed": "7"}, "'7'"), ({"rules": "x" * 200_000}, "xxxx"),
                           ({"rules": [0] * 100_000}, "[0, 0"), ({"position__order": 2**64}, "18446744073709551616")):  # fmt: skip
        with pytest.raises(InvalidGameStateError) as caught:
            Game.from_json(_save(game, **changes))
        assert shown in str(caught.value) and len(str(caught.value)) < 1000


def _changed_at(order: int) -> Game:
    """A game while the deck lasts whose seat to act stands at ``order`` after playing a card at order 1."""
    game = Game.new(Rules(players=3), seed=11)
    rng = random.Random(4)
    while not (game.order == order and game.deck_size > 10 and len(game.hand(game.current_player)) == 3):
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("order", "flags"), [(2, 0), (2, 2), (3, 4)])
def test_a_start_cannot_show_more_changed_armies_than_its_orders_make(order: int, flags: int) -> None:
    game = _changed_at(order)
    parts = game._parts()
    changed = [[False] * 5 for _ in range(3)]
    for k in range(flags):
        changed[k % 3][k // 3] = True
    parts["changed"] = changed
    with pytest.raises(InvalidGameStateError, match=f"cannot have changed {flags} armies"):
        Game._from_position(game.rules, **parts)
    assert Game._from_position(game.rules, **game._parts()).view(0) == game.view(0)  # the position itself loads


def test_a_start_agrees_with_its_turn_count() -> None:
    game = POSITIONS[-1]  # it starts from a set position
    data = json.loads(game.to_json())
    turns, seat = data["start"]["turns"], data["start"]["current_player"]
    assert turns % game.players == seat
    for shift in (1, game.players):
        data["start"]["turns"] = data["position"]["turns"] = turns + shift
        if shift == game.players:
            Game.from_json(json.dumps(data))  # a round more: the same seat to act, still a game play can reach
        else:
            with pytest.raises(InvalidGameStateError, match=f"seat {(turns + 1) % game.players} acts after {turns + 1} turns"):
                Game.from_json(json.dumps(data))
    # the seat to act agrees, but too few turns for the cards on the table and discarded
    start = game.root()
    assert sum(start.totals) + sum(start.discard) > 2 * seat + 2
    data["start"]["turns"], data["position"]["turns"] = seat, data["position"]["turns"] - turns + seat
    with pytest.raises(InvalidGameStateError, match=f"start: {seat} turns .* play at most"):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_view_of_a_game_in_play_gives_a_start_that_loads(players: int) -> None:
    game = Game.new(Rules(players=players), seed=players)
    rng = random.Random(players)
    while not game.is_over:
        for seat in range(players):
            sample = game.view(seat).sample_game(seed=len(game.history))
            assert Game.from_json(sample.to_json()) == sample
        game.apply(rng.choice(game.legal_actions()))


VIEWED = [(game, game.current_player) for game in POSITIONS[:2] + POSITIONS[-1:]]


@pytest.mark.parametrize(("game", "seat"), VIEWED, ids=[f"p{g.players}-t{g.turns}-seat{s}" for g, s in VIEWED])
def test_a_mutated_view_is_refused_or_given_by_a_game(game: Game, seat: int) -> None:
    """A view's JSON, mutated as saves are: refused, or a view some game gives (its sample's view)."""
    bad, loaded = [], 0
    for what, text in mutations(game.view(seat).to_json()):
        ok, error, view = answer(lambda: PlayerView.from_json(text))
        if not ok or (error is not None and (not isinstance(error, InvalidGameStateError) or len(str(error)) > 1000)):
            bad.append(f"{what}: {type(error).__name__}: {str(error)[:200]}")
        elif error is None:
            loaded += 1
            if view.sample_game(0).view(view.seat) != view or PlayerView.from_json(view.to_json()) != view:
                bad.append(f"{what}: loaded, but no game gives it")
    assert bad == [] and loaded < 100


def test_a_view_agrees_with_its_turn_count() -> None:
    game = POSITIONS[0]
    data = json.loads(game.view(0).to_json())
    data["turns"] += 1
    with pytest.raises(InvalidGameStateError, match=f"seat {data['turns'] % game.players} acts after {data['turns']} turns"):
        PlayerView.from_json(json.dumps(data))
    data["turns"] += game.players - 1
    assert PlayerView.from_json(json.dumps(data)).turns == data["turns"]  # a round later: the same seat acts
