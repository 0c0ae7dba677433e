"""Shinobi's batched games against its Game: every step of every game, masks, observations, rewards."""

from __future__ import annotations

import itertools
import os
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import shinobi
from ordonnance.core.batch import MAX_GAMES, StepResult, episode_deal_seeds
from ordonnance.core.rng import bounded
from ordonnance.core.seeds import bot_seeds, game_seeds
from ordonnance.shinobi import _batch_kernel as bk
from ordonnance.shinobi.batch import Batch, observation_size
from ordonnance.shinobi.rl import action_mask, encode_view, observation_layout

VARIANTS = [shinobi.Rules(players=n, attack=attack) for n, attack in itertools.product((3, 4, 5), ("mandatory", "optional"))] + [
    shinobi.Rules(players=3, samurai=(2, 9, 4, 6, 1), ninjas=1, attack="optional"),
    shinobi.Rules(players=5, samurai=4, ninjas=0),
]
IDS = [f"{r.players}p-{r.attack}" for r in VARIANTS[:6]] + ["3p-custom-deck", "5p-small-deck"]
JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
GAMES = 10 if JIT else 2  # per variant and opponent
STEPS = 160 if JIT else 20  # a game of four is about 100 actions in self-play
OPPONENTS = ["self", "random", "greedy"]


def _expected_rewards(game: shinobi.Game) -> np.ndarray:
    """The winners share +1, the others -1 (shinobi.rl's rewards)."""
    n = game.players
    winners = game.winners
    rewards = np.full(n, -1.0 / (n - len(winners)) if len(winners) < n else 0.0, np.float32)
    rewards[list(winners)] = 1.0 / len(winners)
    return rewards


class Mirror:
    """One game of a batch played again through Game, with the Python twins of the kernel bots."""

    def __init__(self, batch: Batch, i: int) -> None:
        self.rules = batch.rules
        self.seat = int(batch.observers[i]) if batch.opponent != "self" else None
        deal = int(batch.deal_seeds[i])
        self.game = shinobi.Game.new(self.rules, seed=deal)
        bot = shinobi.bots.Random if batch.opponent == "random" else shinobi.bots.Greedy
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
        return action_mask(self.game.view(self.game.current_player)).astype(bool)

    def step(self, code: int) -> None:
        self.game.apply(shinobi.from_code(code))
        self.bots_play()


def _check_position(batch: Batch, mirrors: list[Mirror], masks: np.ndarray, obs: np.ndarray) -> None:
    for i, mirror in enumerate(mirrors):
        assert batch.observers[i] == mirror.observer()
        assert batch.current_player[i] == mirror.game.current_player
        assert np.array_equal(masks[i], mirror.mask()), f"game {i}: mask"
        expected = encode_view(mirror.game.view(mirror.observer()))
        assert np.array_equal(obs[i], expected), f"game {i}: observation differs at {np.flatnonzero(obs[i] != expected)}"


def _play_along(rules: shinobi.Rules, opponent: str, seed: int, illegal: str = "refuse") -> int:
    """Step a batch with random legal actions (and now and then an illegal one) beside its
    mirrors; returns the number of games finished."""
    batch = Batch(GAMES, rules, opponent=opponent, seat="random", seed=seed, illegal=illegal)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    mirrors = [Mirror(batch, i) for i in range(GAMES)]
    finished = 0
    for _ in range(STEPS):
        masks = batch.legal_action_mask().copy()
        obs = batch.observe().copy()
        _check_position(batch, mirrors, masks, obs)
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
        assert isinstance(result, StepResult)
        assert np.array_equal(result.reset, was_over)
        assert np.array_equal(result.illegal, wrong & ~was_over)
        assert np.array_equal(result.finished, result.terminated & ~result.illegal)
        assert (result.winner[~result.finished] == -1).all() and not result.scores[~result.finished].any()
        for i, mirror in enumerate(mirrors):
            if was_over[i]:
                assert result.actor[i] == -1 and not result.terminated[i] and not result.rewards[i].any()
                assert result.reward[i] == 0
                mirrors[i] = Mirror(batch, i)
                continue
            assert result.actor[i] == actors[i]
            observer = actors[i] if batch.opponent == "self" else mirror.seat
            if wrong[i]:
                ended = illegal == "end"
                assert result.terminated[i] == ended and batch.is_over[i] == ended
                expected = np.zeros(rules.players, np.float32)
                if ended:
                    expected[actors[i]] = -1.0
                assert np.array_equal(result.rewards[i], expected)
                assert result.reward[i] == expected[observer]
                continue
            mirror.step(int(actions[i]))
            game = mirror.game
            assert result.terminated[i] == game.is_over
            expected = np.zeros(rules.players, np.float32)
            if game.is_over:
                finished += 1
                expected = _expected_rewards(game)
                assert result.winner[i] == (-1 if game.winner is None else game.winner)
                assert result.scores[i].tolist() == list(game.scores)
            assert np.array_equal(result.rewards[i], expected)
            assert result.reward[i] == expected[observer]
            assert batch.game(i) == game
    if JIT and opponent != "self":
        assert batch.episodes.min() >= 2 * GAMES  # every game went through at least two autoresets
    return finished


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_batched_games_agree_with_the_engine_step_for_step(rules: shinobi.Rules) -> None:
    finished = sum(_play_along(rules, opponent, seed=s) for s, opponent in enumerate(OPPONENTS))
    assert finished >= (GAMES if JIT else 0)  # whole games were played, not only openings


