"""Lossless JSON for games, refusing any save the engine could not have reached.

A save holds the start (a deal, or a set position), every action since, and a
snapshot of the position::

    {"format": "ordonnance.shinobi.game", "version": 2,
     "rules": {...},                       # Rules.to_dict()
     "seed": 7,                            # null when deck and clans were given, or a start
     "clans": [3, 0, 4, 1, 2],             # the clan cards: seat s has clans[s], the rest are neutral
     "deck": ["Oda", "Ninja", ...],        # the troop deck before the deal, top card first
     "start": null,                        # or the position play started from (below)
     "history": [{"type": "deploy", "card_clan": "Oda", "province": 1}, ...],
     "position": {"current_player": 1, "order": 2, "turns": 3, "over": false,
                  "hands": [["Mori", ...], ...], "provinces": [[0, 1, 0, 0, 0], ...],
                  "discard": [0, 0, 0, 0, 0, 1], "deck_size": 40}}

The history's actions are in the form of :func:`~ordonnance.shinobi.action_to_json`. A game
that did not start at a deal (one sampled from a view,
:meth:`~ordonnance.shinobi.PlayerView.sample_game`) has ``"seed": null``, its draw
pile at the start as ``"deck"`` and its start as ``"start"``: ``{"hands": [[...],
...], "provinces": [...], "discard": [...], "changed": [[false, ...], ...],
"current_player": 0, "order": 1, "turns": 12, "extra_turns_left": null}``.
Version 1 (written before the start, with the history as ``"actions": [["Deploy", 2, 1], ...]``)
still loads.

Loading parses the text with :func:`ordonnance.core.jsonio.parse` (size and depth
limits, no repeated keys), deals (or checks the start position as
:class:`~ordonnance.shinobi.Game` does every position it is given), replays the
actions (so every action must be legal where it stands) and then requires the
snapshot to be exactly the position reached: a save loads only if the engine could
have reached it, and a hand-edited position that contradicts its history is refused.

>>> from ordonnance import shinobi
>>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=2)
>>> game.apply(game.legal_actions()[-1])
>>> restored = shinobi.Game.from_json(game.to_json())
>>> restored == game, restored.history == game.history
(True, True)
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import attrs

from ordonnance.core import checks, jsonio
from ordonnance.errors import InvalidGameStateError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.shinobi.actions import Action, Attack, Deploy, Move, Ninja, Pass, Reinforce, is_action
from ordonnance.shinobi.actions import action_from_data as _action_from_dict
from ordonnance.shinobi.actions import action_to_data as _action_to_dict
from ordonnance.shinobi.cards import CLANS, Card
from ordonnance.shinobi.game import Game, dealt
from ordonnance.shinobi.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Rules, rules_from_json
from ordonnance.shinobi.view import SCHEMA_DEFS

__all__ = ["FORMAT", "VERSION", "GAME_SCHEMA", "game_to_json", "game_from_json", "action_to_data", "action_from_data"]

FORMAT = "ordonnance.shinobi.game"
#: The version :func:`game_to_json` writes; :func:`game_from_json` reads it and version 1.
VERSION = 2
_KEYS = {1: {"format", "version", "rules", "seed", "clans", "deck", "actions", "position"}}
_KEYS[2] = _KEYS[1] - {"actions"} | {"start", "history"}
#: Where each version keeps the actions applied since the start.
_HISTORY = {1: "actions", 2: "history"}
_POSITION_KEYS = {"current_player", "order", "turns", "over", "hands", "provinces", "discard", "deck_size"}
_START_KEYS = ("hands", "provinces", "discard", "changed", "current_player", "order", "turns", "extra_turns_left")
_KINDS: dict[str, type[Action]] = {kind.__name__: kind for kind in (Deploy, Ninja, Reinforce, Move, Attack, Pass)}

_COUNT = {"type": "integer", "minimum": 0}
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_HANDS = {"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/card"}, "maxItems": HAND_SIZE},
          "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS}  # fmt: skip
_ORDER = {"type": "integer", "minimum": 1, "maximum": 3}


def _object(properties: dict[str, object]) -> dict[str, object]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


#: The JSON Schema (draft 2020-12) of :func:`game_to_json`'s output (version 2). What a schema
#: cannot say (the deal of the seed, the cards adding up, each action legal where it stands,
#: the snapshot being the position the actions reach) :func:`game_from_json` checks.
GAME_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": f"A Shinobi game ({FORMAT}, version {VERSION})",
    **_object({
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "rules": {"$ref": "#/$defs/rules"},
        "seed": {"oneOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]},
        "clans": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": CLANS - 1},
                  "minItems": CLANS, "maxItems": CLANS, "uniqueItems": True},
        "deck": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        "start": {"oneOf": [{"type": "null"}, _object({
            "hands": _HANDS,
            "provinces": {"$ref": "#/$defs/provinces"},
            "discard": {"$ref": "#/$defs/discard"},
            "changed": {"$ref": "#/$defs/changed"},
            "current_player": _SEAT,
            "order": _ORDER,
            "turns": _COUNT,
            "extra_turns_left": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_PLAYERS},
        })]},
        "history": {"type": "array", "items": {"$ref": "#/$defs/action"}},
        "position": _object({
            "current_player": _SEAT,
            "order": _ORDER,
            "turns": _COUNT,
            "over": {"type": "boolean"},
            "hands": _HANDS,
            "provinces": {"$ref": "#/$defs/provinces"},
            "discard": {"$ref": "#/$defs/discard"},
            "deck_size": _COUNT,
        }),
    }),
    "$defs": SCHEMA_DEFS,
}  # fmt: skip


def action_to_data(action: Action) -> list[Any]:
    """An action as version 1 of the save wrote it: its class name, then its fields in order.

    .. deprecated:: 0.1.0
       Saves write actions as :func:`ordonnance.shinobi.actions.action_to_data` objects
       since version 2; this list form is only read, in saves of version 1.
    """
    warnings.warn(
        "shinobi.serialization.action_to_data writes the list form of version 1 saves; "
        "use ordonnance.shinobi.actions.action_to_data (or shinobi.action_to_json)",
        DeprecationWarning,
        stacklevel=2,
    )
    if not is_action(action):
        raise OrdonnanceTypeError(f"an action is Deploy, Ninja, Reinforce, Move, Attack or Pass, not {checks.shown(action)}")
    return [type(action).__name__, *attrs.astuple(action)]


def action_from_data(data: Any) -> Action:
    """The action of the list form (:func:`action_to_data`); raises InvalidGameStateError when malformed.

    .. deprecated:: 0.1.0
       Use :func:`ordonnance.shinobi.actions.action_from_data` (or ``shinobi.action_from_json``).
    """
    warnings.warn(
        "shinobi.serialization.action_from_data reads the list form of version 1 saves; "
        "use ordonnance.shinobi.actions.action_from_data (or shinobi.action_from_json)",
        DeprecationWarning,
        stacklevel=2,
    )
    return _action_from_list(data)


def _action_from_list(data: Any) -> Action:
    """An action of a version 1 save: ``[kind, fields...]``."""
    # The kind is type-checked before the lookup: a list or object kind is unhashable.
    if not isinstance(data, list) or not data or not isinstance(data[0], str) or data[0] not in _KINDS:
        raise _fail(f"an action is [kind, fields...] with kind one of {sorted(_KINDS)}, got {checks.shown(data)}")
    kind = _KINDS[data[0]]
    fields = data[1:]
    if len(fields) != len(attrs.fields(kind)) or not all(type(f) is int for f in fields):
        raise _fail(f"{data[0]} takes {len(attrs.fields(kind))} ints, got {checks.shown(data)}")
    try:
        return kind(*fields)
    except OrdonnanceError as error:
        raise _fail(f"action {checks.shown(data)}: {error}") from None


def _names(cards: Any) -> list[str]:
    return [Card.from_code(code).name for code in cards]


def _position(game: Game) -> dict[str, Any]:
    return {
        "current_player": game.current_player,
        "order": game.order,
        "turns": game.turns,
        "over": game.is_over,
        "hands": [[card.name for card in game.hand(seat)] for seat in range(game.players)],
        "provinces": [list(game.province(seat)) for seat in range(game.players)],
        "discard": list(game.discard),
        "deck_size": game.deck_size,
    }


def _start(game: Game) -> dict[str, Any] | None:
    """The position ``game`` started from, as a save holds it; None for a deal."""
    start = game._start
    if start is None:
        return None
    parts = start._parts()
    return {
        "hands": [_names(hand) for hand in parts["hands"]],
        "provinces": [list(row) for row in parts["provinces"]],
        "discard": list(parts["discard"]),
        "changed": [list(row) for row in parts["changed"]],
        **{key: parts[key] for key in ("current_player", "order", "turns", "extra_turns_left")},
    }


def game_to_json(game: Game) -> str:
    """Serialise ``game`` (see :meth:`Game.to_json`)."""
    if not isinstance(game, Game):
        raise OrdonnanceTypeError(f"game must be a shinobi Game, got {checks.shown(game)}")
    return jsonio.dumps({
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "clans": list(game._clan_order),
        "deck": _names(game._initial_deck),
        "start": _start(game),
        "history": [_action_to_dict(action) for action in game.history],
        "position": _position(game),
    })  # fmt: skip


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid shinobi game JSON: {message}")


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` output (see :meth:`Game.from_json`)."""
    data = jsonio.parse(text, _fail)
    version = jsonio.check_format(data, _fail, FORMAT, _KEYS)
    jsonio.check_keys(data, _fail, _KEYS[version])
    rules = rules_from_json(data["rules"], _fail)
    start = data.get("start")
    game = _deal(rules, data["seed"], data["clans"], data["deck"]) if start is None else _set(rules, data, start)
    key = _HISTORY[version]
    if not isinstance(data[key], list):
        raise _fail(f"{key} must be a list, got {checks.shown(data[key])}")
    for i, item in enumerate(data[key]):
        action = _action_from_list(item) if version == 1 else _action_from_dict(item, lambda m, i=i: _fail(f"{key}[{i}]: {m}"))  # type: ignore[misc]
        try:
            game.apply(action)
        except OrdonnanceError as error:
            raise _fail(f"{key}[{i}] cannot be played: {error}") from None
    position = data["position"]
    if not isinstance(position, dict) or set(position) != _POSITION_KEYS:
        raise _fail(f"position must be an object with keys {sorted(_POSITION_KEYS)}, got {checks.shown(position)}")
    _same(position, _position(game), "position", f"the {key} leads to")
    return game


