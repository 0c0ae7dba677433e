"""Every public name of ``ordonnance.black_prince`` under bad input (issue 34, the hostile suite).

For each public callable (the names of ``black_prince.__all__``, the methods of its classes,
the bots, the pictures, the JSON of actions and views, the PettingZoo environment and its
encoders), each argument position is given every value of
:data:`~tests.hostile.values.BAD_VALUES` in turn, the other arguments valid; so is each item
of an argument that is a collection (an army name, a card of a deck, a type of an advantage
set, a row or column of a square). A call must return or raise the library's error
(:func:`~tests.hostile.values.failures`); and a call that returns must be one whose bad
value is acceptable there (listed in ``ok``), with nothing but plain Python values stored.
The Game class, the save loader and ``simulate`` are swept by their own tests.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import render
from ordonnance.black_prince.errors import InvalidSquareError
from ordonnance.black_prince import board
from ordonnance.black_prince.actions import action_from_data, action_to_data
from ordonnance.black_prince.batch import Batch
from ordonnance.black_prince.fight import fight, is_engaged
from ordonnance.black_prince.rules import card_data, card_from_data
from ordonnance.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidDeckError,
    InvalidRulesError,
    InvalidSeatError,
    InvalidSeedError,
    OrdonnanceError,
    OrdonnanceTypeError,
)
from tests.hostile.sweep import BOOLS, HUGE, NONE, Target, plain, sweep
from tests.hostile.values import BAD_VALUES, answer, failures


KNIGHTS, ARCHERS = bp.Card("Knights", 2), bp.Card("Archers", 1)
RULES = bp.Rules()
FIELD = bp.Battlefield.empty(RULES).with_card((2, 1), KNIGHTS).with_card((1, 1), ARCHERS)
DECK = ["Knights 1"] * 6 + ["Battle"]


def _game() -> bp.Game:
    game = bp.Game.new(RULES, seed=3)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    return game


GAME = _game()
VIEW = GAME.view(GAME.current_player)
ACTION = GAME.legal_actions()[0]


class _Table(Mapping[Any, Any]):
    """A mapping that holds any key, hashable or not (what a dict cannot), as a user's mapping may."""

    def __init__(self, pairs: list[tuple[Any, Any]]) -> None:
        self.pairs = pairs

    def __getitem__(self, key: Any) -> Any:
        return next(value for k, value in self.pairs if k is key)

    def __iter__(self) -> Iterator[Any]:
        return (key for key, _ in self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


def _bot_choose(kind: Callable[[], Any]) -> Callable[..., Any]:
    return lambda view: kind().choose(view)


def _env() -> Any:
    from ordonnance.black_prince.pettingzoo import raw_env

    environment = raw_env()
    environment.reset(seed=1)
    return environment


def _parallel_env() -> Any:
    from ordonnance.black_prince.pettingzoo import parallel_env

    environment = parallel_env()
    environment.reset(seed=1)
    return environment


def _first_legal_index() -> int:
    """The first legal action index of player_0, who acts first in the deal of seed 1."""
    mask = _env().infos["player_0"]["action_mask"]
    return int(mask.argmax())


def _single_env() -> Any:
    """A Gymnasium single-agent environment against Random, reset to the deal of seed 1 (player_0 acts first)."""
    from ordonnance.black_prince.pettingzoo import SingleAgentEnv

    environment = SingleAgentEnv("random", seat=0)
    environment.reset(seed=1)
    return environment


def _batch() -> Batch:
    """Three batched games against Random, dealt from seed 1."""
    return Batch(3, RULES, opponent="random", seed=1)


def _batch_step(actions: Any) -> Any:
    """A step of a fresh batch; ``[0, 0, 0]`` stands for each game's first legal action."""
    batch = _batch()
    legal = isinstance(actions, list) and actions == [0, 0, 0]
    return batch.step(batch.legal_action_mask().argmax(axis=1) if legal else actions)


def _vector_env() -> Any:
    """A Gymnasium vector environment of two games against Random, reset to the deals of seed 1."""
    from ordonnance.black_prince.pettingzoo import VectorEnv

    environment = VectorEnv(2, opponent="random")
    environment.reset(seed=1)
    return environment


def _env_method(method: str) -> Callable[..., Any]:
    """``method`` of a fresh environment, reset (so that a call that changes it changes no other)."""
    return lambda *args, **kwargs: getattr(_env(), method)(*args, **kwargs)


TARGETS = [
    # cards and rules
    Target("deck", bp.deck, ("French",)),
    Target("TroopType", bp.TroopType, (3,)),
    Target("TroopType.parse", bp.TroopType.parse, ("Knights",)),
    Target("Card", bp.Card, ("Knights", 2), {"advantages": ["Archers"]}, ok={"advantages": NONE | {"empty list"}}),
    Target("Card(advantages=[x])", lambda kind: bp.Card("Knights", 2, advantages=[kind]), ("Archers",)),
    Target("Card.parse", bp.Card.parse, ("Knights 2",)),
    Target("Rules", bp.Rules, (), {"armies": ("Scottish", "French"), "advantages": {"Knights": ["Archers"]},
                                   "first": "coin", "decks": (DECK, DECK), "max_turns": 50},
           ok={"advantages": NONE, "decks": NONE}),  # fmt: skip
    Target("Rules(armies=(x, French))", lambda name: bp.Rules(armies=(name, "French")), ("English",)),
    Target("Rules(armies=(x, label), decks=...)", lambda name: bp.Rules(armies=(name, "B"), decks=(DECK, DECK)), ("A",),
           ok={0: {"empty str", "non-ASCII digits", "np.str_"}}),  # with decks given, the armies are only labels
    Target("Rules(decks=([x, ...], deck))", lambda card: bp.Rules(decks=([card, *DECK], DECK)), ("Archers 1",)),
    Target("Rules(advantages={x: []})", lambda kind: bp.Rules(advantages=_Table([(kind, [])])), ("Knights",)),
    Target("Rules(advantages={Knights: [x]})", lambda kind: bp.Rules(advantages={"Knights": [kind]}), ("Archers",)),
    Target("Rules.from_dict", bp.Rules.from_dict, (RULES.to_dict(),), ok={0: {"empty list", "dict"}}),
    Target("Rules.deck", RULES.deck, (1,)),
    Target("Rules.advantages_of", RULES.advantages_of, (bp.TroopType.ARCHERS,)),
    Target("Rules.card_advantages", RULES.card_advantages, (KNIGHTS,)),
    # the battlefield and the fight calculator
    Target("Battlefield", bp.Battlefield, (RULES, FIELD.cells)),
    Target("Battlefield(cells[r][c]=x)", lambda card: bp.Battlefield(RULES, ((None,) * 6,) * 3 + ((card,) + (None,) * 5,)),
           (KNIGHTS,), ok={0: NONE}),  # fmt: skip
    Target("Battlefield.empty", bp.Battlefield.empty, (RULES,)),
    Target("Battlefield.cell", FIELD.cell, (2, 1)),
    Target("Battlefield.with_card", FIELD.with_card, ((2, 2), KNIGHTS), ok={1: NONE}),
    Target("Battlefield.with_card((x, 0))", lambda row: FIELD.with_card((row, 0), KNIGHTS), (2,)),
    Target("Battlefield.with_card((0, x))", lambda column: FIELD.with_card((2, column), KNIGHTS), (0,)),
    Target("front_row", bp.front_row, (1,)),
    Target("back_row", bp.back_row, (1,)),
    Target("fight", fight, ((2, 1), (1, 1), FIELD)),
    Target("fight((x, 1))", lambda row: fight((row, 1), (1, 1), FIELD), (2,)),
    Target("fight((2, x))", lambda column: fight((2, column), (1, 1), FIELD), (1,)),
    Target("fight(..., view)", lambda attacker: fight(attacker, (1, 1), VIEW), ((2, 1),)),
    Target("fight.is_engaged", is_engaged, (FIELD, 0, 1)),
    Target("board.owner", board.owner, (2,)),
    Target("board.check_square", board.check_square, ((2, 1),)),
    Target("board.square_index", board.square_index, (2, 1)),
    # actions
    Target("Place", bp.Place, (KNIGHTS, 2)),
    Target("PlaceBehind", bp.PlaceBehind, (KNIGHTS, 2)),
    Target("Move", bp.Move, (2, 1), ok={1: {"-1", "np.int64(-1)"}}),
    Target("MountedMove", bp.MountedMove, (2, 1), ok={1: {"-1", "np.int64(-1)"}}),
    Target("Fight", bp.Fight, (2, 3)),
    Target("action_to_json", bp.action_to_json, (ACTION,)),
    Target("action_from_json", bp.action_from_json, (bp.action_to_json(ACTION),)),
    Target("actions.action_to_data", action_to_data, (ACTION,)),
    Target("actions.action_from_data", action_from_data, (action_to_data(ACTION),)),
    Target("rules.card_data", card_data, (KNIGHTS,)),
    Target("rules.card_from_data", card_from_data, ("Knights 2",)),
    # views
    Target("PlayerView.of", bp.PlayerView.of, (GAME, 1)),
    Target("PlayerView.cell", VIEW.cell, (2, 1)),
    Target("PlayerView.unseen", VIEW.unseen, (1,)),
    Target("PlayerView.sample_game", VIEW.sample_game, (3,), ok={0: NONE}),
    Target("PlayerView.from_json", bp.PlayerView.from_json, (VIEW.to_json(),)),
    # bots
    Target("Random", bp.Random, (3,), ok={0: NONE}),
    Target("Greedy", bp.Greedy, (3,), ok={0: NONE}),
    Target("MonteCarlo", bp.MonteCarlo, (3,), {"rollouts": 8, "work": 1000, "time_limit": 1.0,
                                               "rollout_policy": "random", "margin_weight": 0.1},
           ok={0: NONE, "rollouts": NONE, "work": NONE, "time_limit": NONE | {"1.5", "np.float64", "2**64"},
               "margin_weight": NONE | {"1.5", "np.float64"}}),  # fmt: skip
    Target("Random.choose", _bot_choose(lambda: bp.Random(seed=1)), (VIEW,)),
    Target("Greedy.choose", _bot_choose(lambda: bp.Greedy(seed=1)), (VIEW,)),
    Target("MonteCarlo.choose", _bot_choose(lambda: bp.MonteCarlo(seed=1, rollouts=4)), (VIEW,)),
    # warm_up(None) is valid and searches (tests/test_bot_clock.py covers it): left out here, where a first compile of the
    # rollouts kernel could outlast the alarm
    Target("MonteCarlo.warm_up", lambda view: view is None or bp.MonteCarlo(seed=1, rollouts=4).warm_up(view), (VIEW,),
           ok={0: NONE}),  # fmt: skip
    # batched games
    Target("batch.Batch", Batch, (3, RULES), {"opponent": "random", "seat": 0, "seed": 1,
           "illegal": "refuse", "illegal_reward": -1.0, "observe": "float32"},
           ok={1: NONE, "seed": NONE, "observe": NONE, "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}}),
    Target("Batch.reset", lambda seed: _batch().reset(seed), (3,), ok={0: NONE}),
    Target("Batch.step", _batch_step, ([0, 0, 0],)),
    Target("Batch.game", lambda index: _batch().game(index), (1,), ok={0: {"-1", "np.int64(-1)"}}),
    Target("Batch.observe", lambda dtype: _batch().observe(dtype), (np.float32,)),
    # pictures
    Target("render.board", render.board, (GAME,), {"width": 80}, ok={"width": NONE | HUGE}),
    Target("render.svg", render.svg, (VIEW,), {"title": "a game"}, ok={"title": NONE | {"empty str", "np.str_", "non-ASCII digits"}}),
]

try:
    from ordonnance.black_prince import pettingzoo as bpz

    pytest.importorskip("pettingzoo")
except pytest.skip.Exception:  # pragma: no cover - without the "rl" extra
    pass
else:
    TARGETS += [
        Target("pettingzoo.env", bpz.env, (RULES,), {"render_mode": "ansi", "max_steps": 5, "observation": "box"},
               ok={0: NONE, "render_mode": NONE, "max_steps": NONE | HUGE}),  # fmt: skip
        Target("pettingzoo.parallel_env", bpz.parallel_env, (RULES,), {"render_mode": "ansi", "max_steps": 5, "observation": "box"},
               ok={0: NONE, "render_mode": NONE, "max_steps": NONE | HUGE}),  # fmt: skip
        Target("pettingzoo.observation_layout", bpz.observation_layout, (2,)),
        Target("parallel_env.reset", lambda seed, options: _parallel_env().reset(seed=seed, options=options), (3, {}),
               ok={0: NONE, 1: NONE | {"dict"}}),
        Target("parallel_env.step", lambda actions: _parallel_env().step(actions), ({"player_0": _first_legal_index()},)),
        Target("parallel_env.observation_space", lambda agent: _parallel_env().observation_space(agent), ("player_1",)),
        Target("env.reset", _env_method("reset"), (), {"seed": 3, "options": {}}, ok={"seed": NONE, "options": NONE | {"dict"}}),
        Target("env.observe", _env_method("observe"), ("player_0",)),
        Target("env.action_space", _env_method("action_space"), ("player_1",)),
        Target("env.observation_space", _env_method("observation_space"), ("player_1",)),
        Target("env.step", _env_method("step"), (0,)),
        Target("pettingzoo.SingleAgentEnv", bpz.SingleAgentEnv, (), {"opponent": "random", "seat": 0, "rules": RULES,
               "render_mode": "ansi", "illegal_reward": -1.0, "max_steps": 50, "observation": "box"},
               ok={"opponent": NONE | {"function"}, "rules": NONE, "render_mode": NONE, "max_steps": NONE | HUGE,
                   "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}}, needs="gymnasium"),  # fmt: skip
        Target("SingleAgentEnv().reset", lambda **k: _single_env().reset(**k), (), {"seed": 1, "options": None},
               ok={"seed": NONE, "options": NONE | {"dict"}}, needs="gymnasium"),
        Target("SingleAgentEnv().step", lambda action: _single_env().step(action), (_first_legal_index(),), needs="gymnasium"),
        Target("SingleAgentEnv().set_opponent", lambda o: _single_env().set_opponent(o), ("greedy",),
               ok={0: {"function"}}, needs="gymnasium"),
        Target("pettingzoo.VectorEnv", bpz.VectorEnv, (2,), {"rules": RULES, "opponent": "random", "seat": 0, "seed": 1,
               "observation": "box", "illegal_reward": -1.0},
               ok={"rules": NONE, "seed": NONE, "illegal_reward": {"-1", "np.int64(-1)", "2**64", "1.5", "np.float64"}},
               needs="gymnasium"),  # fmt: skip
        Target("VectorEnv().reset", lambda **k: _vector_env().reset(**k), (), {"seed": 1, "options": None},
               ok={"seed": NONE, "options": NONE | {"dict"}}, needs="gymnasium"),
        Target("VectorEnv().step", lambda actions: _vector_env().step(actions), ([0, 0],), needs="gymnasium"),
        Target("action_index", bpz.action_index, (ACTION, VIEW)),
        Target("action_from_index", bpz.action_from_index, (0, VIEW)),
        Target("action_mask", bpz.action_mask, (VIEW,)),
        Target("encode_view", bpz.encode_view, (VIEW,)),
    ]


@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_bad_arguments_get_the_library_error(target: Target) -> None:
    assert sweep(target) == []


def test_the_sweep_covers_the_public_names() -> None:
    swept = " ".join(target.name for target in TARGETS)
    left_out = {
        "Game", "simulate", "SimulationResult",  # swept by the game's, the save loader's and simulate's own tests
        "ARMIES", "BATTLE", "DEFAULT_ADVANTAGES", "Action", "Bot",  # constants and types: nothing to call
        "PlayBattle", "EndTurn", "EndBattle",  # no argument
        "FightResult", "Side",  # what fight() returns, not built from input
        "InvalidSquareError",  # an error class
        "PlayerView",  # its methods are swept one by one
    }  # fmt: skip
    missing = [name for name in bp.__all__ if name not in left_out and name not in swept]
    assert missing == []


# ------------------------------------------------------------------ the defects of issue 34, one by one


def test_advantages_of_takes_a_troop_type_only() -> None:
    assert RULES.advantages_of("Archers") == RULES.advantages_of(bp.TroopType.ARCHERS) == RULES.advantages_of(7)
    assert RULES.advantages_of(np.int64(0)) == RULES.advantages_of(bp.TroopType.KNIGHTS)
    for bad in (-1, 8, np.int64(-1)):
        with pytest.raises(InvalidRulesError, match="-1|8"):
            RULES.advantages_of(bad)
    for wrong in (1.5, None, "Dragoons"):
        with pytest.raises(OrdonnanceError):
            RULES.advantages_of(wrong)  # type: ignore[arg-type]


def test_a_fight_needs_a_position_with_units() -> None:
    with pytest.raises(OrdonnanceTypeError, match="None"):
        fight((2, 0), (1, 0), None)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="Battle card"):
        FIELD.with_card((2, 0), bp.BATTLE)

    class Drawn:  # a position of the protocol holding what no battlefield can
        rules = RULES

        def cell(self, row: int, column: int) -> bp.Card | None:
            return bp.BATTLE if (row, column) == (2, 1) else FIELD.cell(row, column)

    with pytest.raises(InvalidArgumentError, match="Battle card"):
        fight((2, 1), (1, 1), Drawn())

    class Copied(Drawn):
        def cell(self, row: int, column: int) -> bp.Card | None:
            return FIELD.cell(row, column)

    assert fight((2, 1), (1, 1), Copied()) == fight((2, 1), (1, 1), FIELD)


def test_a_battlefield_checks_its_rules_and_cells() -> None:
    for rules, cells in ((5, FIELD.cells), (RULES, None), (RULES, FIELD.cells[:3]), (RULES, ((None,) * 7,) * 4),
                         (RULES, (("Knights 1",) + (None,) * 5,) * 4), (RULES, itertools.repeat((None,) * 6))):  # fmt: skip
        with pytest.raises(OrdonnanceError):
            bp.Battlefield(rules, cells)  # type: ignore[arg-type]
    listed = bp.Battlefield(RULES, [list(row) for row in FIELD.cells])  # lists are read into tuples
    assert listed == FIELD and type(listed.cells[0]) is tuple


def test_a_picture_title_is_printable_text_in_every_game() -> None:
    from ordonnance.core import svg as core_svg

    with pytest.raises(OrdonnanceTypeError, match="title"):
        render.svg(GAME, title=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match=r"'a\\x00b'"):
        render.svg(GAME, title="a\x00b")
    with pytest.raises(InvalidArgumentError, match="control"):
        core_svg.document(10, 10, "\x1b[2J", [])
    picture = render.svg(GAME, title=np.str_("Crécy & Poitiers"))
    assert ET.fromstring(picture).find("{http://www.w3.org/2000/svg}title").text == "Crécy & Poitiers"  # type: ignore[union-attr]
    assert "<title>Black Prince battlefield</title>" in render.svg(GAME) == render.svg(GAME, title="")


def test_endless_iterables_are_refused_not_followed() -> None:
    for call, error, message in (
        (lambda: bp.Card("Knights", 1, advantages=itertools.repeat("Archers")), InvalidCardError, "at most 8"),
        (lambda: bp.Rules(decks=(itertools.repeat("Knights 1"), DECK)), InvalidDeckError, "at most 64"),
        (lambda: bp.Rules(advantages={"Knights": itertools.cycle(["Archers"])}), InvalidRulesError, "at most 8"),
    ):
        _, caught, _ = answer(call)  # under an alarm: a call that follows the iterator fails, not hangs
        assert type(caught) is error and message in str(caught)
    rules = bp.Rules(decks=(iter(DECK), DECK), advantages={"Knights": iter(["Archers"])})  # finite iterators are fine
    assert len(rules.deck(0)) == len(DECK) and rules.advantages_of("Knights") == {bp.TroopType.ARCHERS}


def test_a_card_strength_is_written_in_ascii_digits() -> None:
    for text in ("Knights ³", "Knights ٣", "Knights " + "9" * 5000, "Knights -1"):
        with pytest.raises(InvalidCardError, match="Battle' or"):
            bp.Card.parse(text)
    assert bp.Card.parse("Knights 3") == bp.Card("Knights", 3)
    with pytest.raises(InvalidCardError, match="³"):
        bp.Rules(decks=(["Knights ³"] * 6, DECK))


def test_numpy_scalars_are_accepted_and_stored_plain() -> None:
    rules = bp.Rules(armies=(np.str_("scottish"), "French"), first=np.str_("coin"), max_turns=np.int64(50),
                     decks=(np.array(DECK), DECK))  # fmt: skip
    assert rules == bp.Rules(armies=("Scottish", "French"), first="coin", max_turns=50, decks=(DECK, DECK))
    assert [type(v) for v in (rules.armies[0], rules.first, rules.max_turns)] == [str, str, int]
    assert plain(rules) is None
    card = bp.Card(np.int64(0), np.int32(2), advantages=[np.int8(7)])
    assert card == bp.Card("Knights", 2, advantages=["Archers"]) and type(card.strength) is int
    assert bp.TroopType(np.int64(7)) is bp.TroopType.ARCHERS
    for action in (bp.Place(KNIGHTS, np.int64(2)), bp.Move(np.int8(2), np.int64(-1)), bp.Fight(np.uint8(1), np.int16(2))):
        assert plain(action) is None and bp.action_from_json(bp.action_to_json(action)) == action
    assert bp.front_row(np.int64(1)) == 1 and bp.back_row(np.int64(0)) == 3
    assert RULES.deck(np.int64(1)) == RULES.deck(1)


def test_huge_ints_and_floats_are_refused_and_shown_short() -> None:
    for call in (lambda: bp.TroopType(10**5000), lambda: bp.Card("Knights", 10**5000), lambda: bp.Place(KNIGHTS, 10**5000),
                 lambda: FIELD.cell(10**5000, 0), lambda: bp.Rules(max_turns=10**5000), lambda: RULES.deck(10**5000)):  # fmt: skip
        with pytest.raises(OrdonnanceError, match="int of 16610 bits") as caught:
            call()
        assert len(str(caught.value)) < 300
    for number in (1.0, np.float64(2.0), True):  # they hash like 1 and 2: the enum alone would take them
        with pytest.raises(OrdonnanceTypeError):
            bp.TroopType(number)


@pytest.mark.parametrize("kind", [bp.Random, bp.Greedy, bp.MonteCarlo])
def test_every_bot_refuses_what_is_not_a_black_prince_view(kind: type) -> None:
    import ordonnance
    from ordonnance import shinobi

    for other in (None, ordonnance.Game.new(seed=1).view(0), shinobi.Game.new(shinobi.Rules(), seed=1).view(0)):
        with pytest.raises(OrdonnanceTypeError, match="PlayerView"):
            kind(seed=1).choose(other)


def test_seats_and_rows_are_checked() -> None:
    for bad in (2, -1, np.int64(5)):
        with pytest.raises(InvalidSeatError):
            bp.front_row(bad)
        with pytest.raises(InvalidSeatError):
            bp.back_row(bad)
    with pytest.raises(OrdonnanceTypeError):
        bp.front_row(0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidSeedError):
        VIEW.sample_game(-1)
    with pytest.raises(InvalidSquareError):
        FIELD.with_card((4, 0), KNIGHTS)
