"""Every public name of ``ordonnance.shinobi`` under bad input (issue 34, the hostile suite).

For each public callable (the names of ``shinobi.__all__``, the methods of its classes,
the bots, the pictures, the JSON of actions and views, the conformance harness), each
argument position is given every value of :data:`~tests.hostile.values.BAD_VALUES` in
turn, the other arguments valid. A call must return or raise the library's error
(:func:`~tests.hostile.values.failures`); and a call that returns must be one whose bad
value is acceptable there (listed in ``ok``), with nothing but plain Python values stored.
``simulate`` is swept by its own tests.
"""

from __future__ import annotations

import itertools
import random
import warnings
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest

from ordonnance.core.checks import shown
from ordonnance.errors import (
    InvalidArgumentError,
    InvalidCardError,
    InvalidDeckError,
    InvalidSeedError,
    OrdonnanceError,
    OrdonnanceTypeError,
)
from ordonnance.shinobi import (
    Attack,
    Card,
    Deploy,
    Game,
    Move,
    Ninja,
    PlayerView,
    Reinforce,
    Rules,
    action_from_json,
    action_to_json,
    bots,
    clan_name,
    dealt,
    from_code,
)
from ordonnance.shinobi import cli, rl
from ordonnance.shinobi.batch import Batch
from ordonnance.shinobi.actions import action_from_data, action_to_data
from ordonnance.shinobi.conformance import check_invariants, random_playthrough, redeal_hidden
from ordonnance.shinobi.render import board, svg
from ordonnance.shinobi.rules import rules_from_json
from ordonnance.shinobi.serialization import action_from_data as old_action_from_data
from ordonnance.shinobi.serialization import action_to_data as old_action_to_data
from ordonnance.shinobi.serialization import game_from_json, game_to_json
from tests.hostile.sweep import BOOLS, NONE, Target, sweep
from tests.hostile.values import BAD_VALUES, failures



def _game() -> Game:
    game = Game.new(Rules(players=3), seed=5)
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    return game


GAME = _game()
VIEW = GAME.view(GAME.current_player)
ACTION = GAME.legal_actions()[0]
VALID_DECK = [Card.from_code(code) for code in Rules(players=3).troop_deck]


def _fresh(method: str) -> Callable[..., Any]:
    """``method`` of a fresh copy of the game (so that a call that changes it changes no other)."""
    return lambda *args, **kwargs: getattr(GAME.clone(), method)(*args, **kwargs)


def _view_method(method: str) -> Callable[..., Any]:
    return lambda *args, **kwargs: getattr(VIEW, method)(*args, **kwargs)


