"""What the bots of every game share: the search bots' time limit and its clock, the deprecated
``time_budget``, one base class, and the library's error for anything but a view.

The time limits are tested on a fake clock (no test here reads the real one): each search bot's
kernel is replaced by a stand-in that counts its rollouts (or iterations) and moves the fake clock
on by a fixed cost for each, and the translation of the view into the kernel's arrays (the setup)
costs fake time too, so that a decision's time is known exactly.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np
import pytest

import ordonnance as od
from ordonnance import _ismcts, _montecarlo
from ordonnance import black_prince as bp
from ordonnance import shinobi
from ordonnance.black_prince import _kernel as bp_kernel
from ordonnance.black_prince import _montecarlo as bp_montecarlo
from ordonnance.core import bots as core_bots
from ordonnance.core import clock
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.shinobi import _montecarlo as shinobi_montecarlo

LIMIT = 0.05
#: Fake seconds of one rollout (or iteration) of one action.
COST = 1e-5
#: Fake seconds of a search's setup (the view translated into the kernel's arrays).
SETUP = 0.01
#: Fake seconds of a first compile.
COMPILE = 0.3


@attrs.define
class FakeClock:
    """The fake ``time.perf_counter`` of :mod:`ordonnance.core.clock`, and the search's costs on it."""

    now: float = 0.0
    compile: float = 0.0  # charged once, on the next kernel call
    deals: list[tuple[int, int]] = attrs.field(factory=list)  # (first, count) of each kernel call

    def kernel_call(self, first: int, count: int, width: int) -> None:
        self.deals.append((first, count))
        self.now += self.compile + count * width * COST
        self.compile = 0.0

    def time(self, call: Callable[[], Any]) -> float:
        """The fake seconds ``call()`` takes."""
        start = self.now
        call()
        return self.now - start


def _with_setup_cost(fake: FakeClock, setup: Callable[..., Any]) -> Callable[..., Any]:
    def costly(*args: Any) -> Any:
        fake.now += SETUP
        return setup(*args)

    return costly


def _ordonnance_montecarlo(monkeypatch: pytest.MonkeyPatch, fake: FakeClock) -> None:
    def run(self: Any, acts: Any, active: Any, first: int, count: int, seed: Any, margin: float, sums: Any,
            counts: Any) -> None:  # fmt: skip
        fake.kernel_call(first, count, len(active))
        counts[active] += count
        sums[active] += count * (active == 1)

    monkeypatch.setattr(_montecarlo, "_run", run)
    monkeypatch.setattr(_montecarlo, "setup_of", _with_setup_cost(fake, _montecarlo.setup_of))


def _ordonnance_ismcts(monkeypatch: pytest.MonkeyPatch, fake: FakeClock) -> None:
    def iterate_halving(cfg: Any, pos: Any, tree: Any, roots: Any, first: int, count: int, seed: Any, knobs: Any) -> int:
        fake.kernel_call(first, count, len(roots))
        tree.nodes[roots, _ismcts.VISITS] += count
        tree.reward[roots] += count * (roots == 2)
        return count

    def iterate(cfg: Any, pos: Any, tree: Any, first: int, count: int, seed: Any, knobs: Any) -> int:
        fake.kernel_call(first, count, 1)
        return count

    monkeypatch.setattr(_ismcts, "iterate_halving", iterate_halving)
    monkeypatch.setattr(_ismcts, "iterate", iterate)
    monkeypatch.setattr(_ismcts, "setup_of", _with_setup_cost(fake, _ismcts.setup_of))


def _shinobi_montecarlo(monkeypatch: pytest.MonkeyPatch, fake: FakeClock) -> None:
    def rollouts(pos: Any, knobs: Any, tally: Any, active: Any, first: int, stop: int, share: int,
                 seed: Any) -> tuple[int, int]:  # fmt: skip
        fake.kernel_call(first, stop - first, len(active))
        tally.counts[active] += stop - first
        tally.sums[active] += (stop - first) * (active == 1)
        return stop, 0

    monkeypatch.setattr(shinobi_montecarlo, "rollouts", rollouts)
    monkeypatch.setattr(shinobi_montecarlo, "state_of_view", _with_setup_cost(fake, shinobi_montecarlo.state_of_view))


def _black_prince_montecarlo(monkeypatch: pytest.MonkeyPatch, fake: FakeClock) -> None:
    def rollouts(tables: Any, deal: Any, knobs: Any, tally: Any, active: Any, first: int, stop: int,
                 max_steps: int, seed: Any) -> tuple[int, int]:  # fmt: skip
        fake.kernel_call(first, stop - first, len(active))
        tally.counts[active] += stop - first
        tally.sums[active] += (stop - first) * (active == 1)
        return stop, 0

    monkeypatch.setattr(bp_kernel, "rollouts", rollouts)
    monkeypatch.setattr(bp_montecarlo, "state_of_view", _with_setup_cost(fake, bp_montecarlo.state_of_view))


