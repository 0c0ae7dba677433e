"""Lossless JSON for games, with every input checked before a game is built.

The format is a JSON object::

    {"format": "ordonnance.game", "version": 1,
     "rules": {...},                 # Rules.to_dict()
     "seed": 7, "rng_state": ...,    # null when the deck order was given
     "deck": ["SH", ...],            # the draw pile, top card first
     "hands": [["L", ...], ...],     # by seat, in the order drawn
     "armies": [[["L"], []], ...],   # [territory][seat], in play order
     "completed_at": [[null, 3], ...],
     "owners": [null, 1, ...], "markers": [null, 1, ...],
     "plays": 12, "current_player": 0, "over": false}
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np

from ordonnance.army import ARMY_SIZE
from ordonnance.cards import MAX_MASK, Card
from ordonnance.errors import InvalidGameStateError, OrdonnanceError
from ordonnance.game import _NOBODY, _NOT_COMPLETE, Game, _multiset_difference
from ordonnance.rules import Rules
from ordonnance.territory import TERRITORY_COUNT

__all__ = ["FORMAT", "VERSION", "game_to_json", "game_from_json"]

FORMAT = "ordonnance.game"
VERSION = 1
_KEYS = {
    "format", "version", "rules", "seed", "rng_state", "deck", "hands", "armies",
    "completed_at", "owners", "markers", "plays", "current_player", "over",
}  # fmt: skip


def _texts(masks: list[int]) -> list[str]:
    return [str(Card.from_mask(m)) for m in masks]


def game_to_json(game: Game) -> str:
    """Serialise ``game`` (see :meth:`Game.to_json`)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game._rules.to_dict(),
        "seed": game._seed,
        "rng_state": game._rng_state,
        "deck": _texts(game._deck[::-1]),
        "hands": [_texts(hand) for hand in game._hands],
        "armies": [[_texts(army) for army in armies] for armies in game._armies],
        "completed_at": [[None if d == _NOT_COMPLETE else d for d in row] for row in game._completed],
        "owners": [None if o == _NOBODY else o for o in game._owner],
        "markers": [m or None for m in game._marker],
        "plays": game._plays,
        "current_player": game._current,
        "over": game._over,
    }
    return json.dumps(data, separators=(",", ":"))


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid game JSON: {message}")


