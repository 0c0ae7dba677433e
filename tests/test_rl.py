"""The RL adapters: encoders (NumPy only), the PettingZoo AEC env and the Gymnasium env."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import Claim, Pass, Play, Rules, Territory
from ordonnance.rl import (
    CLAIM_ACTIONS,
    NUM_ACTIONS,
    PASS_ACTION,
    action_from_index,
    action_index,
    action_mask,
    encode_view,
    observation_bounds,
    observation_layout,
)

# Warnings PettingZoo's api_test gives every env with a Dict observation holding an
# action mask; its own classic games are exempted from them by name.
EXPECTED_API_TEST_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _random_games(players: int, games: int) -> Iterator[od.Game]:
    """Positions along random games (every step), for the encoder tests."""
    for seed in range(games):
        game = od.Game.new(Rules(players=players), seed=seed)
        bot = od.bots.Random(seed=seed)
        yield game.clone()
        while not game.is_over:
            game.apply(bot.choose(game.view(game.current_player)))
            yield game.clone()


# --- actions and observations (NumPy only) ---------------------------------------------


def test_action_indices_cover_the_space_one_to_one() -> None:
    actions = [action_from_index(i) for i in range(NUM_ACTIONS)]
    assert len(set(actions)) == NUM_ACTIONS == 161
    assert [action_index(a) for a in actions] == list(range(NUM_ACTIONS))
    assert action_from_index(CLAIM_ACTIONS + 2) == Claim(Territory.JERUSALEM)
    assert action_from_index(PASS_ACTION) == Pass()
    assert action_from_index(np.int32(0)) == Play("L", Territory.ANTIOCH)
    assert action_from_index(np.array(PASS_ACTION)) == Pass()
    assert action_index(Play("LBSHF", Territory.TRIPOLI)) == CLAIM_ACTIONS - 1
    with pytest.raises(od.IllegalActionError, match="0..160"):
        action_from_index(NUM_ACTIONS)
    with pytest.raises(TypeError):
        action_from_index(1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        action_index("pass")  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_masks_and_observations_along_random_games(players: int) -> None:
    low, high = observation_bounds(Rules(players=players))
    size = sum(length for _, length in observation_layout(players))
    assert low.shape == high.shape == (size,)
    assert size == 74 + 189 * players == {2: 452, 3: 641, 4: 830}[players]
    for game in _random_games(players, 3):
        for seat in range(players):
            view = game.view(seat)
            mask = action_mask(view)
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            legal = game.legal_actions() if seat == game.current_player else []
            assert sorted(np.flatnonzero(mask)) == sorted(action_index(a) for a in legal)
            vector = encode_view(view)
            assert vector.dtype == np.float32 and vector.shape == (size,)
            assert (low <= vector).all() and (vector <= high).all()
            fields = _fields(vector, players)
            assert fields["hand"].sum() == len(game.hand(seat))
            assert fields["seat"][seat] == 1 and fields["seat"].sum() == 1
            assert fields["deck_size"][0] == game.deck_size
            assert fields["is_over"][0] == game.is_over
            assert fields["to_act"].sum() == (0 if game.is_over else 1)


def _fields(vector: np.ndarray, players: int) -> dict[str, np.ndarray]:
    out, start = {}, 0
    for name, length in observation_layout(players):
        out[name] = vector[start : start + length]
        start += length
    return out


def test_observation_is_relative_to_the_observer() -> None:
    game = od.Game.new(Rules(players=3), seed=4)
    played = game.legal_actions()[0]
    assert isinstance(played, Play)
    game.apply(played)  # seat 0 played; seat 1 is to act
    for seat in range(3):
        fields = _fields(encode_view(game.view(seat)), 3)
        armies = fields["armies"].reshape(5, 3, 4, 5)
        relative = (0 - seat) % 3  # where seat 0 sits from this observer
        expected = [(played.card.mask >> s) & 1 for s in range(5)]
        assert armies[played.territory, relative, 0].tolist() == expected
        assert armies.sum() == len(played.card)
        assert fields["to_act"].tolist() == [1.0 if r == (1 - seat) % 3 else 0.0 for r in range(3)]


def test_observation_depends_only_on_what_the_seat_may_see() -> None:
    deck = list(od.standard_deck())
    other_deck = deck[:]
    j = next(i for i in range(20, len(deck)) if deck[i] != deck[1])
    other_deck[1], other_deck[j] = other_deck[j], other_deck[1]  # player 1's hand differs
    a, b = od.Game.new(Rules(), deck=deck), od.Game.new(Rules(), deck=other_deck)
    assert a.hand(1) != b.hand(1)
    assert np.array_equal(encode_view(a.view(0)), encode_view(b.view(0)))
    assert np.array_equal(action_mask(a.view(0)), action_mask(b.view(0)))
    assert not np.array_equal(encode_view(a.view(1)), encode_view(b.view(1)))


def test_module_imports_without_the_extra(tmp_path: Path) -> None:
    for name in ("pettingzoo", "gymnasium"):
        package = tmp_path / name
        package.mkdir()
        blocked = f"raise ModuleNotFoundError('{name} is blocked here', name='{name}')\n"
        (package / "__init__.py").write_text(blocked)
    script = (
        "import ordonnance.rl as rl\n"
        "from ordonnance import Pass\n"
        "assert rl.action_index(Pass()) == 160\n"
        "for build in (rl.env, rl.SingleAgentEnv, rl.OrdonnanceEnv):\n"
        "    try:\n"
        "        build()\n"
        "    except ImportError as error:\n"
        "        print(error)\n"
    )
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False, env=environ
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3
    assert all("pip install 'ordonnance[rl]'" in line for line in lines)


# --- PettingZoo ------------------------------------------------------------------------


@pytest.fixture
def pettingzoo() -> Any:
    return pytest.importorskip("pettingzoo")


def _api_test(environment: Any, num_cycles: int) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(environment, num_cycles=num_cycles)
    assert {str(w.message) for w in caught} <= EXPECTED_API_TEST_WARNINGS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(pettingzoo: Any, players: int) -> None:
    from ordonnance.rl import env

    _api_test(env(Rules(players=players)), num_cycles=1000)


def test_pettingzoo_api_test_with_variants(pettingzoo: Any) -> None:
    from ordonnance.rl import env

    for rules in (Rules(scoring="points"), Rules(players=3, auto_claim=True), Rules(deck=["LBSHF"] * 40)):
        _api_test(env(rules), num_cycles=200)


def test_pettingzoo_seed_test(pettingzoo: Any) -> None:
    from pettingzoo.test import seed_test

    from ordonnance.rl import env

    seed_test(env, num_cycles=100)
    seed_test(lambda: env(Rules(players=4)), num_cycles=50)


def _play_out(environment: Any, seed: int) -> dict[str, float]:
    """Random legal actions to the end; each agent's final cumulative reward."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _info = environment.last()
        if terminated or truncated:
            final[agent] = reward
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(legal)))
    return final


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_rewards_follow_the_winner(pettingzoo: Any, players: int) -> None:
    from ordonnance.rl import env

    for seed in range(5):
        environment = env(Rules(players=players))
        final = _play_out(environment, seed)
        game = environment.unwrapped.game
        assert game.is_over and set(final) == set(environment.possible_agents)
        for seat, agent in enumerate(environment.possible_agents):
            expected = 0.0 if game.winner is None else (1.0 if seat == game.winner else -1.0)
            assert final[agent] == expected


