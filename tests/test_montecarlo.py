"""The Monte-Carlo bot: legal, reproducible, blind to hidden cards, and strong.

The strength tests are a cheap version of ``benchmarks/bench_bots.py``
(1,000 games there). Without the JIT (``NUMBA_DISABLE_JIT=1``) rollouts run
in pure Python, so the games are cut short and the strength tests skipped.
"""

from __future__ import annotations

import itertools
import types
import math
import os
import random

from typing import Any

import attrs
import numpy as np
import pytest

import ordonnance as od
from ordonnance import Claim, Pass, Play, Rules, Territory
from ordonnance import _montecarlo
from ordonnance.core import clock
from ordonnance import _simulator_kernel as kernel
from ordonnance._bridge import Setup, setup_of
from ordonnance._montecarlo import MonteCarlo, Search

from .positions import position

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
C, J = Territory.CYPRUS, Territory.JERUSALEM

VARIANTS = [
    Rules(players=players, scoring=scoring, tie_break=tie_break, claim_proof=proof, auto_claim=auto)
    for players, scoring, tie_break, proof, auto in itertools.product(
        (2, 3, 4), ("territories", "points"), ("latest_capture", "lowest_marker_sum"),
        ("public", "private"), (False, True),
    )  # fmt: skip
    if scoring == "territories" or (proof == "public" and not auto)
]
IDS = [f"{r.players}p-{r.scoring}-{r.tie_break}-{r.claim_proof}-{'auto' if r.auto_claim else 'manual'}" for r in VARIANTS]


def _advance(game: od.Game, plays: int, seed: int = 0) -> od.Game:
    """Play ``plays`` greedy actions (a mid-game position with shorter rollouts)."""
    bots = [od.bots.Greedy(seed=seed + seat) for seat in range(game.players)]
    for _ in range(plays):
        if game.is_over:
            break
        seat = game.current_player
        game.apply(bots[seat].choose(game.view(seat)))
    return game


# --- legality, every variant -----------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_plays_only_legal_actions_in_every_variant(rules: Rules) -> None:
    """Seat 0 is MonteCarlo, the others Greedy; Game.apply refuses any illegal action."""
    game = od.Game.new(rules, seed=3)
    bots: list[od.bots.Bot] = [MonteCarlo(seed=1, rollouts=48)]
    bots += [od.bots.Greedy(seed=seat) for seat in range(1, rules.players)]
    if not JIT:
        _advance(game, 8 * rules.players)
    decisions = 0
    while not game.is_over and (JIT or decisions < 2):
        seat = game.current_player
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        game.apply(action)
        decisions += seat == 0
    assert game.is_over or not JIT


def test_claims_and_passes_are_searched_too() -> None:
    game = position({C: ["F F F F", "L"]}, hands=["S", "B"], deck="H", current=0)
    assert game.legal_actions() == [Claim(C), Pass()]
    search = MonteCarlo(seed=0, rollouts=20).search(game.view(0))
    assert search.action == Claim(C)  # never worse than passing here; ties go to the earlier action
    assert search.rollouts == (10, 10) and search.values[0] >= search.values[1]


def test_a_single_legal_action_is_returned_without_rollouts() -> None:
    game = position({C: ["F F F", "L"]}, hands=["S", "B"], deck="H", current=0)
    assert game.legal_actions() == [Play("S", C)]
    search = MonteCarlo(seed=0).search(game.view(0))
    assert search.action == Play("S", C) and search.rollouts == (0,) and math.isnan(search.values[0])


def test_no_legal_action_is_an_error() -> None:
    game = od.Game.new(Rules(), seed=1)
    with pytest.raises(od.IllegalActionError, match="no legal action"):
        MonteCarlo(seed=0).choose(game.view(1))
    with pytest.raises(TypeError, match="PlayerView"):
        MonteCarlo(seed=0).choose(game)  # type: ignore[arg-type]


def test_inconsistent_views_are_refused() -> None:
    view = od.Game.new(Rules(), seed=1).view(0)
    with pytest.raises(od.InvalidGameStateError, match="unseen cards"):
        MonteCarlo(seed=0).choose(attrs.evolve(view, deck_size=view.deck_size + 1))
    with pytest.raises(od.InvalidGameStateError, match="hand sizes"):
        MonteCarlo(seed=0).choose(attrs.evolve(view, hand_sizes=(6, 9)))


# --- reproducibility and information -----------------------------------------------


