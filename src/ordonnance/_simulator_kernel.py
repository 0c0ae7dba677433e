"""Private numba kernel: whole games for many seeds at once.

This is a twin of :class:`ordonnance.game.Game` driven by the built-in bots'
twins (:class:`ordonnance.bots.Random` and :class:`ordonnance.bots.Greedy`).
It follows the engine step for step: the same shuffle (SplitMix64 with
multiply-shift), the same deal, draw, turn order, resolution, claims and
markers, and the bots enumerate legal plays in the engine's order and draw
from the same generator, so a simulated game and the same game played
through ``Game`` with the Python bots are identical action for action. The
tests check exactly that. :func:`simulate` runs any line-up on the general
:func:`play_out`; :func:`simulate_random` is the short road for Random bots
without automatic claims, held to :func:`simulate` game by game.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from ordonnance._army_kernel import key4
from ordonnance._completion_kernel import WORK, beats_into

TERRITORIES = 4 + 1
ARMY = 4
HAND_SIZE = 5
MAX_HAND = HAND_SIZE + 1  # a hand never holds more: a draw is always followed by a play
MAX_ACTIONS = 96
# play_out's scratch: unseen counts 0-31, open territories 32-35, Greedy's ties
# 36-115, claimants in completion order 116-119, army keys 120-139, then the
# claim witnesses and the completion search's working memory.
WITNESSES = 140
SEARCH = WITNESSES + TERRITORIES * 4 * 4
SCRATCH = SEARCH + WORK
NOT_COMPLETE = -1
NOBODY = -1

#: Policy codes.
RANDOM = 0
GREEDY = 1

#: Scoring codes.
TERRITORIES_SCORING = 0
POINTS_SCORING = 1
#: Tie-break codes.
LATEST_CAPTURE = 0
LOWEST_MARKER_SUM = 1

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

# Hands and armies are words of 8-bit lanes, one card mask per lane, lane 0
# first (an army word is the layout ordonnance._army_kernel.keys_from_words reads).
_LOW7 = 0x7F7F7F7F7F7F7F7F
_HIGH = -0x7F7F7F7F7F7F7F80  # 0x8080808080808080 as an int64: the top bit of every lane
_GATHER = 0x0102040810204080  # moves bit 8i to bit 56 + i
_ONES = 0x0101010101010101  # times a card: the card in every lane
#: _NTH_BIT[bits * 8 + k]: the position of the k-th set bit of ``bits`` (8 bits).
_NTH_BIT = np.zeros(256 * 8, np.int64)
#: _BIT_COUNT[bits]: the set bits of ``bits`` (8 bits).
_BIT_COUNT = np.zeros(256, np.int64)
for _bits in range(256):
    _positions = [i for i in range(8) if _bits >> i & 1]
    _BIT_COUNT[_bits] = len(_positions)
    _NTH_BIT[_bits * 8 : _bits * 8 + len(_positions)] = _positions
del _bits, _positions


@numba.njit(cache=True, inline="always")
def splitmix64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Advance the state; returns (state, output). Same as ordonnance._rng."""
    state = state + _GAMMA
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@numba.njit(cache=True, inline="always")
def bounded(value: np.uint64, n: int) -> int:
    """``value`` mapped to 0..n-1 by multiply-shift, as ordonnance._rng.bounded."""
    return int(((value >> _S32) * np.uint64(n)) >> _S32)


@numba.njit(cache=True, inline="always")
def lane(word: int, i: int) -> int:
    """The card in lane ``i`` of a hand or army word."""
    return (word >> (8 * i)) & 255


@numba.njit(cache=True)
def pack(masks: npt.NDArray[np.int64]) -> int:
    """The word holding ``masks`` in order (at most 8)."""
    word = 0
    for i in range(masks.shape[0]):
        word |= masks[i] << (8 * i)
    return word


@numba.njit(cache=True, inline="always")
def _without_lane(word: int, i: int) -> int:
    """The word with lane ``i`` taken out and the lanes above it moved down."""
    below = (1 << (8 * i)) - 1
    return (word & below) | ((word >> 8) & ~below)


@numba.njit(cache=True, inline="always")
def _first_copies(hand: int, length: int) -> int:
    """Bit i set when lane i of the hand holds the first copy of its card.

    Lane by lane and branch-free: lane i is a later copy when it equals lane
    i - s for some shift s; (x & 0x7F) + 0x7F | x has the top bit set exactly
    in the lanes of x that are not zero.
    """
    repeats = 0
    for s in range(1, MAX_HAND):
        x = hand ^ (hand << (8 * s))
        repeats |= ~((((x & _LOW7) + _LOW7) | x))
    firsts = _HIGH & ~repeats & ((1 << (8 * length)) - 1)
    return (((firsts >> 7) * _GATHER) >> 56) & 255