def _quietly(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call`` with its DeprecationWarning silenced (a deprecated name must still refuse bad input)."""

    def quiet(*args: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return call(*args)

    return quiet


def _env() -> Any:
    """A PettingZoo environment of three players, reset to the deal of seed 5."""
    environment = rl.env(Rules(players=3))
    environment.reset(seed=5)
    return environment


def _parallel_env() -> Any:
    """A PettingZoo parallel environment of three players, reset to the deal of seed 5."""
    environment = rl.parallel_env(Rules(players=3))
    environment.reset(seed=5)
    return environment


def _single_env() -> Any:
    """A Gymnasium single-agent environment of three players against Random bots, reset to the deal of
    seed 5, the learner sitting at the seat that plays first."""
    environment = rl.SingleAgentEnv("random", seat=_FIRST.current_player, rules=Rules(players=3))
    environment.reset(seed=5)
    return environment


def _batch() -> Batch:
    """Three batched games of three players against Random, dealt from seed 1."""
    return Batch(3, Rules(players=3), opponent="random", seed=1)


def _batch_step(actions: Any) -> Any:
    """A step of a fresh batch; ``[0, 0, 0]`` stands for each game's first legal action."""
    batch = _batch()
    legal = isinstance(actions, list) and actions == [0, 0, 0]
    return batch.step(batch.legal_action_mask().argmax(axis=1) if legal else actions)


def _vector_env() -> Any:
    """A Gymnasium vector environment of two games against Random, reset to the deals of seed 1."""
    environment = rl.VectorEnv(2, opponent="random")
    environment.reset(seed=1)
    return environment


def _single_step(action: Any) -> Any:
    """One step of that environment (a legal index when valid)."""
    return _single_env().step(action)


_FIRST = Game.new(Rules(players=3), seed=5)
#: A legal step of that parallel environment: the first legal action of the seat to act.
_PARALLEL_ACTIONS = {f"player_{_FIRST.current_player}": _FIRST.legal_actions()[0].code}


def _bot_choose(kind: Callable[[], Any]) -> Callable[..., Any]:
    return lambda view: kind().choose(view)




TARGETS = [
    # rules
    Target("Rules", Rules, (), {"players": 3, "samurai": 11, "ninjas": 3, "attack": "mandatory"}),
    Target("Rules.from_dict", Rules.from_dict, ({"players": 3},), ok={0: {"empty list", "dict"}}),
    # cards
    Target("Card", Card, (2,), ok={0: NONE}),
    Target("Card.from_code", Card.from_code, (3,)),
    Target("Card.parse", Card.parse, ("Oda",)),
    Target("clan_name", clan_name, (1,)),
    # actions
    Target("Deploy", Deploy, (2, 1)),
    Target("Ninja", Ninja, (1, 2)),
    Target("Reinforce", Reinforce, (2,)),
    Target("Move", Move, (1, 2, 0)),
    Target("Attack", Attack, (0, 2, 3)),
    Target("from_code", from_code, (7,)),
    Target("action_to_json", action_to_json, (ACTION,)),
    Target("action_from_json", action_from_json, (action_to_json(ACTION),)),
    Target("action_to_data", action_to_data, (ACTION,)),
    Target("action_from_data", action_from_data, (action_to_data(ACTION),)),
    # the game
    Target("dealt", dealt, (Rules(), 3)),
    Target("Game.new", Game.new, (Rules(players=3),), {"seed": 3}, ok={0: NONE, "seed": NONE}),
    Target("Game.new(deck, clans)", Game.new, (Rules(players=3),), {"deck": VALID_DECK, "clans": [0, 1, 2]}),
    Target("Game.from_json", Game.from_json, (GAME.to_json(),)),
    Target("Game.hand", _fresh("hand"), (1,)),
    Target("Game.clan", _fresh("clan"), (1,)),
    Target("Game.province", _fresh("province"), (1,)),
    Target("Game.changed", _fresh("changed"), (1, 2)),
    Target("Game.view", _fresh("view"), (1,)),
    Target("Game.apply", _fresh("apply"), (ACTION,)),
    # views
    Target("PlayerView(...) by hand", lambda **fields: attrs.evolve(VIEW, **fields), (),
           {field.name: getattr(VIEW, field.name) for field in attrs.fields(PlayerView)},
           ok={"hand": {"empty list"}, "winners": {"empty list"}, "legal_actions": {"empty list"},
               "extra_turns_left": NONE, "neutral_clans": NONE, "is_over": {"True"}}),
    Target("PlayerView.of", PlayerView.of, (GAME, 1)),
    Target("PlayerView.sample_game", _view_method("sample_game"), (3,), ok={0: NONE}),
    Target("PlayerView.from_json", PlayerView.from_json, (VIEW.to_json(),)),
    # bots
    Target("bots.Random", bots.Random, (3,), ok={0: NONE}),
    Target("bots.Greedy", bots.Greedy, (3,), ok={0: NONE}),
    Target(
        "bots.MonteCarlo",
        bots.MonteCarlo,
        (3,),
        {"rollouts": 8, "work": 1000, "time_limit": 1.0, "rollout_policy": "random", "margin_weight": 0.1,
         "horizon": 4, "home_weight": 0.0},
        ok={0: NONE, "rollouts": NONE, "work": NONE, "horizon": NONE, "time_limit": NONE | {"1.5", "np.float64", "2**64"},
            "margin_weight": NONE | {"np.float64"}, "home_weight": {"1.5", "np.float64"}},
    ),  # fmt: skip
    Target("bots.Random.choose", _bot_choose(lambda: bots.Random(seed=1)), (VIEW,)),
    Target("bots.Greedy.choose", _bot_choose(lambda: bots.Greedy(seed=1)), (VIEW,)),
    Target("bots.MonteCarlo.choose", _bot_choose(lambda: bots.MonteCarlo(seed=1, rollouts=4)), (VIEW,)),
    Target("bots.MonteCarlo.warm_up", lambda view: bots.MonteCarlo(seed=1, rollouts=4).warm_up(view), (VIEW,), ok={0: NONE}),
    Target("bots.evaluate", bots.evaluate, ([list(row) for row in GAME.view(0).provinces], 1, 2)),
    # pictures
    Target("render.board", board, (GAME,), {"width": 80}, ok={"width": NONE | {"2**64", "10**5000"}}),
    Target("render.svg", svg, (VIEW,), {"names": ["a", "b", "c"]}, ok={"names": NONE}),
    # saves, the reinforcement-learning encoding, the command line's bot names
    Target("serialization.game_to_json", game_to_json, (GAME,)),
    Target("serialization.game_from_json", game_from_json, (GAME.to_json(),)),
    Target("serialization.action_to_data (deprecated)", _quietly(old_action_to_data), (ACTION,)),
    Target("serialization.action_from_data (deprecated)", _quietly(old_action_from_data), (["Deploy", 2, 1],)),
    Target("rules_from_json", lambda data: rules_from_json(data, InvalidArgumentError), (Rules().to_dict(),)),
    Target("rl.observation_size", rl.observation_size, (3,)),
    Target("rl.encode_view", rl.encode_view, (VIEW,)),
    Target("rl.action_mask", rl.action_mask, (VIEW,)),
    Target("rl.env", rl.env, (), {"rules": Rules(players=3), "render_mode": "ansi", "max_steps": 50, "observation": "box"},
           ok={"rules": NONE, "render_mode": NONE, "max_steps": NONE | {"2**64", "10**5000"}}, needs="pettingzoo"),
    Target("rl.parallel_env", rl.parallel_env, (),
           {"rules": Rules(players=3), "render_mode": "ansi", "max_steps": 50, "observation": "box"},
           ok={"rules": NONE, "render_mode": NONE, "max_steps": NONE | {"2**64", "10**5000"}}, needs="pettingzoo"),
    Target("rl.observation_layout", rl.observation_layout, (3,)),
    Target("rl.parallel_env().reset", lambda seed, options: _parallel_env().reset(seed=seed, options=options), (3, {}),
           ok={0: NONE, 1: NONE | {"dict"}}, needs="pettingzoo"),
    Target("rl.parallel_env().step", lambda actions: _parallel_env().step(actions), (_PARALLEL_ACTIONS,), needs="pettingzoo"),
    Target("rl.parallel_env().observation_space", lambda agent: _parallel_env().observation_space(agent), ("player_0",), needs="pettingzoo"),
    Target("rl.parallel_env().action_space", lambda agent: _parallel_env().action_space(agent), ("player_0",), needs="pettingzoo"),
    Target("rl.env().reset", lambda seed: _env().reset(seed=seed), (3,), ok={0: NONE}, needs="pettingzoo"),
    Target("rl.env().observe", lambda agent: _env().observe(agent), ("player_0",), needs="pettingzoo"),
    Target("rl.env().action_space", lambda agent: _env().action_space(agent), ("player_0",), needs="pettingzoo"),
    Target("rl.env().step", lambda action: _env().step(action), (Game.new(Rules(players=3), seed=5).legal_actions()[0].code,), needs="pettingzoo"),
    Target("rl.SingleAgentEnv", rl.SingleAgentEnv, (), {"opponent": "random", "seat": 0, "rules": Rules(players=3),
           "render_mode": "ansi", "illegal_reward": -1.0, "max_steps": 50, "observation": "box"},
           ok={"opponent": NONE | {"function"}, "rules": NONE, "render_mode": NONE, "max_steps": NONE | {"2**64", "10**5000"},
               "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}}, needs="gymnasium"),  # fmt: skip
    Target("rl.SingleAgentEnv().reset", lambda **k: _single_env().reset(**k), (), {"seed": 1, "options": None},
           ok={"seed": NONE, "options": NONE | {"dict"}}, needs="gymnasium"),
    Target("rl.SingleAgentEnv().step", _single_step, (_FIRST.legal_actions()[0].code,), needs="gymnasium"),
    Target("rl.SingleAgentEnv().set_opponent", lambda o: _single_env().set_opponent(o), ("greedy",),
           ok={0: {"function"}}, needs="gymnasium"),
    # batched games and their vector environment
    Target("batch.Batch", Batch, (3, Rules(players=3)), {"opponent": "random", "seat": 0, "seed": 1,
           "illegal": "refuse", "illegal_reward": -1.0, "observe": "float32"},
           ok={1: NONE, "seed": NONE, "observe": NONE, "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}}),
    Target("Batch.reset", lambda seed: _batch().reset(seed), (3,), ok={0: NONE}),
    Target("Batch.step", _batch_step, ([0, 0, 0],)),
    Target("Batch.game", lambda index: _batch().game(index), (1,), ok={0: {"-1", "np.int64(-1)"}}),
    Target("Batch.observe", lambda dtype: _batch().observe(dtype), (np.float32,)),
    Target("rl.observation_bounds", rl.observation_bounds, (Rules(players=3),)),
    Target("rl.VectorEnv", rl.VectorEnv, (2,), {"rules": Rules(players=3), "opponent": "random", "seat": 0, "seed": 1,
           "observation": "box", "illegal_reward": -1.0},
           ok={"rules": NONE, "seed": NONE, "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}},
           needs="gymnasium"),
    Target("rl.VectorEnv().reset", lambda **k: _vector_env().reset(**k), (), {"seed": 1, "options": None},
           ok={"seed": NONE, "options": NONE | {"dict"}}, needs="gymnasium"),
    Target("rl.VectorEnv().step", lambda actions: _vector_env().step(actions), ([0, 0],), needs="gymnasium"),
    Target("cli.bot_spec", cli.bot_spec, ("montecarlo:500",)),
    Target("cli.make_bot", cli.make_bot, ("montecarlo", 3), {"rollouts": 10}, ok={1: NONE, "rollouts": NONE}),
    # the conformance harness
    Target("check_invariants", check_invariants, (GAME,), {"deep": False}, ok={"deep": BOOLS}),
    Target("random_playthrough", random_playthrough, (Rules(players=3),), {"seed": 1, "deep": False},
           ok={0: NONE, "seed": NONE, "deep": BOOLS}),
    Target("redeal_hidden", lambda game, seat: redeal_hidden(game, seat, random.Random(1)), (GAME, 1)),
]











@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_bad_arguments_get_the_library_error(target: Target) -> None:
    assert sweep(target) == []


def test_the_sweep_covers_the_public_names() -> None:
    import ordonnance.shinobi as shinobi

    swept = " ".join(target.name for target in TARGETS)
    # constants, a type alias, Pass (no arguments), and simulate's names (swept by simulate's own tests)
    left_out = {"CLAN_NAMES", "CLANS", "NINJA", "HAND_SIZE", "ACTION_COUNT", "Action", "Pass",
                "simulate", "SimulationResult", "Summary"}  # fmt: skip
    missing = [name for name in shinobi.__all__ if name not in left_out and name not in swept]
    assert missing == []


# ------------------------------------------------------------------ the defects of issue 34, one by one


@pytest.mark.parametrize("kind", [bots.Random, bots.Greedy, bots.MonteCarlo])
def test_every_bot_refuses_what_is_not_a_shinobi_view(kind: type) -> None:
    import ordonnance
    from ordonnance import black_prince

    others = [None, ordonnance.Game.new(seed=1).view(0), black_prince.Game.new(seed=1).view(0)]
    for other in others:
        with pytest.raises(OrdonnanceTypeError, match="PlayerView"):
            kind(seed=1).choose(other)


def test_a_card_code_is_0_to_5() -> None:
    assert Card.from_code(np.int64(5)) == Card(None) and Card.from_code(2) == Card(2)
    for code in (-1, 6, np.int64(-1), 2**64):
        with pytest.raises(InvalidCardError, match=repr(int(code))):
            Card.from_code(code)
    with pytest.raises(OrdonnanceTypeError):
        Card.from_code(True)


def test_dealt_checks_its_seed_and_rules() -> None:
    assert dealt(Rules(), np.uint64(3)) == dealt(Rules(), 3)
    for seed in (-1, 2**64):
        with pytest.raises(InvalidSeedError, match=str(seed)):
            dealt(Rules(), seed)
    with pytest.raises(OrdonnanceTypeError, match="Rules"):
        dealt(None, 3)  # type: ignore[arg-type]


def test_player_names_in_a_picture_are_printable_text() -> None:
    import xml.etree.ElementTree as ET

    with pytest.raises(InvalidArgumentError, match=r"names\[1\].*'a\\x00b'"):
        svg(GAME, names=["x", "a\x00b", "z"])
    with pytest.raises(InvalidArgumentError, match="control"):
        svg(GAME, names=["x", "y", "\x1b[2J"])
    picture = str(svg(GAME, names=[np.str_("North"), "East", "West"]))
    ET.fromstring(picture)
    assert "North" in picture


def test_an_endless_deck_is_refused_not_followed() -> None:
    rules = Rules(players=3)
    with pytest.raises(InvalidDeckError, match="at most 58"):
        Game.new(rules, deck=itertools.cycle(rules.troop_deck), clans=[0, 1, 2])
    game = Game.new(rules, deck=iter(rules.troop_deck), clans=[0, 1, 2])  # an iterator of the right size is fine
    assert game.deck_size == len(rules.troop_deck) - 12


def test_numpy_scalars_are_accepted_and_stored_plain() -> None:
    rules = Rules(players=np.int64(3), samurai=[np.int32(9)] * 5, ninjas=np.int8(2), attack=np.str_("optional"))
    assert rules == Rules(players=3, samurai=9, ninjas=2, attack="optional")
    assert [type(value) for value in (rules.players, rules.samurai[0], rules.ninjas, rules.attack)] == [int, int, int, str]
    assert type(Rules(samurai=np.int64(10)).samurai[0]) is int
    game = Game.new(rules, seed=np.uint64(7))
    assert type(game.seed) is int and game == Game.new(rules, seed=7)
    view = game.view(np.int64(1))
    assert type(view.seat) is int and view == game.view(1)
    assert type(PlayerView.of(game, np.int16(2)).seat) is int
    action = Deploy(np.int64(2), np.int64(1))
    assert (type(action.card_clan), type(action.province)) == (int, int) and action == Deploy(2, 1)
    assert type(Card(np.int64(2)).clan) is int and Card(np.str_("oda")) == Card(2)
    assert from_code(np.int64(7)) == from_code(7) and clan_name(np.int64(2)) == "Oda"
    assert Game.new(rules, deck=np.array(rules.troop_deck), clans=np.array([0, 1, 2]).tolist())._initial_deck == rules.troop_deck
    bot = bots.MonteCarlo(seed=np.uint64(1), rollouts=np.int64(8), horizon=np.int32(4), home_weight=np.float64(0.5),
                          rollout_policy=np.str_("random"))  # fmt: skip
    stored = (bot.seed, bot.rollouts, bot.horizon, bot.home_weight, bot.rollout_policy)
    assert [type(value) for value in stored] == [int, int, int, float, str]
    assert bots.evaluate(np.zeros((3, 5), np.int64), np.int64(1), np.str_("Oda")) == bots.evaluate([[0] * 5] * 3, 1, 2)


def test_huge_ints_are_shown_short() -> None:
    for call in (lambda: Rules(players=10**5000), lambda: Rules(samurai=10**5000), lambda: Card(10**5000),
                 lambda: Deploy(1, 10**5000), lambda: bots.MonteCarlo(horizon=10**5000)):  # fmt: skip
        with pytest.raises(OrdonnanceError, match="int of 16610 bits") as caught:
            call()
        assert len(str(caught.value)) < 300


def test_evaluate_checks_its_table() -> None:
    table = [[1, 0, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 0, 0, 3]]
    assert bots.evaluate(table, 0, "Go-Hojo") == bots.evaluate(tuple(map(tuple, table)), 0, 0)
    for provinces, seat, clan in (([[0] * 5] * 2, 0, 0), ([[0] * 4] * 3, 0, 0), ([[0, 0, 0, 0, -1]] * 3, 0, 0),
                                  (table, 3, 0), (table, 0, 5), (itertools.repeat([0] * 5), 0, 0)):  # fmt: skip
        with pytest.raises(OrdonnanceError):
            bots.evaluate(provinces, seat, clan)


def test_a_warm_up_refuses_what_is_not_a_shinobi_view() -> None:
    with pytest.raises(OrdonnanceTypeError, match="PlayerView"):
        bots.MonteCarlo(seed=1).warm_up("view")  # type: ignore[arg-type]


def test_the_conformance_harness_checks_its_arguments() -> None:
    with pytest.raises(OrdonnanceTypeError, match="shinobi Game"):
        check_invariants(VIEW)  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError, match="deep must be a bool"):
        check_invariants(GAME, deep=1)  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError, match="random.Random"):
        redeal_hidden(GAME, 1, 5)  # type: ignore[arg-type]


def test_clans_may_be_any_iterable_read_with_a_bound() -> None:
    rules = Rules(players=3)
    game = Game.new(rules, deck=np.array(rules.troop_deck), clans=np.array([2, 0, 1]))
    assert game == Game.new(rules, deck=rules.troop_deck, clans=[2, 0, 1]) and type(game.clan(0)) is int
    assert Game.new(rules, deck=rules.troop_deck, clans=iter([2, 0, 1])) == game
    with pytest.raises(InvalidDeckError, match="at most 5"):
        Game.new(rules, deck=rules.troop_deck, clans=itertools.cycle([0, 1, 2]))
    with pytest.raises(InvalidDeckError, match=r"3 different clans, one per seat, got \[0, 1\]"):
        Game.new(rules, deck=rules.troop_deck, clans=iter([0, 1]))
