"""The numba simulator against the engine: same games, action for action."""

from __future__ import annotations

import itertools
import os
from typing import Any

import numba
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Rules
from ordonnance import _simulator_kernel as kernel
from ordonnance.core.stats import wilson
from ordonnance.core.summary import Summary
from ordonnance.simulation import bot_seeds, game_seeds

from . import naive

VARIANTS = [
    Rules(players=players, scoring=scoring, tie_break=tie_break, claim_proof=proof, auto_claim=auto)
    for players, scoring, tie_break, proof, auto in itertools.product(
        (2, 3, 4), ("territories", "points"), ("latest_capture", "lowest_marker_sum"),
        ("public", "private"), (False, True),
    )  # fmt: skip
    if scoring == "territories" or (proof == "public" and not auto)
]
IDS = [f"{r.players}p-{r.scoring}-{r.tie_break}-{r.claim_proof}-{'auto' if r.auto_claim else 'manual'}" for r in VARIANTS]
JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
REPLAYS = 100 if JIT else 10  # per variant: 3,200 games in all with the JIT
LINEUPS = ["random", "greedy", "mixed"]


def _bots(lineup: str, players: int) -> list[od.bots.Bot]:
    if lineup == "random":
        return [od.bots.Random(seed=seat) for seat in range(players)]
    if lineup == "greedy":
        return [od.bots.Greedy(seed=seat) for seat in range(players)]
    return [od.bots.Greedy(seed=7) if seat % 2 else od.bots.Random(seed=7) for seat in range(players)]


