from __future__ import annotations

import attrs
import pytest

import ordonnance as od
from ordonnance import Rules


def test_defaults_follow_rules_md() -> None:
    rules = Rules()
    assert rules.players == 2 and rules.deck is None
    assert (rules.scoring, rules.tie_break, rules.claim_proof, rules.auto_claim) == (
        "territories", "latest_capture", "public", False,
    )  # fmt: skip
    assert rules.cards == od.standard_deck()
    assert Rules(players=4).cards == od.standard_deck(2)


def test_rules_are_immutable_and_hashable() -> None:
    rules = Rules(players=3)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.players = 2  # type: ignore[misc]
    assert hash(rules) == hash(Rules(players=3))
    assert attrs.evolve(rules, scoring="points").scoring == "points"


def test_custom_decks_are_validated_and_sized() -> None:
    deck = ["LBSHF"] * 40
    assert Rules(deck=deck).cards == tuple(od.Card.parse("LBSHF") for _ in deck)
    with pytest.raises(od.InvalidDeckError, match="at least 40 cards .* got 39"):
        Rules(deck=deck[1:])
    with pytest.raises(od.InvalidDeckError, match="at least 60 cards"):
        Rules(players=3, deck=od.standard_deck())
    with pytest.raises(od.InvalidCardError, match="position 3"):
        Rules(deck=["L", "B", "S", "Q"] * 10)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"players": 1}, od.InvalidRulesError, "players must be 2..4, got 1"),
        ({"players": 5}, od.InvalidRulesError, "got 5"),
        ({"players": "2"}, TypeError, "'2'"),
        ({"players": True}, TypeError, "True"),
        ({"scoring": "goals"}, od.InvalidRulesError, "'goals'"),
        ({"tie_break": "coin"}, od.InvalidRulesError, "'coin'"),
        ({"claim_proof": "secret"}, od.InvalidRulesError, "'secret'"),
        ({"auto_claim": 1}, TypeError, "auto_claim must be a bool, got 1"),
        ({"scoring": "points", "auto_claim": True}, od.InvalidRulesError, "auto_claim=True is impossible"),
        ({"scoring": "points", "claim_proof": "private"}, od.InvalidRulesError, "no meaning"),
    ],
)
def test_invalid_rules_are_refused(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        Rules(**kwargs)  # type: ignore[arg-type]
    assert message in str(info.value)
