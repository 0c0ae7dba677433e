"""Private numba kernels of the army evaluator.

The kernels take masks that the public wrappers in :mod:`ordonnance.army`
have already validated (0..31, where 0 is an empty slot), except that
:func:`keys_from_words` also reports out-of-range bytes, so that the batch
is read once. They never raise, never index a table and never branch on the
data, so the batch loop vectorises.

An army is one 32-bit *word*, a card mask in each byte. Per-symbol counts
are computed bit-sliced and in SWAR lanes, with every intermediate the same
in all four bytes: XOR and AND of the word with itself rotated by two bytes
add the cards in pairs (a with c, b with d; the order of cards does not
matter) with a half adder, the same with a rotation by one byte combines the
pairs (a carry-save adder), which gives for every symbol at once whether it
is on 4, 3 or 2 of the cards. The three tiers' masks are taken from bytes 2,
1 and 0 (no shift needed) and a population count per byte puts each tier's
count above its mask. Rotations by whole bytes are one byte shuffle each in
the vector loop; every step is cast back to ``uint32`` (numba would
otherwise widen to 64 bits and halve the vector lanes).

:func:`keys_from_words` asks LLVM for vectors as wide as the host has
(:func:`prefer_wide_vectors`: LLVM's tuning for many AVX-512 CPUs prefers
256-bit vectors) and works by blocks of armies: a vectorised loop writes the
tiers' masks, then :func:`finish16` adds the counts to 16 keys at a time with
LLVM's byte population count on a 64-byte vector (``vpopcntb`` with AVX-512
BITALG, a nibble table shuffle with AVX2, ``cnt`` on ARM), where the SWAR
count of :func:`tiers_key` takes 10 operations. Both are generic LLVM IR
emitted by numba intrinsics, legal on any target. Batches of ``ONE_PASS``
armies or more, which are memory-bound, are computed in one pass instead.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic, register_jitable

U32 = np.uint32
_OUT_OF_RANGE = U32(0xE0E0E0E0)  # bits no byte of a valid word has
#: Keys that finish16 completes at once: 64 bytes, one AVX-512 vector.
LANES = 16
#: Armies per block of keys_from_words: the block's keys are still in L1 when
#: finish16 reads them back (1024 measured best in cache against 128, 256, 384
#: and 512, once the output's cache lines were aligned).
_BLOCK = 1024
#: From this many armies on (4 MiB of keys, more than a core's L2 here)
#: keys_from_words computes each key in one pass: the batch is memory-bound,
#: and the blocks cost 1.07x to 1.2x more into a fresh output there.
ONE_PASS = 1 << 20
_LINE = 64  # bytes in a cache line
#: The LLVM function attribute that lets the loop vectoriser use 512-bit vectors
#: where the target has them (ignored where vectors are narrower).
_WIDE_VECTORS = '"prefer-vector-width"="512"'


@register_jitable
def word_tiers(w: np.uint32) -> np.uint32:
    """The three tiers' symbol masks of the army in ``w``, in bytes 2, 1 and 0,
    without their counts. Plain Python on NumPy arrays too (word_key's tables)."""
    swapped = U32(U32(w >> U32(16)) | U32(w << U32(16)))  # bytes c, d, a, b
    x = U32(w ^ swapped)  # every byte: a ^ c or b ^ d
    y = U32(w & swapped)  # every byte: a & c or b & d
    x_next = U32(U32(x >> U32(8)) | U32(x << U32(24)))  # the other pair in each byte
    y_next = U32(U32(y >> U32(8)) | U32(y << U32(24)))
    ones = U32(x ^ x_next)
    carry = U32(x & x_next)
    regiments = U32(y & y_next)
    twos = U32(U32(y ^ y_next) ^ carry)
    battalions = U32(twos & ones)
    companies = U32(twos & U32(~ones))
    return U32(
        U32(U32(regiments & U32(0xFF0000)) | U32(battalions & U32(0xFF00))) | U32(companies & U32(0xFF))
    )


@register_jitable
def tiers_key(tiers: np.uint32) -> np.uint32:
    """The key from the tiers' masks: each byte's population count above its mask
    (SWAR). Plain Python on NumPy arrays too."""
    count = U32(tiers - U32(U32(tiers >> U32(1)) & U32(0x555555)))
    count = U32(U32(count & U32(0x333333)) + U32(U32(count >> U32(2)) & U32(0x333333)))
    count = U32(U32(count + U32(count >> U32(4))) & U32(0x0F0F0F))
    return U32(tiers | U32(count << U32(5)))


@numba.njit(cache=True, inline="always")
def word_key(w: np.uint32) -> np.uint32:
    """The key of the army whose card masks are the bytes of ``w`` (0 = empty slot)."""
    return tiers_key(word_tiers(w))


def _add_function_attribute(function: Any, attribute: str) -> None:
    # llvmlite's FunctionAttributes accepts only its list of keyword attributes; a
    # string attribute is printed as is, so it is added to the underlying set.
    # Should llvmlite's internals change, the kernel only loses the wider vectors.
    try:
        set.add(function.attributes, attribute)
    except Exception:  # pragma: no cover - depends on llvmlite's internals
        pass


if getattr(numba.config, "DISABLE_JIT", False):

    def prefer_wide_vectors() -> None:
        """Nothing to do without the JIT."""

    def finish16(keys: npt.NDArray[np.uint32], index: int) -> None:
        """Turn the tiers' masks ``keys[index:index + 16]`` into keys."""
        keys[index : index + LANES] = tiers_key(keys[index : index + LANES])  # type: ignore[arg-type]

else:

    @intrinsic
    def prefer_wide_vectors(typingctx: Any) -> Any:
        """Let LLVM vectorise the calling kernel's loops with 512-bit vectors where
        the host has them (LLVM's tuning for many AVX-512 CPUs prefers 256 bits)."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            _add_function_attribute(builder.function, _WIDE_VECTORS)
            return context.get_dummy_value()

        return types.none(), codegen

    @intrinsic
    def finish16(typingctx: Any, keys: Any, index: Any) -> Any:
        """Turn the tiers' masks ``keys[index:index + 16]`` (in bounds, unchecked)
        into keys: each byte's population count, shifted above its mask, on one
        64-byte vector."""
        if not (
            isinstance(keys, types.Array)
            and keys.dtype == types.uint32
            and keys.ndim == 1
            and isinstance(index, types.Integer)
        ):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array = context.make_array(signature.args[0])(context, builder, args[0])
            words = ir.VectorType(ir.IntType(32), LANES)
            byte_vector = ir.VectorType(ir.IntType(8), 4 * LANES)
            address = builder.bitcast(builder.gep(array.data, [args[1]]), words.as_pointer())
            tiers = builder.bitcast(builder.load(address, align=4), byte_vector)
            name = "llvm.ctpop.v64i8"
            ctpop = builder.module.globals.get(name) or ir.Function(
                builder.module, ir.FunctionType(byte_vector, [byte_vector]), name
            )
            counts = builder.shl(builder.call(ctpop, [tiers]), ir.Constant(byte_vector, [5] * (4 * LANES)))
            builder.store(builder.bitcast(builder.or_(tiers, counts), words), address, align=4)
            return context.get_dummy_value()

        return types.none(keys, index), codegen


@numba.njit(cache=True)
def key4(a: int, b: int, c: int, d: int) -> int:
    """The key of the army with card masks a, b, c, d (0 = empty slot)."""
    return np.int64(word_key(U32(a | (b << 8) | (c << 16) | (d << 24))))  # type: ignore[return-value]


@numba.njit(cache=True)
def keys_from_words(
    words: npt.NDArray[np.uint32], out: npt.NDArray[np.uint32], one_pass: int = ONE_PASS
) -> int:
    """Write the key of each army word into ``out``; returns the bits set in some
    byte of the input above 31 (0 when every mask was in range). Batches of at
    least ``one_pass`` armies are computed in one pass, shorter ones by blocks."""
    prefer_wide_vectors()
    seen = U32(0)
    # The first keys one by one, up to a 64-byte boundary of the output, so that
    # the vector stores do not straddle cache lines (13% of a call into a fresh
    # output, whose lines are not in the cache yet).
    head = min(np.int64(-np.int64(out.ctypes.data) % _LINE) // 4, words.shape[0])
    for i in range(head):
        w = words[i]
        seen = U32(seen | w)
        out[i] = word_key(w)
    if words.shape[0] >= one_pass:
        rest = words[head:]
        keys = out[head:]
        for i in range(rest.shape[0]):
            w = rest[i]
            seen = U32(seen | w)
            keys[i] = word_key(w)
        return np.int64(U32(seen & _OUT_OF_RANGE))  # type: ignore[return-value]
    for start in range(head, words.shape[0], _BLOCK):
        block = words[start : start + _BLOCK]
        keys = out[start : start + _BLOCK]
        for i in range(block.shape[0]):
            w = block[i]
            seen = U32(seen | w)
            keys[i] = word_tiers(w)
        whole = block.shape[0] - block.shape[0] % LANES
        for j in range(0, whole, LANES):
            finish16(keys, j)
        for j in range(whole, block.shape[0]):
            keys[j] = tiers_key(keys[j])
    return np.int64(U32(seen & _OUT_OF_RANGE))  # type: ignore[return-value]
