"""Private: the checks of a position's parts, which :meth:`Game._from_position
<ordonnance.Game._from_position>` runs (see there).

:func:`check_parts` checks each part alone (sizes and ranges); :func:`check_consistent`
that they fit together (every card in one place, armies, markers and
decisions that fit the rules); :func:`check_reachable` that the engine could
have reached the position under its rules (its rules are listed in
``docs/saves.rst``; each check below names the rule it enforces).
"""

from __future__ import annotations

from collections import Counter

import attrs

from ordonnance._sampling import passed_over
from ordonnance.army import ARMY_SIZE
from ordonnance.cards import MAX_MASK, Card
from ordonnance.errors import InvalidGameStateError, OrdonnanceError
from ordonnance.game import NOBODY, NOT_COMPLETE, Game, _multiset_difference, shuffled_deck
from ordonnance.rules import HAND_SIZE
from ordonnance.territory import TERRITORY_COUNT, Territory
from ordonnance.core.checks import shown

__all__ = ["check_parts", "check_consistent", "check_reachable", "check_history"]

_LIMIT = (1 << 64) - 1


def _fail(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(message)


def _unreachable(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"unreachable position: {message}")


# --------------------------------------------------------------------- parts


def _seats(value: object, where: str, n: int) -> None:
    if not isinstance(value, list) or len(value) != n:
        raise _fail(f"{where} must be a list of {n} entries, got {shown(value):.80}")


def _int_in(value: object, where: str, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise _fail(f"{where} must be an int in {low}..{high}, got {shown(value):.80}")


def _cards_in(value: object, where: str) -> None:
    if not isinstance(value, list) or any(type(m) is not int or not 1 <= m <= MAX_MASK for m in value):
        raise _fail(f"{where} must be a list of card masks 1..{MAX_MASK}, got {shown(value):.80}")


def check_parts(game: Game) -> None:
    """Each part of ``game`` alone: a list of the right length, ints in range, card masks."""
    n = game._rules.players
    if game._seed is not None:
        _int_in(game._seed, "seed", 0, _LIMIT)
    if game._rng_state is not None:
        _int_in(game._rng_state, "rng_state", 0, _LIMIT)
    _cards_in(game._deck, "deck")
    _seats(game._hands, "hands", n)
    for p, hand in enumerate(game._hands):
        _cards_in(hand, f"hands[{p}]")
    _int_in(game._plays, "plays", 0, len(game._rules.cards))
    _seats(game._armies, "armies", TERRITORY_COUNT)
    _seats(game._completed, "completed_at", TERRITORY_COUNT)
    for t in range(TERRITORY_COUNT):
        _seats(game._armies[t], f"armies[{t}]", n)
        _seats(game._completed[t], f"completed_at[{t}]", n)
        for p in range(n):
            _cards_in(game._armies[t][p], f"armies[{t}][{p}]")
            _int_in(game._completed[t][p], f"completed_at[{t}][{p}]", NOT_COMPLETE, max(game._plays - 1, 0))
    _seats(game._owner, "owners", TERRITORY_COUNT)
    _seats(game._marker, "markers", TERRITORY_COUNT)
    for t in range(TERRITORY_COUNT):
        _int_in(game._owner[t], f"owners[{t}]", NOBODY, n - 1)
        _int_in(game._marker[t], f"markers[{t}]", 0, TERRITORY_COUNT)
    _int_in(game._current, "current_player", 0, n - 1)
    if type(game._over) is not bool:
        raise _fail(f"over must be True or False, got {shown(game._over):.80}")
    _int_in(game._passed, "passed", 0, (1 << n) - 1)


# --------------------------------------------------------------------- consistency


def check_consistent(game: Game) -> None:
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
            if (len(army) == ARMY_SIZE) != (game._completed[t][p] != NOT_COMPLETE):
                raise _fail(f"completed_at[{t}][{p}] does not match an army of {len(army)} cards")
    expected = Counter(card.mask for card in game._rules.cards)
    if places != expected:
        raise _fail(_multiset_difference("deck, hands and armies together", places, expected))
    if on_table != game._plays:
        raise _fail(f"plays is {game._plays} but {on_table} cards are on the table")
    done = [d for row in game._completed for d in row if d != NOT_COMPLETE]
    if len(done) != len(set(done)):
        raise _fail("two armies completed with the same play")
    decided = [t for t in range(TERRITORY_COUNT) if game._owner[t] != NOBODY]
    if sorted(game._marker[t] for t in decided) != list(range(1, len(decided) + 1)):
        raise _fail(f"markers {game._marker} do not number the decided territories 1..{len(decided)}")
    if any(game._marker[t] for t in range(TERRITORY_COUNT) if t not in decided):
        raise _fail("a marker lies on an undecided territory")
    for t in decided:
        owner = game._owner[t]
        if game._completed[t][owner] == NOT_COMPLETE:
            raise _fail(f"owners[{t}] is player {owner}, whose army there is not complete")
        if not game._rules.claims_allowed and NOT_COMPLETE in game._completed[t]:
            raise _fail(f"territory {t} is decided before every army is complete, under points scoring")
        if NOT_COMPLETE not in game._completed[t] and game.ranking(t)[0] != owner:
            raise _fail(f"owners[{t}] is player {owner}, but player {game.ranking(t)[0]} has the winning army")
    for t in range(TERRITORY_COUNT):
        if t not in decided and NOT_COMPLETE not in game._completed[t]:
            raise _fail(f"territory {t} is complete for every player but undecided")
    if len(decided) == TERRITORY_COUNT and not game._over:
        raise _fail("every territory is decided but over is false")


# --------------------------------------------------------------------- history


def check_history(game: Game) -> None:
    """``game``'s history, replayed from its deal, reaches exactly its position."""
    if (game._seed is None) == (game._order is None):
        raise _fail("a history starts from a deal: give a seed or a deck order, not both or neither")
    replayed = game.root()
    for i, action in enumerate(game.history):
        try:
            replayed.apply(action)
        except OrdonnanceError as error:
            raise _fail(f"history[{i}] ({shown(action)}) cannot be played: {error}") from None
    if replayed._state() != game._state():
        raise _fail("the history does not lead to the position")


# --------------------------------------------------------------------- reachability


@attrs.frozen
class _Turns:
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


def _turns(game: Game) -> _Turns:
    n, plays = game.players, game._plays
    counts = [sum(len(game._armies[t][p]) for t in range(TERRITORY_COUNT)) for p in range(n)]
    seats = tuple(p for r in range(max(counts)) for p in range(n) if counts[p] > r)
    slots = tuple(tuple(i for i, q in enumerate(seats) if q == p) for p in range(n))
    draws = len(game._rules.cards) - HAND_SIZE * n - len(game._deck)
    drawer = seats[:draws] + ((game._current,) if draws == plays + 1 else ())
    return _Turns(seats, slots, draws, drawer)


def check_reachable(game: Game) -> None:
    """Refuse a position the engine could not have reached (docs/saves.rst)."""
    turns = _turns(game)
    _check_turns(game, turns)
    _check_draws(game, turns)
    _check_completions(game, turns)
    if game._seed is not None:
        _check_seeded_deal(game, turns)
    elif game._rng_state is not None:
        raise _unreachable("rng_state is set but seed is null (only a shuffled game has a generator state)")
    before_last = _check_decisions(game, turns)
    _check_claims(game)
    _check_end(game, turns, before_last)


def _check_turns(game: Game, turns: _Turns) -> None:
    """Rule "turns": the play counts fit turns in seat order, nobody who can play skipped."""
    n, last = game.players, turns.last
    if last is None:
        between = range(game._current)
    else:
        top = len(turns.slots[last])
        for p in range(n):
            if game._can_play(p):
                expected = top if p <= last else top - 1
                if len(turns.slots[p]) != expected:
                    raise _unreachable(
                        f"player {p} can still play but has played {len(turns.slots[p])} cards, while player "
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


def _check_draws(game: Game, turns: _Turns) -> None:
    """Rule "draws": one card drawn before each play while the pile lasts; hand sizes follow."""
    plays, draws, current = game._plays, turns.draws, game._current
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
        expected = HAND_SIZE + turns.drawer.count(p) - len(turns.slots[p])
        if len(game._hands[p]) != expected:
            raise _unreachable(
                f"player {p} holds {len(game._hands[p])} cards, but was dealt {HAND_SIZE}, drew "
                f"{turns.drawer.count(p)} and played {len(turns.slots[p])}, so must hold {expected}"
            )


def _check_seeded_deal(game: Game, turns: _Turns) -> None:
    """Rule "seeded deal": the seed fixes the deal; the pile, every hand (in its
    order) and every card played are the ones that deal gives."""
    assert game._seed is not None
    order, state = shuffled_deck(game._rules, game._seed)
    if game._rng_state != state:
        raise _unreachable(f"rng_state {shown(game._rng_state)} is not the one the shuffle of seed {game._seed} leaves")
    n, dealt = game.players, HAND_SIZE * game.players
    if game._deck[::-1] != order[dealt + turns.draws :]:
        raise _unreachable(f"the pile is not what the shuffle of seed {game._seed} leaves after {turns.draws} draws")
    for p in range(n):
        received = order[p:dealt:n] + [order[dealt + i] for i, q in enumerate(turns.drawer) if q == p]
        table = [m for t in range(TERRITORY_COUNT) for m in game._armies[t][p]]
        if Counter(received) != Counter(game._hands[p]) + Counter(table):
            raise _unreachable(f"player {p}'s cards are not the ones the shuffle of seed {game._seed} gave them")
        timed = [(-1, m) for m in order[p:dealt:n]] + [
            (i, order[dealt + i]) for i, q in enumerate(turns.drawer) if q == p
        ]  # fmt: skip
        _check_cards_in_time(game, turns, p, timed)
        _check_play_order(game, turns, p, timed)
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


def _check_cards_in_time(game: Game, turns: _Turns, p: int, received: list[tuple[int, int]]) -> None:
    """Part of rule "seeded deal": every card was played after it reached its player.

    ``received`` lists (draw number, mask) in order, -1 for the deal; a draw
    numbered ``i`` came before play ``i``. The hand keeps the last copies of
    each card, so the table holds the first ones.
    """
    slots = turns.slots[p]
    by_time = sorted(
        (game._completed[t][p], t) for t in range(TERRITORY_COUNT) if game._completed[t][p] != NOT_COMPLETE
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


def _check_play_order(game: Game, turns: _Turns, p: int, received: list[tuple[int, int]]) -> None:
    """Part of rule "seeded deal": some order of player ``p``'s plays fits
    everything at once: each army's cards in their order, each complete army's
    4th card at its completion, and every card held when played.

    A search over how far each of the five armies had got (at most 5**5
    states: which cards were played so far, and so how many plays, follows).
    """
    slots = turns.slots[p]
    armies = [game._armies[t][p] for t in range(TERRITORY_COUNT)]
    completes = {slots.index(game._completed[t][p]): t for t in range(TERRITORY_COUNT)
                 if game._completed[t][p] != NOT_COMPLETE}  # fmt: skip
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


def _check_completions(game: Game, turns: _Turns) -> None:
    """Rule "completions": an army is completed by one of its player's plays,
    after the three cards before it."""
    for p in range(game.players):
        slots = turns.slots[p]
        times = sorted(game._completed[t][p] for t in range(TERRITORY_COUNT) if game._completed[t][p] != NOT_COMPLETE)
        for i, g in enumerate(times, 1):
            if g not in slots:
                raise _unreachable(f"an army of player {p} completed at play {g}, which was not player {p}'s play")
            if slots.index(g) + 1 < ARMY_SIZE * i:
                raise _unreachable(
                    f"player {p} completed {i} armies by play {g}, their play number {slots.index(g) + 1}: "
                    f"that takes {ARMY_SIZE * i} plays"
                )


def _decision_options(game: Game, turns: _Turns, t: int) -> list[tuple[int, int, int]]:
    """Every moment territory ``t`` can have been decided, as (plays made, phase,
    order): phase 0 is the resolution after a play (in table order), phase 1 a
    claim made on a turn (in any order)."""
    done = game._completed[t]
    if NOT_COMPLETE not in done:
        return [(max(done) + 1, 0, t)]
    # Claimed: after every card there was played (an army of k cards took its player's k-th play at the earliest).
    lows = [done[q] if done[q] != NOT_COMPLETE else turns.slots[q][len(army) - 1]
            for q, army in enumerate(game._armies[t]) if army]  # fmt: skip
    low, plays, owner = max(lows) + 1, game._plays, game._owner[t]
    options: list[tuple[int, int, int]] = []
    if game._rules.auto_claim:
        options.extend((x, 0, t) for x in range(max(low, 1), plays + 1))
    if game._rules.explicit_claims:
        claim_turns = set(turns.slots[owner])
        if owner == game._current:
            claim_turns.add(plays)
        if not game._can_play(owner):
            claim_turns.update(range(turns.slots[owner][-1] + 1, plays + 1))
        options.extend((x, 1, 0) for x in sorted(claim_turns) if low <= x <= plays)
    return sorted(options)


def _check_decisions(game: Game, turns: _Turns) -> tuple[int, int, int]:
    """Rule "decisions": the markers number the territories in an order they can
    have been decided in. Returns the earliest moment the last decision can
    follow (for rule "end")."""
    decided = sorted((game._marker[t], t) for t in range(TERRITORY_COUNT) if game._owner[t] != NOBODY)
    moment = (0, 0, -1)
    before_last = moment
    for marker, t in decided:
        later = [m for m in _decision_options(game, turns, t) if m >= moment]
        if not later:
            label = Territory(t).label
            how = "complete for every player" if NOT_COMPLETE not in game._completed[t] else "claimed"
            raise _unreachable(
                f"{label} ({how}) has marker {marker}, but cannot have been decided after the territories "
                f"with lower markers and by play {game._plays}"
            )
        before_last, moment = moment, later[0]
    return before_last


def _check_last_actor(game: Game, turns: _Turns, before_last: tuple[int, int, int]) -> None:
    """Rule "end": in a finished game the player to act is the one who acted last:
    the last player if the game ended after a play, else the seat whose claim
    or pass ended it."""
    current, plays = game._current, game._plays
    decided = sorted((game._marker[t], t) for t in range(TERRITORY_COUNT) if game._owner[t] != NOBODY)
    after_play = current == turns.last
    if len(decided) == TERRITORY_COUNT:
        # The last decision ended the game: made after the last play, or claimed by the player to act.
        t = decided[-1][1]
        options = [m for m in _decision_options(game, turns, t) if m >= before_last and m[0] == plays]
        ended = any((m[1] == 0 and after_play) or (m[1] == 1 and game._owner[t] == current) for m in options)
    else:
        claimed = [
            t for t in range(TERRITORY_COUNT)
            if game._owner[t] == current and any(m[:2] == (plays, 1) for m in _decision_options(game, turns, t))
        ]  # fmt: skip
        ended = after_play or bool(game._passed >> current & 1) or bool(claimed)
    if not ended:
        raise _unreachable(
            f"the game is over with player {current} to act, but the last move was not theirs "
            f"(player {turns.last} played last)"
        )


def _check_claims(game: Game) -> None:
    """Rules "claims" and "automatic claims"."""
    for t in range(TERRITORY_COUNT):
        owner = game._owner[t]
        if owner != NOBODY and NOT_COMPLETE in game._completed[t]:
            # The cards not face up only shrink, so a claim provable then is provable now.
            counter = game._counterexample(owner, t)
            if counter is not None:
                raise _unreachable(
                    f"player {owner} holds {Territory(t).label} by an early claim that cannot have been proven: {counter}"
                )
    if not game._rules.auto_claim:
        return
    for t in range(TERRITORY_COUNT):
        if game._owner[t] != NOBODY:
            continue
        for p in range(game.players):
            exempt = p == game._current and game._rules.claim_proof == "private"  # its draw may have made it provable
            if game._completed[t][p] != NOT_COMPLETE and not exempt and game._beater(p, t) is None:
                raise _unreachable(
                    f"auto_claim is on and player {p} can prove {Territory(t).label}, which would have been "
                    "awarded after the last play"
                )


def _check_end(game: Game, turns: _Turns, before_last: tuple[int, int, int]) -> None:
    """Rules "end" and "passes"."""
    current, n = game._current, game.players
    decided = sum(1 for o in game._owner if o != NOBODY)
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
        _check_last_actor(game, turns, before_last)
        return
    if game._passed >> current & 1:
        raise _unreachable(f"player {current} is to act but passed since the last play or claim")
    if not game.legal_actions():
        raise _fail(f"player {current} is to act but has no legal action")
