"""The numba simulator against the readable engine: twin games, action for action.

Counts scale down when numba's JIT is disabled (the kernel then runs as Python).
"""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pytest

from ordonnance.core.stats import wilson
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.shinobi import Game, Rules, bots, simulate
from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi.actions import from_code
from ordonnance.shinobi.bots import after, evaluate
from ordonnance.simulation import game_seeds

GAMES = 8 if numba.config.DISABLE_JIT else 60
VARIANTS = [Rules(players=n, attack=a) for n in (3, 4, 5) for a in ("mandatory", "optional")]  # type: ignore[arg-type]
LINEUPS = ["random", "greedy", "mixed"]


def lineup(kind: str, n: int) -> list[bots.Random | bots.Greedy]:
    if kind == "random":
        return [bots.Random(seed=10 + seat) for seat in range(n)]
    if kind == "greedy":
        return [bots.Greedy(seed=20 + seat) for seat in range(n)]
    return [(bots.Greedy if seat % 2 else bots.Random)(seed=seat) for seat in range(n)]


def play_in_python(rules: Rules, seed: int, players: list[bots.Random | bots.Greedy]) -> tuple[Game, list[int]]:
    game = Game.new(rules, seed=seed)
    codes = []
    while not game.is_over:
        action = players[game.current_player].choose(game.view(game.current_player))
        codes.append(action.code)
        game.apply(action)
    return game, codes


@pytest.mark.parametrize(("rules", "kind"), list(itertools.product(VARIANTS, LINEUPS)),
                         ids=lambda x: x if isinstance(x, str) else f"{x.players}p-{x.attack}")  # fmt: skip
