"""The PettingZoo AEC environment: masks match the legal actions, episodes replay the engine."""

from __future__ import annotations

import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import pettingzoo as bpz
from ordonnance.errors import IllegalActionError

pytest.importorskip("pettingzoo")


def test_every_legal_action_has_an_index_that_maps_back() -> None:
    game = bp.Game.new(bp.Rules(armies=("Burgundian", "Scottish")), seed=3)
    bot = bp.Random(seed=1)
    while not game.is_over:
        view = game.view(game.current_player)
        mask = bpz.action_mask(view)
        legal = set(game.legal_actions())
        assert {bpz.action_from_index(i, view) for i in np.flatnonzero(mask)} == legal
        for action in legal:
            assert mask[bpz.action_index(action, view)] == 1
        other = game.view(1 - game.current_player)
        assert not bpz.action_mask(other).any()
        obs = bpz.encode_view(view)
        assert obs.shape == (bpz.OBSERVATION_SIZE,) and obs.dtype == np.float32
        assert np.all(obs >= 0) and np.all(obs <= 10)
        game.apply(bot.choose(view))


def test_an_episode_follows_the_engine_and_rewards_the_winner() -> None:
    from ..test_rl import _api_test  # the expected-warnings filter of the Ordonnance env test

    _api_test(bpz.env(), num_cycles=300)
    environment = bpz.env()
    environment.reset(seed=5)
    mirror = bp.Game.new(bp.Rules(), seed=5)
    rng = np.random.default_rng(0)
    rewards: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            rewards[agent] = reward
            environment.step(None)
            continue
        assert agent == f"player_{mirror.current_player}"
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        mirror.apply(bpz.action_from_index(action, mirror.view(mirror.current_player)))
        environment.step(action)
    assert mirror.is_over
    if mirror.winner is None:
        assert rewards == {"player_0": 0.0, "player_1": 0.0}
    else:
        assert rewards[f"player_{mirror.winner}"] == 1.0 and rewards[f"player_{1 - mirror.winner}"] == -1.0


def test_bad_indices_and_render_modes() -> None:
    view = bp.Game.new(bp.Rules(), seed=1).view(0)
    for bad in (-1, bpz.NUM_ACTIONS, True, 98):  # 98: column 0 has no left neighbour
        with pytest.raises(IllegalActionError):
            bpz.action_from_index(bad, view)
    raw = bpz.raw_env(render_mode="svg")
    raw.reset(seed=1)
    assert raw.render().startswith("<svg")
    text = bpz.raw_env(render_mode="ansi")
    text.reset(seed=1)
    assert "player 0 to place" in text.render()
    with pytest.raises(ValueError):
        bpz.raw_env(render_mode="movie")
