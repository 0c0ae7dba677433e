"""Private numba entry points of the OpenSpiel adapter (``ordonnance.openspiel``).

An OpenSpiel state holds one game as a one-row
:class:`~ordonnance._simulator_kernel.State`, played by the simulator's rules
functions and observed through the batch kernel's encoder (the layout of
:func:`ordonnance.rl.encode_view`): no rule and no encoding of its own.

numba's dispatcher spends about a tenth of a microsecond on each array
argument (and about a microsecond typing a NamedTuple), which would be a good
part of a step. So the entry points take two arrays: ``work``, shared by the
states of one set of rules, holds the rules (as a vector), then the rules'
working memory and the legal-action mask (nothing stays in either between
calls); ``board`` is the state's own, one flat array: the game's row
(:func:`new_board`) followed by room for the legal actions (flat, so that
the adapter reads the legal actions with one cheap slice). The records are
built inside.
The kernel bots' generators are not used (OpenSpiel chooses every action),
so the state's ``rng`` is made inside too.

Each step answers with the legal actions of the seat to act, in increasing
order (as OpenSpiel lists them), so a state never asks the kernel twice: the
indices go into the last :data:`NUM_ACTIONS` places of ``board`` and the
return value is :data:`OVER` once the game has ended, :data:`ILLEGAL` (and
nothing changed) for an action that is not legal, else
``count + (seat to act << 8)``.

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
#: The answer of a step given an action that is not legal (the state is unchanged).
ILLEGAL = -2
NUM_ACTIONS = k.NUM_ACTIONS
#: ``work`` fields: the rules, the working memory, the mask (one byte an action).
CONFIG = 0
SCRATCH = CONFIG + k.CONFIG_SIZE
MASK = SCRATCH + k.SCRATCH
WORK = MASK + (NUM_ACTIONS + 7) // 8


def new_work(cfg: k.Config) -> Array:
    """The ``work`` array of a set of rules."""
    work = np.zeros(WORK, np.int64)
    work[CONFIG:SCRATCH] = k.pack_config(cfg)
    return work


def legal_at(deck: int) -> int:
    """Where a state's ``board`` (deck of ``deck`` cards) lists its legal actions: after the game's row."""
    return k.ORDER + deck


def new_board(deck: int) -> Array:
    """A state's ``board``: one game's row for a deck of ``deck`` cards, then its legal actions."""
    return np.zeros(legal_at(deck) + NUM_ACTIONS, np.int64)


@numba.njit(cache=True, inline="always")
def _state(board: Array) -> k.State:
    """The one-game State of a flat ``board`` (its rows are views of it)."""
    return k.State(board.reshape((1, board.shape[0])), np.zeros((1, k.SEATS), np.uint64))


@numba.njit(cache=True, inline="always")
def _answer(cfg: k.Config, s: k.State, work: Array) -> int:
    """The legal action indices into the end of the board (increasing); returns the step's answer."""
    board = s.board
    if board[0, k.OVER]:
        return OVER
    mask = work[MASK:].view(np.bool_)
    k.fill_legal_mask(cfg, s, k.ONLY_GAME, mask, work[SCRATCH:MASK])
    first = board.shape[1] - NUM_ACTIONS  # s.board: the flat board as one row
    at = first
    for a in range(NUM_ACTIONS):
        if mask[a]:
            board[0, at] = a
            at += 1
    return int(at - first) + (int(board[0, k.CURRENT]) << 8)


@numba.njit(cache=True)
def start(work: Array, board: Array, cards: Array, seed: np.uint64) -> int:
    """Deal ``cards`` shuffled from ``seed`` (as ``Game.new``); returns the answer."""
    cfg = k.unpack_config(work[CONFIG:SCRATCH])
    s = _state(board)
    k.deal(cfg, s, k.ONLY_GAME, cards, seed, np.zeros(k.SEATS, np.uint64), work[SCRATCH:MASK])
    return _answer(cfg, s, work)


@numba.njit(cache=True)
def step(work: Array, board: Array, a: int) -> int:
    """Apply action index ``a`` if it is legal (any int64); returns the answer."""
    cfg = k.unpack_config(work[CONFIG:SCRATCH])
    s = _state(board)
    if not k.legal(cfg, s, k.ONLY_GAME, a, work[SCRATCH:MASK]):
        return ILLEGAL
    k.step(cfg, s, k.ONLY_GAME, a, work[SCRATCH:MASK])
    return _answer(cfg, s, work)


@numba.njit(cache=True)
def prepared(work: Array, board: Array) -> int:
    """For a board written from a Game: derive its open territories and contested
    set; returns the answer."""
    cfg = k.unpack_config(work[CONFIG:SCRATCH])
    s = _state(board)
    k.prepare(cfg, s, k.ONLY_GAME)
    return _answer(cfg, s, work)


@numba.njit(cache=True)
def observe(work: Array, board: Array, seat: int, out: npt.NDArray[np.float32]) -> None:
    """``out``: the game seen from ``seat``, as ordonnance.rl.encode_view encodes it."""
    bk.encode(k.unpack_config(work[CONFIG:SCRATCH]), board, seat, out, work[SCRATCH:MASK])


@numba.njit(cache=True)
def result(work: Array, board: Array, scores: Array) -> int:
    """The scores (into ``scores``) and the winner (-1: nobody) of a finished game."""
    return k.outcome(k.unpack_config(work[CONFIG:SCRATCH]), _state(board), k.ONLY_GAME, scores, work[SCRATCH:MASK])
