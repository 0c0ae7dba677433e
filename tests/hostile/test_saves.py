"""Saves under attack, in every game: the saves of positions reached by play, with every field
(at every depth) replaced by values of every JSON type, deleted or duplicated, and the whole
text cut, nested deeply or padded. Each mutated save is refused with the library's error
(:class:`~ordonnance.errors.InvalidGameStateError`, with the value shown where one is to
blame), or it loads into a game that is consistent (its invariants hold, its save reads
back to it) and that the engine reaches: replaying its history on a game dealt from its seed
gives the same game. Every save of a position reached by play loads back to that position."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from ordonnance.core import registry
from ordonnance.errors import InvalidGameStateError, OrdonnanceError

from .positions import positions
from .values import SCALE, answer

#: JSON values of every type put in the place of a field.
REPLACEMENTS: list[Any] = [
    None, True, False, 0, 1, -1, 7, 2**64, -(2**63) - 1, 0.5, 1e308, "", "x", "Ninja", "Battle", "LBSHF",
    [], [0], [None], [[]], {}, {"type": "pass"}, list(range(60)),
]  # fmt: skip
#: Mutations tried on each position's save (each a random field and value).
PER_SAVE = 40 * SCALE
#: Fields that choose the deal itself: a save may name any deal there, so a change can be reachable
#: from another ``Game.new`` than the seeded one (only its consistency is checked then).
DEAL_FIELDS = {"start", "orders", "deck", "clans", "seed", "rng_state", "hands"}


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, parents before children."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    data = copy.deepcopy(data)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return data


def deleted(data: Any, path: tuple[Any, ...]) -> Any:
    data = copy.deepcopy(data)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    return data


def texts(save: str, rng: random.Random) -> Iterator[tuple[str, str, tuple[Any, ...]]]:
    """``(what, mutated text, path)`` for one save: random replacements and deletions at every
    depth, then the text-level attacks."""
    data = json.loads(save)
    places = list(paths(data))[1:]
    leaves = [(path, value) for path in places if not isinstance(value := at(data, path), (dict, list))]
    for _ in range(PER_SAVE):
        path = rng.choice(places)
        kind = rng.random()
        if kind < 0.15:
            yield f"delete {path}", json.dumps(deleted(data, path)), path
        elif kind < 0.55 and leaves:  # plausible: a value of its own type from elsewhere in the save, or one off
            path, old = rng.choice(leaves)
            same = [v for _, v in leaves if type(v) is type(old) and v != old]
            value = old + rng.choice((-1, 1)) if type(old) is int and (rng.random() < 0.5 or not same) else (rng.choice(same) if same else None)
            yield f"{path} = {value!r:.40} (was {old!r:.40})", json.dumps(replaced(data, path, value)), path
        elif kind < 0.7 and isinstance(at(data, path), list) and len(at(data, path)) > 1:
            items = list(at(data, path))
            i, j = rng.sample(range(len(items)), 2)
            items[i], items[j] = items[j], items[i]
            yield f"{path}: swap {i} and {j}", json.dumps(replaced(data, path, items)), path
        else:
            value = rng.choice(REPLACEMENTS)
            yield f"{path} = {value!r:.40}", json.dumps(replaced(data, path, value)), path
    key = rng.choice(list(data))
    yield f"duplicate {key!r}", save[:-1] + f', "{key}": {json.dumps(data[key])}}}', (key,)
    for token in ("NaN", "Infinity", "-Infinity"):
        yield f"seed = {token}", json.dumps(replaced(data, ("seed",), 0)).replace('"seed": 0', f'"seed": {token}'), ("seed",)
    yield "deep nesting", json.dumps(replaced(data, ("history",), json.loads("[" * 50 + "]" * 50))), ("history",)
    yield "cut in half", save[: len(save) // 2], ()
    yield "padded", save + " " * 2_000_000, ()
    yield "huge string", json.dumps(replaced(data, ("format",), "x" * 2_000_000)), ("format",)


def reached(game: str, loaded: Any) -> Any:
    """The game dealt from the loaded game's seed and rules with its history replayed."""
    fresh = registry.package(game).Game.new(loaded.rules, seed=loaded.seed)
    for action in loaded.history:
        fresh.apply(action)
    return fresh


@pytest.mark.parametrize("game", registry.names())
def test_mutated_saves_are_refused_or_reachable(game: str) -> None:
    package = registry.package(game)
    invariants = __import__(f"{package.__name__}.conformance", fromlist=["check_invariants"]).check_invariants
    rng = random.Random(game)
    tried = refused = loaded_count = 0
    bad: list[str] = []
    for state in list(positions(game, games=1))[:: 3]:
        save = state.to_json()
        assert package.Game.from_json(save) == state  # every position reached by play loads back
        for what, text, path in texts(save, rng):
            tried += 1
            ok, error, loaded = answer(lambda: package.Game.from_json(text))
            if not ok:
                bad.append(f"{what}: {type(error).__name__}: {str(error)[:160]}")
            elif error is not None:
                refused += 1
                if not isinstance(error, InvalidGameStateError):
                    bad.append(f"{what}: refused with {type(error).__name__}, not InvalidGameStateError: {error}")
            else:
                loaded_count += 1
                try:
                    invariants(loaded)
                    assert package.Game.from_json(loaded.to_json()) == loaded
                    if not DEAL_FIELDS & set(map(str, path)) and loaded.seed is not None:
                        assert reached(game, loaded) == loaded, "not the game its seed and history reach"
                except (AssertionError, OrdonnanceError) as failure:
                    bad.append(f"{what}: loaded, but {type(failure).__name__}: {str(failure)[:160]}")
    print(f"{game}: {tried:,} mutated saves, {refused:,} refused, {loaded_count:,} loaded and checked")
    assert tried > 300 and not bad, f"{len(bad)} of {tried}:\n" + "\n".join(bad[:40])
