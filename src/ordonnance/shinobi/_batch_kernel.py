"""Private numba kernel: many games of Shinobi stepped together, and their observations.

Batched games are Shinobi's state records (:mod:`ordonnance.shinobi._kernel`), one row
of a 2-D array per game, played by that kernel's own functions (:func:`~ordonnance.shinobi._kernel.deal`,
:func:`~ordonnance.shinobi._kernel.legal`, :func:`~ordonnance.shinobi._kernel.apply`,
:func:`~ordonnance.shinobi._kernel.step` for the built-in bots, ``winners`` and
``score``): this module holds no rule, only the episodes' bookkeeping
(:mod:`ordonnance.core.batch`) and the encoder of :func:`ordonnance.shinobi.rl.encode_view`'s
observation over a state record, held to it by the twin tests.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from ordonnance.core.batch import (
    BOTS, DONE, EVERY_SEAT, INDEX, SEAT, Episodes, Steps, begin_episode, clear_step, finish_step, record,
)  # fmt: skip
from ordonnance.core.jit import borrowed, unsigned as _u
from ordonnance.shinobi import _kernel as k
from ordonnance.shinobi._kernel import CLANS, CODES

Array = npt.NDArray[np.int64]


@numba.njit(cache=True, inline="always")
def _borrowed_episodes(ep: Episodes) -> Episodes:
    return Episodes(borrowed(ep.seeds), borrowed(ep.book), borrowed(ep.history))


@numba.njit(cache=True, inline="always")
def _borrowed_steps(out: Steps) -> Steps:
    return Steps(
        borrowed(out.rewards), borrowed(out.terminated), borrowed(out.illegal), borrowed(out.actor),
        borrowed(out.winner), borrowed(out.scores), borrowed(out.reward), borrowed(out.finished),
        borrowed(out.restarted),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _bots_play(s: Array, ep: Episodes, g: int, policy: int, work: Array) -> None:
    """The kernel bots play game g (state record ``s``) until the learner's turn or the end."""
    seat = ep.book[_u(g), SEAT]
    if seat == EVERY_SEAT:
        return
    while s[k.OVER] == 0 and s[k.CUR] != seat:
        p = s[k.CUR]
        code, ep.seeds[_u(g), _u(BOTS + p)] = k.step(s, policy, ep.seeds[_u(g), _u(BOTS + p)], work)
        record(ep, g, code)


@numba.njit(cache=True, inline="always")
def _start(s: Array, ep: Episodes, g: int, n: int, troop: Array, optional: bool, base: np.uint64, policy: int,
           seat_mode: int, stream: int, work: Array) -> None:  # fmt: skip
    """Game g's episode ``ep.seeds[g, INDEX]``: deal, and let the kernel bots play up to the learner's turn."""
    seed = begin_episode(ep, g, base, n, seat_mode, stream)
    k.deal(s, n, troop, optional, seed)
    _bots_play(s, ep, g, policy, work)


@numba.njit(cache=True, inline="always")
def encode(s: Array, me: int, row: Any) -> None:
    """The game of state record ``s`` seen from seat ``me``, as ordonnance.shinobi.rl.encode_view
    encodes ``game.view(me)``, written whole into ``row`` (seats relative to ``me``)."""
    n = s[k.N]
    for c in range(CODES):
        row[_u(c)] = s[_u(k.HAND + CODES * me + c)]
    for c in range(CLANS):
        row[_u(CODES + c)] = 0
    row[_u(CODES + s[_u(k.CLAN + me)])] = 1
    armies = CODES + CLANS
    changed = armies + n * CLANS
    q = me
    for r in range(n):
        flags = s[_u(k.CHANGED + q)]
        for c in range(CLANS):
            row[_u(armies + CLANS * r + c)] = s[_u(k.PROV + CLANS * q + c)]
            row[_u(changed + CLANS * r + c)] = (flags >> c) & 1
        q = q + 1 if q + 1 < n else 0
    discard = changed + n * CLANS
    for c in range(CODES):
        row[_u(discard + c)] = s[_u(k.DISCARD + c)]
    row[_u(discard + CODES)] = s[k.DECK_END] - s[k.DECK_POS]
    sizes = discard + CODES + 1
    to_act = sizes + n
    q = me
    for r in range(n):
        row[_u(sizes + r)] = s[_u(k.HAND_LEN + q)]
        row[_u(to_act + r)] = 0
        q = q + 1 if q + 1 < n else 0
    r = s[k.CUR] - me
    row[_u(to_act + (r + n if r < 0 else r))] = 1
    order = to_act + n
    for i in range(3):
        row[_u(order + i)] = 0
    row[_u(order + s[k.ORDER] - 1)] = 1
    extra = s[k.EXTRA]
    row[_u(order + 3)] = extra if extra != k.NOT_FINAL else 0


@numba.njit(cache=True, inline="always")
def fill_mask(s: Array, row: npt.NDArray[np.bool_], work: Array) -> None:
    """``row``: the legal action codes of the seat to act in state record ``s`` (all False once over)."""
    row[:] = False
    if s[k.OVER] == 0:
        count = k.legal(s, work)
        for i in range(count):
            row[_u(work[_u(i)])] = True


