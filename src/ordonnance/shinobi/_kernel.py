"""Private numba kernel: the rules of Shinobi on a flat state record, and whole games.

This is the one fast implementation of Shinobi's rules (:ref:`shinobi-rules`). The simulator
(:func:`simulate`) and the Monte-Carlo bot's rollouts (:func:`play_out`) share
it. It is a twin of :class:`ordonnance.shinobi.Game` held to it by the tests:
the same deal (SplitMix64 shuffles of the clan cards, then the troop deck), the
same legal actions in the same (code) order, the same order skipping, refills
and final round, and the built-in bots' twins (:data:`RANDOM`, :data:`GREEDY`)
draw from the same generator as :class:`ordonnance.shinobi.bots.Random` and
:class:`~ordonnance.shinobi.bots.Greedy`, so a simulated game replays through
``Game`` action for action.

A game is one int64 array, the *state record*, laid out by the offsets below
(``state[PROV + 5 * seat + clan]`` is an army's size, and so on); the troop
deck, top card first, follows the header. Hands are counts per card code:
the order of a hand does not matter to the rules. Bit masks and lane words
per seat (:data:`ARMIES`, :data:`HELD`, :data:`SIZES`, :data:`TARGETS`)
follow the provinces and hands as they change, so that the random bot and
the order skipping need not scan them, with the number of armies on the
table and, at order 3, each home army's number of attacks (:data:`TABLE_ARMIES`,
:data:`ATTACKS`); :func:`refresh` sets them for a record built from its other
fields. Every scratch array a decision needs lives in one ``work`` array of
:data:`WORK` entries. :func:`play_out` steps on a :func:`borrowed` view of the
record, which numba does not reference-count, and with a Random bot in every
seat runs :func:`_random_play_out`, a loop of :func:`random_step` alone.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from ordonnance.core.jit import borrowed, bounded, splitmix64, unsigned as _u

CLANS = 5
CODES = 6
NINJA = 5
SEATS = 5  # the largest table; offsets and action codes are laid out for it
HAND_SIZE = 4

# The state record's header.
N = 0  # players
CUR = 1  # the seat to act
ORDER = 2  # the next order of the turn, 1..3
OVER = 3  # 1 once the game is over
EXTRA = 4  # turns left in the final round, or -1 before it
OPTIONAL = 5  # 1 under attack="optional"
DECK_POS = 6  # index (from DECK) of the next card to draw
DECK_END = 7  # cards in the troop deck
TURNS = 8  # turns finished
CLAN = 9  # 5 entries: the clan cards in dealt order (seat s has CLAN + s)
HAND = CLAN + CLANS  # [seat][code]: cards held
HAND_LEN = HAND + SEATS * CODES  # [seat]: hand size
PROV = HAND_LEN + SEATS  # [seat][clan]: army size
CHANGED = PROV + SEATS * CLANS  # [seat]: bit c set if the army of clan c gained or lost a card this turn
DISCARD = CHANGED + SEATS  # [code]: cards discarded
ARMIES = DISCARD + CODES  # [seat]: bit c set while the province holds an army of clan c
HELD = ARMIES + SEATS  # [seat]: bit c set while the hand holds a samurai of clan c
SIZES = HELD + SEATS  # [seat]: the province's army sizes in lanes of LANE bits (lane c: clan c)
TARGETS = SIZES + SEATS  # [seat]: as SIZES, with _NO_TARGET in the lanes no attack may take (all five lanes of the seat to act and of the seats beyond the players)
TABLE_ARMIES = TARGETS + SEATS  # the number of armies on the table
ATTACKS = TABLE_ARMIES + 1  # at order 3: the number of legal attacks of each home army, in 8-bit lanes; else 0
DECK = ATTACKS + 1  # the troop deck, top card first
NOT_FINAL = -1

# Action codes (ordonnance.shinobi.actions lays them out the same way).
DEPLOY_BASE = 0
NINJA_BASE = DEPLOY_BASE + CLANS * SEATS
REINFORCE_BASE = NINJA_BASE + SEATS * CLANS
MOVE_BASE = REINFORCE_BASE + CLANS
ATTACK_BASE = MOVE_BASE + SEATS * CLANS * SEATS
PASS_CODE = ATTACK_BASE + CLANS * SEATS * CLANS
ACTION_COUNT = PASS_CODE + 1

# The work array: legal actions, Greedy's ties, the evaluation's small arrays.
LEGAL = 0
TIES = LEGAL + ACTION_COUNT
VALUES = TIES + ACTION_COUNT
WORDS = VALUES + ACTION_COUNT  # [seat]: the province's size word (as SIZES) after the action valued
REACH = WORDS + SEATS  # [seat]: its _reach word
BEYOND = REACH + SEATS  # [seat]: the lane by lane maximum of the reach words of the later provinces
VALUED = BEYOND + SEATS  # the actions Greedy has valued, a running count (MonteCarlo's work)
WORK = VALUED + 1

#: play_out's ``until_turn`` for a whole game.
ALL_TURNS = 1 << 40

#: Policy codes.
RANDOM = 0
GREEDY = 1

# Greedy's weights (ordonnance.shinobi.bots holds the same).
OWN_WEIGHT = 6
STRONGEST_WEIGHT = 3
OTHERS_WEIGHT = 1
HOME_WEIGHT = 2
WEAPON_WEIGHT = 1


def state_size(deck_size: int) -> int:
    """Entries of a state record for a troop deck of ``deck_size`` cards."""
    return DECK + deck_size


@numba.njit(cache=True)
def _shuffle(state: npt.NDArray[np.int64], start: int, length: int, rng: np.uint64) -> np.uint64:
    """Fisher-Yates on ``state[start:start + length]``, as ordonnance.core.rng.shuffle; the new rng."""
    for i in range(length - 1, 0, -1):
        rng, value = splitmix64(rng)
        j = bounded(value, i + 1)
        state[_u(start + i)], state[_u(start + j)] = state[_u(start + j)], state[_u(start + i)]
    return rng


@numba.njit(cache=True)
def deal(state: npt.NDArray[np.int64], n: int, troop: npt.NDArray[np.int64], optional: bool, seed: np.uint64) -> None:
    """Set ``state`` to the start of ``Game.new(rules, seed=seed)``; ``troop`` is
    ``rules.troop_deck`` (sorted codes)."""
    for c in range(CLANS):
        state[_u(CLAN + c)] = c
    rng = _shuffle(state, CLAN, CLANS, seed)
    for i in range(troop.shape[0]):
        state[_u(DECK + i)] = troop[_u(i)]
    _shuffle(state, DECK, troop.shape[0], rng)
    start(state, n, troop.shape[0], optional)


@numba.njit(cache=True)
def start(state: npt.NDArray[np.int64], n: int, deck_size: int, optional: bool) -> None:
    """Deal four cards each from the deck in ``state`` (clans already set) and
    settle seat 0's first turn."""
    state[N] = n
    state[CUR] = 0
    state[ORDER] = 1
    state[OVER] = 0
    state[EXTRA] = NOT_FINAL
    state[OPTIONAL] = 1 if optional else 0
    state[DECK_END] = deck_size
    state[TURNS] = 0
    for i in range(HAND, DECK):
        state[_u(i)] = 0
    pos = 0
    for _ in range(HAND_SIZE):
        for p in range(n):
            state[_u(HAND + CODES * p + state[_u(DECK + pos)])] += 1
            pos += 1
    for p in range(n):
        state[_u(HAND_LEN + p)] = HAND_SIZE
    state[DECK_POS] = pos
    refresh(state)
    _settle(state)


