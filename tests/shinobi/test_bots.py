"""Bots: legal, reproducible, and MonteCarlo's deals consistent with its view."""

from __future__ import annotations

import random
from collections import Counter

import numba
import numpy as np
import pytest

from ordonnance.errors import IllegalActionError, InvalidRulesError
from ordonnance.shinobi import CLANS, Game, Rules, bots, simulate
from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi._montecarlo import Knobs, Position, Tally, clan_prior, determinize, position_of, rollouts, state_of_view

from .test_game import random_game

# Without the JIT the rollouts run as Python: keep them few and short.
FEW = dict(rollouts=2, horizon=2) if numba.config.DISABLE_JIT else dict(rollouts=16)


def positions(count: int) -> list[Game]:
    rng = random.Random(0)
    return [random_game(rng.choice((3, 4, 5)), seed, rng.randrange(0, 140)) for seed in range(count)]


def test_every_bot_gives_legal_orders_to_the_end() -> None:
    for players in (3, 4, 5):
        game = Game.new(Rules(players=players, attack="optional"), seed=players)
        seats = [bots.Random(seed=1), bots.Greedy(seed=2), bots.MonteCarlo(seed=3, **FEW)] + [bots.Greedy(seed=4)] * 2
        while not game.is_over:
            view = game.view(game.current_player)
            action = seats[game.current_player].choose(view)
            assert action in view.legal_actions
            game.apply(action)


def test_bots_are_reproducible_and_refuse_views_without_a_turn() -> None:
    game = random_game(4, 9, 33)
    view = game.view(game.current_player)
    for make in (lambda: bots.Random(seed=5), lambda: bots.Greedy(seed=5), lambda: bots.MonteCarlo(seed=5, **FEW)):
        assert make().choose(view) == make().choose(view)
        with pytest.raises(IllegalActionError, match="no legal action"):
            make().choose(game.view((game.current_player + 1) % 4))
    assert repr(bots.Greedy(seed=3)) == "shinobi.bots.Greedy(seed=3)"


def test_greedy_beats_random_in_the_kernel() -> None:
    games = 100 if numba.config.DISABLE_JIT else 2000
    res = simulate(Rules(), games=games, seed=1, players=[bots.Greedy(seed=0)] + [bots.Random(seed=s) for s in (1, 2, 3)])
    assert res.summary().win_rate[0] > 0.5  # four seats: a quarter is parity


def test_montecarlo_refuses_bad_settings() -> None:
    with pytest.raises(InvalidRulesError, match="rollouts must be an int in 1..1,000,000, got 0"):
        bots.MonteCarlo(rollouts=0)
    with pytest.raises(InvalidRulesError, match=r"got 10{30}"):
        bots.MonteCarlo(rollouts=10**30)
    with pytest.raises(InvalidRulesError, match="'clever'"):
        bots.MonteCarlo(rollout_policy="clever")  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match="horizon"):
        bots.MonteCarlo(horizon=0)
    with pytest.raises(InvalidRulesError, match="margin_weight"):
        bots.MonteCarlo(margin_weight=2)
    with pytest.raises(InvalidRulesError, match="work must be an int in 1..10,000,000,000, got -5"):
        bots.MonteCarlo(work=-5)


def _open_view(k: int) -> object:
    """The ``k``-th position of :func:`positions` with a choice to make, as its player's view."""
    games = [g for g in positions(12) if not g.is_over and len(g.legal_actions()) > 2]
    return games[k].view(games[k].current_player)