@numba.njit(cache=True, inline="always")
def _lanes_holding(word: int, length: int, card: int) -> int:
    """Bit i set when lane i < length of ``word`` holds ``card`` (not 0)."""
    x = word ^ (card * _ONES)
    zero = ~((((x & _LOW7) + _LOW7) | x)) & _HIGH & ((1 << (8 * length)) - 1)
    return (((zero >> 7) * _GATHER) >> 56) & 255


@numba.njit(cache=True, inline="always")
def _draw(hand: int, length: int, firsts: int, card: int) -> tuple[int, int, int]:
    """``card`` (0: nothing) added to a hand of ``length`` cards whose first copies
    are ``firsts`` (as :func:`_first_copies`); returns all three updated. The
    card is a first copy unless the hand already holds it."""
    drawn = 1 if card != 0 else 0
    new = 1 if _lanes_holding(hand, length, card) == 0 else 0
    return hand | (card << (8 * length)), length + drawn, firsts | ((new & drawn) << length)


@numba.njit(cache=True, inline="always")
def _take(hand: int, length: int, firsts: int, i: int) -> tuple[int, int, int]:
    """Lane ``i``, a first copy, taken out of the hand; returns the hand, its length
    and its first copies updated: the next copy of that card, if any, becomes the first."""
    card = lane(hand, i)
    hand = _without_lane(hand, i)
    below = (1 << i) - 1
    firsts = (firsts & below) | ((firsts >> 1) & ~below)
    later = _lanes_holding(hand, length - 1, card)
    return hand, length - 1, firsts | (later & -later)


@numba.njit(cache=True, inline="always")
def _ahead(key: int, done: int, other_key: int, other_done: int) -> bool:
    """Whether an army (key, completed at play ``done``) ranks above another in a
    territory: stronger, or as strong and completed first. No branches."""
    return bool((key > other_key) | ((key == other_key) & (done < other_done)))


@numba.njit(cache=True, inline="always")
def _word_key(word: int) -> int:
    """The key of the army in an army word."""
    return key4(word & 255, (word >> 8) & 255, (word >> 16) & 255, (word >> 24) & 255)


@numba.njit(cache=True, inline="always")
def _army_key(army: npt.NDArray[np.int64], t: int, p: int) -> int:
    return _word_key(army[t, p])


@numba.njit(cache=True, inline="always")
def _witness_holds(witness: int, army: int, length: int, pool: npt.NDArray[np.int64]) -> bool:
    """Whether an opponent with the army word ``army`` (``length`` cards) can still
    reach the army word ``witness`` found earlier: its cards are part of it and
    the rest is still in the pool."""
    rest = witness
    for i in range(length):
        hits = _lanes_holding(rest, ARMY, lane(army, i))
        if hits == 0:
            return False
        rest &= ~(255 << (8 * _NTH_BIT[hits * 8]))
    for j in range(ARMY):
        m = lane(rest, j)
        if m != 0 and pool[m] < _BIT_COUNT[_lanes_holding(rest, ARMY, m)]:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _beaten_by(
    t: int,
    p: int,
    n: int,
    army: npt.NDArray[np.int64],
    army_len: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    pool: npt.NDArray[np.int64],
    witnesses: npt.NDArray[np.int64],
    search: npt.NDArray[np.int64],
) -> bool:
    """Whether some opponent could still win territory t against p's complete army.

    ``witnesses[t, p, q]`` remembers, as an army word, an army q was last
    shown able to reach (0 when none): while q can still reach it, no search
    is needed. The pool only shrinks and armies only grow, so a witness that
    still holds is still a witness. ``search`` is the completion search's
    working memory.
    """
    mine = _army_key(army, t, p)
    mine_done = completed[t, p]
    for q in range(n):
        if q == p:
            continue
        done = completed[t, q]
        if done != NOT_COMPLETE:
            theirs = _army_key(army, t, q)
            if _ahead(theirs, done, mine, mine_done):
                return True
            continue
        w = army[t, q]
        length = army_len[t, q]
        if witnesses[t, p, q] != 0 and _witness_holds(witnesses[t, p, q], w, length, pool):
            return True
        packed = beats_into(w & 255, (w >> 8) & 255, (w >> 16) & 255, (w >> 24) & 255, pool, mine + 1, search)
        if packed >= 0:
            for i in range(ARMY - length):
                w |= ((packed >> (5 * i)) & 31) << (8 * (length + i))
            witnesses[t, p, q] = w
            return True
        witnesses[t, p, q] = 0
    return False


