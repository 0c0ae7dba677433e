"""Positions reached by random legal play, in every game and several variants of its rules."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ordonnance.core import registry

from .values import SCALE


def variants(game: str) -> list[Any]:
    """Rules of ``game`` worth attacking: the standard game and its other player counts and options."""
    package = registry.package(game)
    if game == "ordonnance":
        return [package.Rules(), package.Rules(players=3, scoring="points"), package.Rules(players=4, claim_proof="private")]
    if game == "shinobi":
        return [package.Rules(), package.Rules(players=3, attack="optional"), package.Rules(players=5)]
    small = [["Cavalry 1", "Pikemen 2", "Archers 1", "Battle", "Knights 2", "Pikemen 1"]] * 2
    return [package.Rules(), package.Rules(armies=("Burgundian", "Scottish"), first="coin"), package.Rules(decks=small)]


def positions(game: str, games: int = 4) -> Iterator[Any]:
    """Every ``k``-th position of ``games * SCALE`` random games of each variant (a copy each),
    the first and the last included."""
    package = registry.package(game)
    for v, rules in enumerate(variants(game)):
        for g in range(games * SCALE):
            rng = random.Random(f"{game} {v} {g}")
            state = package.Game.new(rules, seed=rng.randrange(2**32))
            step = rng.randrange(3, 9)
            taken = 0
            while True:
                if taken % step == 0 or state.is_over:
                    yield state.clone()
                if state.is_over:
                    break
                state.apply(rng.choice(list(state.legal_actions())))
                taken += 1
