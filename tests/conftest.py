"""Shared test settings: hypothesis profiles and the card strategies."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The library's compile notices (ordonnance.core.compiling) go to stderr whenever a kernel compiles,
# which on a fresh machine (CI's) is at every first use: tests that read stderr would see them there
# and not on a warm machine. tests/test_compile_notice.py turns them on where it tests them.
os.environ.setdefault("ORDONNANCE_NO_COMPILE_NOTICES", "1")
