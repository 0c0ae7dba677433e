"""A server killed with SIGKILL leaves no bots' worker behind: each ends itself once its parent is gone."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from ordonnance import client  # noqa: E402
from tests.server.conftest import ServerProcess  # noqa: E402


def _children(pid: int) -> set[int]:
    """The bots' workers among the children of ``pid`` (multiprocessing's resource tracker is not one)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and b"spawn_main" in _cmdline(entry):
                found.add(int(entry.name))
    return found


def _cmdline(entry: Path) -> bytes:
    try:
        return (entry / "cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")
def test_the_bots_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "t.db", tmp_path / "server.log", bot_workers=2)
    server.start()
    assert server.process is not None
    pid = server.process.pid
    workers_seen: set[int] = set()
    try:
        seats = [{"kind": "montecarlo", "time_limit": 0.2}] * 2
        for _ in range(4):  # bots thinking at several tables at once: both workers start
            client.Client(server.url).create_table("black-prince", seats)
        deadline = time.monotonic() + 60
        while len(workers := _children(pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers_seen.update(workers)
        assert len(workers) == 2, workers
        os.kill(pid, signal.SIGKILL)  # the server alone: its workers are not told
        server.process.wait()
        deadline = time.monotonic() + 20
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "a bots' worker outlived the server"
    finally:
        for worker in _children(pid) | _children(1):
            if worker in workers_seen:
                os.kill(worker, signal.SIGKILL)
        if server.process is not None and server.process.poll() is None:
            server.kill()
