"""Lossless JSON for games of Black Prince, refusing any save the engine could not have reached.

A save (version 2) holds the deal, every action since, and a snapshot of the position::

    {"format": "ordonnance.black_prince.game", "version": 2,
     "rules": {...},                        # Rules.to_dict()
     "seed": 7,                             # the chance stream's seed
     "orders": null,                        # or both decks' given orders, top card first (Game.new(orders=))
     "start": null,                         # or the position play started from (a game of a version 1 save)
     "history": [{"type": "place", "card": "Archers 2", "column": 2}, ...],   # action_to_json's objects
     "position": {"rng": ..., "decks": [[...], [...]], "hands": [...], "cells": [[...] x 4],
                  "discards": [...], "current_player": 0, "phase": "place", "turn": 3,
                  "attacked": [false x 6], "moved": [...], "contact": [...], "fought": false}}

Loading deals from the seed (or the given orders), replays the history through
:class:`~ordonnance.black_prince.Game` (every action must be legal where it stands)
and requires the snapshot to be exactly the position reached: a save loads only if
the engine could have reached it, and a hand-edited position that contradicts its
history is refused, saying where.

A save of version 1 is the snapshot alone, with ``rules``, ``seed`` and the
position's keys at the top level. It still loads, checked by the invariants every
reachable position keeps (:func:`check_reachable`: the cards, the table, the
battle flags, the turn order, the cards placed per turn, the waiting seat's
refilled hand) and by the seed's deal: each deck what the shuffle of ``seed``
leaves after the cards drawn, each hand in the order drawn, the first seat the
coin's, and ``rng`` the stream's state some breakthroughs after the deal. With no
history it cannot show more (the order of a discard pile, or an advantage table
that would have changed a fight, is taken as saved). Its game's history starts at
that position, which its next save keeps as ``start``; a ``start`` (also a game
sampled from a view, whose hidden cards are not its seed's deal) is checked by
:func:`check_reachable`.

>>> from ordonnance.black_prince import Game, Rules
>>> game = Game.new(Rules(), seed=3)
>>> game.apply(game.legal_actions()[0])
>>> restored = Game.from_json(game.to_json())
>>> restored == game, restored.history == game.history
(True, True)
>>> Game.from_json(game.to_json().replace('"turn":1', '"turn":2'))
Traceback (most recent call last):
...
ordonnance.errors.InvalidGameStateError: invalid Black Prince JSON: position.turn is 2, but the history leads to 1
"""

from __future__ import annotations

import json
from typing import Any

from ordonnance.black_prince.actions import SCHEMA_DEFS, action_from_data, action_to_data
from ordonnance.black_prince.board import ROWS
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.game import Check, Game, check_reachable
from ordonnance.black_prince.rules import COLUMNS, RULES_SCHEMA, Rules, card_data, card_from_data, rules_from_json
from ordonnance.core import jsonio
from ordonnance.errors import InvalidArgumentError, InvalidGameStateError, OrdonnanceError

__all__ = ["game_to_json", "game_from_json", "check_reachable", "FORMAT", "VERSION", "MAX_TEXT_SIZE", "GAME_SCHEMA"]

FORMAT = "ordonnance.black_prince.game"
VERSION = 2
#: The longest save :func:`game_from_json` reads, in characters (or bytes): a game of the
#: longest turn limit (10,000 turns) with every decision it can take fits.
MAX_TEXT_SIZE = 8_000_000
_POSITION_KEYS = (
    "rng", "decks", "hands", "cells", "discards", "current_player", "phase", "turn",
    "attacked", "moved", "contact", "fought",
)  # fmt: skip
_KEYS = {1: ("format", "version", "rules", "seed", *_POSITION_KEYS),
         2: ("format", "version", "rules", "seed", "orders", "start", "history", "position")}  # fmt: skip

_CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}}
_PAIR_OF_CARDS = {"type": "array", "items": _CARDS, "minItems": 2, "maxItems": 2}
_FLAGS = {"type": "array", "items": {"type": "boolean"}, "minItems": COLUMNS, "maxItems": COLUMNS}
_UINT64 = {"type": "integer", "minimum": 0, "maximum": (1 << 64) - 1}
_POSITION_SCHEMA = {
    "type": "object",
    "properties": {
        "rng": _UINT64,
        "decks": _PAIR_OF_CARDS,
        "hands": _PAIR_OF_CARDS,
        "cells": {
            "type": "array",
            "items": {
                "type": "array",
                "items": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/card"}]},
                "minItems": COLUMNS,
                "maxItems": COLUMNS,
            },
            "minItems": ROWS,
            "maxItems": ROWS,
        },
        "discards": _PAIR_OF_CARDS,
        "current_player": {"type": "integer", "minimum": 0, "maximum": 1},
        "phase": {"enum": ["place", "choose", "battle", "over"]},
        "turn": {"type": "integer", "minimum": 1},
        "attacked": _FLAGS,
        "moved": _FLAGS,
        "contact": _FLAGS,
        "fought": {"type": "boolean"},
    },
    "required": list(_POSITION_KEYS),
    "additionalProperties": False,
}
#: The JSON Schema (draft 2020-12) of a save of version 2 (:func:`game_to_json`).
GAME_SCHEMA: dict[str, object] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A Black Prince save (ordonnance.black_prince.Game.to_json)",
    "$defs": {**SCHEMA_DEFS, "position": _POSITION_SCHEMA},
    "type": "object",
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "rules": RULES_SCHEMA,
        "seed": _UINT64,
        "orders": {"oneOf": [{"type": "null"}, _PAIR_OF_CARDS]},
        "start": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/position"}]},
        "history": {"type": "array", "items": {"$ref": "#/$defs/action"}},
        "position": {"$ref": "#/$defs/position"},
    },
    "required": list(_KEYS[VERSION]),
    "additionalProperties": False,
}


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid Black Prince JSON: {message}")


_read = jsonio.Reader(_fail)


def _cards_data(cards: tuple[Card, ...]) -> list[Any]:
    return [card_data(card) for card in cards]


def _position_data(parts: dict[str, Any]) -> dict[str, Any]:
    """A position's parts (``Game._parts()``) as JSON data, without the seed."""
    return {
        "rng": parts["rng"],
        "decks": [_cards_data(deck) for deck in parts["decks"]],
        "hands": [_cards_data(hand) for hand in parts["hands"]],
        "cells": [[None if card is None else card_data(card) for card in row] for row in parts["cells"]],
        "discards": [_cards_data(pile) for pile in parts["discards"]],
        "current_player": parts["current_player"],
        "phase": parts["phase"],
        "turn": parts["turn"],
        "attacked": list(parts["attacked"]),
        "moved": list(parts["moved"]),
        "contact": list(parts["contact"]),
        "fought": parts["fought"],
    }


def game_to_json(game: Game) -> str:
    """The game as compact JSON (see :meth:`Game.to_json`)."""
    orders, start = game._origin()
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "orders": None if orders is None else [_cards_data(order) for order in orders],
        "start": None if start is None else _position_data(start),
        "history": [action_to_data(action) for action in game.history],
        "position": _position_data(game._parts()),
    }
    return jsonio.dumps(data)


# --------------------------------------------------------------------- reading


def _card(value: Any, where: str) -> Card:
    try:
        return card_from_data(value)
    except (OrdonnanceError, TypeError, ValueError) as error:  # any refusal of the card parser, bare ones too
        raise _fail(f"{where}: {error}") from None


def _cards(value: Any, where: str) -> list[Card]:
    return [_card(c, f"{where}[{i}]") for i, c in enumerate(_read.array(value, where))]


def _card_lists(value: Any, where: str) -> list[list[Card]]:
    return [_cards(cards, f"{where}[{seat}]") for seat, cards in enumerate(_read.array(value, where))]


