"""Several server processes on one store: a move stored through one reaches the players of another
at once (PostgreSQL's LISTEN/NOTIFY), and a move refused by the log's (table, ply) key never forks
the game: the refused process reads the log and its client is sent an error and the current state."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from ordonnance import client  # noqa: E402
from ordonnance.core import registry  # noqa: E402
from ordonnance.server.messages import TableRequest  # noqa: E402
from ordonnance.server.store import MoveRecord, open_store  # noqa: E402
from ordonnance.server.tables import Connection, Refusal, Tables  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import check_bots_decided, positions, stored_moves  # noqa: E402


def test_a_move_the_log_refuses_leaves_one_game(db: str) -> None:
    """Two servers' tables over one store: the one with a stale copy moves at a ply the other stored
    first. The log refuses it; that copy reads the log, its connections get the stored game."""

    async def run() -> None:
        here, there = Tables(open_store(db)), Tables(open_store(db))
        request = TableRequest.model_validate({"game": "black-prince", "seats": [{"kind": "human"}, {"kind": "human"}]})
        table = await here.create(request)
        await here.join(table, 0, "Ada")
        await here.join(table, 1, "Bob")
        stale = await there.find(table.id)  # read before the move below: a stale copy
        assert stale is not None and stale is not table and stale.status == "playing"
        sent: list[dict[str, Any]] = []

        async def receive(text: str) -> None:
            sent.append(json.loads(text))

        watcher = Connection(None, receive)
        pump = asyncio.get_running_loop().create_task(watcher.pump())
        there.attach(stale, watcher)
        seat = table.game.current_player
        legal = json.loads(table.game.view(seat).to_json())["legal_actions"]
        assert len(legal) >= 2
        await here.move(table, seat, 0, legal[0])
        with pytest.raises(Refusal, match="another move was stored at ply 0 first") as refused:
            await there.move(stale, seat, 0, legal[-1])
        assert refused.value.code == "stale_ply"
        assert stale.plies == 1 and stale.game == table.game and stale.last == table.last
        await asyncio.sleep(0.05)
        assert [message["ply"] for message in sent] == [0, 1] and sent[1]["last"]["action"] == legal[0]
        found = await here.store.table(table.id)
        assert found is not None and [(m.ply, json.loads(m.action)) for m in found[1]] == [(0, legal[0])]
        watcher.stop()
        await pump
        await here.store.close()
        await there.store.close()

    asyncio.run(run())


def test_a_log_a_table_cannot_follow_leaves_it_where_it_was(db: str, caplog: pytest.LogCaptureFixture) -> None:
    """A move in the log that is not the game's (written by hand, say) is logged; the table in memory
    stays at its last good move, and a table that cannot be rebuilt is not taken into memory."""

    async def run() -> None:
        here, there = Tables(open_store(db)), Tables(open_store(db))
        request = TableRequest.model_validate({"game": "ordonnance", "seats": [{"kind": "human"}, {"kind": "human"}]})
        table = await here.create(request)
        await here.join(table, 0, "Ada")
        await here.join(table, 1, "Bob")
        seat = table.game.current_player
        await here.store.append(table.id, MoveRecord(0, seat, '{"not": "an action"}'), "playing")
        before = table.game.clone()
        await here.refresh(table.id)
        assert table.plies == 0 and table.game == before and table.status == "playing"
        await there.refresh(table.id)
        assert len(there) == 0
        await here.store.close()
        await there.store.close()

    asyncio.run(run())
    assert sum("table" in record.getMessage() for record in caplog.records if record.levelname == "ERROR") >= 2


def _pair(postgres_db: str, tmp_path: Path) -> tuple[ServerProcess, ServerProcess]:
    first = ServerProcess(postgres_db, tmp_path / "first.log", log_level="info")
    second = ServerProcess(postgres_db, tmp_path / "second.log", log_level="info")
    first.start()
    try:
        second.start()
    except BaseException:
        first.stop()
        raise
    return first, second


def _state(socket: client.TableSocket) -> dict[str, Any]:
    message = socket.receive(timeout=10)
    assert message["type"] == "state", message
    return message


def test_two_processes_share_a_table(postgres_db: str, tmp_path: Path) -> None:
    """A person through each process and a bot: each person sees the other's moves at once."""
    first, second = _pair(postgres_db, tmp_path)
    try:
        one, two = client.Client(first.url), client.Client(second.url)
        table = one.create_table("shinobi", ["human", "human", "greedy"], {"players": 3})
        deadline = time.monotonic() + 2
        while not any(t["id"] == table["id"] for t in two.lobby()) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any(t["id"] == table["id"] for t in two.lobby())  # the other process's lobby lists it
        seats = {0: one.join(table["id"], 0, "Ada"), 1: two.join(table["id"], 1, "Bob")}
        module = registry.package("shinobi")
        bots = {seat: module.bots.Random(seed=seat) for seat in seats}
        sockets = {0: one.connect(table["id"], seats[0].token), 1: two.connect(table["id"], seats[1].token)}
        states = {seat: _state(socket) for seat, socket in sockets.items()}
        delays = []
        while True:
            ply = max(state["ply"] for state in states.values())
            for seat, socket in sockets.items():
                while states[seat]["ply"] < ply:
                    states[seat] = _state(socket)
            if states[0]["status"] == "finished":
                break
            actor = states[0]["current_player"]
            if actor in sockets:
                view = module.PlayerView.from_json(json.dumps(states[actor]["view"]))
                sent = time.monotonic()
                sockets[actor].move(ply, json.loads(module.action_to_json(bots[actor].choose(view))))
                states[1 - actor] = _state(sockets[1 - actor])  # through the other process
                delays.append(time.monotonic() - sent)
                assert states[1 - actor]["ply"] > ply
            else:
                states[0] = _state(sockets[0])
        for socket in sockets.values():
            socket.close()
        assert states[0]["view"] == states[1]["view"] and states[0]["ply"] == states[1]["ply"]
        assert positions(states[0])[1][-1].is_over
        assert check_bots_decided(states[0], ("greedy",)) > 0  # the bot decided each move once, as seeded
        assert len(delays) >= 5 and max(delays) < 2.0, delays
        print(f"a person's move to the other process's player: median {statistics.median(delays) * 1e3:.1f} ms, "
              f"max {max(delays) * 1e3:.1f} ms over {len(delays)} moves")  # fmt: skip
    finally:
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.log.read_text()


