"""Private numba kernel of the one-game environments (``rl.SingleAgentEnv``, ``rl.OrdonnanceEnv``).

One game is a one-row :class:`~ordonnance._simulator_kernel.State` played by
the simulator's rules functions and observed through the batch kernel's
encoder (:func:`ordonnance._batch_kernel.encode`): no rule and no encoding
of its own. The entry points take the game's arrays as one :class:`Arrays`
record, the rules as :func:`~ordonnance._simulator_kernel.pack_config`'s
vector among them, and rebuild the simulator's records inside; callers call
their machine code (:func:`ordonnance._entry.compiled_entry`), since numba's
dispatcher types a NamedTuple argument in about a microsecond, which would be
most of an environment step.

Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _batch_kernel as bk
from ordonnance import _simulator_kernel as k
from ordonnance._simulator_kernel import Config, State

Array = npt.NDArray[np.int64]

#: ``book`` fields: the actions recorded so far, the winner once over (-1: nobody), the
#: final scores (SCORES + p), then what the observation vector holds (SEEN: the batch
#: kernel's ``seen`` row of :func:`~ordonnance._batch_kernel.encode_update`), so that a
#: step writes only what changed.
LENGTH, WINNER, SCORES = 0, 1, 2
SEEN = SCORES + k.SEATS
BOOK = SEEN + bk.SEEN
#: ``step``'s answers besides a winner: the action was illegal (nothing changed), the game goes on.
ILLEGAL, GOING_ON = -3, -2


@numba.njit(cache=True, inline="always")
def _apply(cfg: Config, s: State, book: Array, history: npt.NDArray[np.int16], a: int, scratch: Array) -> None:
    length = book[LENGTH]
    if length < history.shape[0]:
        history[length] = a
    book[LENGTH] = length + 1
    k.step(cfg, s, k.ONLY_GAME, a, scratch)


@numba.njit(cache=True, inline="always")
def _bots_play(cfg: Config, s: State, book: Array, history: npt.NDArray[np.int16], kernel_seats: int, scratch: Array) -> None:
    """The kernel bots play while the seat to act is one of ``kernel_seats`` (bits);
    the winner goes into ``book`` once the game is over."""
    b = s.board
    while not b[0, k.OVER] and (kernel_seats >> b[0, k.CURRENT]) & 1:
        _apply(cfg, s, book, history, k.chosen(cfg, s, k.ONLY_GAME, scratch), scratch)
    if b[0, k.OVER]:
        book[WINNER] = k.outcome(cfg, s, k.ONLY_GAME, book[SCORES : SCORES + k.SEATS], scratch)


@numba.njit(cache=True, inline="always")
def _look(
    cfg: Config, s: State, book: Array, seat: int, observation: bk.Observations, mask: npt.NDArray[np.bool_], scratch: Array
) -> None:
    bk.encode_update(cfg, s.board[0], seat, observation, book[SEEN : SEEN + bk.SEEN], scratch)
    if s.board[0, k.CURRENT] == seat:
        k.fill_legal_mask(cfg, s, k.ONLY_GAME, mask, scratch)
    else:
        mask[:] = False


class Arrays(NamedTuple):
    """One game's arrays, as the environment holds them from deal to deal."""

    config: Array  # the rules and kernel bots: pack_config's vector
    board: Array  # the simulator State's board, one row
    rng: npt.NDArray[np.uint64]  # the simulator State's bot generators
    book: Array  # LENGTH, WINNER, SCORES + p and the SEEN row (see above)
    history: npt.NDArray[np.int16]  # the action indices played since the deal, while it has room
    observation: bk.Observations  # the observation vector of the seat last observed
    mask: npt.NDArray[np.bool_]  # that seat's legal actions (all False when it is not to act)
    scratch: Array  # the simulator's working space


@numba.njit(cache=True)
def start(
    arrays: Arrays, cards: Array, seed: np.uint64, bot_seeds: npt.NDArray[np.uint64], kernel_seats: int, seat: int
) -> None:
    """Deal ``Game.new(rules, seed=seed)`` (``bot_seeds[p]`` seeds seat p's kernel bot),
    let the kernel bots play, and observe the game from ``seat`` (``seat < 0``: do not)."""
    c, board, rng, book, history, observation, mask, scratch = arrays
    cfg = k.unpack_config(c)
    s = State(board, rng)
    k.deal(cfg, s, k.ONLY_GAME, cards, seed, bot_seeds, scratch)
    book[LENGTH] = 0
    book[WINNER] = -1
    book[SEEN + bk.SEEN_ME] = -1  # a new deal: its first observation is written afresh
    _bots_play(cfg, s, book, history, kernel_seats, scratch)
    if seat >= 0:
        _look(cfg, s, book, seat, observation, mask, scratch)


@numba.njit(cache=True)
def step(arrays: Arrays, a: int, kernel_seats: int, seat: int) -> int:
    """Action index ``a`` for the seat to act, then the kernel bots of ``kernel_seats``;
    the game observed from ``seat`` (``seat < 0``: not observed). Returns
    ILLEGAL (nothing changed), GOING_ON, or the winner once over (-1: nobody)."""
    c, board, rng, book, history, observation, mask, scratch = arrays
    cfg = k.unpack_config(c)
    s = State(board, rng)
    if not k.legal(cfg, s, k.ONLY_GAME, a, scratch):
        return ILLEGAL
    _apply(cfg, s, book, history, a, scratch)
    _bots_play(cfg, s, book, history, kernel_seats, scratch)
    if seat >= 0:
        _look(cfg, s, book, seat, observation, mask, scratch)
    return int(book[WINNER]) if board[0, k.OVER] else GOING_ON


@numba.njit(cache=True)
def look(arrays: Arrays, seat: int) -> None:
    """The game observed from ``seat``: its observation vector (``observation`` must hold
    what ``book``'s SEEN row says) and legal-action mask (all False when ``seat`` is not to act)."""
    c, board, rng, book, history, observation, mask, scratch = arrays
    _look(k.unpack_config(c), State(board, rng), book, seat, observation, mask, scratch)
