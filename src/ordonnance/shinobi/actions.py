"""The decisions of a turn: :class:`Deploy`, :class:`Ninja`, :class:`Reinforce`,
:class:`Move`, :class:`Attack` and :class:`Pass` (:ref:`shinobi-rules-actions`).

Actions are immutable values that compare by value; they name clans, not card
copies, since cards of one clan are interchangeable:

>>> from ordonnance.shinobi.actions import Attack, Deploy, from_code
>>> Deploy(2, 1) == Deploy("Oda", 1), Deploy(2, 1)
(True, Deploy(card_clan=2, province=1))
>>> str(Attack(0, 2, 3))
'attack with Go-Hojo the Takeda army in province 2'
>>> from_code(Deploy(2, 1).code) == Deploy(2, 1)
True

Every action also has a fixed integer :attr:`code` in ``0..ACTION_COUNT-1``
(the same for every player count): the numba kernel and the PettingZoo action
masks use it, and :meth:`Game.legal_actions` lists actions in code order.

Each action has a JSON form: an object whose ``"type"`` names the kind and whose
other keys are its fields, clans by name and provinces by seat number
(:func:`action_to_json`; :data:`ACTION_SCHEMA` is its JSON Schema).
:func:`action_from_json` reads it back and refuses anything else:

>>> from ordonnance.shinobi import action_from_json, action_to_json
>>> action_to_json(Attack(0, 2, 3))
'{"type":"attack","clan":"Go-Hojo","province":2,"target_clan":"Takeda"}'
>>> action_from_json('{"type": "deploy", "card_clan": "Oda", "province": 1}')
Deploy(card_clan=2, province=1)
>>> action_from_json('{"type": "deploy", "card_clan": "Oda", "province": 7}')
Traceback (most recent call last):
...
ordonnance.errors.InvalidArgumentError: invalid shinobi action JSON: {'type': 'deploy', 'card_clan': 'Oda', 'province': 7}: a province must be a seat 0..4, got 7
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsIndex, Union

import attrs

from ordonnance.core import checks
from ordonnance.core.actioncodec import ActionCodec, int_field, name_field
from ordonnance.errors import InvalidSeatError, OrdonnanceTypeError
from ordonnance.shinobi.cards import CLAN_NAMES, CLANS, to_clan
from ordonnance.shinobi.rules import MAX_PLAYERS

__all__ = [
    "Deploy", "Ninja", "Reinforce", "Move", "Attack", "Pass", "Action",
    "ACTION_COUNT", "from_code", "to_province",
    "ACTION_SCHEMA", "action_to_data", "action_from_data", "action_to_json", "action_from_json",
]  # fmt: skip

_P = MAX_PLAYERS
DEPLOY_BASE = 0
NINJA_BASE = DEPLOY_BASE + CLANS * _P
REINFORCE_BASE = NINJA_BASE + _P * CLANS
MOVE_BASE = REINFORCE_BASE + CLANS
ATTACK_BASE = MOVE_BASE + _P * CLANS * _P
PASS_CODE = ATTACK_BASE + CLANS * _P * CLANS
#: Number of action codes.
ACTION_COUNT = PASS_CODE + 1


def to_province(value: object, what: str = "a province") -> int:
    """A province (a seat number 0..4) from an int (NumPy ints too); the game checks it against its players."""
    if type(value) is int and 0 <= value < MAX_PLAYERS:  # the engine's own calls: checked at once
        return value
    if not checks.is_integer(value):
        raise OrdonnanceTypeError(f"{what} is a seat number, not {type(value).__name__}: {checks.shown(value)}")
    number = int(value)
    if not 0 <= number < MAX_PLAYERS:
        raise InvalidSeatError(f"{what} must be a seat 0..{MAX_PLAYERS - 1}, got {checks.shown(number)}")
    return number


def _clan(value: object) -> int:
    return to_clan(value)


@attrs.frozen
class Deploy:
    """Order 1: play a samurai of ``card_clan`` from hand into another player's ``province``."""

    card_clan: int = attrs.field(converter=_clan)
    """The clan of the samurai played (0..4 or a clan name)."""
    province: int = attrs.field(converter=to_province)
    """The seat whose province receives it (not the player's own)."""

    @property
    def code(self) -> int:
        """This action's integer code."""
        return DEPLOY_BASE + self.card_clan * _P + self.province

    def __str__(self) -> str:
        return f"deploy {CLAN_NAMES[self.card_clan]} to province {self.province}"


