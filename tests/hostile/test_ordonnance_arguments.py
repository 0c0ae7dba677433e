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

from .sweep import BOOLS, HUGE, NONE, Target, sweep


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


TARGETS: list[Target] = [
    Target("Rules", od.Rules, (), {"players": 3, "deck": None, "scoring": "points", "tie_break": "latest_capture",
                             "claim_proof": "public", "auto_claim": False}, ok={"deck": NONE}),
    Target("Card", od.Card, (3,), {}),
    Target("Card.parse", od.Card.parse, ("LB",), {}),
    Target("Territory.parse", od.Territory.parse, ("Lorraine" if hasattr(od.Territory, "LORRAINE") else "0",), {}),
    Target("Play", Play, ("S", 2), {}),
    Target("Claim", Claim, (1,), {}),
    Target("action_from_json", od.action_from_json, ('{"type": "pass"}',), {}),
    Target("action_to_json", od.action_to_json, (Pass(),), {}),
    Target("army_key", od.army_key, (["LB", "S"],), {}, ok={0: {"empty list"}}),
    Target("compare_armies", od.compare_armies, (["S"], ["B"]), {}, ok={0: {"empty list"}, 1: {"empty list"}}),
    Target("describe", od.describe, (od.army_key(["LB", "S"]),), {}),
    Target("standard_deck", od.standard_deck, (2,), {}),
    Target("build_deck", od.build_deck, (["S", "B"],), {"min_size": 1}),
    Target("deck_counts", od.deck_counts, (["S", "B"],), {}, ok={0: {"empty list"}}),
    Target("best_completion", od.best_completion, (["S"], ["L", "B", "H", "F"]), {}, ok={0: {"empty list"}, 1: {"empty list"}}),
    Target("best_completion_key", od.best_completion_key, (["S"], ["L", "B", "H", "F"]), {}, ok={0: {"empty list"}, 1: {"empty list"}}),
    Target("can_beat", od.can_beat, (["S"], ["L", "B", "H", "F"], 5), {}, ok={0: {"empty list"}, 1: {"empty list"}, 2: {"-1", "np.int64(-1)"} | HUGE}),  # thresholds are clamped
    Target("Game.new", od.Game.new, (od.Rules(),), {"seed": 4, "deck": None}, ok={0: NONE, "seed": NONE, "deck": NONE}),
    Target("Game.from_json", od.Game.from_json, (game().to_json(),), {}),
    Target("Game.apply", method("apply"), (game().legal_actions()[0],), {}),
    Target("Game.view", method("view"), (1,), {}),
    Target("Game.hand", method("hand"), (1,), {}),
    Target("Game.army", method("army"), (2, 1), {}),
    Target("Game.army_key", method("army_key"), (2, 1), {}),
    Target("Game.can_claim", method("can_claim"), (0, 2), {}),
    Target("Game.claim_counterexample", method("claim_counterexample"), (0, 2), {}),
    Target("Game.territory_owner", method("territory_owner"), (2,), {}),
    Target("Game.marker", method("marker"), (2,), {}),
    Target("Game.completed_at", method("completed_at"), (2, 0), {}),
    Target("Game.is_open", method("is_open"), (2, 0), {}),
    Target("Game.ranking", method("ranking"), (2,), {}),
    Target("Game.unseen", method("unseen"), (0,), {}, ok={0: NONE}),
    Target("PlayerView.army", view_method("army"), (2, 1), {}),
    Target("PlayerView.is_open", view_method("is_open"), (2,), {}),
    Target("PlayerView.sample_game", view_method("sample_game"), (5,), {}, ok={0: NONE}),
    Target("PlayerView.from_json", od.PlayerView.from_json, (game().view(0).to_json(),), {}),
    Target("svg", render.svg, (game(),), {"hands": True, "size": 40, "names": ["a", "b"]}, ok={"hands": BOOLS, "names": NONE}),
    Target("territory_odds", od.territory_odds, (game(), 2), {"player": 0, "samples": 200, "seed": 1}, ok={"player": NONE}),
    Target("simulate", od.simulate, (od.Rules(),), {"games": 3, "seed": 1, "players": None, "record": True}, ok={0: NONE, "players": NONE, "record": BOOLS}),
    Target("tournament", od.tournament, ([bots.Random(seed=1), bots.Random(seed=2)], 4),
     {"seed": 1, "executor": "serial", "chunk_size": 2, "workers": 1},  # one worker: executor=None plays here too
     ok={"executor": NONE, "chunk_size": NONE, "workers": NONE}),
    Target("ladder", od.ladder, ([bots.Random(seed=1), bots.Random(seed=2)], 4), {"seed": 1, "executor": "serial", "workers": 1},
           ok={"executor": NONE, "workers": NONE}),
    Target("Batch", Batch, (4, od.Rules()), {"opponent": "random", "seat": 0, "seed": 1, "illegal": "refuse",
                                      "illegal_reward": -1.0, "observe": "uint8"}, ok={1: NONE, "seed": NONE, "observe": NONE, "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}}),
    Target("Batch.reset", lambda *a, **k: Batch(4, seed=1).reset(*a, **k), (3,), {}, ok={0: NONE}),
    Target("Batch.step", lambda *a, **k: batch_step(*a, **k), ([0, 0, 0, 0],), {}),
    Target("Random", bots.Random, (1,), {}, ok={0: NONE}),
    Target("Greedy", bots.Greedy, (1,), {}, ok={0: NONE}),
    Target("MonteCarlo", bots.MonteCarlo, (1,), {"rollouts": 20, "time_limit": None, "margin_weight": 0.1}, ok={0: NONE, "rollouts": NONE, "time_limit": NONE | {"2**64", "1.5", "np.float64"}, "margin_weight": NONE | {"np.float64"}}),
    Target("ISMCTS", bots.ISMCTS, (1,), {"iterations": 20, "exploration": 0.7, "widening": 1.0}, ok={0: NONE, "iterations": NONE, "exploration": {"1.5", "np.float64"}, "widening": {"2**64", "1.5", "inf", "np.float64"}}),
    Target("Random.choose", choose(bots.Random(seed=1)), (game().view(game().current_player),), {}),
    Target("Greedy.choose", choose(bots.Greedy(seed=1)), (game().view(game().current_player),), {}),
    Target("MonteCarlo.choose", choose(bots.MonteCarlo(seed=1, rollouts=20)), (game().view(game().current_player),), {}),
]  # fmt: skip

@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_every_public_call_answers_bad_values_with_the_librarys_error(target: Target) -> None:
    assert sweep(target) == []


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

    targets: list[Target] = [
        Target("SingleAgentEnv", rl.SingleAgentEnv, (), {"opponent": "random", "seat": 0, "rules": od.Rules(),
                                                  "illegal_reward": -1.0, "max_steps": 50, "observation": "box"},
               ok={"opponent": NONE | {"function"}, "rules": NONE, "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}, "max_steps": NONE | HUGE}),
        Target("SingleAgentEnv.reset", lambda **k: rl.SingleAgentEnv().reset(**k), (), {"seed": 1, "options": None},
               ok={"seed": NONE, "options": NONE | {"dict"}}),
        Target("env.reset", lambda **k: rl.env().reset(**k), (), {"seed": 1, "options": None},
               ok={"seed": NONE, "options": NONE | {"dict"}}),
        Target("SingleAgentEnv.step", single_step, (rl.PASS_ACTION,), {}),
        Target("VectorEnv", rl.VectorEnv, (2,), {"rules": od.Rules(), "opponent": "random", "seat": 0, "seed": 1,
                                          "observation": "box", "illegal_reward": -1.0},
               ok={"rules": NONE, "seed": NONE, "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}}),
        Target("env", rl.env, (), {"rules": od.Rules(), "max_steps": 50, "observation": "dict"},
               ok={"rules": NONE, "max_steps": NONE | HUGE}),
        Target("parallel_env", rl.parallel_env, (), {"rules": od.Rules(), "max_steps": 50, "observation": "box"},
               ok={"rules": NONE, "max_steps": NONE | HUGE}),
        Target("env.observe", aec("observe"), ("player_0",), {}),
        Target("env.action_space", aec("action_space"), ("player_0",), {}),
        Target("env.step", aec("step"), (rl.PASS_ACTION,), {}),
        Target("action_from_index", rl.action_from_index, (rl.PASS_ACTION,), {}),
    ]  # fmt: skip
    assert [failure for target in targets for failure in sweep(target)] == []
