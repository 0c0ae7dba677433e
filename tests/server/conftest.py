"""A real play server for the tests: ``python -m ordonnance serve`` in its own process, on a free
port, over a temporary SQLite file."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """``ordonnance serve`` on ``db``, started and stopped by the test."""

    def __init__(self, db: Path, log: Path, log_level: str = "warning") -> None:
        self.db = db
        self.log_level = log_level
        self.log = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> None:
        command = [sys.executable, "-m", "ordonnance", "serve", "--port", str(self.port), "--db", str(self.db),
                   "--bot-workers", "1", "--log-level", self.log_level]  # fmt: skip
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as reply:
                    if json.loads(reply.read()) == {"ok": True}:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start in {timeout} s: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # uvicorn shuts down: the bots' workers stop too
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    process = ServerProcess(folder / "tables.db", folder / "server.log")
    process.start()
    try:
        yield process
    finally:
        process.stop()
    assert "Traceback" not in process.log.read_text(), process.log.read_text()[-3000:]


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log", log_level="info")
    try:
        yield process
    finally:
        process.stop()