def test_same_seed_same_choices() -> None:
    game = _advance(od.Game.new(Rules(), seed=5), 10)
    view = game.view(game.current_player)
    a, b = MonteCarlo(seed=42, rollouts=120), MonteCarlo(seed=42, rollouts=120)
    first = [a.search(view) for _ in range(2)]
    second = [b.search(view) for _ in range(2)]
    assert [s.action for s in first] == [s.action for s in second]
    assert [(s.values, s.rollouts) for s in first] == [(s.values, s.rollouts) for s in second]
    assert first[0].values != first[1].values  # each decision draws fresh deals


@pytest.mark.skipif(not JIT, reason="whole games of rollouts are slow without the JIT")
def test_games_between_seeded_bots_replay_exactly() -> None:
    def play() -> list[od.Action]:
        game = od.Game.new(Rules(), seed=8)
        bots: list[od.bots.Bot] = [MonteCarlo(seed=1, rollouts=64), od.bots.Greedy(seed=2)]
        actions: list[od.Action] = []
        while not game.is_over:
            seat = game.current_player
            actions.append(bots[seat].choose(game.view(seat)))
            game.apply(actions[-1])
        return actions

    assert play() == play()


def test_no_peeking_choices_depend_on_the_view_only() -> None:
    """Same table and own hand, different hidden cards: equal views, equal choices."""
    armies = {C: ["F F", "H H"], J: ["S", "L"]}
    a = position(armies, hands=["F H S", "L B"], deck="LB SH F H B S")
    b = position(armies, hands=["F H S", "SH F"], deck="B S LB H L B")
    assert a.view(0) == b.view(0)
    assert a.hand(1) != b.hand(1)
    for rollouts in (30, 200):
        search_a = MonteCarlo(seed=9, rollouts=rollouts).search(a.view(0))
        search_b = MonteCarlo(seed=9, rollouts=rollouts).search(b.view(0))
        assert search_a.action == search_b.action
        assert search_a.values == search_b.values


def test_the_view_hides_what_the_bot_must_not_use() -> None:
    view = od.Game.new(Rules(), seed=2).view(0)
    assert not hasattr(view, "deck") and not hasattr(view, "hands")
    assert sum(view.unseen) == view.deck_size + view.hand_sizes[1]


# --- the search --------------------------------------------------------------------


def test_budget_scales_with_the_cards_left_and_is_clamped() -> None:
    bot = MonteCarlo(seed=0)
    start = od.Game.new(Rules(), seed=1).view(0)
    late = _advance(od.Game.new(Rules(), seed=1), 30).view(0)
    assert bot.budget(start) == 15_000 // (40 + 4)
    assert bot.budget(start) < bot.budget(late) <= 1_000
    assert MonteCarlo(seed=0, rollouts=77).budget(start) == 77
    assert MonteCarlo(seed=0, work=10**9).budget(start) == 1_000
    assert MonteCarlo(seed=0, work=1).budget(start) == 64


def test_search_spends_about_the_budget_by_sequential_halving() -> None:
    view = od.Game.new(Rules(), seed=4).view(0)
    search = MonteCarlo(seed=0, rollouts=600).search(view)
    assert isinstance(search, Search)
    assert search.actions == view.legal_actions and search.action in view.legal_actions
    assert 0.5 * 600 <= sum(search.rollouts) <= 600
    best = search.actions.index(search.action)
    assert search.rollouts[best] == max(search.rollouts)  # the winner survived every round
    assert all(0 <= v <= 1.1 for v in search.values if not math.isnan(v))
    text = str(search)
    assert text.startswith(f"{sum(search.rollouts):,} rollouts") and f"* {search.action}" in text


def test_a_time_limit_stops_early() -> None:
    view = od.Game.new(Rules(), seed=4).view(0)
    search = MonteCarlo(seed=0, rollouts=3000, time_limit=1e-9).search(view)
    assert search.action in view.legal_actions
    assert sum(search.rollouts) == len(view.legal_actions)  # one rollout each in the first round, no more


def test_a_time_limit_shares_rounds_out_and_spends_the_rollouts_of_an_untimed_search() -> None:
    """Chunked rounds play the same rollouts as whole rounds: with time to spare, a timed
    search is the untimed one; a round cut short keeps the rollouts it played."""
    view = od.Game.new(Rules(), seed=4).view(0)
    untimed = MonteCarlo(seed=3, rollouts=400).search(view)
    timed = MonteCarlo(seed=3, rollouts=400, time_limit=3600).search(view)
    assert (timed.action, timed.values, timed.rollouts) == (untimed.action, untimed.values, untimed.rollouts)


