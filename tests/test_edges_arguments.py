"""Every public entry point refuses a bad argument with an OrdonnanceError that shows it.

One table row per (entry point, bad value): the call must raise a subclass of
:class:`~ordonnance.OrdonnanceError` (so also a ValueError or TypeError) whose
message contains ``repr`` of the bad value, and must not hang or crash.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import render, text
from ordonnance.cards import to_mask
from ordonnance.conformance import check_invariants, random_playthrough
from ordonnance.ladder import bradley_terry, rate
from ordonnance.odds import territory_odds

GAME = od.Game.new(od.Rules(), seed=1)
VIEW = GAME.view(0)
RESULT = od.tournament([od.bots.Greedy(seed=1), od.bots.Random(seed=1)], games=4, executor="serial")
HUGE = 2**64
NAN = float("nan")


def _bots() -> list[od.bots.Bot]:
    return [od.bots.Random(seed=1), od.bots.Random(seed=2)]


# (label, call with the bad value, the bad value)
CASES: list[tuple[str, Callable[[Any], object], Any]] = [
    # cards
    ("Card", lambda v: od.Card(v), 0),
    ("Card", lambda v: od.Card(v), np.int64(32)),
    ("Card", lambda v: od.Card(v), "SH"),
    ("Card.parse", od.Card.parse, "\u017fh"),
    ("Card.parse", od.Card.parse, "SS"),
    ("Card.parse", od.Card.parse, 12),
    ("Card.from_mask", od.Card.from_mask, 99),
    ("Card.from_mask", od.Card.from_mask, True),
    ("to_mask", to_mask, 3.0),
    ("standard_deck", od.standard_deck, 0),
    ("standard_deck", od.standard_deck, "2"),
    ("standard_deck", od.standard_deck, 10**9),
    ("build_deck", od.build_deck, 5),
    ("build_deck", od.build_deck, "SH"),
    ("build_deck", lambda v: od.build_deck([v]), None),
    ("build_deck", od.build_deck, {"SH": 1}),
    ("deck_counts", od.deck_counts, 5),
    ("Symbol", od.Symbol, 7),
    ("Territory", od.Territory, 9),
    ("Territory", od.Territory, "Cyprus"),
    # actions
    ("Play card", lambda v: od.Play(v, 0), "XQ"),
    ("Play territory", lambda v: od.Play("SH", v), 5),
    ("Play territory", lambda v: od.Play("SH", v), od.Symbol.SWORD),
    ("Play territory", lambda v: od.Play("SH", v), np.int64(-1)),
    ("Claim", od.Claim, 1.0),
    # rules
    ("Rules players", lambda v: od.Rules(players=v), 7),
    ("Rules players", lambda v: od.Rules(players=v), "2"),
    ("Rules deck", lambda v: od.Rules(deck=v), 5),
    ("Rules deck", lambda v: od.Rules(deck=v), ["SH"] * 3),
    ("Rules scoring", lambda v: od.Rules(scoring=v), "goals"),
    ("Rules auto_claim", lambda v: od.Rules(auto_claim=v), "yes"),
    ("Rules unknown field", lambda v: od.Rules(**{v: 1}), "foo"),
    ("Rules.from_dict", od.Rules.from_dict, [1, 2]),
    ("Rules.from_dict", od.Rules.from_dict, {"colour": "red"}),
    # the game
    ("Game", lambda v: od.Game(v), "rules"),
    ("Game.new rules", lambda v: od.Game.new(v), "standard"),
    ("Game.new seed", lambda v: od.Game.new(seed=v), -1),
    ("Game.new seed", lambda v: od.Game.new(seed=v), HUGE),
    ("Game.new seed", lambda v: od.Game.new(seed=v), "7"),
    ("Game.new deck", lambda v: od.Game.new(deck=v), ["SH"] * 56),
    ("Game.hand", GAME.hand, 2),
    ("Game.hand", GAME.hand, od.Territory.CYPRUS),
    ("Game.army", lambda v: GAME.army(v, 0), 5),
    ("Game.army", lambda v: GAME.army(0, v), -1),
    ("Game.army_key", lambda v: GAME.army_key(v, 0), "Cyprus"),
    ("Game.completed_at", lambda v: GAME.completed_at(v, 0), 1.5),
    ("Game.territory_owner", GAME.territory_owner, 7),
    ("Game.marker", GAME.marker, np.int64(5)),
    ("Game.is_decided", GAME.is_decided, None),
    ("Game.is_open", lambda v: GAME.is_open(0, v), 9),
    ("Game.unseen", GAME.unseen, 3),
    ("Game.ranking", GAME.ranking, -1),
    ("Game.can_claim", lambda v: GAME.can_claim(v, 0), 4),
    ("Game.claim_counterexample", lambda v: GAME.claim_counterexample(0, v), 6),
    ("Game.view", GAME.view, "0"),
    ("Game.apply", GAME.clone().apply, "SH cyprus"),
    ("Game.apply", GAME.clone().apply, od.Play("LBSHF", 0)),
    ("Game.from_json", od.Game.from_json, 42),
    ("Game.from_json", od.Game.from_json, "[" * 100_000),  # too long to show: the reason is
    # views and bots
    ("PlayerView.army", lambda v: VIEW.army(v, 0), 5),
    ("PlayerView.army", lambda v: VIEW.army(0, v), -1),
    ("PlayerView.is_open", VIEW.is_open, 9),
    ("PlayerView.of", lambda v: od.PlayerView.of(v, 0), None),
    ("Random", lambda v: od.bots.Random(seed=v), -1),
    ("Greedy", lambda v: od.bots.Greedy(seed=v), "x"),
    ("Random.choose", od.bots.Random(seed=0).choose, None),
    ("Greedy.choose", od.bots.Greedy(seed=0).choose, GAME),
    ("PlayerView.sample_game", VIEW.sample_game, HUGE),
    ("PlayerView.sample_game", VIEW.sample_game, "7"),
    ("MonteCarlo rollouts", lambda v: od.bots.MonteCarlo(seed=0, rollouts=v), 0),
    ("MonteCarlo time_budget", lambda v: od.bots.MonteCarlo(seed=0, time_budget=v), NAN),
    ("ISMCTS seed", lambda v: od.bots.ISMCTS(seed=v), -1),
    ("ISMCTS iterations", lambda v: od.bots.ISMCTS(seed=0, iterations=v), 0),
    ("ISMCTS iterations", lambda v: od.bots.ISMCTS(seed=0, iterations=v), 2.5),
    ("ISMCTS time_limit", lambda v: od.bots.ISMCTS(seed=0, time_limit=v), -0.05),
    ("ISMCTS time_limit", lambda v: od.bots.ISMCTS(seed=0, time_limit=v), NAN),
    ("ISMCTS exploration", lambda v: od.bots.ISMCTS(seed=0, exploration=v), NAN),
    ("ISMCTS rollout_policy", lambda v: od.bots.ISMCTS(seed=0, rollout_policy=v), "montecarlo"),
    ("ISMCTS root", lambda v: od.bots.ISMCTS(seed=0, root=v), "tree"),
    ("ISMCTS.choose", od.bots.ISMCTS(seed=0, iterations=8).choose, GAME),
    # odds
    ("territory_odds", lambda v: territory_odds(v, 0), None),
    ("territory_odds territory", lambda v: territory_odds(GAME, v), 5),
    ("territory_odds samples", lambda v: territory_odds(GAME, 0, samples=v, max_exact=0), 2**64),
    ("territory_odds samples", lambda v: territory_odds(GAME, 0, samples=v, max_exact=0), 2**62),
    ("territory_odds max_exact", lambda v: territory_odds(GAME, 0, max_exact=v), 10**30),
    ("territory_odds seed", lambda v: territory_odds(GAME, 0, seed=v), -1),
    ("territory_odds player", lambda v: territory_odds(GAME, 0, player=v), 2),
    ("Odds.interval", lambda v: territory_odds(GAME, 0, samples=10, max_exact=0).interval(v), 3),
    ("Odds.interval z", lambda v: territory_odds(GAME, 0, samples=10, max_exact=0).interval(0, v), NAN),
    # pictures and text
    ("render.card", render.card, 0),
    ("render.card size", lambda v: render.card("SH", size=v), 5000),
    ("render.card size", lambda v: render.card("SH", size=v), NAN),
    ("render.army", render.army, "SH"),
    ("render.army", render.army, 5),
    ("render.army gap", lambda v: render.army(["SH"], gap=v), -1),
    ("render.svg", render.svg, None),
    ("render.svg size", lambda v: render.svg(GAME, size=v), 2),
    ("render.svg names", lambda v: render.svg(GAME, names=v), ["a\x00", "b"]),
    ("render.svg names", lambda v: render.svg(GAME, names=v), ["\ud800", "b"]),
    ("render.svg names", lambda v: render.svg(GAME, names=v), ["only one"]),
    ("render.svg names", lambda v: render.svg(GAME, names=v), 5),
    ("render.svg hands", lambda v: render.svg(GAME, hands=v), "yes"),
    ("text.board", text.board, None),  # a game or one seat's view (every game's board draws both)
    # tournaments
    ("tournament bots", lambda v: od.tournament(v, games=2), 5),
    ("tournament games", lambda v: od.tournament(_bots(), games=v), 10**15),
    ("tournament games", lambda v: od.tournament(_bots(), games=v), 2.5),
    ("tournament seed", lambda v: od.tournament(_bots(), games=2, seed=v), HUGE),
    ("tournament executor", lambda v: od.tournament(_bots(), games=2, executor=v), np.array([1, 2])),
    ("tournament executor", lambda v: od.tournament(_bots(), games=2, executor=v), "gpu"),
    ("tournament workers", lambda v: od.tournament(_bots(), games=2, workers=v), 10**6),
    ("tournament chunk_size", lambda v: od.tournament(_bots(), games=2, chunk_size=v), 10**12),
    ("tournament time_limit", lambda v: od.tournament(_bots(), games=2, time_limit=v), NAN),
    ("tournament time_limit", lambda v: od.tournament(_bots(), games=2, time_limit=v), -1),
    ("tournament bot classes", lambda v: od.tournament(v, games=2), [od.bots.Random, od.bots.Random]),
    ("TournamentResult.index", RESULT.index, "nobody"),
    ("ladder anchor", lambda v: od.ladder(_bots(), games=2, executor="serial", anchor=v), "Nobody"),
    ("ladder anchor", lambda v: od.ladder(_bots(), games=2, executor="serial", anchor=v), 0),
    ("ladder games", lambda v: od.ladder(_bots(), games=v), 10**15),
    ("ladder bots", lambda v: od.ladder(v, games=2), 5),
    ("Ladder.rating", lambda v: rate(RESULT).rating(v), "nobody"),
    ("ladder.rate", rate, "a result"),
    ("bradley_terry anchor", lambda v: bradley_terry([[0, 1], [1, 0]], [[0, 2], [2, 0]], v), 7),
    ("TournamentResult.pairwise_score", lambda v: RESULT.pairwise_score(v, 0), 9),
    # the conformance harness
    ("check_invariants", check_invariants, VIEW),
    ("random_playthrough", lambda v: random_playthrough(od.Rules(), v), -1),
    ("random_playthrough", lambda v: random_playthrough(od.Rules(), 1, max_steps=v), 0),
    # errors themselves are values too
    ("build_deck endless", lambda v: od.build_deck(v), itertools.repeat("L")),
]


@pytest.mark.parametrize(("label", "call", "bad"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_bad_argument_raises_an_ordonnance_error_showing_it(label: str, call: Callable[[Any], object], bad: Any) -> None:
    with pytest.raises(od.OrdonnanceError) as info:
        call(bad)
    assert isinstance(info.value, (ValueError, TypeError))
    message = str(info.value)
    assert _shown(bad) in message, message


# Where the message shows the part of the value that is wrong rather than all of it.
SHOWN = {
    "['a\\x00', 'b']": "'a\\x00'",
    "['\\ud800', 'b']": "'\\ud800'",
    "[<class 'ordonnance.bots.Random'>, <class 'ordonnance.bots.Random'>]": "<class 'ordonnance.bots.Random'>",
}


def _shown(bad: object) -> str:
    """What the message must show of ``bad``: its repr, cut short if long."""
    if isinstance(bad, np.integer):
        return repr(int(bad))
    if isinstance(bad, itertools.repeat):
        return "at most 10,000 cards"
    if isinstance(bad, str) and len(bad) > 1000:
        return "nested deeper than"
    shown = repr(bad)
    return SHOWN.get(shown, shown[:40])




def _rl_cases() -> list[tuple[str, Callable[[Any], object], Any]]:
    pytest.importorskip("pettingzoo")
    from ordonnance import rl as module

    env = module.OrdonnanceEnv()
    env.reset(seed=1)
    single = module.SingleAgentEnv()
    return [
        ("action_index", module.action_index, "pass"),
        ("action_from_index", module.action_from_index, 161),
        ("action_from_index", module.action_from_index, 1.0),
        ("action_mask", module.action_mask, None),
        ("encode_view", module.encode_view, None),
        ("observation_layout", module.observation_layout, 9),
        ("observation_bounds", module.observation_bounds, 2),
        ("OrdonnanceEnv rules", lambda v: module.OrdonnanceEnv(v), "standard"),
        ("OrdonnanceEnv render_mode", lambda v: module.OrdonnanceEnv(render_mode=v), "rgb"),
        ("OrdonnanceEnv max_steps", lambda v: module.OrdonnanceEnv(max_steps=v), 0),
        ("OrdonnanceEnv.action_space", env.action_space, "x"),
        ("OrdonnanceEnv.observation_space", env.observation_space, "player_9"),
        ("OrdonnanceEnv.observe", env.observe, 0),
        ("OrdonnanceEnv.reset", lambda v: env.reset(seed=v), -1),
        ("OrdonnanceEnv.step", env.step, 500),
        ("SingleAgentEnv seat", lambda v: module.SingleAgentEnv(seat=v), 2),
        ("SingleAgentEnv seat", lambda v: module.SingleAgentEnv(seat=v), "0"),
        ("SingleAgentEnv illegal_reward", lambda v: module.SingleAgentEnv(illegal_reward=v), NAN),
        ("SingleAgentEnv illegal_reward", lambda v: module.SingleAgentEnv(illegal_reward=v), "-1"),
        ("SingleAgentEnv opponent", lambda v: module.SingleAgentEnv(opponent=v), [od.bots.Random(seed=1)] * 2),
        ("SingleAgentEnv opponent", lambda v: module.SingleAgentEnv(opponent=v), "montecarlo"),
        ("SingleAgentEnv max_steps", lambda v: module.SingleAgentEnv(max_steps=v), -3),
        ("SingleAgentEnv.reset", lambda v: single.reset(seed=v), HUGE),
        ("SingleAgentEnv observation", lambda v: module.SingleAgentEnv(observation=v), "image"),
        ("SingleAgentEnv seat", lambda v: module.SingleAgentEnv(seat=v), "any"),
        ("SingleAgentEnv.set_opponent", single.set_opponent, "montecarlo"),
        ("SingleAgentEnv.set_opponent", single.set_opponent, [od.bots.Random(seed=1)] * 3),
        ("VectorEnv num_envs", lambda v: module.VectorEnv(v), 0),
        ("VectorEnv opponent", lambda v: module.VectorEnv(2, opponent=v), "montecarlo"),
        ("VectorEnv seat", lambda v: module.VectorEnv(2, seat=v), 5),
        ("VectorEnv observation", lambda v: module.VectorEnv(2, observation=v), "image"),
    ]


def test_the_rl_entry_points_refuse_bad_arguments_showing_them() -> None:
    for label, call, bad in _rl_cases():
        with pytest.raises(od.OrdonnanceError) as info:
            call(bad)
        shown = repr(bad)
        assert shown[:40] in str(info.value), (label, str(info.value))


def test_numpy_integers_are_territories_and_seats_as_ints_are() -> None:
    assert GAME.marker(np.int64(0)) is None and GAME.territory_owner(np.int8(4)) is None
    assert od.Play(12, np.int64(1)) == od.Play("SH", od.Territory.CYPRUS)
    assert GAME.hand(np.int64(0)) == GAME.hand(0)
    assert VIEW.army(np.int64(2), np.int64(1)) == ()
    card = od.Card(np.int64(12))
    assert type(card.mask) is int and card == od.Card.parse("SH")
    assert od.Rules(players=np.int64(3)) == od.Rules(players=3)


def test_finite_checks_catch_nan_and_infinity() -> None:
    for bad in (NAN, math.inf, -math.inf):
        with pytest.raises(od.OrdonnanceError):
            render.card("SH", size=bad)
