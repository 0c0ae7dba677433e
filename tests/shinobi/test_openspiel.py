"""Shinobi's OpenSpiel adapter against the engine: chance, every step of random games,
strings and tensors, resampling, IS-MCTS and bots across the two libraries."""

from __future__ import annotations

import os
import pickle
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import shinobi
from ordonnance.shinobi import Game, Rules, render
from ordonnance.shinobi.rl import encode_view

from .. import openspiel_checks as checks

pyspiel = pytest.importorskip("pyspiel")
sos = pytest.importorskip("ordonnance.shinobi.openspiel")

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
GAMES = 4 if JIT else 1
PARAMS: list[dict[str, Any]] = [
    {},
    {"players": 3, "attack": "optional"},
    {"players": 5, "ninjas": 0},
    {"players": 3, "samurai": "4 5 6 7 8", "ninjas": 1},
    {"seed": 11},
    {"players": 5, "seed": 2**31 - 1, "attack": "optional"},
]
IDS = ["4p", "3p-optional", "5p-no-ninjas", "3p-custom-deck", "seed", "5p-seed"]


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_shinobi", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_the_game_type_says_whether_chance_nodes_occur(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_shinobi", params)
    checks.chance_mode_matches(pyspiel, game, fixed="seed" in params, games=2)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_every_step_agrees_with_the_engine(params: dict[str, Any]) -> None:
    """Chance outcomes (the clans, then the deck: copies left / cards left), legal actions,
    observations, strings and returns, step for step, against the Game dealt from the
    chance outcomes (or the seed) and played with the same actions."""
    game = pyspiel.load_game("python_shinobi", params)
    rules, seed = sos.rules_of(params)
    n = rules.players
    for g in range(GAMES):
        rng = random.Random(g)
        state = game.new_initial_state()
        clans: list[int] = []
        deck: list[int] = []
        while state.is_chance_node():
            if len(clans) < n:
                left = [c for c in range(5) if c not in clans]
                assert state.chance_outcomes() == [(c, 1 / len(left)) for c in left]
                clans.append(checks.random_step(state, rng))
                state.apply_action(clans[-1])
            else:
                left_cards = Counter(rules.troop_deck) - Counter(deck)
                total = sum(left_cards.values())
                assert state.chance_outcomes() == [(code, left_cards[code] / total) for code in sorted(left_cards)]
                deck.append(checks.random_step(state, rng))
                state.apply_action(deck[-1])
        engine = Game.new(rules, seed=seed) if seed is not None else Game.new(rules, deck=deck, clans=clans)
        decisions: list[str] = []
        while True:
            assert state.game() == engine
            assert state.is_terminal() == engine.is_over
            for p in range(n):
                view = engine.view(p)
                assert np.array_equal(np.asarray(state.observation_tensor(p)), encode_view(view))
                assert np.array_equal(np.asarray(state.information_state_tensor(p)), encode_view(view))
                assert state.observation_string(p) == render.board(view, width=None)
                hand = " ".join(map(str, view.hand))
                assert state.information_state_string(p) == (
                    f"seat {p} | clan {shinobi.CLAN_NAMES[view.clan]} | hand {hand} | history {'; '.join(decisions)}"
                )
            if engine.is_over:
                break
            assert state.current_player() == engine.current_player
            assert state.legal_actions() == sorted(a.code for a in engine.legal_actions())
            a = checks.random_step(state, rng)
            assert state.action_to_string(state.current_player(), a) == repr(shinobi.from_code(a))
            state.apply_action(a)
            engine.apply(shinobi.from_code(a))
            decisions.append(repr(shinobi.from_code(a)))
        winners = engine.winners
        assert state.returns() == [1 / len(winners) if p in winners else -1 / (n - len(winners)) for p in range(n)]


