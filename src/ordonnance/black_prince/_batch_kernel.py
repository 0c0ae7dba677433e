"""Private numba kernel: many games of Black Prince stepped together, and their observations.

Batched games are the arrays of a :class:`~ordonnance.black_prince._kernel.State`
with a leading game dimension (:class:`Games`); game ``g`` is played by the
kernel's own functions (:func:`~ordonnance.black_prince._kernel.deal`,
:func:`~ordonnance.black_prince._kernel.settle`,
:func:`~ordonnance.black_prince._kernel.apply`,
:func:`~ordonnance.black_prince._kernel.choose`) on its slices, which are views.
This module holds no rule of its own, only the bookkeeping of episodes
(:mod:`ordonnance.core.batch`, whose history holds the kernel's action codes), the action indices of
:mod:`ordonnance.black_prince.pettingzoo` (an index to the kernel's code, the
legal mask of a decision) and its observation encoder, written here a second
time over the kernel's arrays and held to
:func:`~ordonnance.black_prince.pettingzoo.encode_view` by the twin tests.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from ordonnance.black_prince import _kernel as k
from ordonnance.black_prince._kernel import State, Tables
from ordonnance.black_prince.rules import MAX_DECK
from ordonnance.core.batch import (
    BOTS, DONE, EVERY_SEAT, INDEX, SEAT, Episodes, Steps, begin_episode, clear_step, finish_step, record,
)  # fmt: skip
from ordonnance.core.jit import borrowed

Array = npt.NDArray[np.int64]

#: The action indices of ordonnance.black_prince.pettingzoo (the first index of each kind).
I_PLACE, I_BEHIND, I_MOVE, I_BATTLE, I_END_TURN, I_RIDE, I_FIGHT, I_END_BATTLE = 0, 36, 72, 84, 85, 86, 98, 116
NUM_ACTIONS = 117
#: The observation of ordonnance.black_prince.pettingzoo: a cell, a hand slot, a discard pile (types and Battle).
TYPES = 8
CELL = 2 + TYPES
SLOT = 3 + TYPES
PILE = TYPES + 1
OBSERVATION_SIZE = 24 * CELL + 6 * SLOT + 2 * PILE + 3 * 6 + 1 + 4 + 1 + 6 + 1


def _tenths() -> npt.NDArray[np.float32]:
    """``[n]``: 0.1 added n times to a float32 zero, as encode_view counts a discard pile's cards."""
    total = np.zeros(1, np.float32)
    out = np.zeros(MAX_DECK + 1, np.float32)  # a seat's pile holds its own cards only
    for n in range(1, out.shape[0]):
        total[0] += 0.1
        out[n] = total[0]
    return out


TENTHS = _tenths()


class Config(NamedTuple):
    """What every game of a batch shares: the rules' cards and the kernel bot's policy."""

    tables: Tables  # the card kinds (black_prince._bridge.tables)
    canon: Array  # [seat, i]: each deck in kinds, padded with -1
    canon_len: Array  # [seat]: each deck's size
    coin: bool  # Rules.first == "coin"
    max_turns: int
    policy: int  # the kernel bot of the other seat (k.RANDOM or k.GREEDY; not read in self-play)


class Games(NamedTuple):
    """The batched positions: :class:`~ordonnance.black_prince._kernel.State`'s arrays with
    a leading game dimension, and each game's decision due."""

    cells: Array  # [g, 4, 6]
    hands: Array  # [g, 2, 6]
    hand_len: Array  # [g, 2]
    decks: Array  # [g, 2, D]
    deck_len: Array  # [g, 2]
    discards: Array  # [g, 2, D]
    discard_len: Array  # [g, 2]
    flags: Array  # [g, 3, 6]
    ints: Array  # [g, INTS]
    rng: npt.NDArray[np.uint64]  # [g, 1]
    legal: Array  # [g, MAX_LEGAL]: the legal actions of the decision due (kernel codes)
    n_legal: Array  # [g]: how many (0: the game is over)