def _same(given: dict[str, Any], reached: dict[str, Any], where: str, why: str) -> None:
    """Refuse ``given`` unless each of its values is exactly the value ``reached``."""
    for key in sorted(reached):
        # Equal values can still differ in JSON (true or 1.0 for 1, also inside lists);
        # once equal, the value has the reached value's small shape, so dumping it is safe.
        if given[key] != reached[key] or json.dumps(given[key]) != json.dumps(reached[key]):
            raise _fail(f"{where}.{key} is {checks.shown(given[key])}, but {why} {checks.shown(reached[key])}")


def _check_clans_and_deck(clans: Any, deck: Any) -> None:
    # The ints are checked before sorting: sorting mixed types raises TypeError.
    if not isinstance(clans, list) or not all(type(c) is int for c in clans) or sorted(clans) != list(range(CLANS)):
        raise _fail(f"clans must list the five clans 0..4 once each, got {checks.shown(clans)}")
    _check_names(deck, "deck")


def _check_names(cards: Any, where: str) -> None:
    """Refuse ``cards`` unless it is a list of strings, naming the first item that is not."""
    if not isinstance(cards, list):
        raise _fail(f"{where} must be a list of card names, got {checks.shown(cards)}")
    for i, card in enumerate(cards):
        if not isinstance(card, str):
            raise _fail(f"{where}[{i}] must be a card name, got {checks.shown(card)}")


