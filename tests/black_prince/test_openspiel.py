"""Black Prince's OpenSpiel adapter against the engine: chance (the two shuffles, the coin and
the breakthroughs), every step of random games, strings and tensors, resampling, IS-MCTS and
bots across the two libraries."""

from __future__ import annotations

import os
import random
from collections import Counter
from itertools import count
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance.black_prince import Card, Game, Rules, render
from ordonnance.black_prince.pettingzoo import action_from_index, action_index, encode_view
from ordonnance.core.rng import bounded, skipped, splitmix64

from .. import openspiel_checks as checks

pyspiel = pytest.importorskip("pyspiel")
bos = pytest.importorskip("ordonnance.black_prince.openspiel")

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
GAMES = 6 if JIT else 2
_SMALL = "Battle/Archers 1/Archers 2/Knights 1/Knights 2/Pikemen 1/Pikemen 2/Spearmen 3"
PARAMS: list[dict[str, Any]] = [
    {},
    {"first": "coin", "army0": "Scottish", "army1": "Burgundian"},
    {"army0": "French", "army1": "French", "max_turns": 30},
    {"deck0": _SMALL, "deck1": _SMALL, "first": "coin", "army0": "Red", "army1": "Blue"},
    {"seed": 11},
    {"seed": 2**31 - 1, "first": "coin"},
]
IDS = ["default", "coin", "mirror-30-turns", "custom-decks-coin", "seed", "coin-seed"]


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_black_prince", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_the_game_type_says_whether_chance_nodes_occur(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_black_prince", params)
    checks.chance_mode_matches(pyspiel, game, fixed="seed" in params, games=2)


def _stream_giving(picks: list[int], sizes: list[int]) -> int:
    """A chance-stream state whose draws take the cards ``picks`` from hands of ``sizes`` cards,
    found by trying states one after another (the engine's own draws, not the adapter's)."""
    for t in count():
        state = splitmix64(t)[1]
        at = state
        for pick, size in zip(picks, sizes):
            at, value = splitmix64(at)
            if bounded(value, size) != pick:
                break
        else:
            return state
    raise AssertionError("unreachable")


