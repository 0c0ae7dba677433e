"""lab.decks: each game's kinds, counts and changes by kind; round trips, refusals, and Black Prince's
kinds named by seat and by army."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ordonnance import Rules, black_prince, shinobi
from ordonnance.cards import standard_deck
from ordonnance.errors import InvalidArgumentError, InvalidCardError, InvalidRulesError, OrdonnanceError
from ordonnance.lab import decks
from ordonnance.lab.decks import Kind

ORDONNANCE = Rules(deck=standard_deck(1))  # the standard deck, listed in the order a changed deck keeps
SHINOBI = shinobi.Rules(players=4, samurai=(6, 7, 8, 9, 10), ninjas=2)
MIRROR = black_prince.Rules(armies=("French", "French"))
SCOTS_FRENCH = black_prince.Rules(armies=("Scottish", "French"))


def _counts(rules: Any) -> dict[str, int]:
    """Every kind's copies (Black Prince: by seat), counted from the rules' own fields."""
    game = type(rules).__module__
    if game.startswith("ordonnance.shinobi"):
        return dict(zip(decks.kinds(rules), (*rules.samurai, rules.ninjas)))
    if game.startswith("ordonnance.black_prince"):
        return {f"{seat}:{card}": n for seat in (0, 1) for card, n in Counter(map(str, rules.deck(seat))).items()}
    return dict(Counter(map(str, rules.cards)))


# Kinds and counts


def test_kinds_of_each_game() -> None:
    ordonnance_kinds = decks.kinds(Rules())
    assert len(ordonnance_kinds) == 31 and ordonnance_kinds[:5] == ("L", "B", "S", "H", "F") and ordonnance_kinds[-1] == "LBSHF"
    assert decks.kinds(shinobi.Rules()) == ("Go-Hojo", "Mori", "Oda", "Takeda", "Uesugi", "Ninja")
    by_seat = decks.kinds(SCOTS_FRENCH)
    assert {kind.split(":")[0] for kind in by_seat} == {"0", "1"}
    assert {kind.split(":", 1)[1] for kind in by_seat if kind.startswith("0:")} == set(map(str, SCOTS_FRENCH.deck(0)))
    by_army = decks.kinds(SCOTS_FRENCH, by="army")
    assert [kind.replace("Scottish:", "0:").replace("French:", "1:") for kind in by_army] == list(by_seat)
    assert decks.kinds(MIRROR, by="army") == tuple(k for k in by_army if k.startswith("French:"))  # listed once
    assert len(decks.kinds(MIRROR)) == 2 * len(decks.kinds(MIRROR, by="army"))


@pytest.mark.parametrize("rules", [ORDONNANCE, Rules(players=4), SHINOBI, SCOTS_FRENCH, MIRROR], ids=repr)
def test_count_agrees_with_the_rules_fields(rules: Any) -> None:
    expected = _counts(rules)
    for kind in decks.kinds(rules):
        assert decks.count(rules, kind) == expected.get(kind, 0)


def test_counts_by_army() -> None:
    assert decks.count(SCOTS_FRENCH, "Scottish:Pikemen 3") == SCOTS_FRENCH.deck(0).count(black_prince.Card("Pikemen", 3))
    assert decks.count(SCOTS_FRENCH, "french:Battle") == decks.count(SCOTS_FRENCH, "1:Battle")
    english = black_prince.cards.deck("English")
    assert decks.count(SCOTS_FRENCH, "English:Archers 3") == english.count(black_prince.Card("Archers", 3)) > 0  # printed
    assert decks.count(SCOTS_FRENCH, "Lombard:Archers 3") == 0  # no such army: no copies
    assert decks.count(Rules(), "LBSHF") == 1 and decks.count(Rules(deck=["L"] * 40), "LBSHF") == 0


def test_names_are_read_in_one_place() -> None:
    assert decks.parse(MIRROR, "0:knights 3") == Kind("Knights 3", seat=0)
    assert str(decks.parse(MIRROR, " french :battle")) == "French:Battle"
    assert decks.parse(MIRROR, "1:Battle") != decks.parse(MIRROR, "French:Battle")
    assert decks.parse(Rules(), "LS") == Kind("LS") and str(Kind("Oda")) == "Oda"


# Round trips


def _round_trip(rules: Any, kind: str, copies: int) -> None:
    """``copies`` added then removed (and removed then added, where there are that many) give ``rules`` back."""
    before = decks.count(rules, kind)
    more = decks.changed(rules, {kind: copies})
    assert decks.count(more, kind) == before + copies
    assert decks.changed(more, {kind: -copies}) == rules
    if before >= copies:
        fewer = decks.changed(rules, {kind: -copies})
        assert decks.count(fewer, kind) == before - copies
        assert decks.changed(fewer, {kind: copies}) == rules
    others = {k: n for k, n in _counts(more).items() if k != kind and not k.endswith(":" + kind.split(":")[-1])}
    assert others == {k: n for k, n in _counts(rules).items() if k in others}  # other kinds untouched


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(decks.kinds(Rules())), copies=st.integers(1, 4))
def test_ordonnance_round_trip(kind: str, copies: int) -> None:
    _round_trip(ORDONNANCE, kind, copies)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(decks.kinds(shinobi.Rules())[:-1]), copies=st.integers(1, 5))
def test_shinobi_round_trip(kind: str, copies: int) -> None:
    _round_trip(SHINOBI, kind, copies)


def test_shinobi_ninjas_round_trip() -> None:
    _round_trip(SHINOBI, "Ninja", 1)
    fewer = decks.changed(SHINOBI, {"Ninja": -2})
    assert fewer.ninjas == 0 and decks.changed(fewer, {"Ninja": 2}) == SHINOBI


@settings(max_examples=60, deadline=None)
@given(data=st.data(), copies=st.integers(1, 3), by=st.sampled_from(["seat", "army"]))
def test_black_prince_round_trip(data: st.DataObject, copies: int, by: decks.By) -> None:
    rules = data.draw(st.sampled_from([SCOTS_FRENCH, MIRROR, black_prince.Rules()]))
    start = decks.changed(rules, {decks.kinds(rules)[0]: 0})  # the printed decks written out, as a change writes them
    _round_trip(start, data.draw(st.sampled_from(decks.kinds(start, by=by))), copies)


def test_a_change_of_several_kinds_at_once() -> None:
    variant = decks.changed(ORDONNANCE, {"LS": -2, "F": 1, "LBSHF": 3})
    assert Counter(map(str, variant.cards)) == Counter(map(str, ORDONNANCE.cards)) + Counter({"F": 1, "LBSHF": 3}) - Counter({"LS": 2})
    assert decks.changed(SHINOBI, {"Oda": 2, "Ninja": -1}) == shinobi.Rules(players=4, samurai=(6, 7, 10, 9, 10), ninjas=1)
    # seat 0 plays the Scottish: a change by seat and one by army add up there
    both = decks.changed(SCOTS_FRENCH, {"0:Battle": -1, "Scottish:Battle": -1, "French:Battle": 1})
    assert decks.count(both, "0:Battle") == decks.count(SCOTS_FRENCH, "0:Battle") - 2
    assert decks.count(both, "1:Battle") == decks.count(SCOTS_FRENCH, "1:Battle") + 1


# Black Prince: by seat or by army


def test_a_kind_named_by_seat_changes_that_seats_deck_only() -> None:
    variant = decks.changed(MIRROR, {"1:Knights 3": -1})
    assert variant.deck(0) == MIRROR.deck(0)
    assert Counter(MIRROR.deck(1)) - Counter(variant.deck(1)) == Counter([black_prince.Card("Knights", 3)])


def test_a_kind_named_by_army_changes_every_seat_that_plays_it() -> None:
    mirror = decks.changed(MIRROR, {"French:Knights 3": -1})
    assert mirror.deck(0) == mirror.deck(1) == decks.changed(MIRROR, {"1:Knights 3": -1}).deck(1)
    one_seat = decks.changed(SCOTS_FRENCH, {"French:Knights 3": -1})
    assert one_seat.deck(0) == SCOTS_FRENCH.deck(0) and len(one_seat.deck(1)) == len(SCOTS_FRENCH.deck(1)) - 1
    assert decks.changed(SCOTS_FRENCH, {"English:Archers 3": -1}) is SCOTS_FRENCH  # an army no seat plays: no change


def test_an_added_card_copies_the_decks_own() -> None:
    own = black_prince.Card("Knights", 3, advantages=["Archers"])
    plain = black_prince.Card("Pikemen", 2)
    rules = black_prince.Rules(decks=[[own] * 3 + [plain] * 5, [plain] * 8])
    more = decks.changed(rules, {"0:Knights 3": 1, "1:Knights 3": 1})
    assert more.deck(0).count(own) == 4  # its advantages kept
    assert more.deck(1).count(black_prince.Card("Knights", 3)) == 1  # none there: the printed card
    assert decks.changed(rules, {"0:Knights 3": -1}).deck(0).count(own) == 2


# Refusals


@pytest.mark.parametrize(
    ("rules", "deltas", "shown"),
    [
        (Rules(deck=["L"] * 40), {"LBSHF": -1}, "no 'LBSHF' to remove"),
        (ORDONNANCE, {"LBSHF": -2}, "holds 1 of 'LBSHF', too few to remove 2"),
        (SHINOBI, {"Ninja": -3}, "holds 2 of 'Ninja', too few to remove 3"),
        (SCOTS_FRENCH, {"0:Battle": -9}, "too few to remove 9"),
        (MIRROR, {"French:Pikemen 3": -1}, "no 'French:Pikemen 3' to remove"),
        (Rules(), {"LQ": 1}, "'LQ'"),
        (Rules(), {"SL": 1}, "'SL'"),  # a kind is named as the game writes its card
        (shinobi.Rules(), {"Ninjas": 1}, "'Ninjas'"),
        (MIRROR, {"2:Battle": 1}, "'2:Battle'"),
        (MIRROR, {"Battle": 1}, "'Battle'"),
        (MIRROR, {":Battle": 1}, "':Battle'"),
    ],
)
def test_impossible_changes_are_refused_showing_the_value(rules: Any, deltas: dict[str, int], shown: str) -> None:
    with pytest.raises(InvalidArgumentError, match=shown):
        decks.changed(rules, deltas)


def test_the_rules_refuse_the_decks_they_refuse() -> None:
    with pytest.raises(InvalidRulesError, match="ninjas"):
        decks.changed(shinobi.Rules(), {"Ninja": 1})  # four ninjas
    with pytest.raises(OrdonnanceError):
        decks.changed(black_prince.Rules(decks=[["Knights 3"] * 6, ["Knights 3"] * 6]), {"0:Knights 3": -1})  # under a hand
    with pytest.raises(InvalidCardError, match="Dragons"):
        decks.parse(MIRROR, "0:Dragons 3")


def test_a_refused_change_leaves_the_rules_as_they_were() -> None:
    rules = black_prince.Rules(armies=("French", "English"))
    before = rules.deck(0)
    with pytest.raises(InvalidArgumentError):
        decks.changed(rules, {"0:Battle": 1, "0:Pikemen 3": -1})
    assert rules.deck(0) == before


# The tuner's space reads and changes decks through this module


def test_a_space_takes_kinds_named_by_seat() -> None:
    from ordonnance.lab.space import Space

    space = Space.of(black_prince.Rules(), options=(), cards=["0:Battle"], spread=1)
    assert space.dimensions[0].values == (-1, 0, 1)  # seat 0 holds four: one may go
    variant = space.variant({"cards[0:Battle]": 1})
    assert variant.deck(0).count(black_prince.BATTLE) == 5 and variant.deck(1) == black_prince.Rules().deck(1)


def test_a_space_keeps_the_decks_own_cards() -> None:
    from ordonnance.lab.space import Space

    own = black_prince.Card("Knights", 3, advantages=["Archers"])
    rules = black_prince.Rules(armies=("Ours", "Theirs"), decks=[[own] * 3 + ["Pikemen 2"] * 5, ["Pikemen 2"] * 8])
    variant = Space.of(rules, options=(), cards=["Ours:Knights 3"], spread=1).variant({"cards[Ours:Knights 3]": 1})
    assert variant.deck(0).count(own) == 4
