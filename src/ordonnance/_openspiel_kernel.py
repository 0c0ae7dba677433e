"""Private numba entry points of the OpenSpiel adapter (``ordonnance.openspiel``).

An OpenSpiel state holds one game as a one-row
:class:`~ordonnance._simulator_kernel.State`, played by the simulator's rules
functions and observed through the batch kernel's encoder (the layout of
:func:`ordonnance.rl.encode_view`): no rule and no encoding of its own.

numba's dispatcher spends about a third of a microsecond on each argument
(and about a microsecond typing a NamedTuple), which would be most of a
step. So the entry points take few plain arrays: ``work`` holds the rules
(as a vector) and then the rules' working memory (:func:`new_work`), and the
records are built inside.
The kernel bots' generators are not used (OpenSpiel chooses every action),
so the state's ``rng`` is made inside too.

Each step answers with the legal actions of the seat to act, in increasing
order (as OpenSpiel lists them), so a state never asks the kernel twice: the
indices go into ``legal`` (the state's own, so that no other state's step
can overwrite them before they are read) and the return value is
:data:`OVER` once the game has ended, else ``count + (seat to act << 8)``.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _batch_kernel as bk
from ordonnance import _simulator_kernel as k

Array = npt.NDArray[np.int64]
#: The answer of a step once the game is over.
OVER = -1
#: ``work`` fields: the rules, then the working memory.
CONFIG = 0
SCRATCH = CONFIG + k.CONFIG_SIZE
WORK = SCRATCH + k.SCRATCH


def new_work(cfg: k.Config) -> Array:
    """The ``work`` array of a set of rules."""
    work = np.zeros(WORK, np.int64)
    work[CONFIG:SCRATCH] = k.pack_config(cfg)
    return work


@numba.njit(cache=True, inline="always")
def _state(board: Array) -> k.State:
    return k.State(board, np.zeros((1, k.SEATS), np.uint64))


@numba.njit(cache=True, inline="always")
def _answer(cfg: k.Config, s: k.State, mask: npt.NDArray[np.bool_], work: Array, legal: Array) -> int:
    """The legal action indices into ``legal`` (increasing); returns the step's answer."""
    if s.board[0, k.OVER]:
        return OVER
    k.legal_mask(cfg, s, 0, mask, work[SCRATCH:])
    count = 0
    for a in range(k.NUM_ACTIONS):
        if mask[a]:
            legal[count] = a
            count += 1
    return count + (int(s.board[0, k.CURRENT]) << 8)


@numba.njit(cache=True)
def start(
    work: Array, board: Array, mask: npt.NDArray[np.bool_], legal: Array, cards: Array, seed: np.uint64
) -> int:
    """Deal ``cards`` shuffled from ``seed`` (as ``Game.new``); returns the answer."""
    cfg = k.unpack_config(work[CONFIG:SCRATCH])
    s = _state(board)
    k.deal(cfg, s, 0, cards, seed, np.zeros(k.SEATS, np.uint64), work[SCRATCH:])
    return _answer(cfg, s, mask, work, legal)


@numba.njit(cache=True)
def step(work: Array, board: Array, mask: npt.NDArray[np.bool_], legal: Array, a: int) -> int:
    """Apply the legal action index ``a``; returns the answer."""
    cfg = k.unpack_config(work[CONFIG:SCRATCH])
    s = _state(board)
    k.apply_action(cfg, s, 0, a, work[SCRATCH:])
    return _answer(cfg, s, mask, work, legal)


@numba.njit(cache=True)
def prepared(work: Array, board: Array, mask: npt.NDArray[np.bool_], legal: Array) -> int:
    """For a board written from a Game: derive its open territories and contested
    set; returns the answer."""
    cfg = k.unpack_config(work[CONFIG:SCRATCH])
    s = _state(board)
    k.prepare(cfg, s, 0)
    return _answer(cfg, s, mask, work, legal)


@numba.njit(cache=True)
def observe(work: Array, board: Array, seat: int, out: npt.NDArray[np.float32]) -> None:
    """``out``: the game seen from ``seat``, as ordonnance.rl.encode_view encodes it."""
    bk.encode(k.unpack_config(work[CONFIG:SCRATCH]), board[0], seat, out, work[SCRATCH:])


@numba.njit(cache=True)
def result(work: Array, board: Array, scores: Array) -> int:
    """The scores (into ``scores``) and the winner (-1: nobody) of a finished game."""
    return k.outcome(k.unpack_config(work[CONFIG:SCRATCH]), _state(board), 0, scores, work[SCRATCH:])
