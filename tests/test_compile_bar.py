"""The command line's compile line: a counting bar on a terminal, the notice once elsewhere,
nothing for a compile measured short or when the notices are silenced."""

from __future__ import annotations

import io
import time

import pytest

from ordonnance.core import compiling
from ordonnance.core.compile_bar import CompileBar, progress_line
from ordonnance.core.compiling import THRESHOLD, Compile

KERNEL = "ordonnance.shinobi._kernel.simulate"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def notices_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiling.QUIET_VARIABLE, raising=False)
    monkeypatch.setattr(compiling, "_enabled", True)


def _run(bar: CompileBar, compile: Compile, seconds: float) -> None:
    bar(compile)
    time.sleep(seconds)
    bar(Compile(compile.kernel, compile.estimate, elapsed=seconds))


def test_a_terminal_sees_the_seconds_count_then_what_it_took() -> None:
    stream = Terminal()
    _run(CompileBar(stream, interval=0.05), Compile(KERNEL, 30.0), 0.4)
    shown = stream.getvalue()
    redraws = shown.split("\r")[1:]
    assert len(redraws) >= 3 and all(r.endswith("\x1b[K") for r in redraws[:-1])
    assert redraws[0].startswith("ordonnance: compiling Shinobi's game kernel for its first use: 0 s of about 30 s [")
    assert redraws[-1] == "ordonnance: compiled Shinobi's game kernel in 0 s; later runs load it from the cache\x1b[K\n"
    assert shown.count("\n") == 1


def test_elsewhere_the_notice_comes_once_per_kernel() -> None:
    stream = io.StringIO()
    bar = CompileBar(stream, interval=0.05)
    for _ in range(2):
        _run(bar, Compile(KERNEL, 30.0), 0.1)
    assert stream.getvalue() == Compile(KERNEL, 30.0).notice() + "\n"


def test_nothing_for_a_short_compile_nor_when_silenced(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Terminal()
    _run(CompileBar(stream), Compile(KERNEL, THRESHOLD / 2), 0.1)
    _run(CompileBar(stream), Compile("ordonnance.shinobi._kernel.unmeasured", None), 0.1)  # ended before THRESHOLD
    monkeypatch.setenv(compiling.QUIET_VARIABLE, "1")
    _run(CompileBar(stream), Compile(KERNEL, 30.0), 0.1)
    assert stream.getvalue() == ""


def test_an_unmeasured_kernel_shows_once_it_has_run_a_while() -> None:
    stream = Terminal()
    _run(CompileBar(stream, interval=0.05), Compile("ordonnance.shinobi._kernel.unmeasured", None), THRESHOLD + 0.3)
    shown = stream.getvalue()
    assert f"compiling Shinobi's game kernel for its first use: {THRESHOLD:.0f} s" in shown
    assert " of about" not in shown and shown.endswith("later runs load it from the cache\x1b[K\n")


def test_the_bar_fills_with_the_estimate_but_never_before_the_end() -> None:
    compile = Compile(KERNEL, 10.0)
    assert progress_line(compile, 0).endswith("[....................]")
    assert progress_line(compile, 5).endswith("[##########..........]")
    assert progress_line(compile, 50).endswith("[###################.]")
    assert progress_line(Compile("ordonnance.shinobi._kernel.unmeasured", None), 3) == (
        "ordonnance: compiling Shinobi's game kernel for its first use: 3 s"
    )
