"""Tianshou's masked multi-agent loop on every game's PettingZoo environment (skipped without Tianshou).

Tianshou's ``PettingZooEnv`` reads the legal actions only from a dict observation's
``"action_mask"``; its masked random policy then picks legal actions alone. The AEC
environments raise :class:`~ordonnance.errors.IllegalActionError` on an illegal action, so a
collection of whole episodes that finishes shows every action Tianshou chose was legal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance import shinobi

pytest.importorskip("pettingzoo")
pytest.importorskip("tianshou")

from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm  # noqa: E402
from tianshou.data import Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402


def _ordonnance(**kwargs: Any) -> Any:
    from ordonnance import rl

    return rl.env(**kwargs)


def _shinobi(players: int) -> Callable[..., Any]:
    from ordonnance.shinobi import rl

    return lambda **kwargs: rl.env(shinobi.Rules(players=players), **kwargs)


def _black_prince(**kwargs: Any) -> Any:
    from ordonnance.black_prince import pettingzoo

    return pettingzoo.env(bp.Rules(), **kwargs)


GAMES: dict[str, Callable[..., Any]] = {
    "ordonnance": _ordonnance,
    "shinobi-3": _shinobi(3),
    "shinobi-5": _shinobi(5),
    "black_prince": _black_prince,
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_masked_random_collection_plays_whole_games(name: str) -> None:
    make = GAMES[name]
    env = PettingZooEnv(make())
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents],
        env=env,
    )
    envs = DummyVectorEnv([lambda: PettingZooEnv(make()) for _ in range(2)])
    envs.seed([1, 2])
    buffer = VectorReplayBuffer(4096, buffer_num=2)
    collector = Collector(algorithm.policy, envs, buffer)
    collector.reset()
    np.random.seed(0)  # Tianshou's random policy draws from NumPy's global generator
    collected = collector.collect(n_episode=6)
    assert collected.n_collected_episodes == 6
    stored = buffer.sample_indices(0)
    masks = np.asarray(buffer.obs.mask)[stored]
    actions = np.asarray(buffer.act)[stored]
    assert masks.shape[0] == collected.n_collected_steps
    assert masks[np.arange(len(actions)), actions].all()  # every stored action was legal when chosen
    assert (masks.sum(axis=1) < masks.shape[1]).all()  # the masks are real ones, not all-True
