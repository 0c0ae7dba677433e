"""Numba helpers that every game's kernel shares: the random stream, and the ways to
pass arrays to inlined rule functions without numba's reference counting.

Every kernel (Ordonnance's simulator, batched games and searches, Shinobi's and
Black Prince's) draws from SplitMix64 with multiply-shift, as the Python engines do
(:mod:`ordonnance.core.rng`), so that a seed gives the same games in both. Nothing
here is game-specific.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba.core import types
from numba.extending import intrinsic, overload

__all__ = [
    "borrowed",
    "unsigned",
    "bit_count",
    "row_of",
    "pointer_of",
    "span",
    "mixed",
    "nth_output",
    "splitmix64",
    "bounded",
    "stream",
    "mix_bot_seeds",
    "mix_bot_seed",
]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


def borrowed(array: Any) -> Any:
    """``array`` itself; compiled, a view of its memory without a reference count.

    numba counts references to every array an inlined rule function takes
    (atomic increments and decrements it cannot prune in the rules' branchy
    loops): measured, about a fifth of a batched step and a quarter of a
    Shinobi random game. A view without a memory owner skips them. It must not
    outlive ``array``, so callers borrow their arguments only for the length of
    a call that holds them. An array that is not C-contiguous is returned as it is.
    """
    return array


@intrinsic
def _data_of(typingctx: object, array: Any) -> tuple[object, object]:
    """The data pointer of ``array``, typed as a pointer to its elements (for :func:`numba.carray`)."""

    def codegen(context: Any, builder: object, signature: Any, args: list[object]) -> object:
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return types.CPointer(array.dtype)(array), codegen  # type: ignore[no-untyped-call]


def _itself(array: Any) -> Any:  # numba wants the overload's parameters, annotations included
    return array


def _when_contiguous(array: Any, impl: Any) -> Any:
    """An overload's implementation: ``impl`` for a C-contiguous array, else the array itself."""
    return impl if array.layout == "C" else _itself


@overload(borrowed)
def _borrowed(array: Any) -> Any:
    def impl(array: Any) -> Any:
        return numba.carray(_data_of(array), array.shape)  # type: ignore[attr-defined,call-arg]

    return _when_contiguous(array, impl)


def unsigned(index: Any) -> Any:
    """``index`` itself; compiled, as an unsigned integer, for indexing: numba checks every
    signed index for a negative value to count from the end (a compare and a conditional
    move each), and an index in the kernels is never negative. The kernels import it as
    ``_u``; with the JIT disabled it stays the identity."""
    return index


@overload(unsigned)
def _unsigned(index: Any) -> Any:
    def impl(index: Any) -> Any:  # numba wants the overload's parameters, annotations included
        return np.uint64(index)

    return impl


def bit_count(bits: int) -> int:
    """How many bits of ``bits`` (not negative) are set; compiled, the processor's popcount
    instruction (``llvm.ctpop``), shorter on a Random bot's critical path than a table lookup."""
    return bin(bits).count("1")


@intrinsic
def _ctpop(typingctx: object, bits: Any) -> tuple[object, object]:
    def codegen(context: Any, builder: Any, signature: Any, args: list[object]) -> object:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@overload(bit_count)
def _bit_count(bits: Any) -> Any:
    def impl(bits: Any) -> Any:  # numba wants the overload's parameters, annotations included
        return _ctpop(np.int64(bits))  # type: ignore[call-arg]

    return impl


@intrinsic
def _offset(typingctx: object, pointer: Any, index: Any) -> tuple[object, object]:
    """``pointer + index`` (in elements)."""

    def codegen(context: Any, builder: Any, signature: Any, args: list[object]) -> object:
        return builder.gep(args[0], [args[1]])

    return pointer(pointer, index), codegen


def row_of(b: Any, g: int) -> Any:
    """Game g's row of the board ``b``; compiled, a bare pointer to it (no array
    struct to pass, no reference count: see :func:`_beaten_by`). Read and written
    by index only, and only for the length of a call that holds ``b``."""
    return b[g]


@overload(row_of)
def _row_of(b: Any, g: Any) -> Any:
    if b.layout != "C":

        def view(b: Any, g: Any) -> Any:  # numba wants the overload's parameters, annotations included
            return b[g]

        return view

    def pointer(b: Any, g: Any) -> Any:
        return _offset(_data_of(b), np.uint64(g) * np.uint64(b.shape[1]))  # type: ignore[call-arg]

    return pointer


def pointer_of(array: Any) -> Any:
    """``array`` itself; compiled, a bare pointer to its first element when it is
    C-contiguous (see :func:`row_of`)."""
    return array


@overload(pointer_of)
def _pointer_of(array: Any) -> Any:
    def pointer(array: Any) -> Any:
        return _data_of(array)  # type: ignore[call-arg]

    return _when_contiguous(array, pointer)


def span(row: Any, start: int, length: int) -> Any:
    """``row[start : start + length]`` as an array, for a row (or scratch) that
    :func:`row_of` may have made a pointer (then an array without an owner)."""
    return row[start : start + length]


@overload(span)
def _span(row: Any, start: Any, length: Any) -> Any:
    if isinstance(row, types.CPointer):

        def of_pointer(row: Any, start: Any, length: Any) -> Any:  # numba wants the overload's parameters
            return numba.carray(_offset(row, np.uint64(start)), length)  # type: ignore[attr-defined,call-arg]

        return of_pointer

    def of_array(row: Any, start: Any, length: Any) -> Any:
        return row[start : start + length]

    return of_array


@numba.njit(cache=True, inline="always")
def mixed(state: np.uint64) -> np.uint64:
    """SplitMix64's output for the state it has just advanced to (:func:`splitmix64` without the step)."""
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@numba.njit(cache=True, inline="always")
def nth_output(seed: np.uint64, k: int | np.uint64) -> np.uint64:
    """The k-th output (k >= 1) of SplitMix64 seeded ``seed``: that of the state ``seed + k * gamma``,
    so the outputs of a stream need not wait on each other (a loop of them vectorises)."""
    return mixed(seed + np.uint64(k) * _GAMMA)


@numba.njit(cache=True, inline="always")
def splitmix64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Advance the state; returns (state, output). Same as ordonnance.core.rng."""
    state = state + _GAMMA
    return state, mixed(state)


@numba.njit(cache=True, inline="always")
def bounded(value: np.uint64, n: int) -> int:
    """``value`` mapped to 0..n-1 by multiply-shift, as ordonnance.core.rng.bounded."""
    return int(((value >> _S32) * np.uint64(n)) >> _S32)


@numba.njit(cache=True)
def stream(seed: np.uint64, out: npt.NDArray[np.uint64]) -> None:
    """The first ``len(out)`` SplitMix64 outputs from ``seed``."""
    state = seed
    for i in range(out.shape[0]):
        state, out[unsigned(i)] = splitmix64(state)


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
    for p in range(own.shape[0]):
        for g in range(game_seeds.shape[0]):  # vectorised; the bot's own part is hoisted out
            out[unsigned(g), unsigned(p)] = mix_bot_seed(game_seeds[unsigned(g)], p, own[unsigned(p)])


@numba.njit(cache=True, inline="always")
def mix_bot_seed(game_seed: np.uint64, p: int, own: np.uint64) -> np.uint64:
    """The seed of seat p's bot in a game (see :func:`mix_bot_seeds`)."""
    _, seat_stream = splitmix64(game_seed + np.uint64(p + 1) * _SEAT_GAMMA)
    _, own_stream = splitmix64(own)
    _, mixed = splitmix64(seat_stream ^ own_stream)
    return mixed
