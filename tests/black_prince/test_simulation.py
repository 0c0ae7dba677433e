"""The numba kernel against the engine: simulated games replay action for action through Game.

Runs with NUMBA_DISABLE_JIT=1 too, with fewer games (ORDONNANCE_TWIN_GAMES
scales them; the JIT-less default is a tenth).
"""

from __future__ import annotations

import itertools
import os

import numba
import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince.simulation import decode, encode, tables
from ordonnance.core.stats import wilson
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.simulation import bot_seeds, game_seeds

SCALE = int(os.environ.get("ORDONNANCE_TWIN_GAMES", "30" if numba.config.DISABLE_JIT else "300"))
PAIRINGS = list(itertools.permutations(bp.ARMIES, 2))
LINEUPS = {
    "random-random": (bp.Random(seed=1), bp.Random(seed=2)),
    "greedy-random": (bp.Greedy(seed=3), bp.Random(seed=4)),
    "greedy-greedy": (bp.Greedy(seed=5), bp.Greedy(seed=5)),
}


def python_game(rules: bp.Rules, seed: int, bots: tuple[bp.Bot, ...], own: list[int]) -> tuple[bp.Game, list[bp.Action]]:
    """The slow twin: Game driven by fresh Python bots seeded as simulate seeds them."""
    game = bp.Game.new(rules, seed=seed)
    seeds = bot_seeds(np.array([seed], np.uint64), own)[0]
    playing = [type(bot)(seed=int(bot.seed)) for bot in bots]  # type: ignore[attr-defined]
    for bot, s in zip(playing, seeds):
        bot._state = int(s)
    actions = []
    while not game.is_over:
        seat = game.current_player
        action = playing[seat].choose(game.view(seat))
        actions.append(action)
        game.apply(action)
    return game, actions


