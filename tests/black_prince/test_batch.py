"""Black Prince's batched games against the engine: every step of every game, masks, observations, rewards."""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import batch as bp_batch
from ordonnance.black_prince import pettingzoo as bpz
from ordonnance.black_prince.batch import Batch
from ordonnance.core.rng import bounded
from ordonnance.core.seeds import bot_seeds, game_seeds
from ordonnance.errors import (
    IllegalActionError, InvalidArgumentError, InvalidSeatError, InvalidSeedError, OrdonnanceTypeError,
)  # fmt: skip

T = bp.TroopType
_SMALL = (["Battle", "Knights 2", "Archers 1", "Pikemen 3", "Swordsmen 2", "Swordsmen 2", "Cavalry 1"],
          ["Halberdiers 2", "Light cavalry 1", "Battle", "Battle", "Spearmen 3", "Archers 2", "Pikemen 1", "Knights 3"])
_PER_CARD = (
    [bp.Card(T.ARCHERS, 2, advantages=["Knights", "Pikemen"]), bp.Card(T.ARCHERS, 2), bp.Card(T.KNIGHTS, 3),
     bp.Card(None), bp.Card(T.SWORDSMEN, 1), bp.Card(T.SWORDSMEN, 1), bp.Card(T.SWORDSMEN, 2, advantages=[]),
     bp.Card(T.CAVALRY, 2), bp.Card(T.LIGHT_CAVALRY, 1), bp.Card(None), bp.Card(T.PIKEMEN, 2), bp.Card(T.HALBERDIERS, 3)],
    [bp.Card(T.PIKEMEN, 3), bp.Card(T.PIKEMEN, 3), bp.Card(T.PIKEMEN, 1, advantages=["Archers"]), bp.Card(None),
     bp.Card(T.SPEARMEN, 2), bp.Card(T.SPEARMEN, 2), bp.Card(T.KNIGHTS, 1), bp.Card(T.ARCHERS, 3),
     bp.Card(T.LIGHT_CAVALRY, 2), bp.Card(T.HALBERDIERS, 1), bp.Card(T.HALBERDIERS, 1)],
)  # fmt: skip
#: Every choice the rules offer: each army on each side (mirror matches too), the coin, another
#: advantage table, turn cuts, and custom decks (small ones run out of cards; per-card advantages).
VARIANTS = {
    "english-french": bp.Rules(),
    "scottish-burgundian-coin": bp.Rules(armies=("Scottish", "Burgundian"), first="coin"),
    "french-scottish": bp.Rules(armies=("French", "Scottish")),
    "burgundian-english-coin": bp.Rules(armies=("Burgundian", "English"), first="coin"),
    "mirror-french": bp.Rules(armies=("French", "French")),
    "mirror-burgundian-coin": bp.Rules(armies=("Burgundian", "Burgundian"), first="coin"),
    "other-advantages": bp.Rules(armies=("English", "Scottish"), advantages={
        "Knights": ["Pikemen"], "Archers": ["Knights", "Cavalry", "Light cavalry"], "Pikemen": ["Swordsmen"],
        "Swordsmen": ["Archers", "Halberdiers"], "Cavalry": ["Spearmen"],
    }),  # fmt: skip
    "turn-cut": bp.Rules(armies=("Scottish", "English"), max_turns=9),
    "small-decks-coin": bp.Rules(armies=("A", "B"), decks=_SMALL, first="coin", max_turns=60),
    "per-card-advantages": bp.Rules(armies=("Red", "Blue"), decks=_PER_CARD, max_turns=80),
}
JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
GAMES = 10 if JIT else 2  # per variant and line-up: with 3-5 episodes each
STEPS = 70 if JIT else 20
OPPONENTS = ["self", "random", "greedy"]


def documented_seat(deal: int) -> int:
    """The learner's seat under seat="random": the bot-seed stream of seat 2 (no seat's)."""
    return bounded(int(bot_seeds(np.array([deal], np.uint64), [0, 0, 0])[0, 2]), 2)


