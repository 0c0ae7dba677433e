"""The whole action space of every game, tried on positions reached by play: every action not
among the legal ones is refused with the library's error and leaves the game exactly as it
was (its save before and after are equal); every legal one is accepted."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from ordonnance import actions as od_actions
from ordonnance.black_prince import actions as bp_actions
from ordonnance.black_prince import cards as bp_cards
from ordonnance.black_prince.rules import COLUMNS
from ordonnance.cards import MAX_MASK, Card
from ordonnance.core import registry
from ordonnance.errors import OrdonnanceError
from ordonnance.shinobi import actions as sh_actions

from .positions import positions


def space(game: str) -> list[Any]:
    """Every action the game's types can express (for Black Prince, with every card of every army)."""
    if game == "ordonnance":
        plays = [od_actions.Play(Card.from_mask(m), t) for m in range(1, MAX_MASK + 1) for t in range(5)]
        return [*plays, *(od_actions.Claim(t) for t in range(5)), od_actions.Pass()]
    if game == "shinobi":
        return list(sh_actions.ACTIONS)
    cards = sorted({card for army in bp_cards.ARMIES for card in bp_cards.deck(army)}, key=str)
    columns = range(COLUMNS)
    return [
        *(kind(card, c) for kind in (bp_actions.Place, bp_actions.PlaceBehind) for card in cards for c in columns),
        *(kind(c, step) for kind in (bp_actions.Move, bp_actions.MountedMove) for c in columns for step in (-1, 1)),
        *(bp_actions.Fight(c, t) for c, t in itertools.product(columns, columns)),
        bp_actions.PlayBattle(), bp_actions.EndTurn(), bp_actions.EndBattle(),
    ]  # fmt: skip


@pytest.mark.parametrize("game", registry.names())
def test_every_illegal_action_is_refused_and_changes_nothing(game: str) -> None:
    actions = space(game)
    assert len(set(actions)) == len(actions)
    tried = refused = 0
    for state in positions(game, games=2):
        legal = set(state.legal_actions())
        assert legal <= set(actions), f"legal actions outside the space: {legal - set(actions)}"
        before = state.to_json()
        for action in actions:
            if action in legal:
                continue
            tried += 1
            with pytest.raises(OrdonnanceError):
                state.apply(action)
            refused += 1
            assert state.to_json() == before, f"{action!r} was refused but changed the game"
        for action in legal:
            copy = state.clone()
            copy.apply(action)
            assert copy.history[-1] == action
    assert tried == refused > 1000
    print(f"{game}: {refused:,} illegal actions refused")