@numba.njit(cache=True)
def _provable(
    t: int,
    p: int,
    n: int,
    army: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    hidden: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    hand_len: npt.NDArray[np.int64],
    private: bool,
    pool: npt.NDArray[np.int64],
    army_len: npt.NDArray[np.int64],
    witnesses: npt.NDArray[np.int64],
    search: npt.NDArray[np.int64],
) -> bool:
    """Whether p can claim t: p's army there is complete and no opponent can beat it
    with the cards not on the table (less p's own hand with private proof)."""
    if owner[t] != NOBODY or completed[t, p] == NOT_COMPLETE:
        return False
    unseen = hidden
    if private:
        pool[:] = hidden
        for i in range(hand_len[p]):
            pool[lane(hand[p], i)] -= 1
        unseen = pool
    return not _beaten_by(t, p, n, army, army_len, completed, unseen, witnesses, search)


@numba.njit(cache=True, inline="always")
def _first_ranked(t: int, n: int, keys: npt.NDArray[np.int64], completed: npt.NDArray[np.int64]) -> int:
    """The seat ranked first in territory t: strongest army, ties to the first completed.

    ``keys[t, p]`` is seat p's army key there.
    """
    best = 0
    for p in range(1, n):
        best = p if _ahead(keys[t, p], completed[t, p], keys[t, best], completed[t, best]) else best
    return best


@numba.njit(cache=True)
def keys_of(n: int, army: npt.NDArray[np.int64], keys: npt.NDArray[np.int64]) -> None:
    """``keys[t, p]``: the key of every army."""
    for t in range(TERRITORIES):
        for p in range(n):
            keys[t, p] = _army_key(army, t, p)


@numba.njit(cache=True, inline="always")
def _ranked_first_at(t: int, n: int, army: npt.NDArray[np.int64], completed: npt.NDArray[np.int64], keys: npt.NDArray[np.int64]) -> int:
    """:func:`_first_ranked` in territory t; ``keys`` is working space shaped as ``army``."""
    for p in range(n):
        keys[t, p] = _army_key(army, t, p)
    return _first_ranked(t, n, keys, completed)


@numba.njit(cache=True, inline="always")
def _decide(t: int, p: int, decided: int, owner: npt.NDArray[np.int64], marker: npt.NDArray[np.int64], open_ts: npt.NDArray[np.int64]) -> int:
    """Territory t goes to p with the next marker; returns the territories decided."""
    owner[t] = p
    decided += 1
    marker[t] = decided
    for q in range(open_ts.shape[0]):
        open_ts[q] &= ~(1 << t)
    return decided


