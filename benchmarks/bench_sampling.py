"""Hidden-card sampling: ``PlayerView.sample_game`` against ``Game.clone`` and a re-deal through JSON.

``sample_game`` deals the cards one seat cannot see into a new ``Game``; the
issue's target is at most 20 us a call. ``Game.clone`` (a copy with the same
cards) is the floor, and a re-deal through the save (edit ``to_json``'s
hands and pile, then ``Game.from_json``) is what a search had to do before.
Run with::

    python -m pytest benchmarks/bench_sampling.py --benchmark-only
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import ordonnance as od
from conftest import items

CALLS = 1000
POSITIONS = {
    "2p-start": (od.Rules(), 0),
    "2p-mid": (od.Rules(), 20),
    "4p-mid": (od.Rules(players=4), 40),
    "2p-private-auto-mid": (od.Rules(claim_proof="private", auto_claim=True), 24),
}


def _position(name: str) -> od.Game:
    rules, steps = POSITIONS[name]
    rng = random.Random(1)
    game = od.Game.new(rules, seed=1)
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _samples(view: od.PlayerView) -> None:
    for seed in range(CALLS):
        view.sample_game(seed)


def _clones(game: od.Game) -> None:
    for _ in range(CALLS):
        game.clone()


def _json_redeals(game: od.Game, seat: int, calls: int) -> None:
    data = json.loads(game.to_json())
    others = [p for p in range(game.players) if p != seat]
    hidden = data["deck"] + [card for p in others for card in data["hands"][p]]
    rng = random.Random(0)
    for _ in range(calls):
        rng.shuffle(hidden)
        at = 0
        for p in others:
            size = len(data["hands"][p])
            data["hands"][p] = hidden[at : at + size]
            at += size
        data["deck"], data["seed"], data["rng_state"] = hidden[at:], None, None
        od.Game.from_json(json.dumps(data))


@pytest.mark.parametrize("name", list(POSITIONS))
def test_sample_game(benchmark: Any, name: str) -> None:
    benchmark.group = f"sampling: {name}"
    view = _position(name).view(0)
    view.sample_game(0)  # compile, and prepare the view
    items(benchmark, CALLS, subject=True)
    benchmark.pedantic(_samples, args=(view,), rounds=7, iterations=1)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_clone(benchmark: Any, name: str) -> None:
    benchmark.group = f"sampling: {name}"
    game = _position(name)
    items(benchmark, CALLS)
    benchmark.pedantic(_clones, args=(game,), rounds=7, iterations=1)


@pytest.mark.benchmark(group="sampling: 2p-mid")
def test_redeal_through_json(benchmark: Any) -> None:
    game = _position("2p-mid")
    items(benchmark, 100)
    benchmark.pedantic(_json_redeals, args=(game, 0, 100), rounds=3, iterations=1)


@pytest.mark.benchmark(group="sampling: a fresh view, then one deal")
def test_view_then_sample(benchmark: Any) -> None:
    game = _position("2p-mid")

    def run() -> None:
        for seed in range(200):
            game.view(0).sample_game(seed)

    items(benchmark, 200, subject=True)
    benchmark.pedantic(run, rounds=5, iterations=1)
