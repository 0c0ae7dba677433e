"""Lossless JSON for games of Black Prince, refusing saves that break an invariant of the rules.

>>> from ordonnance.black_prince import Game, Rules
>>> game = Game.new(Rules(), seed=3)
>>> Game.from_json(game.to_json()) == game
True
>>> Game.from_json(game.to_json().replace('"turn":1', '"turn":0'))
Traceback (most recent call last):
...
ordonnance.errors.InvalidGameStateError: invalid Black Prince JSON: turn must be an int in 1..200, got 0
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ordonnance.black_prince.board import ROWS, back_row, front_row, owner
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.rules import COLUMNS, FRONT_LIMIT, HAND_SIZE, ROUT_TO_WIN, Rules, _card_data, card_from_data
from ordonnance.errors import InvalidGameStateError, OrdonnanceError

__all__ = ["game_to_json", "game_from_json", "FORMAT", "VERSION"]

FORMAT = "ordonnance.black_prince.game"
VERSION = 1
_KEYS = {
    "format", "version", "rules", "seed", "rng", "decks", "hands", "cells", "discards", "current_player",
    "phase", "turn", "attacked", "moved", "contact", "fought",
}  # fmt: skip
_PHASES = ("place", "choose", "battle", "over")


def game_to_json(game: Game) -> str:
    """The whole state of ``game`` as compact JSON (see :meth:`Game.to_json`)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game._rules.to_dict(),
        "seed": game._seed,
        "rng": game._rng,
        "decks": [[_card_data(c) for c in d[::-1]] for d in game._decks],
        "hands": [[_card_data(c) for c in h] for h in game._hands],
        "cells": [[None if c is None else _card_data(c) for c in row] for row in game._cells],
        "discards": [[_card_data(c) for c in d] for d in game._discards],
        "current_player": game._current,
        "phase": game._phase,
        "turn": game._turn,
        "attacked": game._attacked,
        "moved": game._moved,
        "contact": game._contact,
        "fought": game._fought,
    }
    return json.dumps(data, separators=(",", ":"))


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid Black Prince JSON: {message}")


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{where} must be an int in {low}..{high}, got {value!r}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be a list, got {value!r}")
    if length is not None and len(value) != length:
        raise _fail(f"{where} must have {length} entries, got {len(value)}")
    return value


def _card(value: Any, where: str) -> Card:
    try:
        return card_from_data(value)
    except (OrdonnanceError, TypeError) as error:
        raise _fail(f"{where}: {error}") from None


def _cards(value: Any, where: str) -> list[Card]:
    return [_card(c, f"{where}[{i}]") for i, c in enumerate(_list(value, where))]


