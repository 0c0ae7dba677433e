"""A numba kernel's machine code called without numba's dispatcher.

The dispatcher types every argument of every call, which costs more than a
small kernel's own work; the single-call paths (the completion searches, the
single environment's step, the OpenSpiel adapter's step, every game's batched
step) call the compiled entry point instead, found once for the argument types
they always pass.
"""

from __future__ import annotations

from collections.abc import Callable

import numba

__all__ = ["compiled_entry", "int_entry"]


def compiled_entry(kernel: Callable[..., int], *example: object) -> Callable[..., int]:
    """``kernel``'s machine code for the argument types of ``example``, called without
    numba's dispatcher (which types every argument of every call: a third of a
    single search). ``kernel`` itself without the JIT, or if numba keeps its
    compiled code elsewhere. Arguments of other types are converted or refused
    as the kernel's own unboxing does (a float becomes an int): callers pass
    what they have checked."""
    kernel(*example)  # compile, or load from the disk cache
    try:
        signature = tuple(numba.typeof(value) for value in example)  # type: ignore[no-untyped-call]
        return kernel.overloads[signature].entry_point  # type: ignore[attr-defined, no-any-return]
    except (AttributeError, KeyError):
        return kernel


def int_entry(kernel: Callable[..., int], *example: object) -> Callable[..., int]:
    """:func:`compiled_entry`, whose results are ints also without the JIT (where the
    kernel's Python function returns NumPy integers)."""
    entry = compiled_entry(kernel, *example)
    if entry is not kernel:
        return entry
    return lambda *args: int(kernel(*args))