class Mirror:
    """One game of a batch played again through Game, with the Python bots the kernel's are twins of."""

    def __init__(self, batch: Batch, i: int, seat: int | str) -> None:
        deal = int(batch.deal_seeds[i])
        self.game = bp.Game.new(batch.rules, seed=deal)
        self.seat: int | None = None
        if batch.opponent != "self":
            self.seat = documented_seat(deal) if seat == "random" else int(seat)
        bot = bp.Random if batch.opponent == "random" else bp.Greedy
        seeds = bot_seeds(np.array([deal], np.uint64), [0, 0])[0]
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
        return bpz.action_mask(self.game.view(self.game.current_player)).astype(bool)

    def step(self, a: int) -> None:
        self.game.apply(bpz.action_from_index(a, self.game.view(self.game.current_player)))
        self.bots_play()


def _check_position(batch: Batch, mirrors: list[Mirror], masks: np.ndarray, obs: np.ndarray) -> None:
    for i, mirror in enumerate(mirrors):
        assert batch.observers[i] == mirror.observer()
        assert batch.current_player[i] == mirror.game.current_player
        assert np.array_equal(masks[i], mirror.mask()), f"game {i}: mask"
        expected = bpz.encode_view(mirror.game.view(mirror.observer()))
        assert np.array_equal(obs[i], expected), f"game {i}: observation differs at {np.flatnonzero(obs[i] != expected)}"
        if batch.opponent != "self" and not mirror.game.is_over:
            assert mirror.game.current_player == mirror.seat  # the learner sees only its own decisions


def _play_along(rules: bp.Rules, opponent: str, seed: int, seat: int | str = "random", illegal: str = "refuse") -> int:
    """Step a batch with random legal actions (and now and then an illegal one) beside its
    mirrors; returns the number of games finished."""
    batch = Batch(GAMES, rules, opponent=opponent, seat=seat, seed=seed, illegal=illegal)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    mirrors = [Mirror(batch, i, seat) for i in range(GAMES)]
    finished = 0
    for t in range(STEPS):
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
            else:
                actions[i] = rng.integers(bpz.NUM_ACTIONS)  # a game over: its action is not read
        actors = [m.game.current_player for m in mirrors]
        result = batch.step(actions)
        assert np.array_equal(result.reset, was_over)
        assert np.array_equal(result.illegal, wrong & ~was_over)
        assert np.array_equal(result.finished, result.terminated & ~result.illegal)
        assert (result.winner[~result.finished] == -1).all() and not result.scores[~result.finished].any()
        for i, mirror in enumerate(mirrors):
            if was_over[i]:
                assert not result.terminated[i] and not result.rewards[i].any() and result.actor[i] == -1
                mirrors[i] = Mirror(batch, i, seat)
                continue
            assert result.actor[i] == actors[i]
            if wrong[i]:
                ended = illegal == "end"
                assert result.terminated[i] == ended
                expected = np.zeros(2, np.float32)
                if ended:
                    expected[actors[i]] = -1.0
                assert np.array_equal(result.rewards[i], expected)
                continue
            mirror.step(int(actions[i]))
            game = mirror.game
            assert result.terminated[i] == game.is_over
            expected = np.zeros(2, np.float32)
            if game.is_over:
                finished += 1
                assert result.winner[i] == (-1 if game.winner is None else game.winner)
                assert result.scores[i].tolist() == list(game.scores)
                if game.winner is not None:
                    expected[game.winner] = 1.0
                    expected[1 - game.winner] = -1.0
            assert np.array_equal(result.rewards[i], expected)
            observer = actors[i] if batch.opponent == "self" else mirror.seat
            assert result.reward[i] == expected[observer]
            if game.is_over or t % 10 == 0:  # replaying every game at every step would dominate the test's time
                assert batch.game(i) == game
    return finished


@pytest.mark.parametrize("rules", list(VARIANTS.values()), ids=list(VARIANTS))
def test_batched_games_agree_with_the_engine_step_for_step(rules: bp.Rules) -> None:
    finished = sum(_play_along(rules, opponent, seed=s) for s, opponent in enumerate(OPPONENTS))
    assert finished >= GAMES  # whole games were played, not only openings


@pytest.mark.parametrize("seat", [0, 1])
def test_a_fixed_seat_agrees_with_the_engine(seat: int) -> None:
    rules = bp.Rules(armies=("Scottish", "French"), first="coin")
    assert _play_along(rules, "greedy", seed=11, seat=seat) + _play_along(rules, "random", seed=12, seat=seat) >= GAMES


