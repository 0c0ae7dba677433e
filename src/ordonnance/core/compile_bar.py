"""The command line's view of a long compile: a line on stderr that counts the seconds.

:mod:`ordonnance.core.compiling` hands each compile of a library kernel to a
watcher (:func:`~ordonnance.core.compiling.watch`). The command line's watcher,
:class:`CompileBar`, shows one that is expected to take a while (its measured
estimate is at least :data:`~ordonnance.core.compiling.THRESHOLD`, or it has no
estimate and has run that long): on a terminal, a line rewritten a few times a
second with the seconds so far against the estimate and a bar, then replaced by
what it took; elsewhere (a file, a pipe), the library's notice once, as a
program without a watcher prints it. The notices' switches silence it too.

>>> from ordonnance.core.compiling import Compile
>>> print(progress_line(Compile("ordonnance.shinobi._kernel.simulate", 30.0), 12.0))
ordonnance: compiling Shinobi's game kernel for its first use: 12 s of about 30 s [########............]
"""

from __future__ import annotations

import threading
import time
from typing import TextIO

from ordonnance.core.compiling import THRESHOLD, Compile, notices_enabled

__all__ = ["CompileBar", "progress_line"]

_WIDTH = 20  # cells of the bar


def progress_line(compile: Compile, elapsed: float) -> str:
    """The terminal's line for ``compile`` after ``elapsed`` seconds: what, the seconds,
    and against its estimate a bar (never full before it ends)."""
    head = f"ordonnance: compiling {compile.what} for its first use: {elapsed:.0f} s"
    if compile.estimate is None:
        return head
    done = min(int(_WIDTH * elapsed / compile.estimate), _WIDTH - 1)
    return f"{head} of about {compile.estimate:.0f} s [{'#' * done}{'.' * (_WIDTH - done)}]"


class CompileBar:
    """A :func:`~ordonnance.core.compiling.watch` callback that shows long compiles on ``stream``."""

    def __init__(self, stream: TextIO, *, interval: float = 0.25) -> None:
        self.stream = stream
        """Where it writes (the command line's stderr)."""
        self.interval = interval
        """Seconds between two redraws on a terminal."""
        self._lock = threading.Lock()
        self._running: dict[str, tuple[threading.Thread, threading.Event]] = {}
        self._told: set[str] = set()

    def _terminal(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty is not None and isatty())

    def __call__(self, compile: Compile) -> None:
        """Take a compile's start (``compile.elapsed`` None) or its end."""
        if not notices_enabled():
            return
        if compile.elapsed is None:
            self._start(compile)
        else:
            self._end(compile)

    def _start(self, compile: Compile) -> None:
        if compile.estimate is not None and compile.estimate < THRESHOLD:
            return  # measured short: nothing to show
        delay = 0.0 if compile.estimate is not None else THRESHOLD
        stop = threading.Event()
        thread = threading.Thread(target=self._show, args=(compile, delay, stop), daemon=True)
        with self._lock:
            self._running[compile.kernel] = (thread, stop)
        thread.start()

    def _show(self, compile: Compile, delay: float, stop: threading.Event) -> None:
        if stop.wait(delay) or compile.kernel in self._told:
            return
        self._told.add(compile.kernel)
        if not self._terminal():
            self._write(compile.notice() + "\n")
            return
        start = time.perf_counter() - delay
        while not stop.is_set():
            self._write("\r" + progress_line(compile, time.perf_counter() - start) + "\x1b[K")
            stop.wait(self.interval)

    def _end(self, compile: Compile) -> None:
        with self._lock:
            running = self._running.pop(compile.kernel, None)
        if running is None:
            return
        thread, stop = running
        stop.set()
        thread.join()  # its last redraw is written before the final line
        if compile.kernel in self._told and self._terminal():
            self._write(f"\rordonnance: compiled {compile.what} in {compile.elapsed:.0f} s; "
                        "later runs load it from the cache\x1b[K\n")  # fmt: skip

    def _write(self, text: str) -> None:
        with self._lock:
            self.stream.write(text)
            self.stream.flush()