@numba.njit(cache=True)
def refresh(state: npt.NDArray[np.int64]) -> None:
    """Set :data:`ARMIES`, :data:`HELD`, :data:`SIZES`, :data:`TARGETS`, :data:`TABLE_ARMIES`
    and :data:`ATTACKS` from the provinces, hands, changed armies, the order and the seat to act."""
    state[TABLE_ARMIES] = 0
    for q in range(state[N]):
        state[_u(ARMIES + q)] = _mask(state, PROV + CLANS * q)
        state[_u(HELD + q)] = _mask(state, HAND + CODES * q)
        sizes, changed = 0, 0
        for c in range(CLANS):
            sizes |= state[_u(PROV + CLANS * q + c)] << (LANE * c)
            changed |= (_NO_TARGET << (LANE * c)) if state[_u(CHANGED + q)] >> c & 1 else 0
        state[_u(SIZES + q)] = sizes
        state[_u(TARGETS + q)] = _targets(sizes) | changed
        state[TABLE_ARMIES] += POPCOUNT[_u(state[_u(ARMIES + q)])]
    for q in range(state[N], SEATS):
        state[_u(TARGETS + q)] = _NO_TARGETS
    state[_u(TARGETS + state[CUR])] = _NO_TARGETS
    state[ATTACKS] = _attack_counts(state) if state[ORDER] == 3 and state[OVER] == 0 else 0


@numba.njit(cache=True)
def _targets(sizes: int) -> int:
    """``sizes`` with :data:`_NO_TARGET` in its empty lanes (no carry between lanes below :data:`_HIGH`)."""
    empty = ~(sizes + _NO_TARGET * _LANES) & _HIGHS
    return sizes | (empty >> (LANE - 1)) * _NO_TARGET


@numba.njit(cache=True)
def _mask(state: npt.NDArray[np.int64], at: int) -> int:
    """Bit ``c`` set where ``state[at + c] > 0``, for the five clans."""
    mask = 0
    for c in range(CLANS):
        mask |= (1 << c) if state[_u(at + c)] > 0 else 0
    return mask