def _int(value: Any, where: str, low: int, high: int, *, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{where} must be an int in {low}..{high}{' or null' if nullable else ''}, got {value!r}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be a list, got {value!r}")
    if length is not None and len(value) != length:
        raise _fail(f"{where} must have {length} entries, got {len(value)}")
    return value


def _masks(value: Any, where: str) -> list[int]:
    masks = []
    for i, text in enumerate(_list(value, where)):
        if not isinstance(text, str):
            raise _fail(f"{where}[{i}] must be a card text, got {text!r}")
        try:
            masks.append(Card.parse(text).mask)
        except OrdonnanceError as error:
            raise _fail(f"{where}[{i}]: {error}") from None
    return masks


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
    except (OrdonnanceError, TypeError) as error:
        raise _fail(f"rules: {error}") from None
    n, limit = rules.players, (1 << 64) - 1

    game = Game.__new__(Game)
    game._rules = rules
    game._seed = _int(data["seed"], "seed", 0, limit, nullable=True)
    game._rng_state = _int(data["rng_state"], "rng_state", 0, limit, nullable=True)
    game._deck = _masks(data["deck"], "deck")[::-1]
    game._hands = [_masks(h, f"hands[{p}]") for p, h in enumerate(_list(data["hands"], "hands", n))]
    game._armies = []
    game._completed = []
    for t, armies in enumerate(_list(data["armies"], "armies", TERRITORY_COUNT)):
        armies = _list(armies, f"armies[{t}]", n)
        game._armies.append([_masks(a, f"armies[{t}][{p}]") for p, a in enumerate(armies)])
    plays = _int(data["plays"], "plays", 0, len(rules.cards))
    assert plays is not None
    for t, row in enumerate(_list(data["completed_at"], "completed_at", TERRITORY_COUNT)):
        row = _list(row, f"completed_at[{t}]", n)
        game._completed.append(
            [_NOT_COMPLETE if d is None else d for d in
             (_int(d, f"completed_at[{t}][{p}]", 0, max(plays - 1, 0), nullable=True) for p, d in enumerate(row))]
        )  # fmt: skip
    owners = _list(data["owners"], "owners", TERRITORY_COUNT)
    game._owner = [_NOBODY if o is None else o for o in (_int(o, "owners", 0, n - 1, nullable=True) for o in owners)]
    markers = _list(data["markers"], "markers", TERRITORY_COUNT)
    game._marker = [m or 0 for m in (_int(m, "markers", 1, TERRITORY_COUNT, nullable=True) for m in markers)]
    game._plays = plays
    current = _int(data["current_player"], "current_player", 0, n - 1)
    assert current is not None
    game._current = current
    if not isinstance(data["over"], bool):
        raise _fail(f"over must be true or false, got {data['over']!r}")
    game._over = data["over"]
    _check_consistent(game)
    game._hidden = np.zeros(MAX_MASK + 1, dtype=np.int64)
    for m in game._deck + [m for hand in game._hands for m in hand]:
        game._hidden[m] += 1
    if not game._over and not game.legal_actions():
        raise _fail(f"player {game._current} is to act but has no legal action")
    return game


def _check_consistent(game: Game) -> None:
    """Every card in exactly one place, armies and markers that fit the rules."""
    places = Counter(game._deck)
    for hand in game._hands:
        places.update(hand)
    on_table = 0
    for t in range(TERRITORY_COUNT):
        for p, army in enumerate(game._armies[t]):
            places.update(army)
            on_table += len(army)
            if len(army) > ARMY_SIZE:
                raise _fail(f"armies[{t}][{p}] holds {len(army)} cards, at most {ARMY_SIZE}")
            if (len(army) == ARMY_SIZE) != (game._completed[t][p] != _NOT_COMPLETE):
                raise _fail(f"completed_at[{t}][{p}] does not match an army of {len(army)} cards")
    expected = Counter(card.mask for card in game._rules.cards)
    if places != expected:
        raise _fail(_multiset_difference("deck, hands and armies together", places, expected))
    if on_table != game._plays:
        raise _fail(f"plays is {game._plays} but {on_table} cards are on the table")
    done = [d for row in game._completed for d in row if d != _NOT_COMPLETE]
    if len(done) != len(set(done)):
        raise _fail("two armies completed with the same play")
    decided = [t for t in range(TERRITORY_COUNT) if game._owner[t] != _NOBODY]
    if sorted(game._marker[t] for t in decided) != list(range(1, len(decided) + 1)):
        raise _fail(f"markers {game._marker} do not number the decided territories 1..{len(decided)}")
    if any(game._marker[t] for t in range(TERRITORY_COUNT) if t not in decided):
        raise _fail("a marker lies on an undecided territory")
    for t in decided:
        owner = game._owner[t]
        if game._completed[t][owner] == _NOT_COMPLETE:
            raise _fail(f"owners[{t}] is player {owner}, whose army there is not complete")
        if not game._rules.claims_allowed and _NOT_COMPLETE in game._completed[t]:
            raise _fail(f"territory {t} is decided before every army is complete, under points scoring")
        if _NOT_COMPLETE not in game._completed[t] and game.ranking(t)[0] != owner:
            raise _fail(f"owners[{t}] is player {owner}, but player {game.ranking(t)[0]} has the winning army")
    for t in range(TERRITORY_COUNT):
        if t not in decided and _NOT_COMPLETE not in game._completed[t]:
            raise _fail(f"territory {t} is complete for every player but undecided")
    if len(decided) == TERRITORY_COUNT and not game._over:
        raise _fail("every territory is decided but over is false")