def test_the_same_ply_through_two_processes_is_stored_once(postgres_db: str, tmp_path: Path) -> None:
    """Each seat connected to both processes sends a different move for the same ply through each:
    one is stored, the other refused, and every connection ends on the same state."""
    first, second = _pair(postgres_db, tmp_path)
    rounds = 8
    try:
        one, two = client.Client(first.url), client.Client(second.url)
        table = one.create_table("black-prince", ["human", "human"])
        tokens = [one.join(table["id"], seat, name).token for seat, name in enumerate(("Ada", "Bob"))]
        sockets = {(seat, i): server.connect(table["id"], tokens[seat])
                   for seat in (0, 1) for i, server in enumerate((one, two))}  # fmt: skip
        states = {key: _state(socket) for key, socket in sockets.items()}
        refusals = 0
        for ply in range(rounds):
            actor = states[(0, 0)]["current_player"]
            legal = states[(actor, 0)]["legal_actions"]
            order = (0, 1) if ply % 2 == 0 else (1, 0)
            for i in order:
                sockets[(actor, i)].move(ply, legal[0] if i == 0 else legal[-1])
            errors = []
            for key, socket in sockets.items():
                while states[key]["ply"] <= ply:
                    message = socket.receive(timeout=10)
                    if message["type"] == "error":
                        errors.append(message)
                    else:
                        states[key] = message
            deadline = time.monotonic() + 5
            while not errors and time.monotonic() < deadline:
                for i in (0, 1):
                    try:
                        message = sockets[(actor, i)].receive(timeout=0.1)
                    except TimeoutError:
                        continue
                    assert message["type"] == "error", message
                    errors.append(message)
            assert [error["code"] for error in errors] == ["stale_ply"], errors
            refusals += 1
            assert {states[key]["ply"] for key in states} == {ply + 1}
            for seat in (0, 1):
                assert states[(seat, 0)]["view"] == states[(seat, 1)]["view"]
            assert len({json.dumps(state["last"]) for state in states.values()}) == 1
        for socket in sockets.values():
            socket.close()

        moves = stored_moves(postgres_db, table["id"])
        assert [move.ply for move in moves] == list(range(rounds)) and refusals == rounds
        assert json.loads(moves[-1].action) == states[(0, 0)]["last"]["action"]
        assert one.table(table["id"])["ply"] == two.table(table["id"])["ply"] == rounds
    finally:
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.log.read_text()