def _dealt(state: Any, rules: Rules, rng: random.Random) -> tuple[list[list[Card]], int | None]:
    """Deal ``state`` at random, checking every chance node: each deck's cards left, then the coin."""
    decks: list[list[Card]] = [[], []]
    coin = None
    while state.is_chance_node():
        seat = 0 if len(decks[0]) < len(rules.deck(0)) else 1
        if seat == 1 and len(decks[1]) == len(rules.deck(1)):
            assert rules.first == "coin" and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
            coin = checks.random_step(state, rng)
            state.apply_action(coin)
            continue
        kinds = list(dict.fromkeys(rules.deck(seat)))
        left = Counter(rules.deck(seat)) - Counter(decks[seat])
        total = sum(left.values())
        assert state.chance_outcomes() == [(i, left[card] / total) for i, card in enumerate(kinds) if left[card]]
        outcome = checks.random_step(state, rng)
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcome) == f"Deal seat {seat}: {kinds[outcome]}"
        decks[seat].append(kinds[outcome])
        state.apply_action(outcome)
    return decks, coin


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_every_step_agrees_with_the_engine(params: dict[str, Any]) -> None:
    """Chance outcomes, legal actions, observations, strings and returns, step for step, against
    the engine's Game dealt from the chance outcomes (or the seed) and played with the same
    actions; where breakthroughs take cards at random, against the engine given a chance
    stream whose draws take the cards the chance nodes chose."""
    game = pyspiel.load_game("python_black_prince", params)
    rules, seed = bos.rules_of(params)
    breakthroughs = 0
    for g in range(GAMES):
        rng = random.Random(g)
        state = game.new_initial_state()
        decks, coin = _dealt(state, rules, rng)
        if seed is not None:
            engine = Game.new(rules, seed=seed)
        else:
            engine = Game.new(rules, seed=state.game().seed, orders=decks)
            if coin is not None:
                assert engine.current_player == coin and engine.turn == 1
        events: list[str] = []
        while True:
            assert state.game() == engine
            assert state.is_terminal() == engine.is_over
            for p in (0, 1):
                view = engine.view(p)
                assert np.array_equal(np.asarray(state.observation_tensor(p)), encode_view(view))
                assert np.array_equal(np.asarray(state.information_state_tensor(p)), encode_view(view))
                assert state.observation_string(p) == render.board(view, width=None)
                hand = " ".join(map(str, view.hand))
                assert state.information_state_string(p) == f"seat {p} | hand {hand} | history {'; '.join(events)}"
            if engine.is_over:
                break
            p = engine.current_player
            view = engine.view(p)
            assert state.current_player() == p
            assert state.legal_actions() == sorted({action_index(a, view) for a in engine.legal_actions()})
            a = checks.random_step(state, rng)
            action = action_from_index(a, view)
            state.apply_action(a)
            events.append(repr(action))
            if not state.is_chance_node():
                engine.apply(action)
                continue
            assert seed is None  # the seed's stream decides a fixed deal's breakthroughs
            breakthroughs += 1
            enemy = list(engine.hand(1 - p))
            picks, sizes, taken = [], [], []
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                sizes.append(len(enemy))
                assert outcomes == [(i, 1 / len(enemy)) for i in range(len(enemy))]
                picks.append(checks.random_step(state, rng))
                taken.append(enemy.pop(picks[-1]))
                events.append(f"Breakthrough takes {taken[-1]}")
                state.apply_action(picks[-1])
            stream = _stream_giving(picks, sizes)
            engine._rng = stream
            engine.apply(action)
            assert engine._rng == skipped(stream, len(picks))  # as many draws as chance nodes
            assert list(engine.discard(1 - p)[-len(taken):]) == taken
            # The adapter's game draws nothing from its stream, and its history starts here.
            assert state.game().history == () and state.game().seed == engine.seed
            engine = Game._from_position(rules, **{**engine._parts(), "rng": state.game()._rng})
        winner = engine.winner
        assert state.returns() == ([0.0, 0.0] if winner is None else [1.0 if q == winner else -1.0 for q in (0, 1)])
    assert seed is not None or breakthroughs > 0 or not JIT


def test_the_deal_is_as_likely_as_game_new() -> None:
    """The first card of each deck and the coin: the chance nodes' exact distribution (the tree
    walked whole) against 3,000 deals of Game.new, by Pearson's test at the 0.001 level."""
    rules = Rules(decks=([Card.parse(c) for c in _SMALL.split("/")], [Card.parse(c) for c in _SMALL.split("/")[:6]]),
                  armies=("Red", "Blue"), first="coin")  # fmt: skip
    game = bos.load(rules)
    sizes = len(rules.deck(0)), len(rules.deck(1))
    kinds = [list(dict.fromkeys(rules.deck(seat))) for seat in (0, 1)]

    # The three are independent (the steps test checks each node): each is exact from its own node.
    state = game.new_initial_state()
    first0 = dict(state.chance_outcomes())
    while len(state.history()) < sizes[0]:
        state.apply_action(state.legal_actions()[0])
    first1 = dict(state.chance_outcomes())
    exact = {(kinds[0][i], kinds[1][j], c): p * q / 2 for i, p in first0.items() for j, q in first1.items() for c in (0, 1)}
    deals = [Game.new(rules, seed=seed) for seed in range(3_000 if JIT else 600)]
    counts = Counter((deal.hand(0)[0], deal.hand(1)[0], deal.current_player) for deal in deals)  # the top cards, the starter
    statistic, freedom = checks.chi_square(counts, exact)
    assert freedom in checks.CRITICAL_0_001 and statistic < checks.CRITICAL_0_001[freedom], (statistic, freedom)


def test_a_fixed_deal_is_game_new_of_its_seed() -> None:
    state = bos.load(Rules(first="coin"), seed=42).new_initial_state()
    assert not state.is_chance_node() and state.game() == Game.new(Rules(first="coin"), seed=42)


