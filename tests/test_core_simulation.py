"""The shared simulate driver and summary, for every game at once: one format, one set of checks."""

from __future__ import annotations

import itertools
import re
from typing import Any

import attrs
import numba
import numpy as np
import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import shinobi
from ordonnance.core import simulate as driver
from ordonnance.core.checks import shown
from ordonnance.core.seeds import bot_seeds, game_seeds
from ordonnance.core.summary import Summary
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError

from .hostile import values as hostile_values

GAMES = 40 if numba.config.DISABLE_JIT else 400

# (game module, rules, its Random and Greedy)
GAMES_UNDER_TEST: dict[str, tuple[Any, Any]] = {
    "ordonnance": (od, od.Rules(players=3, auto_claim=True)),
    "shinobi": (shinobi, shinobi.Rules(players=4)),
    "black-prince": (bp, bp.Rules()),
}
SHARED = [field.name for field in attrs.fields(Summary)]


def _bots(module: Any, rules: Any) -> list[Any]:
    return [(module.bots.Greedy if seat == 0 else module.bots.Random)(seed=seat) for seat in range(rules.players)]


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_every_game_summary_has_the_shared_figures_with_the_shared_definitions(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    res = module.simulate(rules, games=GAMES, seed=3, players=_bots(module, rules))
    summary = res.summary()
    assert isinstance(res, driver.SimulationResult) and isinstance(summary, Summary)
    n = rules.players
    sole = [int(np.sum(res.winner == seat)) for seat in range(n)]
    assert summary.games == GAMES and summary.players == n
    assert sum(summary.win_rate) + summary.draw_rate == pytest.approx(1.0)
    assert summary.draw_rate == pytest.approx(int(np.sum(res.winner < 0)) / GAMES)
    assert summary.first_player_advantage == pytest.approx(sole[0] / GAMES - 1 / n)
    assert summary.first_player_advantage > 0.1  # Greedy in seat 0
    low, high = summary.first_player_advantage_ci
    assert low <= summary.first_player_advantage <= high and high - low < 2.5 / GAMES**0.5
    assert summary.mean_decisions == pytest.approx(float(np.mean(res.decisions)))
    assert summary.mean_rounds == pytest.approx(float(np.mean(res.rounds)))
    assert 1 <= res.rounds.min() and res.rounds.max() < res.decisions.max()


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_every_game_prints_the_shared_lines_first_in_one_format(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    summary = module.simulate(rules, games=GAMES, seed=4).summary()
    shared = Summary(**{field: getattr(summary, field) for field in SHARED})
    text = str(summary)
    assert text.startswith(str(shared) + "\n") and len(text) > len(str(shared)) + 10  # then the game's own lines
    lines = text.splitlines()
    n = rules.players
    assert lines[0] == f"{GAMES:,} games"
    for seat in range(n):
        assert re.fullmatch(rf"  player {seat} wins +\d+\.\d\d%  \(95% CI \d+\.\d\d% \.\. \d+\.\d\d%\)", lines[1 + seat])
    assert re.fullmatch(r"  nobody wins alone +\d+\.\d\d%  \(draws and shared wins\)", lines[1 + n])
    assert re.fullmatch(r"  first-player advantage [+-]\d+\.\d\d% \(95% CI [+-]\d+\.\d\d% \.\. [+-]\d+\.\d\d%\)", lines[2 + n])
    assert re.fullmatch(r"  \d+\.\d decisions, \d+\.\d rounds a game on average", lines[3 + n])


def test_the_shared_summary_of_counts() -> None:
    s = Summary.from_counts(games=10, players=4, wins=[4, 2, 2, 0], decisions=123, rounds=45)
    assert s.win_rate == (0.4, 0.2, 0.2, 0.0) and s.draw_rate == pytest.approx(0.2)
    assert s.first_player_advantage == pytest.approx(0.15) and (s.mean_decisions, s.mean_rounds) == (12.3, 4.5)
    empty = Summary.from_counts(games=0, players=2, wins=[0, 0], decisions=0, rounds=0)
    assert empty.win_rate == (0.0, 0.0) and empty.draw_rate == 0.0 and empty.mean_rounds == 0.0
    assert empty.win_rate_ci == ((0.0, 1.0), (0.0, 1.0)) and empty.first_player_advantage == -0.5
    assert str(empty).startswith("0 games\n")


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_the_driver_refuses_bad_arguments_alike_in_every_game(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    simulate = module.simulate
    other = od.Rules() if name != "ordonnance" else bp.Rules()
    with pytest.raises(OrdonnanceTypeError, match=rf"rules must be an ordonnance\.(\w+\.)?Rules, got {re.escape(shown(other))}"):
        simulate(other, games=1)
    for games in (-1, 1.5, "3", True, None):
        with pytest.raises(InvalidRulesError, match=rf"games must be a non-negative int, got {re.escape(repr(games))}"):
            simulate(rules, games=games)
    with pytest.raises(InvalidRulesError, match=r"at most 100,000,000 per call .*got 1000000000000"):
        simulate(rules, games=10**12)
    for seed in (-1, 2**64, "x", True, 1.0):
        with pytest.raises(InvalidRulesError, match=rf"seed must .*got {re.escape(repr(seed))}"):
            simulate(rules, games=1, seed=seed)
    with pytest.raises(OrdonnanceTypeError, match="record must be a bool, got 1"):
        simulate(rules, games=1, record=1)
    with pytest.raises(InvalidRulesError, match=rf"players must list {rules.players} bots"):
        simulate(rules, games=1, players=[module.bots.Random()])
    with pytest.raises(OrdonnanceTypeError, match="the class Random, not a bot"):
        simulate(rules, games=1, players=[module.bots.Random] * rules.players)
    assert len(simulate(rules, games=0)) == 0 and simulate(rules, games=np.int64(2), seed=np.uint64(5)).seeds.shape == (2,)


def test_each_game_is_found_by_its_rules() -> None:
    for name, (module, rules) in GAMES_UNDER_TEST.items():
        hooks = driver.hooks_for(rules)
        assert hooks.rules_type is type(rules) and hooks.policy(module.bots.Greedy(seed=0)) is not None
        assert hooks.policy(module.bots.MonteCarlo(seed=0)) is None, name
    with pytest.raises(OrdonnanceTypeError, match="rules must be the Rules of one of the games"):
        driver.hooks_for("rules")


# --------------------------------------------------------------------- chunks (issue 34: Ctrl-C)


def _arrays(res: Any) -> dict[str, np.ndarray]:
    fields = (field.name for field in attrs.fields(type(res)))
    return {name: value for name in fields if isinstance(value := getattr(res, name), np.ndarray)}


def _signatures() -> dict[str, set[str]]:
    from ordonnance import _simulator_kernel
    from ordonnance.black_prince import _kernel as bp_kernel
    from ordonnance.core import jit
    from ordonnance.shinobi import _kernel as shinobi_kernel

    kernels = {
        "ordonnance": _simulator_kernel.simulate, "ordonnance random": _simulator_kernel.simulate_random,
        "shinobi": shinobi_kernel.simulate, "black-prince": bp_kernel.simulate, "stream": jit.stream,
        "mix_bot_seeds": jit.mix_bot_seeds,
    }  # fmt: skip
    return {name: {str(s) for s in getattr(kernel, "signatures", [])} for name, kernel in kernels.items()}


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
@pytest.mark.parametrize("bots", ["random", "greedy"])
@pytest.mark.parametrize("record", [False, True])
def test_games_played_a_few_at_a_time_give_the_results_of_one_kernel_call(
    name: str, bots: str, record: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    players = None if bots == "random" else _bots(module, rules)
    games = GAMES // 4
    monkeypatch.setattr(driver, "_FIRST_CHUNK", 10**9)  # every game in one call, as before the chunks
    whole = module.simulate(rules, games=games, seed=11, players=players, record=record)
    compiled = _signatures()
    monkeypatch.setattr(driver, "_FIRST_CHUNK", 1)
    monkeypatch.setattr(driver, "CHUNK_SECONDS", 0.0)  # then one game a call
    calls: list[int] = []
    run_kernel = module.simulation.HOOKS.run_kernel
    monkeypatch.setattr(module.simulation.HOOKS, "run_kernel", lambda call: calls.append(len(call.seeds)) or run_kernel(call))
    apart = module.simulate(rules, games=games, seed=11, players=players, record=record)
    assert calls == [1] * games
    one, many = _arrays(whole), _arrays(apart)
    assert one.keys() == many.keys() and {"seeds", "bot_seeds", "winner", "scores"} <= one.keys()
    for field in one:
        assert np.array_equal(one[field], many[field]), field
    assert np.array_equal(many["seeds"], game_seeds(11, games))
    own = [int(getattr(bot, "seed", 0)) for bot in players] if players else list(range(rules.players))
    assert np.array_equal(many["bot_seeds"], bot_seeds(game_seeds(11, games), own))
    assert _signatures() == compiled  # the slices are typed as the whole arrays: nothing compiled again


def test_chunks_are_sized_from_the_measured_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(driver.time, "perf_counter", lambda: clock[0])
    slices: list[tuple[int, int]] = []

    def run(start: int, stop: int, cost: float) -> None:
        slices.append((start, stop))
        clock[0] += (stop - start) * cost

    driver.in_chunks(5000, lambda a, b: run(a, b, 0.001), seconds=0.2)  # a millisecond an item
    sizes = [b - a for a, b in slices]
    assert slices[0] == (0, 256) and slices[-1][1] == 5000
    assert all(a[1] == b[0] for a, b in zip(slices, slices[1:]))
    assert len(sizes) > 20 and all(195 <= size <= 200 for size in sizes[1:-1])  # 0.2 s at a millisecond each
    slices.clear()
    driver.in_chunks(10**7, lambda a, b: run(a, b, 1e-9), seconds=0.2)  # fast items: grow, four times at most
    sizes = [b - a for a, b in slices]
    assert sizes[:4] == [256, 1024, 4096, 16384] and max(sizes) <= 4 * 10**7 and slices[-1][1] == 10**7
    slices.clear()
    driver.in_chunks(0, lambda a, b: run(a, b, 0.0))
    assert slices == []


# --------------------------------------------------------------------- bad arguments, record size (issue 34)


BAD = hostile_values.BAD_VALUES


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
@pytest.mark.parametrize("argument", ["rules", "games", "seed", "players", "record"])
def test_every_argument_refuses_bad_values_of_every_type_showing_them(name: str, argument: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    problems = []
    for label, make in BAD.items():
        value = make()
        if (argument in ("rules", "players") and value is None) or (argument == "record" and label in ("True", "np.bool_")):
            continue  # good values
        arguments: dict[str, Any] = {"rules": rules, "games": 3, "seed": 1, "players": None, "record": False}
        arguments[argument] = value
        ok, error, _ = hostile_values.answer(lambda: module.simulate(arguments.pop("rules"), **arguments))
        if not ok or error is None:
            problems.append(f"{label}: {'accepted' if ok else repr(error)[:200]}")
        elif shown(value) not in str(error):
            problems.append(f"{label}: the message does not show the value: {str(error)[:200]}")
    assert problems == []


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_numpy_integers_are_taken_as_ints(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    res = module.simulate(rules, games=np.uint16(3), seed=np.uint64(2**64 - 1), record=np.bool_(True))
    plain = module.simulate(rules, games=3, seed=2**64 - 1, record=True)
    assert len(res) == 3 and all(np.array_equal(a, b) for a, b in zip(_arrays(res).values(), _arrays(plain).values()))


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_a_record_too_large_to_keep_is_refused_before_anything_is_allocated(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    with pytest.raises(InvalidRulesError, match=r"record=True would keep [\d.]+ (GiB|TiB) for 100,000,000 games .* bytes a game\), "
                                               r"more than the 16\.0 GiB one simulate call may keep; record at most [\d,]+ games a call"):
        module.simulate(rules, games=driver.MAX_GAMES, record=True)
    row = driver.hooks_for(rules).record_bytes(rules, record=True, in_kernel=True)
    assert row > 0 and driver.hooks_for(rules).record_bytes(rules, record=False, in_kernel=True) == 0
    monkeypatch.setattr(driver, "MAX_RECORD_BYTES", 10 * row)
    assert len(module.simulate(rules, games=10, record=True)) == 10
    assert len(module.simulate(rules, games=11)) == 11  # no record: no bound
    with pytest.raises(InvalidRulesError, match=rf"for 11 games \({row:,} bytes a game\).* record at most 10 games a call"):
        module.simulate(rules, games=11, record=True)


@pytest.mark.parametrize("name", ["shinobi", "black-prince"])
def test_bots_played_in_python_keep_their_actions_within_the_bound_too(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    players = [module.bots.MonteCarlo(seed=0)] + [module.bots.Random(seed=s) for s in range(1, rules.players)]
    with pytest.raises(InvalidRulesError, match="bots played in Python would keep every game's actions, .* for 100,000,000 games"):
        module.simulate(rules, games=driver.MAX_GAMES, players=players)


def test_shinobi_refuses_a_record_that_is_not_a_bool() -> None:
    with pytest.raises(OrdonnanceTypeError, match="record must be a bool, got 'no'"):
        shinobi.simulate(shinobi.Rules(players=3), games=2, record="no")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(GAMES_UNDER_TEST))
def test_players_are_read_with_a_bound(name: str) -> None:
    module, rules = GAMES_UNDER_TEST[name]
    with pytest.raises(InvalidRulesError, match=rf"players must list {rules.players} bots \(one per seat\), got more: range\(0, 10\*\*20\)|got more: range"):
        module.simulate(rules, games=1, players=range(10**20))
    with pytest.raises(OrdonnanceTypeError, match="players must be a sequence"):
        module.simulate(rules, games=1, players=itertools.repeat(module.bots.Random()))