def _search(view: object, per_action: int, share: int, first: int = 0) -> tuple[int, np.ndarray, np.ndarray]:
    """Rollouts ``first ..`` of one round of MonteCarlo's for every legal action of ``view``: (work, sums, counts)."""
    pos = position_of(view, 0.0)  # type: ignore[arg-type]
    codes = np.array([a.code for a in view.legal_actions], np.int64)  # type: ignore[attr-defined]
    sums, counts = np.zeros(len(codes)), np.zeros(len(codes), np.int64)
    knobs = Knobs(np.full(pos.base[kernel.N], kernel.GREEDY, np.int64), 0.1, 58, 4)
    with np.errstate(over="ignore"):
        end, work = rollouts(pos, knobs, Tally(codes, sums, counts), np.arange(len(codes), dtype=np.int64), first,
                             first + per_action, share, np.uint64(11))  # fmt: skip
    assert (counts == end - first).all()
    return work, sums, counts


def test_montecarlo_work_stops_a_round_after_the_first_rollout_index_that_reaches_it() -> None:
    view = _open_view(0)
    share = 3_000 if numba.config.DISABLE_JIT else 60_000
    work, sums, counts = _search(view, 10**6, share)
    played = int(counts[0])
    assert np.all(counts == played) and played > 1 and work >= share
    # the same rollouts, counted: one index fewer stays below the share, and exactly `played` spend `work`
    assert _search(view, played - 1, 10**12)[0] < share
    again, same_sums, _ = _search(view, played, 10**12)
    assert again == work and np.array_equal(same_sums, sums)
    # work counts the decisions played and the actions Greedy valued: more than a decision each
    assert _search(view, 1, 10**12)[0] > 2 * len(view.legal_actions)
    # the rollouts of two calls, 0 .. half - 1 and half .. played - 1, are those of one (as a timed search plays them)
    half = played // 2
    head, head_sums, _ = _search(view, half, 10**12)
    tail, tail_sums, _ = _search(view, played - half, 10**12, first=half)
    assert head + tail == work and np.allclose(head_sums + tail_sums, sums)


def test_montecarlo_work_bounds_a_decision_and_keeps_it_reproducible() -> None:
    view = _open_view(1)
    small = dict(rollouts=10**6, work=2_000 if numba.config.DISABLE_JIT else 20_000)
    first = bots.MonteCarlo(seed=8, **small).choose(view)  # type: ignore[arg-type]
    assert first in view.legal_actions and first == bots.MonteCarlo(seed=8, **small).choose(view)  # type: ignore[arg-type]
    assert repr(bots.MonteCarlo(seed=1, work=7)) == "shinobi.bots.MonteCarlo(seed=1, work=7)"
    every = bots.MonteCarlo(seed=1, rollouts=9, work=7, time_limit=0.5, rollout_policy="random", margin_weight=0.0,
                            horizon=None, home_weight=1.5)  # fmt: skip
    assert repr(every) == ("shinobi.bots.MonteCarlo(seed=1, rollouts=9, work=7, time_limit=0.5, rollout_policy='random', "
                           "margin_weight=0.0, horizon=None, home_weight=1.5)")  # fmt: skip


def test_montecarlo_under_a_time_limit_that_is_not_reached_chooses_as_without_it() -> None:
    """A timed search runs its rounds in chunks of rollouts; with time to spare it plays the
    rollouts of the untimed search, and so chooses alike."""
    small = dict(rollouts=64, work=2_000) if numba.config.DISABLE_JIT else dict(rollouts=400, work=40_000)
    for k in range(3):
        view = _open_view(k)
        timed = bots.MonteCarlo(seed=k, time_limit=3600, **small)  # type: ignore[arg-type]
        assert timed.choose(view) == bots.MonteCarlo(seed=k, **small).choose(view)  # type: ignore[arg-type]
    assert bots.MonteCarlo(seed=1, time_limit=1e-9, **FEW).choose(view) in view.legal_actions  # type: ignore[attr-defined]