def test_kernel_games_are_the_engines_games_action_for_action(rules: Rules, kind: str) -> None:
    players = lineup(kind, rules.players)
    res = simulate(rules, games=GAMES, seed=rules.players * 7 + len(kind), players=players, record=True)
    assert res.actions is not None
    for g in range(GAMES):
        twins = [type(bot)(seed=int(res.bot_seeds[g, seat])) for seat, bot in enumerate(players)]
        game, codes = play_in_python(rules, int(res.seeds[g]), twins)
        assert codes == list(res.actions[g, : res.decisions[g]]), f"game {g} diverges"
        assert game.winners == res.winners_of(g) and (game.winner if game.winner is not None else -1) == res.winner[g]
        assert game.totals == tuple(res.totals[g]) and game.scores == tuple(res.scores[g])
        assert game.turns == res.turns[g] and tuple(game._clan_order) == tuple(res.clans[g])
        assert res.decisions[g] == len(codes) and res.rounds[g] == -(-game.turns // rules.players)


def test_custom_troop_decks_agree_too() -> None:
    for rules in (Rules(players=3, samurai=2, ninjas=2), Rules(players=5, samurai=(1, 0, 30, 0, 2), ninjas=3)):
        res = simulate(rules, games=GAMES, seed=3, players=lineup("mixed", rules.players), record=True)
        for g in range(GAMES):
            twins = [type(bot)(seed=int(res.bot_seeds[g, s])) for s, bot in enumerate(lineup("mixed", rules.players))]
            assert play_in_python(rules, int(res.seeds[g]), twins)[1] == list(res.actions[g, : res.decisions[g]])  # type: ignore[index]


def test_replay_without_record_plays_the_kernel_game_again() -> None:
    res = simulate(Rules(), games=5, seed=9, players=lineup("greedy", 4))
    assert res.actions is None
    for g in range(5):
        game = res.replay(g)
        assert game.is_over and game.totals == tuple(res.totals[g]) and len(game.history) == res.decisions[g]
        assert game == Game.new(Rules(), seed=int(game_seeds(9, 5)[g])).__class__.from_json(game.to_json())


class Custom(bots.Random):
    """A Random the kernel does not know: simulate drives it through Game."""


def test_python_bots_play_the_same_games_as_their_kernel_twins() -> None:
    rules = Rules(players=3, attack="optional")
    fast = simulate(rules, games=GAMES, seed=4, players=[bots.Random(seed=1), bots.Greedy(seed=2), bots.Random(seed=3)])
    slow = simulate(rules, games=GAMES, seed=4, players=[Custom(seed=1), bots.Greedy(seed=2), Custom(seed=3)])
    for name in ("winner", "winners", "scores", "totals", "clans", "turns", "decisions", "rounds"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name
    assert slow.replay(1).totals == tuple(slow.totals[1])


def test_the_kernels_greedy_evaluation_is_the_readable_one() -> None:
    rng = np.random.default_rng(5)
    state = np.zeros(kernel.state_size(58), np.int64)
    work = np.zeros(kernel.WORK, np.int64)
    for _ in range(300 if not numba.config.DISABLE_JIT else 30):
        n = int(rng.integers(3, 6))
        table = rng.integers(0, 5, size=(n, 5)) * (rng.random((n, 5)) < 0.6)
        state[kernel.N] = n
        state[kernel.PROV : kernel.PROV + 5 * n] = table.ravel()
        seat, clan = int(rng.integers(n)), int(rng.integers(5))
        assert kernel.evaluate(state, seat, clan, work) == evaluate(table.tolist(), seat, clan)


def test_after_applies_an_action_to_a_copy() -> None:
    table = ((1, 0, 0, 0, 0), (0, 2, 0, 0, 0), (0, 0, 0, 0, 0))
    assert after(table, 0, from_code(kernel.MOVE_BASE + 5 * (5 * 1 + 1) + 2)) == [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 1, 0, 0, 0]]
    assert table[1] == (0, 2, 0, 0, 0)


def test_summary_and_result_shapes() -> None:
    res = simulate(Rules(players=5), games=GAMES * 4, seed=1)
    summary = res.summary()
    assert len(summary.win_rate) == 5 and abs(sum(summary.win_rate) + summary.draw_rate - 1) < 1e-9
    assert 0 <= summary.neutral_leader_rate <= 1 and summary.mean_turns > 30
    with pytest.warns(DeprecationWarning, match="shared_rate is deprecated: use draw_rate"):
        assert summary.shared_rate == summary.draw_rate
    assert "neutral clan" in str(summary) and len(res) == GAMES * 4
    assert np.all(res.winners.sum(axis=1) >= 1) and np.all((res.winner == -1) == (res.winners.sum(axis=1) > 1))
    assert simulate(Rules(), games=0, seed=1).summary().games == 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_summary_figures_are_those_of_the_games_replayed_through_game(players: int) -> None:
    """Every Summary figure recomputed in plain Python from the recorded games replayed
    through Game (per seat, per clan, neutral clans, lengths), compared exactly."""
    rules = Rules(players=players)
    games = 100 if numba.config.DISABLE_JIT else 300
    res = simulate(rules, games=games, seed=11, players=lineup("mixed", players), record=True)
    summary = res.summary()
    sole, served, won = [0] * 5, [0] * 5, [0] * players
    shared = neutral_leads = neutral_cards = turns = decisions = rounds = 0
    for index in range(games):
        game = res.replay(index)
        assert game.is_over
        seats_clans = [game.clan(seat) for seat in range(players)]
        for seat, clan in enumerate(seats_clans):
            served[clan] += 1
            sole[clan] += game.winner == seat
        if game.winner is None:
            shared += 1
        else:
            won[game.winner] += 1
        totals = game.totals
        neutral = game.neutral_clans
        assert sorted(neutral + tuple(seats_clans)) == [0, 1, 2, 3, 4]
        neutral_leads += bool(neutral) and max(totals[c] for c in neutral) > max(totals[c] for c in seats_clans)
        neutral_cards += sum(totals[c] for c in neutral)
        turns += game.turns
        decisions += len(game.history)
        rounds += sum(1 for turn in range(game.turns) if turn % players == 0)  # the turns seat 0 begins
    assert summary.games == games and summary.players == players and summary.win_rate == tuple(w / games for w in won)
    assert summary.win_rate_ci == tuple(wilson(w, games) for w in won)
    assert summary.draw_rate == shared / games
    assert summary.first_player_advantage == pytest.approx(won[0] / games - 1 / players)
    low, high = wilson(won[0], games)
    assert summary.first_player_advantage_ci == pytest.approx((low - 1 / players, high - 1 / players))
    assert summary.mean_rounds == pytest.approx(rounds / games)
    assert summary.clan_win_rate == tuple(sole[c] / served[c] for c in range(5))
    assert summary.neutral_leader_rate == neutral_leads / games and summary.neutral_cards == neutral_cards / games
    assert summary.mean_turns == turns / games and summary.mean_decisions == decisions / games
    assert all(served) and (0 < neutral_leads < games if players < 5 else neutral_cards == 0)  # not trivially 0 or 1


def test_the_same_seed_gives_the_same_results_and_seeds_follow_the_shared_stream() -> None:
    a = simulate(Rules(players=3), games=GAMES, seed=77, players=lineup("mixed", 3))
    b = simulate(Rules(players=3), games=GAMES, seed=77, players=lineup("mixed", 3))
    assert np.array_equal(a.totals, b.totals) and np.array_equal(a.seeds, game_seeds(77, GAMES))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InvalidRulesError, match="-1"):
        simulate(Rules(), games=-1)
    with pytest.raises(InvalidRulesError, match="players must list 4 bots"):
        simulate(Rules(), games=1, players=[bots.Random()])
    with pytest.raises(OrdonnanceTypeError, match="shinobi.Rules, got 'rules'"):
        simulate("rules", games=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match="game index must be in 0..1, got 2"):
        simulate(Rules(players=3), games=2).replay(2)
