"""Shinobi's and Black Prince's Gymnasium single-agent envs (core.gym.GameSingleAgentEnv) and their ids."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from ordonnance import shinobi  # noqa: E402
from ordonnance import black_prince as bp  # noqa: E402
from ordonnance.black_prince import pettingzoo as bpz  # noqa: E402
from ordonnance.core.gym import GAME_ENV_IDS, register_game_envs  # noqa: E402
from ordonnance.errors import BotError, IllegalActionError  # noqa: E402
from ordonnance.shinobi import rl as srl  # noqa: E402


class Case:
    """One game under test: its env class, rules, bots module and the action index of an action in a view."""

    def __init__(self, name: str, env: type[Any], rules: Any, bots: Any, index: Callable[[Any, Any], int], env_id: str) -> None:
        self.name, self.env, self.rules, self.bots, self.index, self.env_id = name, env, rules, bots, index, env_id

    def make(self, **kwargs: Any) -> Any:
        return self.env(rules=self.rules, **kwargs)

    def __repr__(self) -> str:
        return self.name


CASES = [
    Case("shinobi-3", srl.SingleAgentEnv, shinobi.Rules(players=3), shinobi.bots, lambda a, v: a.code, "ordonnance/Shinobi-v0"),
    Case("shinobi-5", srl.SingleAgentEnv, shinobi.Rules(players=5), shinobi.bots, lambda a, v: a.code, "ordonnance/Shinobi-v0"),
    Case("black-prince", bpz.SingleAgentEnv, bp.Rules(), bp.bots, bpz.action_index, "ordonnance/BlackPrince-v0"),
]
MODULES = {"ordonnance/Shinobi-v0": "ordonnance.shinobi.rl", "ordonnance/BlackPrince-v0": "ordonnance.black_prince.pettingzoo"}


def play(environment: Any, seed: int, rng_seed: int = 0) -> list[Any]:
    """One episode from reset(seed=seed), the learner choosing uniformly among its legal actions: everything seen."""
    rng = np.random.default_rng(rng_seed)
    observation, info = environment.reset(seed=seed)
    trace: list[Any] = [environment.seat, np.asarray(info["action_mask"]).tolist(), _vector(observation).tolist()]
    while True:
        action = int(rng.choice(np.flatnonzero(environment.action_masks())))
        observation, reward, terminated, truncated, info = environment.step(action)
        trace += [action, reward, terminated, truncated, _vector(observation).tolist(), info["action_mask"].tolist()]
        if terminated or truncated:
            return trace


def _vector(observation: Any) -> Any:
    return observation["observation"] if isinstance(observation, dict) else observation


@pytest.mark.parametrize("case", CASES, ids=repr)
@pytest.mark.parametrize("observation", ["dict", "box"])
def test_check_env_passes_through_a_spec_with_every_render_mode(case: Case, observation: str) -> None:
    name = "OrdonnanceTestGameSingleAgent-v0"
    gymnasium.register(id=name, entry_point=case.env, disable_env_checker=True,
                       kwargs={"rules": case.rules, "observation": observation, "opponent": "random"})  # fmt: skip
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(gymnasium.make(name).unwrapped)
        assert [str(w.message) for w in caught] == []
    finally:
        del gymnasium.registry[name]


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_a_seeded_episode_replays_exactly(case: Case) -> None:
    first = play(case.make(seat="random"), seed=11)
    again = case.make(seat="random")
    assert play(again, seed=11) == first
    assert play(again, seed=11) == first  # the same env, reset to the same seed
    assert play(again, seed=12) != first


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_the_default_opponent_is_the_games_greedy_bot(case: Case) -> None:
    environment = case.make(seat=1)
    environment.reset(seed=3)
    assert sorted(environment.opponents) == [p for p in range(case.rules.players) if p != 1]
    assert all(type(bot) is case.bots.Greedy for bot in environment.opponents.values())


@pytest.mark.parametrize("case", CASES, ids=repr)
@pytest.mark.parametrize("observation", ["dict", "box"])
def test_masks_are_the_games_legal_actions(case: Case, observation: str) -> None:
    environment = case.make(opponent="random", seat="random", observation=observation)
    rng = np.random.default_rng(1)
    for seed in range(3):
        observation_now, info = environment.reset(seed=seed)
        while True:
            game = environment.game
            view = game.view(environment.seat)
            assert game.current_player == environment.seat and not game.is_over
            expected = environment.action_masks()
            marked = np.flatnonzero(expected)
            assert all(expected[case.index(action, view)] for action in view.legal_actions)
            assert {environment.aec.decode(i, view) for i in marked} == set(view.legal_actions)
            assert np.array_equal(info["action_mask"], expected.astype(np.int8))
            if observation == "dict":
                assert np.array_equal(observation_now["action_mask"], expected.astype(np.int8))
            action = int(rng.choice(np.flatnonzero(expected)))
            observation_now, _, terminated, truncated, info = environment.step(action)
            if terminated or truncated:
                assert not environment.action_masks().any()
                break


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_an_illegal_action_ends_the_episode_and_changes_nothing(case: Case) -> None:
    environment = case.make(illegal_reward=-2.5, opponent="random")
    environment.reset(seed=4)
    before = environment.game.to_json()
    illegal = int(np.flatnonzero(~environment.action_masks())[0])
    observation, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.5, True, False, True)
    assert environment.game.to_json() == before
    with pytest.raises(gymnasium.error.ResetNeeded):
        environment.step(int(np.flatnonzero(environment.action_masks())[0]))


@pytest.mark.parametrize("case", CASES, ids=repr)
@pytest.mark.parametrize("index", [-1, 10**6, True, 1.0, "0", None])
def test_an_index_outside_the_action_space_is_refused_and_changes_nothing(case: Case, index: object) -> None:
    environment = case.make(opponent="random")
    environment.reset(seed=4)
    before = environment.game.to_json()
    with pytest.raises(IllegalActionError):
        environment.step(index)
    assert environment.game.to_json() == before
    environment.step(int(np.flatnonzero(environment.action_masks())[0]))  # the episode goes on


class Policy:
    """A self-play opponent: plays the first legal action, or the last once ``last`` is set; records its calls."""

    def __init__(self, size: int) -> None:
        self.size, self.last, self.calls = size, False, 0
        self.callers: set[int] = set()

    def __call__(self, observation: Any, mask: Any) -> int:
        assert observation.dtype == np.float32 and observation.shape == (self.size,)
        assert mask.dtype == np.bool_ and mask.any()
        self.calls += 1
        self.callers.add(id(self))
        legal = np.flatnonzero(mask)
        return int(legal[-1] if self.last else legal[0])


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_a_self_play_policy_is_called_not_copied(case: Case) -> None:
    probe = case.make(observation="box")
    policy = Policy(probe.observation_space.shape[0])
    environment = case.make(opponent=policy, seat=1)
    first = play(environment, seed=5)
    assert policy.calls > 0 and policy.callers == {id(policy)}
    assert all(opponent is policy for opponent in environment.opponents.values())
    calls = policy.calls
    policy.last = True  # a change to the live policy shows in the next episode
    assert play(environment, seed=5) != first
    assert policy.calls > calls


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_a_failing_opponent_raises_bot_error(case: Case) -> None:
    def illegal(observation: Any, mask: Any) -> int:
        return int(np.flatnonzero(~mask)[0])

    environment = case.make(opponent=illegal, seat=1)
    with pytest.raises(BotError, match="not legal"):
        play(environment, seed=2)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_seeded_opponents_play_their_own_stream_per_seat_and_are_not_changed(case: Case) -> None:
    starts: list[tuple[int, int]] = []

    class Recording(case.bots.Random):  # type: ignore[name-defined,misc]
        def choose(self, view: Any) -> Any:
            if view.seat not in {seat for seat, _ in starts}:
                starts.append((view.seat, self._state))
            return super().choose(view)

    bot = Recording(seed=7)
    environment = case.make(opponent=bot, seat=0)
    for seed in range(6):
        starts.clear()
        play(environment, seed=seed)
        states = [state for _, state in starts]
        assert len(states) == len(set(states))
    assert bot._state == bot.seed == 7  # only the episode's copies drew
    starts.clear()
    play(environment, seed=3)
    first = list(starts)
    starts.clear()
    play(environment, seed=3)
    assert starts == first


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_max_steps_truncates_after_that_many_learner_actions(case: Case) -> None:
    environment = case.make(opponent="random", max_steps=2)
    environment.reset(seed=1)
    mask = environment.action_masks
    assert environment.step(int(np.flatnonzero(mask())[0]))[3] is False
    *_, terminated, truncated, _ = environment.step(int(np.flatnonzero(mask())[0]))
    assert truncated or terminated


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_seat_random_is_drawn_per_deal(case: Case) -> None:
    environment = case.make(seat="random", opponent="random")
    seats = set()
    for seed in range(40):
        environment.reset(seed=seed)
        seats.add(environment.seat)
        assert environment.game.current_player == environment.seat
    assert seats == set(range(case.rules.players))


def test_the_ids_are_registered_once() -> None:
    from ordonnance.rl import register_envs

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_game_envs()
        register_envs()
        register_game_envs()
    for env_id, entry_point in GAME_ENV_IDS.items():
        assert gymnasium.registry[env_id].entry_point == entry_point


@pytest.mark.parametrize("env_id", sorted(MODULES))
def test_gymnasium_make_finds_each_id_from_a_fresh_process(env_id: str) -> None:
    script = f"""