@numba.njit(cache=True, inline="always")
def _has_legal(state: npt.NDArray[np.int64], order: int) -> bool:
    """Whether the current player has a legal choice for ``order`` (for order 3, setting :data:`ATTACKS`)."""
    p = state[CUR]
    if order == 3:
        counts = _attack_counts(state)
        state[ATTACKS] = counts
        return counts != 0
    if state[_u(HELD + p)] != 0:
        return True  # a deploy or a reinforce (there is always another province)
    if order == 1 and state[_u(HAND + CODES * p + NINJA)] == 0:
        return False
    return bool(state[TABLE_ARMIES] > POPCOUNT[_u(state[_u(ARMIES + p)])])  # a ninja target, or a card to move


@numba.njit(cache=True)
def _attack_code(a: int, q: int, b: int) -> int:
    """The code of the attack of the mover's army of clan ``a`` on province ``q``'s army of clan ``b``."""
    return ATTACK_BASE + CLANS * (SEATS * a + q) + b


@numba.njit(cache=True, inline="always")
def legal(state: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """Write the current player's legal action codes, ascending, into ``out``; their count."""
    p, n, order = state[CUR], state[N], state[ORDER]
    hand = HAND + CODES * p
    k = 0
    if order == 1:
        for c in range(CLANS):
            if state[_u(hand + c)] > 0:
                for q in range(n):
                    if q != p:
                        out[_u(k)] = DEPLOY_BASE + SEATS * c + q
                        k += 1
        if state[_u(hand + NINJA)] > 0:
            for q in range(n):
                if q != p:
                    for c in range(CLANS):
                        if state[_u(PROV + CLANS * q + c)] > 0:
                            out[_u(k)] = NINJA_BASE + CLANS * q + c
                            k += 1
    elif order == 2:
        for c in range(CLANS):
            if state[_u(hand + c)] > 0:
                out[_u(k)] = REINFORCE_BASE + c
                k += 1
        for f in range(n):
            if f != p:
                for c in range(CLANS):
                    if state[_u(PROV + CLANS * f + c)] > 0:
                        for t in range(n):
                            if t != f:
                                out[_u(k)] = MOVE_BASE + SEATS * (CLANS * f + c) + t
                                k += 1
    else:
        for a in range(CLANS):
            size = state[_u(PROV + CLANS * p + a)]
            if size > 1:
                for q in range(n):
                    if q != p:
                        for b in range(CLANS):
                            d = state[_u(PROV + CLANS * q + b)]
                            if b != a and d > 0 and size > d and state[_u(CHANGED + q)] >> b & 1 == 0:
                                out[_u(k)] = _attack_code(a, q, b)
                                k += 1
        if k > 0 and state[OPTIONAL] == 1:
            out[_u(k)] = PASS_CODE
            k += 1
    return k


@numba.njit(cache=True)
def _add(state: npt.NDArray[np.int64], q: int, c: int, delta: int) -> None:
    size = state[_u(PROV + CLANS * q + c)] + delta
    state[_u(PROV + CLANS * q + c)] = size
    state[_u(CHANGED + q)] |= 1 << c
    armies = state[_u(ARMIES + q)]
    state[_u(ARMIES + q)] = armies | (1 << c) if size > 0 else armies & ~(1 << c)
    state[TABLE_ARMIES] += (1 if size > 0 else 0) - (armies >> c & 1)
    state[_u(SIZES + q)] += delta << (LANE * c)
    state[_u(TARGETS + q)] |= _NO_TARGET << (LANE * c)  # changed this turn: not to be attacked


@numba.njit(cache=True)
def _play(state: npt.NDArray[np.int64], p: int, code: int) -> None:
    """Take a card of ``code`` from seat ``p``'s hand."""
    left = state[_u(HAND + CODES * p + code)] - 1
    state[_u(HAND + CODES * p + code)] = left
    state[_u(HAND_LEN + p)] -= 1
    state[_u(HELD + p)] &= ~((1 << code) & 31) if left == 0 else -1


@numba.njit(cache=True)
def _deploy(state: npt.NDArray[np.int64], p: int, c: int, q: int) -> None:
    _play(state, p, c)
    _add(state, q, c, 1)


@numba.njit(cache=True)
def _ninja(state: npt.NDArray[np.int64], p: int, q: int, c: int) -> None:
    _play(state, p, NINJA)
    state[DISCARD + NINJA] += 1
    _add(state, q, c, -1)
    state[_u(DISCARD + c)] += 1


@numba.njit(cache=True)
def _move(state: npt.NDArray[np.int64], f: int, c: int, t: int) -> None:
    _add(state, f, c, -1)
    _add(state, t, c, 1)


@numba.njit(cache=True)
def _strike(state: npt.NDArray[np.int64], q: int, b: int) -> None:
    """An attack on the army of clan ``b`` in province ``q``: it loses a card."""
    _add(state, q, b, -1)
    state[_u(DISCARD + b)] += 1


@numba.njit(cache=True, inline="always")
def _next_order(state: npt.NDArray[np.int64]) -> None:
    """After an order: on to the next one with a legal choice (see :func:`apply`)."""
    state[ORDER] += 1
    _settle(state)


@numba.njit(cache=True, inline="always")
def apply(state: npt.NDArray[np.int64], code: int) -> None:
    """Give the legal action ``code`` for the current player, then settle: skip orders
    without a choice, end turns (refill, final round) until a decision or the end."""
    p = state[CUR]
    if code < NINJA_BASE:
        _deploy(state, p, code // SEATS, code % SEATS)
    elif code < REINFORCE_BASE:
        _ninja(state, p, (code - NINJA_BASE) // CLANS, (code - NINJA_BASE) % CLANS)
    elif code < MOVE_BASE:
        _deploy(state, p, code - REINFORCE_BASE, p)
    elif code < ATTACK_BASE:
        rest, t = (code - MOVE_BASE) // SEATS, (code - MOVE_BASE) % SEATS
        _move(state, rest // CLANS, rest % CLANS, t)
    elif code < PASS_CODE:
        _strike(state, ((code - ATTACK_BASE) // CLANS) % SEATS, (code - ATTACK_BASE) % CLANS)
    _next_order(state)


@numba.njit(cache=True, inline="always")
def _settle(state: npt.NDArray[np.int64]) -> None:
    while True:
        while state[ORDER] <= 3:
            if _has_legal(state, state[ORDER]):
                return
            state[ORDER] += 1
        _end_turn(state)
        if state[OVER] == 1:
            return


@numba.njit(cache=True, inline="always")
def _end_turn(state: npt.NDArray[np.int64]) -> None:
    p, n = state[CUR], state[N]
    while state[_u(HAND_LEN + p)] < HAND_SIZE and state[DECK_POS] < state[DECK_END]:
        code = state[_u(DECK + state[DECK_POS])]
        state[_u(HAND + CODES * p + code)] += 1
        state[_u(HELD + p)] |= (1 << code) & 31
        state[_u(HAND_LEN + p)] += 1
        state[DECK_POS] += 1
    state[TURNS] += 1
    if state[EXTRA] != NOT_FINAL:
        state[EXTRA] -= 1
    elif state[DECK_POS] == state[DECK_END]:
        state[EXTRA] = n
    state[ATTACKS] = 0
    if state[EXTRA] == 0:
        state[OVER] = 1
        state[ORDER] = 3
    else:
        state[CUR] = p + 1 if p + 1 < n else 0
        state[ORDER] = 1
        for q in range(n):
            state[_u(CHANGED + q)] = 0
            state[_u(TARGETS + q)] = _targets(state[_u(SIZES + q)])
        state[_u(TARGETS + state[CUR])] = _NO_TARGETS  # the player's own province is no target


@numba.njit(cache=True, inline="always")
def evaluate(state: npt.NDArray[np.int64], seat: int, clan: int, work: npt.NDArray[np.int64]) -> int:
    """Greedy's value of the table in ``state``'s provinces for ``seat`` of ``clan``
    (ordonnance.shinobi.bots.evaluate), by :func:`_value`."""
    for q in range(state[N]):
        word = 0
        for c in range(CLANS):
            word |= state[_u(PROV + CLANS * q + c)] << (LANE * c)
        work[_u(WORDS + q)] = word
        work[_u(REACH + q)] = _reach(word)
    return _value(work, state[N], seat, clan)


@numba.njit(cache=True)
def _reach(word: int) -> int:
    """Lane ``c``: the largest army of a clan other than ``c`` in the province of size word ``word``
    (the largest army everywhere but in its own lane, which holds the second largest)."""
    best, second, at = 0, 0, 0
    for c in range(CLANS):
        size = (word >> (LANE * c)) & _LANE_MASK
        second = max(second, min(best, size))
        at = c if size > best else at
        best = max(best, size)
    return int(best * _LANES - ((best - second) << (LANE * at)))


@numba.njit(cache=True)
def _lane_max(x: int, y: int) -> int:
    """The larger of ``x`` and ``y`` in each lane (lanes below :data:`_HIGH`)."""
    keep = ((((x | _HIGHS) - y) & _HIGHS) >> (LANE - 1)) * _LANE_MASK  # the lanes where x >= y
    return (x & keep) | (y & ~keep)


@numba.njit(cache=True, inline="always")
def _value(work: npt.NDArray[np.int64], n: int, seat: int, clan: int) -> int:
    """Greedy's value of the table whose size words are ``work[WORDS:]``, with their
    :func:`_reach` words in ``work[REACH:]``, for ``seat`` of ``clan``.

    The army of clan ``c`` in province ``q`` is threatened when lane ``c`` of the
    reach words of the other provinces exceeds its size somewhere: their lane by
    lane maximum, before ``q`` (running) and after it (``work[BEYOND + q]``),
    compared with the province's size word in all five lanes at once. The
    clans' strengths then come out of one word, two per card less the
    threatened armies."""
    beyond = 0
    for q in range(n - 1, -1, -1):
        work[_u(BEYOND + q)] = beyond
        beyond = _lane_max(beyond, work[_u(REACH + q)])
    before, totals, threatened = 0, 0, 0
    for q in range(n):
        word = work[_u(WORDS + q)]
        threat = _lane_max(before, work[_u(BEYOND + q)])
        armies = ((word | _HIGHS) - _LANES) & _HIGHS  # the lanes of size 1 and more
        outnumbered = ((threat | _HIGHS) - word - _LANES) & _HIGHS  # the lanes where threat > size
        threatened += (armies & outnumbered) >> (LANE - 1)
        totals += word
        before = _lane_max(before, work[_u(REACH + q)])
    strengths = 2 * totals - threatened
    own = (strengths >> (LANE * clan)) & _LANE_MASK
    home = work[_u(WORDS + seat)]
    strongest, others, weapon = 0, -own, 0
    for c in range(CLANS):
        strength = (strengths >> (LANE * c)) & _LANE_MASK
        others += strength
        strongest = max(strongest, strength) if c != clan else strongest
        weapon = max(weapon, (home >> (LANE * c)) & _LANE_MASK)
    value = (OWN_WEIGHT * own - STRONGEST_WEIGHT * strongest - OTHERS_WEIGHT * others
             + HOME_WEIGHT * ((home >> (LANE * clan)) & _LANE_MASK) + WEAPON_WEIGHT * weapon)  # fmt: skip
    return int(value)


@numba.njit(cache=True, inline="always")
def _changes(p: int, code: int) -> tuple[int, int, int, int, int]:
    """What ``code`` does to the armies' sizes: ``(f, t, c, df, dt)``, the army of clan ``c``
    changes by ``df`` in province ``f`` and by ``dt`` in ``t`` (``dt`` is 0 but for a move)."""
    if code < NINJA_BASE:
        return code % SEATS, code % SEATS, code // SEATS, 1, 0
    if code < REINFORCE_BASE:
        q = (code - NINJA_BASE) // CLANS
        return q, q, (code - NINJA_BASE) % CLANS, -1, 0
    if code < MOVE_BASE:
        return p, p, code - REINFORCE_BASE, 1, 0
    if code < ATTACK_BASE:
        rest, t = (code - MOVE_BASE) // SEATS, (code - MOVE_BASE) % SEATS
        return rest // CLANS, t, rest % CLANS, -1, 1
    if code < PASS_CODE:
        q = ((code - ATTACK_BASE) // CLANS) % SEATS
        return q, q, (code - ATTACK_BASE) % CLANS, -1, 0
    return p, p, 0, 0, 0


@numba.njit(cache=True, inline="always")
def values(state: npt.NDArray[np.int64], codes: npt.NDArray[np.int64], count: int,
           work: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    """``out[i]``: Greedy's value of the table after the current player gives ``codes[i]``:
    the :data:`SIZES` words with the one or two changed lanes, their reach words
    recomputed for the changed provinces only."""
    p, n = state[CUR], state[N]
    clan = state[_u(CLAN + p)]
    for q in range(n):
        work[_u(WORDS + q)] = state[_u(SIZES + q)]
        work[_u(REACH + q)] = _reach(state[_u(SIZES + q)])
    for i in range(count):
        f, t, c, df, dt = _changes(p, codes[_u(i)])
        from_word, to_word = work[_u(WORDS + f)], work[_u(WORDS + t)]
        from_reach, to_reach = work[_u(REACH + f)], work[_u(REACH + t)]
        work[_u(WORDS + f)] = from_word + (df << (LANE * c))
        work[_u(WORDS + t)] += dt << (LANE * c)
        work[_u(REACH + f)] = _reach(work[_u(WORDS + f)])
        work[_u(REACH + t)] = _reach(work[_u(WORDS + t)])
        out[_u(i)] = _value(work, n, p, clan)
        work[_u(WORDS + t)], work[_u(REACH + t)] = to_word, to_reach
        work[_u(WORDS + f)], work[_u(REACH + f)] = from_word, from_reach


@numba.njit(cache=True, inline="always")
def greedy(state: npt.NDArray[np.int64], count: int, rng: np.uint64, work: npt.NDArray[np.int64]) -> tuple[int, np.uint64]:
    """Greedy's choice among the ``count`` legal codes in ``work[LEGAL:]``, adding ``count``
    to ``work[VALUED]``; (code, new rng)."""
    values(state, work[LEGAL:], count, work, work[VALUES:])
    work[VALUED] += count
    best, ties = 0, 0
    for i in range(count):
        value = work[_u(VALUES + i)]
        if ties == 0 or value > best:
            best, ties = value, 1
            work[TIES] = work[_u(LEGAL + i)]
        elif value == best:
            work[_u(TIES + ties)] = work[_u(LEGAL + i)]
            ties += 1
    rng, draw = splitmix64(rng)
    return work[_u(TIES + bounded(draw, ties))], rng


@numba.njit(cache=True)
def _nth_other(j: int, p: int) -> int:
    """The ``j``-th seat other than ``p``, in seat order."""
    return j if j < p else j + 1


def _bit_tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Set bits of the 5-bit masks: their count, and ``SELECT[CLANS * mask + k]``, the k-th lowest."""
    count = np.zeros(1 << CLANS, np.int64)
    select = np.zeros(CLANS << CLANS, np.int64)
    for mask in range(1 << CLANS):
        bits = [c for c in range(CLANS) if mask >> c & 1]
        count[mask] = len(bits)
        select[CLANS * mask : CLANS * mask + len(bits)] = bits
    return count, select


POPCOUNT, SELECT = _bit_tables()


# Five 12-bit lanes, one per clan, in an int64, for comparing a province's armies at once: a
# lane holds an army's size in 11 bits (Rules allow at most 500 cards) under a spare top bit.
LANE = 12
_LANES = sum(1 << (LANE * c) for c in range(CLANS))  # 1 in every lane
_HIGH = 1 << (LANE - 1)
_HIGHS = _HIGH * _LANES
_NO_TARGET = _HIGH - 1  # a lane no army size reaches
_LANE_MASK = (1 << LANE) - 1
_NO_TARGETS = _NO_TARGET * _LANES  # no lane a target

# Five 8-bit lanes for the attack counts of ATTACKS (each at most 16, their sum at most 80).
_BYTES = 0x0101010101  # 1 in every lane
_BYTE_LANES = 0xFFFFFFFFFF
_BYTE_HIGHS = 0x80 * _BYTES


@numba.njit(cache=True)
def _below(word: int, size: int) -> int:
    """A 1 at the bottom of each lane of ``word`` below ``size``, for lanes and ``size`` of 1 and
    more (and below :data:`_HIGH`, so that the subtraction borrows from no other lane)."""
    return (((((size - 1) * _LANES) | _HIGHS) - word) & _HIGHS) >> (LANE - 1)


@numba.njit(cache=True)
def _gather(bits: int) -> int:
    """The lanes' bottom bits of ``bits`` gathered to a 5-bit mask (lane c to bit c)."""
    return (bits | bits >> (LANE - 1) | bits >> 2 * (LANE - 1) | bits >> 3 * (LANE - 1) | bits >> 4 * (LANE - 1)) & 31


@numba.njit(cache=True, inline="always")
def _attacks_by(state: npt.NDArray[np.int64], p: int, n: int, a: int) -> int:
    """The number of legal attacks of seat ``p``'s army of clan ``a``.

    An army of size ``s`` may attack the armies of other clans in the lanes of
    ``TARGETS`` below ``s`` (empty and changed armies read :data:`_NO_TARGET`):
    the lanes' hits over the other provinces add up lane by lane (at most 4 each),
    lane ``a`` is cleared, and one multiplication sums the lanes into the top one."""
    size = state[_u(PROV + CLANS * p + a)]
    if size < 2:
        return 0
    hits = 0
    for q in range(SEATS):  # the player's own province and the seats beyond the players hold no target:
        hits += _below(state[_u(TARGETS + q)], size)  # five seats without a test, unrolled
    hits &= ~(_LANE_MASK << (LANE * a))
    # int(): compiled, the product wraps at 64 bits, which keeps the top lane exact;
    # without the JIT, a Python int neither wraps nor warns as a NumPy scalar would.
    return int(((int(hits) * _LANES) >> (LANE * (CLANS - 1))) & _LANE_MASK)


@numba.njit(cache=True, inline="always")
def _attack_counts(state: npt.NDArray[np.int64]) -> int:
    """The number of legal attacks of each of the current player's armies, clan ``a``'s in
    bits ``8a`` up (at most 16 each: four other provinces, four other clans)."""
    p, n = state[CUR], state[N]
    counts = 0
    for a in range(CLANS):
        counts |= _attacks_by(state, p, n, a) << (8 * a)
    return counts


@numba.njit(cache=True, inline="always")
def _nth_target(state: npt.NDArray[np.int64], p: int, n: int, a: int, i: int) -> tuple[int, int]:
    """``(q, b)``: the army of clan ``b`` in province ``q`` that the ``i``-th legal attack of seat
    ``p``'s army of clan ``a`` strikes (``i`` below their number)."""
    size = state[_u(PROV + CLANS * p + a)]
    province, clan = 0, 0
    for q in range(n):
        mask = _gather(_below(state[_u(TARGETS + q)], size)) & ~(1 << a) if q != p else 0
        k = POPCOUNT[_u(mask)]
        take = _within(i, k)
        province |= q & take
        clan |= SELECT[_u(CLANS * mask + (i & 3))] & take  # i & 3: in the table; exact below k <= 4
        i -= k
    return province, clan


@numba.njit(cache=True, inline="always")
def _nth_attack(state: npt.NDArray[np.int64], p: int, n: int, a: int, i: int) -> int:
    """The ``i``-th legal attack code of seat ``p``'s army of clan ``a`` (``i`` below their number)."""
    q, b = _nth_target(state, p, n, a, i)
    return int(_attack_code(a, q, b))


# 2**16 / d rounded up, for d = 1..4: multiplying by it and shifting divides exactly below 2**12
_RECIPROCALS = np.array([0, 1 << 16, 1 << 15, 21_846, 1 << 14], np.int64)


@numba.njit(cache=True)
def _divmod_small(i: int, d: int) -> tuple[int, int]:
    """``divmod(i, d)`` for ``0 <= i < 4096`` and ``1 <= d <= 4`` without a division instruction."""
    q = (i * _RECIPROCALS[_u(d)]) >> 16
    return q, i - q * d


@numba.njit(cache=True)
def _within(i: int, k: int) -> int:
    """All ones if ``0 <= i < k``, else 0: a choice among a few random ones made without a branch,
    which the processor would mispredict about as often as it took it."""
    return -int((i >= 0) & (i < k))


@numba.njit(cache=True, inline="always")
def random_step(state: npt.NDArray[np.int64], rng: np.uint64) -> tuple[int, np.uint64]:
    """Random's decision, given: ``apply(legal()[bounded(draw, count)])`` for one draw,
    worked out from masks of the clans in hand and in each province without listing
    the actions (deploys, ninjas, reinforcements and moves come in a regular grid)
    and applied without encoding and decoding it; (its code, the new rng)."""
    p, n, order = state[CUR], state[N], state[ORDER]
    rng, draw = splitmix64(rng)
    if order == 3:
        # lane a of sums: the attacks of the armies of clans 0..a (int(): as in _attacks_by)
        sums = (int(state[ATTACKS]) * _BYTES) & _BYTE_LANES
        count = sums >> (8 * (CLANS - 1))
        i = int(np.int64(bounded(draw, count + (1 if state[OPTIONAL] == 1 else 0))))  # typed for numba's unification
        code = PASS_CODE
        if i < count:
            # the attacking clan: the number of lanes of sums not above i (they rise lane by lane)
            above = ((sums | _BYTE_HIGHS) - (i + 1) * _BYTES) & _BYTE_HIGHS
            a = CLANS - (((above >> 7) * _BYTES >> (8 * (CLANS - 1))) & 7)
            q, b = _nth_target(state, p, n, a, i - ((sums << 8) >> (8 * a) & 255))
            code = _attack_code(a, q, b)
            _strike(state, q, b)
    else:
        held = state[_u(HELD + p)]
        armies = state[TABLE_ARMIES] - POPCOUNT[_u(state[_u(ARMIES + p)])]  # in the other provinces
        others = n - 1
        singles = POPCOUNT[_u(held)] * (others if order == 1 else 1)  # deploys, or reinforcements
        if order == 1:
            count = singles + (armies if state[_u(HAND + CODES * p + NINJA)] > 0 else 0)
        else:
            count = singles + armies * others
        i = int(np.int64(bounded(draw, count)))  # signed: numba compares uint64 with int64 as floats
        if i < singles:
            if order == 2:
                c = SELECT[_u(CLANS * held + i)]
                code = REINFORCE_BASE + c
                _deploy(state, p, c, p)
            else:
                which, nth = _divmod_small(i, others)
                c, q = SELECT[_u(CLANS * held + which)], _nth_other(nth, p)
                code = DEPLOY_BASE + SEATS * c + q
                _deploy(state, p, c, q)
        else:
            t = i - singles
            quotient, rest = _divmod_small(t, others)
            army = t if order == 1 else quotient  # the army-th army of the other provinces
            source, clan = 0, 0
            for q in range(n):
                mask = state[_u(ARMIES + q)] if q != p else 0
                k = POPCOUNT[_u(mask)]
                take = _within(army, k)
                source |= q & take
                clan |= SELECT[_u(CLANS * mask + min(army & 7, CLANS - 1))] & take  # exact below k <= 5
                army -= k
            if order == 1:
                code = NINJA_BASE + CLANS * source + clan
                _ninja(state, p, source, clan)
            else:
                to = _nth_other(rest, source)
                code = MOVE_BASE + SEATS * (CLANS * source + clan) + to
                _move(state, source, clan, to)
    _next_order(state)
    return code, rng


@numba.njit(cache=True, inline="always")
def step(state: npt.NDArray[np.int64], policy: int, rng: np.uint64, work: npt.NDArray[np.int64]) -> tuple[int, np.uint64]:
    """The current player's decision under ``policy`` (RANDOM or GREEDY), given; (its code, new rng)."""
    if policy == RANDOM:
        return random_step(state, rng)
    count = legal(state, work[LEGAL:])
    code, rng = greedy(state, count, rng, work)
    apply(state, code)
    return code, rng


@numba.njit(cache=True)
def play_out(
    state: npt.NDArray[np.int64],
    policies: npt.NDArray[np.int64],
    rngs: npt.NDArray[np.uint64],
    work: npt.NDArray[np.int64],
    record: npt.NDArray[np.int64],
    until_turn: int,
) -> int:
    """Play the game in ``state`` to its end (or until ``until_turn`` turns are finished),
    seat ``p`` by ``policies[p]`` drawing from ``rngs[p]``; the codes go into ``record``
    while it has room. Returns the decisions made."""
    randoms = 0
    for p in range(state[N]):
        randoms += 1 if policies[_u(p)] == RANDOM else 0
    if randoms == state[N]:
        return _random_play_out(state, rngs, record, until_turn)
    steps = 0
    state = borrowed(state)
    work = borrowed(work)
    while state[OVER] == 0 and state[TURNS] < until_turn:
        p = state[CUR]
        code, rngs[_u(p)] = step(state, policies[_u(p)], rngs[_u(p)], work)
        if steps < record.shape[0]:
            record[_u(steps)] = code
        steps += 1
    return steps


@numba.njit(cache=True)
def _random_play_out(state: npt.NDArray[np.int64], rngs: npt.NDArray[np.uint64], record: npt.NDArray[np.int64],
                     until_turn: int) -> int:
    """:func:`play_out` with a Random bot in every seat: a loop of :func:`random_step` alone,
    which compiles to far less code than one that can also take Greedy's steps."""
    steps = 0
    state = borrowed(state)
    while state[OVER] == 0 and state[TURNS] < until_turn:
        p = state[CUR]
        code, rngs[_u(p)] = random_step(state, rngs[_u(p)])
        if steps < record.shape[0]:
            record[_u(steps)] = code
        steps += 1
    return steps


@numba.njit(cache=True)
def score(state: npt.NDArray[np.int64], seat: int) -> int:
    """The cards of ``seat``'s clan over all provinces."""
    total = 0
    clan = state[_u(CLAN + seat)]
    for q in range(state[N]):
        total += state[_u(PROV + CLANS * q + clan)]
    return total


@numba.njit(cache=True)
def winners(state: npt.NDArray[np.int64]) -> int:
    """The winning seats of a finished game as a bit mask (bit ``p`` for seat ``p``)."""
    n = state[N]
    top, home = -1, -1
    mask = 0
    for p in range(n):
        s = score(state, p)
        h = state[_u(PROV + CLANS * p + state[_u(CLAN + p)])]
        if s > top or (s == top and h > home):
            top, home, mask = s, h, 1 << p
        elif s == top and h == home:
            mask |= 1 << p
    return mask


class Results(NamedTuple):
    """The arrays :func:`simulate` fills, one row per game: those of
    :class:`ordonnance.shinobi.SimulationResult` of the same names."""

    winners: npt.NDArray[np.bool_]  # [game, seat]: the seat is among the winners
    winner: npt.NDArray[np.int8]  # the seat that won alone, or -1
    scores: npt.NDArray[np.int16]  # [game, seat]: the cards of the seat's clan on the table
    totals: npt.NDArray[np.int16]  # [game, clan]: the clan's cards on the table
    clans: npt.NDArray[np.int8]  # [game, i]: the clan cards in dealt order
    turns: npt.NDArray[np.int16]  # turns the game lasted
    decisions: npt.NDArray[np.int16]  # actions the seats chose
    actions: npt.NDArray[np.int16]  # [game, i]: the i-th action's code, while the row has room


@numba.njit(cache=True)
def simulate(
    n: int,
    troop: npt.NDArray[np.int64],
    optional: bool,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    policies: npt.NDArray[np.int64],
    out: Results,
) -> None:
    """Play ``len(seeds)`` games straight into ``out``: row ``g`` gets game ``g``'s results,
    and its action codes go into ``out.actions[g]`` while it has room."""
    won, sole, scores, totals, clans, turns, decisions, actions = out  # once: each use of a field counts a reference
    state = np.zeros(DECK + troop.shape[0], np.int64)
    work = np.zeros(WORK, np.int64)
    rngs = np.zeros(n, np.uint64)
    record = np.zeros(actions.shape[1], np.int64)
    for g in range(seeds.shape[0]):
        deal(state, n, troop, optional, seeds[g])
        for p in range(n):
            rngs[_u(p)] = bot_seeds[g, p]
        steps = play_out(state, policies, rngs, work, record, ALL_TURNS)
        decisions[g] = steps
        for i in range(min(steps, record.shape[0])):
            actions[g, i] = record[_u(i)]
        mask = winners(state)
        sole[g] = -1
        for p in range(n):
            won[g, p] = mask >> p & 1 == 1
            sole[g] = p if mask == 1 << p else sole[g]
            scores[g, p] = score(state, p)
        turns[g] = state[TURNS]
        for c in range(CLANS):
            total = 0
            for q in range(n):
                total += state[_u(PROV + CLANS * q + c)]
            totals[g, c] = total
            clans[g, c] = state[_u(CLAN + c)]