def test_the_deal_is_as_likely_as_game_new() -> None:
    """The seat 0 clan and the top card: the chance nodes' exact distribution (the tree walked
    whole) against 3,000 deals of Game.new, by Pearson's test at the 0.001 level."""
    rules = Rules(players=3, samurai=(1, 2, 3, 4, 5), ninjas=2)
    game = sos.load(rules)
    n = rules.players
    exact = checks.deal_probabilities(game, lambda taken: (taken[0], taken[n]), n + 1)
    assert exact[(0, 5)] == pytest.approx(1 / 5 * 2 / 17)
    deals = [Game.new(rules, seed=seed) for seed in range(3_000 if JIT else 600)]
    counts = Counter((deal.clan(0), deal.hand(0)[0].code) for deal in deals)
    statistic, freedom = checks.chi_square(counts, exact)
    assert freedom == 29 and statistic < checks.CRITICAL_0_001[29]


def test_a_fixed_deal_is_game_new_of_its_seed() -> None:
    state = sos.load(Rules(players=5), seed=42).new_initial_state()
    assert not state.is_chance_node() and state.game() == Game.new(Rules(players=5), seed=42)
    assert sos.load(Rules(), seed=3).deal_seed == 3 and sos.load().deal_seed is None


def test_the_game_describes_itself() -> None:
    game = sos.load(Rules(players=5, attack="optional"))
    assert game.num_players() == 5 and game.num_distinct_actions() == shinobi.ACTION_COUNT == 306
    assert game.max_chance_outcomes() == 6 and game.rules == Rules(players=5, attack="optional")
    assert game.observation_tensor_size() == 22 + 12 * 5 == game.information_state_tensor_size()
    assert game.get_type().short_name == "python_shinobi"
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "Deal clan Oda"
    assert "samurai=11 11 11 11 11" in str(game)


