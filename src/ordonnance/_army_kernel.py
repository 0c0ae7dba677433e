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
1 and 0 (no shift needed) and one SWAR population count per byte puts each
tier's count above its mask. Rotations by whole bytes are one byte shuffle
each in the vector loop; every step is cast back to ``uint32`` (numba would
otherwise widen to 64 bits and halve the vector lanes).

:func:`keys_from_words` asks LLVM for vectors as wide as the host has
(:func:`prefer_wide_vectors`): LLVM's tuning for many AVX-512 CPUs prefers
256-bit vectors, and this loop is 1.4x faster in cache with 512-bit ones.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba import types
from numba.extending import intrinsic

U32 = np.uint32
_OUT_OF_RANGE = U32(0xE0E0E0E0)  # bits no byte of a valid word has


#: The LLVM function attribute that lets the loop vectoriser use 512-bit vectors
#: where the target has them (a no-op on targets whose vectors are narrower).
_WIDE_VECTORS = '"prefer-vector-width"="512"'


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

else:

    @intrinsic
    def prefer_wide_vectors(typingctx: Any) -> Any:
        """Let LLVM vectorise the calling kernel's loops with 512-bit vectors where
        the host has them (LLVM's tuning for many AVX-512 CPUs prefers 256 bits)."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            _add_function_attribute(builder.function, _WIDE_VECTORS)
            return context.get_dummy_value()

        return types.none(), codegen


@numba.njit(cache=True, inline="always")
def word_key(w: np.uint32) -> np.uint32:
    """The key of the army whose card masks are the bytes of ``w`` (0 = empty slot)."""
    # Rotations written out (a helper would be a kernel, which NumPy arrays cannot
    # call: army.py runs this function on arrays to build army_key's tables).
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
    tiers = U32(
        U32(U32(regiments & U32(0xFF0000)) | U32(battalions & U32(0xFF00))) | U32(companies & U32(0xFF))
    )
    count = U32(tiers - U32(U32(tiers >> U32(1)) & U32(0x555555)))
    count = U32(U32(count & U32(0x333333)) + U32(U32(count >> U32(2)) & U32(0x333333)))
    count = U32(U32(count + U32(count >> U32(4))) & U32(0x0F0F0F))
    return U32(tiers | U32(count << U32(5)))


@numba.njit(cache=True)
def key4(a: int, b: int, c: int, d: int) -> int:
    """The key of the army with card masks a, b, c, d (0 = empty slot)."""
    return np.int64(word_key(U32(a | (b << 8) | (c << 16) | (d << 24))))  # type: ignore[return-value]


@numba.njit(cache=True)
def keys_from_words(words: npt.NDArray[np.uint32], out: npt.NDArray[np.uint32]) -> int:
    """Write the key of each army word into ``out``; returns the bits set in some
    byte of the input above 31 (0 when every mask was in range)."""
    prefer_wide_vectors()
    seen = U32(0)
    for i in range(words.shape[0]):
        w = words[i]
        seen = U32(seen | w)
        out[i] = word_key(w)
    return np.int64(U32(seen & _OUT_OF_RANGE))  # type: ignore[return-value]