def _owners(game: od.Game) -> list[int]:
    return [-1 if (o := game.territory_owner(t)) is None else o for t in od.Territory]


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_every_simulated_game_replays_through_the_engine(rules: Rules) -> None:
    for lineup in LINEUPS:
        res = od.simulate(rules, games=REPLAYS // len(LINEUPS) + 1, seed=11, players=_bots(lineup, rules.players), record=True)
        for i in range(len(res)):
            game = res.replay(i)
            assert game.is_over
            assert _owners(game) == res.owners[i].tolist()
            assert [game.marker(t) or 0 for t in od.Territory] == res.markers[i].tolist()
            assert list(game.scores) == res.scores[i].tolist()
            assert (-1 if game.winner is None else game.winner) == res.winner[i]


@pytest.mark.parametrize("rules", VARIANTS[::3], ids=IDS[::3])
def test_kernel_bots_are_exact_twins_of_the_python_bots(rules: Rules) -> None:
    """Python bots seeded as the simulator seeds them play the very same actions."""
    for lineup in LINEUPS:
        bots = _bots(lineup, rules.players)
        res = od.simulate(rules, games=8, seed=5, players=bots, record=True)
        for i in range(len(res)):
            game = od.Game.new(rules, seed=int(res.seeds[i]))
            assert played_by_twins(game, bots, res.bot_seeds[i]) == list(res.record(i)[1])


def played_by_twins(game: od.Game, bots: Any, bot_seeds: Any) -> list[tuple[int, Any]]:
    """``(seat, action)`` of each decision of ``game`` played to its end by fresh twins of ``bots``,
    seat ``p``'s seeded ``bot_seeds[p]`` (as the simulator seeds its kernel bots)."""
    twins = [type(bot)(seed=int(bot_seeds[seat])) for seat, bot in enumerate(bots)]
    played = []
    while not game.is_over:
        seat = game.current_player
        action = twins[seat].choose(game.view(seat))
        game.apply(action)
        played.append((seat, action))
    return played


CUSTOM_DECKS = [
    ("L", 40),  # every card alike: all ties, the first to complete wins
    ("LBSHF", 20 * 3),
    ("L B S H F LB SH", 20 * 4 + 3),
    ("LB SF H", 21 * 2),
]


OUTPUTS = ("winner", "owners", "markers", "scores", "actions", "decisions", "rounds")


def _general_and_by_player(rules: Rules, games: int, seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Random games for every seat played by the general kernel and by the player-by-player one."""
    seeds = game_seeds(seed, games)
    per_game = bot_seeds(seeds, list(range(rules.players)))
    policies = np.zeros(rules.players, np.int64)  # Random everywhere
    out = []
    for by_player in (False, True):
        arrays = od.simulation._Outputs(games, rules, record=True)
        od.simulation._run_kernel(rules, seeds, per_game, policies, arrays, by_player=by_player)
        out.append([getattr(arrays, name) for name in OUTPUTS])
    return out[0], out[1]


@pytest.mark.parametrize("rules", [r for r in VARIANTS if not r.auto_claim], ids=[i for r, i in zip(VARIANTS, IDS) if not r.auto_claim])
def test_player_by_player_kernel_equals_the_general_kernel(rules: Rules) -> None:
    """Random games without automatic claims are played one player at a time (simulate_random);
    the general kernel, itself held to Game above, must agree on every array, actions included."""
    general, by_player = _general_and_by_player(rules, 3000 if JIT else 30, seed=rules.players)
    for a, b in zip(general, by_player):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("deck, size", CUSTOM_DECKS)
def test_player_by_player_kernel_with_small_and_odd_decks(deck: str, size: int) -> None:
    cards = (deck.split() * size)[:size]
    for players in (2, 3, 4):
        if size < 20 * players:
            continue
        for scoring in ("territories", "points"):
            rules = Rules(players=players, deck=cards, scoring=scoring)
            general, by_player = _general_and_by_player(rules, 300 if JIT else 10, seed=7)
            for a, b in zip(general, by_player):
                assert np.array_equal(a, b)


@settings(max_examples=200 if JIT else 30, deadline=None)
@given(size=st.integers(0, 300), seed=st.integers(0, 2**64 - 1))
@example(size=65, seed=0)  # the draws are made SHUFFLE_DRAWS (64) at a time: a second batch of one
@example(size=130, seed=2**64 - 1)
def test_kernel_shuffle_is_the_published_fisher_yates(size: int, seed: int) -> None:
    """The kernel's shuffle (draws made in vectorised batches) against Fisher-Yates from the end on
    SplitMix64 written out with the reference generator, for decks of any size."""
    expected = list(range(100, 100 + size))
    naive.fisher_yates(expected, seed)
    order = np.empty(size, np.int64)
    with np.errstate(over="ignore"):
        kernel._shuffle(np.arange(100, 100 + size, dtype=np.int64), np.uint64(seed), order, np.empty(kernel.SHUFFLE_DRAWS, np.int64))
    assert order.tolist() == expected


@numba.njit(cache=False)
def _bit_counts(values: np.ndarray, out: np.ndarray) -> None:
    for i in range(values.shape[0]):
        out[i] = kernel.bit_count(values[i])


def test_bit_count_counts_set_bits() -> None:
    """The kernel's popcount (compiled: llvm.ctpop) against int.bit_count: every 16-bit value, and wide ones."""
    values = np.concatenate([np.arange(2**16), [2**62 - 1, 2**40 + 2**33 + 1, 2**63 - 1]]).astype(np.int64)
    out = np.empty_like(values)
    _bit_counts(values, out)
    assert out.tolist() == [int(v).bit_count() for v in values.tolist()]


def test_python_driven_bots_give_the_same_results_as_the_kernel() -> None:
    class Wrapped:
        """Not a built-in bot, so simulate drives it through Game in Python."""

        def __init__(self, inner: od.bots.Greedy) -> None:
            self.inner = inner
            self.seed = inner.seed

        def choose(self, view: od.PlayerView) -> od.Action:
            return self.inner.choose(view)

    rules = Rules(players=3, auto_claim=True)
    kernel = od.simulate(rules, games=20, seed=3, players=[od.bots.Greedy(seed=s) for s in range(3)], record=True)
    wrapped = [Wrapped(od.bots.Greedy(seed=s)) for s in range(3)]
    python = od.simulate(rules, games=20, seed=3, players=wrapped, record=True)  # type: ignore[list-item]
    # The wrapped bots keep their own generators, so the games differ; each still replays.
    for i in range(20):
        assert python.replay(i).winner == (None if python.winner[i] < 0 else python.winner[i])
    assert kernel.seeds.tolist() == python.seeds.tolist()


def test_seeds_are_reproducible_and_documented() -> None:
    a = od.simulate(Rules(), games=500, seed=42)
    b = od.simulate(Rules(), games=500, seed=42)
    assert np.array_equal(a.winner, b.winner) and np.array_equal(a.owners, b.owners)
    assert not np.array_equal(a.owners, od.simulate(Rules(), games=500, seed=43).owners)
    state, expected = 42, []
    for _ in range(3):
        state, value = od.core.rng.splitmix64(state)
        expected.append(value)
    assert game_seeds(42, 3).tolist() == expected == a.seeds[:3].tolist()
    assert a.bot_seeds.shape == (500, 2)
    assert np.array_equal(bot_seeds(a.seeds, [0, 1]), a.bot_seeds)


def test_summary_is_consistent_with_the_arrays() -> None:
    res = od.simulate(Rules(players=3), games=3000, seed=1)
    summary = res.summary()
    assert summary.games == 3000
    assert sum(summary.win_rate) + summary.draw_rate == pytest.approx(1.0)
    for rate, (low, high) in zip(summary.win_rate, summary.win_rate_ci):
        assert low <= rate <= high and high - low < 0.05
    assert summary.first_player_advantage == pytest.approx(summary.win_rate[0] - 1 / 3)
    for t in od.Territory:
        assert sum(summary.territory_frequency[t]) == pytest.approx(float(np.mean(res.owners[:, t] >= 0)))
    assert (res.markers > 0).sum(axis=1).tolist() == (res.owners >= 0).sum(axis=1).tolist()
    text = str(summary)
    assert "3,000 games" in text and "first-player advantage" in text and "Tripoli" in text


def _engine_length(rules: Rules, seed: int, steps: tuple[tuple[int, od.Action], ...]) -> tuple[int, int]:
    """The decisions and rounds of a recorded game, counted as it replays through Game: a turn
    ends with a play, a pass, or when the turn passes to another seat or the game ends; a round
    begins with each turn whose seat is not after the seat of the turn before (and the first)."""
    game = od.Game.new(rules, seed=seed)
    turn_seats: list[int] = []
    new_turn = True
    for seat, action in steps:
        assert game.current_player == seat
        if new_turn:
            turn_seats.append(seat)
        game.apply(action)
        new_turn = isinstance(action, (od.Play, od.Pass)) or game.is_over or game.current_player != seat
    assert game.is_over
    rounds = sum(1 for i, seat in enumerate(turn_seats) if i == 0 or seat <= turn_seats[i - 1])
    return len(steps), rounds


@pytest.mark.parametrize("rules", VARIANTS[::2], ids=IDS[::2])
def test_decisions_and_rounds_are_those_of_the_games_replayed(rules: Rules) -> None:
    """The kernels count each game's decisions and rounds as the engine plays them, recorded or
    not; the rounds are not trivially 20 where claims end games early."""
    lengths = []
    for lineup in LINEUPS:
        bots = _bots(lineup, rules.players)
        res = od.simulate(rules, games=REPLAYS // len(LINEUPS) + 1, seed=13, players=bots, record=True)
        unrecorded = od.simulate(rules, games=len(res), seed=13, players=bots)
        assert np.array_equal(res.decisions, unrecorded.decisions) and np.array_equal(res.rounds, unrecorded.rounds)
        assert np.array_equal(res.action_counts, res.decisions)  # type: ignore[arg-type]
        for i in range(len(res)):
            expected = _engine_length(rules, int(res.seeds[i]), res.record(i)[1])
            assert (int(res.decisions[i]), int(res.rounds[i])) == expected, f"{lineup} game {i}"
            lengths.append(expected)
    if not rules.claims_allowed:
        assert all(rounds == 20 for _, rounds in lengths)
    elif JIT:  # enough games that Greedy's claims shorten some
        assert any(rounds < 20 for _, rounds in lengths)


class _Custom(od.bots.Greedy):
    """A Greedy the kernel does not know: simulate drives it through Game in Python (seeded alike)."""


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, auto_claim=True), Rules(players=4, scoring="points")], ids=str)
def test_the_python_road_fills_every_array_as_the_kernel_does(rules: Rules) -> None:
    kernel_bots = [(od.bots.Greedy if seat % 2 else od.bots.Random)(seed=seat) for seat in range(rules.players)]
    python_bots = [(_Custom if seat % 2 else od.bots.Random)(seed=seat) for seat in range(rules.players)]
    games = 30 if JIT else 6
    for record in (False, True):
        fast = od.simulate(rules, games=games, seed=21, players=kernel_bots, record=record)
        slow = od.simulate(rules, games=games, seed=21, players=python_bots, record=record)
        for name in ("seeds", "bot_seeds", "winner", "owners", "markers", "scores", "decisions", "rounds", "actions", "action_counts"):
            a, b = getattr(fast, name), getattr(slow, name)
            assert (a is None and b is None) if not record and name in ("actions", "action_counts") else np.array_equal(a, b), name


