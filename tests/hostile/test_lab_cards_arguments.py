"""lab.card_values and lab.matchups with bad values of every type in each argument: a return
or the library's error, never a bare exception or a hang."""

from __future__ import annotations

import pytest

from ordonnance import Rules, black_prince, shinobi
from ordonnance.lab import decks
from ordonnance.lab.cards import card_values, kinds_of, seat_bots
from ordonnance.lab.matchup_tables import matchups

from .sweep import BOOLS, EXECUTOR, EXECUTOR_OK, NONE, Target, sweep

EMPTY = {"empty list"}
TARGETS: list[Target] = [
    Target("card_values", card_values, (black_prince.Rules(),), {
        "kinds": ["1:Battle"], "changes": ["remove"], "swaps": [], "games": 3, "seed": 1, "players": None,
        "progress": False, **EXECUTOR,
    }, ok={"kinds": NONE | EMPTY, "changes": EMPTY, "swaps": EMPTY, "players": NONE, "progress": NONE | BOOLS, **EXECUTOR_OK},
        needs="pandas"),
    Target("card_values(shinobi)", card_values, (shinobi.Rules(players=3),), {
        "kinds": ["Oda"], "changes": ["add"], "swaps": [("Oda", "Mori")], "games": 3, "seed": 1,
    }, ok={"kinds": NONE | EMPTY, "changes": EMPTY, "swaps": EMPTY}, needs="pandas"),
    Target("matchups", matchups, (black_prince.Rules(),), {
        "games": 3, "seed": 1, "players": None, "armies": ["French"], "counts": (3,), "progress": False, **EXECUTOR,
    }, ok={"players": NONE, "armies": NONE | EMPTY, "counts": NONE | EMPTY, "progress": NONE | BOOLS, **EXECUTOR_OK},
        needs="pandas"),
    Target("matchups(shinobi)", matchups, (shinobi.Rules(),), {"games": 3, "seed": 1, "counts": (3,)},
           ok={"counts": EMPTY}, needs="pandas"),
    Target("kinds_of", kinds_of, (shinobi.Rules(),), needs="pandas"),
    Target("decks.kinds", decks.kinds, (black_prince.Rules(),), {"by": "army"}, needs="pandas"),
    Target("decks.parse", decks.parse, (black_prince.Rules(), "French:Battle"), needs="pandas"),
    Target("decks.count", decks.count, (shinobi.Rules(), "Oda"), needs="pandas"),
    Target("decks.changed", decks.changed, (black_prince.Rules(), {"0:Battle": -1, "French:Knights 3": 1}), needs="pandas"),
    Target("decks.changed(ordonnance)", decks.changed, (Rules(), {"LS": 2}), needs="pandas"),
    Target("seat_bots", seat_bots, (shinobi.Rules(), None), ok={1: NONE}, needs="pandas"),
    Target("matchups(armies)", matchups, (black_prince.Rules(),), {"games": 3, "seed": 1, "armies": ["French"]},
           ok={"armies": NONE | EMPTY}, needs="pandas"),
]  # fmt: skip


@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_the_lab_card_and_matchup_calls_answer_bad_values_with_the_librarys_error(target: Target) -> None:
    assert sweep(target) == []
