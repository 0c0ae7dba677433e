from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Card, Symbol

from .strategies import masks


def test_symbols_are_ranked_weakest_to_strongest() -> None:
    assert [s.letter for s in Symbol] == list("LBSHF")
    assert [int(s) for s in Symbol] == [0, 1, 2, 3, 4]
    assert Symbol.BANNER > Symbol.HELMET > Symbol.SWORD > Symbol.BOW > Symbol.LANCE
    assert [s.bit for s in Symbol] == [1, 2, 4, 8, 16]


def test_card_example_from_api() -> None:
    card = Card.parse("SH")
    assert card.mask == 12
    assert str(card) == "SH"
    assert Card.from_mask(12) == card
    assert hash(Card.from_mask(12)) == hash(card)
    assert Card.parse("LSF").mask == 21
    assert Card.parse("LBSHF").mask == 31


@given(masks)
def test_mask_text_and_repr_round_trip(mask: int) -> None:
    card = Card.from_mask(mask)
    assert card.mask == mask
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.parse(str(card)[::-1]) == card
    assert eval(repr(card), {"Card": Card}) == card
    assert sum(s.bit for s in card.symbols) == mask
    assert list(card.symbols) == sorted(card.symbols)
    assert len(card) == len(card.symbols)
    assert all(s in card for s in card.symbols)
    assert Card(mask) == card


def test_cards_are_immutable() -> None:
    card = Card.parse("L")
    with pytest.raises(AttributeError):
        card.mask = 2  # type: ignore[misc]


def test_numpy_integer_masks_are_accepted() -> None:
    assert Card.from_mask(np.uint8(5)) == Card.parse("LS")


@pytest.mark.parametrize(
    ("text", "shown"),
    [("", "''"), ("X", "'X'"), ("LL", "'L'"), ("sHs", "'S'"), ("L B", "' '"), ("FF", "'F'")],
)
def test_bad_card_text_is_refused_with_the_bad_value(text: str, shown: str) -> None:
    with pytest.raises(od.InvalidCardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    if text:
        assert shown in str(info.value)


@pytest.mark.parametrize("mask", [0, 32, -1, 255, 10**20])
def test_bad_masks_are_refused(mask: int) -> None:
    with pytest.raises(od.InvalidCardError, match=repr(mask)):
        Card.from_mask(mask)
    with pytest.raises(od.InvalidCardError, match=repr(mask)):
        Card(mask)


@pytest.mark.parametrize("value", [1.0, "12", None, True, b"L"])
def test_masks_of_wrong_type_are_type_errors(value: object) -> None:
    with pytest.raises(TypeError, match=repr(value).replace(".", r"\.")):
        Card.from_mask(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [1.0, 12, None, True, b"L"])
def test_card_text_of_wrong_type_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError, match=repr(value).replace(".", r"\.")):
        Card.parse(value)  # type: ignore[arg-type]


def test_standard_deck_matches_rules() -> None:
    deck = od.standard_deck()
    assert len(deck) == 56
    counts = Counter(deck)
    assert len(counts) == 31
    for card, copies in counts.items():
        assert copies == {1: 4, 2: 2, 3: 1, 4: 1, 5: 1}[len(card)]
    for symbol in Symbol:
        assert sum(symbol in card for card in deck) == 23
    assert deck == tuple(sorted(deck))
    assert len(od.standard_deck(2)) == 112
    assert od.deck_counts(od.standard_deck(2)) == Counter({c: 2 * n for c, n in counts.items()})


@given(st.lists(st.one_of(masks, masks.map(Card.from_mask), masks.map(lambda m: str(Card.from_mask(m))))))
def test_build_deck_accepts_any_card_form(cards: list[od.CardLike]) -> None:
    deck = od.build_deck(cards, min_size=0)
    assert [c.mask for c in deck] == [od.cards.to_mask(c) for c in cards]


def test_build_deck_errors_name_the_position() -> None:
    with pytest.raises(od.InvalidCardError, match=r"position 2: .*'Q'"):
        od.build_deck(["L", "B", "Q"])
    with pytest.raises(od.InvalidDeckError, match="at least 3 cards, got 2"):
        od.build_deck(["L", "B"], min_size=3)
    with pytest.raises(TypeError, match="not a string"):
        od.build_deck("LBS")
    with pytest.raises(od.InvalidDeckError, match="copies must be in 1..178"):
        od.standard_deck(0)
