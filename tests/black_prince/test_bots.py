"""Bots: legal, reproducible, and sensible in positions where the right move is plain."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import EndBattle, Fight, PlayBattle
from ordonnance.black_prince._greedy import frontal_balance, score
from ordonnance.errors import IllegalActionError, InvalidRulesError, OrdonnanceTypeError

from .positions import position

GAMES = 4 if numba.config.DISABLE_JIT else 12
#: Views searched, and the searches' rollouts, in the tests of the search's budgets.
VIEWS, ROLLOUTS = (2, 32) if numba.config.DISABLE_JIT else (6, bp.MonteCarlo().rollouts)


def play(bots: list[bp.Bot], seed: int, armies: tuple[str, str] = ("English", "French")) -> bp.Game:
    game = bp.Game.new(bp.Rules(armies=armies), seed=seed)
    while not game.is_over:
        seat = game.current_player
        action = bots[seat].choose(game.view(seat))
        assert action in game.legal_actions()
        game.apply(action)
    return game


@pytest.mark.parametrize("kind", [bp.Random, bp.Greedy])
def test_bots_are_legal_and_reproducible(kind: type) -> None:
    for seed in range(GAMES):
        a = play([kind(seed=seed), bp.Random(seed=seed + 100)], seed)
        b = play([kind(seed=seed), bp.Random(seed=seed + 100)], seed)
        assert a == b


def test_montecarlo_is_legal_and_reproducible() -> None:
    for seed in range(2):
        a = play([bp.MonteCarlo(seed=seed, rollouts=16), bp.Greedy(seed=1)], seed)
        b = play([bp.MonteCarlo(seed=seed, rollouts=16), bp.Greedy(seed=1)], seed)
        assert a == b


def winning_fight_position() -> bp.Game:
    # column 2: knights 3 beat archers 1 (3 + 1 > 1); column 3: archers 1 lose to knights 2
    cells = {(2, 2): "Knights 3", (1, 2): "Archers 1", (2, 4): "Archers 1", (1, 4): "Knights 2"}
    return position(cells, hands=[["Battle"], ["Archers 3"]], phase="battle", battle={"contact": [2, 4]})


def test_greedy_scores_fights_by_what_they_change() -> None:
    game = winning_fight_position()
    view = game.view(0)
    assert score(view, Fight(2, 2)) == 4 and score(view, Fight(4, 4)) == -4
    assert bp.Greedy(seed=0).choose(view) == Fight(2, 2)
    assert frontal_balance(view.battlefield, 0) == (1 - -1) + (-1 - 1)


def test_greedy_plays_a_battle_card_only_when_it_pays() -> None:
    good = position({(2, 2): "Knights 3", (1, 2): "Archers 1"}, hands=[["Battle"], ["Archers 3"]], phase="choose")
    assert score(good.view(0), PlayBattle()) == 1 and bp.Greedy(seed=0).choose(good.view(0)) == PlayBattle()
    bad = position({(2, 2): "Archers 1", (1, 2): "Knights 3"}, hands=[["Battle"], ["Archers 3"]], phase="choose")
    assert score(bad.view(0), PlayBattle()) == -1 and bp.Greedy(seed=0).choose(bad.view(0)) != PlayBattle()


def test_montecarlo_takes_the_plain_winning_fight() -> None:
    # swordsmen 3 strike diagonally with +1 flank: 4 beats archers 1, 4 ties knights 3 (+1 against swordsmen)
    cells = {(2, 2): "Swordsmen 3", (1, 3): "Archers 1", (1, 1): "Knights 3"}
    game = position(cells, hands=[["Battle"], ["Archers 3"]], phase="battle", battle={"contact": [2]})
    assert game.legal_actions() == [Fight(2, 1), Fight(2, 3), EndBattle()]
    assert bp.Greedy(seed=0).choose(game.view(0)) == Fight(2, 3)
    assert bp.MonteCarlo(seed=1).choose(game.view(0)) == Fight(2, 3)


def test_bots_refuse_views_without_a_decision_and_bad_settings() -> None:
    game = bp.Game.new(bp.Rules(), seed=1)
    for bot in (bp.Random(seed=1), bp.Greedy(seed=1), bp.MonteCarlo(seed=1)):
        with pytest.raises(IllegalActionError):
            bot.choose(game.view(1))
    with pytest.raises(InvalidRulesError):
        bp.MonteCarlo(rollouts=0)
    with pytest.raises(InvalidRulesError):
        bp.MonteCarlo(rollout_policy="smart")
    with pytest.raises(OrdonnanceTypeError):
        bp.MonteCarlo(margin_weight="a lot")  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError):
        bp.Random(seed=-1)


def test_greedy_beats_random_clearly() -> None:
    """A small sample of what the benchmark measures on 1,000 games (seats and armies balanced)."""
    res = bp.simulate(bp.Rules(armies=("French", "English")), games=200, seed=4, players=[bp.Greedy(seed=1), bp.Random(seed=2)])
    swapped = bp.simulate(bp.Rules(armies=("English", "French")), games=200, seed=5, players=[bp.Random(seed=2), bp.Greedy(seed=1)])
    wins = int((res.winner == 0).sum() + (swapped.winner == 1).sum())
    assert wins > 0.75 * 400


def test_simulate_still_twins_the_engine_after_a_montecarlo_search() -> None:
    """The rollouts and the simulator share one kernel module (and so one disk cache): a
    search must leave the simulator's games exactly the engine's."""
    game = bp.Game.new(bp.Rules(), seed=7)
    bp.MonteCarlo(seed=2, rollouts=8).choose(game.view(0))
    res = bp.simulate(bp.Rules(), games=20, seed=1, players=[bp.Greedy(seed=1), bp.Random(seed=2)], record=True)
    for g in range(20):
        assert res.replay(g).routed == tuple(res.scores[g]) and res.decisions[g] > 1


def test_bot_reprs_name_the_game() -> None:
    assert repr(bp.Random(seed=1)) == "black_prince.Random(seed=1)"
    assert repr(bp.Greedy(seed=2)) == "black_prince.Greedy(seed=2)"
    assert repr(bp.MonteCarlo(seed=3, rollouts=9)).startswith("black_prince.MonteCarlo(seed=3, rollouts=9")


def _views(seed: int, count: int) -> list[bp.PlayerView]:
    """The first ``count`` views with a choice in a Greedy game."""
    game = bp.Game.new(bp.Rules(armies=("Scottish", "Burgundian")), seed=seed)
    bots = [bp.Greedy(seed=seed), bp.Greedy(seed=seed + 1)]
    views = []
    while not game.is_over and len(views) < count:
        view = game.view(game.current_player)
        if len(view.legal_actions) > 1:
            views.append(view)
        game.apply(bots[game.current_player].choose(view))
    return views


def test_montecarlo_refuses_bad_work_and_time_limits_showing_them() -> None:
    for work in (0, -1, True, 1.5, "9", 10**9 + 1):
        with pytest.raises(InvalidRulesError, match=f"work must be an int in 1..1000000000, got {work!r}"):
            bp.MonteCarlo(work=work)  # type: ignore[arg-type]
    for limit in (0, -0.5, True, "1", float("nan"), float("inf")):
        with pytest.raises(InvalidRulesError, match=f"time_limit must be a positive number of seconds or None, got {limit!r}"):
            bp.MonteCarlo(time_limit=limit)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match=r"time_budget must be .* got 'soon'"):
        bp.MonteCarlo(time_budget="soon")  # type: ignore[arg-type]
    assert bp.MonteCarlo(time_limit=1).time_limit == 1.0
    assert repr(bp.MonteCarlo(seed=3, time_limit=0.05)) == "black_prince.MonteCarlo(seed=3, time_limit=0.05)"
    with pytest.warns(DeprecationWarning, match=r"time_budget=\) is deprecated"):
        old = bp.MonteCarlo(seed=3, time_budget=0.05)
    assert repr(old) == "black_prince.MonteCarlo(seed=3, time_limit=0.05)"


def test_a_time_limit_that_is_not_reached_changes_no_choice() -> None:
    """The clock is looked at between chunks of rollouts; a search that finishes in time
    plays the same rollouts, so it chooses as the reproducible bot does."""
    work = bp.MonteCarlo().work
    for view in _views(seed=5, count=VIEWS):
        timed = bp.MonteCarlo(seed=9, rollouts=ROLLOUTS, work=work, time_limit=3600)
        assert timed.choose(view) == bp.MonteCarlo(seed=9, rollouts=ROLLOUTS).choose(view)


def test_a_spent_time_limit_still_gives_a_legal_action() -> None:
    for view in _views(seed=6, count=VIEWS):
        assert bp.MonteCarlo(seed=1, time_limit=1e-9).choose(view) in view.legal_actions


def test_under_a_time_limit_a_budget_left_out_is_unbounded() -> None:
    from ordonnance.black_prince._montecarlo import DEFAULT_ROLLOUTS, DEFAULT_WORK, MAX_ROLLOUTS, MAX_WORK

    assert (bp.MonteCarlo().rollouts, bp.MonteCarlo().work) == (DEFAULT_ROLLOUTS, DEFAULT_WORK)
    timed = bp.MonteCarlo(time_limit=0.05)
    assert (timed.rollouts, timed.work) == (MAX_ROLLOUTS, MAX_WORK)
    assert (bp.MonteCarlo(time_limit=0.05, rollouts=9).rollouts, bp.MonteCarlo(time_limit=0.05, work=9).work) == (9, 9)
    assert repr(bp.MonteCarlo(seed=1, rollouts=DEFAULT_ROLLOUTS, time_limit=0.05)) == (
        f"black_prince.MonteCarlo(seed=1, rollouts={DEFAULT_ROLLOUTS}, time_limit=0.05)"
    )


def test_work_one_plays_one_rollout_per_action_and_round() -> None:
    """With ``work=1`` every round stops after its first rollout index: the same search
    as ``rollouts=1``, and (on some view) a different one from the default budget."""
    views = _views(seed=7, count=VIEWS + 2)
    tiny = [bp.MonteCarlo(seed=4, rollouts=ROLLOUTS, work=1).choose(v) for v in views]
    assert tiny == [bp.MonteCarlo(seed=4, rollouts=1).choose(v) for v in views]
    assert tiny != [bp.MonteCarlo(seed=4, rollouts=ROLLOUTS).choose(v) for v in views]


def test_the_kernel_search_stops_after_the_first_rollout_index_that_reaches_max_steps() -> None:
    from ordonnance.black_prince import _kernel as kernel
    from ordonnance.black_prince._bridge import encode, state_of_view, tables
    from ordonnance.black_prince._montecarlo import ROLLOUT_HORIZON

    rollouts = 4 if numba.config.DISABLE_JIT else 12
    for view in _views(seed=8, count=VIEWS // 2 + 1):
        kinds = tables(view.rules)
        base, own, other = state_of_view(view, min(view.rules.max_turns, view.turn + ROLLOUT_HORIZON))
        codes = np.array([encode(a, kinds) for a in view.legal_actions], np.int64)
        active = np.arange(len(codes), dtype=np.int64)
        policies = np.array([kernel.GREEDY, kernel.GREEDY], np.int64)

        def search(first: int, stop: int, max_steps: int) -> tuple[int, int, np.ndarray]:
            sums, counts = np.zeros(len(codes)), np.zeros(len(codes), np.int64)
            with np.errstate(over="ignore"):
                deal = kernel.Deal(base, view.seat, own, other, view.hand_sizes[1 - view.seat])
                j, steps = kernel.rollouts(kinds.tables, deal, kernel.Knobs(policies, 0.05),
                                           kernel.Tally(codes, sums, counts), active, first, stop, max_steps,
                                           np.uint64(11))  # fmt: skip
            assert (counts == j - first).all()
            return j, steps, sums

        whole, steps, sums = search(0, rollouts, 10**9)
        assert whole == rollouts and steps > rollouts * len(codes)
        for max_steps in (1, steps // 3, steps - 1):
            j, spent, _ = search(0, rollouts, max_steps)
            assert spent >= max_steps and search(0, j - 1, 10**9)[1] < max_steps
        # the first half of the rollouts, then the second, are all of them: a timed search's chunks change nothing
        a, b = search(0, rollouts // 2, 10**9), search(rollouts // 2, rollouts, 10**9)
        assert a[1] + b[1] == steps and np.allclose(a[2] + b[2], sums)