def _ordonnance_view() -> Any:
    return od.Game.new(od.Rules(), seed=4).view(0)


def _shinobi_view() -> Any:
    game = shinobi.Game.new(shinobi.Rules(players=4), seed=4)
    return game.view(game.current_player)


def _black_prince_view() -> Any:
    game = bp.Game.new(bp.Rules(), seed=4)
    return game.view(game.current_player)


@attrs.frozen
class SearchBotCase:
    name: str
    make: Callable[..., Any]  # keyword arguments -> a bot
    fake_kernels: Callable[[pytest.MonkeyPatch, FakeClock], None]
    view: Callable[[], Any]


CASES = [
    SearchBotCase("ordonnance-montecarlo", od.bots.MonteCarlo, _ordonnance_montecarlo, _ordonnance_view),
    SearchBotCase("ordonnance-ismcts", od.bots.ISMCTS, _ordonnance_ismcts, _ordonnance_view),
    SearchBotCase("ordonnance-ismcts-ucb", lambda **kw: od.bots.ISMCTS(root="ucb", **kw), _ordonnance_ismcts,
                  _ordonnance_view),  # fmt: skip
    SearchBotCase("shinobi-montecarlo", shinobi.bots.MonteCarlo, _shinobi_montecarlo, _shinobi_view),
    SearchBotCase("black-prince-montecarlo", bp.bots.MonteCarlo, _black_prince_montecarlo, _black_prince_view),
]
IDS = [case.name for case in CASES]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    """A fake clock, and no search warmed up yet in this process."""
    fake = FakeClock()
    monkeypatch.setattr(clock, "time", types.SimpleNamespace(perf_counter=lambda: fake.now))
    monkeypatch.setattr(core_bots, "_WARM", set())
    yield fake


