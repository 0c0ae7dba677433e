"""The actions a player can take: :class:`Play`, :class:`Claim` and :class:`Pass`.

Actions are immutable values that compare by value, so an action built by hand
equals the matching element of :meth:`Game.legal_actions`:

>>> from ordonnance import Card, Territory
>>> Play(Card.parse("SH"), Territory.CYPRUS) == Play(Card.parse("hs"), Territory(1))
True
>>> Play(Card.parse("SH"), Territory.CYPRUS)
Play(Card.parse('SH'), Territory.CYPRUS)
"""

from __future__ import annotations

import enum
from typing import Union

import attrs
import numpy as np

from ordonnance.cards import MAX_MASK, Card, CardLike, to_mask
from ordonnance.errors import InvalidTerritoryError, OrdonnanceTypeError
from ordonnance.territory import Territory

__all__ = ["Play", "Claim", "Pass", "Action", "to_territory"]


def _to_card(card: CardLike) -> Card:
    return card if type(card) is Card else Card.from_mask(to_mask(card))


def to_territory(territory: Territory | int) -> Territory:
    """A :class:`Territory` from itself or its number 0..4 (an int or a NumPy integer).

    Other enumerations (a :class:`~ordonnance.Symbol`, say) are not territories,
    although they are ints.
    """
    if type(territory) is Territory:
        return territory
    if (
        isinstance(territory, (bool, enum.Enum, np.bool_))
        or not isinstance(territory, (int, np.integer))
    ):
        raise OrdonnanceTypeError(
            f"a territory is a Territory or an int 0..4, not {type(territory).__name__}: "
            f"{territory!r}"
        )
    if not 0 <= territory < len(Territory):
        raise InvalidTerritoryError(f"a territory number must be in 0..4, got {territory!r}")
    return Territory(int(territory))


@attrs.frozen(repr=False)
class Play:
    """Play ``card`` from hand face up into ``territory``; this ends the turn."""

    card: Card = attrs.field(converter=_to_card)
    """The card to play (it must be in the player's hand); also given as a mask or text."""
    territory: Territory = attrs.field(converter=to_territory)
    """Where to play it (a territory open to the player); also given as 0..4."""

    def __repr__(self) -> str:
        return f"Play({self.card!r}, {self.territory!r})"

    def __str__(self) -> str:
        return f"play {self.card} to {self.territory.label}"


@attrs.frozen(repr=False)
class Claim:
    """Claim ``territory`` early, proving no opponent can still beat the army there."""

    territory: Territory = attrs.field(converter=to_territory)
    """The territory claimed; also given as 0..4."""

    def __repr__(self) -> str:
        return f"Claim({self.territory!r})"

    def __str__(self) -> str:
        return f"claim {self.territory.label}"


@attrs.frozen(repr=False)
class Pass:
    """End the turn without playing (only when no play is possible)."""

    def __repr__(self) -> str:
        return "Pass()"

    def __str__(self) -> str:
        return "pass"


#: Any action.
Action = Union[Play, Claim, Pass]

# Shared instances, so that legal_actions() allocates nothing per call.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(Card.from_mask(mask), t) for t in Territory) if mask else ()
    for mask in range(MAX_MASK + 1)
)
CLAIMS: tuple[Claim, ...] = tuple(Claim(t) for t in Territory)
PASS = Pass()