def test_the_deprecated_time_budget_is_the_time_limit() -> None:
    view = od.Game.new(Rules(), seed=4).view(0)
    with pytest.warns(DeprecationWarning, match=r"MonteCarlo\(time_budget=\) is deprecated: use time_limit="):
        old = MonteCarlo(seed=3, rollouts=400, time_budget=3600)
    assert old.time_limit == 3600.0 and repr(old) == "bots.MonteCarlo(seed=3, rollouts=400, time_limit=3600.0)"
    with pytest.warns(DeprecationWarning, match="time_budget is deprecated"):
        assert old.time_budget == 3600.0
    assert old.search(view).values == MonteCarlo(seed=3, rollouts=400).search(view).values
    with pytest.raises(od.OrdonnanceError, match="not both"):
        MonteCarlo(time_limit=1, time_budget=1)


def test_without_a_fixed_budget_the_time_limit_decides() -> None:
    start = od.Game.new(Rules(), seed=1).view(0)
    assert MonteCarlo(seed=0, time_limit=0.05).budget(start) == _montecarlo.MAX_ROLLOUTS
    assert MonteCarlo(seed=0, time_limit=0.05, rollouts=77).budget(start) == 77
    assert MonteCarlo(seed=0, time_limit=0.05, work=15_000).budget(start) == MonteCarlo(seed=0).budget(start)


