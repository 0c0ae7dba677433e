"""The spectator's view of every game (``Game.public_view_json``): no card any seat hides.

Needs no extra: the public view is part of the game protocol, which the play server sends
to spectators.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from ordonnance.core import registry


def _positions(name: str, seed: int, every: int) -> list[object]:
    """Every ``every``-th position of one game played at random (and its last)."""
    module = registry.package(name)
    game = module.Game.new(module.Rules(), seed=seed)
    choose = random.Random(seed)
    positions = []
    while not game.is_over:
        if len(game.history) % every == 0:
            positions.append(game.clone())
        game.apply(choose.choice(game.legal_actions()))
    positions.append(game)
    return positions


@pytest.mark.parametrize("name", registry.names())
def test_public_view_is_the_same_whatever_the_hidden_cards(name: str) -> None:
    """Dealing again every card a seat cannot see (any seat, so every hand and the deck in turn)
    leaves the public JSON as it was: it holds no hidden card, nor anything that follows from one."""
    module = registry.package(name)
    for seed in (1, 2):
        for game in _positions(name, seed, every=7):
            public = game.public_view_json()
            for seat in range(game.players):
                for sample_seed in (1, 2):
                    sample = game.view(seat).sample_game(seed=sample_seed)
                    assert sample.public_view_json() == public
            jsonschema.validate(json.loads(public), module.Game.public_view_schema())


@pytest.mark.parametrize("name", registry.names())
def test_public_view_leaves_out_the_seats_own_keys(name: str) -> None:
    module = registry.package(name)
    game = module.Game.new(module.Rules(), seed=3)
    data = json.loads(game.public_view_json())
    view = json.loads(game.view(0).to_json())
    assert data["format"] == view["format"].removesuffix(".view") + ".public"
    assert "hand" not in data and "seat" not in data and "legal_actions" not in data
    assert data["hand_sizes"] == view["hand_sizes"]  # what is public stays


def test_a_public_view_key_that_depends_on_the_hand_would_be_caught() -> None:
    """The invariance check can fail: a seat's own view, which shows its hand, differs between
    a game and a deal again of what another seat cannot see."""
    module = registry.package("ordonnance")
    game = module.Game.new(module.Rules(), seed=4)
    sample = game.view(1).sample_game(seed=1)
    assert sample.view(0).to_json() != game.view(0).to_json()


@pytest.mark.parametrize("name", registry.names())
def test_the_public_view_schemas_in_the_docs_are_the_librarys(name: str) -> None:
    """docs/server.rst includes docs/schemas/*.public.json; after changing a view schema, write
    them again with ``json.dumps(Game.public_view_schema(), indent=2) + "\\n"``."""
    schema = registry.package(name).Game.public_view_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    path = Path(__file__).parents[2] / "docs" / "schemas" / f"{schema['properties']['format']['const']}.json"
    assert path.read_text() == json.dumps(schema, indent=2) + "\n"
