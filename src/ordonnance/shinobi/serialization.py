"""Lossless JSON for games, refusing any save the engine could not have reached.

A save holds the deal and every action, and a snapshot of the position::

    {"format": "ordonnance.shinobi.game", "version": 1,
     "rules": {...},                       # Rules.to_dict()
     "seed": 7,                            # null when deck and clans were given
     "clans": [3, 0, 4, 1, 2],             # the clan cards: seat s has clans[s], the rest are neutral
     "deck": ["Oda", "Ninja", ...],        # the troop deck before the deal, top card first
     "actions": [["Deploy", 2, 1], ...],   # class name and fields, in order
     "position": {"current_player": 1, "order": 2, "turns": 3, "over": false,
                  "hands": [["Mori", ...], ...], "provinces": [[0, 1, 0, 0, 0], ...],
                  "discard": [0, 0, 0, 0, 0, 1], "deck_size": 40}}

Loading replays the actions from the deal through :class:`~ordonnance.shinobi.Game`
(so every action must be legal where it stands) and then requires the snapshot
to be exactly the position reached: a save loads only if the engine could have
reached it, and a hand-edited position that contradicts its history is refused.

>>> from ordonnance import shinobi
>>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=2)
>>> game.apply(game.legal_actions()[-1])
>>> shinobi.Game.from_json(game.to_json()) == game
True
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from ordonnance.errors import InvalidGameStateError, OrdonnanceError
from ordonnance.shinobi.actions import Action, Attack, Deploy, Move, Ninja, Pass, Reinforce
from ordonnance.shinobi.cards import CLANS, Card
from ordonnance.shinobi.game import Game, _check_deck, dealt
from ordonnance.shinobi.rules import Rules

__all__ = ["FORMAT", "VERSION", "game_to_json", "game_from_json", "action_to_data", "action_from_data"]

FORMAT = "ordonnance.shinobi.game"
VERSION = 1
_KEYS = {"format", "version", "rules", "seed", "clans", "deck", "actions", "position"}
_POSITION_KEYS = {"current_player", "order", "turns", "over", "hands", "provinces", "discard", "deck_size"}
_KINDS: dict[str, type[Action]] = {kind.__name__: kind for kind in (Deploy, Ninja, Reinforce, Move, Attack, Pass)}


def action_to_data(action: Action) -> list[Any]:
    """An action as JSON data: its class name, then its fields in order."""
    return [type(action).__name__, *attrs.astuple(action)]


def action_from_data(data: Any) -> Action:
    """The action of :func:`action_to_data` output; raises InvalidGameStateError when malformed."""
    # The kind is type-checked before the lookup: a list or object kind is unhashable.
    if not isinstance(data, list) or not data or not isinstance(data[0], str) or data[0] not in _KINDS:
        raise _fail(f"an action is [kind, fields...] with kind one of {sorted(_KINDS)}, got {data!r}")
    kind = _KINDS[data[0]]
    fields = data[1:]
    if len(fields) != len(attrs.fields(kind)) or not all(type(f) is int for f in fields):
        raise _fail(f"{data[0]} takes {len(attrs.fields(kind))} ints, got {data!r}")
    try:
        return kind(*fields)
    except OrdonnanceError as error:
        raise _fail(f"action {data!r}: {error}") from None


def _names(codes: Any) -> list[str]:
    return [Card.from_code(code).name for code in codes]


def _position(game: Game) -> dict[str, Any]:
    return {
        "current_player": game.current_player,
        "order": game.order,
        "turns": game.turns,
        "over": game.is_over,
        "hands": [_names(hand) for hand in game._hands],
        "provinces": [list(row) for row in game._provinces],
        "discard": list(game.discard),
        "deck_size": game.deck_size,
    }


def game_to_json(game: Game) -> str:
    """Serialise ``game`` (see :meth:`Game.to_json`)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "clans": list(game._clan_order),
        "deck": _names(game._initial_deck),
        "actions": [action_to_data(action) for action in game.history],
        "position": _position(game),
    }
    return json.dumps(data, separators=(",", ":"))


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid shinobi game JSON: {message}")


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` output (see :meth:`Game.from_json`)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidGameStateError(f"game JSON must be str or bytes, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise _fail(f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise _fail(f"expected an object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise _fail(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    if type(data.get("version")) is not int or data.get("version") != VERSION:
        raise _fail(f"unsupported version {data.get('version')!r} (this library reads {VERSION})")
    if set(data) != _KEYS:
        raise _fail(f"missing keys {sorted(_KEYS - set(data))}, unknown keys {sorted(set(data) - _KEYS)}")
    try:
        rules = Rules.from_dict(data["rules"])
    except (OrdonnanceError, TypeError) as error:
        raise _fail(f"rules {data['rules']!r}: {error}") from None
    game = _deal(rules, data["seed"], data["clans"], data["deck"])
    if not isinstance(data["actions"], list):
        raise _fail(f"actions must be a list, got {data['actions']!r}")
    for i, item in enumerate(data["actions"]):
        action = action_from_data(item)
        try:
            game.apply(action)
        except OrdonnanceError as error:
            raise _fail(f"actions[{i}] cannot be played: {error}") from None
    position = data["position"]
    if not isinstance(position, dict) or set(position) != _POSITION_KEYS:
        raise _fail(f"position must be an object with keys {sorted(_POSITION_KEYS)}, got {position!r}")
    reached = _position(game)
    for key in sorted(_POSITION_KEYS):
        # Equal values can still differ in JSON (true or 1.0 for 1, also inside lists);
        # once equal, the value has the reached value's small shape, so dumping it is safe.
        if position[key] != reached[key] or json.dumps(position[key]) != json.dumps(reached[key]):
            raise _fail(f"position.{key} is {position[key]!r}, but the actions lead to {reached[key]!r}")
    return game


def _deal(rules: Rules, seed: Any, clans: Any, deck: Any) -> Game:
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 64):
        raise _fail(f"seed must be an int in 0..2**64-1 or null, got {seed!r}")
    # The ints are checked before sorting: sorting mixed types raises TypeError.
    if not isinstance(clans, list) or not all(type(c) is int for c in clans) or sorted(clans) != list(range(CLANS)):
        raise _fail(f"clans must list the five clans 0..4 once each, got {clans!r}")
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise _fail(f"deck must be a list of card names, got {deck!r}")
    try:
        order = _check_deck(rules, deck)
    except OrdonnanceError as error:
        raise _fail(f"deck: {error}") from None
    if seed is not None and dealt(rules, seed) != (tuple(clans), order):
        raise _fail(f"clans and deck are not the deal of seed {seed!r}")
    if seed is None and clans[rules.players :] != sorted(clans[rules.players :]):
        raise _fail(f"the neutral clans of a given deal are listed in ascending order, got {clans!r}")
    return Game._dealt(rules, seed, tuple(clans), order)
