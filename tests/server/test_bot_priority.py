"""The bots' worker processes run at a lower scheduling priority than the server, so a bot thinking
takes only the CPU the server's event loop leaves."""

from __future__ import annotations

import os

from ordonnance.server.thinking import BOT_NICENESS, bot_pool


def test_bots_think_at_a_lower_priority_than_the_server() -> None:
    pool = bot_pool(1)
    try:
        worker_niceness = pool.submit(os.nice, 0).result(timeout=120)
    finally:
        pool.shutdown()
    assert BOT_NICENESS > 0
    assert worker_niceness == min(os.nice(0) + BOT_NICENESS, 19)
