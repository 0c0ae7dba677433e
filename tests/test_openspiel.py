"""The OpenSpiel adapter against the engine: every step of random games, chance,
observations, resampling, IS-MCTS and bots across the two libraries."""

from __future__ import annotations

import os
import pickle
import random
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import Rules, rl

pyspiel = pytest.importorskip("pyspiel")
ops = pytest.importorskip("ordonnance.openspiel")
from open_spiel.python.algorithms import ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
GAMES = 6 if JIT else 1
PARAMS: list[dict[str, Any]] = [
    {},
    {"players": 3, "tie_break": "lowest_marker_sum"},
    {"players": 4, "scoring": "points"},
    {"claim_proof": "private", "auto_claim": True},
    {"players": 3, "claim_proof": "private"},
    {"players": 4, "auto_claim": True},
    {"deck": " ".join((["L", "B", "S", "H", "F", "LB", "SH"] * 7)[:43])},
    {"seed": 11},
    {"players": 3, "seed": 2**31 - 1, "auto_claim": True},
]
IDS = ["2p", "3p-lowest", "4p-points", "2p-private-auto", "3p-private", "4p-auto", "custom-deck", "seed", "3p-seed"]


def _random_step(state: Any, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        return int(rng.choices(outcomes, probabilities)[0])
    return int(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_ordonnance", params)
    pyspiel.random_sim_test(game, num_sims=2 if JIT else 1, serialize=True, verbose=False)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_every_step_agrees_with_the_engine(params: dict[str, Any]) -> None:
    """Chance outcomes, legal actions, observations and returns, step for step, against
    the Game dealt from the chance outcomes (or the seed) and played with the same actions."""
    game = pyspiel.load_game("python_ordonnance", params)
    rules, seed = ops.rules_of(params)
    n = rules.players
    for g in range(GAMES):
        rng = random.Random(g)
        state = game.new_initial_state()
        dealt: list[int] = []
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            left = od.Game.new(rules, seed=0)._hidden.copy()  # every card of the rules
            for m in dealt:
                left[m] -= 1
            assert outcomes == [(m, c / left.sum()) for m, c in enumerate(left.tolist()) if c]
            assert state.legal_actions() == [m for m, _ in outcomes]
            dealt.append(_random_step(state, rng))
            state.apply_action(dealt[-1])
        deck = [od.Card.from_mask(m) for m in dealt]
        engine = od.Game.new(rules, seed=seed) if seed is not None else od.Game.new(rules, deck=deck)
        while True:
            assert state.game() == engine
            assert state.is_terminal() == engine.is_over
            if engine.is_over:
                break
            assert state.current_player() == engine.current_player
            legal = state.legal_actions()
            assert legal == sorted(rl.action_index(a) for a in engine.legal_actions())
            if engine._plays % 3 == 0:  # the kernel's own check refuses every other index
                for bad in sorted(set(range(rl.NUM_ACTIONS)) - set(legal)):
                    with pytest.raises(od.IllegalActionError, match="is not legal"):
                        state.apply_action(bad)
                assert state.game() == engine and state.legal_actions() == legal
            for p in range(n):
                expected = rl.encode_view(engine.view(p))
                assert np.array_equal(np.asarray(state.observation_tensor(p)), expected)
                assert np.array_equal(np.asarray(state.information_state_tensor(p)), expected)
            a = _random_step(state, rng)
            state.apply_action(a)
            engine.apply(rl.action_from_index(a))
        winner = engine.winner
        assert state.returns() == [0.0] * n if winner is None else [1.0 if p == winner else -1.0 for p in range(n)]
        assert od.Game.from_json(state.game().to_json()) == engine


@pytest.mark.parametrize("params", [PARAMS[0], PARAMS[5], PARAMS[7]], ids=[IDS[0], IDS[5], IDS[7]])
def test_a_clone_is_the_same_state_and_plays_on_alone(params: dict[str, Any]) -> None:
    """At every step (chance nodes included) a clone equals its state, and playing the
    clone to the end (as MCTS does) leaves the state exactly as it was."""
    game = pyspiel.load_game("python_ordonnance", params)
    rng = random.Random(3)
    state = game.new_initial_state()

    def seen(s: Any) -> tuple[Any, ...]:
        return s.history(), str(s), s.information_state_string(0), s.legal_actions(), s.chance_outcomes(), s.returns()

    while not state.is_terminal():
        clone = state.clone()
        before = seen(state)
        assert seen(clone) == before
        if not state.is_chance_node():
            p = state.current_player()
            assert clone.information_state_string(p) == state.information_state_string(p)
            assert clone.observation_tensor(p) == state.observation_tensor(p)
        if JIT or len(before[0]) % 10 == 0:
            while not clone.is_terminal():
                clone.apply_action(_random_step(clone, rng))
            assert seen(state) == before
        state.apply_action(_random_step(state, rng))
    assert seen(state.clone()) == seen(state)


def test_a_fixed_deal_is_game_new_of_its_seed_and_has_no_chance_node() -> None:
    state = ops.load(Rules(players=3), seed=42).new_initial_state()
    assert not state.is_chance_node() and state.game() == od.Game.new(Rules(players=3), seed=42)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_the_game_type_says_whether_chance_nodes_occur(params: dict[str, Any]) -> None:
    """A fixed deal is deterministic, a dealt one explicitly stochastic: the type of the game
    built from those parameters (and of its copies) says which, as its states show."""
    game = pyspiel.load_game("python_ordonnance", params)
    rng = random.Random(0)
    state, chance_seen = game.new_initial_state(), False
    while not state.is_terminal():
        chance_seen = chance_seen or state.is_chance_node()
        state.apply_action(_random_step(state, rng))
    expected = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance_seen else pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert chance_seen == (ops.rules_of(params)[1] is None)
    for copy in (game, pickle.loads(pickle.dumps(game)), state.get_game()):
        assert copy.get_type().chance_mode == expected


def test_the_game_describes_itself() -> None:
    game = ops.load(Rules(players=4, auto_claim=True))
    assert game.num_players() == 4 and game.num_distinct_actions() == rl.NUM_ACTIONS
    assert game.max_chance_outcomes() == 32 and game.rules == Rules(players=4, auto_claim=True)
    assert game.observation_tensor_size() == 74 + 189 * 4 == game.information_state_tensor_size()
    assert game.get_type().short_name == "python_ordonnance" and game.deal_seed is None
    assert game.min_utility() == -1 and game.max_utility() == 1


def test_strings() -> None:
    state = ops.load(Rules(), seed=7).new_initial_state()
    hand = " ".join(map(str, od.Game.new(Rules(), seed=7).hand(0)))
    assert f"hand {hand}" in state.observation_string(0)
    assert state.information_state_string(0) == f"seat 0 | hand {hand} | decisions "
    a = state.legal_actions()[0]
    state.apply_action(a)
    assert state.information_state_string(1).endswith(f"decisions {a}")
    assert state.action_to_string(1, state.legal_actions()[0]).startswith(("Play(", "Claim(", "Pass("))
    assert ops.load().new_initial_state().action_to_string(pyspiel.PlayerId.CHANCE, 12) == "Deal SH"


def _table_text(game: od.Game, player: int) -> str:
    """The observation string's twin, written on the public Game API."""
    hand = " ".join(map(str, game.hand(player)))
    turn = "over" if game.is_over else f"player {game.current_player} to act"
    sizes = [len(game.hand(p)) for p in range(game.players)]
    lines = [f"seat {player} | hand {hand} | hands {sizes} | pile {game.deck_size} | {turn}"]
    for t in od.Territory:
        armies = " / ".join(" ".join(map(str, game.army(t, p))) or "-" for p in range(game.players))
        owner = game.territory_owner(t)
        won = "" if owner is None else f" won by {owner} (marker {game.marker(t)})"
        lines.append(f"{t.label}: {armies}{won}")
    passed = [p for p in range(game.players) if game._passed >> p & 1]
    if passed:
        lines.append(f"passed: {passed}")
    return "\n".join(lines)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_the_strings_agree_with_the_engine(params: dict[str, Any]) -> None:
    """Observation and information-state strings, at every step, against the same text
    made from ``state.game()`` through the public Game API."""
    game = pyspiel.load_game("python_ordonnance", params)
    rng = random.Random(5)
    state = game.new_initial_state()
    decisions: list[int] = []
    while state.is_chance_node():
        state.apply_action(_random_step(state, rng))
    while True:
        engine = state.game()
        for p in range(game.num_players()):
            assert state.observation_string(p) == _table_text(engine, p)
            hand = " ".join(map(str, engine.hand(p)))
            assert state.information_state_string(p) == f"seat {p} | hand {hand} | decisions {' '.join(map(str, decisions))}"
        if state.is_terminal():
            break
        decisions.append(_random_step(state, rng))
        state.apply_action(decisions[-1])


@pytest.mark.parametrize("params", PARAMS[:6], ids=IDS[:6])
def test_resampling_keeps_the_information_state(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_ordonnance", params)
    rng = random.Random(1)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.3:
            for p in range(game.num_players()):
                sample = state.resample_from_infostate(p, sampler)
                assert sample.information_state_string(p) == state.information_state_string(p)
                assert sample.observation_tensor(p) == state.observation_tensor(p)
                assert sample.current_player() == state.current_player()
                assert sample.legal_actions(p) == state.legal_actions(p)
                assert sample.game().view(p) == state.game().view(p)
                od.Game.from_json(sample.game().to_json())
                clone = sample.clone()
                assert clone.game() == sample.game()
        state.apply_action(_random_step(state, rng))


@pytest.mark.parametrize("params", PARAMS[:7], ids=IDS[:7])
def test_state_of_a_game_is_that_game_and_plays_on_as_it(params: dict[str, Any]) -> None:
    rules, _ = ops.rules_of(params)
    spiel_game = ops.load(rules)
    for seed in range(GAMES):
        engine = od.Game.new(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(80)):
            if engine.is_over:
                break
            engine.apply(rng.choice(engine.legal_actions()))
        state = ops.state_of(engine, spiel_game)  # for the game dealt by chance nodes: no seed
        engine._seed = engine._rng_state = None
        while True:
            assert state.game() == engine
            if engine.is_over:
                break
            assert state.legal_actions() == sorted(rl.action_index(a) for a in engine.legal_actions())
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            engine.apply(rl.action_from_index(a))
        assert state.is_terminal()


def test_ismcts_plays_a_game_through_the_adapter_with_resampling() -> None:
    game = ops.load(Rules())
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20 if JIT else 3,
                           random_state=np.random.RandomState(1))  # fmt: skip
    rng = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_random_step(state, rng))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert od.Game.from_json(state.game().to_json()).is_over


def test_a_library_bot_plays_inside_openspiel_as_it_plays_the_engine() -> None:
    rules = Rules(players=3)
    state = ops.load(rules, seed=5).new_initial_state()
    spiel_bots = [ops.LibraryBot(od.bots.Greedy(seed=p)) for p in range(3)]
    engine = od.Game.new(rules, seed=5)
    bots = [od.bots.Greedy(seed=p) for p in range(3)]
    while not engine.is_over:
        p = engine.current_player
        action = spiel_bots[p].step(state)
        assert rl.action_from_index(action) == bots[p].choose(engine.view(p))
        state.apply_action(action)
        engine.apply(rl.action_from_index(action))
    assert state.is_terminal() and state.game() == engine


def test_an_openspiel_bot_plays_through_choose() -> None:
    rules = Rules()
    game = ops.load(rules)
    bots: list[Any] = [
        ops.OpenSpielBot(pyspiel.make_uniform_random_bot(0, 3), seed=1),
        ops.OpenSpielBot(
            ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0,
                             8 if JIT else 2, random_state=np.random.RandomState(0)),
            seed=2,
        ),
    ]  # fmt: skip
    engine = od.Game.new(rules, seed=9)
    while not engine.is_over:
        p = engine.current_player
        action = bots[p].choose(engine.view(p))
        assert action in engine.legal_actions()
        engine.apply(action)
    assert "OpenSpielBot(" in repr(bots[0])


