"""The PettingZoo AEC environment: the official API test, masks, seeding, rewards, no leaks."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from ordonnance.errors import IllegalActionError
from ordonnance.shinobi import Game, Rules
from ordonnance.shinobi.conformance import redeal_hidden
from ordonnance.shinobi.rl import action_mask, encode_view, observation_size

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from ordonnance.shinobi.rl import env, raw_env  # noqa: E402


from ..test_rl import EXPECTED_API_TEST_WARNINGS  # noqa: E402


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_pettingzoo_api_test_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(Rules(players=players)), num_cycles=200)
    assert {str(w.message) for w in caught} <= EXPECTED_API_TEST_WARNINGS


def test_masked_random_play_finishes_with_zero_sum_rewards_and_the_game_of_the_seed() -> None:
    game_env = env(Rules(players=4))
    game_env.reset(seed=42)
    total = {agent: 0.0 for agent in game_env.possible_agents}
    rng = np.random.default_rng(0)
    for agent in game_env.agent_iter():
        observation, reward, terminated, truncated, _ = game_env.last()
        total[agent] += reward
        if terminated or truncated:
            game_env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() == len(game_env.unwrapped.game.legal_actions())
        game_env.step(int(rng.choice(np.flatnonzero(mask))))
    game = game_env.unwrapped.game
    assert game.is_over and abs(sum(total.values())) < 1e-9
    assert all((total[f"player_{s}"] > 0) == (s in game.winners) for s in range(4))
    replay = Game.new(Rules(players=4), seed=42)
    for action in game.history:
        replay.apply(action)
    assert replay == game


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game_env = raw_env(Rules(players=3))
    game_env.reset(seed=1)
    before = game_env.game.clone()
    illegal = int(np.flatnonzero(game_env.observe("player_0")["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        game_env.step(illegal)
    assert game_env.game == before


def test_observations_hold_only_what_the_seat_may_see() -> None:
    game = Game.new(Rules(players=5), seed=3)
    rng = random.Random(3)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    for seat in range(5):
        vector, mask = encode_view(game.view(seat)), action_mask(game.view(seat))
        assert vector.shape == (observation_size(5),)
        other = redeal_hidden(game, seat, rng)
        assert np.array_equal(encode_view(other.view(seat)), vector)
        assert np.array_equal(action_mask(other.view(seat)), mask)
