"""Private numba kernel: the rules as pure functions over a state record, and whole games.

This is a twin of :class:`ordonnance.game.Game` driven by the built-in bots'
twins (:class:`ordonnance.bots.Random` and :class:`ordonnance.bots.Greedy`).
Games live in a :class:`State`, fixed-shape arrays with the game index first
(pgx's ``State``), under a read-only :class:`Config` (the rules and the
kernel bot of each seat). The rules are steps over one game ``g`` of a
state: :func:`deal` (Game.new; :func:`deal_order` from a given deck order), :func:`advance` (hand the turn on and draw),
:func:`is_legal` and :func:`legal_mask`, :func:`apply_action` (a play with its
resolution and automatic claims, a claim, a pass; actions are numbered as in
:mod:`ordonnance.rl`), :func:`bot_action` (the bots' choices) and
:func:`outcome` (scores and winner). Everything fast is built on these same
functions: :func:`play_out` (a game to its end) and :func:`simulate` here,
the Monte-Carlo rollouts and the batched games (``_batch_kernel``).

The kernel follows the engine step for step: the same shuffle (SplitMix64
with multiply-shift), the same deal, draw, turn order, resolution, claims
and markers, and the bots enumerate legal plays in the engine's order and
draw from the same generator, so a simulated game and the same game played
through ``Game`` with the Python bots are identical action for action. The
tests check exactly that. :func:`simulate_random` is the short road for
Random bots without automatic claims, held to :func:`simulate` game by game.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import numba
import numpy as np
import numpy.typing as npt

from ordonnance._completion_kernel import NONE, UNDECIDED, WORK, army_word_key, beats_into, first_completion
from ordonnance.core.jit import (  # re-exported: the Ordonnance kernels reach them through here
    _SEAT_GAMMA as _SEAT_GAMMA,
    bit_count as bit_count,
    borrowed as borrowed,
    bounded as bounded,
    mix_bot_seed as mix_bot_seed,
    mix_bot_seeds as mix_bot_seeds,
    mixed as _mixed,
    nth_output as _nth_output,
    pointer_of as pointer_of,
    row_of as row_of,
    span as span,
    splitmix64 as splitmix64,
    stream as stream,
    unsigned as unsigned,
)
from ordonnance.rules import Rules

TERRITORIES = 4 + 1
ARMY = 4
HAND_SIZE = 5
MAX_HAND = HAND_SIZE + 1  # a hand never holds more: a draw is always followed by a play
MAX_ACTIONS = 96
# Working memory (``scratch``) of the rules: the pool of a private proof,
# Greedy's ties, claimants in completion order, army keys, scores, the
# winner's working space, the completion search's, then the shuffle's draws.
POOL = 0
BEST_LANES = 32
BEST_TS = BEST_LANES + 40
BY_COMPLETION = BEST_TS + 40
KEYS = BY_COMPLETION + 4
SCORES = KEYS + TERRITORIES * 4
WINNER_WORK = SCORES + 4
SEARCH = WINNER_WORK + 16
DRAWS = SEARCH + WORK
#: Draws :func:`_shuffle` makes at a time (its working space ``draws`` holds as many).
SHUFFLE_DRAWS = 64
SCRATCH = DRAWS + SHUFFLE_DRAWS
NOT_COMPLETE = -1
NOBODY = -1
HOPELESS = NONE  # in WITNESS: that opponent cannot beat that army (the completion search's "none")

#: Action indices, as ordonnance.rl numbers them: plays (mask - 1) * 5 + t, claims, the pass.
CLAIM_ACTIONS = 31 * TERRITORIES
PASS_ACTION = CLAIM_ACTIONS + TERRITORIES
NUM_ACTIONS = PASS_ACTION + 1

#: Policy codes of the kernel bots.
RANDOM = 0
GREEDY = 1

#: Scoring codes.
TERRITORIES_SCORING = 0
POINTS_SCORING = 1
#: Tie-break codes.
LATEST_CAPTURE = 0
LOWEST_MARKER_SUM = 1


# Hands and armies are words of 8-bit lanes, one card mask per lane, lane 0
# first (an army word is the layout ordonnance._army_kernel.keys_from_words reads).
_LOW7 = 0x7F7F7F7F7F7F7F7F
_HIGH = -0x7F7F7F7F7F7F7F80  # 0x8080808080808080 as an int64: the top bit of every lane
_GATHER = 0x0102040810204080  # moves bit 8i to bit 56 + i
_ONES = 0x0101010101010101  # times a card: the card in every lane
#: _NTH_BIT[bits * 8 + k]: the position of the k-th set bit of ``bits`` (8 bits).
_NTH_BIT = np.zeros(256 * 8, np.int64)
for _bits in range(256):
    _positions = [i for i in range(8) if _bits >> i & 1]
    _NTH_BIT[_bits * 8 : _bits * 8 + len(_positions)] = _positions
del _bits, _positions

_u = unsigned
_S32 = np.uint64(32)


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


#: The key of the army in an army word (:func:`ordonnance._army_kernel.key4` of its lanes).
_word_key = army_word_key


# --------------------------------------------------------------------- the state record
#
# A game is one int64 row of State.board, its fields at the fixed offsets
# below (seats padded to SEATS), the deck order last. One array rather than
# an array per field: numba keeps a reference count for every array reached
# through a record, and in the rules' branchy code it cannot drop the counting,
# so a record of nineteen arrays cost about 100 ns a decision (measured), a
# record of two almost nothing.

SEATS = 4
HAND = 0  # [p]: a word of card lanes, in the order drawn
HAND_LEN = HAND + SEATS  # [p]
OPEN = HAND_LEN + SEATS  # [p]: bit t set while p may still play into t
ARMY_AT = OPEN + SEATS  # [t * SEATS + p]: a word, in play order
ARMY_LEN = ARMY_AT + TERRITORIES * SEATS  # [t * SEATS + p]
COMPLETED = ARMY_LEN + TERRITORIES * SEATS  # [t * SEATS + p]: the play number of the fourth card, or NOT_COMPLETE
OWNER = COMPLETED + TERRITORIES * SEATS  # [t]: the seat that won t, or NOBODY
MARKER = OWNER + TERRITORIES  # [t]: the victory marker 1..5, or 0
HIDDEN = MARKER + TERRITORIES  # [mask]: copies not face up (deck and hands); kept with claims or Config.unseen
NEEDS = HIDDEN + 32  # [t]: bit m set when card m leaving the pool may make t provable (see _resolve)
WITNESS = NEEDS + TERRITORIES  # [(t * SEATS + p) * SEATS + q]: an army word, 0 or HOPELESS; see _beaten_by
TOP = WITNESS + TERRITORIES * SEATS * SEATS  # the next card of the deck to draw
PLAYS = TOP + 1  # cards played so far
DECIDED = PLAYS + 1  # territories decided so far
CURRENT = DECIDED + 1  # the seat to act (once over: the seat that acted last)
OVER = CURRENT + 1  # 1 once the game has ended
PASSED = OVER + 1  # bit p set: p passed since the last play or claim (it is not asked again)
CONTESTED = PASSED + 1  # bit t: t may be undecided with a complete army there (auto-claims look only there)
PROVEN = CONTESTED + 1  # bit t * SEATS + p: p's army in t was proven unbeatable (see _claimable)
ROUNDS = PROVEN + 1  # rounds begun since the deal (see advance; a position set up directly counts from its own value)
ORDER = ROUNDS + 1  # [i]: the deck, top card first; cards TOP.. are still to be drawn

Array = npt.NDArray[np.int64]


class Config(NamedTuple):
    """The rules of a set of games and who plays which seat, read-only (see :func:`config`)."""

    n: int
    deck: int  # cards in the deck
    greedy: int  # bit p set: the kernel bot of seat p is Greedy (else Random)
    claims_allowed: bool
    auto_claim: bool
    private: bool
    explicit_claims: bool
    scoring: int
    tie_break: int
    unseen: bool  # keep the HIDDEN counts even without claims (observations read them)


class State(NamedTuple):
    """Games as fixed-shape arrays with the game index first (pgx's ``State``; see :func:`new_state`).

    ``board[g]`` holds game g (fields at the offsets HAND, ARMY_AT, ..., ORDER
    of this module); ``rng[g, p]`` is the generator of seat p's kernel bot.
    The rules below (:func:`deal`, :func:`apply_action`, ...) change game g
    of a state and nothing else.
    """

    board: Array
    rng: npt.NDArray[np.uint64]


@numba.njit(cache=True, inline="always")
def borrowed_state(s: State) -> State:
    """``s`` with both arrays :func:`borrowed` (compiled: no reference counting of them)."""
    return State(borrowed(s.board), borrowed(s.rng))


def config(rules: Rules, policies: Sequence[int], *, unseen: bool = False) -> Config:
    """The kernel's :class:`Config` of ``rules`` with a kernel bot policy per seat."""
    return Config(
        n=rules.players,
        deck=len(rules.cards),
        greedy=sum(1 << p for p, policy in enumerate(policies) if policy == GREEDY),
        claims_allowed=rules.claims_allowed,
        auto_claim=rules.auto_claim,
        private=rules.claim_proof == "private",
        explicit_claims=rules.explicit_claims,
        scoring=TERRITORIES_SCORING if rules.scoring == "territories" else POINTS_SCORING,
        tie_break=LATEST_CAPTURE if rules.tie_break == "latest_capture" else LOWEST_MARKER_SUM,
        unseen=unseen,
    )


#: How many ints :func:`pack_config` packs a :class:`Config` into.
CONFIG_SIZE = len(Config._fields)


def pack_config(cfg: Config) -> Array:
    """``cfg`` as an int64 vector, for kernels whose entry points take plain arrays
    (numba spends about a microsecond on each record argument); :func:`unpack_config`
    rebuilds it inside the kernel."""
    return np.array([int(value) for value in cfg], np.int64)


@numba.njit(cache=True, inline="always")
def unpack_config(c: Array) -> Config:
    """The :class:`Config` packed by :func:`pack_config` (its first CONFIG_SIZE ints)."""
    return Config(c[0], c[1], c[2], c[3] != 0, c[4] != 0, c[5] != 0, c[6] != 0, c[7], c[8], c[9] != 0)


def deck_of(rules: Rules) -> Array:
    """The rules' deck sorted by mask, as :func:`deal` shuffles it."""
    return np.array(sorted(card.mask for card in rules.cards), np.int64)


def new_state(games: int, deck_size: int) -> State:
    """A :class:`State` of ``games`` empty games with decks of ``deck_size`` cards (deal them)."""
    return State(np.zeros((games, ORDER + deck_size), np.int64), np.zeros((games, SEATS), np.uint64))


@numba.njit(cache=True, inline="always")
def _at(t: int, p: int) -> int:
    """The index of (territory t, seat p) in the per-army fields."""
    return t * SEATS + p


@numba.njit(cache=True, inline="always")
def _army_key(row: Array, t: int, p: int) -> int:
    return _word_key(row[_u(ARMY_AT + _at(t, p))])


@numba.njit(cache=True, inline="always")
def _pool_count(row: Any, p: int, m: int, private: bool) -> int:
    """The copies of card ``m`` p's opponents may still receive in the game of ``row``
    (:func:`row_of`): the cards not face up, less p's own hand with private proof."""
    have = row[_u(HIDDEN + m)]
    if private:
        have -= bit_count(_lanes_holding(row[_u(HAND + p)], row[_u(HAND_LEN + p)], m))
    return int(have)


@numba.njit(cache=True, inline="always")
def _needs_in_pool(row: Any, p: int, cards: int, private: bool) -> int:
    """The cards of the word ``cards`` (lanes of 0 are empty) as a set of masks (bit m)
    when p's opponents may still receive all of them in the game of ``row``, else -1."""
    needs = 0
    for j in range(ARMY):
        m = lane(cards, j)
        if m != 0:
            if _pool_count(row, p, m, private) < bit_count(_lanes_holding(cards, ARMY, m)):
                return -1
            needs |= 1 << m
    return needs


@numba.njit(cache=True, inline="always")
def _appended(army: int, length: int, cards: int) -> int:
    """The army word of ``length`` cards with the cards of the word ``cards`` (lanes of 0
    are empty) added after them, in lane order."""
    at = length
    for i in range(ARMY):
        m = lane(cards, i)
        if m != 0:
            army |= m << (8 * at)
            at += 1
    return army


@numba.njit(cache=True, inline="always")
def _still_reachable(witness: int, army: int, length: int, row: Any, p: int, private: bool, floor: int) -> int:
    """An army word with a key above ``floor`` that an opponent of p in the game of
    ``row`` (:func:`row_of`) with
    the army word ``army`` (``length`` < 4 cards) can still reach, from the
    ``witness`` found earlier, or 0 if none is found this way. The word returned
    is the army's lanes followed by the cards it would add.

    The witness itself while its cards outside the army are still in the pool
    (:func:`_pool_count`). When the army took one card outside it (an opponent
    mostly does), the witness less one of its other cards plus that one, if it
    is still above ``floor`` and the pool holds the rest: that spares a search.
    """
    rest = witness
    extra = 0
    for i in range(length):
        m = lane(army, i)
        hits = _lanes_holding(rest, ARMY, m)
        if hits == 0:
            if extra != 0:
                return 0
            extra = m
        else:
            rest &= ~(255 << (8 * _NTH_BIT[_u(hits * 8)]))
    if extra == 0:
        return _appended(army, length, rest) if _needs_in_pool(row, p, rest, private) >= 0 else 0
    for j in range(ARMY):
        if lane(rest, j) == 0:
            continue
        fewer = rest & ~(255 << (8 * j))
        if _needs_in_pool(row, p, fewer, private) < 0:
            continue
        word = _appended(army, length, fewer)
        if _word_key(word) > floor:
            return word
    return 0


@numba.njit(cache=True, inline="always")
def _added_cards(word: int, length: int) -> int:
    """The cards (bit m, a mask) of lanes ``length``.. of a complete army word."""
    needs = 0
    for j in range(length, ARMY):
        needs |= 1 << lane(word, j)
    return needs


@numba.njit(cache=True)
def _beaten_by(n: int, private: bool, row: Any, t: int, p: int, scratch: Any) -> int:
    """Whether some opponent could still win territory t against p's complete army in
    the game of ``row`` (n seats, ``private`` proof): -1 when none can; otherwise the
    cards (bit m, a mask) the pool must keep for the army found to stay reachable (0
    when an opponent's complete army is ahead).

    The WITNESS field (t, p, q) remembers, as an army word, an army q was last
    shown able to reach (0 when none), q's army first and the cards it would
    add after it. While q's army is still the start of it and the pool holds
    the rest, or an army made from it is reachable (:func:`_still_reachable`),
    no search is needed; nor when the search would decide at once
    (:func:`~ordonnance._completion_kernel.first_completion`); only a search
    calls :func:`_reach`. HOPELESS there: q was shown unable to beat p's army,
    which stays so. The pool only shrinks and armies only grow, so a witness
    that still holds is still a witness.

    Not inlined: inlined into every caller of :func:`_claim_status` it made the
    batch kernels' compilation take over 16 GB. So the call is kept cheap: the
    game's row and the scratch arrive as bare pointers (:func:`row_of`), six
    arguments in registers, with no array to reference-count; inlined into
    ``simulate`` it was worth 1.11x there, and the pointers win most of that.
    """
    mine = _word_key(row[_u(ARMY_AT + _at(t, p))])
    mine_done = row[_u(COMPLETED + _at(t, p))]
    for q in range(n):
        if q == p:
            continue
        done = row[_u(COMPLETED + _at(t, q))]
        army = row[_u(ARMY_AT + _at(t, q))]
        if done != NOT_COMPLETE:
            if _ahead(_word_key(army), done, mine, mine_done):
                return 0
            continue
        slot = WITNESS + _at(t, p) * SEATS + q
        witness = row[_u(slot)]
        if witness == HOPELESS:
            continue
        length = row[_u(ARMY_LEN + _at(t, q))]
        if witness != 0:
            if (witness & ((1 << (8 * length)) - 1)) == army:
                needs = _needs_in_pool(row, p, witness >> (8 * length), private)
                if needs >= 0:
                    return needs
            witness = _still_reachable(witness, army, length, row, p, private, mine)
            if witness != 0:
                row[_u(slot)] = witness
                return _added_cards(witness, length)
        witness = UNDECIDED
        if not private:
            # What the search would find at once, read from the row (see _reach).
            witness = first_completion(army, length, row, 0, HIDDEN, 32, mine)
            if witness != UNDECIDED:
                row[_u(slot)] = witness  # NONE is HOPELESS
        if witness == UNDECIDED:
            witness = _reach(row, t, p, q, mine, private, scratch)
        if witness != HOPELESS:
            return _added_cards(witness, length)
    return -1


@numba.njit(cache=True)
def _reach(row: Any, t: int, p: int, q: int, mine: int, private: bool, scratch: Any) -> int:
    """An army word with a key above ``mine`` (p's complete army in territory t of
    the game of ``row``) that q (not complete there) can still reach, found by the
    completion search and remembered in the WITNESS field (t, p, q), or HOPELESS
    (remembered too) when there is none. ``row`` and ``scratch`` as
    :func:`_beaten_by` takes them."""
    slot = WITNESS + _at(t, p) * SEATS + q
    w = row[_u(ARMY_AT + _at(t, q))]
    length = row[_u(ARMY_LEN + _at(t, q))]
    if private:
        pool = span(scratch, POOL, 32)
        for m in range(32):  # not pool[:] = ...: numba compiles a shape-mismatch message for that
            pool[_u(m)] = row[_u(HIDDEN + m)]
        for i in range(row[_u(HAND_LEN + p)]):
            pool[_u(lane(row[_u(HAND + p)], i))] -= 1
        word = first_completion(w, length, pool, 0, 0, 32, mine)
        if word != UNDECIDED:
            # The search would stop at once (its first leaf, or nothing above its bound).
            row[_u(slot)] = word  # NONE is HOPELESS
            return int(word)
    else:
        pool = span(row, HIDDEN, 32)
    packed = beats_into(w & 255, (w >> 8) & 255, (w >> 16) & 255, (w >> 24) & 255, pool, mine + 1, span(scratch, SEARCH, WORK))
    if packed < 0:
        row[_u(slot)] = HOPELESS
        return HOPELESS
    for i in range(ARMY - length):
        w |= ((packed >> (5 * i)) & 31) << (8 * (length + i))
    row[_u(slot)] = w
    return int(w)


@numba.njit(cache=True, inline="always")
def _first_ranked(row: Array, t: int, n: int) -> int:
    """The seat ranked first in territory t: strongest army, ties to the first completed."""
    best = 0
    best_key = _army_key(row, t, 0)
    for p in range(1, n):
        key = _army_key(row, t, p)
        if _ahead(key, row[_u(COMPLETED + _at(t, p))], best_key, row[_u(COMPLETED + _at(t, best))]):
            best = p
            best_key = key
    return best


@numba.njit(cache=True)
def keys_of(n: int, row: Array, keys: Array) -> None:
    """``keys[t * SEATS + p]``: the key of every army of the game in ``row``."""
    for t in range(TERRITORIES):
        for p in range(n):
            keys[_u(_at(t, p))] = _army_key(row, t, p)


@numba.njit(cache=True, inline="always")
def _claim_status(cfg: Config, b: Array, g: int, t: int, p: int, scratch: Array) -> int:
    """-1 when seat p of game g can prove territory t now; otherwise 0, or with p's army
    there complete the cards :func:`_beaten_by` says the pool must keep for p's claim
    to stay unprovable. Slices or views made in the rules' hot loops cost reference
    counting on every pass, taken or not (measured: about 30 ns each), so none is
    made here nor in :func:`_beaten_by`'s test of a witness.

    A proof is remembered (PROVEN) until t is decided: it cannot fail later.
    p's army is complete, an opponent's army only grows by cards of the pool
    and the pool only shrinks (a card leaves it when played; with private
    proof also when p draws it, and a card p plays leaves both the hidden
    cards and p's hand), so every army an opponent can reach later it could
    reach when the proof was made."""
    if b[_u(g), _u(OWNER + t)] != NOBODY or b[_u(g), _u(COMPLETED + _at(t, p))] == NOT_COMPLETE:
        return 0
    bit = 1 << _at(t, p)
    if b[_u(g), PROVEN] & bit:
        return -1
    needs = _beaten_by(cfg.n, cfg.private, row_of(b, g), t, p, pointer_of(scratch))
    if needs < 0:
        b[_u(g), PROVEN] |= bit
    return needs


@numba.njit(cache=True, inline="always")
def _claimable(cfg: Config, b: Array, g: int, t: int, p: int, scratch: Array) -> bool:
    """Whether seat p of game g can prove territory t now (:func:`_claim_status`)."""
    return _claim_status(cfg, b, g, t, p, scratch) < 0


@numba.njit(cache=True)
def claimable(cfg: Config, s: State, g: int, t: int, p: int, scratch: Array) -> bool:
    """Whether seat p of game g can claim territory t now, whoever is to act
    (:func:`_claimable`: a remembered proof answers at once, a new one is remembered)."""
    return _claimable(cfg, s.board, g, t, p, scratch)


@numba.njit(cache=True, inline="always")
def _first_claim(cfg: Config, b: Array, g: int, p: int, scratch: Array) -> int:
    """The first territory seat p of game g can prove, or -1."""
    for t in range(TERRITORIES):
        if _claimable(cfg, b, g, t, p, scratch):
            return t
    return -1


@numba.njit(cache=True, inline="always")
def _can_play(b: Array, g: int, p: int) -> bool:
    """Whether seat p of game g has a legal play now (an open territory and a card in hand)."""
    return bool(b[_u(g), _u(OPEN + p)] != 0 and b[_u(g), _u(HAND_LEN + p)] > 0)


@numba.njit(cache=True, inline="always")
def advance(cfg: Config, b: Array, g: int, scratch: Array) -> None:
    """Hand the turn to the next seat that can act, drawing its card; end the game
    when nobody can (Game._advance). A seat that passed is not asked again.

    It also counts the rounds (ROUNDS, for :func:`simulate`): a new round begins
    when the turn passes seat 0 on its way to the next seat to act, that is with
    each turn at a seat not after the one before (and with the first, dealt from
    seat n - 1). A claim that keeps the turn does not come here. It costs one
    store a round, within the noise of the general kernel's speed; counting per
    decision in :func:`play_out` instead measured 2-7% off its games.

    It takes the board (``State.board``), not the state: every array an inlined
    function receives is reference-counted on the way in and out, the state's
    two included, and in the rules' branchy code numba cannot drop the counts
    (passing the board alone to this and :func:`_play` measured 10-20% off a
    decision of the general kernel)."""
    n = cfg.n
    for offset in range(1, n + 1):
        p = b[_u(g), CURRENT] + offset
        if p >= n:
            if p == n:
                b[_u(g), ROUNDS] += 1  # the search passes seat 0: a new round (taken back if nobody acts)
            p -= n
        if (b[_u(g), PASSED] >> p) & 1:
            continue
        if b[_u(g), _u(OPEN + p)] != 0:
            top = b[_u(g), TOP]
            if top < cfg.deck:
                b[_u(g), _u(HAND + p)] |= b[_u(g), _u(ORDER + top)] << (8 * b[_u(g), _u(HAND_LEN + p)])
                b[_u(g), _u(HAND_LEN + p)] += 1
                b[_u(g), TOP] = top + 1
            if b[_u(g), _u(HAND_LEN + p)] > 0:
                b[_u(g), CURRENT] = p
                return
        if cfg.explicit_claims and _first_claim(cfg, b, g, p, scratch) >= 0:
            b[_u(g), CURRENT] = p
            return
    b[_u(g), ROUNDS] -= 1
    b[_u(g), OVER] = 1


@numba.njit(cache=True, inline="always")
def _award(cfg: Config, b: Array, g: int, t: int, p: int) -> None:
    """Territory t of game g goes to p with the next marker (Game._award)."""
    b[_u(g), _u(OWNER + t)] = p
    decided = b[_u(g), DECIDED] + 1
    b[_u(g), DECIDED] = decided
    b[_u(g), _u(MARKER + t)] = decided
    for q in range(cfg.n):
        b[_u(g), _u(OPEN + q)] &= ~(1 << t)
    if decided == TERRITORIES:
        b[_u(g), OVER] = 1


@numba.njit(cache=True, inline="always")
def _resolve(cfg: Config, b: Array, g: int, mask: int, t: int, complete: bool, scratch: Array) -> None:
    """Decide, in table order, every territory complete for all (and, with
    auto-claims, every provable one) after a play of ``mask`` into t
    (Game._resolve_after_play). Without auto-claims only t itself can change.

    With auto-claims, each undecided territory u that has a complete army was
    left by the last look at it with every complete army there beaten by an
    army an opponent could still reach (:func:`_beaten_by`), and NEEDS[u]
    holds the cards those armies take from the pool. A play changes one army,
    in t, and takes one card, ``mask``, from the pool: u is looked at again
    when it is t or NEEDS[u] holds ``mask``; elsewhere every such army is
    still reachable and nothing can be claimed. (With private proof a
    claimant's own draw also shrinks its pool: every such u is looked at.)"""
    n = cfg.n
    if cfg.auto_claim:
        contested = b[_u(g), CONTESTED]
        if contested == 0:
            return
        if cfg.private:
            look = contested
        else:
            look = contested & (1 << t)
            for u in range(TERRITORIES):
                look |= ((b[_u(g), _u(NEEDS + u)] >> mask) & 1) << u
            look &= contested
        if look == 0:
            return
        # (The territories to look at by their bits, in table order; the claimants in
        # completion order in scratch, without a view: see _claim_status.)
        while look != 0:
            u = _NTH_BIT[_u(look * 8)]
            look &= look - 1
            if b[_u(g), _u(OWNER + u)] != NOBODY:
                contested &= ~(1 << u)
                continue
            n_done = 0
            for q in range(n):
                done = b[_u(g), _u(COMPLETED + _at(u, q))]
                if done != NOT_COMPLETE:
                    # complete players, earliest first
                    k = n_done
                    while k > 0 and b[_u(g), _u(COMPLETED + _at(u, scratch[_u(BY_COMPLETION + k - 1)]))] > done:
                        scratch[_u(BY_COMPLETION + k)] = scratch[_u(BY_COMPLETION + k - 1)]
                        k -= 1
                    scratch[_u(BY_COMPLETION + k)] = q
                    n_done += 1
            if n_done == n:
                _award(cfg, b, g, u, _first_ranked(b[_u(g)], u, n))
                contested &= ~(1 << u)
            else:
                needs = 0
                for k in range(n_done):
                    q = scratch[_u(BY_COMPLETION + k)]
                    status = _claim_status(cfg, b, g, u, q, scratch)
                    if status < 0:
                        _award(cfg, b, g, u, q)
                        contested &= ~(1 << u)
                        break
                    needs |= status
                b[_u(g), _u(NEEDS + u)] = needs
            if b[_u(g), OVER]:
                break
        b[_u(g), CONTESTED] = contested
    elif complete:
        for q in range(n):
            if b[_u(g), _u(COMPLETED + _at(t, q))] == NOT_COMPLETE:
                return
        _award(cfg, b, g, t, _first_ranked(b[_u(g)], t, n))


@numba.njit(cache=True, inline="always")
def _play(cfg: Config, b: Array, g: int, mask: int, t: int, scratch: Array) -> None:
    """The seat to act plays its first card ``mask`` into t (Game._play); ``b`` is
    the board (see :func:`advance`)."""
    p = b[_u(g), CURRENT]
    h = b[_u(g), _u(HAND + p)]
    length_h = b[_u(g), _u(HAND_LEN + p)]
    i = _NTH_BIT[_u((_lanes_holding(h, length_h, mask) & 255) * 8)]
    b[_u(g), _u(HAND + p)] = _without_lane(h, i)
    b[_u(g), _u(HAND_LEN + p)] = length_h - 1
    b[_u(g), _u(HIDDEN + mask)] -= 1
    a = ARMY_AT + _at(t, p)
    length = b[_u(g), _u(ARMY_LEN + _at(t, p))]
    b[_u(g), _u(a)] |= mask << (8 * length)
    b[_u(g), _u(ARMY_LEN + _at(t, p))] = length + 1
    b[_u(g), PASSED] = 0
    complete = length == ARMY - 1
    if complete:
        b[_u(g), _u(COMPLETED + _at(t, p))] = b[_u(g), PLAYS]
        b[_u(g), _u(OPEN + p)] &= ~(1 << t)
        b[_u(g), CONTESTED] |= 1 << t
    b[_u(g), PLAYS] += 1
    _resolve(cfg, b, g, mask, t, complete, scratch)
    if not b[_u(g), OVER]:
        advance(cfg, b, g, scratch)


@numba.njit(cache=True, inline="always")
def apply_action(cfg: Config, s: State, g: int, a: int, scratch: Array) -> None:
    """Carry out action index ``a`` (ordonnance.rl's numbering) for the seat to act;
    ``a`` must be legal (:func:`is_legal`). A claim leaves the turn with the
    claimant while it can still act; a pass is remembered (PASSED)."""
    b = s.board
    if a < CLAIM_ACTIONS:
        _play(cfg, b, g, a // TERRITORIES + 1, a % TERRITORIES, scratch)
        return
    p = b[_u(g), CURRENT]
    if a < PASS_ACTION:
        b[_u(g), PASSED] = 0
        _award(cfg, b, g, a - CLAIM_ACTIONS, p)
        if b[_u(g), OVER] or _can_play(b, g, p) or _first_claim(cfg, b, g, p, scratch) >= 0:
            return
    else:
        b[_u(g), PASSED] |= 1 << p
    advance(cfg, b, g, scratch)


@numba.njit(cache=True, inline="always")
def is_legal(cfg: Config, s: State, g: int, a: int, scratch: Array) -> bool:
    """Whether action index ``a`` is legal for the seat to act in game g (any int)."""
    b = s.board
    if b[_u(g), OVER] or a < 0 or a >= NUM_ACTIONS:
        return False
    p = b[_u(g), CURRENT]
    if a < CLAIM_ACTIONS:
        t = a % TERRITORIES
        held = _lanes_holding(b[_u(g), _u(HAND + p)], b[_u(g), _u(HAND_LEN + p)], a // TERRITORIES + 1)
        return ((b[_u(g), _u(OPEN + p)] >> t) & 1) != 0 and held != 0
    if not cfg.explicit_claims:
        return False
    if a < PASS_ACTION:
        return _claimable(cfg, b, g, a - CLAIM_ACTIONS, p, scratch)
    return not _can_play(b, g, p) and _first_claim(cfg, b, g, p, scratch) >= 0


@numba.njit(cache=True, inline="always")
def legal_mask(cfg: Config, s: State, g: int, row: npt.NDArray[np.bool_], scratch: Array) -> None:
    """``row[a]``: whether action a is legal in game g now (all False once over)."""
    b = s.board
    row[:] = False
    if b[_u(g), OVER]:
        return
    p = b[_u(g), CURRENT]
    h = b[_u(g), _u(HAND + p)]
    firsts = _first_copies(h, b[_u(g), _u(HAND_LEN + p)])
    open_here = b[_u(g), _u(OPEN + p)]
    for ci in range(bit_count(firsts)):
        base = (lane(h, _NTH_BIT[_u(firsts * 8 + ci)]) - 1) * TERRITORIES
        for oi in range(bit_count(open_here)):
            row[_u(base + _NTH_BIT[_u(open_here * 8 + oi)])] = True
    if cfg.explicit_claims:
        claims = False
        for t in range(TERRITORIES):
            if _claimable(cfg, b, g, t, p, scratch):
                row[_u(CLAIM_ACTIONS + t)] = True
                claims = True
        row[PASS_ACTION] = claims and not _can_play(b, g, p)


@numba.njit(cache=True, inline="always")
def bot_action(cfg: Config, s: State, g: int, scratch: Array) -> int:
    """The action index the kernel bot of the seat to act chooses (the bots' twins).

    Greedy claims first, Random only without a play; plays are enumerated in
    the engine's order (distinct cards in hand order x open territories).
    """
    b = s.board
    p = b[_u(g), CURRENT]
    h = b[_u(g), _u(HAND + p)]
    firsts = _first_copies(h, b[_u(g), _u(HAND_LEN + p)])
    n_distinct = bit_count(firsts)
    open_here = b[_u(g), _u(OPEN + p)]
    n_open = bit_count(open_here)
    n_plays = n_distinct * n_open
    greedy = (cfg.greedy >> p) & 1
    if cfg.explicit_claims and (greedy or n_plays == 0):
        t = _first_claim(cfg, b, g, p, scratch)
        if t >= 0:
            return CLAIM_ACTIONS + t
    if n_plays == 0:
        return PASS_ACTION  # only reachable when the engine would not ask: defensive
    if greedy:
        n_best = 0  # the tied best plays: lanes at BEST_LANES, territories at BEST_TS of scratch (no views)
        best_key = -1
        best_done = 0
        for ci in range(n_distinct):
            i = _NTH_BIT[_u(firsts * 8 + ci)]
            m = lane(h, i)
            for oi in range(n_open):
                t = _NTH_BIT[_u(open_here * 8 + oi)]
                length = b[_u(g), _u(ARMY_LEN + _at(t, p))]
                key = _word_key(b[_u(g), _u(ARMY_AT + _at(t, p))] | (m << (8 * length)))
                done = 1 if length == ARMY - 1 else 0
                if key > best_key or (key == best_key and done > best_done):
                    best_key = key
                    best_done = done
                    n_best = 0
                if key == best_key and done == best_done:
                    scratch[_u(BEST_LANES + n_best)] = i
                    scratch[_u(BEST_TS + n_best)] = t
                    n_best += 1
        state, value = splitmix64(s.rng[_u(g), _u(p)])
        s.rng[_u(g), _u(p)] = state
        pick = bounded(value, n_best)
        i = scratch[_u(BEST_LANES + pick)]
        t = scratch[_u(BEST_TS + pick)]
    else:
        # One output picks both: the high half the card, the low half the territory.
        state, value = splitmix64(s.rng[_u(g), _u(p)])
        s.rng[_u(g), _u(p)] = state
        i = _NTH_BIT[_u(firsts * 8 + bounded(value, n_distinct))]
        t = _NTH_BIT[_u(open_here * 8 + bounded(value << _S32, n_open))]
    return int((lane(h, i) - 1) * TERRITORIES + t)


@numba.njit(cache=True, inline="always")
def record_action(s: State, g: int, a: int, row: Array) -> None:
    """``row`` = (seat, mask, territory) of action a by the seat to act: mask 0 for
    a claim, territory -1 for a pass (SimulationResult.actions)."""
    row[0] = s.board[_u(g), CURRENT]
    if a < CLAIM_ACTIONS:
        row[1] = a // TERRITORIES + 1
        row[2] = a % TERRITORIES
    elif a < PASS_ACTION:
        row[1] = 0
        row[2] = a - CLAIM_ACTIONS
    else:
        row[1] = 0
        row[2] = -1


@numba.njit(cache=True, inline="always")
def recorded_action(row: Array) -> int:
    """The action number of a row :func:`record_action` wrote."""
    mask = int(row[1])  # (the record's int8: no overflow below, also without the JIT)
    t = int(row[2])
    if t < 0:
        return PASS_ACTION
    if mask == 0:
        return CLAIM_ACTIONS + t
    return (mask - 1) * TERRITORIES + t


# The rules compiled once each. numba compiles an ``inline="always"`` function
# again at every place that calls it, and the rules above are such functions
# all the way down: every search, batched or single-game kernel that called
# them directly compiled the whole engine again at each call (the ISMCTS
# search five times). These entry points hold one copy each, which every
# kernel outside the simulator's own loops calls (and LLVM may still inline).
# numba compiles a function again for each literal constant it is handed, so
# the kernels of one game pass ONLY_GAME (an int64) as ``g``, not a literal 0, to
# every kernel compiled apart (the simulator, the searches, the environments and
# the batched games then share one compile of each).

#: Game 0 of a one-game state, typed as any other game index (see above).
ONLY_GAME = cast(int, np.int64(0))
#: No action (a ``forced`` action of :func:`play_out`), typed as any action index.
NO_ACTION = cast(int, np.int64(-1))
#: ``record=False`` for :func:`play_out`, typed as any flag (simulate's is a variable).
NO_RECORD = cast(bool, np.bool_(False))


@numba.njit(cache=True)
def step(cfg: Config, s: State, g: int, a: int, scratch: Array) -> None:
    """:func:`apply_action`, compiled once."""
    apply_action(cfg, borrowed_state(s), g, a, borrowed(scratch))


@numba.njit(cache=True)
def chosen(cfg: Config, s: State, g: int, scratch: Array) -> int:
    """:func:`bot_action`, compiled once."""
    return bot_action(cfg, borrowed_state(s), g, borrowed(scratch))


@numba.njit(cache=True)
def legal(cfg: Config, s: State, g: int, a: int, scratch: Array) -> bool:
    """:func:`is_legal`, compiled once."""
    return is_legal(cfg, borrowed_state(s), g, a, borrowed(scratch))


@numba.njit(cache=True)
def fill_legal_mask(cfg: Config, s: State, g: int, row: npt.NDArray[np.bool_], scratch: Array) -> None:
    """:func:`legal_mask`, compiled once."""
    legal_mask(cfg, borrowed_state(s), g, borrowed(row), borrowed(scratch))


@numba.njit(cache=True)
def first_claim(cfg: Config, b: Array, g: int, p: int, scratch: Array) -> int:
    """:func:`_first_claim`, compiled once."""
    return _first_claim(cfg, borrowed(b), g, p, borrowed(scratch))


@numba.njit(cache=True)
def play_out(cfg: Config, s: State, g: int, forced: int, out_actions: Array, record: bool, scratch: Array) -> int:
    """Play game g to its end with the kernel bots (Game's rules, the bots' twins).

    With ``forced >= 0`` that action index is the first decision. Returns the
    number of actions taken; with ``record`` the first MAX_ACTIONS are written
    to ``out_actions`` as :func:`record_action` does.
    """
    s, out_actions, scratch = borrowed_state(s), borrowed(out_actions), borrowed(scratch)
    actions = 0
    while not s.board[_u(g), OVER]:
        if forced >= 0:
            a = forced
            forced = -1
        else:
            a = bot_action(cfg, s, g, scratch)
        if record and actions < MAX_ACTIONS:
            record_action(s, g, a, out_actions[_u(actions)])
        apply_action(cfg, s, g, a, scratch)
        actions += 1
    return actions


@numba.njit(cache=True)
def deal(cfg: Config, s: State, g: int, cards: Array, seed: np.uint64, bots: npt.NDArray[np.uint64], scratch: Array) -> None:
    """Game g set to ``Game.new(rules, seed=seed)``: ``cards`` (:func:`deck_of`)
    shuffled, five cards each, the first turn handed out; ``bots[p]`` seeds
    seat p's kernel bot."""
    _shuffle(cards, seed, s.board[_u(g), ORDER : ORDER + cfg.deck], scratch[DRAWS:SCRATCH])
    _dealt(cfg, s, g, bots, scratch)


@numba.njit(cache=True)
def deal_order(cfg: Config, s: State, g: int, order: npt.NDArray[np.integer[Any]], bots: npt.NDArray[np.uint64], scratch: Array) -> None:
    """Game g set to ``Game.new(rules, deck=order)``: :func:`deal` from the deck order
    ``order`` (card masks, top first: a permutation of the rules' cards) instead of a shuffle."""
    for i in range(cfg.deck):
        s.board[_u(g), _u(ORDER + i)] = order[_u(i)]
    _dealt(cfg, s, g, bots, scratch)


@numba.njit(cache=True, inline="always")
def _dealt(cfg: Config, s: State, g: int, bots: npt.NDArray[np.uint64], scratch: Array) -> None:
    """Game g dealt from the deck order in its board: five cards each, the first turn handed out."""
    b = s.board
    n = cfg.n
    order = b[_u(g), ORDER : ORDER + cfg.deck]
    if cfg.claims_allowed or cfg.unseen:
        for m in range(32):
            b[_u(g), _u(HIDDEN + m)] = 0
        for i in range(cfg.deck):
            b[_u(g), _u(HIDDEN + order[_u(i)])] += 1
    # (Loops rather than slice assignments: these arrays are too small for memset.)
    for t in range(TERRITORIES):
        b[_u(g), _u(OWNER + t)] = NOBODY
        b[_u(g), _u(MARKER + t)] = 0
        for p in range(n):
            b[_u(g), _u(ARMY_AT + _at(t, p))] = 0
            b[_u(g), _u(ARMY_LEN + _at(t, p))] = 0
            b[_u(g), _u(COMPLETED + _at(t, p))] = NOT_COMPLETE
            if cfg.claims_allowed:
                for q in range(n):
                    b[_u(g), _u(WITNESS + _at(t, p) * SEATS + q)] = 0
    for p in range(n):
        s.rng[_u(g), _u(p)] = bots[_u(p)]
        b[_u(g), _u(HAND + p)] = _dealt_hand(order, n, p)
        b[_u(g), _u(HAND_LEN + p)] = HAND_SIZE
        b[_u(g), _u(OPEN + p)] = (1 << TERRITORIES) - 1
    b[_u(g), TOP] = HAND_SIZE * n
    b[_u(g), PLAYS] = 0
    b[_u(g), DECIDED] = 0
    b[_u(g), CURRENT] = n - 1
    b[_u(g), OVER] = 0
    b[_u(g), PASSED] = 0
    b[_u(g), CONTESTED] = 0
    b[_u(g), PROVEN] = 0
    b[_u(g), ROUNDS] = 0
    advance(cfg, b, g, scratch)


@numba.njit(cache=True)
def prepare(cfg: Config, s: State, g: int) -> None:
    """Derive game g's open territories and contested set from its armies and owners,
    and forget the claim witnesses and proofs (for a position written into the board
    directly: a remembered proof holds only along the game that made it)."""
    b = s.board
    n = cfg.n
    b[_u(g), CONTESTED] = 0
    b[_u(g), PROVEN] = 0
    for p in range(n):
        b[_u(g), _u(OPEN + p)] = 0
    for t in range(TERRITORIES):
        for p in range(n):
            if b[_u(g), _u(OWNER + t)] == NOBODY and b[_u(g), _u(ARMY_LEN + _at(t, p))] < ARMY:
                b[_u(g), _u(OPEN + p)] |= 1 << t
            if b[_u(g), _u(COMPLETED + _at(t, p))] != NOT_COMPLETE:
                b[_u(g), CONTESTED] |= 1 << t
                b[_u(g), _u(NEEDS + t)] = -1  # every card: the first play looks at t
            for q in range(n):
                b[_u(g), _u(WITNESS + _at(t, p) * SEATS + q)] = 0


@numba.njit(cache=True)
def copy_game(src: State, i: int, dst: State, j: int) -> None:
    """Game i of ``src`` copied into game j of ``dst`` (same deck size)."""
    for k in range(src.board.shape[1]):
        dst.board[_u(j), _u(k)] = src.board[_u(i), _u(k)]
    for p in range(SEATS):
        dst.rng[j, p] = src.rng[i, p]


@numba.njit(cache=True)
def outcome(cfg: Config, s: State, g: int, scores: Array, scratch: Array) -> int:
    """Game g's scores (into ``scores``, n entries) and its winner (-1: nobody)."""
    n = cfg.n
    row = s.board[_u(g)]
    keys = scratch[KEYS : KEYS + TERRITORIES * SEATS]
    keys_of(n, row, keys)
    scores_of(n, keys, row, cfg.scoring, scores)
    only = _sole_leader(scores, n)
    if only != NOBODY:
        return only  # (as _winner would, without its call and the views it takes)
    w = scratch[WINNER_WORK : WINNER_WORK + 16]
    return _winner(scores, row[OWNER : OWNER + TERRITORIES], row[MARKER : MARKER + TERRITORIES], n, cfg.tie_break, w[0:4], w[4:8], w[8:12], w[12:16])


@numba.njit(cache=True)
def scores_of(n: int, keys: Array, row: Array, scoring: int, scores: Array) -> None:
    """Game.scores of the game in ``row``: territories held, or points 3, 2, 1 by rank.

    ``keys`` holds every army's key (:func:`keys_of`).
    """
    for p in range(n):
        scores[_u(p)] = 0
    for t in range(TERRITORIES):
        owner = row[_u(OWNER + t)]
        if owner == NOBODY:
            continue
        if scoring == TERRITORIES_SCORING:
            scores[_u(owner)] += 1
            continue
        # every army is complete where points are scored
        for p in range(n):
            rank = 0
            for q in range(n):
                rank += _ahead(keys[_u(_at(t, q))], row[_u(COMPLETED + _at(t, q))], keys[_u(_at(t, p))], row[_u(COMPLETED + _at(t, p))])
            scores[_u(p)] += _rank_points(rank)


@numba.njit(cache=True, inline="always")
def _rank_points(rank: int) -> int:
    """Points scoring: 3, 2 and 1 points for the armies ranked first, second and third."""
    return max(3 - rank, 0)


@numba.njit(cache=True, inline="always")
def _shuffle(cards: npt.NDArray[np.int64], seed: np.uint64, order: npt.NDArray[np.int64], draws: npt.NDArray[np.int64]) -> None:
    """The deck order of Game.new: Fisher-Yates from the end on SplitMix64 (top card first).

    The draws need not wait on each other (:func:`_nth_output`): they are
    made :data:`SHUFFLE_DRAWS` at a time into ``draws`` (at least that many
    int64) in a loop LLVM vectorises, then the swaps are made one by one.
    """
    size = cards.shape[0]
    for i in range(size):
        order[_u(i)] = cards[_u(i)]
    done = 0  # swaps made: the next is at position size - 1 - done
    while done < size - 1:
        count = min(SHUFFLE_DRAWS, size - 1 - done)
        for k in range(count):
            draws[_u(k)] = bounded(_nth_output(seed, done + k + 1), size - done - k)
        for k in range(count):
            i = size - 1 - done - k
            j = draws[_u(k)]
            order[_u(i)], order[_u(j)] = order[_u(j)], order[_u(i)]
        done += count


@numba.njit(cache=True, inline="always")
def _dealt_hand(order: npt.NDArray[np.int64], n: int, p: int) -> int:
    """Seat p's hand word at the deal: cards p, n + p, 2n + p, ... of the deck (round-robin)."""
    hand = 0
    for k in range(HAND_SIZE):
        hand |= order[_u(k * n + p)] << (8 * k)
    return hand


class Results(NamedTuple):
    """The arrays :func:`simulate` and :func:`simulate_random` fill, one row per game: those of
    :class:`ordonnance.SimulationResult` (:func:`simulate` takes them as int64)."""

    owner: npt.NDArray[np.integer[Any]]  # [game, territory]: the seat that won it, or -1
    marker: npt.NDArray[np.integer[Any]]  # [game, territory]: its victory marker 1..5, or 0
    scores: npt.NDArray[np.integer[Any]]  # [game, seat]: the seat's score
    winner: npt.NDArray[np.integer[Any]]  # the winning seat, or -1
    actions: npt.NDArray[np.integer[Any]]  # [game, i]: the i-th action (see record_action), if recorded
    decisions: npt.NDArray[np.integer[Any]]  # actions the seats took
    rounds: npt.NDArray[np.integer[Any]]  # rounds the game lasted (see advance)


@numba.njit(cache=True)
def simulate(
    cfg: Config,
    s: State,
    cards: Array,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    out: Results,
    record: bool,
    scratch: Array,
) -> None:
    """Play ``len(seeds)`` games one after another in game 0 of ``s``, game ``g`` into row ``g`` of ``out``.

    Recorded actions are (player, mask, territory) as :func:`record_action`;
    every game's actions and rounds are counted (rounds: see :func:`advance`).
    """
    s, cards, actions, scratch = borrowed_state(s), borrowed(cards), borrowed(out.actions), borrowed(scratch)
    for g in range(seeds.shape[0]):
        deal(cfg, s, ONLY_GAME, cards, seeds[_u(g)], bot_seeds[_u(g)], scratch)
        _play_into(cfg, s, g, out, actions[_u(g)], record, scratch)


@numba.njit(cache=True)
def simulate_orders(
    cfg: Config,
    s: State,
    orders: npt.NDArray[np.integer[Any]],
    bot_seeds: npt.NDArray[np.uint64],
    out: Results,
    record: bool,
    scratch: Array,
) -> None:
    """:func:`simulate` dealing game ``g`` from the deck order ``orders[g]`` (:func:`deal_order`)."""
    s, orders, actions, scratch = borrowed_state(s), borrowed(orders), borrowed(out.actions), borrowed(scratch)
    for g in range(orders.shape[0]):
        deal_order(cfg, s, ONLY_GAME, orders[_u(g)], bot_seeds[_u(g)], scratch)
        _play_into(cfg, s, g, out, actions[_u(g)], record, scratch)


@numba.njit(cache=True)
def drawers(
    cfg: Config,
    s: State,
    orders: npt.NDArray[np.integer[Any]],
    actions: npt.NDArray[np.integer[Any]],
    counts: npt.NDArray[np.integer[Any]],
    places: npt.NDArray[np.integer[Any]],
    out: Array,
    scratch: Array,
) -> None:
    """``out[g]``: the seat that drew card ``places[g]`` of the deck order ``orders[g]`` (top first)
    when game ``g`` is replayed from its first ``counts[g]`` recorded actions (``actions[g]``, as
    :func:`record_action` writes them), or NOBODY if the game ended before that card was drawn.

    The game is dealt (:func:`deal_order`) and its actions applied (:func:`apply_action`) in game 0
    of ``s``; the watched card's drawer is the seat the deal gave it to (:func:`_dealt_hand`) or the
    seat to act once the deck's draw position (TOP) has passed it, a draw being the turn's first step."""
    s, scratch = borrowed_state(s), borrowed(scratch)
    n = cfg.n
    marks = np.zeros(cfg.deck, np.int64)
    bots = np.zeros(SEATS, np.uint64)
    for g in range(orders.shape[0]):
        place = int(places[_u(g)])
        deal_order(cfg, s, ONLY_GAME, orders[_u(g)], bots, scratch)
        drawer = NOBODY
        if place < s.board[0, TOP]:
            drawer = s.board[0, CURRENT]
            marks[_u(place)] = 1
            for p in range(n):
                if _dealt_hand(marks, n, p) != 0:
                    drawer = p
            marks[_u(place)] = 0
        for k in range(counts[_u(g)]):
            if drawer != NOBODY:
                break
            step(cfg, s, ONLY_GAME, recorded_action(actions[_u(g), _u(k)]), scratch)
            if place < s.board[0, TOP]:
                drawer = s.board[0, CURRENT]
        out[_u(g)] = drawer


@numba.njit(cache=True, inline="always")
def _play_into(cfg: Config, s: State, g: int, out: Results, actions: Array, record: bool, scratch: Array) -> None:
    """Play the game dealt in game 0 of ``s`` to its end, into row ``g`` of ``out``."""
    scores = scratch[SCORES : SCORES + cfg.n]
    out.decisions[_u(g)] = play_out(cfg, s, ONLY_GAME, NO_ACTION, actions, record, scratch)
    out.rounds[_u(g)] = s.board[0, ROUNDS]
    out.winner[_u(g)] = outcome(cfg, s, ONLY_GAME, scores, scratch)
    for t in range(TERRITORIES):
        out.owner[_u(g), _u(t)] = s.board[0, _u(OWNER + t)]
        out.marker[_u(g), _u(t)] = s.board[0, _u(MARKER + t)]
    for p in range(cfg.n):
        out.scores[_u(g), _u(p)] = scores[_u(p)]


@numba.njit(cache=True, inline="always")
def _random_seat(deck: npt.NDArray[np.int64], n: int, p: int) -> tuple[int, int, int]:
    """Seat p's hand at the deal, for :func:`_random_turn`: (hand, its length,
    the lanes holding first copies as :func:`_first_copies`)."""
    hand = _dealt_hand(deck, n, p)
    return hand, HAND_SIZE, _first_copies(hand, HAND_SIZE)


@numba.njit(cache=True, inline="always")
def _random_turn(
    hand: int, length: int, firsts: int, open_here: int, lengths: int, value: np.uint64, card: int
) -> tuple[int, int, int, int, int, int, int, int]:
    """One turn of a Random bot in :func:`simulate_random`: draw ``card`` (0 when
    the deck is empty), choose as the bot does with ``value``, the next output
    of its generator, play.

    The seat's state is its hand (as :func:`_random_seat`), its open
    territories and how many cards it has in each (3-bit fields); returns the
    new state and the play: card, territory, and how many cards the seat had
    there before.
    """
    hand, length, firsts = _draw(hand, length, firsts, card)
    # One output picks both: the high half the card, the low half the territory.
    i = _NTH_BIT[_u(firsts * 8 + bounded(value, bit_count(firsts)))]
    t = _NTH_BIT[_u(open_here * 8 + bounded(value << _S32, bit_count(open_here)))]
    mask = lane(hand, i)
    hand, length, firsts = _take(hand, length, firsts, i)
    there = (lengths >> (3 * t)) & 7
    open_here &= ~(((there + 1) >> 2) << t)  # closed by the fourth card
    return hand, length, firsts, open_here, lengths + (1 << (3 * t)), mask, t, there


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
    out_actions: npt.NDArray[np.integer[Any]],
    record: bool,
) -> None:
    """Seat p's k-th play (play number kn + p of game g) onto the table;
    ``army`` and ``completed`` are flat, seat by seat (index p * TERRITORIES + t)."""
    slot = p * TERRITORIES + t
    army[_u(slot)] |= mask << (8 * there)
    completed[_u(slot)] = k * n + p  # the last write is the fourth card's
    if record:
        out_actions[_u(g), _u(k * n + p), 0] = p
        out_actions[_u(g), _u(k * n + p), 1] = mask
        out_actions[_u(g), _u(k * n + p), 2] = t


@numba.njit(cache=True)
def simulate_random(
    cards: npt.NDArray[np.int64],
    n: int,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    scoring: int,
    tie_break: int,
    out: Results,
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
    one tight loop, two players side by side (:func:`_play_random`); the territories are decided
    afterwards, in the order their last armies were completed. The tests hold
    this to :func:`simulate` game by game.
    """
    ncards = cards.shape[0]
    dealt = HAND_SIZE * n + TERRITORIES * ARMY * n  # cards the deal and every turn would draw
    # Zeros past the deck read as "no card to draw".
    deck = np.zeros(max(ncards, dealt), np.int64)
    order = deck[:ncards]
    army = np.zeros(n * TERRITORIES, np.int64)  # flat: seat, territory
    completed = np.zeros(n * TERRITORIES, np.int64)
    keys = np.zeros(n * TERRITORIES, np.int64)
    owner = np.zeros(TERRITORIES, np.int64)
    marker = np.zeros(TERRITORIES, np.int64)
    decided_at = np.zeros(TERRITORIES, np.int64)
    scores = np.zeros(n, np.int64)
    ties = np.zeros(4 * n, np.int64)
    draws = np.zeros(SHUFFLE_DRAWS, np.int64)
    values = np.zeros(2 * TERRITORIES * ARMY, np.uint64)
    refills = ncards >= dealt
    for g in range(seeds.shape[0]):
        _shuffle(cards, seeds[_u(g)], order, draws)
        for slot in range(n * TERRITORIES):
            army[_u(slot)] = 0
        if refills:  # a constant in each copy of the turns
            _play_random(g, n, deck, bot_seeds, army, completed, out.actions, record, True, values)
        else:
            _play_random(g, n, deck, bot_seeds, army, completed, out.actions, record, False, values)
        _decide(n, army, completed, scoring, keys, owner, marker, decided_at, scores)
        for t in range(TERRITORIES):
            out.owner[_u(g), _u(t)] = owner[_u(t)]
            out.marker[_u(g), _u(t)] = marker[_u(t)]
        for p in range(n):
            out.scores[_u(g), _u(p)] = scores[_u(p)]
        leader = _sole_leader(scores, n)
        if leader == NOBODY:
            leader = _winner(scores, owner, marker, n, tie_break, ties[0:n], ties[n : 2 * n], ties[2 * n : 3 * n], ties[3 * n :])
        out.winner[_u(g)] = leader
        out.decisions[_u(g)] = TERRITORIES * ARMY * n
        out.rounds[_u(g)] = TERRITORIES * ARMY  # every seat's turn in each, no seat skipped


@numba.njit(cache=True, inline="always")
def _play_random(
    g: int,
    n: int,
    deck: npt.NDArray[np.int64],
    bot_seeds: npt.NDArray[np.uint64],
    army: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    out_actions: npt.NDArray[np.integer[Any]],
    record: bool,
    refills: bool,
    values: npt.NDArray[np.uint64],
) -> None:
    """Every turn of game g of :func:`simulate_random`, dealt in ``deck``, onto its
    armies (see :func:`_place`). Two seats at a time, so that the processor
    overlaps their turns; with an odd number the last one plays beside itself
    (the same writes). Each turn takes one output of its seat's generator;
    they are drawn first, two seats' 20 each into ``values``, in a loop
    that LLVM vectorises (:func:`_nth_output`). ``refills``: the deck lasts all game, so
    that every turn begins with a full hand (a constant where it is passed as one)."""
    turns = TERRITORIES * ARMY
    for a in range(0, n, 2):
        b = min(a + 1, n - 1)
        seed_a, seed_b = bot_seeds[_u(g), _u(a)], bot_seeds[_u(g), _u(b)]
        for k in range(turns):
            values[_u(2 * k)] = _nth_output(seed_a, k + 1)
            values[_u(2 * k + 1)] = _nth_output(seed_b, k + 1)
        hand_a, length_a, firsts_a = _random_seat(deck, n, a)
        hand_b, length_b, firsts_b = _random_seat(deck, n, b)
        open_a = open_b = (1 << TERRITORIES) - 1
        lengths_a = lengths_b = 0
        for k in range(turns):
            top = HAND_SIZE * n + k * n
            if refills:
                length_a = length_b = HAND_SIZE
            hand_a, length_a, firsts_a, open_a, lengths_a, mask_a, t_a, there_a = _random_turn(
                hand_a, length_a, firsts_a, open_a, lengths_a, values[_u(2 * k)], deck[_u(top + a)]
            )
            hand_b, length_b, firsts_b, open_b, lengths_b, mask_b, t_b, there_b = _random_turn(
                hand_b, length_b, firsts_b, open_b, lengths_b, values[_u(2 * k + 1)], deck[_u(top + b)]
            )
            _place(g, n, a, k, mask_a, t_a, there_a, army, completed, out_actions, record)
            _place(g, n, b, k, mask_b, t_b, there_b, army, completed, out_actions, record)


@numba.njit(cache=True, inline="always")
def _decide(
    n: int,
    army: npt.NDArray[np.int64],
    completed: npt.NDArray[np.int64],
    scoring: int,
    keys: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    marker: npt.NDArray[np.int64],
    decided_at: npt.NDArray[np.int64],
    scores: npt.NDArray[np.int64],
) -> None:
    """A game of :func:`simulate_random` once every army is complete (as
    :func:`_place` leaves them): rank the armies, which decides each territory
    (``owner``) and scores it (``scores``), then the markers; ``keys`` and
    ``decided_at`` are working space."""
    for p in range(n):
        scores[_u(p)] = 0
    for slot in range(n * TERRITORIES):  # vectorised
        keys[_u(slot)] = _word_key(army[_u(slot)])
    for t in range(TERRITORIES):
        # The leader, chosen without branches: the order of the plays decides ties.
        best, best_key, best_done = 0, keys[_u(t)], completed[_u(t)]
        last = best_done
        for p in range(1, n):
            key, done = keys[_u(p * TERRITORIES + t)], completed[_u(p * TERRITORIES + t)]
            ahead = _ahead(key, done, best_key, best_done)
            best = p if ahead else best
            best_key = key if ahead else best_key
            best_done = done if ahead else best_done
            last = max(last, done)
        decided_at[_u(t)] = last
        owner[_u(t)] = best
        if scoring == POINTS_SCORING:
            for p in range(n):
                mine, done = keys[_u(p * TERRITORIES + t)], completed[_u(p * TERRITORIES + t)]
                rank = 0
                for q in range(n):
                    rank += _ahead(keys[_u(q * TERRITORIES + t)], completed[_u(q * TERRITORIES + t)], mine, done)
                scores[_u(p)] += _rank_points(rank)
        else:
            scores[_u(best)] += 1
    for t in range(TERRITORIES):
        before = 1
        for u in range(TERRITORIES):
            before += decided_at[_u(u)] < decided_at[_u(t)]
        marker[_u(t)] = before


@numba.njit(cache=True, inline="always")
def _sole_leader(scores: npt.NDArray[np.int64], n: int) -> int:
    """The seat with the highest score when no other has it, else NOBODY."""
    best, leader, tied = scores[0], 0, 0
    for p in range(1, n):
        score = scores[_u(p)]
        tied = 1 if score == best else (0 if score > best else tied)
        leader = p if score > best else leader
        best = max(score, best)
    return NOBODY if tied else leader


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
    candidates: npt.NDArray[np.int64],
) -> int:
    """Game.winner: highest score; ties by the tie-break; None (-1) when nobody wins.

    ``sums``, ``latest``, ``counts`` and ``candidates`` are working space (n entries)."""
    only = _sole_leader(scores, n)
    if only != NOBODY:
        return only
    best = scores[0]
    for p in range(1, n):
        best = max(best, scores[_u(p)])
    sums[:] = 0
    latest[:] = 0
    counts[:] = 0
    for t in range(TERRITORIES):
        q = owner[_u(t)]
        if q != NOBODY:
            sums[_u(q)] += marker[_u(t)]
            counts[_u(q)] += 1
            latest[_u(q)] = max(latest[_u(q)], marker[_u(t)])
    for p in range(n):
        candidates[_u(p)] = 1 if scores[_u(p)] == best else 0
    if tie_break == LOWEST_MARKER_SUM:
        low = -1
        for p in range(n):
            if candidates[_u(p)] != 0 and counts[_u(p)] > 0 and (low < 0 or sums[_u(p)] < low):
                low = sums[_u(p)]
        if low >= 0:
            left = 0
            for p in range(n):
                candidates[_u(p)] = 1 if candidates[_u(p)] != 0 and counts[_u(p)] > 0 and sums[_u(p)] == low else 0
                if candidates[_u(p)] != 0:
                    left += 1
                    only = p
            if left == 1:
                return only
    top = 0
    who = -1
    for p in range(n):
        if candidates[_u(p)] != 0 and latest[_u(p)] > top:
            top = latest[_u(p)]
            who = p
    return who