def test_pettingzoo_reset_deals_like_game_new_and_follows_the_turn(pettingzoo: Any) -> None:
    from ordonnance.rl import env

    environment = env(Rules(players=3))
    environment.reset(seed=99)
    raw = environment.unwrapped
    assert raw.game == od.Game.new(Rules(players=3), seed=99)
    steps = 0
    while not raw.game.is_over:
        assert environment.agent_selection == f"player_{raw.game.current_player}"
        observation = environment.observe(environment.agent_selection)
        seat = raw.game.current_player
        assert np.array_equal(observation["observation"], encode_view(raw.game.view(seat)))
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps >= 3 * 20 // 2
    first = raw.game
    environment.reset()
    environment.reset(seed=99)
    assert raw.game == od.Game.new(Rules(players=3), seed=99) and raw.game is not first


def test_pettingzoo_illegal_action_raises_and_changes_nothing(pettingzoo: Any) -> None:
    from ordonnance.rl import env

    environment = env()
    environment.reset(seed=1)
    before = environment.unwrapped.game.clone()
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(od.IllegalActionError):
        environment.step(illegal)
    with pytest.raises(od.IllegalActionError):
        environment.step(None)
    assert environment.unwrapped.game == before


def test_pettingzoo_max_steps_truncates(pettingzoo: Any) -> None:
    from ordonnance.rl import env

    environment = env(max_steps=5)
    environment.reset(seed=2)
    for _ in range(5):
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(np.flatnonzero(mask)[0]))
    assert all(environment.truncations.values()) and not any(environment.terminations.values())
    with pytest.raises(ValueError, match="max_steps"):
        env(max_steps=0)


