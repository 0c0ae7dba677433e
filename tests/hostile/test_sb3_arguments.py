"""The Stable-Baselines3 adapter over every game's vector environment with bad values of every
type: a return or the library's error, never a bare exception. Skipped without Gymnasium or
Stable-Baselines3."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ordonnance import Rules
from ordonnance import black_prince, shinobi

from .sweep import Target, sweep


def _vector_env(game: str) -> Any:
    if game == "ordonnance":
        from ordonnance.rl import VectorEnv

        return VectorEnv(2, Rules(), seed=1)
    if game == "shinobi":
        from ordonnance.shinobi.rl import VectorEnv as ShinobiVectorEnv

        return ShinobiVectorEnv(2, shinobi.Rules(), seed=1)
    from ordonnance.black_prince.pettingzoo import VectorEnv as BlackPrinceVectorEnv

    return BlackPrinceVectorEnv(2, black_prince.Rules(), seed=1)


def _adapter(envs: Any) -> Any:
    from ordonnance.sb3 import VecEnv

    return VecEnv(envs)


def _adapter_step(game: str) -> Any:
    def call(actions: Any) -> Any:
        from ordonnance.sb3 import VecEnv

        envs = VecEnv(_vector_env(game))
        envs.reset()
        return envs.step(actions)

    return call


@pytest.mark.parametrize("game", ["ordonnance", "shinobi", "black_prince"])
def test_the_adapter_and_the_restart_answer_every_bad_value(game: str) -> None:
    pytest.importorskip("gymnasium")
    targets = [
        Target(f"{game}: VecEnv", _adapter, (_vector_env(game),), {}, needs="stable_baselines3"),
        Target(f"{game}: VecEnv.step", _adapter_step(game), (np.zeros(2, np.int64),), {}, needs="stable_baselines3"),
    ]  # fmt: skip
    assert [failure for target in targets for failure in sweep(target)] == []
