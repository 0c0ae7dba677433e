"""The rules of a game: player count, deck and the variants of the rules (:ref:`rules-variants`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, get_args

import attrs

from ordonnance.core.rulesio import DictRules
from ordonnance.cards import Card, CardLike, build_deck, standard_deck
from ordonnance.errors import InvalidDeckError, InvalidRulesError
from ordonnance.territory import TERRITORY_COUNT
from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = [
    "Rules",
    "Scoring",
    "TieBreak",
    "ClaimProof",
    "HAND_SIZE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
]

Scoring = Literal["territories", "points"]
TieBreak = Literal["latest_capture", "lowest_marker_sum"]
ClaimProof = Literal["public", "private"]

#: Cards dealt to each player at the start.
HAND_SIZE = 5
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: Cards a player needs to complete an army in every territory.
CARDS_PER_PLAYER = 4 * TERRITORY_COUNT


def _to_scoring(value: object) -> Scoring:
    return checks.choice(value, "scoring", get_args(Scoring), error=InvalidRulesError)


def _to_tie_break(value: object) -> TieBreak:
    return checks.choice(value, "tie_break", get_args(TieBreak), error=InvalidRulesError)


def _to_claim_proof(value: object) -> ClaimProof:
    return checks.choice(value, "claim_proof", get_args(ClaimProof), error=InvalidRulesError)


def _to_players(value: object) -> int:
    return checks.integer(value, "players", low=MIN_PLAYERS, high=MAX_PLAYERS, error=InvalidRulesError)


def _to_auto_claim(value: object) -> bool:
    return checks.flag(value, "auto_claim")


def _to_deck(cards: Iterable[CardLike] | None) -> tuple[Card, ...] | None:
    return None if cards is None else build_deck(cards, min_size=0)


@attrs.frozen
class Rules(DictRules):
    """Everything that is fixed for a whole game; immutable and validated.

    >>> Rules(players=2)
    Rules(players=2, deck=None, scoring='territories', tie_break='latest_capture', claim_proof='public', auto_claim=False)
    >>> len(Rules(players=3).cards)
    112
    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    ordonnance.errors.InvalidRulesError: players must be 2..4, got 5
    """

    players: int = attrs.field(default=2, converter=_to_players)
    """Number of players, 2..4."""
    deck: tuple[Card, ...] | None = attrs.field(default=None, converter=_to_deck)
    """A custom deck (any multiset of cards), or None for the standard deck(s)."""
    scoring: Scoring = attrs.field(default="territories", converter=_to_scoring)
    """``"territories"`` (most territories wins) or ``"points"`` (3/2/1 per territory)."""
    tie_break: TieBreak = attrs.field(default="latest_capture", converter=_to_tie_break)
    """``"latest_capture"`` (highest marker among the tied) or ``"lowest_marker_sum"``."""
    claim_proof: ClaimProof = attrs.field(default="public", converter=_to_claim_proof)
    """``"public"``: a claim assumes opponents may get any card not face up, the
    claimant's own hand included; ``"private"``: the claimant's hand is excluded."""
    auto_claim: bool = attrs.field(default=False, converter=_to_auto_claim)
    """Award every provable territory, for any player, at once after each play."""

    def __new__(cls, *args: object, **kwargs: object) -> Rules:
        # attrs' __init__ would raise a bare TypeError for these; say what is wrong instead.
        fields = [field.name for field in attrs.fields(cls)]
        unknown = sorted(set(kwargs) - set(fields))
        if unknown:
            raise InvalidRulesError(
                f"unknown rules field(s) {', '.join(map(repr, unknown))} (the fields are {', '.join(fields)})"
            )
        if len(args) > len(fields):
            raise InvalidRulesError(f"Rules takes at most {len(fields)} arguments ({', '.join(fields)}), got {shown(args)}")
        return super().__new__(cls)

    def __attrs_post_init__(self) -> None:
        needed = CARDS_PER_PLAYER * self.players
        if len(self.cards) < needed:
            raise InvalidDeckError(
                f"a {self.players}-player game needs a deck of at least {needed} cards "
                f"({CARDS_PER_PLAYER} per player), got {len(self.cards)}: {shown([str(c) for c in self.cards]):.80}"
            )
        if self.scoring == "points":
            if self.auto_claim:
                raise InvalidRulesError(
                    "auto_claim=True is impossible with scoring='points': "
                    "territories are scored only when every army is complete"
                )
            if self.claim_proof != "public":
                raise InvalidRulesError(
                    f"claim_proof={shown(self.claim_proof)} has no meaning with scoring='points': "
                    "early claims are not available"
                )

    @property
    def cards(self) -> tuple[Card, ...]:
        """The deck in use: the custom one, or 1 standard deck for 2 players, 2 for 3-4."""
        if self.deck is not None:
            return self.deck
        return standard_deck(1 if self.players == 2 else 2)

    @property
    def claims_allowed(self) -> bool:
        """Whether territories can be taken early (not with ``scoring="points"``)."""
        return self.scoring == "territories"

    @property
    def explicit_claims(self) -> bool:
        """Whether a player can ever have a provable claim to make on their turn.

        Not with points scoring; not with ``auto_claim`` and public proof either,
        since everything provable is awarded after each play and only plays
        change public information. With private proof a draw can make a claim
        provable, so explicit claims stay possible even with ``auto_claim``.
        """
        return self.claims_allowed and (not self.auto_claim or self.claim_proof == "private")

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON-ready data; :meth:`from_dict` reverses it."""
        data = attrs.asdict(self)
        data["deck"] = None if self.deck is None else [str(card) for card in self.deck]
        return data