# --- the time limit, on a fake clock ---------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_decision_keeps_within_its_time_limit_setup_included(
    case: SearchBotCase, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warmed-up bot's decisions, setup included, take at most the limit, and most of it:
    without a fixed budget the time decides."""
    case.fake_kernels(monkeypatch, fake)
    view = case.view()
    bot = case.make(seed=1, time_limit=LIMIT)
    bot.warm_up(view)
    for _ in range(3):
        fake.deals.clear()
        seconds = fake.time(lambda: bot.choose(view))
        assert 0.8 * LIMIT <= seconds <= LIMIT
        assert len(fake.deals) > 3  # chunks sized by the speed measured


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_first_compile_is_left_out_of_the_clock(
    case: SearchBotCase, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first decision in a process warms up before its clock starts: it takes the compile's
    time more and still searches for most of the limit; the next one does not warm up again."""
    case.fake_kernels(monkeypatch, fake)
    view = case.view()
    bot = case.make(seed=1, time_limit=LIMIT)
    fake.compile = COMPILE
    first = fake.time(lambda: bot.choose(view))
    assert COMPILE + 0.8 * LIMIT <= first <= COMPILE + LIMIT + SETUP + 0.01  # the warm-up: a setup, a few deals
    assert 0.8 * LIMIT <= fake.time(lambda: bot.choose(view)) <= LIMIT


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_fixed_budget_ends_a_search_before_a_distant_limit(
    case: SearchBotCase, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budgets and the limit are limits: a fixed budget given with a time limit still binds."""
    case.fake_kernels(monkeypatch, fake)
    view = case.view()
    budget = {"iterations": 40} if "ismcts" in case.name else {"rollouts": 40}
    bot = case.make(seed=1, time_limit=LIMIT, **budget)
    bot.warm_up(view)
    fake.deals.clear()
    assert fake.time(lambda: bot.choose(view)) < 0.5 * LIMIT
    assert sum(count for _, count in fake.deals) <= 40


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_warming_up_changes_no_choice(case: SearchBotCase) -> None:
    """warm_up searches once with the bot's settings but not its stream: the choices that follow
    are those of a bot that did not warm up."""
    view = case.view()
    budget = {"iterations": 30} if "ismcts" in case.name else {"rollouts": 30}
    warmed, cold = case.make(seed=5, **budget), case.make(seed=5, **budget)
    warmed.warm_up(view)
    warmed.warm_up()  # and on the default rules' first position
    assert [warmed.choose(view) for _ in range(3)] == [cold.choose(view) for _ in range(3)]


@pytest.mark.parametrize("dearer_from", [1, 3, 4])
@pytest.mark.parametrize("factor", [3, 30])
def test_a_time_limit_holds_when_later_rounds_cost_more(monkeypatch: pytest.MonkeyPatch, dearer_from: int, factor: int) -> None:
    """On a fake clock, sequential halving over 24 actions whose deals cost 10 us an action, but
    ``factor`` times that from round ``dearer_from`` on (a speed judged on cheaper deals): the
    rounds end within the planned 97% of 50 ms, give or take a deal, each round's chunks numbered
    on from its first."""
    now = [0.0]
    monkeypatch.setattr(clock, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    halving = clock.HalvingClock(0.05)
    widths = [24, 12, 6, 3, 2]
    for r, width in enumerate(widths):
        ran: list[tuple[int, int]] = []
        cost = 1e-5 * width * (factor if r >= dearer_from else 1)

        def play(first: int, count: int) -> int:
            ran.append((first, count))
            now[0] += count * cost
            return count

        done = halving.run_round(play, width, 10**6, len(widths) - r)
        assert done >= 1 and [first for first, _ in ran] == [sum(c for _, c in ran[:i]) for i in range(len(ran))]
    assert now[0] <= 0.97 * 0.05 + 1e-5 * 24 * factor


def test_a_round_stops_when_its_play_runs_fewer_deals_than_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bound of the search's own (a work budget) ends a round early: the clock asks no more."""
    now = [0.0]
    monkeypatch.setattr(clock, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    asked: list[tuple[int, int]] = []

    def play(first: int, count: int) -> int:
        asked.append((first, count))
        now[0] += count * 1e-5
        return min(count, 7 - first)  # deals 0 .. 6 only

    assert clock.HalvingClock(0.05).run_round(play, 1, 10**6, 1) == 7
    assert asked[-1][0] + asked[-1][1] > 7 and sum(count for _, count in asked[:-1]) + 7 - asked[-1][0] == 7
    assert clock.HalvingClock(None).run_round(play, 1, 10**6, 1) == 7


def test_without_a_limit_a_round_runs_all_its_deals_in_slices_and_the_clock_is_never_out() -> None:
    untimed = clock.HalvingClock(None, start=0.0)
    assert untimed.deadline == math.inf and not untimed.out()
    calls: list[tuple[int, int]] = []
    assert untimed.run_round(lambda first, count: calls.append((first, count)) or count, 5, 321, 3) == 321
    assert calls[0] == (0, clock.FIRST_SLICE) and len(calls) > 1  # slices: Ctrl-C is seen between them
    assert all(first == sum(c for _, c in calls[:i]) for i, (first, _) in enumerate(calls))  # each where the last ended
    assert sum(c for _, c in calls) == 321
    assert all(b <= clock.CHUNK_GROWTH * a for (_, a), (_, b) in zip(calls, calls[1:-1]))


def test_an_untimed_round_stops_where_its_own_bound_stops_it() -> None:
    calls: list[tuple[int, int]] = []

    def play(first: int, count: int) -> int:  # a work budget that runs out at deal 100
        calls.append((first, count))
        return max(0, min(count, 100 - first))

    assert clock.untimed(play, 10_000) == 100
    assert calls[-1][0] + calls[-1][1] > 100 and len(calls) <= 3


def test_work_shares_survive_chunking(monkeypatch: pytest.MonkeyPatch, fake: FakeClock) -> None:
    """Shinobi's and Black Prince's rounds stop after the first rollout index whose work reaches
    the round's share: in chunks (a distant time limit) they play exactly the rollouts of whole
    rounds, whichever chunk the share runs out in."""
    for module, patch in ((shinobi_montecarlo, "rollouts"), (bp_kernel, "rollouts")):
        played: list[tuple[int, int, int]] = []

        def rollouts(*args: Any) -> tuple[int, int]:
            if module is shinobi_montecarlo:
                active, first, stop, share, seed, (_, sums, counts) = args[3], args[4], args[5], args[6], args[7], args[2]
            else:
                active, first, stop, share, seed, (_, sums, counts) = args[4], args[5], args[6], args[7], args[8], args[3]
            spent = 0
            for j in range(first, stop):
                if j > first and spent >= share:
                    return j, spent
                for a in active:
                    played.append((int(seed) & 0xFFFF, j, int(a)))
                    counts[a] += 1
                    sums[a] += (j * 7 + int(a) * 3) % 5
                    fake.now += COST
                spent += 7 * len(active)
            return stop, spent

        monkeypatch.setattr(module, patch, rollouts)
        make, view = (shinobi.bots.MonteCarlo, _shinobi_view()) if module is shinobi_montecarlo else (bp.bots.MonteCarlo, _black_prince_view())
        make(time_limit=1).warm_up(view)
        for work in range(40, 1_400, 37):
            played.clear()
            untimed = make(seed=2, rollouts=300, work=work).choose(view)
            whole = list(played)
            played.clear()
            timed = make(seed=2, rollouts=300, work=work, time_limit=3600).choose(view)
            assert timed == untimed and sorted(played) == sorted(whole), work


# --- the vocabulary: names, deprecations, errors -----------------------------------------


def _every_search_bot(**kwargs: Any) -> list[Any]:
    return [od.bots.MonteCarlo(**kwargs), od.bots.ISMCTS(**kwargs), shinobi.bots.MonteCarlo(**kwargs),
            bp.bots.MonteCarlo(**kwargs)]  # fmt: skip


def test_every_search_bot_takes_a_time_limit_and_shows_it() -> None:
    for bot in _every_search_bot(seed=3, time_limit=0.05):
        assert isinstance(bot, core_bots.SearchBot) and bot.time_limit == 0.05
        assert "(seed=3, time_limit=0.05)" in repr(bot)


@pytest.mark.parametrize("bad", [0, -1.0, math.inf, math.nan, "0.05", True])
def test_bad_time_limits_are_refused_showing_them(bad: object) -> None:
    makers: list[Callable[..., Any]] = [od.bots.MonteCarlo, od.bots.ISMCTS, shinobi.bots.MonteCarlo, bp.bots.MonteCarlo]
    for make in makers:
        with pytest.raises(InvalidRulesError, match=f"time_limit must be a positive number of seconds or None, got {bad!r}"):
            make(time_limit=bad)


@pytest.mark.parametrize("make", [od.bots.MonteCarlo, bp.bots.MonteCarlo], ids=["ordonnance", "black-prince"])
def test_the_old_time_budget_warns_and_works(make: Callable[..., Any]) -> None:
    with pytest.warns(DeprecationWarning, match=r"MonteCarlo\(time_budget=\) is deprecated: use time_limit="):
        bot = make(seed=1, time_budget=0.25)
    assert bot.time_limit == 0.25 and "time_limit=0.25" in repr(bot) and "time_budget" not in repr(bot)
    with pytest.warns(DeprecationWarning, match="time_budget is deprecated: use time_limit"):
        assert bot.time_budget == 0.25
    with pytest.warns(DeprecationWarning, match="time_budget is deprecated"):
        bot.time_budget = 0.5
    assert bot.time_limit == 0.5
    with pytest.raises(InvalidRulesError, match="time_budget must be a positive number of seconds or None, got -2"):
        make(time_budget=-2)
    with pytest.raises(InvalidRulesError, match="not both"):
        make(time_limit=1, time_budget=1)


# --- every built-in bot: one base, one check of the view -----------------------------------


def _every_bot() -> list[tuple[str, Any]]:
    """Every built-in bot of every game, with its game."""
    return [("ordonnance", bot) for bot in (od.bots.Random(seed=1), od.bots.Greedy(seed=1),
                                            od.bots.MonteCarlo(seed=1, rollouts=8), od.bots.ISMCTS(seed=1, iterations=8))] + \
        [("shinobi", bot) for bot in (shinobi.bots.Random(seed=1), shinobi.bots.Greedy(seed=1),
                                      shinobi.bots.MonteCarlo(seed=1, rollouts=8))] + \
        [("black_prince", bot) for bot in (bp.bots.Random(seed=1), bp.bots.Greedy(seed=1),
                                           bp.bots.MonteCarlo(seed=1, rollouts=8))]  # fmt: skip


def test_every_built_in_bot_is_a_seeded_bot() -> None:
    for _, bot in _every_bot():
        assert isinstance(bot, core_bots.SeededBot), bot


def test_every_built_in_bot_refuses_anything_but_its_games_view() -> None:
    views = {"ordonnance": _ordonnance_view(), "shinobi": _shinobi_view(), "black_prince": _black_prince_view()}
    for own, bot in _every_bot():
        assert bot.choose(views[own]) in views[own].legal_actions
        for name, view in views.items():
            if name != own:
                with pytest.raises(OrdonnanceTypeError, match="PlayerView"):
                    bot.choose(view)
        for junk in (None, 3, od.Game.new(od.Rules(), seed=1), np.zeros(3)):
            with pytest.raises(OrdonnanceTypeError, match=f"not {type(junk).__module__}.{type(junk).__qualname__}"):
                bot.choose(junk)
