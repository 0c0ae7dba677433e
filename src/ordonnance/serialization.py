"""Lossless JSON for games, with every input checked before a game is built.

A save (version 3) is a JSON object: the position, and the history that reached it::

    {"format": "ordonnance.game", "version": 3,
     "rules": {...},                 # Rules.to_dict(), every field
     "seed": 7, "rng_state": ...,    # null when the deck order was given
     "deck": ["SH", ...],            # the draw pile, top card first
     "hands": [["L", ...], ...],     # by seat, in the order drawn
     "armies": [[["L"], []], ...],   # [territory][seat], in play order
     "completed_at": [[null, 3], ...],
     "owners": [null, 1, ...], "markers": [null, 1, ...],
     "plays": 12, "current_player": 0, "over": false,
     "passed": [],                   # seats that passed since the last play or claim
     "order": null,                  # the deck given to Game.new(deck=...), top card first
     "start": null,                  # or the position a set-up game started from (its keys deck ... passed)
     "history": [{"type": "play", "card": "LSHF", "territory": "antioch"}, ...]}

Every field is required. :func:`game_from_json` deals again (from ``seed``, or
from ``order``) or sets up ``start``, replays ``history`` through
:meth:`Game.apply` (each action must be legal where it stands) and requires the
position reached to be exactly the one saved, saying where it is not. A save of
version 1 or 2 (the position alone; version 1 without ``passed``) still loads,
checked by the rules of reachability of ``docs/saves.rst`` instead; its game's
history starts at that position, as does a game set up in a position
(``start`` is then that position, checked by those rules). Every input is
refused with :class:`~ordonnance.errors.InvalidGameStateError` and the reason:
a text over :data:`MAX_TEXT_SIZE` or nested deeper than :data:`MAX_DEPTH`
(before parsing it), malformed JSON, any value of a wrong type or out of range,
and every position the engine could not have reached.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from ordonnance.actions import ACTION_SCHEMA, action_from_data, action_to_data
from ordonnance.army import ARMY_SIZE
from ordonnance.cards import MAX_MASK, Card
from ordonnance.core import jsonio
from ordonnance.core.rulesio import rules_from_json
from ordonnance.errors import InvalidGameStateError, OrdonnanceError
from ordonnance.game import NOBODY, NOT_COMPLETE, Check, Game
from ordonnance.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ordonnance.territory import TERRITORY_COUNT
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from ordonnance.view import PlayerView

__all__ = [
    "FORMAT", "VERSION", "VIEW_FORMAT", "VIEW_VERSION", "MAX_TEXT_SIZE", "MAX_DEPTH", "GAME_SCHEMA", "VIEW_SCHEMA",
    "game_to_json", "game_from_json", "view_to_json", "view_from_json",
]  # fmt: skip

FORMAT = "ordonnance.game"
VERSION = 3
#: The longest save :func:`game_from_json` reads, in characters (or bytes). A real
#: save of a 4-player game, history and all, is under 15,000.
MAX_TEXT_SIZE = jsonio.MAX_TEXT_SIZE
#: The deepest nesting of JSON arrays and objects a save may have (a real one has 5).
MAX_DEPTH = jsonio.MAX_DEPTH
_POSITION_KEYS = (
    "deck", "hands", "armies", "completed_at", "owners", "markers", "plays", "current_player", "over", "passed",
)  # fmt: skip
_V2 = ("format", "version", "rules", "seed", "rng_state", *_POSITION_KEYS)
_KEYS_BY_VERSION = {
    1: tuple(key for key in _V2 if key != "passed"),
    2: _V2,
    3: (*_V2, "order", "start", "history"),
}
_LIMIT = (1 << 64) - 1


_TEXT = ["", *(str(Card.from_mask(m)) for m in range(1, MAX_MASK + 1))]  # by mask: str(card) is slow


def _texts(masks: Any) -> list[str]:
    return [_TEXT[m] for m in masks]


def _position_data(game: Game) -> dict[str, Any]:
    """The position of ``game`` as the save writes it (the keys of :data:`_POSITION_KEYS`)."""
    return {
        "deck": _texts(game._deck[::-1]),
        "hands": [_texts(hand) for hand in game._hands],
        "armies": [[_texts(army) for army in armies] for armies in game._armies],
        "completed_at": [[None if d == NOT_COMPLETE else d for d in row] for row in game._completed],
        "owners": [None if o == NOBODY else o for o in game._owner],
        "markers": [m or None for m in game._marker],
        "plays": game._plays,
        "current_player": game._current,
        "over": game._over,
        "passed": [p for p in range(game.players) if game._passed >> p & 1],
    }


def game_to_json(game: Game) -> str:
    """Serialise ``game`` (see :meth:`Game.to_json`)."""
    if game._history is None:  # set up here, nothing applied yet: the history starts at this position
        start: Game | None = game
    else:
        start = game._start
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game._rules.to_dict(),
        "seed": game._seed,
        "rng_state": game._rng_state,
        **_position_data(game),
        "order": None if game._order is None else _texts(game._order),
        "start": None if start is None else _position_data(start),
        "history": [action_to_data(action) for action in game.history],
    }
    return jsonio.dumps(data)


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid game JSON: {message}")


_read = jsonio.Reader(_fail)


# --------------------------------------------------------------------- parsing


def _masks(value: Any, where: str) -> list[int]:
    masks = []
    for i, text in enumerate(_read.array(value, where)):
        if not isinstance(text, str):
            raise _fail(f"{where}[{i}] must be a card text, got {shown(text):.80}")
        try:
            masks.append(Card.parse(text).mask)
        except OrdonnanceError as error:
            raise _fail(f"{where}[{i}]: {error}") from None
    return masks


def _rules(data: Any, fail: Callable[[str], Exception] = _fail) -> Rules:
    return rules_from_json(Rules, data, fail)


def _position(data: dict[str, Any], rules: Rules, at: str = "") -> dict[str, Any]:
    """The parts of the position saved in ``data`` (keyword arguments of ``Game._from_position``),
    each checked alone; ``at`` prefixes the names in messages (``"start."``)."""
    n = rules.players
    plays = _read.integer(data["plays"], f"{at}plays", 0, len(rules.cards))
    assert plays is not None
    armies = []
    completed = []
    for t, row in enumerate(_read.array(data["armies"], f"{at}armies", TERRITORY_COUNT)):
        armies.append([_masks(a, f"{at}armies[{t}][{p}]") for p, a in enumerate(_read.array(row, f"{at}armies[{t}]", n))])
    for t, row in enumerate(_read.array(data["completed_at"], f"{at}completed_at", TERRITORY_COUNT)):
        cells = (_read.integer_or_null(d, f"{at}completed_at[{t}][{p}]", 0, max(plays - 1, 0))
                 for p, d in enumerate(_read.array(row, f"{at}completed_at[{t}]", n)))  # fmt: skip
        completed.append([NOT_COMPLETE if d is None else d for d in cells])
    owners = (_read.integer_or_null(o, f"{at}owners", 0, n - 1) for o in _read.array(data["owners"], f"{at}owners", TERRITORY_COUNT))
    markers = (_read.integer_or_null(m, f"{at}markers", 1, TERRITORY_COUNT)
               for m in _read.array(data["markers"], f"{at}markers", TERRITORY_COUNT))  # fmt: skip
    if not isinstance(data["over"], bool):
        raise _fail(f"{at}over must be true or false, got {shown(data['over']):.80}")
    passed = _read.array(data.get("passed", []), f"{at}passed")
    seats = [int(_read.integer(p, f"{at}passed", 0, n - 1) or 0) for p in passed]
    if seats != sorted(set(seats)):
        raise _fail(f"{at}passed must list seats in increasing order, each once, got {shown(passed):.80}")
    return {
        "pile": _masks(data["deck"], f"{at}deck")[::-1],
        "hands": [_masks(h, f"{at}hands[{p}]") for p, h in enumerate(_read.array(data["hands"], f"{at}hands", n))],
        "armies": armies,
        "completed": completed,
        "owners": [NOBODY if o is None else o for o in owners],
        "markers": [m or 0 for m in markers],
        "plays": plays,
        "current": _read.integer(data["current_player"], f"{at}current_player", 0, n - 1),
        "over": data["over"],
        "passed": sum(1 << p for p in seats),
    }


def _set_up(rules: Rules, seed: int | None, rng_state: int | None, parts: dict[str, Any], check: Check, at: str = "") -> Game:
    try:
        return Game._from_position(rules, **parts, seed=seed, rng_state=rng_state, check=check)
    except InvalidGameStateError as error:
        raise _fail(f"{at}{error}") from None


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` output (see :meth:`Game.from_json`)."""
    return _load(text, reachable=True)


