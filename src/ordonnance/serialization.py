"""Lossless JSON for games, with every input checked before a game is built.

The format is a JSON object::

    {"format": "ordonnance.game", "version": 2,
     "rules": {...},                 # Rules.to_dict(), every field
     "seed": 7, "rng_state": ...,    # null when the deck order was given
     "deck": ["SH", ...],            # the draw pile, top card first
     "hands": [["L", ...], ...],     # by seat, in the order drawn
     "armies": [[["L"], []], ...],   # [territory][seat], in play order
     "completed_at": [[null, 3], ...],
     "owners": [null, 1, ...], "markers": [null, 1, ...],
     "plays": 12, "current_player": 0, "over": false,
     "passed": []}                   # seats that passed since the last play or claim

Every field is required (version 1, written before ``passed`` existed, is
read as ``passed: []``). :func:`game_from_json` refuses, with
:class:`~ordonnance.errors.InvalidGameStateError` and the reason, a text over
:data:`MAX_TEXT_SIZE` or nested deeper than :data:`MAX_DEPTH` (before parsing
it), malformed JSON, and every position the engine could not have reached
under its rules. The rules of reachability are listed in ``docs/saves.rst``;
each check below names the rule it enforces.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import attrs
import numpy as np

from ordonnance._sampling import passed_over
from ordonnance.army import ARMY_SIZE
from ordonnance.cards import MAX_MASK, Card
from ordonnance.errors import InvalidGameStateError, OrdonnanceError
from ordonnance.game import _NOBODY, _NOT_COMPLETE, Game, _multiset_difference, shuffled_deck
from ordonnance.rules import HAND_SIZE, Rules
from ordonnance.territory import TERRITORY_COUNT, Territory

__all__ = ["FORMAT", "VERSION", "MAX_TEXT_SIZE", "MAX_DEPTH", "game_to_json", "game_from_json"]

FORMAT = "ordonnance.game"
VERSION = 2
#: The longest save :func:`game_from_json` reads, in characters (or bytes). A real
#: save of a 4-player game is under 5,000.
MAX_TEXT_SIZE = 1_000_000
#: The deepest nesting of JSON arrays and objects a save may have (a real one has 4).
MAX_DEPTH = 8
_KEYS = {
    "format", "version", "rules", "seed", "rng_state", "deck", "hands", "armies",
    "completed_at", "owners", "markers", "plays", "current_player", "over", "passed",
}  # fmt: skip
_KEYS_BY_VERSION = {1: _KEYS - {"passed"}, 2: _KEYS}
_RULES_FIELDS = {field.name for field in attrs.fields(Rules)}
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


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
        "passed": [p for p in range(game.players) if game._passed >> p & 1],
    }
    return json.dumps(data, separators=(",", ":"))


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid game JSON: {message}")


def _unreachable(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"invalid game JSON: unreachable position: {message}")


# --------------------------------------------------------------------- parsing


def _text_of(text: object) -> str:
    """The save as a str, refused when too long or nested too deeply (before any
    parsing, so that no input can exhaust the parser's recursion or memory)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidGameStateError(f"game JSON must be str or bytes, not {type(text).__name__}: {text!r:.80}")
    if len(text) > MAX_TEXT_SIZE:
        raise _fail(f"the text is {len(text):,} long, more than a save can be ({MAX_TEXT_SIZE:,})")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode(json.detect_encoding(text))
        except (UnicodeDecodeError, LookupError) as error:
            raise _fail(f"not JSON ({error})") from None
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub('""', text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise _fail(f"nested deeper than a save can be (more than {MAX_DEPTH} levels)")
    return text


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        repeated = sorted({key for key, _ in pairs if [k for k, _ in pairs].count(key) > 1})
        raise _fail(f"repeated keys {repeated}")
    return data


def _no_constant(name: str) -> Any:
    raise _fail(f"{name} is not a number a save can hold")


def _int(value: Any, where: str, low: int, high: int, *, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{where} must be an int in {low}..{high}{' or null' if nullable else ''}, got {value!r:.80}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be a list, got {value!r:.80}")
    if length is not None and len(value) != length:
        raise _fail(f"{where} must have {length} entries, got {len(value)}")
    return value


def _masks(value: Any, where: str) -> list[int]:
    masks = []
    for i, text in enumerate(_list(value, where)):
        if not isinstance(text, str):
            raise _fail(f"{where}[{i}] must be a card text, got {text!r:.80}")
        try:
            masks.append(Card.parse(text).mask)
        except OrdonnanceError as error:
            raise _fail(f"{where}[{i}]: {error}") from None
    return masks


def _rules(data: Any) -> Rules:
    if isinstance(data, dict) and set(data) != _RULES_FIELDS:
        missing, extra = sorted(_RULES_FIELDS - set(data)), sorted(set(data) - _RULES_FIELDS)
        if missing:
            raise _fail(f"rules: missing fields {missing} (a save lists every field){f', unknown {extra}' if extra else ''}")
    try:
        return Rules.from_dict(data)
    except (OrdonnanceError, TypeError) as error:
        raise _fail(f"rules: {error}") from None


def game_from_json(text: str | bytes) -> Game:
    """Rebuild a game from :func:`game_to_json` output (see :meth:`Game.from_json`)."""
    return _load(text, reachable=True)


def _load(text: str | bytes, *, reachable: bool) -> Game:
    """Parse and check a save; ``reachable=False`` skips the reachability rules
    (only for tests that set up positions by hand, whose history does not matter)."""
    checked = _text_of(text)
    try:
        data = json.loads(checked, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except InvalidGameStateError:
        raise
    except (ValueError, RecursionError) as error:
        raise _fail(f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise _fail(f"expected an object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise _fail(f"format must be {FORMAT!r}, got {data.get('format')!r:.80}")
    version = data.get("version")
    if isinstance(version, bool) or version not in _KEYS_BY_VERSION:
        raise _fail(f"unsupported version {version!r:.80} (this library reads {', '.join(map(str, _KEYS_BY_VERSION))})")
    keys = _KEYS_BY_VERSION[version]
    if set(data) != keys:
        missing, extra = sorted(keys - set(data)), sorted(set(data) - keys)
        raise _fail(f"missing keys {missing}, unknown keys {extra}")
    rules = _rules(data["rules"])
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
        raise _fail(f"over must be true or false, got {data['over']!r:.80}")
    game._over = data["over"]
    passed = _list(data.get("passed", []), "passed")
    seats = [int(_int(p, "passed", 0, n - 1) or 0) for p in passed]
    if seats != sorted(set(seats)):
        raise _fail(f"passed must list seats in increasing order, each once, got {passed!r}")
    game._passed = sum(1 << p for p in seats)
    _check_consistent(game)
    game._hidden = np.zeros(MAX_MASK + 1, dtype=np.int64)
    for m in game._deck + [m for hand in game._hands for m in hand]:
        game._hidden[m] += 1
    if reachable:
        _check_reachable(game)
    elif not game._over and not game.legal_actions():
        raise _fail(f"player {game._current} is to act but has no legal action")
    return game


# --------------------------------------------------------------------- consistency


def _check_consistent(game: Game) -> None:
    """Every card in exactly one place, armies and markers that fit the rules
    (rules "cards", "armies", "markers" and "resolution" of docs/saves.rst)."""
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


# --------------------------------------------------------------------- reachability


@attrs.frozen
class _History:
    """What the position itself says about how it was reached.

    Turns go round in seat order and a seat that can play on its turn always
    plays, so a seat's plays are its plays in rounds 0, 1, ... until it stops
    for good: the counts alone fix who made each play. ``seats[i]`` made play
    ``i``; ``slots[p]`` are the play numbers of seat ``p``'s plays; ``draws``
    is how many cards were drawn after the deal; ``drawer[i]`` drew card ``i``
    (the player of play ``i``, or the player to act for a card drawn this turn).
    """

    seats: tuple[int, ...]
    slots: tuple[tuple[int, ...], ...]
    draws: int
    drawer: tuple[int, ...]

    @property
    def last(self) -> int | None:
        """The seat that played last, or None before the first play."""
        return self.seats[-1] if self.seats else None


def _history(game: Game) -> _History:
    n, plays = game.players, game._plays
    counts = [sum(len(game._armies[t][p]) for t in range(TERRITORY_COUNT)) for p in range(n)]
    seats = tuple(p for r in range(max(counts)) for p in range(n) if counts[p] > r)
    slots = tuple(tuple(i for i, q in enumerate(seats) if q == p) for p in range(n))
    draws = len(game._rules.cards) - HAND_SIZE * n - len(game._deck)
    drawer = seats[:draws] + ((game._current,) if draws == plays + 1 else ())
    return _History(seats, slots, draws, drawer)


def _check_reachable(game: Game) -> None:
    """Refuse a position the engine could not have reached (docs/saves.rst)."""
    history = _history(game)
    _check_turns(game, history)
    _check_draws(game, history)
    _check_completions(game, history)
    if game._seed is not None:
        _check_seeded_deal(game, history)
    elif game._rng_state is not None:
        raise _unreachable("rng_state is set but seed is null (only a shuffled game has a generator state)")
    before_last = _check_decisions(game, history)
    _check_claims(game)
    _check_end(game, history, before_last)


def _check_turns(game: Game, history: _History) -> None:
    """Rule "turns": the play counts fit turns in seat order, nobody who can play skipped."""
    n, last = game.players, history.last
    if last is None:
        between = range(game._current)
    else:
        top = len(history.slots[last])
        for p in range(n):
            if game._can_play(p):
                expected = top if p <= last else top - 1
                if len(history.slots[p]) != expected:
                    raise _unreachable(
                        f"player {p} can still play but has played {len(history.slots[p])} cards, while player "
                        f"{last} played last with {top}: turns go round in seat order and skip only players who "
                        f"cannot play, so player {p} must have played {expected}"
                    )
        between = range(last + 1, last + 1 + (game._current - last - 1) % n)
    for q in between:
        if game._can_play(q % n):
            raise _unreachable(
                f"player {q % n} can play, so the turn could not pass it on the way to player {game._current}"
            )
    for q in passed_over(game._armies, game._completed, game._owner, game._marker, game._current, game._passed):
        claims = game._provable_claims(q)
        if claims:
            raise _unreachable(
                f"player {q} has a claim to make ({', '.join(Territory(t).label for t in claims)}), "
                f"so the turn could not pass it on the way to player {game._current}"
            )


def _check_draws(game: Game, history: _History) -> None:
    """Rule "draws": one card drawn before each play while the pile lasts; hand sizes follow."""
    plays, draws, current = game._plays, history.draws, game._current
    if draws < 0:
        raise _unreachable(f"the pile holds {len(game._deck)} cards, more than are left after the deal")
    if game._deck and draws < plays:
        raise _unreachable(f"only {draws} cards were drawn after the deal but {plays} were played while the pile lasted")
    if draws > plays + 1:
        raise _unreachable(f"{draws} cards were drawn after the deal but only {plays} were played")
    opens = bool(game._open_territories(current))
    if not game._over and game._deck and draws != plays + opens:
        raise _unreachable(
            f"{draws} cards were drawn after the deal, {plays} played, and player {current} "
            f"{'has' if opens else 'has no'} open territory: a card is drawn before each play while the pile "
            f"lasts, so {plays + opens} must have been drawn"
        )
    if draws == plays + 1 and not game._over and not opens:
        raise _unreachable(f"player {current} drew a card this turn without an open territory to draw for")
    for p in range(game.players):
        expected = HAND_SIZE + history.drawer.count(p) - len(history.slots[p])
        if len(game._hands[p]) != expected:
            raise _unreachable(
                f"player {p} holds {len(game._hands[p])} cards, but was dealt {HAND_SIZE}, drew "
                f"{history.drawer.count(p)} and played {len(history.slots[p])}, so must hold {expected}"
            )


def _check_seeded_deal(game: Game, history: _History) -> None:
    """Rule "seeded deal": the seed fixes the deal; the pile, every hand (in its
    order) and every card played are the ones that deal gives."""
    assert game._seed is not None
    order, state = shuffled_deck(game._rules, game._seed)
    if game._rng_state != state:
        raise _unreachable(f"rng_state {game._rng_state!r} is not the one the shuffle of seed {game._seed} leaves")
    n, dealt = game.players, HAND_SIZE * game.players
    if game._deck[::-1] != order[dealt + history.draws :]:
        raise _unreachable(f"the pile is not what the shuffle of seed {game._seed} leaves after {history.draws} draws")
    for p in range(n):
        received = order[p:dealt:n] + [order[dealt + i] for i, q in enumerate(history.drawer) if q == p]
        table = [m for t in range(TERRITORY_COUNT) for m in game._armies[t][p]]
        if Counter(received) != Counter(game._hands[p]) + Counter(table):
            raise _unreachable(f"player {p}'s cards are not the ones the shuffle of seed {game._seed} gave them")
        timed = [(-1, m) for m in order[p:dealt:n]] + [
            (i, order[dealt + i]) for i, q in enumerate(history.drawer) if q == p
        ]  # fmt: skip
        _check_cards_in_time(game, history, p, timed)
        _check_play_order(game, history, p, timed)
        # Hand.remove() takes the first copy, so the copies left in hand are the last ones received.
        keep = Counter(game._hands[p])
        seen: Counter[int] = Counter()
        expected_hand = []
        for m in reversed(received):
            seen[m] += 1
            if seen[m] <= keep[m]:
                expected_hand.append(m)
        if expected_hand[::-1] != game._hands[p]:
            raise _unreachable(f"player {p}'s hand is not in the order the cards were drawn")


def _check_cards_in_time(game: Game, history: _History, p: int, received: list[tuple[int, int]]) -> None:
    """Part of rule "seeded deal": every card was played after it reached its player.

    ``received`` lists (draw number, mask) in order, -1 for the deal; a draw
    numbered ``i`` came before play ``i``. The hand keeps the last copies of
    each card, so the table holds the first ones.
    """
    slots = history.slots[p]
    by_time = sorted(
        (game._completed[t][p], t) for t in range(TERRITORY_COUNT) if game._completed[t][p] != _NOT_COMPLETE
    )
    table = Counter(m for t in range(TERRITORY_COUNT) for m in game._armies[t][p])
    used: Counter[int] = Counter()
    for g, t in by_time:
        # Every card of the armies complete by play g had been received by then.
        used.update(game._armies[t][p])
        got = Counter(m for i, m in received if i <= g)
        if used - got:
            raise _unreachable(
                f"player {p} completed {Territory(t).label} at play {g} with cards the deal had not given them yet"
            )
    for k, g in enumerate(slots):
        # Cards that reached the player only after its k-th play go to its later plays.
        got = Counter(m for i, m in received if i <= g)
        late = sum((table - got).values())
        if late > len(slots) - k - 1:
            raise _unreachable(
                f"player {p} has {late} cards on the table that reached them after their play {g}, "
                f"but made only {len(slots) - k - 1} plays after it"
            )


def _check_play_order(game: Game, history: _History, p: int, received: list[tuple[int, int]]) -> None:
    """Part of rule "seeded deal": some order of player ``p``'s plays fits
    everything at once: each army's cards in their order, each complete army's
    4th card at its completion, and every card held when played.

    A search over how far each of the five armies had got (at most 5**5
    states: which cards were played so far, and so how many plays, follows).
    """
    slots = history.slots[p]
    armies = [game._armies[t][p] for t in range(TERRITORY_COUNT)]
    completes = {slots.index(game._completed[t][p]): t for t in range(TERRITORY_COUNT)
                 if game._completed[t][p] != _NOT_COMPLETE}  # fmt: skip
    held = []  # held[k][m]: copies of m the player had received by its k-th play
    for g in slots:
        counts = [0] * (MAX_MASK + 1)
        for i, m in received:
            if i <= g:
                counts[m] += 1
        held.append(counts)
    played = [0] * (MAX_MASK + 1)
    failed: set[tuple[int, ...]] = set()

    def fits(progress: tuple[int, ...]) -> bool:
        k = sum(progress)
        if k == len(slots):
            return True
        if progress in failed:
            return False
        forced = completes.get(k)
        for t in range(TERRITORY_COUNT) if forced is None else (forced,):
            j = progress[t]
            if j >= len(armies[t]) or (j == ARMY_SIZE - 1) != (forced == t):
                continue  # nothing left there, or a 4th card away from its completion
            m = armies[t][j]
            if played[m] >= held[k][m]:
                continue
            played[m] += 1
            found = fits(progress[:t] + (j + 1,) + progress[t + 1 :])
            played[m] -= 1
            if found:
                return True
        failed.add(progress)
        return False

    if not fits((0,) * TERRITORY_COUNT):
        raise _unreachable(
            f"no order of player {p}'s plays fits the order of its armies, their completion times and "
            "when its cards were drawn"
        )


def _check_completions(game: Game, history: _History) -> None:
    """Rule "completions": an army is completed by one of its player's plays,
    after the three cards before it."""
    for p in range(game.players):
        slots = history.slots[p]
        times = sorted(game._completed[t][p] for t in range(TERRITORY_COUNT) if game._completed[t][p] != _NOT_COMPLETE)
        for i, g in enumerate(times, 1):
            if g not in slots:
                raise _unreachable(f"an army of player {p} completed at play {g}, which was not player {p}'s play")
            if slots.index(g) + 1 < ARMY_SIZE * i:
                raise _unreachable(
                    f"player {p} completed {i} armies by play {g}, their play number {slots.index(g) + 1}: "
                    f"that takes {ARMY_SIZE * i} plays"
                )


def _decision_options(game: Game, history: _History, t: int) -> list[tuple[int, int, int]]:
    """Every moment territory ``t`` can have been decided, as (plays made, phase,
    order): phase 0 is the resolution after a play (in table order), phase 1 a
    claim made on a turn (in any order)."""
    done = game._completed[t]
    if _NOT_COMPLETE not in done:
        return [(max(done) + 1, 0, t)]
    # Claimed: after every card there was played (an army of k cards took its player's k-th play at the earliest).
    lows = [done[q] if done[q] != _NOT_COMPLETE else history.slots[q][len(army) - 1]
            for q, army in enumerate(game._armies[t]) if army]  # fmt: skip
    low, plays, owner = max(lows) + 1, game._plays, game._owner[t]
    options: list[tuple[int, int, int]] = []
    if game._rules.auto_claim:
        options.extend((x, 0, t) for x in range(max(low, 1), plays + 1))
    if game._rules.explicit_claims:
        turns = set(history.slots[owner])
        if owner == game._current:
            turns.add(plays)
        if not game._can_play(owner):
            turns.update(range(history.slots[owner][-1] + 1, plays + 1))
        options.extend((x, 1, 0) for x in sorted(turns) if low <= x <= plays)
    return sorted(options)


def _check_decisions(game: Game, history: _History) -> tuple[int, int, int]:
    """Rule "decisions": the markers number the territories in an order they can
    have been decided in. Returns the earliest moment the last decision can
    follow (for rule "end")."""
    decided = sorted((game._marker[t], t) for t in range(TERRITORY_COUNT) if game._owner[t] != _NOBODY)
    moment = (0, 0, -1)
    before_last = moment
    for marker, t in decided:
        later = [m for m in _decision_options(game, history, t) if m >= moment]
        if not later:
            label = Territory(t).label
            how = "complete for every player" if _NOT_COMPLETE not in game._completed[t] else "claimed"
            raise _unreachable(
                f"{label} ({how}) has marker {marker}, but cannot have been decided after the territories "
                f"with lower markers and by play {game._plays}"
            )
        before_last, moment = moment, later[0]
    return before_last


def _check_last_actor(game: Game, history: _History, before_last: tuple[int, int, int]) -> None:
    """Rule "end": in a finished game the player to act is the one who acted last:
    the last player if the game ended after a play, else the seat whose claim
    or pass ended it."""
    current, plays = game._current, game._plays
    decided = sorted((game._marker[t], t) for t in range(TERRITORY_COUNT) if game._owner[t] != _NOBODY)
    after_play = current == history.last
    if len(decided) == TERRITORY_COUNT:
        # The last decision ended the game: made after the last play, or claimed by the player to act.
        t = decided[-1][1]
        options = [m for m in _decision_options(game, history, t) if m >= before_last and m[0] == plays]
        ended = any((m[1] == 0 and after_play) or (m[1] == 1 and game._owner[t] == current) for m in options)
    else:
        claimed = [
            t for t in range(TERRITORY_COUNT)
            if game._owner[t] == current and any(m[:2] == (plays, 1) for m in _decision_options(game, history, t))
        ]  # fmt: skip
        ended = after_play or bool(game._passed >> current & 1) or bool(claimed)
    if not ended:
        raise _unreachable(
            f"the game is over with player {current} to act, but the last move was not theirs "
            f"(player {history.last} played last)"
        )


def _check_claims(game: Game) -> None:
    """Rules "claims" and "automatic claims"."""
    for t in range(TERRITORY_COUNT):
        owner = game._owner[t]
        if owner != _NOBODY and _NOT_COMPLETE in game._completed[t]:
            # The cards not face up only shrink, so a claim provable then is provable now.
            counter = game._counterexample(owner, t)
            if counter is not None:
                raise _unreachable(
                    f"player {owner} holds {Territory(t).label} by an early claim that cannot have been proven: {counter}"
                )
    if not game._rules.auto_claim:
        return
    for t in range(TERRITORY_COUNT):
        if game._owner[t] != _NOBODY:
            continue
        for p in range(game.players):
            exempt = p == game._current and game._rules.claim_proof == "private"  # its draw may have made it provable
            if game._completed[t][p] != _NOT_COMPLETE and not exempt and game._beater(p, t) is None:
                raise _unreachable(
                    f"auto_claim is on and player {p} can prove {Territory(t).label}, which would have been "
                    "awarded after the last play"
                )


def _check_end(game: Game, history: _History, before_last: tuple[int, int, int]) -> None:
    """Rules "end" and "passes"."""
    current, n = game._current, game.players
    decided = sum(1 for o in game._owner if o != _NOBODY)
    for p in range(n):
        if game._passed >> p & 1 and (
            game._can_play(p) or not game._rules.explicit_claims or not game._provable_claims(p)
        ):
            raise _unreachable(f"player {p} is listed as having passed, which needs a claim and no play")
    if game._over:
        if decided < TERRITORY_COUNT:
            able = [p for p in range(n) if game._can_act(p)]
            if able:
                raise _unreachable(
                    f"over is true with {TERRITORY_COUNT - decided} territories undecided while player {able[0]} "
                    "can still act (a game ends early only when nobody can)"
                )
        _check_last_actor(game, history, before_last)
        return
    if game._passed >> current & 1:
        raise _unreachable(f"player {current} is to act but passed since the last play or claim")
    if not game.legal_actions():
        raise _fail(f"player {current} is to act but has no legal action")