@pytest.mark.parametrize("params", PARAMS[:4], ids=IDS[:4])
def test_resampling_keeps_the_information_state(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_shinobi", params)
    assert checks.resampling_keeps_the_information_state(pyspiel, game, random.Random(1), 0.2 if JIT else 0.03) > 0


def test_a_clone_plays_on_alone() -> None:
    game = sos.load(Rules(players=3))
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        clone = state.clone()
        before = (state.history(), str(state), state.legal_actions(), state.chance_outcomes())
        if rng.random() < 0.1:
            checks.play_out(clone, rng)
            assert (state.history(), str(state), state.legal_actions(), state.chance_outcomes()) == before
        state.apply_action(checks.random_step(state, rng))
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()


def test_ismcts_plays_a_game_through_the_adapter() -> None:
    state = checks.ismcts_plays_a_game(sos.load(Rules(players=3)), 16 if JIT else 2)
    assert Game.from_json(state.game().to_json()).is_over


def test_a_library_bot_plays_inside_openspiel_as_it_plays_the_engine() -> None:
    rules = Rules(players=4)
    state = sos.load(rules, seed=5).new_initial_state()
    spiel_bots = [sos.LibraryBot(shinobi.bots.Greedy(seed=p)) for p in range(4)]
    engine = Game.new(rules, seed=5)
    bots = [shinobi.bots.Greedy(seed=p) for p in range(4)]
    while not engine.is_over:
        p = engine.current_player
        action = spiel_bots[p].step(state)
        assert shinobi.from_code(action) == bots[p].choose(engine.view(p))
        state.apply_action(action)
        engine.apply(shinobi.from_code(action))
    assert state.is_terminal() and state.game() == engine
    with pytest.raises(od.IllegalActionError, match="no seat is to act"):
        spiel_bots[0].step(state)


def test_an_openspiel_bot_plays_every_seat_through_choose_and_in_a_tournament() -> None:
    from open_spiel.python.algorithms import mcts

    rules = Rules(players=3)
    search = mcts.MCTSBot(sos.load(rules), 2.0, 4 if JIT else 2, mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
                          random_state=np.random.RandomState(4))  # fmt: skip
    bot = sos.OpenSpielBot(search, seed=1)
    assert bot.seat is None
    engine = Game.new(rules, seed=9)
    while not engine.is_over:
        action = bot.choose(engine.view(engine.current_player))
        assert action in engine.legal_actions()
        engine.apply(action)
    bots = {"openspiel": bot, "greedy": shinobi.bots.Greedy(seed=2), "random": shinobi.bots.Random(seed=3)}
    result = od.tournament(bots, games=6, rules=rules, seed=1, executor="serial")
    assert result.games >= 6


def test_a_bot_openspiel_made_for_one_seat_is_refused_elsewhere() -> None:
    """OpenSpiel's uniform random bot of player 0 crashes the process when asked in seat 1's turn:
    the wrapper knows its seat and refuses with the library's error."""
    bot = sos.OpenSpielBot(pyspiel.make_uniform_random_bot(0, 3), seed=1)
    assert bot.seat == 0 and sos.OpenSpielBot(pyspiel.make_uniform_random_bot(2, 3)).seat == 2
    engine = Game.new(Rules(), seed=4)
    assert bot.choose(engine.view(0)) in engine.legal_actions()
    engine.apply(engine.legal_actions()[0])
    while engine.current_player == 0:
        engine.apply(engine.legal_actions()[0])
    with pytest.raises(od.InvalidSeatError, match="for player 0 only, and cannot play seat 1"):
        bot.choose(engine.view(1))


def test_bad_input_is_refused() -> None:
    checks.bad_parameters_are_refused(pyspiel, "python_shinobi", [
        ({"players": 6}, "players must be 3..5, got 6"),
        ({"attack": "sometimes"}, "attack must be one of .*got 'sometimes'"),
        ({"samurai": "1 2"}, "samurai must be one count or 5 counts.*got '1 2'"),
        ({"samurai": "x"}, "got 'x'"),
        ({"ninjas": 4}, "ninjas must be 0..3, got 4"),
        ({"seed": -2}, "got -2"),
        ({"player": 3}, "(?i)unknown parameter 'player'"),
    ])  # fmt: skip
    with pytest.raises(od.OrdonnanceTypeError, match="unknown parameter"):
        sos.rules_of({"player": 3})
    with pytest.raises(od.OrdonnanceTypeError, match="samurai must be"):
        sos.rules_of({"samurai": 11})
    with pytest.raises(od.OrdonnanceTypeError, match="rules must be a shinobi Rules"):
        sos.load(od.Rules())  # type: ignore[arg-type]
    with pytest.raises(od.OrdonnanceTypeError, match="takes a shinobi Game"):
        sos.state_of(od.Game.new(seed=1))  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="are not the OpenSpiel game's"):
        sos.state_of(Game.new(Rules(players=3), seed=1), sos.load(Rules()))
    with pytest.raises(od.OrdonnanceTypeError, match="choose"):
        sos.LibraryBot(object())
    with pytest.raises(od.OrdonnanceTypeError, match="plays ShinobiState"):
        sos.LibraryBot(shinobi.bots.Random(seed=1)).step(pyspiel.load_game("tic_tac_toe").new_initial_state())
    with pytest.raises(od.OrdonnanceTypeError, match="PlayerView"):
        sos.OpenSpielBot(pyspiel.make_uniform_random_bot(0, 3)).choose("view")
    with pytest.raises(od.IllegalActionError, match="not seat 1's turn"):
        sos.OpenSpielBot(pyspiel.make_uniform_random_bot(1, 3)).choose(Game.new(Rules(), seed=1).view(1))


def test_an_illegal_action_changes_nothing() -> None:
    state = sos.load(Rules(), seed=1).new_initial_state()
    before, history = state.game(), state.history()
    for bad in (-7, 306, 10_000, next(a for a in range(306) if a not in state.legal_actions())):
        with pytest.raises(od.IllegalActionError, match="is not legal"):
            state.apply_action(bad)
        assert state.game() == before and state.history() == history
    dealing = sos.load().new_initial_state()
    dealing.apply_action(3)
    with pytest.raises(od.IllegalActionError, match="not possible"):
        dealing.apply_action(3)  # seat 1 cannot have seat 0's clan
    assert dealing.history() == [3] and dealing.is_chance_node()
    with pytest.raises(od.IllegalActionError, match="chance node"):
        dealing.game()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(od.IllegalActionError, match="the game is over"):
        state.apply_action(0)
    assert state.legal_actions() == [] and state.chance_outcomes() == []
