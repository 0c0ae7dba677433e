"""A bot's turn is thought for by one server process at a time, the one whose claim of the table the
store granted (PostgreSQL: a session-level advisory lock); when that process dies, another takes over."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from ordonnance import client  # noqa: E402
from ordonnance.server.store import SQLiteStore, open_store  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import stored_moves  # noqa: E402


def test_a_store_one_process_uses_grants_every_claim(tmp_path: Path) -> None:
    async def run() -> None:
        store = SQLiteStore(tmp_path / "tables.db")
        assert await store.claim("t") and await store.claim("t")
        await store.release("t")
        await store.close()

    asyncio.run(run())


def test_a_claim_is_one_process_s_until_released_or_gone(postgres_db: str) -> None:
    async def run() -> None:
        one, two = open_store(postgres_db), open_store(postgres_db)
        assert await one.claim("t1") and await one.claim("t1")  # a process may claim again what it holds
        await one.release("t1")
        assert not await two.claim("t1")  # held by the other process
        assert await two.claim("t2")  # another table's turn
        await one.release("t1")
        assert await two.claim("t1")
        assert not await one.claim("t1")
        await two.close()  # its session ends, and its claims with it, once PostgreSQL has seen it go
        deadline = time.monotonic() + 10
        while not await one.claim("t1"):
            assert time.monotonic() < deadline, "a closed store's claim was never given up"
            await asyncio.sleep(0.05)
        assert await one.claim("t2")
        await one.close()

    asyncio.run(run())


def _holder(url: str, table_id: str) -> str | None:
    """The application name of the connection holding the claim of ``table_id``'s bot turn, or None."""
    psycopg = pytest.importorskip("psycopg")
    from ordonnance.server.postgres import channel_of, claim_key

    schema = re.search(r"search_path%3D(\w+)", url)
    assert schema is not None, url
    key = claim_key(channel_of(schema[1]), table_id) & (2**64 - 1)
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE "
            "l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.classid = %s AND l.objid = %s",
            (key >> 32, key & 0xFFFFFFFF),
        ).fetchone()  # fmt: skip
    return None if row is None else str(row[0])


def _state(socket: client.TableSocket, timeout: float = 10) -> dict[str, Any]:
    while True:
        message = socket.receive(timeout=timeout)
        if message["type"] == "state":
            return message


def test_a_bot_whose_process_dies_is_thought_for_by_another(postgres_db: str, tmp_path: Path) -> None:
    """Two processes on one PostgreSQL, a person connected to both and a MonteCarlo bot thinking 3 s a
    move. Whichever process holds the bot's turn is killed (SIGKILL, with its bots' workers) while the
    bot thinks; the other claims the turn once PostgreSQL ends the dead process's session, and its
    bot's move reaches the person."""
    schema = re.search(r"application_name=(\w+)", postgres_db)
    assert schema is not None
    urls = {name: postgres_db.replace(schema[0], f"{schema[0]}_{name}") for name in ("a", "b")}
    servers = {name: ServerProcess(url, tmp_path / f"{name}.log", log_level="info") for name, url in urls.items()}
    for server in servers.values():
        server.start()
    try:
        clients = {name: client.Client(server.url) for name, server in servers.items()}
        table = clients["a"].create_table("black-prince", ["human", {"kind": "montecarlo", "time_limit": 3.0}])
        token = clients["a"].join(table["id"], 0, "Ada").token
        sockets = {name: c.connect(table["id"], token) for name, c in clients.items()}
        states = {name: _state(socket) for name, socket in sockets.items()}
        while states["a"]["current_player"] == 0:  # the person moves until it is the bot's turn
            ply = states["a"]["ply"]
            sockets["a"].move(ply, states["a"]["legal_actions"][0])
            for name in states:
                states[name] = _state(sockets[name])
                assert states[name]["ply"] == ply + 1
        assert states["a"]["status"] == "playing" and states["a"]["current_player"] == 1
        bot_ply = states["a"]["ply"]
        deadline = time.monotonic() + 10
        while (holder := _holder(postgres_db, table["id"])) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert holder is not None, "no process claimed the bot's turn"
        dead = holder.rpartition("_")[2]
        survivor = "b" if dead == "a" else "a"
        servers[dead].kill()
        began = time.monotonic()
        after = _state(sockets[survivor], timeout=30)
        took = time.monotonic() - began
        assert after["ply"] == bot_ply + 1 and after["last"]["seat"] == 1, after
        sockets[survivor].close()

        moves = stored_moves(postgres_db, table["id"])
        assert [move.ply for move in moves] == list(range(bot_ply + 1)) and moves[-1].seat == 1
        print(f"the bot's move came through the surviving process {took:.1f} s after the other was killed "
              f"(its bot thinks 3 s)")  # fmt: skip
    finally:
        for server in servers.values():
            server.stop()
    for server in servers.values():
        assert "Traceback" not in server.log.read_text(), server.log.read_text()[-3000:]
