"""The rules of a game of Shinobi: players, the troop deck and the attack variant.

>>> from ordonnance.shinobi import Rules
>>> Rules()
Rules(players=4, samurai=(11, 11, 11, 11, 11), ninjas=3, attack='mandatory')
>>> len(Rules().troop_deck), Rules(players=3, samurai=8).samurai
(58, (8, 8, 8, 8, 8))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args

import attrs

from ordonnance.core import checks, rulesio
from ordonnance.core.rulesio import DictRules
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.shinobi.cards import CLANS, NINJA

__all__ = ["Rules", "AttackRule", "HAND_SIZE", "MIN_PLAYERS", "MAX_PLAYERS", "MAX_DECK", "RULES_SCHEMA", "rules_from_json"]

AttackRule = Literal["mandatory", "optional"]

#: Cards in a full hand (dealt at the start, refilled at the end of each turn).
HAND_SIZE = 4
MIN_PLAYERS = 3
MAX_PLAYERS = 5
#: The largest troop deck the engine accepts (it bounds the simulator's memory).
MAX_DECK = 500


def _to_players(value: object) -> int:
    return checks.integer(value, "players", low=MIN_PLAYERS, high=MAX_PLAYERS, error=InvalidRulesError)


def _to_samurai(value: object) -> tuple[int, ...]:
    wanted = f"samurai must be an int or {CLANS} ints (cards per clan), got {checks.shown(value)}"
    if checks.is_integer(value):
        counts: tuple[Any, ...] = (value,) * CLANS
    elif isinstance(value, (tuple, list)):
        counts = tuple(value)
    else:
        raise OrdonnanceTypeError(wanted)
    if len(counts) != CLANS or not all(checks.is_integer(c) for c in counts):
        raise OrdonnanceTypeError(wanted)
    if any(c < 0 for c in counts):
        raise InvalidRulesError(f"samurai counts must not be negative, got {checks.shown(value)}")
    if any(c > MAX_DECK for c in counts):
        raise InvalidRulesError(f"the troop deck may hold at most {MAX_DECK} cards, got samurai={checks.shown(value)}")
    return tuple(int(c) for c in counts)


def _to_ninjas(value: object) -> int:
    # A full hand of ninjas could have nothing to do while the deck lasts: no progress.
    return checks.integer(value, "ninjas", low=0, high=HAND_SIZE - 1, error=InvalidRulesError)


def _to_attack(value: object) -> AttackRule:
    return checks.choice(value, "attack", get_args(AttackRule), error=InvalidRulesError)


@attrs.frozen
class Rules(DictRules):
    """Everything fixed for a whole game; immutable and validated.

    >>> Rules(players=6)
    Traceback (most recent call last):
    ...
    ordonnance.errors.InvalidRulesError: players must be 3..5, got 6
    """

    players: int = attrs.field(default=4, converter=_to_players)
    """Number of players, 3..5."""
    samurai: tuple[int, ...] = attrs.field(default=11, converter=_to_samurai)
    """Samurai cards of each clan in the troop deck (one int for all clans, or 5 ints)."""
    ninjas: int = attrs.field(default=3, converter=_to_ninjas)
    """Ninja cards in the troop deck, 0..3."""
    attack: AttackRule = attrs.field(default="mandatory", converter=_to_attack)
    """``"mandatory"``: a legal attack must be made; ``"optional"``: it may be declined (Pass)."""

    def __attrs_post_init__(self) -> None:
        size = sum(self.samurai) + self.ninjas
        needed = HAND_SIZE * self.players
        if size < needed:
            raise InvalidRulesError(
                f"a {self.players}-player game deals {needed} cards, but the troop deck has {size}"
            )
        if size > MAX_DECK:
            raise InvalidRulesError(f"the troop deck may hold at most {MAX_DECK} cards, got {size}")

    @property
    def troop_deck(self) -> tuple[int, ...]:
        """The troop deck's card codes in sorted order (the order shuffled by ``Game.new``)."""
        codes = [clan for clan in range(CLANS) for _ in range(self.samurai[clan])]
        return tuple(codes + [NINJA] * self.ninjas)

    @property
    def optional_attack(self) -> bool:
        """Whether order 3 may be declined."""
        return self.attack == "optional"

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON-ready data; :meth:`from_dict` reverses it."""
        return {"players": self.players, "samurai": list(self.samurai), "ninjas": self.ninjas, "attack": self.attack}

#: The JSON Schema (draft 2020-12) of :meth:`Rules.to_dict` output, as saves and views hold it.
#: What a schema cannot say, :class:`Rules` checks too: the troop deck deals every hand and
#: holds at most :data:`MAX_DECK` cards.
RULES_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Shinobi rules (ordonnance.shinobi.Rules.to_dict)",
    "type": "object",
    "properties": {
        "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
        "samurai": {
            "type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": CLANS, "maxItems": CLANS,
            "description": "samurai cards of each clan, in the order of CLAN_NAMES",
        },
        "ninjas": {"type": "integer", "minimum": 0, "maximum": HAND_SIZE - 1},
        "attack": {"enum": list(get_args(AttackRule))},
    },
    "required": ["players", "samurai", "ninjas", "attack"],
    "additionalProperties": False,
}  # fmt: skip


def rules_from_json(data: Any, fail: Callable[[str], Exception]) -> Rules:
    """The rules of a save or a view: :meth:`Rules.from_dict` of an object listing every
    field, as :meth:`Rules.to_dict` writes them; anything else raises ``fail(message)``
    saying why (:func:`ordonnance.core.rulesio.rules_from_json`)."""
    if not isinstance(data, dict):  # refused here, shown short: a save may hold anything huge there
        raise fail(f"rules must be an object, got {checks.shown(data)}")
    return rulesio.rules_from_json(Rules, data, fail)