def test_rounds_of_a_python_game_follow_the_turns() -> None:
    """A claim keeps the turn; a seat that acts again after its play starts a new round."""
    play, claim = od.Play(od.Card.parse("LS"), od.Territory.CYPRUS), od.Claim(od.Territory.CYPRUS)
    steps = [(0, play), (1, play), (1, play), (0, claim), (0, play), (1, claim), (0, play), (1, od.Pass())]
    # rounds begin at steps 0, 2 (seat 1 again after its play), 3 (seat 0) and 6 (seat 0)
    assert od.simulation._rounds(steps) == 4
    assert od.simulation._rounds([]) == 0


def test_summary_figures_are_a_hand_count_of_the_replayed_games() -> None:
    """Every figure of the summary, from the games replayed through Game and counted one by one."""
    rules = Rules(players=3, auto_claim=True)
    games = 150 if JIT else 30
    res = od.simulate(rules, games=games, seed=8, players=_bots("mixed", 3), record=True)
    won, nobody, decisions, rounds = [0, 0, 0], 0, 0, 0
    territories = [[0] * 3 for _ in od.Territory]
    for i in range(games):
        game = res.replay(i)
        if game.winner is None:
            nobody += 1
        else:
            won[game.winner] += 1
        for t in od.Territory:
            if (owner := game.territory_owner(t)) is not None:
                territories[t][owner] += 1
        length = _engine_length(rules, int(res.seeds[i]), res.record(i)[1])
        decisions += length[0]
        rounds += length[1]
    summary = res.summary()
    assert isinstance(summary, od.Summary) and isinstance(summary, Summary)
    assert (summary.games, summary.players) == (games, 3)
    assert summary.win_rate == pytest.approx([w / games for w in won])
    assert summary.win_rate_ci == tuple(wilson(w, games) for w in won)
    assert summary.draw_rate == pytest.approx(nobody / games)
    assert summary.first_player_advantage == pytest.approx(won[0] / games - 1 / 3)
    low, high = wilson(won[0], games)
    assert summary.first_player_advantage_ci == pytest.approx((low - 1 / 3, high - 1 / 3))
    assert summary.mean_decisions == pytest.approx(decisions / games) and summary.mean_rounds == pytest.approx(rounds / games)
    assert summary.territory_frequency == tuple(tuple(c / games for c in row) for row in territories)
    assert 19 < summary.mean_rounds < 20 and summary.mean_decisions > 40  # claims shorten some games