def new_games(games: int, deck_size: int) -> Games:
    """A :class:`Games` of ``games`` games whose decks hold up to ``deck_size`` cards (to be reset)."""
    return Games(
        np.full((games, 4, k.COLUMNS), k.EMPTY, np.int64), np.full((games, 2, k.HAND), k.EMPTY, np.int64),
        np.zeros((games, 2), np.int64), np.full((games, 2, deck_size), k.EMPTY, np.int64), np.zeros((games, 2), np.int64),
        np.full((games, 2, deck_size), k.EMPTY, np.int64), np.zeros((games, 2), np.int64),
        np.zeros((games, 3, k.COLUMNS), np.int64), np.zeros((games, k.INTS), np.int64), np.zeros((games, 1), np.uint64),
        np.zeros((games, k.MAX_LEGAL), np.int64), np.zeros(games, np.int64),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _borrowed_games(gs: Games) -> Games:
    return Games(
        borrowed(gs.cells), borrowed(gs.hands), borrowed(gs.hand_len), borrowed(gs.decks), borrowed(gs.deck_len),
        borrowed(gs.discards), borrowed(gs.discard_len), borrowed(gs.flags), borrowed(gs.ints), borrowed(gs.rng),
        borrowed(gs.legal), borrowed(gs.n_legal),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _borrowed_episodes(ep: Episodes) -> Episodes:
    return Episodes(borrowed(ep.seeds), borrowed(ep.book), borrowed(ep.history))


@numba.njit(cache=True, inline="always")
def state_of(gs: Games, g: int) -> State:
    """Game ``g`` as the kernel's :class:`State` (views of the batch's arrays)."""
    return State(gs.cells[g], gs.hands[g], gs.hand_len[g], gs.decks[g], gs.deck_len[g], gs.discards[g],
                 gs.discard_len[g], gs.flags[g], gs.ints[g], gs.rng[g])  # fmt: skip


@numba.njit(cache=True, inline="always")
def _bots_play(cfg: Config, gs: Games, ep: Episodes, g: int, work: Array, best: Array) -> None:
    """The kernel bot plays game g until the learner is to decide or the game is over."""
    seat = ep.book[g, SEAT]
    if seat == EVERY_SEAT:
        return
    st = state_of(gs, g)
    legal = gs.legal[g]
    bots = ep.seeds[g, BOTS : BOTS + 2]  # each seat's bot generator, as choose reads it
    n = gs.n_legal[g]
    while n > 0 and st.ints[k.CURRENT] != seat:
        code = k.choose(cfg.tables, st, cfg.policy, bots, legal, n, work, best)
        record(ep, g, code)
        n = k.apply(cfg.tables, st, code, legal)
    gs.n_legal[g] = n


@numba.njit(cache=True)
def _start(cfg: Config, gs: Games, ep: Episodes, g: int, base: np.uint64, seat_mode: int, seat_stream: int,
           work: Array, best: Array) -> None:  # fmt: skip
    """Game g's episode ``ep.seeds[g, INDEX]``: deal, choose the learner's seat, and let the
    kernel bot play up to the learner's first decision."""
    seed = begin_episode(ep, g, base, 2, seat_mode, seat_stream)
    st = state_of(gs, g)
    k.deal(cfg.tables, st, cfg.canon, cfg.canon_len, seed, cfg.coin, cfg.max_turns)
    gs.n_legal[g] = k.settle(cfg.tables, st, gs.legal[g])
    _bots_play(cfg, gs, ep, g, work, best)
    if gs.n_legal[g] == 0:  # over before the learner's first decision: the next step deals again
        ep.book[g, DONE] = 1


@numba.njit(cache=True)
def reset(cfg: Config, gs: Games, ep: Episodes, base: np.uint64, seat_mode: int, seat_stream: int,
          observe_too: bool, observations: npt.NDArray[Any], masks: npt.NDArray[np.bool_],
          ended_only: bool) -> None:  # fmt: skip
    """Every game starts its first episode (game g: episode g of ``base``'s stream), or with
    ``ended_only`` every game whose episode has ended starts its next one now (the others are
    untouched); then its mask and, with ``observe_too``, its observation."""
    gs, ep = _borrowed_games(gs), _borrowed_episodes(ep)
    observations, masks = borrowed(observations), borrowed(masks)
    work = np.empty((4, k.COLUMNS), np.int64)
    best = np.empty(k.MAX_LEGAL, np.int64)
    games = gs.ints.shape[0]
    for g in range(games):
        if not ended_only:
            ep.seeds[g, INDEX] = np.uint64(g)
        elif ep.book[g, DONE]:
            ep.seeds[g, INDEX] += np.uint64(games)
        else:
            continue
        _start(cfg, gs, ep, g, base, seat_mode, seat_stream, work, best)
        st = state_of(gs, g)
        seat = ep.book[g, SEAT]
        fill_mask(st, gs.legal[g], gs.n_legal[g], masks[g])
        if observe_too:
            encode(cfg.tables, st, st.ints[k.CURRENT] if seat == EVERY_SEAT else seat, observations[g])


@numba.njit(cache=True, inline="always")
def code_of(index: int, hand: Array, hand_len: int) -> int:
    """The kernel's code of action ``index`` for a seat holding ``hand[:hand_len]``;
    -1 for an index that names no action (an empty hand slot, a fight off the table)."""
    if index < I_MOVE:
        slot = (index % 36) // 6
        if slot >= hand_len:
            return -1
        return k.encode(k.OP_PLACE if index < I_BEHIND else k.OP_BEHIND, hand[slot], index % 6)
    if index < I_BATTLE:
        return k.encode(k.OP_MOVE, (index - I_MOVE) // 2, (index - I_MOVE) % 2)
    if index == I_BATTLE:
        return k.encode(k.OP_BATTLE, 0, 0)
    if index == I_END_TURN:
        return k.encode(k.OP_END_TURN, 0, 0)
    if index < I_FIGHT:
        return k.encode(k.OP_RIDE, (index - I_RIDE) // 2, (index - I_RIDE) % 2)
    if index == I_END_BATTLE:
        return k.encode(k.OP_END_BATTLE, 0, 0)
    column = (index - I_FIGHT) // 3
    target = column + (index - I_FIGHT) % 3 - 1
    if target < 0 or target >= k.COLUMNS:
        return -1
    return k.encode(k.OP_FIGHT, column, target)


@numba.njit(cache=True, inline="always")
def _listed(code: int, legal: Array, n: int) -> bool:
    for j in range(n):
        if legal[j] == code:
            return True
    return False


@numba.njit(cache=True, inline="always")
def _borrowed_steps(out: Steps) -> Steps:
    return Steps(
        borrowed(out.rewards), borrowed(out.terminated), borrowed(out.illegal), borrowed(out.actor),
        borrowed(out.winner), borrowed(out.scores), borrowed(out.reward), borrowed(out.finished),
        borrowed(out.restarted),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _step_game(cfg: Config, gs: Games, ep: Episodes, g: int, base: np.uint64, index: int, seat_mode: int,
               seat_stream: int, illegal_ends: bool, illegal_reward: float, out: Steps, work: Array,
               best: Array) -> None:  # fmt: skip
    """One step of game g (see :func:`step`)."""
    clear_step(out, g, 2)
    if ep.book[g, DONE]:
        out.actor[g] = -1
        ep.seeds[g, INDEX] += np.uint64(gs.ints.shape[0])
        _start(cfg, gs, ep, g, base, seat_mode, seat_stream, work, best)
        return
    st = state_of(gs, g)
    p = st.ints[k.CURRENT]
    out.actor[g] = p
    code = code_of(index, gs.hands[g, p], gs.hand_len[g, p])
    if not _listed(code, gs.legal[g], gs.n_legal[g]):
        out.illegal[g] = True
        if illegal_ends:
            out.rewards[g, p] = illegal_reward
            out.terminated[g] = True
            ep.book[g, DONE] = 1
        return
    record(ep, g, code)
    gs.n_legal[g] = k.apply(cfg.tables, st, code, gs.legal[g])
    _bots_play(cfg, gs, ep, g, work, best)
    if gs.n_legal[g] == 0:
        w = k.winner(st)
        out.winner[g] = w
        out.scores[g, 0] = st.ints[k.ROUTED]
        out.scores[g, 1] = st.ints[k.ROUTED + 1]
        if w >= 0:
            out.rewards[g, w] = 1.0
            out.rewards[g, 1 - w] = -1.0
        out.terminated[g] = True
        ep.book[g, DONE] = 1


@numba.njit(cache=True)
def step(cfg: Config, gs: Games, ep: Episodes, base: np.uint64, actions: Array, seat_mode: int, seat_stream: int,
         illegal_ends: bool, illegal_reward: float, out: Steps, observe_too: bool, observations: npt.NDArray[Any],
         masks: npt.NDArray[np.bool_]) -> None:  # fmt: skip
    """One step of every game: ``actions[g]`` (an action index) for the seat to act, then the
    kernel bot's decisions up to the learner's next decision or the end; then each game's
    legal-action mask into ``masks`` (and with ``observe_too`` its observation into
    ``observations``) while the game is in the cache. Every output is written for every game.

    A game whose episode ended at the previous step starts its next episode instead (its
    action is not read). An illegal action changes nothing; with ``illegal_ends`` it ends
    the episode, ``illegal_reward`` for the seat that chose it."""
    gs, ep, out = _borrowed_games(gs), _borrowed_episodes(ep), _borrowed_steps(out)
    actions, observations, masks = borrowed(actions), borrowed(observations), borrowed(masks)
    work = np.empty((4, k.COLUMNS), np.int64)
    best = np.empty(k.MAX_LEGAL, np.int64)
    for g in range(gs.ints.shape[0]):
        _step_game(cfg, gs, ep, g, base, actions[g], seat_mode, seat_stream, illegal_ends, illegal_reward, out, work, best)
        st = state_of(gs, g)
        me = finish_step(ep, out, g, st.ints[k.CURRENT])
        fill_mask(st, gs.legal[g], gs.n_legal[g], masks[g])
        if observe_too:
            encode(cfg.tables, st, me, observations[g])


@numba.njit(cache=True)
def legal_masks(gs: Games, out: npt.NDArray[np.bool_]) -> None:
    """``out[g]``: the legal actions of the seat to act in game g (all False once over)."""
    gs, out = _borrowed_games(gs), borrowed(out)
    for g in range(gs.ints.shape[0]):
        fill_mask(state_of(gs, g), gs.legal[g], gs.n_legal[g], out[g])


@numba.njit(cache=True)
def observers(gs: Games, ep: Episodes, out: Array) -> None:
    """``out[g]``: the seat game g is observed from: the learner's, or the seat to act in self-play."""
    for g in range(gs.ints.shape[0]):
        seat = ep.book[g, SEAT]
        out[g] = gs.ints[g, k.CURRENT] if seat == EVERY_SEAT else seat


@numba.njit(cache=True)
def observe(tb: Tables, gs: Games, seats: Array, out: npt.NDArray[Any]) -> None:
    """``out[g]``: game g as encode_view encodes ``game.view(seats[g])``."""
    gs, out = _borrowed_games(gs), borrowed(out)
    for g in range(gs.ints.shape[0]):
        encode(tb, state_of(gs, g), seats[g], out[g])


@numba.njit(cache=True)
def fill_mask(st: State, legal: Array, n: int, mask: npt.NDArray[np.bool_]) -> None:
    """``mask``: the action indices of the decision whose legal codes are ``legal[:n]``
    (a placement of a card marks every hand slot holding it)."""
    mask[:] = False
    p = st.ints[k.CURRENT]
    for j in range(n):
        code = legal[j]
        op = code & 7
        a = (code >> 3) & 255
        b = code >> 11
        if op == k.OP_PLACE or op == k.OP_BEHIND:
            at = (I_PLACE if op == k.OP_PLACE else I_BEHIND) + b
            for slot in range(st.hand_len[p]):
                if st.hands[p, slot] == a:
                    mask[at + slot * 6] = True
        elif op == k.OP_MOVE:
            mask[I_MOVE + a * 2 + b] = True
        elif op == k.OP_RIDE:
            mask[I_RIDE + a * 2 + b] = True
        elif op == k.OP_FIGHT:
            mask[I_FIGHT + a * 3 + b - a + 1] = True
        elif op == k.OP_BATTLE:
            mask[I_BATTLE] = True
        elif op == k.OP_END_TURN:
            mask[I_END_TURN] = True
        else:
            mask[I_END_BATTLE] = True


@numba.njit(cache=True)
def encode(tb: Tables, st: State, me: int, row: npt.NDArray[np.float32]) -> None:
    """``row``: the position seen from seat ``me``, in encode_view's layout (written afresh).

    Only what ``me``'s view shows is read: the table, ``me``'s hand, both discard piles,
    the battle's flags, the phase, the seat to act, the sizes of hands and decks, the
    routs and the turn."""
    row[:] = 0
    i = 0
    for j in range(4):
        r = j if me == 0 else 3 - j
        for c in range(k.COLUMNS):
            kind = st.cells[r, c]
            if kind >= 0 and tb.kind_type[kind] >= 0:
                row[i] = 1
                row[i + 1] = tb.strength[kind] / 3
                row[i + 2 + tb.kind_type[kind]] = 1
            i += CELL
    for slot in range(k.HAND):
        if slot < st.hand_len[me]:
            kind = st.hands[me, slot]
            row[i] = 1
            if tb.kind_type[kind] < 0:
                row[i + 1] = 1
            else:
                row[i + 2] = tb.strength[kind] / 3
                row[i + 3 + tb.kind_type[kind]] = 1
        i += SLOT
    for q in (me, 1 - me):
        for j in range(st.discard_len[q]):  # counted in the row, then turned into tenths as encode_view adds them
            t = tb.kind_type[st.discards[q, j]]
            row[i + (TYPES if t < 0 else t)] += 1
        for t in range(PILE):
            row[i + t] = TENTHS[int(row[i + t])]
        i += PILE
    for f in range(3):
        for c in range(k.COLUMNS):
            row[i + c] = st.flags[f, c] != 0
        i += k.COLUMNS
    phase = st.ints[k.PHASE]
    row[i] = st.ints[k.FOUGHT] != 0
    row[i + 1 + phase] = 1
    row[i + 5] = st.ints[k.CURRENT] == me and phase != k.OVER
    i += 6
    for q in (me, 1 - me):
        row[i] = st.hand_len[q] / 6
        row[i + 1] = st.deck_len[q] / 25
        row[i + 2] = st.ints[k.ROUTED + q] / 6
        i += 3
    row[i] = st.ints[k.TURN] / st.ints[k.MAX_TURNS]