def test_montecarlo_under_a_time_limit_a_budget_left_out_is_unbounded() -> None:
    from ordonnance.shinobi._montecarlo import DEFAULT_ROLLOUTS, DEFAULT_WORK, MAX_ROLLOUTS, MAX_WORK

    assert (bots.MonteCarlo().rollouts, bots.MonteCarlo().work) == (DEFAULT_ROLLOUTS, DEFAULT_WORK)
    timed = bots.MonteCarlo(time_limit=0.05)
    assert (timed.rollouts, timed.work) == (MAX_ROLLOUTS, MAX_WORK)
    assert (bots.MonteCarlo(time_limit=0.05, rollouts=9).rollouts, bots.MonteCarlo(time_limit=0.05, work=9).work) == (9, 9)
    with pytest.raises(InvalidRulesError, match="time_limit must be a positive number of seconds or None, got -1"):
        bots.MonteCarlo(time_limit=-1)


@pytest.mark.parametrize("home_weight", [0.0, 1.5])
def test_montecarlo_deals_are_consistent_with_the_view(home_weight: float) -> None:
    with np.errstate(over="ignore"):
        for game in positions(30 if not numba.config.DISABLE_JIT else 6):
            if game.is_over:
                continue
            me = game.current_player
            view = game.view(me)
            base, pool = state_of_view(view)
            clans, cumulative = clan_prior(view, home_weight)
            out = np.zeros_like(base)
            work = np.zeros(kernel.WORK, np.int64)
            for k in range(10):
                determinize(Position(base, me, pool, clans, cumulative), out, np.uint64(k))
                n = game.players
                assert sorted(out[kernel.CLAN : kernel.CLAN + CLANS]) == list(range(CLANS)) and out[kernel.CLAN + me] == view.clan
                hands = out[kernel.HAND : kernel.HAND + kernel.CODES * n].reshape(n, kernel.CODES)
                assert list(hands[me]) == [sum(c.code == code for c in view.hand) for code in range(kernel.CODES)]
                assert list(hands.sum(axis=1)) == list(view.hand_sizes)
                deck = out[kernel.DECK : kernel.DECK + out[kernel.DECK_END]]
                hidden = Counter(deck.tolist())
                for q in range(n):
                    if q != me:
                        hidden.update({code: int(hands[q, code]) for code in range(kernel.CODES)})
                assert +hidden == Counter({code: c for code, c in enumerate(view.unseen()) if c})
                assert out[kernel.DECK_END] == view.deck_size
                count = kernel.legal(out, work)
                assert [int(c) for c in work[:count]] == [a.code for a in view.legal_actions]


def test_montecarlo_deals_every_consistent_clan_and_the_prior_leans_to_home_armies() -> None:
    game = Game.new(Rules(players=3), seed=2)
    view = game.view(0)
    seen = Counter()
    base, pool = state_of_view(view)
    clans, cumulative = clan_prior(view, 0.0)
    assert len(clans) == 4 * 3  # two other seats, four other clans
    out = np.zeros_like(base)
    with np.errstate(over="ignore"):
        for k in range(400):
            determinize(Position(base, 0, pool, clans, cumulative), out, np.uint64(k))
            seen[int(out[kernel.CLAN + 1])] += 1
    assert set(seen) == set(range(CLANS)) - {view.clan} and min(seen.values()) > 60
    biased = random_game(3, 4, 60)
    v = biased.view(biased.current_player)
    rows, weights = clan_prior(v, 2.0)
    best = int(np.argmax(np.diff(np.concatenate([[0.0], weights]))))
    homes = [v.provinces[q][rows[best][q]] for q in range(3) if q != v.seat]
    assert homes == [max(v.provinces[q][c] for c in range(CLANS) if c != v.clan) for q in range(3) if q != v.seat]


def test_montecarlo_plays_through_simulate_and_replays() -> None:
    rules = Rules(players=3)
    players = [bots.MonteCarlo(seed=1, **FEW), bots.Greedy(seed=2), bots.Random(seed=3)]
    res = simulate(rules, games=2, seed=5, players=players)
    again = simulate(rules, games=2, seed=5, players=[bots.MonteCarlo(seed=1, **FEW), bots.Greedy(seed=2), bots.Random(seed=3)])
    assert np.array_equal(res.totals, again.totals)
    assert res.replay(1).totals == tuple(res.totals[1])