def _deal(rules: Rules, seed: Any, clans: Any, deck: Any) -> Game:
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 64):
        raise _fail(f"seed must be an int in 0..2**64-1 or null, got {checks.shown(seed)}")
    _check_clans_and_deck(clans, deck)
    n = rules.players
    try:
        game = Game.new(rules, deck=deck, clans=clans[:n])
    except OrdonnanceError as error:
        raise _fail(f"deck: {error} (a save whose start is None deals the whole troop deck)") from None
    if seed is not None:
        if dealt(rules, seed) != (tuple(clans), game._initial_deck):
            raise _fail(f"clans and deck are not the deal of seed {checks.shown(seed)}")
        return Game.new(rules, seed=seed)
    if clans[n:] != sorted(clans[n:]):
        raise _fail(f"the neutral clans of a given deal are listed in ascending order, got {checks.shown(clans)}")
    return game


def _set(rules: Rules, data: dict[str, Any], start: Any) -> Game:
    """The game of a save whose play started from a set position."""
    if data["seed"] is not None:
        raise _fail(f"a game dealt from seed {checks.shown(data['seed'])} starts at the deal: start must be null, got {checks.shown(start)}")
    clans, deck = data["clans"], data["deck"]
    _check_clans_and_deck(clans, deck)
    if not isinstance(start, dict):
        raise _fail(f"start must be null or an object, got {checks.shown(start)}")
    jsonio.check_keys(start, lambda message: _fail(f"start: {message}"), _START_KEYS)
    hands = start["hands"]
    if not isinstance(hands, list):
        raise _fail(f"start.hands must be lists of card names, got {checks.shown(hands)}")
    for seat, hand in enumerate(hands):
        _check_names(hand, f"start.hands[{seat}]")
    try:
        game = Game._from_position(rules, clans=clans[: rules.players], deck=deck, **{key: start[key] for key in _START_KEYS})
    except OrdonnanceError as error:
        raise _fail(f"start: {error}") from None
    if list(game._clan_order) != clans:
        raise _fail(f"the neutral clans of a set position are listed in ascending order, got {checks.shown(clans)}")
    try:
        game._check_turns()
    except InvalidGameStateError as error:
        raise _fail(f"start: {error}") from None
    written = _start(game)
    assert written is not None
    _same(start, written, "start", "the position there is")
    return game