import gymnasium, numpy as np
env = gymnasium.make("{MODULES[env_id]}:{env_id}", opponent="random", observation="box")
observation, info = env.reset(seed=1)
masks = env.get_wrapper_attr("action_masks")()
assert np.array_equal(masks, env.unwrapped.action_masks()) and masks.any()
assert np.array_equal(masks, info["action_mask"].astype(bool))
observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(masks)[0]))
print(type(env.unwrapped).__module__, observation.dtype)
"""
    done = subprocess.run([sys.executable, "-W", "error", "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [MODULES[env_id], "float32"]


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_changing_a_returned_mask_changes_nothing_in_the_env(case: Case) -> None:
    environment = case.make(opponent="random")
    observation, info = environment.reset(seed=6)
    legal = environment.action_masks()
    info["action_mask"][:] = 0
    observation["action_mask"][:] = 0
    environment.action_masks()[:] = False
    assert np.array_equal(environment.action_masks(), legal)
    assert environment.step(int(np.flatnonzero(legal)[0]))[4]["illegal_action"] is False


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_the_env_pickles_built_reset_and_mid_episode_and_plays_on_as_the_original(case: Case) -> None:
    import pickle

    environment = pickle.loads(pickle.dumps(case.make(seat="random")))
    assert play(environment, seed=8) == play(case.make(seat="random"), seed=8)
    environment.reset(seed=9)
    environment.step(int(np.flatnonzero(environment.action_masks())[0]))
    copy = pickle.loads(pickle.dumps(environment))
    rng = np.random.default_rng(3)
    while True:
        action = int(rng.choice(np.flatnonzero(environment.action_masks())))
        first, second = environment.step(action), copy.step(action)
        assert np.array_equal(first[0]["observation"], second[0]["observation"]) and first[1:4] == second[1:4]
        if first[2] or first[3]:
            break
    assert copy.reset()[0]["observation"].tolist() == environment.reset()[0]["observation"].tolist()  # the next unseeded deal