@attrs.frozen
class Ninja:
    """Order 1 with a ninja: discard it to remove one card of the ``clan`` army in ``province``."""

    province: int = attrs.field(converter=to_province)
    """Another player's province."""
    clan: int = attrs.field(converter=_clan)
    """The clan of the army that loses a card."""

    @property
    def code(self) -> int:
        """This action's integer code."""
        return NINJA_BASE + self.province * CLANS + self.clan

    def __str__(self) -> str:
        return f"ninja removes a {CLAN_NAMES[self.clan]} card from province {self.province}"


@attrs.frozen
class Reinforce:
    """Order 2: play a samurai of ``card_clan`` from hand into the player's own province."""

    card_clan: int = attrs.field(converter=_clan)
    """The clan of the samurai played."""

    @property
    def code(self) -> int:
        """This action's integer code."""
        return REINFORCE_BASE + self.card_clan

    def __str__(self) -> str:
        return f"reinforce with {CLAN_NAMES[self.card_clan]}"


@attrs.frozen
class Move:
    """Order 2: move one card of ``clan`` from another player's ``from_province`` to ``to_province``."""

    from_province: int = attrs.field(converter=to_province)
    """Where the card leaves: never the mover's own province."""
    clan: int = attrs.field(converter=_clan)
    """The clan of the card moved."""
    to_province: int = attrs.field(converter=to_province)
    """Any other province, the mover's own included."""

    @property
    def code(self) -> int:
        """This action's integer code."""
        return MOVE_BASE + (self.from_province * CLANS + self.clan) * _P + self.to_province

    def __str__(self) -> str:
        return f"move {CLAN_NAMES[self.clan]} from province {self.from_province} to {self.to_province}"


@attrs.frozen
class Attack:
    """Order 3: the player's ``clan`` army attacks the ``target_clan`` army in ``province``."""

    clan: int = attrs.field(converter=_clan)
    """The attacking army's clan (in the player's own province)."""
    province: int = attrs.field(converter=to_province)
    """The defender's province (another player's)."""
    target_clan: int = attrs.field(converter=_clan)
    """The defending army's clan (different from the attacker's)."""

    @property
    def code(self) -> int:
        """This action's integer code."""
        return ATTACK_BASE + (self.clan * _P + self.province) * CLANS + self.target_clan

    def __str__(self) -> str:
        return (f"attack with {CLAN_NAMES[self.clan]} the {CLAN_NAMES[self.target_clan]} army "
                f"in province {self.province}")  # fmt: skip


@attrs.frozen
class Pass:
    """Decline order 3 (only under ``attack="optional"``, and only when an attack is legal)."""

    @property
    def code(self) -> int:
        """This action's integer code."""
        return PASS_CODE

    def __str__(self) -> str:
        return "pass"


#: Any action.
Action = Union[Deploy, Ninja, Reinforce, Move, Attack, Pass]
_KINDS = (Deploy, Ninja, Reinforce, Move, Attack, Pass)