def test_pettingzoo_render_modes(pettingzoo: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from ordonnance.rl import env

    text = env(render_mode="ansi")
    text.reset(seed=3)
    assert text.render() == str(text.unwrapped.game)
    picture = env(render_mode="svg")
    picture.reset(seed=3)
    ET.fromstring(picture.render())
    human = env(render_mode="human")
    human.reset(seed=3)
    human.step(int(np.flatnonzero(human.observe(human.agent_selection)["action_mask"])[0]))
    assert "to act" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")


# --- Gymnasium -------------------------------------------------------------------------


@pytest.fixture
def gymnasium() -> Any:
    pytest.importorskip("pettingzoo")
    return pytest.importorskip("gymnasium")


def _check(gym: Any, **kwargs: Any) -> None:
    """gymnasium's check_env on an env made through a spec, so render modes are checked too."""
    from gymnasium.utils.env_checker import check_env

    from ordonnance.rl import SingleAgentEnv

    name = "OrdonnanceTestSingleAgent-v0"
    gym.register(id=name, entry_point=SingleAgentEnv, disable_env_checker=True, kwargs=kwargs)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(gym.make(name).unwrapped)
        assert [str(w.message) for w in caught] == []
    finally:
        del gym.registry[name]


def test_gymnasium_check_env(gymnasium: Any) -> None:
    _check(gymnasium)
    _check(gymnasium, seat=1, opponent=od.bots.Random(seed=5))
    two_bots = [od.bots.Greedy(seed=1), od.bots.Random(seed=2)]
    _check(gymnasium, seat=2, rules=Rules(players=3), opponent=two_bots)


def test_gymnasium_plain_check_env(gymnasium: Any) -> None:
    from gymnasium.utils.env_checker import check_env

    from ordonnance.rl import SingleAgentEnv

    check_env(SingleAgentEnv(opponent=od.bots.Greedy(seed=0), seat=0), skip_render_check=True)


@pytest.mark.parametrize("seat", [0, 1])
def test_gymnasium_episodes_end_with_the_outcome(gymnasium: Any, seat: int) -> None:
    from ordonnance.rl import SingleAgentEnv

    environment = SingleAgentEnv(opponent=od.bots.Greedy(seed=0), seat=seat)
    rng = np.random.default_rng(seat)
    for seed in range(5):
        observation, info = environment.reset(seed=seed)
        assert info.keys() == {"action_mask"}
        terminated = truncated = False
        reward = 0.0
        while not (terminated or truncated):
            assert environment.game is not None and environment.game.current_player == seat
            legal = np.flatnonzero(observation["action_mask"])
            assert np.array_equal(environment.action_masks(), observation["action_mask"].astype(bool))
            observation, reward, terminated, truncated, info = environment.step(int(rng.choice(legal)))
            assert info["illegal_action"] is False
            assert np.array_equal(info["action_mask"], observation["action_mask"])
        game = environment.game
        assert terminated and not truncated and game.is_over
        assert reward == (0.0 if game.winner is None else 1.0 if game.winner == seat else -1.0)
        assert info["winner"] == (-1 if game.winner is None else game.winner)
        assert info["scores"] == list(game.scores)
        assert not environment.action_masks().any()
        with pytest.raises(gymnasium.error.ResetNeeded):
            environment.step(0)


def test_gymnasium_illegal_action_ends_the_episode(gymnasium: Any) -> None:
    from ordonnance.rl import SingleAgentEnv

    environment = SingleAgentEnv(illegal_reward=-5.0)
    observation, _ = environment.reset(seed=4)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = environment.game
    after, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    assert environment.game == before  # refused: nothing changed
    assert np.array_equal(after["observation"], observation["observation"])


def test_gymnasium_seeded_resets_replay_exactly(gymnasium: Any) -> None:
    from ordonnance.rl import SingleAgentEnv

    bot = od.bots.Random(seed=8)
    environment = SingleAgentEnv(opponent=bot, seat=1)

    def episode() -> list[np.ndarray]:
        observation, _ = environment.reset(seed=21)
        seen = [observation["observation"]]
        done = False
        while not done:
            action = int(np.flatnonzero(observation["action_mask"])[0])
            observation, _, terminated, truncated, _ = environment.step(action)
            seen.append(observation["observation"])
            done = terminated or truncated
        return seen

    first, second = episode(), episode()
    assert len(first) == len(second) and all(np.array_equal(a, b) for a, b in zip(first, second))
    assert environment.game is not None and environment.game.seed == 21


def test_gymnasium_arguments_are_checked(gymnasium: Any) -> None:
    from ordonnance.rl import SingleAgentEnv

    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv(seat=2)
    with pytest.raises(ValueError, match="one per other seat"):
        SingleAgentEnv(opponent=[od.bots.Random(seed=0)], rules=Rules(players=3))
    with pytest.raises(TypeError, match="choose"):
        SingleAgentEnv(opponent=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'random' or 'greedy'"):
        SingleAgentEnv(opponent="montecarlo")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="observation"):
        SingleAgentEnv(observation="flat")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat"):
        SingleAgentEnv(seat="first")  # type: ignore[arg-type]
    with pytest.raises(gymnasium.error.ResetNeeded):
        SingleAgentEnv().action_masks()
    shared = od.bots.Random(seed=0)
    environment = SingleAgentEnv(opponent=shared, rules=Rules(players=4), seat=3)
    environment.reset(seed=0)
    assert len({id(b) for b in environment.opponents.values()}) == 1
    with pytest.raises(gymnasium.error.ResetNeeded):
        SingleAgentEnv().step(0)


def test_gymnasium_render_svg_is_the_learners_view(gymnasium: Any) -> None:
    from ordonnance import render
    from ordonnance.rl import SingleAgentEnv

    environment = SingleAgentEnv(seat=1, render_mode="svg")
    environment.reset(seed=6)
    assert environment.game is not None
    assert environment.render() == render.svg(environment.game.view(1))


# --- the single env in the kernel ------------------------------------------------------

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
EPISODES = 6 if JIT else 2


class _ViewRandom(od.bots.Random):
    """bots.Random asked through views (the kernel plays only the built-in types themselves)."""


class _ViewGreedy(od.bots.Greedy):
    """bots.Greedy asked through views."""


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(
    "rules, seat",
    [
        (Rules(), 0),
        (Rules(players=3, auto_claim=True), "random"),
        (Rules(players=4, claim_proof="private"), 2),
        (Rules(scoring="points", players=3, tie_break="lowest_marker_sum"), "random"),
    ],
)
def test_single_env_follows_its_game_and_view_played_bots(gymnasium: Any, rules: Rules, seat: Any) -> None:
    """Kernel-played bots and the same bots asked through views give the same episodes,
    and every observation and mask is encode_view's and action_mask's of the game."""
    from ordonnance.rl import SingleAgentEnv

    n = rules.players
    kernel_bots = [od.bots.Greedy(seed=1), od.bots.Random(seed=2), od.bots.Random(seed=2)][: n - 1]
    view_bots = [_ViewGreedy(seed=1), _ViewRandom(seed=2), _ViewRandom(seed=2)][: n - 1]
    fast = SingleAgentEnv(opponent=kernel_bots, seat=seat, rules=rules, observation="box")
    slow = SingleAgentEnv(opponent=view_bots, seat=seat, rules=rules, observation="box")
    rng = np.random.default_rng(7)
    for episode in range(EPISODES):
        observation, info = fast.reset(seed=100 + episode)
        other, _ = slow.reset(seed=100 + episode)
        assert fast.seat == slow.seat and (seat == "random" or fast.seat == seat)
        done = False
        while not done:
            game = fast.game
            assert game is not None and game == slow.game and game.current_player == fast.seat
            view = game.view(fast.seat)
            assert np.array_equal(observation, encode_view(view)) and np.array_equal(observation, other)
            assert np.array_equal(fast.action_masks(), action_mask(view).astype(bool))
            assert np.array_equal(info["action_mask"], action_mask(view))
            action = _random_legal(fast.action_masks(), rng)
            observation, reward, terminated, truncated, info = fast.step(action)
            other, other_reward, *_ = slow.step(action)
            assert reward == other_reward and not truncated
            done = terminated
        game = fast.game
        assert game is not None and game.is_over and game == slow.game
        assert np.array_equal(observation, encode_view(game.view(fast.seat)))
        assert reward == (0.0 if game.winner is None else 1.0 if game.winner == fast.seat else -1.0)


def test_single_env_plays_as_the_vector_env(gymnasium: Any) -> None:
    """Same deal seed, same actions: the single env and VectorEnv agree (kernel bots, random seat)."""
    from ordonnance.rl import SingleAgentEnv, VectorEnv

    rules = Rules(players=3)
    vector = VectorEnv(1, rules, opponent="greedy", seat="random")
    single = SingleAgentEnv(opponent="greedy", seat="random", rules=rules, observation="box")
    batch_obs, _ = vector.reset(seed=5)
    rng = np.random.default_rng(3)
    for _ in range(EPISODES):
        observation, _ = single.reset(seed=int(vector.batch.deal_seeds[0]))
        assert single.seat == int(vector.batch.observers[0])
        terminated = False
        while not terminated:
            assert np.array_equal(observation, batch_obs[0])
            assert np.array_equal(single.action_masks(), vector.action_masks()[0])
            action = _random_legal(single.action_masks(), rng)
            observation, reward, terminated, _, _ = single.step(action)
            batch_obs, rewards, ended, _, _ = vector.step(np.array([action]))
            assert reward == rewards[0] and terminated == ended[0]
        batch_obs, *_ = vector.step(np.array([0]))  # next-step autoreset


def test_single_env_box_check_env_and_gymnasium_make(gymnasium: Any) -> None:
    from gymnasium.utils.env_checker import check_env

    from ordonnance.rl import SingleAgentEnv

    _check(gymnasium, observation="box")
    _check(gymnasium, observation="box", seat="random", opponent="random", rules=Rules(players=4))
    check_env(SingleAgentEnv(opponent="random", observation="box"), skip_render_check=True)
    made = gymnasium.make("ordonnance/Ordonnance-v0", observation="box", opponent="random")
    observation, info = made.reset(seed=2)
    assert observation.shape == (452,) and observation.dtype == np.float32
    masks = made.get_wrapper_attr("action_masks")  # what sb3-contrib reads through wrappers
    assert np.array_equal(masks(), info["action_mask"].astype(bool))
    observation, _, _, _, info = made.step(int(np.flatnonzero(masks())[0]))
    assert np.array_equal(masks(), info["action_mask"].astype(bool))
    assert np.array_equal(observation, encode_view(made.unwrapped.game.view(0)))


_MAKE_WITHOUT_IMPORT = """
import sys
import numpy as np
import gymnasium
made = gymnasium.make("ordonnance.rl:ordonnance/Ordonnance-v0", opponent="random", max_episode_steps=5)
observation, info = made.reset(seed=3)
masks = made.get_wrapper_attr("action_masks")
for _ in range(3):  # through OrderEnforcing, PassiveEnvChecker and TimeLimit
    assert np.array_equal(masks(), info["action_mask"].astype(bool))
    assert np.array_equal(masks(), observation["action_mask"].astype(bool))
    assert np.array_equal(made.unwrapped.action_masks(), masks())
    observation, _, _, _, info = made.step(int(np.flatnonzero(masks())[-1]))
vector = gymnasium.make_vec("ordonnance.rl:ordonnance/Ordonnance-v0", num_envs=2, vectorization_mode="vector_entry_point")
vector.reset(seed=1)
assert vector.action_masks().shape == (2, 161)
print(type(made.unwrapped).__name__, type(vector).__name__)
"""


def test_gymnasium_makes_the_env_from_its_module_id_without_an_import(gymnasium: Any) -> None:
    """Gymnasium 1.x has no plugin entry points (removed in 1.0): ``"module:id"`` imports the
    module that registers the id. In a fresh process that never imported ordonnance, and the
    action masks reach the caller through the wrappers ``make`` adds."""
    done = subprocess.run([sys.executable, "-c", _MAKE_WITHOUT_IMPORT], capture_output=True, text=True, timeout=300,
                          check=False, cwd=Path(__file__).parent)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["SingleAgentEnv", "VectorEnv"]


def test_action_masks_through_stable_baselines_vec_envs(gymnasium: Any) -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    kwargs = {"observation": "box", "render_mode": None}  # make_vec_env asks for "rgb_array" otherwise
    vec = make_vec_env("ordonnance/Ordonnance-v0", n_envs=2, seed=1, env_kwargs=kwargs)
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (2, 161) and masks.any(axis=1).all()
    for i in range(2):
        game = vec.envs[i].unwrapped.game
        assert np.array_equal(masks[i], action_mask(game.view(0)).astype(bool))


def test_callable_and_bot_opponents_stay_live(gymnasium: Any) -> None:
    from ordonnance.rl import SingleAgentEnv

    environment = SingleAgentEnv(opponent="random", observation="box")
    seen: list[int] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        game = environment.game
        assert game is not None and game.current_player == 1
        assert np.array_equal(observation, encode_view(game.view(1)))
        assert np.array_equal(mask, action_mask(game.view(1)).astype(bool))
        seen.append(1)
        return int(np.flatnonzero(mask)[-1])

    class Counting:
        def __init__(self) -> None:
            self.calls = 0

        def choose(self, view: od.PlayerView) -> od.Action:
            self.calls += 1
            return view.legal_actions[0]

    environment.set_opponent(policy)
    assert environment.opponents[1] == "random"  # from the next episode on
    rng = np.random.default_rng(0)
    bot = Counting()
    for opponent in (policy, bot, policy):
        environment.set_opponent(opponent)
        _, info = environment.reset(seed=4)
        assert environment.opponents[1] is opponent
        terminated = False
        while not terminated:
            _, _, terminated, _, info = environment.step(_random_legal(info["action_mask"], rng))
    assert len(seen) > 20 and bot.calls > 10  # the very objects given were asked, never copies


def test_failing_opponents_are_named(gymnasium: Any) -> None:
    from ordonnance.rl import SingleAgentEnv

    def illegal(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(~mask)[0])

    def broken(observation: np.ndarray, mask: np.ndarray) -> int:
        raise ZeroDivisionError("no policy yet")

    with pytest.raises(od.BotError, match=r"seat 0.*deal seed 3.*not legal"):
        SingleAgentEnv(opponent=illegal, seat=1).reset(seed=3)
    with pytest.raises(od.BotError, match="ZeroDivisionError: no policy yet"):
        SingleAgentEnv(opponent=broken, seat=1).reset(seed=3)


def test_random_seat_changes_with_the_deal(gymnasium: Any) -> None:
    from ordonnance.rl import SingleAgentEnv

    environment = SingleAgentEnv(opponent="random", seat="random", rules=Rules(players=3), observation="box")
    seats = set()
    for seed in range(30):
        observation, _ = environment.reset(seed=seed)
        seats.add(environment.seat)
        assert _fields(observation, 3)["seat"].tolist() == [float(p == environment.seat) for p in range(3)]
        assert environment.game is not None and environment.game.current_player == environment.seat
        assert set(environment.opponents) == {0, 1, 2} - {environment.seat}
    assert seats == {0, 1, 2}


def _longest_game_policy(game: od.Game, rng: np.random.Generator) -> od.Action:
    """Passes whenever it may, else claims, else a random play: games as long as they get."""
    legal = game.legal_actions()
    for kind in (Pass, Claim):
        chosen = [a for a in legal if isinstance(a, kind)]
        if chosen:
            return chosen[0]
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_max_decisions_bounds_every_game(players: int) -> None:
    from ordonnance import _batch_kernel
    from ordonnance.rl import MAX_DECISIONS

    assert MAX_DECISIONS == 429 <= _batch_kernel.HISTORY
    bound = 20 * players + 5 + players * (20 * players + 6)
    rng = np.random.default_rng(players)
    longest = 0
    variants = [Rules(players=players), Rules(players=players, claim_proof="private"), Rules(players=players, deck=["LBSHF"] * (20 * players + 20))]
    for rules in variants:
        for seed in range(12 if JIT else 4):
            game = od.Game.new(rules, seed=seed)
            plays = claims = passes = run = longest_run = 0
            while not game.is_over:
                action = _longest_game_policy(game, rng)
                game.apply(action)
                if isinstance(action, Pass):
                    passes += 1
                    run += 1
                    longest_run = max(longest_run, run)
                else:
                    plays += isinstance(action, Play)
                    claims += isinstance(action, Claim)
                    run = 0
            # the three facts the bound adds up
            assert plays <= 20 * players and claims <= 5 and longest_run <= players
            longest = max(longest, plays + claims + passes)
    assert longest <= bound <= MAX_DECISIONS


def test_pettingzoo_box_observations_and_state(pettingzoo: Any) -> None:
    from ordonnance.rl import env

    _api_test(env(Rules(players=3), observation="box"), num_cycles=300)
    environment = env(Rules(players=3), observation="box")
    environment.reset(seed=5)
    raw = environment.unwrapped
    rng = np.random.default_rng(5)
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, info = environment.last()
        game = raw.game
        seat = raw.possible_agents.index(agent)
        assert np.array_equal(observation, encode_view(game.view(seat)))
        assert np.array_equal(info["action_mask"], action_mask(game.view(seat)))
        state = raw.state()
        assert raw.state_space.contains(state)
        assert np.array_equal(state, np.concatenate([encode_view(game.view(p)) for p in range(3)]))
        environment.step(None if terminated or truncated else _random_legal(info["action_mask"], rng))
    assert raw.game.is_over


EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_maskable_ppo.py"


def test_training_example_parses() -> None:
    compile(EXAMPLE.read_text(), str(EXAMPLE), "exec")


@pytest.mark.parametrize("game", ["ordonnance", "shinobi", "black-prince"])
def test_training_example_runs_a_tiny_budget(gymnasium: Any, game: str) -> None:
    pytest.importorskip("sb3_contrib")
    if not JIT:
        pytest.skip("the example trains on the kernel: too slow without the JIT")
    tiny = ["--game", game, "--random-steps", "1024", "--greedy-steps", "1024", "--envs", "8", "--eval-episodes", "16"]
    done = subprocess.run([sys.executable, str(EXAMPLE), *tiny], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 5 and "vs Greedy" in lines[1]
    assert lines[2].startswith("untrained") and lines[-1].startswith("+1,024 vs greedy")
    shares = [float(x.rstrip("%")) for x in lines[-1].split()[-6:]]
    assert abs(sum(shares[:3]) - 100) < 0.2 and abs(sum(shares[3:]) - 100) < 0.2