@numba.njit(cache=True)
def play_out(
    n: int,
    order: npt.NDArray[np.int64],
    scalars: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    hand_len: npt.NDArray[np.int64],
    army: npt.NDArray[np.int64],
    army_len: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    marker: npt.NDArray[np.int64],
    hidden: npt.NDArray[np.int64],
    rng: npt.NDArray[np.uint64],
    policies: npt.NDArray[np.int64],
    claims_allowed: bool,
    auto_claim: bool,
    private: bool,
    forced_mask: int,
    forced_t: int,
    out_actions: npt.NDArray[np.int64],
    record: bool,
    scratch: npt.NDArray[np.int64],
) -> int:
    """Play the position held in the arrays to its end (Game's rules, the bots' twins).

    ``hand[p]`` and ``army[t, p]`` are words of card lanes (see :func:`pack`).
    ``scalars`` holds (next deck index, plays, decided territories, current
    seat, whether the turn must first be handed on). With ``forced_t >= 0``
    the first decision is forced: a play of ``forced_mask`` into ``forced_t``,
    or a claim of ``forced_t`` when ``forced_mask`` is 0. Returns the number
    of actions taken; they are recorded as (seat, mask or 0 for a claim, territory).
    ``scratch`` is working memory of at least SCRATCH entries.
    """
    ncards = order.shape[0]
    pool = scratch[0:32]
    open_ts = scratch[32 : 32 + n]  # bit t of open_ts[p]: p may still play into t
    best_lanes = scratch[36:76]
    best_ts = scratch[76:116]
    by_completion = scratch[116:120]
    keys_here = scratch[120:140].reshape((TERRITORIES, 4))
    witnesses = scratch[WITNESSES:SEARCH].reshape((TERRITORIES, 4, 4))
    search = scratch[SEARCH:SCRATCH]
    if claims_allowed:
        for t in range(TERRITORIES):
            for p in range(n):
                for q in range(n):
                    witnesses[t, p, q] = 0
    contested = 0  # bit t: t may be undecided with a complete army there (auto-claims look only there)
    for p in range(n):
        open_ts[p] = 0
        for t in range(TERRITORIES):
            if owner[t] == NOBODY and army_len[t, p] < ARMY:
                open_ts[p] |= 1 << t
            if completed[t, p] != NOT_COMPLETE:
                contested |= 1 << t
    top = scalars[0]
    plays = scalars[1]
    decided = scalars[2]
    current = scalars[3]
    need_advance = scalars[4] != 0
    explicit_claims = claims_allowed and (not auto_claim or private)
    forced_t_value = forced_t
    actions = 0
    over = decided == TERRITORIES
    while True:
        if need_advance:
            # --- hand the turn on (Game._advance)
            found = False
            for offset in range(1, n + 1):
                p = current + offset
                if p >= n:
                    p -= n
                if open_ts[p] != 0:
                    if top < ncards:
                        hand[p] |= order[top] << (8 * hand_len[p])
                        hand_len[p] += 1
                        top += 1
                    if hand_len[p] > 0:
                        current = p
                        found = True
                        break
                if explicit_claims:
                    can = False
                    for t in range(TERRITORIES):
                        if _provable(t, p, n, army, completed, owner, hidden, hand, hand_len, private, pool, army_len, witnesses, search):
                            can = True
                            break
                    if can:
                        current = p
                        found = True
                        break
            if not found:
                over = True
            need_advance = False
        if over:
            break

        p = current
        # --- legal plays, in the engine's order: distinct cards in hand order x open territories
        h = hand[p]
        firsts = _first_copies(h, hand_len[p])
        n_distinct = _BIT_COUNT[firsts]
        open_here = open_ts[p]
        n_open = _BIT_COUNT[open_here]
        n_plays = n_distinct * n_open

        forced = forced_t >= 0
        forced_claim = forced and forced_mask == 0
        # --- explicit claims: Greedy claims first, Random only without a play
        if forced_claim or (not forced and explicit_claims and (policies[p] == GREEDY or n_plays == 0)):
            claimed = -1
            if forced_claim:
                claimed = forced_t
                forced_t = -1
            else:
                for t in range(TERRITORIES):
                    if _provable(t, p, n, army, completed, owner, hidden, hand, hand_len, private, pool, army_len, witnesses, search):
                        claimed = t
                        break
            if claimed >= 0:
                decided = _decide(claimed, p, decided, owner, marker, open_ts)
                if record and actions < MAX_ACTIONS:
                    out_actions[actions, 0] = p
                    out_actions[actions, 1] = 0
                    out_actions[actions, 2] = claimed
                actions += 1
                if decided == TERRITORIES:
                    break
                # A player left with nothing to do ends the turn.
                more = n_plays > 0
                if not more:
                    for t in range(TERRITORIES):
                        if _provable(t, p, n, army, completed, owner, hidden, hand, hand_len, private, pool, army_len, witnesses, search):
                            more = True
                            break
                if not more:
                    need_advance = True
                continue
        if n_plays == 0:
            # Only reachable when the engine would not ask: defensive.
            need_advance = True
            continue

        # --- choose a play: the lane of its card in the hand and the territory
        if forced:
            forced_t = -1
            t = forced_t_value
            i = 0
            while i < hand_len[p] - 1 and lane(h, i) != forced_mask:
                i += 1
        elif policies[p] == GREEDY:
            n_best = 0
            best_key = -1
            best_done = 0
            for ci in range(n_distinct):
                i = _NTH_BIT[firsts * 8 + ci]
                m = lane(h, i)
                for oi in range(n_open):
                    t = _NTH_BIT[open_here * 8 + oi]
                    length = army_len[t, p]
                    key = _word_key(army[t, p] | (m << (8 * length)))
                    done = 1 if length == ARMY - 1 else 0
                    if key > best_key or (key == best_key and done > best_done):
                        best_key = key
                        best_done = done
                        n_best = 0
                    if key == best_key and done == best_done:
                        best_lanes[n_best] = i
                        best_ts[n_best] = t
                        n_best += 1
            state, value = splitmix64(rng[p])
            rng[p] = state
            pick = bounded(value, n_best)
            i = best_lanes[pick]
            t = best_ts[pick]
        else:
            # One output picks both: the high half the card, the low half the territory.
            state, value = splitmix64(rng[p])
            rng[p] = state
            i = _NTH_BIT[firsts * 8 + bounded(value, n_distinct)]
            t = _NTH_BIT[open_here * 8 + bounded(value << _S32, n_open)]

        # --- play it (Game._play)
        mask = lane(h, i)
        hand[p] = _without_lane(h, i)
        hand_len[p] -= 1
        hidden[mask] -= 1
        length = army_len[t, p]
        army[t, p] |= mask << (8 * length)
        army_len[t, p] = length + 1
        complete = length == ARMY - 1
        if complete:
            completed[t, p] = plays
            open_ts[p] &= ~(1 << t)
            contested |= 1 << t
        plays += 1
        if record and actions < MAX_ACTIONS:
            out_actions[actions, 0] = p
            out_actions[actions, 1] = mask
            out_actions[actions, 2] = t
        actions += 1

        # --- resolution in table order (Game._resolve_after_play); without
        # auto-claims only the territory just completed can change.
        if auto_claim:
            for t in range(TERRITORIES):
                if not (contested >> t) & 1:
                    continue
                if owner[t] != NOBODY:
                    contested &= ~(1 << t)
                    continue
                n_done = 0
                for q in range(n):
                    if completed[t, q] != NOT_COMPLETE:
                        # complete players, earliest first
                        k = n_done
                        while k > 0 and completed[t, by_completion[k - 1]] > completed[t, q]:
                            by_completion[k] = by_completion[k - 1]
                            k -= 1
                        by_completion[k] = q
                        n_done += 1
                if n_done == n:
                    decided = _decide(t, _ranked_first_at(t, n, army, completed, keys_here), decided, owner, marker, open_ts)
                else:
                    for k in range(n_done):
                        q = by_completion[k]
                        if _provable(t, q, n, army, completed, owner, hidden, hand, hand_len, private, pool, army_len, witnesses, search):
                            decided = _decide(t, q, decided, owner, marker, open_ts)
                            break
                if decided == TERRITORIES:
                    break
        elif complete:
            all_done = True
            for q in range(n):
                if completed[t, q] == NOT_COMPLETE:
                    all_done = False
                    break
            if all_done:
                decided = _decide(t, _ranked_first_at(t, n, army, completed, keys_here), decided, owner, marker, open_ts)
        if decided == TERRITORIES:
            break
        need_advance = True

    scalars[0] = top
    scalars[1] = plays
    scalars[2] = decided
    scalars[3] = current
    scalars[4] = 1
    return actions