def test_bad_arguments() -> None:
    with pytest.raises(od.InvalidRulesError, match="games must be a non-negative int, got -1"):
        od.simulate(Rules(), games=-1)
    with pytest.raises(od.OrdonnanceTypeError, match="record must be a bool, got 1"):
        od.simulate(Rules(), games=1, record=1)  # type: ignore[arg-type]
    with pytest.raises(od.InvalidRulesError, match="seed"):
        od.simulate(Rules(), games=1, seed=-5)
    with pytest.raises(od.InvalidRulesError, match="2 bots"):
        od.simulate(Rules(), games=1, players=[od.bots.Random()])
    with pytest.raises(TypeError, match="choose"):
        od.simulate(Rules(), games=1, players=[od.bots.Random(), "greedy"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="Rules"):
        od.simulate("rules", games=1)  # type: ignore[arg-type]
    res = od.simulate(Rules(), games=3)
    with pytest.raises(od.InvalidRulesError, match="record=True"):
        res.replay(0)
    recorded = od.simulate(Rules(), games=3, record=True)
    with pytest.raises(od.InvalidRulesError, match="0..2, got 3"):
        recorded.replay(3)
    assert len(od.simulate(Rules(), games=0)) == 0


# The own seeds of the seats that the old mix (own ^ game * C ^ seat) let cancel,
# and other patterns a user might pick.
SEED_PATTERNS = {
    "default (seed = seat)": [0, 1, 2, 3],
    "all equal": [7, 7, 7, 7],
    "seat xor a constant": [5 ^ 0, 5 ^ 1, 5 ^ 2, 5 ^ 3],
    "all zero": [0, 0, 0, 0],
    "extremes": [0, 2**64 - 1, 1, 2**63],
    "one apart": [2**64 - 2, 2**64 - 1, 0, 1],
}


@pytest.mark.parametrize("pattern", SEED_PATTERNS, ids=list(SEED_PATTERNS))
def test_no_two_seats_or_games_share_a_bot_stream(pattern: str) -> None:
    seeds = game_seeds(99, 50_000 if JIT else 500)
    for players in (2, 3, 4):
        mixed = bot_seeds(seeds, SEED_PATTERNS[pattern][:players])
        assert len(np.unique(mixed)) == mixed.size  # no seat and no game shares a seed
        # ...and the streams do not meet a few steps later either: the first outputs differ too.
        first = np.array([[od.core.rng.splitmix64(int(s))[1] for s in row] for row in mixed[:200]])
        assert len(np.unique(first)) == first.size


@pytest.mark.skipif(not JIT, reason="2 million games need the JIT")
def test_default_seats_play_independent_games() -> None:
    """The default line-up (Random(seed=seat) in every seat) has no first-player
    advantage of its own making: it agrees with independently seeded bots.

    With the old seed mix both seats drew the same stream, picked the same
    territory index every turn and seat 0 won the ties: +0.35%, about five
    standard errors of this difference.
    """
    games = 1_000_000
    default = od.simulate(Rules(), games=games, seed=2026).summary().first_player_advantage
    independent = od.simulate(
        Rules(), games=games, seed=2026, players=[od.bots.Random(seed=0x5DEECE66D), od.bots.Random(seed=2**61 - 1)]
    ).summary().first_player_advantage
    standard_error = (2 * 0.25 / games) ** 0.5
    assert abs(default - independent) < 3.5 * standard_error


def test_simulate_never_changes_the_bots_it_is_given() -> None:
    """Built-in bots play every game as a copy: shared across threads they give the same results."""
    import concurrent.futures as cf

    class Wrapped:
        """A user bot, so the games run through Game in Python."""

        seed = None

        def __init__(self, inner: od.bots.Bot) -> None:
            self.inner = inner

        def choose(self, view: od.PlayerView) -> od.Action:
            return self.inner.choose(view)

    shared = [od.bots.Greedy(seed=3), od.bots.Random(seed=4)]
    before = [(bot.seed, bot._state) for bot in shared]  # type: ignore[attr-defined]
    alone = od.simulate(Rules(), games=6, seed=1, players=[Wrapped(od.bots.Random(seed=9)), shared[0]], record=True)
    with cf.ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(
            lambda _: od.simulate(Rules(), games=6, seed=1, players=[Wrapped(od.bots.Random(seed=9)), shared[0]], record=True),
            range(8),
        ))  # fmt: skip
    assert [(bot.seed, bot._state) for bot in shared] == before  # type: ignore[attr-defined]
    for run in runs:
        assert np.array_equal(run.actions, alone.actions)  # type: ignore[arg-type]


