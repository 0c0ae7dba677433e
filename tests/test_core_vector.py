"""core.vector.GameVectorEnv over every game's batch: spaces, autoreset, infos, seeds, pickling, and
every env against its Game (Ordonnance's own VectorEnv has tests/test_vector_env.py besides)."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import rl, shinobi

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from ordonnance.core.vector import GameVectorEnv  # noqa: E402
from ordonnance.shinobi import rl as shinobi_rl  # noqa: E402

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
ENVS = 6 if JIT else 2
STEPS = 220 if JIT else 15  # a game of Shinobi in self-play is 150-200 actions


class GameKind:
    """What the tests need of one game: its VectorEnv, encoder, mask, rewards and rules."""

    def __init__(self, name: str, env: Any, encode: Any, mask: Any, rewards: Any, rules: Any) -> None:
        self.name, self.env, self.encode, self.mask, self.rewards, self.rules = name, env, encode, mask, rewards, rules

    def __repr__(self) -> str:
        return self.name


def _ordonnance_rewards(game: od.Game) -> np.ndarray:
    rewards = np.zeros(game.rules.players, np.float32)
    if game.winner is not None:
        rewards[:] = -1.0
        rewards[game.winner] = 1.0
    return rewards


def _shinobi_rewards(game: shinobi.Game) -> np.ndarray:
    n, winners = game.players, game.winners
    rewards = np.full(n, -1.0 / (n - len(winners)) if len(winners) < n else 0.0, np.float32)
    rewards[list(winners)] = 1.0 / len(winners)
    return rewards


KINDS = [
    GameKind("ordonnance", rl.VectorEnv, rl.encode_view, rl.action_mask, _ordonnance_rewards, od.Rules(players=3)),
    GameKind("shinobi-3", shinobi_rl.VectorEnv, shinobi_rl.encode_view, shinobi_rl.action_mask, _shinobi_rewards,
             shinobi.Rules(players=3, attack="optional")),  # fmt: skip
    GameKind("shinobi-4", shinobi_rl.VectorEnv, shinobi_rl.encode_view, shinobi_rl.action_mask, _shinobi_rewards,
             shinobi.Rules(players=4)),  # fmt: skip
    GameKind("shinobi-5", shinobi_rl.VectorEnv, shinobi_rl.encode_view, shinobi_rl.action_mask, _shinobi_rewards,
             shinobi.Rules(players=5)),  # fmt: skip
]


def _random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("kind", KINDS, ids=repr)
@pytest.mark.parametrize("opponent, observation", [("random", "box"), ("greedy", "dict"), ("self", "box")])
def test_every_env_agrees_with_its_game(kind: GameKind, opponent: str, observation: str) -> None:
    env = kind.env(ENVS, kind.rules, opponent=opponent, seat="random", observation=observation)
    assert isinstance(env, GameVectorEnv) and env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=9)
    assert info == {} and env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    ended_before = np.zeros(ENVS, bool)
    episodes = 0
    for _ in range(STEPS):
        masks = env.action_masks().copy()
        vectors = obs["observation"] if observation == "dict" else obs
        for i in range(ENVS):
            game = env.game(i)
            seat = game.current_player if opponent == "self" else int(env.batch.observers[i])
            assert np.array_equal(vectors[i], kind.encode(game.view(seat)))
            expected = kind.mask(game.view(game.current_player)).astype(bool)
            assert np.array_equal(masks[i], expected)
            if observation == "dict":
                assert np.array_equal(obs["action_mask"][i], expected.astype(np.int8))
            if opponent != "self" and not game.is_over:
                assert game.current_player == seat  # the kernel bots have played up to the learner
        actors = [env.game(i).current_player for i in range(ENVS)]
        obs, rewards, terminations, truncations, infos = env.step(_random_legal(masks, rng))
        assert env.observation_space.contains(obs) and rewards.dtype == np.float32
        assert not truncations.any() and not infos["illegal_action"].any()
        for i in range(ENVS):
            game = env.game(i)
            if ended_before[i]:  # next-step autoreset: a fresh episode, the action ignored
                assert not terminations[i] and rewards[i] == 0
                continue
            assert terminations[i] == game.is_over
            seat = actors[i] if opponent == "self" else int(env.batch.observers[i])
            expected_reward = 0.0
            if game.is_over:
                episodes += 1
                assert infos["_winner"][i] and infos["winner"][i] == (-1 if game.winner is None else game.winner)
                assert infos["scores"][i].tolist() == list(game.scores)
                expected_reward = kind.rewards(game)[seat]
            elif "_winner" in infos:
                assert not infos["_winner"][i] and infos["winner"][i] == -1 and not infos["scores"][i].any()
            assert rewards[i] == np.float32(expected_reward)
        ended_before = terminations.copy()
    assert episodes >= (ENVS if JIT else 0)  # whole episodes, not only openings


@pytest.mark.parametrize("kind", KINDS[:2], ids=repr)
def test_an_illegal_action_ends_the_episode_and_the_next_step_resets(kind: GameKind) -> None:
    env = kind.env(3, kind.rules, opponent="greedy", illegal_reward=-2.5)
    env.reset(seed=4)
    masks = env.action_masks()
    actions = np.argmax(masks, axis=1)
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    before = env.game(1)
    _, rewards, terminations, _, infos = env.step(actions)
    assert infos["illegal_action"].tolist() == [False, True, False]
    assert terminations[1] and rewards[1] == -2.5
    assert env.game(1) == before  # refused: nothing was played
    seeds = env.batch.deal_seeds.copy()
    _, rewards, terminations, _, _ = env.step(np.argmax(env.action_masks(), axis=1))
    assert rewards[1] == 0 and not terminations[1]
    assert env.batch.deal_seeds[1] != seeds[1] and env.batch.deal_seeds[0] == seeds[0]


@pytest.mark.parametrize("kind", KINDS[1:3], ids=repr)
def test_seeds_reproduce_and_follow_the_batch_streams(kind: GameKind) -> None:
    from ordonnance.core.seeds import game_seeds

    def run(seed: int | None) -> list[object]:
        env = kind.env(4, kind.rules, opponent="random", seat="random")
        out: list[object] = list(env.reset(seed=seed))
        rng = np.random.default_rng(0)
        for _ in range(30):
            out.extend(x.copy() if isinstance(x, np.ndarray) else x for x in env.step(_random_legal(env.action_masks(), rng)))
        return out

    assert data_equivalence(run(12), run(12))
    assert not data_equivalence(run(12), run(13))
    env = kind.env(4, kind.rules, seed=1)
    env.reset(seed=21)
    assert [env.game(i).seed for i in range(4)] == game_seeds(21, 4).tolist()
    env.reset()  # a fresh seed drawn from the last one
    assert [env.game(i).seed for i in range(4)] != game_seeds(21, 4).tolist()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shinobi_spaces_hold_every_observation(players: int) -> None:
    rules = shinobi.Rules(players=players)
    env = shinobi_rl.VectorEnv(5, rules, opponent="self", observation="dict")
    size = shinobi_rl.observation_size(players)
    assert env.single_action_space == gymnasium.spaces.Discrete(shinobi.ACTION_COUNT)
    assert env.action_space.shape == (5,) and env.observation_space["observation"].shape == (5, size)
    low, high = shinobi_rl.observation_bounds(rules)
    assert np.array_equal(env.single_observation_space["observation"].high, high)
    obs, _ = env.reset(seed=1)
    env.action_space.seed(0)
    for _ in range(40):  # gymnasium's own samples: mostly illegal actions, each ends its episode cleanly
        assert env.observation_space.contains(obs)
        assert all(env.single_observation_space.contains({k: v[i] for k, v in obs.items()}) for i in range(5))
        obs, _, terminations, truncations, infos = env.step(env.action_space.sample())
        assert (terminations == infos["illegal_action"]).all() and not truncations.any()


def test_shinobi_registered_id_makes_the_vector_env() -> None:
    vector = gymnasium.make_vec("ordonnance/Shinobi-v0", num_envs=3, vectorization_mode="vector_entry_point",
                                opponent="greedy", rules=shinobi.Rules(players=5))  # fmt: skip
    assert isinstance(vector, shinobi_rl.VectorEnv) and vector.num_envs == 3
    obs, _ = vector.reset(seed=2)
    assert obs.shape == (3, shinobi_rl.observation_size(5)) and vector.observation_space.contains(obs)
    assert vector.action_masks().shape == (3, shinobi.ACTION_COUNT)
    assert isinstance(gymnasium.make("ordonnance/Shinobi-v0").unwrapped, shinobi_rl.SingleAgentEnv)


def test_make_vec_finds_shinobi_in_a_fresh_process_by_the_module_id() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make_vec('ordonnance.shinobi.rl:ordonnance/Shinobi-v0', num_envs=2, "
        "vectorization_mode='vector_entry_point')\n"
        "obs, _ = env.reset(seed=1)\n"
        "print(type(env).__module__, type(env).__name__, obs.shape)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600)
    assert out.stdout.split() == ["ordonnance.shinobi.rl", "VectorEnv", "(2,", "70)"]


@pytest.mark.parametrize("observation", ["box", "dict"])
def test_a_shinobi_vector_env_pickles_built_reset_and_mid_episode(observation: str) -> None:
    def steps(env: Any, first: int, count: int) -> list[Any]:
        seen = []
        for step in range(first, first + count):
            masks = env.action_masks()
            pick = np.random.default_rng(step)
            seen.append(copy.deepcopy((masks, *env.step(np.argmax(np.where(masks, pick.random(masks.shape), -1.0), axis=1)))))
        return seen  # copies: the env's arrays are overwritten by its next step

    env = shinobi_rl.VectorEnv(8, opponent="greedy", seat="random", observation=observation)  # type: ignore[arg-type]
    built = pickle.loads(pickle.dumps(env))
    assert data_equivalence(built.reset(seed=2), env.reset(seed=2))
    assert data_equivalence(steps(built, 0, 3), steps(env, 0, 3))
    middle = pickle.loads(pickle.dumps(env))
    played = steps(env, 3, 150)
    assert any(step[3].any() for step in played)  # episodes ended (and restarted) in those steps
    assert data_equivalence(steps(middle, 3, 150), played)
    observations, _, _, truncations, infos = middle.step(np.argmax(middle.action_masks(), axis=1))
    vector = observations["observation"] if observation == "dict" else observations
    assert not vector.flags.writeable and not truncations.flags.writeable and not infos["_illegal_action"].flags.writeable


def test_bad_arguments_are_refused_with_the_value() -> None:
    with pytest.raises(od.InvalidArgumentError, match="'uint8'"):
        shinobi_rl.VectorEnv(2, observation="uint8")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="got 0"):
        shinobi_rl.VectorEnv(0)
    with pytest.raises(od.OrdonnanceTypeError, match="Rules"):
        shinobi_rl.VectorEnv(2, od.Rules())  # type: ignore[arg-type]
    with pytest.raises(od.InvalidSeatError, match="got 7"):
        shinobi_rl.VectorEnv(2, seat=7)
    env = shinobi_rl.VectorEnv(2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(od.OrdonnanceTypeError, match=r"\[1, 2\]"):
        env.reset(seed=[1, 2])  # type: ignore[arg-type]
    env.reset(seed=1)
    with pytest.raises(od.IllegalActionError, match="400"):
        env.step(np.array([0, 400]))
    assert repr(env).startswith("VectorEnv(2, rules=")


def test_without_gymnasium_a_vector_env_asks_for_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import ordonnance.core.vector as vector

    monkeypatch.setattr(vector, "_IMPORT_ERROR", ImportError("No module named 'gymnasium'", name="gymnasium"))
    with pytest.raises(ImportError, match=r"Vector environments \(ordonnance\.shinobi\.rl\.VectorEnv\) need the optional "
                                          r"extra 'rl' \(gymnasium is not installed\): pip install 'ordonnance\[rl\]'"):
        shinobi_rl.VectorEnv(2)