@numba.njit(cache=True)
def scores_of(
    n: int,
    keys: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    scoring: int,
    scores: npt.NDArray[np.int64],
) -> None:
    """Game.scores of a finished position: territories held, or points 3, 2, 1 by rank.

    ``keys`` holds every army's key (:func:`keys_of`).
    """
    scores[:] = 0
    for t in range(TERRITORIES):
        if owner[t] == NOBODY:
            continue
        if scoring == TERRITORIES_SCORING:
            scores[owner[t]] += 1
            continue
        # every army is complete where points are scored
        for p in range(n):
            rank = 0
            for q in range(n):
                rank += _ahead(keys[t, q], completed[t, q], keys[t, p], completed[t, p])
            scores[p] += max(3 - rank, 0)


@numba.njit(cache=True, inline="always")
def _shuffle(cards: npt.NDArray[np.int64], seed: np.uint64, order: npt.NDArray[np.int64]) -> None:
    """The deck order of Game.new: Fisher-Yates from the end on SplitMix64 (top card first)."""
    for i in range(cards.shape[0]):
        order[i] = cards[i]
    state = seed
    for i in range(cards.shape[0] - 1, 0, -1):
        state, value = splitmix64(state)
        j = bounded(value, i + 1)
        order[i], order[j] = order[j], order[i]


@numba.njit(cache=True, inline="always")
def _dealt_hand(order: npt.NDArray[np.int64], n: int, p: int) -> int:
    """Seat p's hand word at the deal: cards p, n + p, 2n + p, ... of the deck (round-robin)."""
    hand = 0
    for k in range(HAND_SIZE):
        hand |= order[k * n + p] << (8 * k)
    return hand


@numba.njit(cache=True, inline="always")
def _results(
    g: int,
    n: int,
    keys: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    marker: npt.NDArray[np.int64],
    scoring: int,
    tie_break: int,
    out_owner: npt.NDArray[np.int64],
    out_marker: npt.NDArray[np.int64],
    out_scores: npt.NDArray[np.int64],
    out_winner: npt.NDArray[np.int64],
    scores: npt.NDArray[np.int64],
    sums: npt.NDArray[np.int64],
    latest: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.bool_],
) -> None:
    """Write game g's owners, markers, scores and winner; ``keys`` holds every army's key,
    the other arrays (n entries) are working space."""
    for t in range(TERRITORIES):
        out_owner[g, t] = owner[t]
        out_marker[g, t] = marker[t]
    scores_of(n, keys, completed, owner, scoring, scores)
    for p in range(n):
        out_scores[g, p] = scores[p]
    out_winner[g] = _winner(scores, owner, marker, n, tie_break, sums, latest, counts, candidates)


