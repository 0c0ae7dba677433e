"""Shared test settings: hypothesis profiles and the card strategies."""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The library's compile notices (ordonnance.core.compiling) go to stderr whenever a kernel compiles,
# which on a fresh machine (CI's) is at every first use: tests that read stderr would see them there
# and not on a warm machine. tests/test_compile_notice.py turns them on where it tests them.
os.environ.setdefault("ORDONNANCE_NO_COMPILE_NOTICES", "1")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before the whole suite (no paths given), compile every kernel once, in parallel.

    ``ordonnance.core.warmup`` runs every game's first uses in one process per core, so the
    kernels compile side by side, each once, into numba's cache; the tests (and the programs
    they start) then load them from there instead of each test process compiling them again.
    Skipped in xdist's workers, for a run of chosen paths, without the JIT, and with
    ``ORDONNANCE_TEST_WARM_UP=0``."""
    config = session.config
    if hasattr(config, "workerinput") or config.option.file_or_dir:
        return
    if os.environ.get("NUMBA_DISABLE_JIT") == "1" or os.environ.get("ORDONNANCE_TEST_WARM_UP") == "0":
        return
    from ordonnance.core import warmup

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"compiling the kernels first ({warmup.default_jobs()} processes; "
                            "seconds when numba's cache holds them, minutes on a fresh checkout)")
    start = time.perf_counter()
    outcomes = warmup.warm_up()
    failed = [f"{o.use.name}: {o.error}" for o in outcomes if o.error is not None]
    if reporter is not None:
        ran = sum(not o.skipped for o in outcomes)
        reporter.write_line(f"kernels warmed up: {ran} first uses in {time.perf_counter() - start:.0f} s "
                            f"({warmup.default_jobs()} processes)" + "".join(f"\n  failed: {f}" for f in failed))