def _load(text: str | bytes, *, reachable: bool) -> Game:
    """Parse and check a save; ``reachable=False`` skips the reachability rules
    (only for tests that set up positions by hand, whose history does not matter)."""
    data = jsonio.parse(text, _fail, max_size=MAX_TEXT_SIZE, max_depth=MAX_DEPTH)
    version = jsonio.check_format(data, _fail, FORMAT, _KEYS_BY_VERSION)
    jsonio.check_keys(data, _fail, _KEYS_BY_VERSION[version])
    rules = _rules(data["rules"])
    seed = _read.integer_or_null(data["seed"], "seed", 0, _LIMIT)
    rng_state = _read.integer_or_null(data["rng_state"], "rng_state", 0, _LIMIT)
    position = _position(data, rules)
    check: Check = "reachable" if reachable else "consistent"
    if version < 3:
        game = _set_up(rules, seed, rng_state, position, check)
    else:
        game = _origin(data, rules, seed, rng_state, check)
        _replay(game, data["history"])
        _compare(game, Game._from_position(rules, **position, seed=seed, rng_state=rng_state, check="none"))
    if not reachable and not game._over and not game.legal_actions():
        raise _fail(f"player {game._current} is to act but has no legal action")
    return game


def _origin(data: dict[str, Any], rules: Rules, seed: int | None, rng_state: int | None, check: Check) -> Game:
    """The position the save's history starts from: the deal (of ``seed``, or of ``order``), or ``start``."""
    order, start = data["order"], data["start"]
    if start is not None:
        if order is not None:
            raise _fail("order must be null when start is given (a set-up game was not dealt from an order)")
        if not isinstance(start, dict):
            raise _fail(f"start must be null or an object, got {shown(start):.80}")
        jsonio.check_keys(start, lambda message: _fail(f"start: {message}"), _POSITION_KEYS)
        return _set_up(rules, seed, rng_state, _position(start, rules, "start."), check, "start: ")
    if order is not None:
        if seed is not None or rng_state is not None:
            raise _fail("seed and rng_state must be null when order is given (a game is dealt from one or the other)")
        try:
            return Game.new(rules, deck=_masks(order, "order"))
        except OrdonnanceError as error:
            raise _fail(f"order: {error}") from None
    if seed is None and rng_state is not None:
        raise _fail("rng_state must be null when seed is (only a shuffled game has a generator state)")
    if seed is None:
        raise _fail("the history has nothing to start from: seed, order and start are all null")
    game = Game.new(rules, seed=seed)
    if rng_state != game._rng_state:
        raise _fail(f"rng_state {shown(rng_state)} is not the one the shuffle of seed {seed} leaves ({game._rng_state})")
    return game