@pytest.mark.parametrize("rules", [VARIANTS[0], VARIANTS[3], VARIANTS[5]], ids=[IDS[0], IDS[3], IDS[5]])
def test_an_illegal_action_can_end_the_episode(rules: shinobi.Rules) -> None:
    _play_along(rules, "random", seed=3, illegal="end")
    _play_along(rules, "self", seed=4, illegal="end")


def test_deals_bots_and_seats_follow_the_documented_seed_streams() -> None:
    rules = shinobi.Rules(players=5)
    games = 6
    batch = Batch(games, rules, opponent="random", seat="random", seed=77)
    assert batch.seed == 77
    stream = game_seeds(77, games * 40)
    assert batch.deal_seeds.tolist() == stream[:games].tolist() == episode_deal_seeds(77, games, 0).tolist()
    assert batch.episodes.tolist() == list(range(games))
    seen = set(batch.deal_seeds.tolist())
    rng = np.random.default_rng(0)
    seats = set()
    for _ in range(400):
        masks = batch.legal_action_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]))
        for i in range(games):
            e, deal = int(batch.episodes[i]), int(batch.deal_seeds[i])
            assert e % games == i and deal == stream[e]
            # the learner's seat: the bot-seed stream of "seat 5", which no seat of Shinobi has
            assert batch.observers[i] == bounded(int(bot_seeds(np.array([deal], np.uint64), [0] * 6)[0, 5]), 5)
            assert batch.game(i).seed == deal
            seats.add(int(batch.observers[i]))
        seen.update(batch.deal_seeds.tolist())
    assert len(seen) == sum(int(e) // games + 1 for e in batch.episodes)  # a fresh deal for every episode
    assert max(batch.episodes) >= 2 * games and seats == set(range(5))


def test_the_same_seed_replays_and_reset_starts_over() -> None:
    def run(batch: Batch) -> list[np.ndarray]:
        out = [batch.observe().copy()]
        rng = np.random.default_rng(5)
        for _ in range(60):
            masks = batch.legal_action_mask()
            result = batch.step(np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1))
            out += [batch.observe().copy(), result.rewards.copy(), result.terminated.copy()]
        return out

    first = Batch(16, shinobi.Rules(players=3), opponent="greedy", seat="random", seed=9)
    once = run(first)
    first.reset(9)
    again = run(first)
    other = run(Batch(16, shinobi.Rules(players=3), opponent="greedy", seat="random", seed=10))
    assert all(np.array_equal(a, b) for a, b in zip(once, again))
    assert not all(np.array_equal(a, b) for a, b in zip(once, other))


def test_fixed_seats_hold_and_self_play_observes_the_seat_to_act() -> None:
    fixed = Batch(8, shinobi.Rules(players=4), opponent="greedy", seat=2, seed=1)
    assert fixed.observers.tolist() == [2] * 8 and (fixed.current_player == 2).all()
    batch = Batch(6, shinobi.Rules(players=3), opponent="self", seed=4)
    assert batch.observers.tolist() == batch.current_player.tolist() == [0] * 6
    batch.step(np.argmax(batch.legal_action_mask(), axis=1))
    assert batch.observers.tolist() == batch.current_player.tolist()
    assert set(batch.observers.tolist()) <= {0, 1}  # seat 0 may have orders left, else seat 1 acts


def test_layout_and_action_space_are_rl_s() -> None:
    for n in (3, 4, 5):
        assert observation_size(n) == sum(length for _, length in observation_layout(n))
        assert Batch(1, shinobi.Rules(players=n), seed=1).observe().shape == (1, observation_size(n))
    assert Batch.num_actions == shinobi.ACTION_COUNT


@settings(max_examples=40 if JIT else 8, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.sampled_from([3, 4, 5]),
    optional=st.booleans(),
    choices=st.lists(st.integers(0, 10**6), max_size=120),
)
def test_the_encoder_equals_encode_view_from_every_seat(seed: int, players: int, optional: bool, choices: list[int]) -> None:
    rules = shinobi.Rules(players=players, attack="optional" if optional else "mandatory")
    batch = Batch(1, rules, opponent="self", seed=seed)
    for choice in choices:
        legal = np.flatnonzero(batch.legal_action_mask()[0])
        if not legal.size:
            break
        batch.step(np.array([legal[choice % legal.size]]))
    game = batch.game(0)
    out = np.zeros((1, observation_size(players)), np.float32)
    for seat in range(players):
        bk.observe(batch._states, np.array([seat], np.int64), out)
        assert np.array_equal(out[0], encode_view(game.view(seat)))
    assert np.array_equal(batch.legal_action_mask()[0], action_mask(game.view(game.current_player)).astype(bool))


