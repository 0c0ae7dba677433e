"""Train sb3-contrib's MaskablePPO on batched Ordonnance games: against Random, then Greedy.

The environment is :class:`ordonnance.batch.Batch` (the games behind
:class:`ordonnance.rl.VectorEnv`), seen by Stable-Baselines3 through the small
``BatchVecEnv`` adapter below: SB3 resets a finished env within the step that
ended it and keeps the last observation in ``infos[i]["terminal_observation"]``,
while the batch starts a finished game's next episode at the following step.
The adapter plays that extra step at once for the finished games only (the
other games are given an action their mask refuses, which leaves them as they
are). Win rates are measured on fresh deals with the greedy (argmax) policy.

Install the example's requirements first (CPU torch is enough)::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -r examples/requirements.txt

then::

    python examples/train_maskable_ppo.py                 # the budget of the docs' table
    python examples/train_maskable_ppo.py --random-steps 20000 --greedy-steps 20000   # a quick look
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import ordonnance as od
from ordonnance.batch import Batch
from ordonnance.rl import NUM_ACTIONS, observation_bounds

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv


class BatchVecEnv(VecEnv):  # type: ignore[misc]
    """``num_envs`` batched games as an SB3 ``VecEnv`` (float32 box observations, masks
    through ``action_masks()``); ``opponent`` is "random" or "greedy", played in the kernel."""

    def __init__(self, num_envs: int, opponent: str, seed: int, rules: od.Rules | None = None) -> None:
        rules = od.Rules() if rules is None else rules
        self.batch = Batch(num_envs, rules, opponent=opponent, seat="random", seed=seed, illegal="refuse")  # type: ignore[arg-type]
        low, high = observation_bounds(rules)
        super().__init__(num_envs, gymnasium.spaces.Box(low, high, dtype=np.float32), gymnasium.spaces.Discrete(NUM_ACTIONS))
        self._actions = np.zeros(num_envs, np.int64)
        self._seed = seed

    def reset(self) -> np.ndarray:
        self.batch.reset(self._seed)
        self._seed += 1
        return self.batch.observe().copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        result = self.batch.step(self._actions)
        if result.illegal.any():
            raise ValueError(f"illegal actions in envs {np.flatnonzero(result.illegal).tolist()}")
        rewards, dones = result.reward.copy(), result.terminated.copy()
        observations = self.batch.observe().copy()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = observations[i].copy()
            # Start the finished games' next episodes now; the others get an action
            # their mask refuses, so they do not move.
            idle = np.argmin(self.batch.legal_action_mask(), axis=1)
            self.batch.step(np.where(dones, 0, idle))
            observations[dones] = self.batch.observe()[dones]
        return observations, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return self.batch.legal_action_mask().copy()

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks":  # sb3-contrib asks every env for its mask this way
            return list(self.action_masks()[self._get_indices(indices)])
        raise AttributeError(f"BatchVecEnv has no env method {method_name!r}")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None] * len(self._get_indices(indices))
        raise AttributeError(attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(attr_name)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def seed(self, seed: int | None = None) -> list[None]:
        if seed is not None:
            self._seed = seed
        return [None] * self.num_envs


def win_rate(model: MaskablePPO, opponent: str, episodes: int, seed: int) -> tuple[float, float, float]:
    """(wins, draws, losses) as shares of about ``episodes`` fresh games (each env's first
    ``per_env``), the learner's seat drawn at random."""
    per_env = -(-episodes // 256)
    envs = -(-episodes // per_env)
    batch = Batch(envs, od.Rules(), opponent=opponent, seat="random", seed=seed, illegal="refuse")  # type: ignore[arg-type]
    outcomes: list[float] = []
    episode = np.ones(envs, np.int64)  # each env's episode in progress (1 is the first)
    while len(outcomes) < envs * per_env:
        actions, _ = model.predict(batch.observe(), action_masks=batch.legal_action_mask(), deterministic=True)
        result = batch.step(np.asarray(actions, np.int64))
        outcomes.extend(result.reward[result.terminated & (episode <= per_env)].tolist())
        episode += result.reset
    won = np.array(outcomes)
    return float(np.mean(won > 0)), float(np.mean(won == 0)), float(np.mean(won < 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-steps", type=int, default=200_000, help="learner steps against Random")
    parser.add_argument("--greedy-steps", type=int, default=200_000, help="then learner steps against Greedy")
    parser.add_argument("--envs", type=int, default=64, help="batched games (n_steps x envs per rollout)")
    parser.add_argument("--eval-episodes", type=int, default=2000, help="games per win rate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)  # one core, as the throughput figures of the docs

    env = BatchVecEnv(args.envs, "random", seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=512, n_epochs=4, learning_rate=3e-4, gamma=0.995,
        ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, seed=args.seed, verbose=0,
    )  # fmt: skip
    rows = [("untrained", 0, 0.0, *win_rate(model, "random", args.eval_episodes, 10**6), *win_rate(model, "greedy", args.eval_episodes, 10**6 + 1))]
    spent = 0
    for opponent, steps in (("random", args.random_steps), ("greedy", args.greedy_steps)):
        if steps <= 0:
            continue
        if opponent != "random":
            model.set_env(BatchVecEnv(args.envs, opponent, seed=args.seed + 1000))
        start = time.process_time()
        model.learn(total_timesteps=steps, reset_num_timesteps=False)
        elapsed = time.process_time() - start
        spent += steps
        rows.append(
            (f"+{steps:,} vs {opponent}", spent, elapsed,
             *win_rate(model, "random", args.eval_episodes, 10**6 + 2 * spent),
             *win_rate(model, "greedy", args.eval_episodes, 10**6 + 2 * spent + 1))
        )  # fmt: skip
    print(f"MaskablePPO, MlpPolicy [128, 128], {args.envs} batched games, seed {args.seed}; "
          f"win/draw/loss over {args.eval_episodes} fresh games per opponent (greedy policy, random seat)")  # fmt: skip
    print(f"{'training':<24}{'steps':>10}{'CPU s':>9}   {'vs Random':>17}   {'vs Greedy':>17}")
    for name, total, seconds, rw, rd, rl, gw, gd, gl in rows:
        print(f"{name:<24}{total:>10,}{seconds:>9.0f}   {rw:>5.1%} {rd:>5.1%} {rl:>5.1%}   {gw:>5.1%} {gd:>5.1%} {gl:>5.1%}")


if __name__ == "__main__":
    main()