def _replay(game: Game, history: Any) -> None:
    for i, item in enumerate(_read.array(history, "history")):
        action = action_from_data(item, lambda message: _fail(f"history[{i}]: {message}"))  # called at once
        try:
            game.apply(action)
        except OrdonnanceError as error:
            raise _fail(f"history[{i}] ({action}) cannot be played after {i} actions: {error}") from None


def _difference(saved: Any, reached: Any, where: str) -> tuple[str, Any, Any] | None:
    """The first place (a JSON path) where ``saved`` and ``reached`` differ, and their values there."""
    if isinstance(saved, list) and isinstance(reached, list) and len(saved) == len(reached):
        for i, (a, b) in enumerate(zip(saved, reached)):
            found = _difference(a, b, f"{where}[{i}]")
            if found is not None:
                return found
        return None
    return None if saved == reached else (where, saved, reached)


def _compare(reached: Game, saved: Game) -> None:
    """Refuse a saved position that is not the one its history reaches, naming the first place that differs."""
    got, expected = _position_data(saved), _position_data(reached)
    for key in _POSITION_KEYS:
        found = _difference(got[key], expected[key], key)
        if found is not None:
            where, a, b = found
            raise _fail(f"{where} is {shown(a):.200}, but the history leads to {shown(b):.200}")


