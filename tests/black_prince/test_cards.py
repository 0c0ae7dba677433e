"""The four decks card by card against the rules page, the types and their families."""

from __future__ import annotations

import pickle
import re
from collections import Counter

import pytest

from ordonnance import black_prince as bp
from ordonnance.errors import InvalidCardError, InvalidDeckError, OrdonnanceError, OrdonnanceTypeError

# The table of RULES-black-prince.md, copied verbatim.
RULES_TABLE = """
| Scottish | Knights 2:1 1:2; Pikemen 3:3 2:6; Swordsmen 3:2 2:1; Archers 2:1 1:5 |
| Burgundian | Knights 3:4 2:2; Cavalry 2:1; Light cavalry 1:2; Swordsmen 2:2 1:2; Halberdiers 1:2; Pikemen 1:2; Archers 3:2 2:2 |
| English | Knights 2:2; Swordsmen 2:1 1:2; Archers 3:6 2:2 1:2; Halberdiers 2:2 1:2; Spearmen 1:1; Cavalry 1:1 |
| French | Knights 3:4 2:2 1:1; Swordsmen 2:2 1:1; Halberdiers 2:2 1:1; Archers 2:4 1:3; Cavalry 2:1 |
"""
# The sheet's own totals per type (Russian text): Scottish knights 3, pikemen 9, ...
SHEET_TOTALS = {
    "Scottish": {"Knights": 3, "Pikemen": 9, "Swordsmen": 3, "Archers": 6},
    "Burgundian": {"Knights": 6, "Cavalry": 1, "Light cavalry": 2, "Swordsmen": 4, "Halberdiers": 2,
                   "Pikemen": 2, "Archers": 4},
    "English": {"Knights": 2, "Swordsmen": 3, "Archers": 10, "Halberdiers": 4, "Spearmen": 1, "Cavalry": 1},
    "French": {"Knights": 7, "Swordsmen": 3, "Halberdiers": 3, "Archers": 7, "Cavalry": 1},
}  # fmt: skip


def _page_counts() -> dict[str, Counter[tuple[str, int]]]:
    out: dict[str, Counter[tuple[str, int]]] = {}
    for line in RULES_TABLE.strip().splitlines():
        army, troops = (part.strip() for part in line.strip("| ").split("|"))
        counts: Counter[tuple[str, int]] = Counter()
        for group in troops.split(";"):
            name = re.match(r"\s*([A-Za-z ]+?)\s+\d", group)
            assert name is not None
            for strength, copies in re.findall(r"(\d):(\d)", group):
                counts[(name.group(1), int(strength))] += int(copies)
        out[army] = counts
    return out


@pytest.mark.parametrize("army", bp.ARMIES)
def test_each_deck_holds_exactly_the_listed_cards(army: str) -> None:
    cards = bp.deck(army)
    assert len(cards) == 25
    assert sum(c.is_battle for c in cards) == 4
    troops = Counter((c.type.label, c.strength) for c in cards if c.type is not None)
    assert troops == _page_counts()[army]
    by_type = Counter(c.type.label for c in cards if c.type is not None)
    assert by_type == SHEET_TOTALS[army]
    assert all(1 <= c.strength <= 3 for c in cards if not c.is_battle)


def test_army_names_are_forgiving_and_checked() -> None:
    assert bp.deck("french") == bp.deck("French")
    with pytest.raises(InvalidDeckError, match="'Welsh'"):
        bp.deck("Welsh")
    with pytest.raises(OrdonnanceTypeError):
        bp.deck(3)  # type: ignore[arg-type]


def test_types_labels_and_families() -> None:
    assert [t.label for t in bp.TroopType] == [
        "Knights", "Cavalry", "Light cavalry", "Pikemen", "Spearmen", "Swordsmen", "Halberdiers", "Archers"]  # fmt: skip
    mounted = {t.label for t in bp.TroopType if t.is_mounted}
    line = {t.label for t in bp.TroopType if t.is_line}
    archers = {t.label for t in bp.TroopType if t.is_archer}
    assert mounted == {"Knights", "Cavalry", "Light cavalry"}
    assert line == {"Pikemen", "Spearmen", "Swordsmen", "Halberdiers"}
    assert archers == {"Archers", "Light cavalry"}
    assert bp.TroopType.parse("light cavalry") is bp.TroopType.LIGHT_CAVALRY
    with pytest.raises(InvalidCardError, match="'Dragoons'"):
        bp.TroopType.parse("Dragoons")


def test_cards_text_repr_and_validation() -> None:
    card = bp.Card("Light cavalry", 1)
    assert str(card) == "Light cavalry 1" and bp.Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": bp.Card, "TroopType": bp.TroopType}) == card
    assert bp.Card.parse("battle") is bp.BATTLE and bp.BATTLE.is_battle and not card.is_battle
    own = bp.Card("Archers", 2, advantages=["Knights", bp.TroopType.CAVALRY])
    assert own.advantages == {bp.TroopType.KNIGHTS, bp.TroopType.CAVALRY} and own != bp.Card("Archers", 2)
    for bad in [lambda: bp.Card("Knights", 0), lambda: bp.Card("Knights", 10), lambda: bp.Card(None, 2),
                lambda: bp.Card.parse("Knights"), lambda: bp.Card("Knights", 2, advantages="Archers")]:  # fmt: skip
        with pytest.raises(OrdonnanceError):
            bad()


def test_new_error_class_pickles() -> None:
    error = bp.InvalidSquareError("a square must be within rows 0..3, got (7, 1)")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is bp.InvalidSquareError and again.args == error.args
    assert isinstance(again, ValueError) and isinstance(again, OrdonnanceError)
