"""Rules: armies, custom decks, custom advantage tables, who starts."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from ordonnance import black_prince as bp
from ordonnance.errors import InvalidDeckError, InvalidRulesError, OrdonnanceTypeError

T = bp.TroopType

# RULES-black-prince.md's advantage table, copied verbatim.
PAGE = """
| Knights | Archers, Swordsmen, Light cavalry |
| Cavalry | Archers, Light cavalry |
| Light cavalry | Pikemen, Spearmen |
| Pikemen | Knights, Cavalry |
| Spearmen | Knights, Cavalry, Light cavalry |
| Halberdiers | Knights, Pikemen |
| Swordsmen | Pikemen, Spearmen, Halberdiers |
| Archers | Knights, Halberdiers |
"""


def test_default_advantage_table_is_the_page() -> None:
    rules = bp.Rules()
    for line in PAGE.strip().splitlines():
        kind, beaten = (part.strip() for part in line.strip("| ").split("|"))
        assert rules.advantages_of(T.parse(kind)) == {T.parse(b) for b in beaten.split(",")}


def test_custom_tables_and_per_card_sets() -> None:
    rules = bp.Rules(advantages={"Archers": ["Cavalry"], T.KNIGHTS: []})
    assert rules.advantages_of(T.ARCHERS) == {T.CAVALRY}
    assert rules.advantages_of(T.KNIGHTS) == frozenset() and rules.advantages_of(T.PIKEMEN) == frozenset()
    own = bp.Card("Pikemen", 1, advantages=["Archers"])
    assert rules.card_advantages(own) == {T.ARCHERS}
    with pytest.raises(InvalidRulesError):
        bp.Rules(advantages={"Archers": "Cavalry"})
    with pytest.raises(OrdonnanceTypeError):
        bp.Rules(advantages=[1, 2])  # type: ignore[arg-type]


def test_armies_decks_and_first() -> None:
    rules = bp.Rules(armies=("scottish", "Burgundian"), first="coin")
    assert rules.armies == ("Scottish", "Burgundian") and rules.players == 2
    assert Counter(rules.deck(0)) == Counter(bp.deck("Scottish"))
    mirror = bp.Rules(armies=("english", "English"))  # a mirror match: the same army on both sides
    assert mirror.armies == ("English", "English") and mirror.deck(0) == mirror.deck(1) == bp.Rules().deck(0)
    assert bp.Rules.from_dict(mirror.to_dict()) == mirror
    with pytest.raises(InvalidDeckError, match="'Welsh'"):
        bp.Rules(armies=("Welsh", "English"))
    with pytest.raises(InvalidRulesError, match="'dice'"):
        bp.Rules(first="dice")  # type: ignore[arg-type]
    custom = bp.Rules(decks=(["Knights 3"] * 10, ["Archers 1"] * 8 + ["Battle"] * 2))
    assert len(custom.deck(0)) == 10 and custom.deck(1)[0] is bp.BATTLE  # canonical order: Battle first
    with pytest.raises(InvalidDeckError, match="no troop"):
        bp.Rules(decks=(["Battle"] * 10, ["Archers 1"] * 8))
    with pytest.raises(InvalidDeckError, match="6..64"):
        bp.Rules(decks=(["Knights 1"] * 5, ["Archers 1"] * 8))


def test_rules_dict_round_trip() -> None:
    for rules in [bp.Rules(), bp.Rules(armies=("French", "Scottish"), first="coin", max_turns=50),
                  bp.Rules(decks=([bp.Card("Archers", 2, advantages=["Pikemen"])] * 7, ["Knights 1"] * 9),
                           advantages={"Knights": ["Pikemen"]})]:  # fmt: skip
        assert bp.Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize("rules", [
    bp.Rules(), bp.Rules(armies=("Scottish", "Scottish"), first="coin", max_turns=50),
    bp.Rules(decks=([bp.Card("Archers", 2, advantages=["Pikemen"]), "Battle"] + ["Knights 1"] * 6, ["Knights 1"] * 9),
             advantages={"Knights": ["Pikemen"], "Light cavalry": ["Archers", "Knights"]}),
], ids=["default", "options", "decks and table"])  # fmt: skip
def test_repr_is_python_that_makes_the_rules_again(rules: bp.Rules) -> None:
    text = repr(rules)
    assert eval(text, {"Rules": bp.Rules}) == rules  # noqa: S307 - the point of the test
    assert "TroopType" not in text and "frozenset" not in text
    assert bp.Rules(**rules.to_dict()) == rules


def test_coin_decides_who_starts_and_is_seeded() -> None:
    starts = Counter(bp.Game.new(bp.Rules(first="coin"), seed=s).current_player for s in range(200))
    assert starts[0] > 60 and starts[1] > 60
    assert all(bp.Game.new(bp.Rules(), seed=s).current_player == 0 for s in range(20))
    assert bp.Game.new(bp.Rules(first="coin"), seed=5) == bp.Game.new(bp.Rules(first="coin"), seed=5)