def _position(rules: Rules, seed: Any, data: Any, where: str, check: Check) -> Game:
    """The game set up in the position ``data`` (the keys of :data:`_POSITION_KEYS`), checked as ``check`` says."""
    if not isinstance(data, dict):
        raise _fail(f"{where}must be an object, got {data!r:.80}")
    jsonio.check_keys(data, lambda message: _fail(f"{where}{message}"), _POSITION_KEYS)
    cells = []
    for r, row in enumerate(_read.array(data["cells"], f"{where}cells")):
        squares = enumerate(_read.array(row, f"{where}cells[{r}]"))
        cells.append([None if card is None else _card(card, f"{where}cells[{r}][{c}]") for c, card in squares])
    decks = _card_lists(data["decks"], f"{where}decks")
    hands = _card_lists(data["hands"], f"{where}hands")
    discards = _card_lists(data["discards"], f"{where}discards")
    try:
        return Game._from_position(
            rules,
            seed=seed,
            rng=data["rng"],
            decks=decks,
            hands=hands,
            cells=cells,
            discards=discards,
            current_player=data["current_player"],
            phase=data["phase"],
            turn=data["turn"],
            attacked=_read.array(data["attacked"], f"{where}attacked"),
            moved=_read.array(data["moved"], f"{where}moved"),
            contact=_read.array(data["contact"], f"{where}contact"),
            fought=data["fought"],
            check=check,
        )
    except InvalidGameStateError as error:
        raise _fail(f"{where}{error}") from None


def _deal(rules: Rules, seed: Any, orders: Any) -> Game:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise _fail(f"seed must be an int in 0..2**64-1, got {seed!r:.80}")
    given = None if orders is None else _card_lists(orders, "orders")
    try:
        return Game.new(rules, seed=seed, orders=given)
    except OrdonnanceError as error:
        raise _fail(f"orders: {error}") from None


def _replay(game: Game, history: Any) -> None:
    for i, item in enumerate(_read.array(history, "history")):
        try:
            action = action_from_data(item)
        except InvalidArgumentError as error:
            raise _fail(f"history[{i}]: {error}") from None
        try:
            game.apply(action)
        except OrdonnanceError as error:
            raise _fail(f"history[{i}] ({action}) cannot be played: {error}") from None


def _check_reached(game: Game, position: Any) -> None:
    if not isinstance(position, dict):
        raise _fail(f"position must be an object, got {position!r:.80}")
    jsonio.check_keys(position, lambda message: _fail(f"position: {message}"), _POSITION_KEYS)
    reached = _position_data(game._parts())
    for key in _POSITION_KEYS:
        # Equal values can still differ in JSON (true or 1.0 for 1, also inside lists);
        # once equal, the value has the reached value's small shape, so dumping it is safe.
        if position[key] != reached[key] or json.dumps(position[key]) != json.dumps(reached[key]):
            raise _fail(f"position.{key} is {position[key]!r:.200}, but the history leads to {reached[key]!r:.200}")


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` output (see :meth:`Game.from_json`)."""
    data = jsonio.parse(text, _fail, max_size=MAX_TEXT_SIZE)
    version = jsonio.check_format(data, _fail, FORMAT, _KEYS)
    jsonio.check_keys(data, _fail, _KEYS[version])
    rules = rules_from_json(data["rules"], _fail)
    if version == 1:
        return _position(rules, data["seed"], {key: data[key] for key in _POSITION_KEYS}, "", "dealt")
    if data["start"] is None:
        game = _deal(rules, data["seed"], data["orders"])
    elif data["orders"] is not None:
        raise _fail(f"a game that started from a position has no deck orders, got orders {data['orders']!r:.80}")
    else:
        game = _position(rules, data["seed"], data["start"], "start: ", "reachable")
    _replay(game, data["history"])
    _check_reached(game, data["position"])
    return game
