"""Private numba kernel: many games stepped together, and their observations.

Batched games are a :class:`~ordonnance._simulator_kernel.State` with one
row per game, played by the simulator's own rules functions
(:func:`~ordonnance._simulator_kernel.deal`,
:func:`~ordonnance._simulator_kernel.is_legal`,
:func:`~ordonnance._simulator_kernel.apply_action`,
:func:`~ordonnance._simulator_kernel.bot_action`, ...): this module holds
no rule of its own, only the bookkeeping of episodes (seeds, the caller's
seat, the actions so far) and the encoders of :mod:`ordonnance.rl`'s
observation, written here a second time over the kernel's arrays and held
to :func:`ordonnance.rl.encode_view` by the twin tests.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import cgutils, types
from numba.extending import intrinsic, overload

from ordonnance import _simulator_kernel as k
from ordonnance._simulator_kernel import ARMY, NOBODY, NOT_COMPLETE, TERRITORIES, Config, State, borrowed, borrowed_state
from ordonnance._simulator_kernel import unsigned as _u
from ordonnance.core.jit import nth_output

Array = npt.NDArray[np.int64]
#: Observations are written as float32 or as bytes (the same small whole numbers).
Observations = npt.NDArray[np.float32] | npt.NDArray[np.uint8]

#: The caller acts for every seat (self-play): Episodes.seat of such games.
EVERY_SEAT = -1
#: ``seat_mode`` of a batch whose learner's seat is drawn per episode.
RANDOM_SEAT = -2
#: The most actions an episode records: 80 plays, 5 claims and at most one
#: pass per seat between two plays or claims (4 x 86) fit.
HISTORY = 512
_SYMBOLS = 5
_SEAT_STREAM = 4  # the bot-seed stream of "seat" 4 (no seat has it) draws the learner's seat
#: step asks for the rows of the game this many games ahead (1, 2 and 4 measured alike).
_AHEAD = 2
_LINE = 64  # bytes in a cache line


class Episodes(NamedTuple):
    """The bookkeeping of a batch, one row per game (fields at the offsets below)."""

    seeds: npt.NDArray[np.uint64]  # [g, INDEX | DEAL | BOTS + p]
    book: Array  # [g, SEAT | DONE | LENGTH]
    history: npt.NDArray[np.int16]  # [g, i]: the action indices played in the episode so far, every seat's
    seen: npt.NDArray[np.int32]  # [g, SEEN_ME | SEEN_WORDS + at | SEEN_KEYS + at]: what the observation row holds (encode_update)


#: Episodes.seeds: the episode number e (game g plays e = g, g + games, g + 2 games, ...),
#: the deal's seed (the e-th output of the batch seed's stream), seat p's kernel bot seed.
INDEX, DEAL, BOTS = 0, 1, 2
#: Episodes.book: the learner's seat (or EVERY_SEAT), 1 once the episode has ended
#: (the next step starts the next one), the actions recorded.
SEAT, DONE, LENGTH = 0, 1, 2
#: Episodes.seen: per game, the observer its observation row was last encoded for
#: (-1: none, the next encoding starts afresh), the owner of each territory then
#: (SEEN_OWNERS + t), the army words (SEEN_WORDS + t * SEATS + p) and their keys
#: (SEEN_KEYS + ...). int32 in a batch (words and keys fit in 31 bits): half the
#: memory a step reads of it.
SEEN_ME = 0
SEEN_OWNERS = 1
SEEN_WORDS = SEEN_OWNERS + TERRITORIES
SEEN_KEYS = SEEN_WORDS + TERRITORIES * k.SEATS
SEEN = SEEN_KEYS + TERRITORIES * k.SEATS
_UNKNOWN_OWNER = -2  # in SEEN_OWNERS after a fresh start: no territory's owner is written yet


def new_episodes(games: int) -> Episodes:
    """An :class:`Episodes` for ``games`` games (to be reset)."""
    return Episodes(
        np.zeros((games, BOTS + k.SEATS), np.uint64),
        np.zeros((games, 3), np.int64),
        np.zeros((games, HISTORY), np.int16),
        np.full((games, SEEN), -1, np.int32),
    )


def prefetch_row(array: Any, g: int) -> None:
    """Compiled: ask the processor to start loading row ``g`` of the C-contiguous
    2-D ``array`` into its caches (a hint: it reads nothing and cannot fault).
    Without the JIT it does nothing.

    A batch is megabytes (a game's board row alone is 2 kB) and a step reads
    and writes a little of every row, so at 4096 games most of its rows come
    from memory: asked for a couple of games ahead, they arrive while the
    games before them are played (measured: a fifth of a step's time).
    """


@intrinsic
def _prefetch_byte(typingctx: object, array: Any, offset: Any) -> tuple[object, object]:
    """llvm.prefetch (for writing, kept in every cache level) of byte ``offset`` of ``array``'s data."""

    def codegen(context: Any, builder: Any, signature: Any, args: list[Any]) -> object:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        byte = ir.IntType(8).as_pointer()
        at = builder.gep(builder.bitcast(data, byte), [args[1]])
        i32 = ir.IntType(32)
        hint = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]), "llvm.prefetch.p0i8"
        )
        builder.call(hint, [at, ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(array, types.intp), codegen


@overload(prefetch_row)
def _prefetch_row(array: Any, g: Any) -> Any:
    def impl(array: Any, g: Any) -> None:
        prefetch_cells(array, g, 0, array.shape[1])

    return impl


def prefetch_cells(array: Any, g: int, start: int, stop: int) -> None:
    """:func:`prefetch_row` of cells ``start`` to ``stop`` (excluded) of row ``g`` only."""


@overload(prefetch_cells)
def _prefetch_cells(array: Any, g: Any, start: Any, stop: Any) -> Any:
    def impl(array: Any, g: Any, start: Any, stop: Any) -> None:
        row = g * array.shape[1] * array.itemsize
        first = row + start * array.itemsize
        last = row + stop * array.itemsize - 1
        for offset in range(first, last, _LINE):
            _prefetch_byte(array, offset)  # type: ignore[call-arg]
        _prefetch_byte(array, last)  # type: ignore[call-arg]  # the cells need not start on a line

    return impl


@numba.njit(cache=True, inline="always")
def _prefetch_board(cfg: Config, b: Array, g: int) -> None:
    """Ask for the cells of board row ``g`` a step reads, not the whole row: the
    witnesses of absent seats and the deck order are most of it (the next card
    to draw is asked for by :func:`_prefetch_draw`, once TOP has arrived)."""
    prefetch_cells(b, g, 0, k.WITNESS)
    if cfg.claims_allowed:
        for at in range(TERRITORIES * k.SEATS):
            if at % k.SEATS < cfg.n:
                prefetch_cells(b, g, k.WITNESS + at * k.SEATS, k.WITNESS + at * k.SEATS + cfg.n)
    prefetch_cells(b, g, k.TOP, k.ORDER)


@numba.njit(cache=True, inline="always")
def _prefetch_draw(cfg: Config, b: Array, g: int) -> None:
    """Ask for the deck cells of board row ``g``'s next draws (its TOP must be in the cache)."""
    top = min(b[_u(g), k.TOP], cfg.deck - 1)
    prefetch_cells(b, g, k.ORDER + top, k.ORDER + min(top + cfg.n, cfg.deck))


@numba.njit(cache=True, inline="always")
def _borrowed_episodes(ep: Episodes) -> Episodes:
    return Episodes(borrowed(ep.seeds), borrowed(ep.book), borrowed(ep.history), borrowed(ep.seen))


@numba.njit(cache=True, inline="always")
def episode_seed(base: np.uint64, e: np.uint64) -> np.uint64:
    """The e-th output (from 0) of the SplitMix64 stream from ``base`` (simulation.game_seeds)."""
    return nth_output(base, e + np.uint64(1))


@numba.njit(cache=True, inline="always")
def _record(ep: Episodes, g: int, a: int) -> None:
    length = ep.book[_u(g), LENGTH]
    if length < HISTORY:
        ep.history[_u(g), _u(length)] = a
    ep.book[_u(g), LENGTH] = length + 1


@numba.njit(cache=True, inline="always")
def _bots_play(cfg: Config, s: State, ep: Episodes, g: int, scratch: Array) -> None:
    """The kernel bots play game g until it is the learner's turn or the game is over."""
    seat = ep.book[_u(g), SEAT]
    if seat == EVERY_SEAT:
        return
    b = s.board
    while not b[_u(g), k.OVER] and b[_u(g), k.CURRENT] != seat:
        a = k.chosen(cfg, s, g, scratch)
        _record(ep, g, a)
        k.step(cfg, s, g, a, scratch)


@numba.njit(cache=True)
def _start(cfg: Config, s: State, ep: Episodes, g: int, cards: Array, base: np.uint64, seat_mode: int, scratch: Array) -> None:
    """Game g's episode ``ep.seeds[g, INDEX]``: deal, choose the learner's seat, and let
    the kernel bots play up to the learner's first turn."""
    n = cfg.n
    seed = episode_seed(base, ep.seeds[_u(g), INDEX])
    ep.seeds[_u(g), DEAL] = seed
    for p in range(n):
        ep.seeds[_u(g), _u(BOTS + p)] = k.mix_bot_seed(seed, p, np.uint64(0))
    if seat_mode == RANDOM_SEAT:
        ep.book[_u(g), SEAT] = k.bounded(k.mix_bot_seed(seed, _SEAT_STREAM, np.uint64(0)), n)
    else:
        ep.book[_u(g), SEAT] = seat_mode
    ep.book[_u(g), DONE] = 0
    ep.book[_u(g), LENGTH] = 0
    ep.seen[_u(g), SEEN_ME] = -1  # a new deal: its first observation is written afresh
    k.deal(cfg, s, g, cards, seed, ep.seeds[_u(g), BOTS : BOTS + n], scratch)
    _bots_play(cfg, s, ep, g, scratch)


@numba.njit(cache=True)
def reset(cfg: Config, s: State, ep: Episodes, cards: Array, base: np.uint64, seat_mode: int, scratch: Array) -> None:
    """Every game starts its first episode (game g: episode g of ``base``'s stream)."""
    s, ep, cards, scratch = borrowed_state(s), _borrowed_episodes(ep), borrowed(cards), borrowed(scratch)
    for g in range(s.board.shape[0]):
        ep.seeds[_u(g), INDEX] = np.uint64(g)
        _start(cfg, s, ep, g, cards, base, seat_mode, scratch)


@numba.njit(cache=True)
def restart(cfg: Config, s: State, ep: Episodes, cards: Array, base: np.uint64, seat_mode: int, observe_too: bool,
            observations: Observations, masks: npt.NDArray[np.bool_], restarted: npt.NDArray[np.bool_],
            scratch: Array) -> None:  # fmt: skip
    """Every game whose episode has ended starts its next one now (``restarted[g]``), as the
    next step would start it, with its mask and (with ``observe_too``) its observation; the
    other games are untouched."""
    s, ep, cards, scratch = borrowed_state(s), _borrowed_episodes(ep), borrowed(cards), borrowed(scratch)
    observations, masks, restarted = borrowed(observations), borrowed(masks), borrowed(restarted)
    b = s.board
    games = b.shape[0]
    for g in range(games):
        restarted[_u(g)] = ep.book[_u(g), DONE] != 0
        if not restarted[_u(g)]:
            continue
        ep.seeds[_u(g), INDEX] += np.uint64(games)
        _start(cfg, s, ep, g, cards, base, seat_mode, scratch)
        k.fill_legal_mask(cfg, s, g, masks[_u(g)], scratch)
        if observe_too:
            seat = ep.book[_u(g), SEAT]
            encode_update(cfg, b[_u(g)], b[_u(g), k.CURRENT] if seat == EVERY_SEAT else seat, observations[_u(g)],
                          ep.seen[_u(g)], scratch)  # fmt: skip


class Steps(NamedTuple):
    """What :func:`step` writes for every game, one row each: the arrays of
    :class:`ordonnance.batch.StepResult` (``restarted`` is its ``reset``)."""

    rewards: npt.NDArray[np.float32]  # [g, p]: when a game ends with a winner, +1 for it and -1 for every other seat; else 0
    terminated: npt.NDArray[np.bool_]  # the episode ended (by the rules, or by an illegal action with illegal_ends)
    illegal: npt.NDArray[np.bool_]  # the action was illegal (nothing changed)
    actor: Array  # the seat that acted; -1 for a game that started its next episode
    winner: Array  # the winner of a game that ended (-1: nobody; -1 elsewhere)
    scores: Array  # [g, p]: the scores of a game that ended (zeros elsewhere)
    reward: npt.NDArray[np.float32]  # rewards[g, observer]: the learner's seat, or in self-play the seat that acted
    finished: npt.NDArray[np.bool_]  # the game ended by its rules at this step (not by an illegal action)
    restarted: npt.NDArray[np.bool_]  # the game started its next episode instead


@numba.njit(cache=True, inline="always")
def _borrowed_steps(out: Steps) -> Steps:
    return Steps(
        borrowed(out.rewards), borrowed(out.terminated), borrowed(out.illegal), borrowed(out.actor),
        borrowed(out.winner), borrowed(out.scores), borrowed(out.reward), borrowed(out.finished),
        borrowed(out.restarted),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _step_game(
    cfg: Config,
    s: State,
    ep: Episodes,
    g: int,
    cards: Array,
    base: np.uint64,
    a: int,
    seat_mode: int,
    illegal_ends: bool,
    illegal_reward: float,
    out: Steps,
    scratch: Array,
) -> None:
    """One step of game g (see :func:`step`; its ``reward``, ``finished`` and
    ``restarted`` are written by the caller from these)."""
    n = cfg.n
    b = s.board
    for p in range(n):
        out.rewards[_u(g), _u(p)] = 0.0
        out.scores[_u(g), _u(p)] = 0
    out.terminated[_u(g)] = False
    out.illegal[_u(g)] = False
    out.winner[_u(g)] = -1
    if ep.book[_u(g), DONE]:
        out.actor[_u(g)] = -1
        ep.seeds[_u(g), INDEX] += np.uint64(b.shape[0])
        _start(cfg, s, ep, g, cards, base, seat_mode, scratch)
        return
    p = b[_u(g), k.CURRENT]
    out.actor[_u(g)] = p
    if not k.legal(cfg, s, g, a, scratch):
        out.illegal[_u(g)] = True
        if illegal_ends:
            out.rewards[_u(g), _u(p)] = illegal_reward
            out.terminated[_u(g)] = True
            ep.book[_u(g), DONE] = 1
        return
    _record(ep, g, a)
    k.step(cfg, s, g, a, scratch)
    _bots_play(cfg, s, ep, g, scratch)
    if b[_u(g), k.OVER]:
        w = k.outcome(cfg, s, g, out.scores[_u(g)], scratch)
        out.winner[_u(g)] = w
        if w >= 0:
            for q in range(n):
                out.rewards[_u(g), _u(q)] = 1.0 if q == w else -1.0
        out.terminated[_u(g)] = True
        ep.book[_u(g), DONE] = 1


@numba.njit(cache=True)
def step(
    cfg: Config,
    s: State,
    ep: Episodes,
    cards: Array,
    base: np.uint64,
    actions: Array,
    seat_mode: int,
    illegal_ends: bool,
    illegal_reward: float,
    out: Steps,
    observe_too: bool,
    observations: Observations,
    masks: npt.NDArray[np.bool_],
    scratch: Array,
) -> None:
    """One step of every game: ``actions[g]`` for the seat to act, then the kernel
    bots' turns up to the learner's next turn or the end; then each game's
    legal-action mask into ``masks`` (and with ``observe_too`` its observation
    into ``observations``, which must hold the previous step's: only what
    changed is written, see :func:`encode_update`) while its board row is
    still in the cache. Every output is written for every game, so the
    caller's arrays can be reused from step to step without clearing.

    A game whose episode ended at the previous step starts its next episode
    instead (its action is not read: gymnasium's next-step autoreset). An
    illegal action changes nothing; with ``illegal_ends`` it ends the episode,
    ``illegal_reward`` for the seat that chose it. What happened goes into
    ``out`` (see :class:`Steps`; ``reward[g]`` is 0 where the game restarted).
    """
    s, ep, cards, actions, scratch = borrowed_state(s), _borrowed_episodes(ep), borrowed(cards), borrowed(actions), borrowed(scratch)
    out, observations, masks = _borrowed_steps(out), borrowed(observations), borrowed(masks)
    b = s.board
    games = b.shape[0]
    # The observation cells a step writes: the card counts (the first 62) and the
    # last part (completion ranks, owners, markers, hand sizes, scores, the seat to
    # act, the observer, the deck), not the whole row: the one or two armies that
    # changed are read when written (measured: prefetching the whole row, most of
    # which a step does not touch, made a step about a tenth slower; prefetching the
    # learner's army too gained nothing). In self-play the observer changes at
    # every step, so each observation is written afresh: the whole row then.
    width = observations.shape[1]
    tail = 0 if seat_mode == EVERY_SEAT else _completion_at(cfg.n)
    for g in range(games):
        if g + 1 < games:
            _prefetch_draw(cfg, b, g + 1)
        if g + _AHEAD < games:
            ahead = g + _AHEAD
            _prefetch_board(cfg, b, ahead)
            prefetch_row(ep.seen, ahead)
            prefetch_row(masks, ahead)
            if observe_too:
                if tail > CARD_COUNTS:
                    prefetch_cells(observations, ahead, 0, CARD_COUNTS)
                prefetch_cells(observations, ahead, tail, width)
        _step_game(cfg, s, ep, g, cards, base, actions[_u(g)], seat_mode, illegal_ends, illegal_reward, out, scratch)
        who = out.actor[_u(g)]
        out.restarted[_u(g)] = who < 0
        out.finished[_u(g)] = out.terminated[_u(g)] and not out.illegal[_u(g)]
        seat = ep.book[_u(g), SEAT]
        if seat != EVERY_SEAT:
            who = seat
        out.reward[_u(g)] = out.rewards[_u(g), _u(who)] if who >= 0 else 0.0
        k.fill_legal_mask(cfg, s, g, masks[_u(g)], scratch)
        if observe_too:
            encode_update(cfg, b[_u(g)], b[_u(g), k.CURRENT] if seat == EVERY_SEAT else seat, observations[_u(g)], ep.seen[_u(g)], scratch)


@numba.njit(cache=True)
def legal_masks(cfg: Config, s: State, out: npt.NDArray[np.bool_], scratch: Array) -> None:
    """``out[g]``: the legal actions of the seat to act in game g (all False once over)."""
    s, out, scratch = borrowed_state(s), borrowed(out), borrowed(scratch)
    for g in range(s.board.shape[0]):
        k.fill_legal_mask(cfg, s, g, out[_u(g)], scratch)


@numba.njit(cache=True)
def observers(s: State, ep: Episodes, out: Array) -> None:
    """``out[g]``: the seat game g is observed from: the learner's, or the seat to act in self-play."""
    for g in range(s.board.shape[0]):
        seat = ep.book[_u(g), SEAT]
        out[_u(g)] = s.board[_u(g), k.CURRENT] if seat == EVERY_SEAT else seat


@numba.njit(cache=True)
def observe(cfg: Config, s: State, seats: Array, out: Observations, scratch: Array) -> None:
    """``out[g]``: game g as ordonnance.rl.encode_view encodes ``game.view(seats[g])``
    (``out`` may be float32 or uint8), written afresh."""
    s, out, scratch = borrowed_state(s), borrowed(out), borrowed(scratch)
    seen = np.empty(SEEN, np.int32)
    for g in range(s.board.shape[0]):
        seen[SEEN_ME] = -1
        encode_update(cfg, s.board[_u(g)], seats[_u(g)], out[_u(g)], seen, scratch)


@numba.njit(cache=True)
def encode(cfg: Config, b: Array, me: int, row: Observations, scratch: Array) -> None:
    """The game of board row ``b`` seen from seat ``me``, in ordonnance.rl's observation
    layout (see observation_layout), written afresh into ``row``."""
    seen = np.empty(SEEN, np.int32)
    seen[SEEN_ME] = -1
    encode_update(cfg, b, me, row, seen, scratch)


#: The first cells of an observation row: the own hand's card counts and the unseen ones'.
CARD_COUNTS = 62


@numba.njit(cache=True, inline="always")
def _completion_at(n: int) -> int:
    """Where the completion ranks start in an observation row of ``n`` seats, after the card
    counts, the armies and their formations; the rest of the row follows them."""
    return CARD_COUNTS + TERRITORIES * n * ARMY * _SYMBOLS + TERRITORIES * n * 3 * _SYMBOLS


@numba.njit(cache=True, inline="always")
def encode_update(
    cfg: Config, b: Array, me: int, row: Observations, seen: npt.NDArray[np.int32] | Array, scratch: Array
) -> None:
    """:func:`encode` into a ``row`` that already holds the encoding described by
    ``seen`` (the observer, the owners and the armies then; ``seen[SEEN_ME] == -1``:
    none): only the armies that changed since, and the owners and markers of
    territories decided since, are written again, and ``seen`` is brought up
    to date. Armies are most of the row and a step changes one or two, so a
    step's observation costs a fraction of a fresh one.

    Seats are relative (``r`` = places after ``me``) except the final one-hot of ``me``.
    """
    n = cfg.n
    armies = CARD_COUNTS
    formations = armies + TERRITORIES * n * ARMY * _SYMBOLS
    completion = _completion_at(n)
    owners = completion + TERRITORIES * n
    markers = owners + TERRITORIES * (n + 1)
    hand_sizes = markers + TERRITORIES
    scores_at = hand_sizes + n
    to_act = scores_at + n
    seat_at = to_act + n
    deck_at = seat_at + n
    if seen[SEEN_ME] != me:
        row[:] = 0
        seen[SEEN_ME] = me
        for t in range(TERRITORIES):
            seen[_u(SEEN_OWNERS + t)] = _UNKNOWN_OWNER
        for at in range(TERRITORIES * k.SEATS):
            seen[_u(SEEN_WORDS + at)] = 0
            seen[_u(SEEN_KEYS + at)] = 0
    # The own hand's counts in integers first (scratch's proof pool is free here):
    # read back from a float row, each count waited for its conversion. Written
    # whole every step: a step changes the hand, and 62 stores in a row cost less
    # than finding the few that changed (measured: a step 5-7% slower).
    held = k.POOL
    for m in range(32):
        scratch[_u(held + m)] = 0
    h = b[_u(k.HAND + me)]
    for i in range(b[_u(k.HAND_LEN + me)]):
        scratch[_u(held + k.lane(h, i))] += 1
    for m in range(1, 32):
        row[_u(m - 1)] = scratch[_u(held + m)]
        row[_u(30 + m)] = b[_u(k.HIDDEN + m)] - scratch[_u(held + m)]  # unseen: not face up, less the own hand
    decided = False
    for t in range(TERRITORIES):
        changed = False
        for p in range(n):
            at = t * k.SEATS + p
            word = b[_u(k.ARMY_AT + at)]
            if word == seen[_u(SEEN_WORDS + at)]:
                continue
            changed = True
            seen[_u(SEEN_WORDS + at)] = word
            r = p - me
            if r < 0:
                r += n
            # Only the set bits are written over zeros: a symbol at a time, the
            # lowest first (_NTH_BIT[bits * 8] is its position).
            base = armies + (t * n + r) * ARMY * _SYMBOLS
            for i in range(ARMY * _SYMBOLS):
                row[_u(base + i)] = 0
            for slot in range(b[_u(k.ARMY_LEN + at)]):
                card = k.lane(word, slot)
                while card:
                    row[_u(base + slot * _SYMBOLS + k._NTH_BIT[_u(card * 8)])] = 1
                    card &= card - 1
            key = k._word_key(word)
            seen[_u(SEEN_KEYS + at)] = key
            base = formations + (t * n + r) * 3 * _SYMBOLS
            for i in range(3 * _SYMBOLS):
                row[_u(base + i)] = 0
            for tier in range(3):
                bits = (key >> (16 - 8 * tier)) & 31
                while bits:
                    row[_u(base + tier * _SYMBOLS + k._NTH_BIT[_u(bits * 8)])] = 1
                    bits &= bits - 1
        if changed:  # an army completes only by a card played into it
            for p in range(n):
                r = p - me
                if r < 0:
                    r += n
                done = b[_u(k.COMPLETED + t * k.SEATS + p)]
                rank = 0
                if done != NOT_COMPLETE:
                    rank = 1
                    for q in range(n):
                        other = b[_u(k.COMPLETED + t * k.SEATS + q)]
                        if other != NOT_COMPLETE and other < done:
                            rank += 1
                row[_u(completion + t * n + r)] = rank
        o = b[_u(k.OWNER + t)]
        if o != seen[_u(SEEN_OWNERS + t)]:  # the marker is given with the territory
            decided = True
            seen[_u(SEEN_OWNERS + t)] = o
            for i in range(n + 1):
                row[_u(owners + t * (n + 1) + i)] = 0
            if o == NOBODY:
                row[_u(owners + t * (n + 1))] = 1
            else:
                r = o - me
                if r < 0:
                    r += n
                row[_u(owners + t * (n + 1) + 1 + r)] = 1
            row[_u(markers + t)] = b[_u(k.MARKER + t)]
    over = b[k.OVER] != 0
    if decided:  # scores change only with an owner (points are scored on decided territories)
        scores = scratch[k.SCORES : k.SCORES + n]
        keys = seen[SEEN_KEYS : SEEN_KEYS + TERRITORIES * k.SEATS]
        k.scores_of(n, keys, b, cfg.scoring, scores)  # type: ignore[arg-type]  # int32 keys in a batch
        for p in range(n):
            r = p - me
            if r < 0:
                r += n
            row[_u(scores_at + r)] = scores[_u(p)]
    for p in range(n):
        r = p - me
        if r < 0:
            r += n
        row[_u(hand_sizes + r)] = b[_u(k.HAND_LEN + p)]
        row[_u(to_act + p)] = 0
    if not over:
        r = b[k.CURRENT] - me
        if r < 0:
            r += n
        row[_u(to_act + r)] = 1
    row[_u(seat_at + me)] = 1
    row[_u(deck_at)] = cfg.deck - b[k.TOP]
    row[_u(deck_at + 1)] = 1 if over else 0