@numba.njit(cache=True)
def simulate(
    cards: npt.NDArray[np.int64],
    n: int,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    policies: npt.NDArray[np.int64],
    claims_allowed: bool,
    auto_claim: bool,
    private: bool,
    scoring: int,
    tie_break: int,
    out_owner: npt.NDArray[np.int64],
    out_marker: npt.NDArray[np.int64],
    out_scores: npt.NDArray[np.int64],
    out_winner: npt.NDArray[np.int64],
    out_actions: npt.NDArray[np.int64],
    out_action_count: npt.NDArray[np.int64],
    record: bool,
) -> None:
    """Play ``len(seeds)`` games; ``cards`` is the rules' deck sorted by mask.

    Recorded actions are (player, mask, territory) with mask 0 for a claim.
    """
    ncards = cards.shape[0]
    order = np.empty(ncards, np.int64)
    hand = np.zeros(n, np.int64)
    hand_len = np.zeros(n, np.int64)
    army = np.zeros((TERRITORIES, n), np.int64)
    army_len = np.zeros((TERRITORIES, n), np.int64)
    completed = np.zeros((TERRITORIES, n), np.int64)
    owner = np.zeros(TERRITORIES, np.int64)
    marker = np.zeros(TERRITORIES, np.int64)
    hidden = np.zeros(32, np.int64)
    scratch = np.zeros(SCRATCH, np.int64)
    rng = np.zeros(n, np.uint64)
    keys = np.zeros((TERRITORIES, n), np.int64)
    scores = np.zeros(n, np.int64)
    sums = np.zeros(n, np.int64)
    latest = np.zeros(n, np.int64)
    counts = np.zeros(n, np.int64)
    candidates = np.zeros(n, np.bool_)
    scalars = np.zeros(5, np.int64)

    for g in range(seeds.shape[0]):
        _shuffle(cards, seeds[g], order)
        if claims_allowed:
            for m in range(32):
                hidden[m] = 0
            for i in range(ncards):
                hidden[order[i]] += 1
        # (Loops rather than slice assignments: these arrays are too small for memset.)
        for t in range(TERRITORIES):
            owner[t] = NOBODY
            marker[t] = 0
            for p in range(n):
                army[t, p] = 0
                army_len[t, p] = 0
                completed[t, p] = NOT_COMPLETE
        for p in range(n):
            rng[p] = bot_seeds[g, p]
            hand[p] = _dealt_hand(order, n, p)
            hand_len[p] = HAND_SIZE
        scalars[0] = HAND_SIZE * n
        scalars[1] = 0
        scalars[2] = 0
        scalars[3] = n - 1
        scalars[4] = 1
        out_action_count[g] = play_out(
            n, order, scalars, hand, hand_len, army, army_len, completed, owner, marker, hidden, rng,
            policies, claims_allowed, auto_claim, private, 0, -1, out_actions[g], record, scratch,
        )  # fmt: skip
        keys_of(n, army, keys)
        _results(g, n, keys, completed, owner, marker, scoring, tie_break, out_owner, out_marker, out_scores, out_winner, scores, sums, latest, counts, candidates)


@numba.njit(cache=True, inline="always")
def _random_seat(deck: npt.NDArray[np.int64], n: int, p: int) -> tuple[int, int, int]:
    """Seat p's hand at the deal, for :func:`_random_turn`: (hand, its length,
    the lanes holding first copies as :func:`_first_copies`)."""
    hand = _dealt_hand(deck, n, p)
    return hand, HAND_SIZE, _first_copies(hand, HAND_SIZE)


@numba.njit(cache=True, inline="always")
def _random_turn(
    hand: int, length: int, firsts: int, open_here: int, lengths: int, state: np.uint64, card: int
) -> tuple[int, int, int, int, int, np.uint64, int, int, int]:
    """One turn of a Random bot in :func:`simulate_random`: draw ``card`` (0 when
    the deck is empty), choose as the bot does, play.

    The seat's state is its hand (as :func:`_random_seat`), its open
    territories, how many cards it has in each (3-bit fields) and its
    generator; returns the new state and the play: card, territory, and how
    many cards the seat had there before.
    """
    hand, length, firsts = _draw(hand, length, firsts, card)
    # One output picks both: the high half the card, the low half the territory.
    # (The masks change nothing, the values are in range: they spare negative-index checks.)
    state, value = splitmix64(state)
    i = _NTH_BIT[(firsts * 8 + bounded(value, _BIT_COUNT[firsts & 255])) & 2047]
    t = _NTH_BIT[(open_here * 8 + bounded(value << _S32, _BIT_COUNT[open_here & 255])) & 2047]
    mask = lane(hand, i)
    hand, length, firsts = _take(hand, length, firsts, i)
    there = (lengths >> (3 * t)) & 7
    open_here &= ~(((there + 1) >> 2) << t)  # closed by the fourth card
    return hand, length, firsts, open_here, lengths + (1 << (3 * t)), state, mask, t, there