@pytest.mark.parametrize("name", ["english-french", "small-decks-coin"])
def test_an_illegal_action_can_end_the_episode(name: str) -> None:
    _play_along(VARIANTS[name], "random", seed=3, illegal="end")
    _play_along(VARIANTS[name], "self", seed=4, illegal="end")


def test_deals_follow_the_documented_seed_streams() -> None:
    batch = Batch(5, bp.Rules(), opponent="random", seat=1, seed=77)
    assert batch.seed == 77
    stream = game_seeds(77, 5 * 40)
    assert batch.deal_seeds.tolist() == stream[:5].tolist()
    assert batch.episodes.tolist() == list(range(5))
    for i in range(5):
        assert batch.game(i).seed == stream[i]
    rng = np.random.default_rng(0)
    for _ in range(120):
        masks = batch.legal_action_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]))
        for i in range(5):
            e = int(batch.episodes[i])
            assert e % 5 == i and int(batch.deal_seeds[i]) == stream[e]
    assert max(batch.episodes) >= 10


def test_random_seats_vary_and_fixed_seats_hold() -> None:
    batch = Batch(64, bp.Rules(), opponent="greedy", seat="random", seed=1)
    seats = batch.observers
    assert set(seats.tolist()) == {0, 1}
    assert seats.tolist() == [documented_seat(int(d)) for d in batch.deal_seeds]
    for seat in (0, 1):
        fixed = Batch(8, bp.Rules(first="coin"), opponent="greedy", seat=seat, seed=1)
        assert fixed.observers.tolist() == [seat] * 8
        assert (fixed.current_player == seat).all()


def test_self_play_observes_the_seat_to_act() -> None:
    batch = Batch(6, bp.Rules(first="coin"), opponent="self", seed=4)
    starters = [bp.Game.new(bp.Rules(first="coin"), seed=int(d)).current_player for d in batch.deal_seeds]
    assert batch.observers.tolist() == batch.current_player.tolist() == starters
    assert set(starters) == {0, 1}


def test_the_index_space_and_layout_are_the_single_envs() -> None:
    assert (bp_batch.NUM_ACTIONS, bp_batch.OBSERVATION_SIZE) == (bpz.NUM_ACTIONS, bpz.OBSERVATION_SIZE)
    assert Batch(1, seed=0).observe().shape == (1, sum(length for _, length in bpz.observation_layout()))


def test_a_placement_of_a_card_held_twice_is_legal_from_both_slots() -> None:
    """Equal cards in two hand slots are the same action: either index plays it."""
    rules = bp.Rules(armies=("A", "B"), decks=(["Archers 1"] * 6 + ["Knights 2"] * 3, ["Pikemen 2"] * 9))
    batch = Batch(2, rules, opponent="random", seat=0, seed=5)
    mask = batch.legal_action_mask()
    assert mask[:, 0:36].reshape(2, 6, 6).any(axis=2).sum(axis=1).tolist() == [6, 6]  # every slot holds a placeable card
    first, last = batch.game(0).hand(0)[0], batch.game(0).hand(0)[5]
    assert first == last
    result = batch.step(np.array([5 * 6 + 2, 0 * 6 + 2]))  # slot 5 in game 0, slot 0 in game 1: column 2
    assert not result.illegal.any()
    assert batch.game(0).history[0] == bp.Place(first, 2)


def test_an_episode_longer_than_the_record_cannot_be_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bp_batch, "HISTORY", 6)
    batch = Batch(2, bp.Rules(max_turns=1000), opponent="self", seed=2)
    rng = np.random.default_rng(0)
    for _ in range(4):
        masks = batch.legal_action_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    batch.game(0)  # 4 actions fit
    for _ in range(3):
        masks = batch.legal_action_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    with pytest.raises(InvalidArgumentError, match="7 actions, more than the 6"):
        batch.game(1)


