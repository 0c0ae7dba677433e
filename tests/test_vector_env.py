"""The Gymnasium vector environment: spaces, autoreset, infos, and every env against its Game."""

from __future__ import annotations

import os

import numpy as np
import pytest

import ordonnance as od
from ordonnance import Rules, rl

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from ordonnance._vector_env import ENV_ID, VectorEnv, register_envs  # noqa: E402
from ordonnance.simulation import game_seeds  # noqa: E402

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
ENVS = 6 if JIT else 2
STEPS = 90  # a four-player game in self-play is about 85 actions


def _random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize(
    "rules, opponent, observation",
    [
        (Rules(), "random", "box"),
        (Rules(players=3, auto_claim=True), "greedy", "uint8"),
        (Rules(players=4, claim_proof="private"), "self", "dict"),
        (Rules(scoring="points", players=3, tie_break="lowest_marker_sum"), "random", "box"),
    ],
)
def test_every_env_agrees_with_its_game(rules: Rules, opponent: str, observation: str) -> None:
    env = VectorEnv(ENVS, rules, opponent=opponent, seat="random", observation=observation)  # type: ignore[arg-type]
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
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
            assert np.array_equal(vectors[i], rl.encode_view(game.view(seat)).astype(vectors.dtype))
            expected = rl.action_mask(game.view(game.current_player)).astype(bool)
            assert np.array_equal(masks[i], expected)
            if observation == "dict":
                assert np.array_equal(obs["action_mask"][i], expected.astype(np.int8))
            if opponent != "self" and not game.is_over:
                assert game.current_player == seat  # the kernel bots have played up to the learner
        actors = [env.game(i).current_player for i in range(ENVS)]
        obs, rewards, terminations, truncations, infos = env.step(_random_legal(masks, rng))
        assert env.observation_space.contains(obs)
        assert not truncations.any() and not infos["illegal_action"].any()
        for i in range(ENVS):
            game = env.game(i)
            if ended_before[i]:  # next-step autoreset: a fresh episode, the action ignored
                assert not terminations[i] and rewards[i] == 0 and game.plays <= rules.players
                continue
            assert terminations[i] == game.is_over
            seat = actors[i] if opponent == "self" else int(env.batch.observers[i])
            expected_reward = 0.0
            if game.is_over:
                episodes += 1
                assert infos["_winner"][i] and infos["winner"][i] == (-1 if game.winner is None else game.winner)
                assert infos["scores"][i].tolist() == list(game.scores)
                if game.winner is not None:
                    expected_reward = 1.0 if game.winner == seat else -1.0
            elif "_winner" in infos:
                assert not infos["_winner"][i] and infos["winner"][i] == -1 and not infos["scores"][i].any()
            assert rewards[i] == expected_reward
        ended_before = terminations.copy()
    assert episodes >= ENVS  # whole episodes, not only openings


def test_an_illegal_action_ends_the_episode_and_the_next_step_resets() -> None:
    env = VectorEnv(3, opponent="greedy", illegal_reward=-2.5)
    env.reset(seed=4)
    masks = env.action_masks()
    actions = np.argmax(masks, axis=1)
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    before = env.game(1)
    _, rewards, terminations, _, infos = env.step(actions)
    assert infos["illegal_action"].tolist() == [False, True, False]
    assert terminations.tolist() == [False, True, False] and rewards[1] == -2.5
    assert env.game(1) == before  # refused: nothing was played
    assert "_winner" in infos and not infos["_winner"].any()  # no game finished
    seeds = env.batch.deal_seeds.copy()
    _, rewards, terminations, _, _ = env.step(np.argmax(env.action_masks(), axis=1))
    assert rewards[1] == 0 and not terminations[1]
    assert env.batch.deal_seeds[1] != seeds[1] and env.batch.deal_seeds[0] == seeds[0]


def test_seeds_reproduce_and_follow_the_batch_streams() -> None:
    def run(seed: int | None) -> list[object]:
        env = VectorEnv(4, Rules(players=3), opponent="random", seat="random")
        out: list[object] = list(env.reset(seed=seed))
        rng = np.random.default_rng(0)
        for _ in range(30):
            out.extend(x.copy() if isinstance(x, np.ndarray) else x for x in env.step(_random_legal(env.action_masks(), rng)))
        return out

    assert data_equivalence(run(12), run(12))
    assert not data_equivalence(run(12), run(13))
    env = VectorEnv(4, seed=1)
    env.reset(seed=21)
    assert [env.game(i).seed for i in range(4)] == game_seeds(21, 4).tolist()
    env.reset()  # a fresh seed from the last one
    assert [env.game(i).seed for i in range(4)] != game_seeds(21, 4).tolist()


def test_spaces_and_samples() -> None:
    env = VectorEnv(5, Rules(players=4), opponent="self", observation="uint8")
    assert env.single_action_space == gymnasium.spaces.Discrete(rl.NUM_ACTIONS)
    assert env.action_space.shape == (5,) and env.observation_space.shape == (5, 830)
    obs, _ = env.reset(seed=1)
    assert obs.dtype == np.uint8 and env.single_observation_space.contains(obs[0])
    # gymnasium's own sampling: mostly illegal actions, each ends its episode cleanly
    env.action_space.seed(0)
    for _ in range(5):
        obs, rewards, terminations, _, infos = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs)
        assert (terminations == infos["illegal_action"]).all()


def test_registered_ids_make_both_environments() -> None:
    register_envs()
    register_envs()  # idempotent
    single = gymnasium.make(ENV_ID, opponent=od.bots.Random(seed=1))
    assert isinstance(single.unwrapped, rl.SingleAgentEnv)
    vector = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", opponent="greedy")
    assert isinstance(vector, VectorEnv) and vector.num_envs == 3
    obs, _ = vector.reset(seed=2)
    assert vector.observation_space.contains(obs)


def test_bad_arguments() -> None:
    with pytest.raises(od.InvalidArgumentError, match="'rgb'"):
        VectorEnv(2, observation="rgb")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="got 0"):
        VectorEnv(0)
    with pytest.raises(od.OrdonnanceTypeError, match="Rules"):
        VectorEnv(2, rules="standard")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="255 cards"):
        VectorEnv(2, Rules(deck=["B"] * 256), observation="uint8")
    env = VectorEnv(2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(od.OrdonnanceTypeError, match=r"\[1, 2\]"):
        env.reset(seed=[1, 2])  # type: ignore[arg-type]
    env.reset(seed=1)
    with pytest.raises(od.IllegalActionError, match="200"):
        env.step(np.array([0, 200]))


def test_importing_rl_offers_and_registers_the_vector_env() -> None:
    import ordonnance.rl as rl

    assert rl.VectorEnv is VectorEnv and "VectorEnv" in rl.__all__
    assert ENV_ID in gymnasium.registry
    vec = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", seed=1)
    assert isinstance(vec, rl.VectorEnv)
    obs, _ = vec.reset(seed=2)
    assert obs.shape[0] == 3 and vec.action_masks().shape == (3, rl.NUM_ACTIONS)
    single = gymnasium.make(ENV_ID)
    assert hasattr(single.unwrapped, "action_masks")