def test_bad_input_is_refused() -> None:
    with pytest.raises(Exception, match="players must be 2..4, got 5"):
        pyspiel.load_game("python_ordonnance", {"players": 5})
    with pytest.raises(od.InvalidSeedError, match="got -2"):
        ops.rules_of({"seed": -2})
    with pytest.raises(od.OrdonnanceTypeError, match="unknown parameter"):
        ops.rules_of({"player": 2})
    with pytest.raises(od.OrdonnanceTypeError, match="choose"):
        ops.LibraryBot(object())  # type: ignore[arg-type]
    with pytest.raises(od.OrdonnanceTypeError, match="step"):
        ops.OpenSpielBot(object())
    with pytest.raises(od.OrdonnanceTypeError, match="PlayerView"):
        ops.OpenSpielBot(pyspiel.make_uniform_random_bot(0, 3)).choose("view")
    with pytest.raises(od.IllegalActionError, match="not seat 1's turn"):
        ops.OpenSpielBot(pyspiel.make_uniform_random_bot(0, 3)).choose(od.Game.new(Rules(), seed=1).view(1))
    with pytest.raises(od.IllegalActionError, match="deal is not done"):
        ops.load().new_initial_state().game()
    with pytest.raises(od.OrdonnanceTypeError, match="takes a Game"):
        ops.state_of("game")  # type: ignore[arg-type]
    with pytest.raises(od.InvalidArgumentError, match="are not the OpenSpiel game's"):
        ops.state_of(od.Game.new(Rules(players=3), seed=1), ops.load(Rules()))
    with pytest.raises(od.OrdonnanceTypeError, match="rules must be a Rules"):
        ops.load("rules")  # type: ignore[arg-type]
    with pytest.raises(od.OrdonnanceTypeError, match="deck must be card texts"):
        ops.rules_of({"deck": 5})


