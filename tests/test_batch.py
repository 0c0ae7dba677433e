"""Batched games against the engine: every step of every game, masks, observations, rewards."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

import ordonnance as od
from ordonnance import Rules, rl
from ordonnance import _simulator_kernel as kernel
from ordonnance.batch import Batch, observation_size
from ordonnance.simulation import bot_seeds, game_seeds

VARIANTS = [
    Rules(players=players, scoring=scoring, tie_break=tie_break, claim_proof=proof, auto_claim=auto)
    for players, scoring, tie_break, proof, auto in itertools.product(
        (2, 3, 4), ("territories", "points"), ("latest_capture", "lowest_marker_sum"),
        ("public", "private"), (False, True),
    )  # fmt: skip
    if scoring == "territories" or (proof == "public" and not auto)
] + [
    Rules(players=2, deck=("L B S H F LB SH".split() * 12)[:43]),
    Rules(players=3, deck=["LBSHF"] * 60, auto_claim=True),
    Rules(players=2, deck=("LB SF H".split() * 14)[:42], claim_proof="private"),
]
IDS = [
    f"{r.players}p-{r.scoring}-{r.tie_break}-{r.claim_proof}-{'auto' if r.auto_claim else 'manual'}"
    + ("-custom" if r.deck is not None else "")
    for r in VARIANTS
]
JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
GAMES = 12 if JIT else 2  # per variant and line-up: with ~3 episodes each, about 3,000 games with the JIT
STEPS = 150 if JIT else 25
OPPONENTS = ["self", "random", "greedy"]


class Mirror:
    """One game of a batch played again through Game, with the Python twins of the kernel bots."""

    def __init__(self, batch: Batch, i: int) -> None:
        self.rules = batch.rules
        self.seat = int(batch.observers[i]) if batch.opponent != "self" else None
        deal = int(batch.deal_seeds[i])
        self.game = od.Game.new(self.rules, seed=deal)
        bot = od.bots.Random if batch.opponent == "random" else od.bots.Greedy
        seeds = bot_seeds(np.array([deal], np.uint64), [0] * self.rules.players)[0]
        self.bots = [bot(seed=int(s)) for s in seeds]
        self.bots_play()

    def bots_play(self) -> None:
        game = self.game
        while self.seat is not None and not game.is_over and game.current_player != self.seat:
            p = game.current_player
            game.apply(self.bots[p].choose(game.view(p)))

    def observer(self) -> int:
        return self.game.current_player if self.seat is None else self.seat

    def mask(self) -> np.ndarray:
        return rl.action_mask(self.game.view(self.game.current_player)).astype(bool)

    def step(self, a: int) -> None:
        self.game.apply(rl.action_from_index(a))
        self.bots_play()


def _check_position(batch: Batch, mirrors: list[Mirror], masks: np.ndarray, obs: np.ndarray) -> None:
    for i, mirror in enumerate(mirrors):
        assert batch.observers[i] == mirror.observer()
        assert np.array_equal(masks[i], mirror.mask()), f"game {i}: mask"
        expected = rl.encode_view(mirror.game.view(mirror.observer()))
        assert np.array_equal(obs[i], expected), f"game {i}: observation differs at {np.flatnonzero(obs[i] != expected)}"


def _play_along(rules: Rules, opponent: str, seed: int, illegal: str = "refuse") -> int:
    """Step a batch with random legal actions (and now and then an illegal one) beside
    its mirrors; returns the number of games finished."""
    batch = Batch(GAMES, rules, opponent=opponent, seat="random", seed=seed, illegal=illegal)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    mirrors = [Mirror(batch, i) for i in range(GAMES)]
    finished = 0
    for _ in range(STEPS):
        masks = batch.legal_action_mask().copy()
        obs = batch.observe().copy()
        _check_position(batch, mirrors, masks, obs)
        assert np.array_equal(batch.observe(np.uint8), obs.astype(np.uint8))
        was_over = batch.is_over.copy()
        actions = np.zeros(GAMES, np.int64)
        wrong = np.zeros(GAMES, bool)
        for i in range(GAMES):
            legal = np.flatnonzero(masks[i])
            if legal.size and rng.random() < 0.05:
                actions[i] = rng.choice(np.flatnonzero(~masks[i]))
                wrong[i] = True
            elif legal.size:
                actions[i] = rng.choice(legal)
        actors = [m.game.current_player for m in mirrors]
        result = batch.step(actions)
        assert np.array_equal(result.reset, was_over)
        assert np.array_equal(result.illegal, wrong & ~was_over)
        assert np.array_equal(result.finished, result.terminated & ~result.illegal)
        assert (result.winner[~result.finished] == -1).all() and not result.scores[~result.finished].any()
        for i, mirror in enumerate(mirrors):
            if was_over[i]:
                assert not result.terminated[i] and not result.rewards[i].any()
                mirrors[i] = Mirror(batch, i)
                continue
            assert result.actor[i] == actors[i]
            if wrong[i]:
                ended = illegal == "end"
                assert result.terminated[i] == ended
                expected = np.zeros(rules.players, np.float32)
                if ended:
                    expected[actors[i]] = -1.0
                assert np.array_equal(result.rewards[i], expected)
                continue
            mirror.step(int(actions[i]))
            game = mirror.game
            assert result.terminated[i] == game.is_over
            expected = np.zeros(rules.players, np.float32)
            if game.is_over:
                finished += 1
                assert result.winner[i] == (-1 if game.winner is None else game.winner)
                assert result.scores[i].tolist() == list(game.scores)
                if game.winner is not None:
                    expected[:] = -1.0
                    expected[game.winner] = 1.0
            assert np.array_equal(result.rewards[i], expected)
            observer = actors[i] if batch.opponent == "self" else mirror.seat
            assert result.reward[i] == expected[observer]
            assert batch.game(i) == game
    return finished


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_batched_games_agree_with_the_engine_step_for_step(rules: Rules) -> None:
    finished = sum(_play_along(rules, opponent, seed=s) for s, opponent in enumerate(OPPONENTS))
    assert finished >= GAMES  # whole games were played, not only openings


@pytest.mark.parametrize("rules", [VARIANTS[0], VARIANTS[9], VARIANTS[-2]], ids=[IDS[0], IDS[9], IDS[-2]])
def test_an_illegal_action_can_end_the_episode(rules: Rules) -> None:
    _play_along(rules, "random", seed=3, illegal="end")


def test_deals_follow_the_documented_seed_streams() -> None:
    rules = Rules(players=3)
    batch = Batch(5, rules, opponent="random", seat=1, seed=77)
    assert batch.seed == 77
    stream = game_seeds(77, 5 * 40)
    assert batch.deal_seeds.tolist() == stream[:5].tolist()
    assert batch.episodes.tolist() == list(range(5))
    for i in range(5):
        assert batch.game(i).seed == stream[i]
    seen = set(batch.deal_seeds.tolist())
    rng = np.random.default_rng(0)
    for _ in range(300):
        masks = batch.legal_action_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]))
        for i in range(5):
            e = int(batch.episodes[i])
            assert e % 5 == i and int(batch.deal_seeds[i]) == stream[e]
        seen.update(batch.deal_seeds.tolist())
    assert len(seen) == sum(int(e) // 5 + 1 for e in batch.episodes)  # a fresh deal for every episode
    assert max(batch.episodes) >= 10


def test_random_seats_vary_and_fixed_seats_hold() -> None:
    batch = Batch(64, Rules(players=4), opponent="greedy", seat="random", seed=1)
    seats = batch.observers
    assert set(seats.tolist()) == {0, 1, 2, 3}
    fixed = Batch(8, Rules(players=4), opponent="greedy", seat=2, seed=1)
    assert fixed.observers.tolist() == [2] * 8
    assert (fixed.current_player == 2).all()


def test_self_play_observes_the_seat_to_act() -> None:
    batch = Batch(6, Rules(players=3), opponent="self", seed=4)
    assert batch.observers.tolist() == batch.current_player.tolist() == [0] * 6
    masks = batch.legal_action_mask()
    batch.step(np.argmax(masks, axis=1))
    assert batch.observers.tolist() == batch.current_player.tolist() == [1] * 6


def test_action_space_is_rl_s() -> None:
    assert (kernel.NUM_ACTIONS, kernel.CLAIM_ACTIONS, kernel.PASS_ACTION) == (
        rl.NUM_ACTIONS, rl.CLAIM_ACTIONS, rl.PASS_ACTION,
    )  # fmt: skip
    for n in (2, 3, 4):
        assert observation_size(n) == sum(length for _, length in rl.observation_layout(n))


def test_bad_arguments_are_refused_with_the_value() -> None:
    batch = Batch(3, seed=1)
    before = batch.observe().copy()
    with pytest.raises(od.IllegalActionError, match="game 1 got 161"):
        batch.step(np.array([0, 161, 2]))
    with pytest.raises(od.IllegalActionError, match="-1"):
        batch.step([-1, 0, 0])
    with pytest.raises(od.InvalidArgumentError, match=r"shape \(3,\).*\(2,\)"):
        batch.step(np.array([1, 2]))
    with pytest.raises(od.OrdonnanceTypeError, match="float64"):
        batch.step(np.array([1.0, 2.0, 3.0]))
    assert np.array_equal(batch.observe(), before)  # nothing was stepped
    with pytest.raises(od.InvalidArgumentError, match="games must be 1..*, got 0"):
        Batch(0)
    with pytest.raises(od.OrdonnanceTypeError, match="games must be an int, got 2.5"):
        Batch(2.5)  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="'bogus'"):
        Batch(2, opponent="bogus")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidSeatError, match="got 2"):
        Batch(2, opponent="random", seat=2)
    with pytest.raises(od.OrdonnanceTypeError, match="'first'"):
        Batch(2, opponent="random", seat="first")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="'maybe'"):
        Batch(2, illegal="maybe")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="inf"):
        Batch(2, illegal_reward=float("inf"))
    with pytest.raises(od.InvalidSeedError, match="-4"):
        Batch(2, seed=-4)
    with pytest.raises(od.InvalidArgumentError, match="0..2, got 3"):
        batch.game(3)
    with pytest.raises(od.InvalidArgumentError, match="float16"):
        batch.observe(np.float16)  # type: ignore[arg-type]
    big = Batch(1, Rules(deck=["L"] * 300), seed=1)
    with pytest.raises(od.InvalidArgumentError, match="255 cards, got 300"):
        big.observe(np.uint8)


def test_observations_computed_in_the_step_equal_those_computed_apart() -> None:
    rules = Rules(players=3, claim_proof="private")
    batches = {form: Batch(16, rules, opponent="greedy", seat="random", seed=8, observe=form) for form in ("float32", "uint8", None)}  # type: ignore[arg-type]
    rng = np.random.default_rng(2)
    for _ in range(40):
        masks = [b.legal_action_mask().copy() for b in batches.values()]
        assert all(np.array_equal(masks[0], m) for m in masks)
        expected = batches[None].observe().copy()
        assert np.array_equal(batches["float32"].observe(), expected)
        assert np.array_equal(batches["uint8"].observe(np.uint8), expected.astype(np.uint8))
        assert np.array_equal(batches["float32"].observe(np.uint8), expected.astype(np.uint8))
        assert np.array_equal(batches["uint8"].observe(), expected)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks[0]])
        for b in batches.values():
            b.step(actions)
    with pytest.raises(od.InvalidArgumentError, match="'float64'"):
        Batch(2, observe="float64")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="255 cards, got 256"):
        Batch(2, Rules(deck=["H"] * 256), observe="uint8")


def test_observations_are_read_only_views_updated_in_place() -> None:
    """The step rewrites only what changed in the previous observation rows, so the
    rows handed out cannot be written (a write would corrupt every later step)."""
    batch = Batch(4, Rules(), seed=3)
    for form in (np.float32, np.uint8):
        obs = batch.observe(form)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="read-only"):
            obs[0, 0] = 7
    first = batch.observe()
    batch.step(np.argmax(batch.legal_action_mask(), axis=1))
    assert batch.observe() is first  # the same buffer, now the next position's