def test_bad_players() -> None:
    with pytest.raises(od.OrdonnanceTypeError, match=r"the class Random, not a bot: did you mean Random\(\)"):
        od.simulate(Rules(), games=1, players=[od.bots.Random, od.bots.Random])  # type: ignore[list-item]
    with pytest.raises(od.OrdonnanceTypeError, match="sequence of 2 bots"):
        od.simulate(Rules(), games=1, players=od.bots.Random())  # type: ignore[arg-type]
    with pytest.raises(od.InvalidRulesError, match="at most 100,000,000 per call.*1000000000000"):
        od.simulate(Rules(), games=10**12)


@pytest.mark.parametrize("seed", [None, "abc", 1.5, -3, 2**70])
def test_user_bots_with_any_seed_attribute_play(seed: object) -> None:
    class Odd:
        def __init__(self) -> None:
            self.seed = seed
            self.inner = od.bots.Random(seed=1)

        def choose(self, view: od.PlayerView) -> od.Action:
            return self.inner.choose(view)

    res = od.simulate(Rules(), games=2, seed=1, players=[Odd(), od.bots.Random(seed=2)])  # type: ignore[list-item]
    assert len(res) == 2


def test_a_failing_bot_in_simulate_is_named_with_its_seat_and_game() -> None:
    class Fails:
        """Raises on the first decision of the third game."""

        seed = 3

        def __init__(self) -> None:
            self.decisions = 0
            self.games = 0

        def choose(self, view: od.PlayerView) -> od.Action:
            if view.plays <= 1 and (view.plays == 0) == (view.seat == 0):
                self.games += 1
            if self.games == 3:
                raise RuntimeError("out of ideas")
            return view.legal_actions[0]

    class Cheats:
        seed = 0

        def choose(self, view: od.PlayerView) -> od.Action:
            return od.Claim(od.Territory.CYPRUS)

    with pytest.raises(od.BotError, match=r"\(seat 1\) failed in game 2 \(deal seed \d+\): RuntimeError: out of ideas") as info:
        od.simulate(Rules(), games=5, seed=1, players=[od.bots.Random(seed=1), Fails()])  # type: ignore[list-item]
    assert info.value.seat == 1 and info.value.game == 2
    assert info.value.deal_seed == int(game_seeds(1, 5)[2])
    with pytest.raises(od.BotError, match=r"\(seat 0\) failed in game 0 .* not legal"):
        od.simulate(Rules(), games=2, seed=1, players=[Cheats(), od.bots.Random(seed=1)])  # type: ignore[list-item]