def test_an_illegal_action_changes_nothing() -> None:
    state = ops.load(Rules(), seed=1).new_initial_state()
    before, history = state.game(), state.history()
    for bad in (-7, 160, 10_000, next(a for a in range(rl.NUM_ACTIONS) if a not in state.legal_actions())):
        with pytest.raises(od.IllegalActionError, match="is not legal"):
            state.apply_action(bad)
        assert state.game() == before and state.history() == history
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own check, before the adapter is asked
        state.apply_action(-1)
    assert state.chance_outcomes() == []  # not a chance node
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    over = state.game()
    for bad in (0, 5, 160):
        with pytest.raises(od.IllegalActionError, match="the game is over"):
            state.apply_action(bad)
    assert state.game() == over and state.legal_actions() == [] and state.chance_outcomes() == []
    custom = ops.load(Rules(deck=[od.Card.parse(c) for c in ["L", "B", "S", "H", "F", "LB"] * 8])).new_initial_state()
    with pytest.raises(od.IllegalActionError, match="left to deal"):
        custom.apply_action(od.Card.parse("SH").mask)  # a card this deck does not have
    dealing = ops.load().new_initial_state()
    for bad in (0, 32, -5):
        with pytest.raises(od.IllegalActionError, match="left to deal"):
            dealing.apply_action(bad)
    assert dealing.history() == [] and dealing.is_chance_node()