@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_kernel_games_are_the_engine_games_action_for_action(lineup: str) -> None:
    bots = LINEUPS[lineup]
    for i, armies in enumerate(PAIRINGS):
        rules = bp.Rules(armies=armies, first="coin" if i % 2 else "seat0")
        games = max(2, SCALE // len(PAIRINGS))
        res = bp.simulate(rules, games=games, seed=i, players=bots, record=True)
        for g in range(games):
            game, actions = python_game(rules, int(res.seeds[g]), bots, [int(b.seed) for b in bots])  # type: ignore[attr-defined]
            assert list(res.record(g)) == actions
            assert res.winner[g] == (-1 if game.winner is None else game.winner)
            assert tuple(res.scores[g]) == game.routed and res.turns[g] == game.turn
            assert res.decisions[g] == len(actions) and res.rounds[g] == -(-game.turn // 2)


def test_replay_without_a_record_plays_the_bots_again() -> None:
    res = bp.simulate(bp.Rules(armies=("Scottish", "English")), games=20, seed=9,
                      players=[bp.Greedy(seed=1), bp.Random(seed=2)])  # fmt: skip
    assert res.actions is None
    for g in range(20):
        game = res.replay(g)
        assert game.is_over and game.routed == tuple(res.scores[g])


def test_custom_decks_and_tables_in_the_kernel() -> None:
    rules = bp.Rules(decks=([bp.Card("Archers", 1, advantages=["Knights", "Pikemen"])] * 8 + ["Battle"] * 3,
                            ["Pikemen 3", "Knights 2", "Light cavalry 1"] * 6),
                     advantages={"Knights": ["Archers"]}, max_turns=40)  # fmt: skip
    res = bp.simulate(rules, games=max(10, SCALE // 10), seed=2, players=[bp.Greedy(seed=1), bp.Random(seed=1)],
                      record=True)  # fmt: skip
    for g in range(len(res)):
        assert res.replay(g).routed == tuple(res.scores[g])


def test_python_bots_run_through_the_engine_and_replay() -> None:
    class First:
        seed = 7

        def choose(self, view: bp.PlayerView) -> bp.Action:
            return view.legal_actions[0]

    res = bp.simulate(bp.Rules(), games=5, seed=3, players=[First(), bp.Random(seed=3)])
    assert res.actions is not None
    for g in range(5):
        assert res.replay(g).routed == tuple(res.scores[g])


class _Custom(bp.Greedy):
    """A Greedy the kernel does not know: simulate drives it through Game in Python (seeded alike)."""


def test_the_python_road_fills_every_array_as_the_kernel_does() -> None:
    rules = bp.Rules(armies=("Scottish", "Burgundian"), first="coin")
    games = max(6, SCALE // 10)
    fast = bp.simulate(rules, games=games, seed=6, players=[bp.Greedy(seed=1), bp.Random(seed=2)], record=True)
    slow = bp.simulate(rules, games=games, seed=6, players=[_Custom(seed=1), bp.Random(seed=2)])
    for name in ("seeds", "bot_seeds", "winner", "scores", "turns", "decisions", "rounds", "actions"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


def test_deal_seeds_follow_game_seeds() -> None:
    res = bp.simulate(bp.Rules(), games=4, seed=77)
    assert np.array_equal(res.seeds, game_seeds(77, 4))
    same = bp.simulate(bp.Rules(), games=4, seed=77)
    assert np.array_equal(res.winner, same.winner) and np.array_equal(res.scores, same.scores)


def test_encode_decode_round_trip_on_every_legal_action() -> None:
    rules = bp.Rules(armies=("Burgundian", "French"))
    kinds = tables(rules)
    game = bp.Game.new(rules, seed=5)
    bot = bp.Random(seed=1)
    while not game.is_over:
        for action in game.legal_actions():
            assert decode(encode(action, kinds), kinds) == action
        game.apply(bot.choose(game.view(game.current_player)))


def test_summary_figures_are_a_hand_count_of_the_replayed_games() -> None:
    """Every figure of the summary from the games replayed through Game, counted one by one;
    the first-player advantage is seat 0's win rate minus a half, as in every game."""
    games = max(40, SCALE // 2)
    res = bp.simulate(bp.Rules(armies=("French", "English")), games=games, seed=4,
                      players=[bp.Greedy(seed=1), bp.Random(seed=2)], record=True)  # fmt: skip
    won, draws, decisions, rounds, turns, routed = [0, 0], 0, 0, 0, 0, [0, 0]
    for g in range(games):
        game = res.replay(g)
        if game.winner is None:
            draws += 1
        else:
            won[game.winner] += 1
        decisions += len(res.record(g))
        rounds += sum(1 for turn in range(1, game.turn + 1) if turn % 2 == 1)  # the turns the first player begins
        turns += game.turn
        routed = [routed[0] + game.routed[0], routed[1] + game.routed[1]]
    s = res.summary()
    assert (s.games, s.players) == (games, 2) and s.win_rate == (won[0] / games, won[1] / games)
    assert s.win_rate_ci == (wilson(won[0], games), wilson(won[1], games)) and s.draw_rate == pytest.approx(draws / games)
    assert s.first_player_advantage == pytest.approx(won[0] / games - 0.5) and s.first_player_advantage > 0.2
    low, high = wilson(won[0], games)
    assert s.first_player_advantage_ci == pytest.approx((low - 0.5, high - 0.5))
    assert s.win_rate_gap == pytest.approx((won[0] - won[1]) / games)
    assert s.mean_decisions == pytest.approx(decisions / games) and s.mean_rounds == pytest.approx(rounds / games)
    assert s.mean_turns == pytest.approx(turns / games) and s.mean_routed == pytest.approx((routed[0] / games, routed[1] / games))
    assert s.mean_rounds == pytest.approx(np.mean(np.ceil(res.turns / 2)))


def test_summary_and_bad_input() -> None:
    summary = bp.simulate(bp.Rules(), games=200, seed=1).summary()
    assert summary.games == 200 and abs(sum(summary.win_rate) + summary.draw_rate - 1) < 1e-9
    assert "player 0 wins" in str(summary) and "routs on average: player 0" in str(summary)
    with pytest.raises(InvalidRulesError, match="-1"):
        bp.simulate(bp.Rules(), games=-1)
    with pytest.raises(OrdonnanceTypeError, match="class"):
        bp.simulate(bp.Rules(), games=1, players=[bp.Random, bp.Random])  # type: ignore[list-item]
    with pytest.raises(InvalidRulesError, match="2 bots"):
        bp.simulate(bp.Rules(), games=1, players=[bp.Random()])
    with pytest.raises(OrdonnanceTypeError, match="black_prince.Rules"):
        bp.simulate("rules", games=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match="index"):
        bp.simulate(bp.Rules(), games=2).replay(5)
    with pytest.raises(InvalidRulesError, match="record=True"):
        bp.simulate(bp.Rules(), games=2).record(0)
    with pytest.raises(OrdonnanceTypeError, match="record"):
        bp.simulate(bp.Rules(), games=2, record=1)  # type: ignore[arg-type]
    empty = bp.simulate(bp.Rules(), games=0)
    assert len(empty) == 0 and empty.summary().games == 0 and empty.summary().draw_rate == 0.0


# ---------------------------------------------------------------- hypothesis twins

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ordonnance.black_prince import _kernel  # noqa: E402

RULES_FOR_FIGHTS = bp.Rules(armies=("Blue", "Red"), decks=(list(bp.deck("French")), list(bp.deck("Scottish"))),
                            advantages={"Knights": ["Archers", "Pikemen"], "Archers": ["Knights"],
                                        "Pikemen": ["Knights", "Cavalry"], "Swordsmen": ["Pikemen"]})  # fmt: skip
TROOPS = [bp.Card(t, s) for t in bp.TroopType for s in (1, 2, 3)]


@st.composite
def battlefields(draw: st.DrawFn) -> bp.Battlefield:
    """A battlefield of random troops: fronts at random, back cards behind line infantry of their type."""
    field = bp.Battlefield.empty(RULES_FOR_FIGHTS)
    for seat in (0, 1):
        for column in range(6):
            if draw(st.booleans()):
                card = draw(st.sampled_from(TROOPS))
                field = field.with_card((bp.front_row(seat), column), card)
                if card.type is not None and card.type.is_line and draw(st.booleans()):
                    behind = bp.Card(card.type, draw(st.integers(1, 3)))
                    field = field.with_card((bp.back_row(seat), column), behind)
    return field


@settings(max_examples=200 if not numba.config.DISABLE_JIT else 30, deadline=None)
@given(battlefields(), st.integers(0, 1), st.integers(0, 5), st.integers(-1, 1))
def test_kernel_fights_are_the_fight_calculator(field: bp.Battlefield, seat: int, column: int, offset: int) -> None:
    target = column + offset
    if not 0 <= target < 6 or field.cell(bp.front_row(seat), column) is None:
        return
    if field.cell(bp.front_row(1 - seat), target) is None:
        return
    cards = sorted(set(TROOPS), key=lambda c: c.sort_key)
    index = {c: i for i, c in enumerate(cards)}
    tb = _kernel.Tables(
        np.array([int(c.type) for c in cards], np.int64),  # type: ignore[arg-type]
        np.array([c.strength for c in cards], np.int64),
        np.array([sum(1 << int(t) for t in RULES_FOR_FIGHTS.card_advantages(c)) for c in cards], np.int64),
    )
    cells = np.array([[-1 if c is None else index[c] for c in row] for row in field.cells], np.int64)
    result = bp.fight((bp.front_row(seat), column), (bp.front_row(1 - seat), target), field)
    a, d, a_lost, d_lost = _kernel.fight_totals(tb, cells, seat, column, target)
    assert (a, d) == (result.attacker.total, result.defender.total)
    assert (a_lost, d_lost) == (1 + result.attacker.double_line, 1 + result.defender.double_line)


@settings(max_examples=40 if not numba.config.DISABLE_JIT else 5, deadline=None)
@given(st.sampled_from(PAIRINGS), st.integers(0, 2**64 - 1), st.sampled_from(["seat0", "coin"]),
       st.sampled_from(list(LINEUPS)))  # fmt: skip
def test_any_seed_twins(armies: tuple[str, str], seed: int, first: str, lineup: str) -> None:
    rules = bp.Rules(armies=armies, first=first)  # type: ignore[arg-type]
    bots = LINEUPS[lineup]
    res = bp.simulate(rules, games=1, seed=seed, players=bots, record=True)
    game, actions = python_game(rules, int(res.seeds[0]), bots, [int(b.seed) for b in bots])  # type: ignore[attr-defined]
    assert list(res.record(0)) == actions and tuple(res.scores[0]) == game.routed
