"""SIGKILL in the middle of many games: no acknowledged move is lost, every game resumes exactly
where its log left it (bots included), and people's clients connect again and play on by themselves."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from ordonnance import client  # noqa: E402
from ordonnance.core import registry  # noqa: E402
from ordonnance.server.store import open_store  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import SeatPlayer, check_bots_decided, positions  # noqa: E402

#: Tables of people (their seats played from threads, a move every few hundredths of a second).
PEOPLE = [("shinobi", ["human", "human", "random"], {"players": 3}), ("black-prince", ["human", "greedy"], None),
          ("ordonnance", ["human", "random"], None)] * 3  # fmt: skip
#: Tables of bots alone, slowed by a search bot so that they are still being played at the kill.
BOTS = [("ordonnance", [{"kind": "montecarlo", "time_limit": 0.05}, "random"], None),
        ("black-prince", ["greedy", {"kind": "montecarlo", "time_limit": 0.05}], None),
        ("shinobi", ["random", "greedy", {"kind": "montecarlo", "time_limit": 0.05}], {"players": 3})]  # fmt: skip


class RecordingClient(client.Client):
    """A client whose every connection's messages are kept (:attr:`sockets`)."""

    def __init__(self, url: str) -> None:
        super().__init__(url, timeout=120)  # a restarted worker's first search loads its kernels
        self.sockets: list[client.TableSocket] = []
        self._lock = threading.Lock()

    def connect(self, table_id: str, token: str | None = None) -> client.TableSocket:
        socket = super().connect(table_id, token)
        with self._lock:
            self.sockets.append(socket)
        return socket


class Slow:
    """A person: a random bot that takes a few hundredths of a second a move."""

    def __init__(self, game: str, seed: int) -> None:
        self.bot = registry.package(game).bots.Random(seed=seed)

    def choose(self, view: Any) -> Any:
        time.sleep(0.03)
        return self.bot.choose(view)


def _acknowledged(sockets: list[client.TableSocket]) -> dict[str, dict[int, Any]]:
    """Every move a client was told of: table -> ply -> action (a state at ply n tells that moves
    0..n-1 are played; its ``last`` is move n-1)."""
    seen: dict[str, dict[int, Any]] = {}
    for socket in sockets:
        for message in list(socket.received):
            if message.get("type") == "state" and message["last"] is not None:
                moves = seen.setdefault(message["table"], {})
                last = message["last"]
                assert moves.setdefault(last["ply"], last["action"]) == last["action"]  # no client saw two moves at a ply
                assert last["ply"] == message["ply"] - 1
    return seen


def _log(db: str) -> tuple[dict[str, list[Any]], dict[str, str]]:
    """Each table's moves and status, as stored."""

    async def read() -> tuple[dict[str, list[Any]], dict[str, str]]:
        store = open_store(db)
        found = await store.tables(("open", "playing", "finished"))
        await store.close()
        moves = {record.id: [json.loads(move.action) for move in moves] for record, moves in found}
        return moves, {record.id: record.status for record, _ in found}

    return asyncio.run(read())


def test_no_acknowledged_move_is_lost_to_sigkill(db: str, tmp_path: Path) -> None:
    server = ServerProcess(db, tmp_path / "server.log", log_level="info", bot_workers=2)
    server.start()
    try:
        people = RecordingClient(server.url)
        players, tables = [], []
        for i, (game, seats, rules) in enumerate(PEOPLE):
            table = people.create_table(game, seats, rules)
            tables.append(table["id"])
            for seat, kind in enumerate(seats):
                if kind == "human":
                    token = people.join(table["id"], seat, f"P{i}s{seat}")
                    players.append(SeatPlayer(people, token, Slow(game, 10 * i + seat)))
        bots = []
        for game, seats, rules in BOTS:
            bots.append(people.create_table(game, seats, rules)["id"])
            people.connect(bots[-1])  # a spectator, told of each move
        for player in players:
            player.start()
        started = time.monotonic()
        while len(sum((list(m) for m in _acknowledged(people.sockets).values()), [])) < 150:
            assert time.monotonic() - started < 60, "the games did not start"
            time.sleep(0.05)

        server.kill()  # mid-play: people's moves and bots' thoughts in flight
        seen = _acknowledged(people.sockets)
        acknowledged = sum(len(moves) for moves in seen.values())
        log, statuses = _log(db)
        found = sum(1 for table, moves in seen.items() for ply, action in moves.items()
                    if ply < len(log[table]) and log[table][ply] == action)  # fmt: skip
        in_flight = [table for table in tables + bots if statuses[table] == "playing"]
        print(f"\nSIGKILL with {len(in_flight)} of {len(tables) + len(bots)} tables in play: {acknowledged} moves "
              f"acknowledged before the kill, {found} of them found in the log after")  # fmt: skip
        assert found == acknowledged > 0
        assert len(in_flight) >= 3

        began = time.monotonic()
        server.start()
        print(f"serving again {time.monotonic() - began:.2f} s after starting")
        for table in bots:  # bots alone resume where the log is and finish
            final = list(people.spectate(table))[-1]
            assert final["view"]["history"][: len(log[table])] == log[table]
            assert positions(final)[1][-1].is_over and check_bots_decided(final) > 0
        for player in players:  # people's clients connected again by themselves and played to the end
            final = player.result(timeout=180)
            assert final["view"]["history"][: len(log[final["table"]])] == log[final["table"]]
            assert positions(final)[1][-1].is_over
            assert check_bots_decided(final) > 0  # random and greedy seats decided as seeded, across the kill
        after, statuses = _log(db)
        assert set(statuses.values()) == {"finished"}
        for table, moves in log.items():
            assert after[table][: len(moves)] == moves  # nothing stored was lost or rewritten
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()