def test_bad_arguments_are_refused_with_the_value() -> None:
    batch = Batch(3, seed=1)
    before = batch.observe().copy()
    with pytest.raises(IllegalActionError, match="game 1 got 117"):
        batch.step(np.array([0, 117, 2]))
    with pytest.raises(IllegalActionError, match="-1"):
        batch.step([-1, 0, 0])
    with pytest.raises(InvalidArgumentError, match=r"shape \(3,\).*\(2,\)"):
        batch.step(np.array([1, 2]))
    with pytest.raises(OrdonnanceTypeError, match="float64"):
        batch.step(np.array([1.0, 2.0, 3.0]))
    assert np.array_equal(batch.observe(), before)  # nothing was stepped
    with pytest.raises(OrdonnanceTypeError, match="rules must be a.*Rules, got <object"):
        Batch(2, object())  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="games must be 1..*, got 0"):
        Batch(0)
    with pytest.raises(InvalidSeatError, match="got 2"):
        Batch(2, opponent="random", seat=2)
    with pytest.raises(InvalidArgumentError, match="'bogus'"):
        Batch(2, opponent="bogus")  # type: ignore[arg-type]
    with pytest.raises(InvalidSeedError, match="-4"):
        Batch(2, seed=-4)
    with pytest.raises(InvalidArgumentError, match="0..2, got 3"):
        batch.game(3)
    with pytest.raises(InvalidArgumentError, match="uint8"):
        Batch(2, observe="uint8")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        batch.observe(np.uint8)  # type: ignore[arg-type]


def test_observations_computed_in_the_step_equal_those_computed_apart() -> None:
    rules = VARIANTS["burgundian-english-coin"]
    fused = Batch(8, rules, opponent="greedy", seat="random", seed=8)
    apart = Batch(8, rules, opponent="greedy", seat="random", seed=8, observe=None)
    rng = np.random.default_rng(2)
    for _ in range(40):
        assert np.array_equal(fused.legal_action_mask(), apart.legal_action_mask())
        assert np.array_equal(fused.observe(), apart.observe())
        masks = fused.legal_action_mask()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        fused.step(actions)
        apart.step(actions)


def test_a_batch_pickles_mid_episode_and_steps_on_alike() -> None:
    batch = Batch(4, bp.Rules(first="coin"), opponent="greedy", seat="random", seed=9)
    rng = np.random.default_rng(1)
    for _ in range(5):
        masks = batch.legal_action_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]))
    copy = pickle.loads(pickle.dumps(batch))
    for _ in range(30):
        masks = batch.legal_action_mask()
        assert np.array_equal(masks, copy.legal_action_mask())
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        a, b = batch.step(actions), copy.step(actions)
        assert np.array_equal(a.rewards, b.rewards) and np.array_equal(batch.observe(), copy.observe())


# ------------------------------------------------------------------ the Gymnasium vector environment

VECTOR_CASES = [("english-french", "random", "box"), ("scottish-burgundian-coin", "greedy", "dict"),
                ("small-decks-coin", "self", "box")]  # fmt: skip


@pytest.mark.parametrize("name, opponent, observation", VECTOR_CASES)
def test_every_vector_env_agrees_with_its_game(name: str, opponent: str, observation: str) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.vector import AutoresetMode

    rules = VARIANTS[name]
    envs = GAMES // 2 if JIT else 3
    env = bpz.VectorEnv(envs, rules, opponent=opponent, seat="random", observation=observation)  # type: ignore[arg-type]
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=9)
    assert info == {} and env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    ended_before = np.zeros(envs, bool)
    episodes = 0
    for _ in range(STEPS if JIT else 40):
        masks = env.action_masks().copy()
        vectors = obs["observation"] if observation == "dict" else obs
        for i in range(envs):
            game = env.game(i)
            seat = game.current_player if opponent == "self" else documented_seat(game.seed)
            assert np.array_equal(vectors[i], bpz.encode_view(game.view(seat)))
            expected = bpz.action_mask(game.view(game.current_player)).astype(bool)
            assert np.array_equal(masks[i], expected)
            if observation == "dict":
                assert np.array_equal(obs["action_mask"][i], expected.astype(np.int8))
            if opponent != "self" and not game.is_over:
                assert game.current_player == seat  # the kernel bot has played up to the learner
        actors = [env.game(i).current_player for i in range(envs)]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert env.observation_space.contains(obs)
        assert not truncations.any() and not infos["illegal_action"].any()
        for i in range(envs):
            game = env.game(i)
            if ended_before[i]:  # next-step autoreset: a fresh episode, the action ignored
                assert not terminations[i] and rewards[i] == 0
                continue
            assert terminations[i] == game.is_over
            seat = actors[i] if opponent == "self" else documented_seat(game.seed)
            expected_reward = 0.0
            if game.is_over:
                episodes += 1
                assert infos["_winner"][i] and infos["winner"][i] == (-1 if game.winner is None else game.winner)
                assert infos["scores"][i].tolist() == list(game.scores)
                if game.winner is not None:
                    expected_reward = 1.0 if game.winner == seat else -1.0
            elif "_winner" in infos:
                assert not infos["_winner"][i] and infos["winner"][i] == -1 and not infos["scores"][i].any()
            assert rewards[i] == expected_reward
        ended_before = terminations.copy()
    assert episodes >= 1