@numba.njit(cache=True, inline="always")
def _end(s: Array, out: Steps, g: int, n: int) -> None:
    """The rewards, winner and scores of game g, which has just ended: the winners share +1, the others -1."""
    mask = k.winners(s)
    shared = 0
    for p in range(n):
        shared += mask >> p & 1
    out.winner[_u(g)] = -1
    for p in range(n):
        out.scores[_u(g), _u(p)] = k.score(s, p)
        if mask >> p & 1:
            out.rewards[_u(g), _u(p)] = 1.0 / shared
            if shared == 1:
                out.winner[_u(g)] = p
        else:
            out.rewards[_u(g), _u(p)] = -1.0 / (n - shared)
    out.terminated[_u(g)] = True


@numba.njit(cache=True, inline="always")
def _step_game(states: Array, ep: Episodes, g: int, n: int, troop: Array, optional: bool, base: np.uint64, a: int,
               policy: int, seat_mode: int, stream: int, illegal_ends: bool, illegal_reward: float, out: Steps,
               masks: npt.NDArray[np.bool_], work: Array) -> None:  # fmt: skip
    """One step of game g (see :func:`step`)."""
    s = states[_u(g)]
    clear_step(out, g, n)
    if ep.book[_u(g), DONE]:
        out.actor[_u(g)] = -1
        ep.seeds[_u(g), INDEX] += np.uint64(states.shape[0])
        _start(s, ep, g, n, troop, optional, base, policy, seat_mode, stream, work)
        return
    p = s[k.CUR]
    out.actor[_u(g)] = p
    if not masks[_u(g), _u(a)]:  # the mask of the position, as the last reset or step wrote it
        out.illegal[_u(g)] = True
        if illegal_ends:
            out.rewards[_u(g), _u(p)] = illegal_reward
            out.terminated[_u(g)] = True
            ep.book[_u(g), DONE] = 1
        return
    record(ep, g, a)
    k.apply(s, a)
    _bots_play(s, ep, g, policy, work)
    if s[k.OVER]:
        _end(s, out, g, n)
        ep.book[_u(g), DONE] = 1


@numba.njit(cache=True)
def reset(states: Array, ep: Episodes, n: int, troop: Array, optional: bool, base: np.uint64, policy: int,
          seat_mode: int, stream: int, observe_too: bool, observations: Any, masks: npt.NDArray[np.bool_],
          work: Array, ended_only: bool) -> None:  # fmt: skip
    """Every game starts its first episode (game g: episode g of ``base``'s stream), or with
    ``ended_only`` every game whose episode has ended starts its next one now (the others are
    untouched); then its mask and, with ``observe_too``, its observation."""
    states, ep, work = borrowed(states), _borrowed_episodes(ep), borrowed(work)
    observations, masks = borrowed(observations), borrowed(masks)
    games = states.shape[0]
    for g in range(games):
        if not ended_only:
            ep.seeds[_u(g), INDEX] = np.uint64(g)
        elif ep.book[_u(g), DONE]:
            ep.seeds[_u(g), INDEX] += np.uint64(games)
        else:
            continue
        s = states[_u(g)]
        _start(s, ep, g, n, troop, optional, base, policy, seat_mode, stream, work)
        seat = ep.book[_u(g), SEAT]
        fill_mask(s, masks[_u(g)], work)
        if observe_too:
            encode(s, s[k.CUR] if seat == EVERY_SEAT else seat, observations[_u(g)])


@numba.njit(cache=True)
def step(states: Array, ep: Episodes, n: int, troop: Array, optional: bool, base: np.uint64, actions: Array,
         policy: int, seat_mode: int, stream: int, illegal_ends: bool, illegal_reward: float, out: Steps,
         observe_too: bool, observations: Any, masks: npt.NDArray[np.bool_], work: Array) -> None:  # fmt: skip
    """One step of every game: ``actions[g]`` for the seat to act, then the kernel bots' turns up
    to the learner's next turn or the end; then each game's legal-action mask into ``masks`` and,
    with ``observe_too``, its observation into ``observations``. ``masks`` must hold each game's
    mask as the last reset or step wrote it: an action is legal where it says so (the rules
    kernel's ``legal``, not listed again). Every output is written for every
    game, so the caller's arrays are reused from step to step.

    A game whose episode ended at the previous step starts its next episode instead (its action
    is not read). An illegal action changes nothing; with ``illegal_ends`` it ends the episode,
    ``illegal_reward`` for the seat that chose it."""
    states, ep, actions, work = borrowed(states), _borrowed_episodes(ep), borrowed(actions), borrowed(work)
    out, observations, masks = _borrowed_steps(out), borrowed(observations), borrowed(masks)
    for g in range(states.shape[0]):
        _step_game(states, ep, g, n, troop, optional, base, actions[_u(g)], policy, seat_mode, stream, illegal_ends,
                   illegal_reward, out, masks, work)  # fmt: skip
        s = states[_u(g)]
        me = finish_step(ep, out, g, s[k.CUR])
        fill_mask(s, masks[_u(g)], work)
        if observe_too:
            encode(s, me, observations[_u(g)])


@numba.njit(cache=True)
def observe(states: Array, seats: Array, out: Any) -> None:
    """``out[g]``: game g as ordonnance.shinobi.rl.encode_view encodes ``game.view(seats[g])``."""
    states, out = borrowed(states), borrowed(out)
    for g in range(states.shape[0]):
        encode(states[_u(g)], seats[_u(g)], out[_u(g)])