@numba.njit(cache=True, inline="always")
def _place(
    g: int,
    n: int,
    p: int,
    k: int,
    mask: int,
    t: int,
    there: int,
    army: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    out_actions: npt.NDArray[np.int64],
    record: bool,
) -> None:
    """Seat p's k-th play (play number kn + p of game g) onto the table;
    ``army`` and ``completed`` are flat, seat by seat (index p * TERRITORIES + t)."""
    slot = p * TERRITORIES + (t & 7)  # t < 5: the mask only spares a negative-index check
    army[slot] |= mask << (8 * there)
    completed[slot] = k * n + p  # the last write is the fourth card's
    if record:
        out_actions[g, k * n + p, 0] = p
        out_actions[g, k * n + p, 1] = mask
        out_actions[g, k * n + p, 2] = t


@numba.njit(cache=True)
def simulate_random(
    cards: npt.NDArray[np.int64],
    n: int,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    scoring: int,
    tie_break: int,
    out_owner: npt.NDArray[np.int64],
    out_marker: npt.NDArray[np.int64],
    out_scores: npt.NDArray[np.int64],
    out_winner: npt.NDArray[np.int64],
    out_actions: npt.NDArray[np.int64],
    out_action_count: npt.NDArray[np.int64],
    record: bool,
) -> None:
    """:func:`simulate` for Random bots in every seat without automatic claims, a player at a time.

    Such games come apart into independent players. A Random bot looks only
    at its own hand and armies and claims only when it has no play; and the
    deck holds at least 20 cards per player (Rules checks it; so must the
    caller), so while the deck lasts every player draws and plays on each of
    its turns, nobody runs out of cards, and all finish their 20 plays in
    the same round: nobody is ever left without a play, so nobody claims,
    and a territory is decided when its last army is completed. Seat p's
    k-th turn therefore draws card ``5n + kn + p`` (while the deck has it)
    and is play number ``kn + p`` of the game. Each player's 20 turns run in
    one tight loop (two players side by side); the territories are decided
    afterwards, in the order their last armies were completed. The tests hold
    this to :func:`simulate` game by game.
    """
    ncards = cards.shape[0]
    turns = TERRITORIES * ARMY
    # Zeros past the deck read as "no card to draw".
    deck = np.zeros(max(ncards, HAND_SIZE * n + turns * n), np.int64)
    order = deck[:ncards]
    army = np.zeros(n * TERRITORIES, np.int64)  # flat, seat by seat
    completed = np.zeros(n * TERRITORIES, np.int64)
    keys = np.zeros(n * TERRITORIES, np.int64)
    owner = np.zeros(TERRITORIES, np.int64)
    marker = np.zeros(TERRITORIES, np.int64)
    decided_at = np.zeros(TERRITORIES, np.int64)
    scores = np.zeros(n, np.int64)
    sums = np.zeros(n, np.int64)
    latest = np.zeros(n, np.int64)
    counts = np.zeros(n, np.int64)
    candidates = np.zeros(n, np.bool_)

    for g in range(seeds.shape[0]):
        _shuffle(cards, seeds[g], order)
        for slot in range(n * TERRITORIES):
            army[slot] = 0
        # Two seats at a time, so that the processor overlaps their turns; with
        # an odd number of seats the last one plays beside itself (same writes).
        for a in range(0, n, 2):
            b = min(a + 1, n - 1)
            hand_a, length_a, firsts_a = _random_seat(deck, n, a)
            hand_b, length_b, firsts_b = _random_seat(deck, n, b)
            open_a = open_b = (1 << TERRITORIES) - 1
            lengths_a = lengths_b = 0
            state_a, state_b = bot_seeds[g, a], bot_seeds[g, b]
            for k in range(turns):
                hand_a, length_a, firsts_a, open_a, lengths_a, state_a, mask_a, t_a, there_a = _random_turn(
                    hand_a, length_a, firsts_a, open_a, lengths_a, state_a, deck[HAND_SIZE * n + k * n + a]
                )
                hand_b, length_b, firsts_b, open_b, lengths_b, state_b, mask_b, t_b, there_b = _random_turn(
                    hand_b, length_b, firsts_b, open_b, lengths_b, state_b, deck[HAND_SIZE * n + k * n + b]
                )
                _place(g, n, a, k, mask_a, t_a, there_a, army, completed, out_actions, record)
                _place(g, n, b, k, mask_b, t_b, there_b, army, completed, out_actions, record)
        # Every army is complete: rank them, which decides each territory and scores it.
        for p in range(n):
            scores[p] = 0
        for slot in range(n * TERRITORIES):
            keys[slot] = _word_key(army[slot])
        for t in range(TERRITORIES):
            last = 0
            for p in range(n):
                last = max(last, completed[p * TERRITORIES + t])
            decided_at[t] = last
            for p in range(n):
                mine, done = keys[p * TERRITORIES + t], completed[p * TERRITORIES + t]
                rank = 0
                for q in range(n):
                    theirs = keys[q * TERRITORIES + t]
                    rank += _ahead(theirs, completed[q * TERRITORIES + t], mine, done)
                if rank == 0:
                    owner[t] = p
                scores[p] += max(3 - rank, 0) if scoring == POINTS_SCORING else (1 if rank == 0 else 0)
        for t in range(TERRITORIES):
            before = 1
            for u in range(TERRITORIES):
                before += decided_at[u] < decided_at[t]
            marker[t] = before
            out_owner[g, t] = owner[t]
            out_marker[g, t] = marker[t]
        for p in range(n):
            out_scores[g, p] = scores[p]
        out_winner[g] = _winner(scores, owner, marker, n, tie_break, sums, latest, counts, candidates)
        out_action_count[g] = TERRITORIES * ARMY * n


