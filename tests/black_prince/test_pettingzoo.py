"""The PettingZoo AEC environment: masks match the legal actions, episodes replay the engine."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import pettingzoo as bpz
from ordonnance.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidSeatError,
    InvalidSeedError,
    OrdonnanceTypeError,
)

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


def _environments() -> list[tuple[str, Any]]:
    """Every game's PettingZoo environment built on ordonnance.core.aec, raw and wrapped."""
    from ordonnance.shinobi import rl as shinobi_rl

    return [("black_prince", bpz.raw_env), ("black_prince wrapped", bpz.env),
            ("shinobi", shinobi_rl.raw_env), ("shinobi wrapped", shinobi_rl.env)]  # fmt: skip


@pytest.mark.parametrize("name, make", _environments(), ids=[name for name, _ in _environments()])
def test_every_games_environment_answers_bad_input_with_the_library_error(name: str, make: Any) -> None:
    environment = make()
    environment.reset(seed=np.uint64(3))
    for agent in ("nobody", None, 0, np.str_("player_9"), ["player_0"]):
        for method in (environment.observe, environment.action_space, environment.observation_space):
            with pytest.raises(InvalidSeatError, match=re.escape(repr(agent)) if agent is not None else "None"):
                method(agent)
    assert environment.observe(np.str_("player_1"))["action_mask"].shape == (environment.action_space("player_1").n,)
    for seed in (-1, 2**64, np.int64(-1)):
        with pytest.raises(InvalidSeedError, match=str(int(seed))):
            environment.reset(seed=seed)
    for seed in ("1", 1.5, True):
        with pytest.raises(OrdonnanceTypeError):
            environment.reset(seed=seed)
    with pytest.raises(OrdonnanceTypeError, match="options"):
        environment.reset(seed=1, options=5)
    environment.reset(seed=1, options={})
    before = environment.unwrapped.game.to_json()
    for action in (10**5000, -1, "0", 1.0, True, np.int64(10**6)):
        with pytest.raises(IllegalActionError) as caught:
            environment.step(action)
        assert len(str(caught.value)) < 300
    assert environment.unwrapped.game.to_json() == before  # nothing changed
    with pytest.raises(OrdonnanceTypeError, match="max_steps"):
        make(max_steps=1.5)
    with pytest.raises(InvalidArgumentError, match="max_steps"):
        make(max_steps=-(10**5000))
    assert type(make(render_mode=np.str_("ansi")).unwrapped.render_mode) is str


def test_a_finished_agent_may_only_pass_none() -> None:
    environment = bpz.raw_env(max_steps=1)
    environment.reset(seed=1)
    environment.step(int(np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])[0]))
    assert environment.truncations[environment.agent_selection]
    with pytest.raises(IllegalActionError, match="only action is None"):
        environment.step(0)
    environment.step(None)


def test_the_encoders_take_a_black_prince_view_only() -> None:
    from ordonnance import shinobi

    other = shinobi.Game.new(shinobi.Rules(), seed=1).view(0)
    for call in (bpz.action_mask, bpz.encode_view, lambda view: bpz.action_from_index(0, view),
                 lambda view: bpz.action_index(bp.EndTurn(), view)):  # fmt: skip
        with pytest.raises(OrdonnanceTypeError, match="PlayerView"):
            call(other)
