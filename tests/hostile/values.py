"""Bad values of every type, and the one way a public entry point may answer them.

A call given a bad value must either succeed (the value was acceptable after all: the
test that built the call then checks what was stored) or raise the library's error
(:class:`~ordonnance.errors.OrdonnanceError`, a ``ValueError``/``TypeError`` subclass);
never a bare exception, a hang or a huge allocation. :func:`answer` runs a call under an
alarm so that a hang fails the test instead of the run. ``HOSTILE_SCALE`` (an environment
variable, default 1) multiplies the sizes of the randomised parts for a nightly run.
"""

from __future__ import annotations

import itertools
import math
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ordonnance.errors import OrdonnanceError

#: Multiplies the number of random positions, saves and mutations (1 in the test command).
SCALE = max(1, int(os.environ.get("HOSTILE_SCALE", "1")))


def _endless() -> Iterator[object]:
    return itertools.repeat(None)


def _endless_ints() -> Iterator[int]:
    return itertools.count()


#: ``name -> factory``: a fresh bad value per use (iterators are consumed).
BAD_VALUES: dict[str, Callable[[], object]] = {
    "None": lambda: None,
    "True": lambda: True,
    "np.bool_": lambda: np.bool_(True),
    "-1": lambda: -1,
    "2**64": lambda: 2**64,
    "10**5000": lambda: 10**5000,
    "np.int64(-1)": lambda: np.int64(-1),
    "1.5": lambda: 1.5,
    "nan": lambda: math.nan,
    "inf": lambda: math.inf,
    "np.float64": lambda: np.float64(0.5),
    "empty str": lambda: "",
    "NUL str": lambda: "a\x00b",
    "escape str": lambda: "\x1b[2J",
    "non-ASCII digits": lambda: "²",
    "huge str": lambda: "x" * 1_000_000,
    "np.str_": lambda: np.str_("nobody"),
    "bytes": lambda: b"\xff",
    "empty list": lambda: [],
    "list of None": lambda: [None],
    "nested list": lambda: [[[]]],
    "dict": lambda: {"a": 1},
    "object": lambda: object(),
    "function": lambda: print,
    "endless iterator": _endless,
    "endless ints": _endless_ints,
    "array": lambda: np.zeros((2, 2)),
}

#: Seconds a single call may take before it counts as a hang.
HANG_SECONDS = 20


class Hang(Exception):
    """A call did not return within :data:`HANG_SECONDS`."""


def answer(call: Callable[[], Any]) -> tuple[bool, BaseException | None, Any]:
    """Run ``call``; ``(ok, error, result)`` where ``ok`` says the answer was acceptable: a
    return, or a raise of the library's error family. Anything else is reported, not raised."""
    alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGALRM")

    def interrupt(_signum: int, _frame: object) -> None:
        raise Hang(f"no answer within {HANG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, interrupt) if alarm else None
    if alarm:
        signal.alarm(HANG_SECONDS)
    try:
        result = call()
    except OrdonnanceError as error:
        return True, error, None
    except (Hang, MemoryError, RecursionError, Exception) as error:  # noqa: BLE001 - the point of the test
        return False, error, None
    finally:
        if alarm:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    return True, None, result


def failures(cases: dict[str, Callable[[], Any]], accept: Callable[[str, Any], str | None] | None = None) -> list[str]:
    """Run every case; the list of those answered badly, each ``name: what happened``.

    ``accept(name, result)`` may refuse a call that returned (a silent acceptance of a bad
    value): it returns why, or None when the result is right."""
    bad = []
    for name, call in cases.items():
        ok, error, result = answer(call)
        if not ok:
            bad.append(f"{name}: {type(error).__name__}: {str(error)[:200]}")
        elif error is None and accept is not None:
            why = accept(name, result)
            if why is not None:
                bad.append(f"{name}: accepted: {why}")
    return bad