def test_a_serial_tournament_plays_an_openspiel_bot() -> None:
    """An OpenSpielBot cannot be pickled (it holds a pyspiel bot), so it plays where
    the tournament runs in this process, and is refused for a process pool."""
    game = ops.load(Rules())
    search = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)), random_state=np.random.RandomState(4))
    bots = {"openspiel": ops.OpenSpielBot(search, seed=1), "greedy": od.bots.Greedy(seed=2)}  # it plays either seat
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(bots["openspiel"])
    result = od.tournament(bots, games=2, seed=1, executor="serial")
    assert result.games == 2 and sum(result.wins) + result.draws == 2
    with pytest.raises(od.OrdonnanceTypeError, match="'openspiel' cannot be pickled"):
        od.tournament(bots, games=2, executor="process", workers=2, chunk_size=1)


def test_a_bot_openspiel_made_for_one_seat_is_refused_elsewhere() -> None:
    """OpenSpiel's uniform random bot of player 0 crashes the process when asked in seat 1's
    turn (it reads only player 0's legal actions): the wrapper finds its seat when it is made
    and refuses another seat with the library's error; a bot written in Python plays any seat."""
    bot = ops.OpenSpielBot(pyspiel.make_uniform_random_bot(0, 3), seed=1)
    assert bot.seat == 0 and ops.OpenSpielBot(pyspiel.make_uniform_random_bot(3, 3)).seat == 3
    engine = od.Game.new(Rules(), seed=4)
    engine.apply(bot.choose(engine.view(0)))
    with pytest.raises(od.InvalidSeatError, match="for player 0 only, and cannot play seat 1"):
        bot.choose(engine.view(1))
    assert ops.OpenSpielBot(ops.LibraryBot(od.bots.Random(seed=1))).seat is None
    with pytest.raises(od.BotError, match="bot 'random' \\(seat 1\\).*for player 0 only"):  # a tournament seats it at seat 1 too
        od.tournament({"random": bot, "greedy": od.bots.Greedy(seed=2)}, games=2, seed=1, executor="serial")


def test_finding_a_bots_seat_never_crashes() -> None:
    """The seat probe runs other C++ bots too: those it cannot ask (a bot following another
    game's states, a policy bot) are wrapped with no seat known, in this process, alive."""
    kuhn = pyspiel.load_game("kuhn_poker")
    assert ops.OpenSpielBot(pyspiel.make_stateful_random_bot(kuhn, 1, 3)).seat is None
    assert ops.OpenSpielBot(pyspiel.make_policy_bot(kuhn, 1, 3, pyspiel.UniformRandomPolicy(kuhn))).seat is None
    from ordonnance.core.openspiel import bot_seat

    assert bot_seat(pyspiel.make_uniform_random_bot(1, 3)) == 1 and bot_seat(object()) is None