def test_the_game_describes_itself() -> None:
    game = bos.load(Rules(armies=("Scottish", "French")))
    assert game.num_players() == 2 and game.num_distinct_actions() == 117
    assert game.rules == Rules(armies=("Scottish", "French"))
    assert game.observation_tensor_size() == bp.pettingzoo.OBSERVATION_SIZE == game.information_state_tensor_size()
    assert game.get_type().short_name == "python_black_prince"
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    kinds = max(len(set(Rules(armies=("Scottish", "French")).deck(seat))) for seat in (0, 1))
    assert game.max_chance_outcomes() == max(kinds, 6)


@pytest.mark.parametrize("params", PARAMS[:4], ids=IDS[:4])
def test_resampling_keeps_the_information_state(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_black_prince", params)
    assert checks.resampling_keeps_the_information_state(pyspiel, game, random.Random(1), 0.2 if JIT else 0.05) > 0


def test_a_clone_plays_on_alone_through_breakthroughs() -> None:
    """A clone equals its state and playing it to the end leaves the state as it was: at every
    breakthrough's chance node, and at a tenth of the other steps."""
    game = bos.load(Rules())
    deal = len(Rules().deck(0)) + len(Rules().deck(1))
    rng = random.Random(3)
    breakthroughs = 0
    for _ in range(GAMES):
        state = game.new_initial_state()
        while not state.is_terminal():
            clone = state.clone()
            before = (state.history(), str(state), state.legal_actions(), state.chance_outcomes())
            assert (clone.history(), str(clone), clone.legal_actions(), clone.chance_outcomes()) == before
            drawing = state.is_chance_node() and len(state.history()) > deal
            breakthroughs += drawing
            if drawing or rng.random() < 0.1:
                checks.play_out(clone, rng)
                assert (state.history(), str(state), state.legal_actions(), state.chance_outcomes()) == before
            state.apply_action(checks.random_step(state, rng))
    assert breakthroughs > 0


def test_ismcts_plays_a_game_through_the_adapter() -> None:
    for seat in (0, 1):
        state = checks.ismcts_plays_a_game(bos.load(Rules(max_turns=40)), 12 if JIT else 2, seat)
        assert Game.from_json(state.game().to_json()).is_over


def test_a_library_bot_plays_inside_openspiel_as_it_plays_the_engine() -> None:
    rules = Rules(first="coin")
    state = bos.load(rules, seed=5).new_initial_state()
    spiel_bots = [bos.LibraryBot(bp.bots.Greedy(seed=p)) for p in (0, 1)]
    engine = Game.new(rules, seed=5)
    bots = [bp.bots.Greedy(seed=p) for p in (0, 1)]
    while not engine.is_over:
        p = engine.current_player
        action = spiel_bots[p].step(state)
        assert action_from_index(action, engine.view(p)) == bots[p].choose(engine.view(p))
        state.apply_action(action)
        engine.apply(action_from_index(action, engine.view(p)))
    assert state.is_terminal() and state.game() == engine


def test_an_openspiel_bot_plays_every_seat_through_choose_and_in_a_tournament() -> None:
    from open_spiel.python.algorithms import mcts

    rules = Rules(max_turns=40)
    search = mcts.MCTSBot(bos.load(rules), 2.0, 4 if JIT else 2, mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
                          random_state=np.random.RandomState(4))  # fmt: skip
    bot = bos.OpenSpielBot(search, seed=1)
    engine = Game.new(rules, seed=9)
    while not engine.is_over:
        action = bot.choose(engine.view(engine.current_player))
        assert action in engine.legal_actions()
        engine.apply(action)
    result = od.tournament({"openspiel": bot, "greedy": bp.bots.Greedy(seed=2)}, games=2, rules=rules, seed=1, executor="serial")
    assert result.games == 2 and sum(result.wins) + result.draws == 2


def test_a_bot_openspiel_made_for_one_seat_is_refused_elsewhere() -> None:
    bot = bos.OpenSpielBot(pyspiel.make_uniform_random_bot(0, 3), seed=1)
    assert bot.seat == 0
    engine = Game.new(Rules(), seed=4)
    while engine.current_player == 0:
        engine.apply(bot.choose(engine.view(0)))
    with pytest.raises(od.InvalidSeatError, match="for player 0 only, and cannot play seat 1"):
        bot.choose(engine.view(1))


def test_bad_input_is_refused() -> None:
    checks.bad_parameters_are_refused(pyspiel, "python_black_prince", [
        ({"army0": "Roman"}, "unknown army 'Roman'"),
        ({"first": "dice"}, "first must be one of .*got 'dice'"),
        ({"max_turns": 0}, "max_turns must be 1..10000, got 0"),
        ({"deck0": "Dragons 2", "deck1": _SMALL}, "Dragons"),
        ({"deck0": _SMALL}, "give both deck0 and deck1"),
        ({"seed": -2}, "got -2"),
    ])  # fmt: skip
    with pytest.raises(od.InvalidSeedError, match="got 2147483648"):
        bos.rules_of({"seed": 2**31})  # OpenSpiel refuses it first
    with pytest.raises(od.OrdonnanceTypeError, match="unknown parameter"):
        bos.rules_of({"armies": "English French"})
    with pytest.raises(od.OrdonnanceTypeError, match="rules must be a black_prince Rules"):
        bos.load(od.Rules())  # type: ignore[arg-type]
    from ordonnance.black_prince.cards import TroopType

    with pytest.raises(od.OrdonnanceTypeError, match="default advantage table"):
        bos.load(Rules(advantages={TroopType.KNIGHTS: [TroopType.ARCHERS]}))
    with pytest.raises(od.OrdonnanceTypeError, match="takes a black_prince Game"):
        bos.state_of("game")  # type: ignore[arg-type]
    with pytest.raises(od.OrdonnanceTypeError, match="plays BlackPrinceState"):
        bos.LibraryBot(bp.bots.Random(seed=1)).step(pyspiel.load_game("tic_tac_toe").new_initial_state())


def test_an_illegal_action_changes_nothing() -> None:
    state = bos.load(Rules(), seed=1).new_initial_state()
    before, history = state.game(), state.history()
    for bad in (-7, 117, 10_000, next(a for a in range(117) if a not in state.legal_actions())):
        with pytest.raises(od.IllegalActionError, match="is not legal"):
            state.apply_action(bad)
        assert state.game() == before and state.history() == history
    dealing = bos.load().new_initial_state()
    with pytest.raises(od.IllegalActionError, match="not possible"):
        dealing.apply_action(40)
    assert dealing.history() == [] and dealing.is_chance_node()


def test_a_state_pickled_mid_game_loads_in_a_fresh_process() -> None:
    """Shinobi's and Black Prince's states pickle (OpenSpiel pickles games and states for its
    copies); one loads in a process that has imported only the library's engine."""
    import pickle
    import subprocess
    import sys

    import ordonnance.shinobi.openspiel as sos

    blobs = []
    for game in (sos.load(), bos.load()):
        state, rng = game.new_initial_state(), random.Random(1)
        while len(state.history()) < (150 if game.num_players() > 2 else 60):  # past the deal
            state.apply_action(checks.random_step(state, rng))
        assert not state.is_terminal()
        blobs.append((pickle.dumps(state), str(state), state.history(), state.legal_actions()))
    program = (
        "import pickle, sys\n"
        "for blob, text, history, legal in pickle.loads(sys.stdin.buffer.read()):\n"
        "    state = pickle.loads(blob)\n"
        "    assert (str(state), state.history(), state.legal_actions()) == (text, history, legal)\n"
        "    print(type(state).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], input=pickle.dumps(blobs), capture_output=True, check=True)
    assert done.stdout.decode().split() == ["ShinobiState", "BlackPrinceState"]
