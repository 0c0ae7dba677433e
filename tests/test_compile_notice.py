"""The notice on stderr before a long compile: printed on a cold compile, never when numba's
cache holds the kernel, silenced on request, and handed to a watcher instead when there is one."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numba
import pytest
from numba.core.dispatcher import Dispatcher

from ordonnance.core import compiling
from ordonnance.core.compiling import Compile

TINY = """
import numba

@numba.njit(cache=True)
def add_one(x):
    return x + 1
"""

RUN = """
import sys
sys.path.insert(0, {root!r})
import ordonnance
from ordonnance.core import compiling
compiling.ESTIMATES["tiny_kernels.add_one"] = {estimate!r}
{before}
import tiny_kernels
assert tiny_kernels.add_one(1) == 2
assert tiny_kernels.add_one(2.5) == 3.5  # a second signature: no second notice
"""


def _run(tmp_path: Path, cache: str, *, estimate: float = 5.0, before: str = "", quiet: bool = False) -> str:
    """stderr of a fresh process that calls a tiny cached kernel, given an estimate, with
    NUMBA_CACHE_DIR=tmp_path/cache."""
    (tmp_path / "tiny_kernels.py").write_text(textwrap.dedent(TINY))
    env = {name: value for name, value in os.environ.items() if name not in ("NUMBA_DISABLE_JIT", compiling.QUIET_VARIABLE)}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / cache)
    if quiet:
        env[compiling.QUIET_VARIABLE] = "1"
    code = RUN.format(root=str(tmp_path), estimate=estimate, before=before)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stderr


NOTICE = "ordonnance: compiling tiny_kernels (tiny_kernels.add_one) for its first use, about 5 s; later runs load it from the cache\n"


def test_a_cold_compile_prints_its_notice_once_and_a_warm_run_prints_nothing(tmp_path: Path) -> None:
    assert _run(tmp_path, "cache") == NOTICE
    assert _run(tmp_path, "cache") == ""


def test_a_compile_estimated_below_the_threshold_prints_nothing(tmp_path: Path) -> None:
    assert _run(tmp_path, "cache", estimate=compiling.THRESHOLD / 2) == ""


def test_the_environment_variable_and_set_notices_silence_it(tmp_path: Path) -> None:
    assert _run(tmp_path, "quiet-variable", quiet=True) == ""
    assert _run(tmp_path, "quiet-call", before="assert compiling.set_notices(False) is True") == ""
    assert _run(tmp_path, "again", before="compiling.set_notices(False); compiling.set_notices(True)") == NOTICE


def _event(module: str, name: str = "kernel") -> Any:
    function = SimpleNamespace(__module__=module, __qualname__=name)
    return SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=function)})


def test_a_watcher_gets_each_outermost_compile_at_its_start_and_end_instead_of_a_notice(capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[Compile] = []
    with compiling.watch(seen.append):
        compiling._on_start(_event("ordonnance.fake", "outer"))
        compiling._on_start(_event("ordonnance.fake", "callee"))  # compiled on the way: the outer one's
        compiling._on_end(None)
        compiling._on_end(None)
        compiling._on_start(_event("someone_else"))  # not a library kernel
        compiling._on_end(None)
    compiling._on_start(_event("ordonnance.fake", "after"))  # the watcher has gone
    compiling._on_end(None)
    assert [(c.kernel, c.done) for c in seen] == [("ordonnance.fake.outer", False), ("ordonnance.fake.outer", True)]
    assert seen[1].elapsed is not None and seen[1].elapsed >= 0 and seen[0].estimate is None
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(bool(numba.config.DISABLE_JIT), reason="nothing compiles without the JIT")
def test_a_real_compile_reaches_the_watcher() -> None:
    def twice(x: int) -> int:
        return 2 * x

    twice.__module__ = "ordonnance.fake_module"
    seen: list[Compile] = []
    with compiling.watch(seen.append):
        assert numba.njit(twice)(4) == 8
    kernel = "ordonnance.fake_module.test_a_real_compile_reaches_the_watcher.<locals>.twice"
    assert [(c.kernel, c.done) for c in seen] == [(kernel, False), (kernel, True)]


def test_a_kernel_without_an_estimate_gets_its_notice_once_it_has_compiled_that_long(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiling, "THRESHOLD", 0.05)
    monkeypatch.delenv(compiling.QUIET_VARIABLE, raising=False)
    monkeypatch.setattr(compiling, "_told", set())
    compiling._on_start(_event("ordonnance.fake", "quick"))
    compiling._on_end(None)
    time.sleep(0.2)
    assert capsys.readouterr().err == ""
    compiling._on_start(_event("ordonnance.fake", "slow"))
    time.sleep(0.5)
    compiling._on_end(None)
    assert capsys.readouterr().err == "ordonnance: compiling fake (fake.slow) for its first use; later runs load it from the cache\n"


def test_the_notice_says_what_the_kernel_serves() -> None:
    assert Compile("ordonnance.shinobi._kernel.simulate", 31.6).notice() == (
        "ordonnance: compiling Shinobi's game kernel (shinobi._kernel.simulate) for its first use, about 32 s;"
        " later runs load it from the cache"
    )
    assert Compile("ordonnance.new_module.f").what == "new_module"


def test_the_estimates_name_kernels_of_the_library() -> None:
    assert compiling.ESTIMATES, "benchmarks/compile_times.py --kernels --write-estimates fills the table"
    for kernel, seconds in compiling.ESTIMATES.items():
        module, _, name = kernel.rpartition(".")
        kernel_function = getattr(importlib.import_module(module), name)
        assert isinstance(kernel_function, Dispatcher) or (numba.config.DISABLE_JIT and callable(kernel_function)), kernel
        assert seconds >= 0
        assert compiling.estimate(kernel) == seconds