def test_an_illegal_action_ends_a_vector_envs_episode() -> None:
    pytest.importorskip("gymnasium")
    env = bpz.VectorEnv(3, opponent="greedy", illegal_reward=-2.5)
    env.reset(seed=4)
    masks = env.action_masks()
    before = [env.game(i) for i in range(3)]
    illegal = int(np.flatnonzero(~masks[1])[0])
    _, rewards, terminations, _, infos = env.step(np.array([masks[0].argmax(), illegal, masks[2].argmax()]))
    assert infos["illegal_action"].tolist() == [False, True, False]
    assert rewards[1] == -2.5 and terminations[1] and not terminations[[0, 2]].any()
    assert env.game(1) == before[1]  # the illegal action changed nothing
    env.step(np.zeros(3, np.int64))  # the next step deals env 1 again, its action not read
    assert env.batch.episodes[1] == 4 and env.game(1).history == ()


def test_make_vec_builds_the_vector_env() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    envs = gymnasium.make_vec("ordonnance/BlackPrince-v0", num_envs=3, vectorization_mode="vector_entry_point",
                              opponent="greedy", seat=1)  # fmt: skip
    assert isinstance(envs, bpz.VectorEnv) and envs.num_envs == 3
    obs, _ = envs.reset(seed=2)
    assert obs.shape == (3, bpz.OBSERVATION_SIZE) and (envs.batch.observers == 1).all()
    assert envs.single_observation_space == bpz.SingleAgentEnv(observation="box").observation_space


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_an_episode_of_the_vector_env_is_the_single_envs_of_its_deal(opponent: str) -> None:
    """The same deal, seat and opponent moves: a policy sees the same episode in either env."""
    pytest.importorskip("gymnasium")
    rng = np.random.default_rng(5)
    for seed in (21, 22, 23):
        vector = bpz.VectorEnv(1, VARIANTS["scottish-burgundian-coin"], opponent=opponent, seat="random")  # type: ignore[arg-type]
        obs, _ = vector.reset(seed=seed)
        single = bpz.SingleAgentEnv(opponent, seat="random", rules=vector.rules, observation="box")
        expected, _ = single.reset(seed=int(vector.batch.deal_seeds[0]))
        assert single.seat == vector.batch.observers[0]
        terminated = False
        while not terminated:
            assert np.array_equal(obs[0], expected)
            assert np.array_equal(vector.action_masks()[0], single.action_masks())
            action = rng.choice(np.flatnonzero(single.action_masks()))
            obs, rewards, terms, _, _ = vector.step(np.array([action]))
            expected, reward, terminated, _, _ = single.step(int(action))
            assert rewards[0] == reward and terms[0] == terminated


def test_the_vector_env_pickles_built_reset_and_mid_episode() -> None:
    pytest.importorskip("gymnasium")
    env = bpz.VectorEnv(4, opponent="greedy", seat="random", observation="dict")
    pickle.loads(pickle.dumps(env))  # built
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(6):
        masks = env.action_masks()
        env.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]))
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(30):
        masks = env.action_masks()
        assert np.array_equal(masks, copy.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        a, b = env.step(actions), copy.step(actions)
        assert np.array_equal(a[0]["observation"], b[0]["observation"]) and np.array_equal(a[1], b[1])
        assert np.array_equal(a[2], b[2])