def _flags(value: Any, where: str) -> list[bool]:
    flags = _list(value, where, COLUMNS)
    if not all(isinstance(f, bool) for f in flags):
        raise _fail(f"{where} must hold {COLUMNS} booleans, got {flags!r}")
    return flags


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` output (see :meth:`Game.from_json`)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidGameStateError(f"game JSON must be str or bytes, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise _fail(f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise _fail(f"expected an object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise _fail(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise _fail(f"unsupported version {data.get('version')!r} (this library reads {VERSION})")
    if set(data) != _KEYS:
        missing, extra = sorted(_KEYS - set(data)), sorted(set(data) - _KEYS)
        raise _fail(f"missing keys {missing}, unknown keys {extra}")
    try:
        rules = Rules.from_dict(data["rules"])
    except (OrdonnanceError, TypeError, ValueError) as error:
        raise _fail(f"rules: {error}") from None
    limit = (1 << 64) - 1
    game = Game.__new__(Game)
    game._rules = rules
    game._seed = _int(data["seed"], "seed", 0, limit)
    game._rng = _int(data["rng"], "rng", 0, limit)
    game._decks = [_cards(d, f"decks[{p}]")[::-1] for p, d in enumerate(_list(data["decks"], "decks", 2))]
    game._hands = [_cards(h, f"hands[{p}]") for p, h in enumerate(_list(data["hands"], "hands", 2))]
    game._cells = []
    for r, row in enumerate(_list(data["cells"], "cells", ROWS)):
        row = _list(row, f"cells[{r}]", COLUMNS)
        game._cells.append([None if c is None else _card(c, f"cells[{r}][{i}]") for i, c in enumerate(row)])
    game._discards = [_cards(d, f"discards[{p}]") for p, d in enumerate(_list(data["discards"], "discards", 2))]
    game._current = _int(data["current_player"], "current_player", 0, 1)
    if data["phase"] not in _PHASES:
        raise _fail(f"phase must be one of {', '.join(map(repr, _PHASES))}, got {data['phase']!r}")
    game._phase = data["phase"]
    game._turn = _int(data["turn"], "turn", 1, rules.max_turns)
    game._attacked = _flags(data["attacked"], "attacked")
    game._moved = _flags(data["moved"], "moved")
    game._contact = _flags(data["contact"], "contact")
    if not isinstance(data["fought"], bool):
        raise _fail(f"fought must be true or false, got {data['fought']!r}")
    game._fought = data["fought"]
    check_reachable(game)
    return game


def check_reachable(game: Game) -> None:
    """Refuse a position that breaks an invariant every reachable position keeps.

    Each seat's cards each in one place; at most 6 in a hand and in the front
    line; no Battle card on the table; back cards only behind a front unit of
    their (line-infantry) type; an ended game exactly when someone routed 6, the
    cards ran out or the turn limit came; battle flags only in a battle and
    consistent with the table; a full hand after the draw in the ``"choose"``
    and ``"battle"`` steps; a decision to make in the ``"place"`` and
    ``"battle"`` steps. These are necessary conditions, not a proof that some
    sequence of actions reaches the position.
    """
    rules = game._rules
    for seat in (0, 1):
        places = Counter(game._decks[seat]) + Counter(game._hands[seat]) + Counter(game._discards[seat])
        for row in (front_row(seat), back_row(seat)):
            places.update(c for c in game._cells[row] if c is not None)
        if places != Counter(rules.deck(seat)):
            raise _fail(f"seat {seat}'s deck, hand, table and discard pile do not hold exactly its deck")
        if len(game._hands[seat]) > HAND_SIZE:
            raise _fail(f"hands[{seat}] holds {len(game._hands[seat])} cards, at most {HAND_SIZE}")
    for r in range(ROWS):
        for c, card in enumerate(game._cells[r]):
            if card is None:
                continue
            if card.is_battle:
                raise _fail(f"a Battle card lies on the table at cells[{r}][{c}]")
            seat = owner(r)
            if r == back_row(seat):
                front = game._cells[front_row(seat)][c]
                if card.type is None or not card.type.is_line or front is None or front.type is not card.type:
                    raise _fail(f"cells[{r}][{c}] holds {card} behind {front}: only line infantry behind its own type")
    if game.front_count() > FRONT_LIMIT:
        raise _fail(f"the front line holds {game.front_count()} cards, at most {FRONT_LIMIT}")
    routed = game.routed
    if min(routed) >= ROUT_TO_WIN:
        raise _fail(f"both players have routed {ROUT_TO_WIN} troops: the game ends at the first")
    ended = max(routed) >= ROUT_TO_WIN or not (any(game._hands) or any(game._decks))
    if game._phase != "over" and ended:
        raise _fail(f"the game has ended (routed {routed}) but phase is {game._phase!r}")
    if game._phase == "over" and not ended and game._turn < rules.max_turns:
        raise _fail(f"phase is 'over' at turn {game._turn} with routed {routed} and cards left to play")
    in_battle = game._phase == "battle"
    if not in_battle and (any(game._attacked) or any(game._moved) or any(game._contact) or game._fought):
        raise _fail("battle flags are set outside a battle")
    p = game._current
    if in_battle:
        units = game._cells[front_row(p)]
        for c in range(COLUMNS):
            unit = units[c]
            if game._moved[c] and not game._fought and (unit is None or unit.type is None or not unit.type.is_mounted):
                raise _fail(f"moved[{c}] is set but no mounted unit stands there")
            if unit is not None and game._enemy_near(p, c) and not game._contact[c]:
                raise _fail(f"contact[{c}] is not set though an enemy unit is opposite")
            if (game._contact[c] or game._moved[c]) and unit is None and not game._fought:
                raise _fail(f"contact[{c}] or moved[{c}] is set on an empty cell before any fight")
        if any(game._attacked) and not game._fought:
            raise _fail("a unit has attacked but fought is false")
    if game._phase == "choose" and (game.front_count() >= FRONT_LIMIT or not any(c.is_battle for c in game._hands[p])):
        raise _fail("the Battle-card choice is offered without a Battle card in hand or with a full front line")
    drawn = len(game._hands[p]) if game._decks[p] else HAND_SIZE
    if game._phase == "choose" and drawn < HAND_SIZE or in_battle and drawn < HAND_SIZE - 1:
        raise _fail(f"player {p} has drawn {len(game._hands[p])} cards in the {game._phase!r} step, with a deck left")
    if game._phase in ("place", "battle") and not game.legal_actions():
        raise _fail(f"player {p} is to decide in the {game._phase!r} step but has no legal action")
