"""The bots' worker processes run at a lower scheduling priority than the server, so a bot thinking
takes only the CPU the server's event loop leaves."""

from __future__ import annotations

import os
import sys

import pytest

from ordonnance.server.thinking import BOT_NICENESS, bot_pool


def _priority() -> tuple[int, int | None]:
    """The calling process's niceness and scheduling class (None where the system has none)."""
    return os.nice(0), os.sched_getscheduler(0) if hasattr(os, "sched_getscheduler") else None


def test_bots_think_at_a_lower_priority_than_the_server() -> None:
    pool = bot_pool(1)
    try:
        niceness, policy = pool.submit(_priority).result(timeout=120)
    finally:
        pool.shutdown()
    assert BOT_NICENESS > 0
    assert niceness == min(os.nice(0) + BOT_NICENESS, 19)
    if sys.platform.startswith("linux"):
        assert policy == os.SCHED_IDLE, "on Linux, any other process's waking thread takes the CPU from a bot at once"
        assert os.sched_getscheduler(0) != os.SCHED_IDLE, "the server's own class is left as it was"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SCHED_IDLE is Linux's")
def test_a_worker_keeps_its_niceness_where_the_idle_class_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from ordonnance.server import thinking

    def refused(*_args: object) -> None:
        raise PermissionError("not allowed here")

    calls: list[int] = []
    monkeypatch.setattr(os, "sched_setscheduler", refused)
    monkeypatch.setattr(os, "nice", lambda increment: calls.append(increment) or 0)
    monkeypatch.setattr(thinking.threading, "Thread", lambda **_kwargs: type("T", (), {"start": lambda self: None})())
    thinking._start_worker(BOT_NICENESS, os.getpid())
    assert calls == [BOT_NICENESS]