def test_bad_arguments_are_refused_with_the_value_before_anything_changes() -> None:
    batch = Batch(3, seed=1)
    before = batch.observe().copy()
    with pytest.raises(od.IllegalActionError, match="game 1 got 306"):
        batch.step(np.array([0, 306, 2]))
    with pytest.raises(od.IllegalActionError, match="-1"):
        batch.step([-1, 0, 0])
    with pytest.raises(od.InvalidArgumentError, match=r"shape \(3,\).*\(2,\)"):
        batch.step(np.array([1, 2]))
    with pytest.raises(od.OrdonnanceTypeError, match="float64"):
        batch.step(np.array([1.0, 2.0, 3.0]))
    assert np.array_equal(batch.observe(), before) and batch.episodes.tolist() == [0, 1, 2]  # nothing was stepped
    with pytest.raises(od.InvalidArgumentError, match=f"games must be 1..{MAX_GAMES:,}, got 0"):
        Batch(0)
    with pytest.raises(od.OrdonnanceTypeError, match="games must be an int, got 2.5"):
        Batch(2.5)  # type: ignore[arg-type]
    with pytest.raises(od.OrdonnanceTypeError, match="games must be an int, got True"):
        Batch(True)  # type: ignore[arg-type]
    with pytest.raises(od.OrdonnanceTypeError, match="Rules"):
        Batch(2, od.Rules())  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="'bogus'"):
        Batch(2, opponent="bogus")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidSeatError, match="got 4"):
        Batch(2, opponent="random", seat=4)
    with pytest.raises(od.OrdonnanceTypeError, match="'first'"):
        Batch(2, opponent="random", seat="first")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="'maybe'"):
        Batch(2, illegal="maybe")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="inf"):
        Batch(2, illegal_reward=float("inf"))
    with pytest.raises(od.InvalidSeedError, match="-4"):
        Batch(2, seed=-4)
    with pytest.raises(od.InvalidArgumentError, match="'uint8'"):
        Batch(2, observe="uint8")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="0..2, got 3"):
        batch.game(3)
    with pytest.raises(od.OrdonnanceTypeError, match="1.0"):
        batch.game(1.0)  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="uint8"):
        batch.observe(np.uint8)
    assert batch.game(-1) == batch.game(2)
    # NumPy scalars are taken as their plain values
    numpy_batch = Batch(np.int64(2), opponent=np.str_("random"), seat=np.int64(1), seed=np.uint64(3))  # type: ignore[arg-type]
    assert numpy_batch.games == 2 and numpy_batch.observers.tolist() == [1, 1] and numpy_batch.seed == 3


def test_observations_computed_in_the_step_equal_those_computed_apart() -> None:
    rules = shinobi.Rules(players=4, attack="optional")
    fused = Batch(16, rules, opponent="greedy", seat="random", seed=8)
    apart = Batch(16, rules, opponent="greedy", seat="random", seed=8, observe=None)
    rng = np.random.default_rng(2)
    for _ in range(60):
        masks = fused.legal_action_mask()
        assert np.array_equal(masks, apart.legal_action_mask())
        assert np.array_equal(fused.observe(), apart.observe())
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)
        fused.step(actions)
        apart.step(actions)


def test_returned_arrays_are_read_only_views_of_the_batch() -> None:
    batch = Batch(4, seed=3)
    for array in (batch.observe(), batch.legal_action_mask()):
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = 1
    first = batch.observe()
    batch.step(np.argmax(batch.legal_action_mask(), axis=1))
    assert batch.observe() is first  # the same buffer, now the next position's


def test_a_pickled_batch_plays_on_as_the_original() -> None:
    batch = Batch(8, shinobi.Rules(players=3), opponent="greedy", seat="random", seed=5)
    rng = np.random.default_rng(1)

    def steps(b: Batch, count: int, seed: int) -> list[np.ndarray]:
        pick = np.random.default_rng(seed)
        out = []
        for _ in range(count):
            masks = b.legal_action_mask()
            result = b.step(np.argmax(np.where(masks, pick.random(masks.shape), -1.0), axis=1))
            out += [b.observe().copy(), result.rewards.copy(), result.reset.copy()]
        return out

    steps(batch, 40, int(rng.integers(100)))
    copy = pickle.loads(pickle.dumps(batch))
    assert all(np.array_equal(a, b) for a, b in zip(steps(copy, 120, 7), steps(batch, 120, 7)))
    assert repr(copy) == repr(batch) and copy.game(3) == batch.game(3)


def test_every_games_step_result_is_the_shared_class() -> None:
    import ordonnance.batch

    assert ordonnance.batch.StepResult is StepResult and ordonnance.batch.MAX_GAMES == MAX_GAMES
    ordonnance_batch = ordonnance.batch.Batch(2, seed=1)
    assert isinstance(ordonnance_batch.step(np.argmax(ordonnance_batch.legal_action_mask(), axis=1)), StepResult)
    shinobi_batch = Batch(2, seed=1)
    assert isinstance(shinobi_batch.step(np.argmax(shinobi_batch.legal_action_mask(), axis=1)), StepResult)
