"""Train sb3-contrib's MaskablePPO on any game's batched games: against Random, then Greedy.

The environment is the game's vector environment (``ordonnance.rl.VectorEnv``,
``ordonnance.shinobi.rl.VectorEnv``, ``ordonnance.black_prince.pettingzoo.VectorEnv``:
thousands of games stepped together in numba, the opponents played in the kernel),
seen by Stable-Baselines3 through the library's adapter, ``ordonnance.sb3.VecEnv``
(masks through ``action_masks()``, finished envs reset within the step, as SB3
expects). Win rates are measured on fresh deals with the greedy (argmax) policy and
the learner's seat drawn at random; a Shinobi "win" is a step ending with a positive
reward (the learner's clan won, alone or shared).

Install the example's requirements first (CPU torch is enough)::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -r examples/requirements.txt

then::

    python examples/train_maskable_ppo.py                          # Ordonnance, the docs' budget
    python examples/train_maskable_ppo.py --game shinobi --players 4
    python examples/train_maskable_ppo.py --game black-prince
    python examples/train_maskable_ppo.py --random-steps 20000 --greedy-steps 20000   # a quick look
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

import ordonnance as od
from ordonnance import black_prince, shinobi
from ordonnance.sb3 import VecEnv


def game_setup(game: str, players: int | None) -> tuple[Any, Any, Any]:
    """The game's rules, its VectorEnv class and its Batch class."""
    if game == "ordonnance":
        from ordonnance.batch import Batch
        from ordonnance.rl import VectorEnv

        return od.Rules(players=players or 2), VectorEnv, Batch
    if game == "shinobi":
        from ordonnance.shinobi.batch import Batch as ShinobiBatch
        from ordonnance.shinobi.rl import VectorEnv as ShinobiVectorEnv

        return shinobi.Rules(players=players or 4), ShinobiVectorEnv, ShinobiBatch
    from ordonnance.black_prince.batch import Batch as BlackPrinceBatch
    from ordonnance.black_prince.pettingzoo import VectorEnv as BlackPrinceVectorEnv

    if players not in (None, 2):
        raise SystemExit("Black Prince is a game for two")
    return black_prince.Rules(), BlackPrinceVectorEnv, BlackPrinceBatch


def win_rate(model: MaskablePPO, batch_type: Any, rules: Any, opponent: str, episodes: int, seed: int) -> tuple[float, float, float]:
    """(wins, draws, losses) as shares of about ``episodes`` fresh games (each env's first
    ``per_env``), the learner's seat drawn at random."""
    per_env = -(-episodes // 256)
    envs = -(-episodes // per_env)
    batch = batch_type(envs, rules, opponent=opponent, seat="random", seed=seed, illegal="refuse")
    outcomes: list[float] = []
    episode = np.ones(envs, np.int64)  # each env's episode in progress (1 is the first)
    while len(outcomes) < envs * per_env:
        masks = batch.legal_action_mask().copy()  # the batch's arrays are read-only; torch wants its own
        actions, _ = model.predict(batch.observe(), action_masks=masks, deterministic=True)
        actions = np.where(masks.any(axis=1), actions, 0)  # a game that just ended restarts (its action is not read)
        result = batch.step(np.asarray(actions, np.int64))
        outcomes.extend(result.reward[result.terminated & (episode <= per_env)].tolist())
        episode += result.reset
    won = np.array(outcomes)
    return float(np.mean(won > 0)), float(np.mean(won == 0)), float(np.mean(won < 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["ordonnance", "shinobi", "black-prince"], default="ordonnance")
    parser.add_argument("--players", type=int, default=None, help="seats (default: 2, Shinobi 4)")
    parser.add_argument("--random-steps", type=int, default=200_000, help="learner steps against Random")
    parser.add_argument("--greedy-steps", type=int, default=200_000, help="then learner steps against Greedy")
    parser.add_argument("--envs", type=int, default=64, help="batched games (n_steps x envs per rollout)")
    parser.add_argument("--eval-episodes", type=int, default=2000, help="games per win rate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)  # one core, as the throughput figures of the docs
    rules, vector_env, batch_type = game_setup(args.game, args.players)

    def envs(opponent: str, seed: int) -> VecEnv:
        return VecEnv(vector_env(args.envs, rules, opponent=opponent, seat="random", seed=seed))

    def rates(spent: int) -> tuple[float, ...]:
        base = 10**6 + 2 * spent
        return (*win_rate(model, batch_type, rules, "random", args.eval_episodes, base),
                *win_rate(model, batch_type, rules, "greedy", args.eval_episodes, base + 1))  # fmt: skip

    env = envs("random", args.seed)
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=512, n_epochs=4, learning_rate=3e-4, gamma=0.995,
        ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, seed=args.seed, verbose=0,
    )  # fmt: skip
    rows: list[tuple[Any, ...]] = [("untrained", 0, 0.0, *rates(0))]
    spent = 0
    for opponent, steps in (("random", args.random_steps), ("greedy", args.greedy_steps)):
        if steps <= 0:
            continue
        if opponent != "random":
            env = envs(opponent, args.seed + 1000)
            env.seed(args.seed + 1000)
            model.set_env(env)
        start = time.process_time()
        model.learn(total_timesteps=steps, reset_num_timesteps=False)
        elapsed = time.process_time() - start
        spent += steps
        rows.append((f"+{steps:,} vs {opponent}", spent, elapsed, *rates(spent)))
    print(f"{args.game}, {rules.players} players: MaskablePPO, MlpPolicy [128, 128], {args.envs} batched games, "
          f"seed {args.seed}; win/draw/loss over {args.eval_episodes} fresh games per opponent (greedy policy, random seat)")  # fmt: skip
    print(f"{'training':<24}{'steps':>10}{'CPU s':>9}   {'vs Random':>17}   {'vs Greedy':>17}")
    for name, total, seconds, rw, rd, rl, gw, gd, gl in rows:
        print(f"{name:<24}{total:>10,}{seconds:>9.0f}   {rw:>5.1%} {rd:>5.1%} {rl:>5.1%}   {gw:>5.1%} {gd:>5.1%} {gl:>5.1%}")


if __name__ == "__main__":
    main()
