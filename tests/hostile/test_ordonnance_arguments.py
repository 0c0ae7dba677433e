"""Every public call of Ordonnance with bad values of every type in each argument: a return
(what is stored then holds no NumPy scalar) or the library's error, never a bare exception, a
hang or a huge allocation; and a game whose method refused a value is unchanged."""

from __future__ import annotations

from typing import Any

import pytest

import ordonnance as od
from ordonnance import bots, render
from ordonnance.batch import Batch
from ordonnance.actions import Claim, Pass, Play

from .sweep import Call, sweep


def game() -> od.Game:
    state = od.Game.new(seed=3)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    return state


def method(name: str) -> Any:
    """A method of a fresh mid-game position, checked to leave the game unchanged when it raises."""

    def call(*args: Any, **kwargs: Any) -> Any:
        state = game()
        before = state.to_json()
        try:
            return getattr(state, name)(*args, **kwargs)
        except od.OrdonnanceError:
            assert state.to_json() == before, f"a refused {name} changed the game"
            raise

    return call


def view_method(name: str) -> Any:
    return lambda *args, **kwargs: getattr(game().view(0), name)(*args, **kwargs)


def batch_step(actions: Any) -> Any:
    batch = Batch(4, seed=1, opponent="random")
    legal = isinstance(actions, list) and actions == [0, 0, 0, 0]
    return batch.step(batch.legal_action_mask().argmax(axis=1) if legal else actions)


def choose(bot: Any) -> Any:
    return lambda view: bot.choose(view)


CALLS: list[Call] = [
    ("Rules", od.Rules, (), {"players": 3, "deck": None, "scoring": "points", "tie_break": "latest_capture",
                             "claim_proof": "public", "auto_claim": False}),
    ("Card", od.Card, (3,), {}),
    ("Card.parse", od.Card.parse, ("LB",), {}),
    ("Territory.parse", od.Territory.parse, ("Lorraine" if hasattr(od.Territory, "LORRAINE") else "0",), {}),
    ("Play", Play, ("S", 2), {}),
    ("Claim", Claim, (1,), {}),
    ("action_from_json", od.action_from_json, ('{"type": "pass"}',), {}),
    ("action_to_json", od.action_to_json, (Pass(),), {}),
    ("army_key", od.army_key, (["LB", "S"],), {}),
    ("compare_armies", od.compare_armies, (["S"], ["B"]), {}),
    ("describe", od.describe, (od.army_key(["LB", "S"]),), {}),
    ("standard_deck", od.standard_deck, (2,), {}),
    ("build_deck", od.build_deck, (["S", "B"],), {"min_size": 1}),
    ("deck_counts", od.deck_counts, (["S", "B"],), {}),
    ("best_completion", od.best_completion, (["S"], ["L", "B", "H", "F"]), {}),
    ("best_completion_key", od.best_completion_key, (["S"], ["L", "B", "H", "F"]), {}),
    ("can_beat", od.can_beat, (["S"], ["L", "B", "H", "F"], 5), {}),
    ("Game.new", od.Game.new, (od.Rules(),), {"seed": 4, "deck": None}),
    ("Game.from_json", od.Game.from_json, (game().to_json(),), {}),
    ("Game.apply", method("apply"), (game().legal_actions()[0],), {}),
    ("Game.view", method("view"), (1,), {}),
    ("Game.hand", method("hand"), (1,), {}),
    ("Game.army", method("army"), (2, 1), {}),
    ("Game.army_key", method("army_key"), (2, 1), {}),
    ("Game.can_claim", method("can_claim"), (0, 2), {}),
    ("Game.claim_counterexample", method("claim_counterexample"), (0, 2), {}),
    ("Game.territory_owner", method("territory_owner"), (2,), {}),
    ("Game.marker", method("marker"), (2,), {}),
    ("Game.completed_at", method("completed_at"), (2, 0), {}),
    ("Game.is_open", method("is_open"), (2, 0), {}),
    ("Game.ranking", method("ranking"), (2,), {}),
    ("Game.unseen", method("unseen"), (0,), {}),
    ("PlayerView.army", view_method("army"), (2, 1), {}),
    ("PlayerView.is_open", view_method("is_open"), (2,), {}),
    ("PlayerView.sample_game", view_method("sample_game"), (5,), {}),
    ("PlayerView.from_json", od.PlayerView.from_json, (game().view(0).to_json(),), {}),
    ("svg", render.svg, (game(),), {"hands": True, "size": 40, "names": ["a", "b"]}),
    ("territory_odds", od.territory_odds, (game(), 2), {"player": 0, "samples": 200, "seed": 1}),
    ("simulate", od.simulate, (od.Rules(),), {"games": 3, "seed": 1, "players": None, "record": True}),
    ("tournament", od.tournament, ([bots.Random(seed=1), bots.Random(seed=2)], 4),
     {"seed": 1, "executor": "serial", "chunk_size": 2}),
    ("ladder", od.ladder, ([bots.Random(seed=1), bots.Random(seed=2)], 4), {"seed": 1, "executor": "serial"}),
    ("Batch", Batch, (4, od.Rules()), {"opponent": "random", "seat": 0, "seed": 1, "illegal": "refuse",
                                      "illegal_reward": -1.0, "observe": "uint8"}),
    ("Batch.reset", lambda *a, **k: Batch(4, seed=1).reset(*a, **k), (3,), {}),
    ("Batch.step", lambda *a, **k: batch_step(*a, **k), ([0, 0, 0, 0],), {}),
    ("Random", bots.Random, (1,), {}),
    ("Greedy", bots.Greedy, (1,), {}),
    ("MonteCarlo", bots.MonteCarlo, (1,), {"rollouts": 20, "time_limit": None, "margin_weight": 0.1}),
    ("ISMCTS", bots.ISMCTS, (1,), {"iterations": 20, "exploration": 0.7, "widening": 1.0}),
    ("Random.choose", choose(bots.Random(seed=1)), (game().view(game().current_player),), {}),
    ("Greedy.choose", choose(bots.Greedy(seed=1)), (game().view(game().current_player),), {}),
    ("MonteCarlo.choose", choose(bots.MonteCarlo(seed=1, rollouts=20)), (game().view(game().current_player),), {}),
]  # fmt: skip

