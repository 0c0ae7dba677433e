"""Hostile clients: every bad message is answered with an error, and the connection and the game
stay as they were; bad tokens and foreign origins are refused at the handshake; HTTP is bounded."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("fastapi")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from ordonnance import client  # noqa: E402
from ordonnance.server import tokens  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import check_schema  # noqa: E402


class Duel:
    """An Ordonnance table of two people, each connected, and a spectator; their first states."""

    def __init__(self, server: ServerProcess) -> None:
        self.client = client.Client(server.url, timeout=10)
        self.table = self.client.create_table("ordonnance", ["human", "human"])
        self.seats = [self.client.join(self.table["id"], seat, f"P{seat}") for seat in (0, 1)]
        self.sockets = [self.client.connect(seat.table, seat.token) for seat in self.seats]
        self.spectator = self.client.connect(self.table["id"])
        self.first = [socket.receive() for socket in self.sockets]
        self.first_public = self.spectator.receive()
        self.mover = self.first[0]["current_player"]

    def error(self, socket: client.TableSocket, code: str) -> dict[str, Any]:
        message = socket.receive()
        check_schema(message)
        assert message["type"] == "error" and message["code"] == code, message
        return message

    def unchanged(self) -> None:
        """Every connection is open and sees the game as it first did."""
        for socket, first in [*zip(self.sockets, self.first), (self.spectator, self.first_public)]:
            socket.sync()
            assert socket.receive() == first

    def close(self) -> None:
        for socket in [*self.sockets, self.spectator]:
            socket.close()


@pytest.fixture
def duel(server: ServerProcess) -> Any:
    table = Duel(server)
    yield table
    table.close()


BAD_JSON = ["{", b"\xff\xfe\x00\x01", '{"type": "sync", "type": "sync"}', "[" * 50 + "]" * 50, "NaN", ""]
BAD_MESSAGES = [
    "[]", '"move"', "3", '{"type": "dance"}', '{"type": "move", "ply": 0}', '{"type": "move", "ply": "0", "action": {}}',
    '{"type": "move", "ply": -1, "action": {}}', '{"type": "move", "ply": true, "action": {}}',
    '{"type": "move", "ply": 0, "action": {}, "extra": 1}', '{"type": "move", "ply": 0, "action": []}',
    '{"type": "sync", "token": "x"}',
]  # fmt: skip
BAD_ACTIONS = [{"type": "nope"}, {"type": "play", "card": "LBSHF"}, {"type": "play", "card": 3, "territory": "antioch"}, {}]


def test_bad_json_and_bad_messages_get_errors_and_change_nothing(duel: Duel) -> None:
    socket = duel.sockets[duel.mover]
    for text in BAD_JSON:
        socket.send(text)
        duel.error(socket, "bad_json")
    for text in BAD_MESSAGES:
        socket.send(text)
        duel.error(socket, "bad_message")
    for action in BAD_ACTIONS:
        socket.move(0, action)
        duel.error(socket, "bad_action")
    socket.send("x" * 5000)
    assert "4096" in duel.error(socket, "too_large")["message"]
    socket.send(json.dumps({"type": "move", "ply": 0, "action": {"type": "play", "card": "L" * 5000, "territory": "antioch"}}))
    duel.error(socket, "too_large")
    duel.unchanged()


def test_moves_out_of_turn_illegal_or_by_a_spectator_are_refused(duel: Duel) -> None:
    mover, other = duel.sockets[duel.mover], duel.sockets[1 - duel.mover]
    legal = duel.first[duel.mover]["legal_actions"][0]
    other.move(0, legal)
    duel.error(other, "not_your_turn")
    duel.spectator.move(0, legal)
    duel.error(duel.spectator, "spectator")
    unseen = next(card for card in duel.first[duel.mover]["view"]["unseen"] if card not in duel.first[duel.mover]["view"]["hand"])
    mover.move(0, {"type": "play", "card": unseen, "territory": "antioch"})  # a card not in its hand
    assert unseen in duel.error(mover, "illegal")["message"]
    mover.move(7, legal)
    duel.error(mover, "stale_ply")
    duel.unchanged()


def test_an_old_move_replayed_is_refused(duel: Duel) -> None:
    mover = duel.sockets[duel.mover]
    legal = duel.first[duel.mover]["legal_actions"][0]
    mover.move(0, legal)
    states = [socket.receive() for socket in [*duel.sockets, duel.spectator]]
    assert [state["ply"] for state in states] == [1, 1, 1] and states[0]["last"]["action"] == legal
    mover.move(0, legal)  # the same message again
    duel.error(mover, "stale_ply")
    mover.sync()
    assert mover.receive() == states[duel.mover]


def test_a_flood_is_rate_limited_and_the_connection_survives(duel: Duel) -> None:
    socket = duel.sockets[0]
    for _ in range(300):
        socket.sync()
    replies = []
    try:
        while True:
            replies.append(socket.receive(timeout=1.0))
    except TimeoutError:
        pass
    limited = [reply for reply in replies if reply["type"] == "error"]
    assert limited and all(reply["code"] == "rate_limited" for reply in limited)
    assert len(replies) - len(limited) < 100  # most syncs were dropped, not answered
    time.sleep(2.5)  # the bucket fills again
    duel.unchanged()


def test_a_frame_over_the_protocols_limit_closes_that_connection_only(duel: Duel) -> None:
    socket = duel.sockets[0]
    socket.send("x" * 100_000)
    with pytest.raises(ConnectionClosed):
        for _ in range(5):
            socket.receive()
    duel.sockets[0] = duel.client.connect(duel.seats[0].table, duel.seats[0].token)  # it may connect again
    duel.first[0] = duel.sockets[0].receive()
    duel.unchanged()


def _ws(server: ServerProcess, path: str, origin: str | None = None) -> Any:
    return connect(server.url.replace("http", "ws") + path, origin=origin, open_timeout=10).__enter__()  # type: ignore[arg-type]


def test_guessed_and_foreign_tokens_and_foreign_origins_are_refused(server: ServerProcess, duel: Duel) -> None:
    table = duel.table["id"]
    other = duel.client.create_table("black-prince", ["human", "random"])
    theirs = duel.client.join(other["id"], 0, "Eve")
    for path in [f"/ws/tables/{table}?token={tokens.new_token()}", f"/ws/tables/{table}?token={theirs.token}",
                 f"/ws/tables/{table}?token=", "/ws/tables/nosuchtable", f"/ws/tables/{'x' * 5000}"]:  # fmt: skip
        with pytest.raises(InvalidStatus) as refused:
            _ws(server, path)
        assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):
        _ws(server, f"/ws/tables/{table}", origin="http://evil.example")
    same = _ws(server, f"/ws/tables/{table}", origin=server.url)
    assert json.loads(same.recv(timeout=10)) == duel.first_public
    same.close()
    duel.unchanged()


def _http(server: ServerProcess, method: str, path: str, body: bytes | None = None) -> tuple[int, dict[str, str], Any]:
    request = urllib.request.Request(server.url + path, data=body, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, dict(reply.headers), json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


def test_http_requests_are_bounded_and_answered_with_security_headers(server: ServerProcess) -> None:
    status, headers, games = _http(server, "GET", "/api/games")
    assert status == 200 and len(games) == 3
    lowered = {key.lower(): value for key, value in headers.items()}
    assert "frame-ancestors 'none'" in lowered["content-security-policy"]
    assert lowered["x-content-type-options"] == "nosniff" and lowered["referrer-policy"] == "no-referrer"
    big = json.dumps({"game": "ordonnance", "seats": [{"kind": "human"}] * 2, "rules": {"x": "y" * 20_000}}).encode()
    assert _http(server, "POST", "/api/tables", big)[0] == 413
    bad = [
        {"game": "chess", "seats": [{"kind": "human"}]},
        {"game": "ordonnance", "seats": [{"kind": "human"}] * 3},
        {"game": "ordonnance", "seats": [{"kind": "human"}] * 2, "rules": {"players": 7}},
        {"game": "ordonnance", "seats": [{"kind": "human"}, {"kind": "random", "time_limit": 1}]},
        {"game": "ordonnance", "seats": [{"kind": "human"}, {"kind": "random", "name": "<script>"}]},
        {"game": "ordonnance", "seats": [{"kind": "human"}, {"kind": "montecarlo", "time_limit": 1e9}]},
        {"game": "ordonnance", "seats": [{"kind": "robot"}, {"kind": "human"}]},
    ]
    for body in bad:
        status, _, reply = _http(server, "POST", "/api/tables", json.dumps(body).encode())
        assert status in (400, 422), (body, reply)
    status, _, table = _http(server, "POST", "/api/tables", json.dumps({"game": "ordonnance", "seats": [{"kind": "human"}] * 2}).encode())
    assert status == 201
    join = f"/api/tables/{table['id']}/seats/0"
    for name in ["<img src=x onerror=alert(1)>", "a\x00b", "", "x" * 33, 'say "hi"']:
        assert _http(server, "POST", join, json.dumps({"name": name}).encode())[0] in (400, 422), name
    assert _http(server, "POST", join, json.dumps({"name": "Ada"}).encode())[0] == 200
    assert _http(server, "POST", join, json.dumps({"name": "Eve"}).encode())[0] == 409  # taken
    assert _http(server, "GET", "/api/tables/nosuchtable")[0] == 404
    status, _, openapi = _http(server, "GET", "/openapi.json")
    assert status == 200
    assert {"/api/games", "/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/seats/{seat}"} <= set(openapi["paths"])