def _decode(code: int) -> Action:
    if code < NINJA_BASE:
        return Deploy(code // _P, code % _P)
    if code < REINFORCE_BASE:
        return Ninja((code - NINJA_BASE) // CLANS, (code - NINJA_BASE) % CLANS)
    if code < MOVE_BASE:
        return Reinforce(code - REINFORCE_BASE)
    if code < ATTACK_BASE:
        rest, to = divmod(code - MOVE_BASE, _P)
        return Move(rest // CLANS, rest % CLANS, to)
    if code < PASS_CODE:
        rest, target = divmod(code - ATTACK_BASE, CLANS)
        return Attack(rest // _P, rest % _P, target)
    return Pass()


#: ACTIONS[code]: the shared action object of each code.
ACTIONS: tuple[Action, ...] = tuple(_decode(code) for code in range(ACTION_COUNT))


def from_code(code: SupportsIndex) -> Action:
    """The action of integer ``code`` (see :attr:`Deploy.code`; NumPy ints too); anything else
    raises :class:`~ordonnance.errors.OrdonnanceTypeError`."""
    if not checks.is_integer(code) or not 0 <= int(code) < ACTION_COUNT:
        raise OrdonnanceTypeError(f"an action code is an int in 0..{ACTION_COUNT - 1}, got {checks.shown(code)}")
    return ACTIONS[int(code)]


def is_action(value: object) -> bool:
    """Whether ``value`` is one of the action classes."""
    return type(value) in _KINDS


# ------------------------------------------------------------------ JSON

_PROVINCE = int_field(0, MAX_PLAYERS - 1)
_CLAN = name_field(CLAN_NAMES)
_CODEC: ActionCodec[Action] = ActionCodec(
    "shinobi",
    "A Shinobi action (ordonnance.shinobi.action_to_json)",
    {kind.__name__.lower(): kind for kind in _KINDS},
    {"card_clan": _CLAN, "clan": _CLAN, "target_clan": _CLAN,
     "province": _PROVINCE, "from_province": _PROVINCE, "to_province": _PROVINCE},
)  # fmt: skip

#: The JSON Schema (draft 2020-12) of :func:`action_to_json`'s output: an object whose
#: ``"type"`` is ``"deploy"``, ``"ninja"``, ``"reinforce"``, ``"move"``, ``"attack"`` or
#: ``"pass"`` and whose other keys are the action's fields: clans as names
#: (:data:`~ordonnance.shinobi.CLAN_NAMES`), provinces as seat numbers 0..4.
ACTION_SCHEMA: dict[str, object] = _CODEC.schema


def action_to_data(action: Action) -> dict[str, Any]:
    """``action`` as JSON data: ``{"type": "move", "from_province": 1, "clan": "Oda", "to_province": 0}``
    (see :func:`action_to_json`)."""
    return _CODEC.to_data(action)


def action_from_data(data: Any, fail: Callable[[str], Exception] = _CODEC.fail) -> Action:
    """The action of :func:`action_to_data` output. Anything else raises ``fail(reason)``
    (by default :class:`~ordonnance.errors.InvalidArgumentError`; an action inside a save or a
    view raises that reader's error), showing the value: not an
    object, an unknown ``type``, a missing or unknown key, a clan that is not one of
    :data:`~ordonnance.shinobi.CLAN_NAMES` exactly, a province that is not an int 0..4."""
    return _CODEC.from_data(data, fail)


def action_to_json(action: Action) -> str:
    """``action`` as compact JSON text: ``{"type":"deploy","card_clan":"Oda","province":1}``,
    ``{"type":"ninja","province":2,"clan":"Mori"}``, ``{"type":"reinforce","card_clan":"Mori"}``,
    ``{"type":"move","from_province":1,"clan":"Oda","to_province":0}``,
    ``{"type":"attack","clan":"Oda","province":2,"target_clan":"Mori"}`` or ``{"type":"pass"}``.
    :data:`ACTION_SCHEMA` is its JSON Schema; :func:`action_from_json` reads it back."""
    return _CODEC.to_json(action)


def action_from_json(text: str | bytes) -> Action:
    """The action of :func:`action_to_json` output. Untrusted text is refused with
    :class:`~ordonnance.errors.InvalidArgumentError` showing the value: not str or bytes,
    not JSON, longer than 10,000 characters or nested deeper than 4 levels, repeated keys,
    or data :func:`action_from_data` refuses."""
    return _CODEC.from_json(text)
