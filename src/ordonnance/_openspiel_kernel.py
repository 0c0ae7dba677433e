"""Private numba entry points of the OpenSpiel adapter (``ordonnance.openspiel``).

An OpenSpiel state holds one game as a one-row
:class:`~ordonnance._simulator_kernel.State`, played by the simulator's rules
functions and observed through the batch kernel's encoder (the layout of
:func:`ordonnance.rl.encode_view`): no rule and no encoding of its own. The
entry points take plain arrays (the rules as :func:`pack_config`'s vector)
and build the records inside, since numba's dispatcher types a NamedTuple
argument in about a microsecond, an array in a twentieth of that.

Each step answers with the legal actions of the seat to act, in increasing
order (as OpenSpiel lists them), so a state never asks the kernel twice: the
indices go into ``legal`` and the return value is :data:`OVER` once the game
has ended, else ``count + (seat to act << 8)``.

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


def pack_config(cfg: k.Config) -> Array:
    """``cfg`` as an int64 vector (rebuilt inside the entry points)."""
    return np.array([int(value) for value in cfg], np.int64)


@numba.njit(cache=True, inline="always")
def _config(c: Array) -> k.Config:
    return k.Config(c[0], c[1], c[2], c[3] != 0, c[4] != 0, c[5] != 0, c[6] != 0, c[7], c[8], c[9] != 0)


@numba.njit(cache=True, inline="always")
def _legal(cfg: k.Config, s: k.State, mask: npt.NDArray[np.bool_], legal: Array, scratch: Array) -> int:
    """The legal action indices into ``legal`` (increasing); returns the step's answer."""
    if s.board[0, k.OVER]:
        return OVER
    k.legal_mask(cfg, s, 0, mask, scratch)
    count = 0
    for a in range(k.NUM_ACTIONS):
        if mask[a]:
            legal[count] = a
            count += 1
    return count + (int(s.board[0, k.CURRENT]) << 8)


@numba.njit(cache=True)
def start(
    c: Array, board: Array, rng: npt.NDArray[np.uint64], cards: Array, seed: np.uint64,
    scratch: Array, mask: npt.NDArray[np.bool_], legal: Array,
) -> int:  # fmt: skip
    """Deal ``cards`` shuffled from ``seed`` (as ``Game.new``); returns the answer."""
    cfg = _config(c)
    s = k.State(board, rng)
    k.deal(cfg, s, 0, cards, seed, rng[0].copy(), scratch)
    return _legal(cfg, s, mask, legal, scratch)


@numba.njit(cache=True)
def step(
    c: Array, board: Array, rng: npt.NDArray[np.uint64], a: int,
    scratch: Array, mask: npt.NDArray[np.bool_], legal: Array,
) -> int:  # fmt: skip
    """Apply the legal action index ``a``; returns the answer."""
    cfg = _config(c)
    s = k.State(board, rng)
    k.apply_action(cfg, s, 0, a, scratch)
    return _legal(cfg, s, mask, legal, scratch)


@numba.njit(cache=True)
def prepared(
    c: Array, board: Array, rng: npt.NDArray[np.uint64], scratch: Array, mask: npt.NDArray[np.bool_], legal: Array
) -> int:
    """For a board written from a Game: derive its open territories and contested
    set; returns the answer."""
    cfg = _config(c)
    s = k.State(board, rng)
    k.prepare(cfg, s, 0)
    return _legal(cfg, s, mask, legal, scratch)


@numba.njit(cache=True)
def observe(c: Array, board: Array, seat: int, out: npt.NDArray[np.float32], scratch: Array) -> None:
    """``out``: the game seen from ``seat``, as ordonnance.rl.encode_view encodes it."""
    bk.encode(_config(c), board[0], seat, out, scratch)


@numba.njit(cache=True)
def result(c: Array, board: Array, rng: npt.NDArray[np.uint64], scores: Array, scratch: Array) -> int:
    """The scores (into ``scores``) and the winner (-1: nobody) of a finished game."""
    return k.outcome(_config(c), k.State(board, rng), 0, scores, scratch)