#: ``(call, argument)``: arguments for which some bad values are valid after all.
TAKES_ANY_TEXT = {("svg", "names")}


def test_every_public_call_answers_bad_values_with_the_librarys_error() -> None:
    made, bad = sweep(CALLS)
    print(f"ordonnance: {made:,} calls")
    assert made > 1000 and not bad, f"{len(bad)} of {made}:\n" + "\n".join(bad)


def test_the_research_adapters_answer_bad_values_with_the_librarys_error() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from ordonnance import rl

    def single_step(action: Any) -> Any:
        environment = rl.SingleAgentEnv(opponent="random")
        environment.reset(seed=1)
        return environment.step(action)

    def aec(method: str) -> Any:
        def call(*args: Any) -> Any:
            environment = rl.env()
            environment.reset(seed=1)
            return getattr(environment, method)(*args)

        return call

    calls: list[Call] = [
        ("SingleAgentEnv", rl.SingleAgentEnv, (), {"opponent": "random", "seat": 0, "rules": od.Rules(),
                                                  "illegal_reward": -1.0, "max_steps": 50, "observation": "box"}),
        ("SingleAgentEnv.reset", lambda **k: rl.SingleAgentEnv().reset(**k), (), {"seed": 1, "options": None}),
        ("env.reset", lambda **k: rl.env().reset(**k), (), {"seed": 1, "options": None}),
        ("SingleAgentEnv.step", single_step, (rl.PASS_ACTION,), {}),
        ("VectorEnv", rl.VectorEnv, (2,), {"rules": od.Rules(), "opponent": "random", "seat": 0, "seed": 1,
                                          "observation": "box", "illegal_reward": -1.0}),
        ("env", rl.env, (), {"rules": od.Rules(), "max_steps": 50, "observation": "dict"}),
        ("env.observe", aec("observe"), ("player_0",), {}),
        ("env.action_space", aec("action_space"), ("player_0",), {}),
        ("env.step", aec("step"), (rl.PASS_ACTION,), {}),
        ("action_from_index", rl.action_from_index, (rl.PASS_ACTION,), {}),
    ]  # fmt: skip
    made, bad = sweep(calls)
    print(f"ordonnance research adapters: {made:,} calls")
    assert made > 200 and not bad, f"{len(bad)} of {made}:\n" + "\n".join(bad)