# --------------------------------------------------------------------- views

VIEW_FORMAT = "ordonnance.view"
VIEW_VERSION = 1
_VIEW_KEYS = (
    "format", "version", "rules", "seat", "current_player", "is_over", "winner", "scores", "plays", "hand",
    "hand_sizes", "deck_size", "armies", "completed_at", "owners", "markers", "unseen", "legal_actions", "passed",
)  # fmt: skip


def view_to_json(view: PlayerView) -> str:
    """Serialise ``view`` (see :meth:`PlayerView.to_json <ordonnance.PlayerView.to_json>`)."""
    data = {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "rules": view.rules.to_dict(),
        "seat": view.seat,
        "current_player": view.current_player,
        "is_over": view.is_over,
        "winner": view.winner,
        "scores": list(view.scores),
        "plays": view.plays,
        "hand": [_TEXT[card.mask] for card in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "deck_size": view.deck_size,
        "armies": [[[_TEXT[card.mask] for card in army] for army in row] for row in view.armies],
        "completed_at": [list(row) for row in view.completed_at],
        "owners": list(view.owners),
        "markers": list(view.markers),
        "unseen": {_TEXT[m]: count for m, count in enumerate(view.unseen) if count},
        "legal_actions": [action_to_data(action) for action in view.legal_actions],
        "passed": list(view.passed),
    }
    return jsonio.dumps(data)


def _view_fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid view JSON: {message}")


_read_view = jsonio.Reader(_view_fail)


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    cards = []
    for i, text in enumerate(_read_view.array(value, where)):
        if not isinstance(text, str):
            raise _view_fail(f"{where}[{i}] must be a card text, got {shown(text):.80}")
        try:
            cards.append(Card.parse(text))
        except OrdonnanceError as error:
            raise _view_fail(f"{where}[{i}]: {error}") from None
    return tuple(cards)


def _unseen(value: Any, total: int) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise _view_fail(f"unseen must be an object of card texts and counts, got {shown(value):.80}")
    counts = [0] * (MAX_MASK + 1)
    for text, count in value.items():
        try:
            mask = Card.parse(text).mask
        except OrdonnanceError as error:
            raise _view_fail(f"unseen: {error}") from None
        if counts[mask]:
            raise _view_fail(f"unseen names card {Card.from_mask(mask)} twice ({shown(text):.20})")
        counts[mask] = _read_view.integer(count, f"unseen[{text!r:.20}]", 1, total)
    return tuple(counts)


def view_from_json(text: str | bytes) -> PlayerView:
    """Rebuild a view from :func:`view_to_json` output (see :meth:`PlayerView.from_json
    <ordonnance.PlayerView.from_json>`)."""
    from ordonnance._sampling import Deal
    from ordonnance.view import PlayerView

    data = jsonio.parse(text, _view_fail)
    jsonio.check_format(data, _view_fail, VIEW_FORMAT, (VIEW_VERSION,))
    jsonio.check_keys(data, _view_fail, _VIEW_KEYS)
    rules = _rules(data["rules"], _view_fail)
    n, total = rules.players, len(rules.cards)
    seat = _read_view.integer(data["seat"], "seat", 0, n - 1)
    for key in ("is_over",):
        if not isinstance(data[key], bool):
            raise _view_fail(f"{key} must be true or false, got {shown(data[key]):.80}")
    actions = [action_from_data(item, lambda m: _view_fail(f"legal_actions[{i}]: {m}"))  # called at once
               for i, item in enumerate(_read_view.array(data["legal_actions"], "legal_actions"))]  # fmt: skip
    armies, completed = [], []
    for t, row in enumerate(_read_view.array(data["armies"], "armies", TERRITORY_COUNT)):
        armies.append(tuple(_cards(army, f"armies[{t}][{p}]") for p, army in enumerate(_read_view.array(row, f"armies[{t}]", n))))
    for t, row in enumerate(_read_view.array(data["completed_at"], "completed_at", TERRITORY_COUNT)):
        cells = enumerate(_read_view.array(row, f"completed_at[{t}]", n))
        completed.append(tuple(_read_view.integer_or_null(d, f"completed_at[{t}][{p}]", 0, total - 1) for p, d in cells))
    passed = tuple(_read_view.integer(p, f"passed[{i}]", 0, n - 1) for i, p in enumerate(_read_view.array(data["passed"], "passed")))
    candidate = PlayerView(
        seat=seat,
        rules=rules,
        current_player=_read_view.integer(data["current_player"], "current_player", 0, n - 1),
        is_over=data["is_over"],
        winner=_read_view.integer_or_null(data["winner"], "winner", 0, n - 1),
        scores=tuple(_read_view.integer(x, f"scores[{p}]", 0, 3 * TERRITORY_COUNT) for p, x in enumerate(_read_view.array(data["scores"], "scores", n))),
        plays=_read_view.integer(data["plays"], "plays", 0, total),
        hand=_cards(data["hand"], "hand"),
        hand_sizes=tuple(_read_view.integer(x, f"hand_sizes[{p}]", 0, total) for p, x in enumerate(_read_view.array(data["hand_sizes"], "hand_sizes", n))),
        deck_size=_read_view.integer(data["deck_size"], "deck_size", 0, total),
        armies=tuple(armies),
        completed_at=tuple(completed),
        owners=tuple(_read_view.integer_or_null(o, f"owners[{t}]", 0, n - 1)
                     for t, o in enumerate(_read_view.array(data["owners"], "owners", TERRITORY_COUNT))),  # fmt: skip
        markers=tuple(_read_view.integer_or_null(m, f"markers[{t}]", 1, TERRITORY_COUNT)
                      for t, m in enumerate(_read_view.array(data["markers"], "markers", TERRITORY_COUNT))),  # fmt: skip
        unseen=_unseen(data["unseen"], total),
        legal_actions=tuple(actions),
        passed=passed,
    )
    try:
        deal = Deal(candidate)  # the shapes fit the rules and the cards add up to the rules' cards
        game = deal.game(deal._cards.tolist(), check="consistent")
    except InvalidGameStateError as error:
        raise _view_fail(str(error)) from None
    derived = PlayerView.of(game, seat)
    for field in attrs.fields(PlayerView):
        if field.eq and getattr(candidate, field.name) != getattr(derived, field.name):
            given, right = _shown(field.name, getattr(candidate, field.name)), _shown(field.name, getattr(derived, field.name))
            raise _view_fail(f"{field.name} is {shown(given):.200}, but the position shown gives {shown(right):.200}")
    object.__setattr__(candidate, "_deal", deal)
    return candidate


def _shown(name: str, value: Any) -> Any:
    """A view's field as its JSON shows it, for messages."""
    if name == "legal_actions":
        return [action_to_data(action) for action in value]
    if name == "unseen":
        return {str(Card.from_mask(m)): count for m, count in enumerate(value) if count}
    return value


# --------------------------------------------------------------------- JSON Schemas

_CARDS: dict[str, Any] = {"type": "array", "items": {"$ref": "#/$defs/card"}}
_SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_SEAT_OR_NULL: dict[str, Any] = {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_PLAYERS - 1}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
_WORD: dict[str, Any] = {"type": ["integer", "null"], "minimum": 0, "maximum": (1 << 64) - 1}


def _by_seat(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items, "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS}


def _by_territory(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items, "minItems": TERRITORY_COUNT, "maxItems": TERRITORY_COUNT}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _schema(title: str, properties: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **_object(properties), "$defs": defs}


_DEFS: dict[str, Any] = {
    **ACTION_SCHEMA["$defs"],
    "action": {"oneOf": ACTION_SCHEMA["oneOf"]},
    "rules": _object({
        "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
        "deck": {"oneOf": [{"type": "null"}, {**_CARDS, "minItems": 1}], "description": "null: the standard deck(s)"},
        "scoring": {"enum": ["territories", "points"]},
        "tie_break": {"enum": ["latest_capture", "lowest_marker_sum"]},
        "claim_proof": {"enum": ["public", "private"]},
        "auto_claim": {"type": "boolean"},
    }),  # fmt: skip
    "armies": _by_territory(_by_seat({**_CARDS, "maxItems": ARMY_SIZE})),
    "completed_at": _by_territory(_by_seat({"type": ["integer", "null"], "minimum": 0})),
    "owners": _by_territory(_SEAT_OR_NULL),
    "markers": _by_territory({"type": ["integer", "null"], "minimum": 1, "maximum": TERRITORY_COUNT}),
    "passed": {"type": "array", "items": _SEAT, "uniqueItems": True, "maxItems": MAX_PLAYERS},
}
_POSITION: dict[str, Any] = {
    "deck": _CARDS, "hands": _by_seat(_CARDS), "armies": {"$ref": "#/$defs/armies"},
    "completed_at": {"$ref": "#/$defs/completed_at"}, "owners": {"$ref": "#/$defs/owners"},
    "markers": {"$ref": "#/$defs/markers"}, "plays": _COUNT, "current_player": _SEAT, "over": {"type": "boolean"},
    "passed": {"$ref": "#/$defs/passed"},
}  # fmt: skip
_ACTIONS: dict[str, Any] = {"type": "array", "items": {"$ref": "#/$defs/action"}}

#: The JSON Schema (draft 2020-12) of a save, version 3 (:meth:`Game.to_json <ordonnance.Game.to_json>`).
GAME_SCHEMA: dict[str, Any] = _schema(
    "A saved Ordonnance game (ordonnance.game, version 3)",
    {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "rules": {"$ref": "#/$defs/rules"},
        "seed": _WORD,
        "rng_state": _WORD,
        **_POSITION,
        "order": {"oneOf": [{"type": "null"}, _CARDS]},
        "start": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/position"}]},
        "history": _ACTIONS,
    },
    {**_DEFS, "position": _object(_POSITION)},
)

#: The JSON Schema (draft 2020-12) of a view, version 1 (:meth:`PlayerView.to_json <ordonnance.PlayerView.to_json>`).
VIEW_SCHEMA: dict[str, Any] = _schema(
    "One seat's view of an Ordonnance game (ordonnance.view, version 1)",
    {
        "format": {"const": VIEW_FORMAT},
        "version": {"const": VIEW_VERSION},
        "rules": {"$ref": "#/$defs/rules"},
        "seat": _SEAT,
        "current_player": _SEAT,
        "is_over": {"type": "boolean"},
        "winner": _SEAT_OR_NULL,
        "scores": _by_seat(_COUNT),
        "plays": _COUNT,
        "hand": _CARDS,
        "hand_sizes": _by_seat(_COUNT),
        "deck_size": _COUNT,
        "armies": {"$ref": "#/$defs/armies"},
        "completed_at": {"$ref": "#/$defs/completed_at"},
        "owners": {"$ref": "#/$defs/owners"},
        "markers": {"$ref": "#/$defs/markers"},
        "unseen": {"type": "object", "propertyNames": {"$ref": "#/$defs/card"},
                   "additionalProperties": {"type": "integer", "minimum": 1}},  # fmt: skip
        "legal_actions": _ACTIONS,
        "passed": {"$ref": "#/$defs/passed"},
    },
    _DEFS,
)