@numba.njit(cache=True)
def _winner(
    scores: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    marker: npt.NDArray[np.int64],
    n: int,
    tie_break: int,
    sums: npt.NDArray[np.int64],
    latest: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.bool_],
) -> int:
    """Game.winner: highest score; ties by the tie-break; None (-1) when nobody wins."""
    best = scores[0]
    for p in range(1, n):
        best = max(best, scores[p])
    tied = 0
    only = -1
    for p in range(n):
        if scores[p] == best:
            tied += 1
            only = p
    if tied == 1:
        return only
    sums[:] = 0
    latest[:] = 0
    counts[:] = 0
    for t in range(TERRITORIES):
        q = owner[t]
        if q != NOBODY:
            sums[q] += marker[t]
            counts[q] += 1
            latest[q] = max(latest[q], marker[t])
    for p in range(n):
        candidates[p] = scores[p] == best
    if tie_break == LOWEST_MARKER_SUM:
        low = -1
        for p in range(n):
            if candidates[p] and counts[p] > 0 and (low < 0 or sums[p] < low):
                low = sums[p]
        if low >= 0:
            left = 0
            for p in range(n):
                candidates[p] = candidates[p] and counts[p] > 0 and sums[p] == low
                if candidates[p]:
                    left += 1
                    only = p
            if left == 1:
                return only
    top = 0
    who = -1
    for p in range(n):
        if candidates[p] and latest[p] > top:
            top = latest[p]
            who = p
    return who


@numba.njit(cache=True)
def stream(seed: np.uint64, out: npt.NDArray[np.uint64]) -> None:
    """The first ``len(out)`` SplitMix64 outputs from ``seed``."""
    state = seed
    for i in range(out.shape[0]):
        state, out[i] = splitmix64(state)


_SEAT_GAMMA = np.uint64(0xD1B54A32D192ED03)  # odd: seats 0..3 of a game get distinct inputs


@numba.njit(cache=True)
def mix_bot_seeds(game_seeds: npt.NDArray[np.uint64], own: npt.NDArray[np.uint64], out: npt.NDArray[np.uint64]) -> None:
    """out[g, p]: the seed of seat p's bot in game g, from the game's seed, the seat and its own seed.

    Each of the three goes through the SplitMix64 finaliser (a bijection) before
    they meet: the game's seed with the seat, ``f(g + (p + 1) * gamma)``, which
    differs between the seats of a game, and the bot's own seed, ``f(own)``.
    The seed is ``f`` of their XOR, so no choice of own seeds cancels the seat:
    bots with equal own seeds never share a stream, and any other pair of
    seeds chosen without looking at the game seeds meets with probability
    2**-64 per game.
    """
    for g in range(game_seeds.shape[0]):
        for p in range(own.shape[0]):
            _, seat_stream = splitmix64(game_seeds[g] + np.uint64(p + 1) * _SEAT_GAMMA)
            _, own_stream = splitmix64(own[p])
            _, out[g, p] = splitmix64(seat_stream ^ own_stream)
