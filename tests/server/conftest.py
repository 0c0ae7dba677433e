"""A real play server for the tests: ``python -m ordonnance serve`` in its own process, on a free
port, over a temporary SQLite file or a fresh schema of the PostgreSQL database named by
``ORDONNANCE_TEST_POSTGRES`` (a ``postgresql://`` URL; ``.ci/postgres`` starts one and prints it)."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """``ordonnance serve`` on ``db`` with more of its ``options``, started and stopped by the test."""

    def __init__(self, db: Path | str, log: Path, log_level: str = "warning", bot_workers: int = 1,
                 options: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.db = db
        self.options = options
        self.bot_workers = bot_workers
        self.log_level = log_level
        self.log = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> None:
        command = [sys.executable, "-m", "ordonnance", "serve", "--port", str(self.port), "--db", str(self.db),
                   "--bot-workers", str(self.bot_workers), "--log-level", self.log_level, *self.options]  # fmt: skip
        with open(self.log, "ab") as log:
            # A session of its own: kill() takes its bots' workers down with it, as a crash would.
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
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

    def kill(self) -> None:
        """SIGKILL the server and its bots' workers at once: nothing is shut down."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # uvicorn shuts down: the bots' workers stop too
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@contextlib.contextmanager
def running_server(folder: Path, options: tuple[str, ...] = ()) -> Iterator[ServerProcess]:
    """A server process on an SQLite file in ``folder`` (more ``ordonnance serve`` ``options``), stopped
    after; its log must hold no traceback."""
    process = ServerProcess(folder / "tables.db", folder / "server.log", options=options)
    process.start()
    try:
        yield process
    finally:
        process.stop()
    assert "Traceback" not in process.log.read_text(), process.log.read_text()[-3000:]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("server")) as process:
        yield process


#: A PostgreSQL database for the tests (a ``postgresql://`` URL), or None: those cases skip.
POSTGRES = os.environ.get("ORDONNANCE_TEST_POSTGRES") or None
NO_POSTGRES = "PostgreSQL cases need ORDONNANCE_TEST_POSTGRES=postgresql://... (.ci/postgres starts a server and prints it)"


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL of the test database whose connections use a fresh, empty schema (dropped after)."""
    if POSTGRES is None:
        pytest.skip(NO_POSTGRES)
    psycopg = pytest.importorskip("psycopg")
    schema = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        # The schema's connections carry its name, so that the teardown can end any a test left open.
        options = quote(f"-c search_path={schema}", safe="")
        yield POSTGRES + ("&" if "?" in POSTGRES else "?") + f"options={options}&application_name={schema}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as connection:
            # A store a test left in a transaction would hold its tables' locks and DROP would wait for good.
            connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                               (schema,))  # fmt: skip
            connection.execute("SET lock_timeout = '30s'")
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each store in turn: an SQLite file's path, a PostgreSQL URL (skipped without
    ``ORDONNANCE_TEST_POSTGRES``)."""
    if request.param == "sqlite":
        yield str(tmp_path / "tables.db")
    else:
        with postgres_schema() as url:
            yield url


@pytest.fixture
def postgres_db() -> Iterator[str]:
    """A PostgreSQL URL with a fresh schema (skipped without ``ORDONNANCE_TEST_POSTGRES``)."""
    with postgres_schema() as url:
        yield url


@pytest.fixture
def fresh_server(db: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(db, tmp_path / "server.log", log_level="info")
    try:
        yield process
    finally:
        process.stop()

