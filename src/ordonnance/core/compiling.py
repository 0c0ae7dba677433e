"""Compile notices: the library says so when numba is about to compile one of its kernels for a while.

numba compiles a kernel the first time a process calls it, then keeps the machine
code in its disk cache, from which every later run loads it in a fraction of a
second. The first use of some features (a search bot's first move, a game's
first ``simulate``, a Gymnasium environment's first step) compiles for seconds
to minutes on a small machine. So that the wait is not a silent one, the
library listens to numba's ``numba:compile`` events, which numba broadcasts
when a dispatcher compiles and never when it loads from the cache, and when one
of its kernels starts compiling that took at least :data:`THRESHOLD` seconds
when it was measured (:data:`ESTIMATES`), it prints one line on stderr, e.g.::

    ordonnance: compiling Shinobi's game kernel (shinobi._kernel.simulate) for its first use, about 30 s; later runs load it from the cache

A kernel with no estimate gets the line (without the figure) once it has been
compiling for :data:`THRESHOLD` seconds. The line comes once per kernel and
process; the callees that a kernel compiles on the way are its own compile's.

Silence the notices with the environment variable
``ORDONNANCE_NO_COMPILE_NOTICES`` (any value but the empty string) or with
:func:`set_notices`. A program that shows progress its own way takes them with
:func:`watch`, which hands each compile of a library kernel to a callback,
at its start and at its end, instead of printing.

>>> from ordonnance.core import compiling
>>> seen = []
>>> with compiling.watch(seen.append):
...     pass  # compiles in here reach seen, as Compile records, and print nothing
>>> compiling.Compile("ordonnance._army_kernel.keys_from_words", 3.0).what
'the army evaluator'
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from ordonnance.core._compile_estimates import SECONDS

__all__ = [
    "THRESHOLD",
    "ESTIMATES",
    "QUIET_VARIABLE",
    "Compile",
    "estimate",
    "install",
    "notices_enabled",
    "set_notices",
    "watch",
]

#: Seconds of compiling worth a notice.
THRESHOLD = 1.0

#: Cold compile seconds of each kernel entry point (``module.qualname``), measured by
#: ``benchmarks/compile_times.py`` on the development machine; a kernel not listed
#: here but compiled under a library module is timed as it compiles instead.
ESTIMATES: dict[str, float] = dict(SECONDS)

#: The environment variable that silences the notices when set to a non-empty value.
QUIET_VARIABLE = "ORDONNANCE_NO_COMPILE_NOTICES"

_PACKAGE = "ordonnance."

# What the kernels of each module serve, as a user knows it.
_FEATURES = {
    "ordonnance._army_kernel": "the army evaluator",
    "ordonnance._completion_kernel": "the completion search",
    "ordonnance._simulator_kernel": "the game kernel",
    "ordonnance._batch_kernel": "the batched games",
    "ordonnance._env_kernel": "the Gymnasium environment",
    "ordonnance._openspiel_kernel": "the OpenSpiel game",
    "ordonnance._montecarlo": "the MonteCarlo bot",
    "ordonnance._ismcts": "the ISMCTS bot",
    "ordonnance._ismcts_model": "the ISMCTS bot",
    "ordonnance._sampling": "the view sampler",
    "ordonnance.odds": "the territory odds",
    "ordonnance.shinobi._kernel": "Shinobi's game kernel",
    "ordonnance.shinobi._montecarlo": "Shinobi's MonteCarlo bot",
    "ordonnance.black_prince._kernel": "Black Prince's game kernel",
    "ordonnance.black_prince._montecarlo": "Black Prince's MonteCarlo bot",
}


@attrs.frozen
class Compile:
    """One compile of a library kernel: what :func:`watch`'s callback receives, once as it
    starts (``elapsed`` None) and once as it ends."""

    kernel: str
    """The kernel compiled: ``module.qualname`` of its Python function."""
    estimate: float | None = None
    """Seconds it took when measured cold (:data:`ESTIMATES`), None when never measured."""
    elapsed: float | None = None
    """Seconds it took, once it has ended; None while it runs."""

    @property
    def done(self) -> bool:
        """Whether it has ended."""
        return self.elapsed is not None

    @property
    def what(self) -> str:
        """What the kernel serves, in a user's words (its module's name when unknown)."""
        module = self.kernel.rpartition(".")[0]
        return _FEATURES.get(module, module.removeprefix(_PACKAGE))

    def notice(self) -> str:
        """The line printed on stderr as it starts."""
        name = self.kernel.removeprefix(_PACKAGE)
        how_long = "" if self.estimate is None else f", about {self.estimate:.0f} s"
        return (
            f"ordonnance: compiling {self.what} ({name}) for its first use{how_long}; "
            "later runs load it from the cache"
        )


def estimate(kernel: str) -> float | None:
    """The measured cold compile seconds of ``kernel`` (``module.qualname``), or None."""
    return ESTIMATES.get(kernel)


_enabled = True
_watchers: list[Callable[[Compile], object]] = []
_told: set[str] = set()
_installed: list[object] = []


def notices_enabled() -> bool:
    """Whether the notices print: not silenced by :func:`set_notices` nor by ``ORDONNANCE_NO_COMPILE_NOTICES``."""
    return _enabled and not os.environ.get(QUIET_VARIABLE)


def set_notices(enabled: bool) -> bool:
    """Print the notices on stderr or not (the environment variable silences them
    whatever this says); returns the previous setting."""
    global _enabled
    previous, _enabled = _enabled, bool(enabled)
    return previous


@contextmanager
def watch(callback: Callable[[Compile], object]) -> Iterator[None]:
    """Within the block, hand every compile of a library kernel to ``callback`` (at its
    start and at its end, as :class:`Compile` records, whatever its length) instead of
    printing notices: for a program that shows progress its own way."""
    _watchers.append(callback)
    try:
        yield
    finally:
        _watchers.remove(callback)


class _Running:
    """The outermost compile under way in a thread, and its delayed notice if it has no estimate."""

    def __init__(self, compile: Compile) -> None:
        self.compile = compile
        self.start = time.perf_counter()
        self.timer: threading.Timer | None = None


def _ours(kernel: str) -> bool:
    return kernel.startswith(_PACKAGE) or kernel in ESTIMATES


def _tell(compile: Compile) -> None:
    if compile.kernel in _told or not notices_enabled():
        return
    _told.add(compile.kernel)
    print(compile.notice(), file=sys.stderr, flush=True)


class _State(threading.local):
    depth = 0
    running: _Running | None = None


def _started(dispatcher: Any) -> None:
    function = dispatcher.py_func
    kernel = f"{function.__module__}.{function.__qualname__}"
    if not _ours(kernel):
        return
    compile = Compile(kernel, estimate(kernel))
    running = _state.running = _Running(compile)
    if _watchers:
        for callback in list(_watchers):
            callback(compile)
    elif compile.estimate is None:
        running.timer = threading.Timer(THRESHOLD, _tell, (compile,))
        running.timer.daemon = True
        running.timer.start()
    elif compile.estimate >= THRESHOLD:
        _tell(compile)


def _ended() -> None:
    running, _state.running = _state.running, None
    if running is None:
        return
    if running.timer is not None:
        running.timer.cancel()
    ended = attrs.evolve(running.compile, elapsed=time.perf_counter() - running.start)
    for callback in list(_watchers):
        callback(ended)


_state = _State()


def _on_start(event: Any) -> None:
    _state.depth += 1
    if _state.depth == 1:
        _started(event.data["dispatcher"])


def _on_end(event: Any) -> None:
    _state.depth -= 1
    if _state.depth == 0:
        _ended()


def install() -> bool:
    """Listen to numba's compile events (once; later calls do nothing). Returns whether the
    listener is in place (False on a numba without the event API)."""
    if _installed:
        return True
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - numba 0.59 and later have it
        return False

    class Listener(event.Listener):
        def on_start(self, event: Any) -> None:
            _on_start(event)

        def on_end(self, event: Any) -> None:
            _on_end(event)

    listener = Listener()
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call]
    _installed.append(listener)
    return True