def test_a_time_limit_is_planned_by_the_speed_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    """With rollouts that take 10 us each on a fake clock, a 50 ms search spends about 97% of
    it (4,850 rollouts) in chunks, each round numbering its rollouts on from the last chunk."""
    now = [0.0]
    calls: list[tuple[int, int, int]] = []

    def run(setup: Setup, acts: Any, active: Any, first: int, per_action: int, seed: Any, margin_weight: float,
            sums: Any, counts: Any) -> None:
        calls.append((int(seed), first, per_action))
        counts[active] += per_action
        sums[active] += per_action * (active == 2)  # action 2 wins every rollout
        now[0] += per_action * len(active) * 1e-5

    monkeypatch.setattr(clock, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(_montecarlo, "_run", run)
    view = od.Game.new(Rules(), seed=4).view(0)
    bot = MonteCarlo(seed=3, rollouts=10**6, time_limit=0.05)
    bot.warm_up(view)  # the warm-up's rollouts (if this process has not searched yet) are not the decision's
    calls.clear()
    search = bot.search(view)
    assert search.action == view.legal_actions[2]
    assert 0.9 * 4850 <= sum(search.rollouts) <= 4850 and search.seconds <= 0.97 * 0.05
    rounds = math.ceil(math.log2(len(view.legal_actions)))
    assert len({seed for seed, _, _ in calls}) == rounds and len(calls) > 2 * rounds
    for previous, call in zip(calls, calls[1:]):  # a round's chunks continue its numbering
        assert call[1] == (previous[1] + previous[2] if call[0] == previous[0] else 0)


def test_random_rollouts_are_available() -> None:
    view = od.Game.new(Rules(), seed=4).view(0)
    assert MonteCarlo(seed=0, rollouts=40, rollout_policy="random").choose(view) in view.legal_actions


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"rollouts": 0}, "rollouts must be a positive int"),
        ({"work": True}, "work must be a positive int"),
        ({"rollouts": 10**30}, "rollouts must be a positive int of at most 1,000,000, got 1" + "0" * 30),
        ({"max_rollouts": 2**40}, "max_rollouts must be a positive int of at most 1,000,000"),
        ({"min_rollouts": 10**7}, "min_rollouts must be a positive int of at most 1,000,000"),
        ({"work": 10**13}, "work must be a positive int of at most 1,000,000,000,000"),
        ({"min_rollouts": 10, "max_rollouts": 5}, "must not exceed"),
        ({"time_budget": 0}, "time_budget must be a positive number of seconds or None, got 0"),
        ({"time_limit": 0}, "time_limit must be a positive number of seconds or None, got 0"),
        ({"time_limit": math.inf}, "time_limit must be a positive number of seconds or None, got inf"),
        ({"time_limit": "1"}, "time_limit"),
        ({"rollout_policy": "smart"}, "rollout_policy"),
        ({"margin_weight": 2}, "margin_weight"),
    ],
)
def test_bad_parameters(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        MonteCarlo(**kwargs)  # type: ignore[arg-type]


def test_repr_and_seed() -> None:
    assert repr(MonteCarlo(seed=5)) == "bots.MonteCarlo(seed=5)"
    every = MonteCarlo(seed=5, rollouts=9, work=800, min_rollouts=2, max_rollouts=90, time_limit=0.5,
                       rollout_policy="random", margin_weight=0.0)  # fmt: skip
    assert repr(every) == ("bots.MonteCarlo(seed=5, rollouts=9, work=800, min_rollouts=2, max_rollouts=90, time_limit=0.5, "
                           "rollout_policy='random', margin_weight=0.0)")  # fmt: skip
    assert repr(eval(repr(every), {"bots": od.bots})) == repr(every)
    assert isinstance(MonteCarlo().seed, int)
    assert isinstance(MonteCarlo(seed=0), od.bots.Bot)


# --- strength (cheap version of benchmarks/bench_bots.py) ----------------------------


def match(opponent: type[od.bots.Random] | type[od.bots.Greedy], games: int, seed: int = 0) -> float:
    """MonteCarlo's win rate against ``opponent`` over ``games``, seats alternating."""
    wins = 0
    for g in range(games):
        seat = g % 2
        bots: list[od.bots.Bot] = [opponent(seed=seed + g), opponent(seed=seed + g)]
        bots[seat] = MonteCarlo(seed=seed + g)
        game = od.Game.new(Rules(), seed=seed + 10_000 + g)
        while not game.is_over:
            p = game.current_player
            game.apply(bots[p].choose(game.view(p)))
        wins += game.winner == seat
    return wins / games


@pytest.mark.skipif(not JIT, reason="needs the JIT")
def test_beats_greedy() -> None:
    assert match(od.bots.Greedy, 60) > 0.55


@pytest.mark.skipif(not JIT, reason="needs the JIT")
def test_beats_random() -> None:
    assert match(od.bots.Random, 40) > 0.85


PUBLIC_FIELDS = {
    "OPEN": (kernel.OPEN, kernel.SEATS),
    "ARMY_AT": (kernel.ARMY_AT, kernel.TERRITORIES * kernel.SEATS),
    "ARMY_LEN": (kernel.ARMY_LEN, kernel.TERRITORIES * kernel.SEATS),
    "COMPLETED": (kernel.COMPLETED, kernel.TERRITORIES * kernel.SEATS),
    "OWNER": (kernel.OWNER, kernel.TERRITORIES),
    "MARKER": (kernel.MARKER, kernel.TERRITORIES),
    "HAND_LEN": (kernel.HAND_LEN, kernel.SEATS),
    "HIDDEN": (kernel.HIDDEN, 32),
    "PLAYS": (kernel.PLAYS, 1),
    "DECIDED": (kernel.DECIDED, 1),
    "CURRENT": (kernel.CURRENT, 1),
    "PASSED": (kernel.PASSED, 1),
    "CONTESTED": (kernel.CONTESTED, 1),
}


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(players=4, claim_proof="private")], ids=repr)
def test_the_search_starts_from_the_kernel_state_of_the_view(rules: Rules) -> None:
    """The state the searches start from, built from a view, agrees field by field with
    the state the kernel itself reached by playing the game (passes included), as far
    as the view shows it; the seat's own hand is its own."""
    from ordonnance.batch import Batch

    rng = random.Random(5)
    passes = 0
    for game_seed in range(12 if JIT else 5):
        batch = Batch(1, rules, seed=game_seed, observe=None)
        while not batch.is_over[0]:
            game = batch.game(0)
            me = game.current_player
            setup = setup_of(game.view(me), "greedy")
            theirs, ours = batch._state.board[0], setup.position.start.board[0]
            for name, (at, size) in PUBLIC_FIELDS.items():
                assert list(ours[at : at + size]) == list(theirs[at : at + size]), (name, game_seed, game.plays)
            assert ours[kernel.HAND + me] == theirs[kernel.HAND + me]
            legal = np.flatnonzero(batch.legal_action_mask()[0])
            pass_index = kernel.PASS_ACTION
            action = pass_index if pass_index in legal and rng.random() < 0.7 else int(rng.choice(legal))
            if action == pass_index:
                batch.step(np.array([action]))  # and look at the position after the pass
                passes += 1
                continue
            batch.step(np.array([action]))
    assert passes > 0 or rules.players < 4  # the four-player games include passes
