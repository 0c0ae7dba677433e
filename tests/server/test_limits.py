"""What one client address may do: WebSockets open at once (refused before they are accepted,
counted until they end, however they end) and HTTP requests a second (429 with ``Retry-After``),
both set by ``ordonnance serve``'s flags; the pure parts (buckets, counts, the middleware) alone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from ordonnance import client  # noqa: E402
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError  # noqa: E402
from ordonnance.server.app import Guard, create_app  # noqa: E402
from ordonnance.server.limits import (  # noqa: E402
    CONNECTIONS_PER_ADDRESS, AddressBuckets, ConnectionCounts, TokenBucket,
)  # fmt: skip
from ordonnance.server import tokens  # noqa: E402

from tests.server.conftest import ServerProcess, running_server  # noqa: E402


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------------------ the pure parts


def test_a_bucket_tells_how_long_until_its_next_token_and_when_it_is_full() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=4.0, burst=2, now=clock)
    assert bucket.full() and bucket.wait() == 0.0
    assert bucket.take() and bucket.take() and not bucket.take()
    assert bucket.wait() == pytest.approx(0.25) and not bucket.full()
    clock.now += 0.25
    assert bucket.wait() == 0.0 and not bucket.full()
    clock.now += 0.25
    assert bucket.full()


def test_each_address_has_its_own_bucket_and_a_refusal_says_how_long_to_wait() -> None:
    clock = Clock()
    requests = AddressBuckets(rate=2.0, burst=3, now=clock)
    assert [requests.take("192.0.2.1") for _ in range(3)] == [0.0] * 3
    assert requests.take("192.0.2.1") == pytest.approx(0.5)
    assert requests.take("192.0.2.2") == 0.0  # another address is not held back
    clock.now += 0.5
    assert requests.take("192.0.2.1") == 0.0
    assert requests.take("192.0.2.1") == pytest.approx(0.5)


def test_full_buckets_are_dropped_and_a_flood_of_addresses_stays_bounded() -> None:
    clock = Clock()
    requests = AddressBuckets(rate=10.0, burst=5, most=1000, now=clock)
    for i in range(20_000):  # all within the same instant: none of their buckets is full again
        assert requests.take(f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}") == 0.0
        assert len(requests) <= 1000
    assert len(requests) == 1000
    clock.now += 0.5  # burst / rate: every bucket is full again, as a new one would be
    requests.take("192.0.2.9")
    assert len(requests) == 1
    for _ in range(4):
        requests.take("192.0.2.9")
    assert requests.take("192.0.2.9") > 0.0  # five taken: empty
    clock.now += 0.15  # 1.5 tokens again, not full: kept
    assert requests.take("192.0.2.9") == 0.0 and len(requests) == 1
    assert requests.take("192.0.2.9") > 0.0


def test_a_rate_of_zero_lets_everything_through_and_remembers_nothing() -> None:
    requests = AddressBuckets(rate=0.0, burst=1)
    assert all(requests.take("192.0.2.1") == 0.0 for _ in range(1000)) and len(requests) == 0


def test_connection_counts_refuse_past_the_limit_and_forget_an_address_with_none() -> None:
    counts = ConnectionCounts(most=2)
    assert counts.enter("a") and counts.enter("a") and not counts.enter("a")
    assert counts.enter("b") and counts.total == 3 and len(counts) == 2
    counts.leave("a")
    assert counts.enter("a") and not counts.enter("a")
    for address in ("a", "a", "b"):
        counts.leave(address)
    assert counts.total == 0 and len(counts) == 0
    unlimited = ConnectionCounts(most=0)
    assert all(unlimited.enter("a") for _ in range(1000)) and unlimited.total == 1000


@pytest.mark.parametrize(
    ("options", "error", "shown"),
    [
        ({"connections_per_address": -1}, InvalidArgumentError, "-1"),
        ({"connections_per_address": 2.5}, OrdonnanceTypeError, "2.5"),
        ({"requests_per_second": -0.5}, InvalidArgumentError, "-0.5"),
        ({"requests_per_second": float("nan")}, InvalidArgumentError, "nan"),
        ({"requests_per_second": "50"}, OrdonnanceTypeError, "'50'"),
        ({"request_burst": 0}, InvalidArgumentError, "0"),
        ({"request_burst": True}, OrdonnanceTypeError, "True"),
    ],
)
def test_create_app_refuses_bad_limits_showing_them(options: dict[str, Any], error: type[Exception], shown: str) -> None:
    with pytest.raises(error, match=f"{next(iter(options))} must .*got {shown}"):
        create_app(object(), **options)  # type: ignore[arg-type]  # refused before the store is used


def test_the_serve_flags_reach_the_server_and_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from ordonnance.cli import main
    from ordonnance.server import cli

    given: list[dict[str, Any]] = []
    monkeypatch.setattr(cli, "serve", lambda *args, **options: given.append(options))
    assert main(["serve"]) == 0
    assert main(["serve", "--connections-per-address", "0", "--requests-per-second", "0.5", "--request-burst", "3"]) == 0
    assert [{key: options[key] for key in ("connections_per_address", "requests_per_second", "request_burst")}
            for options in given] == [{"connections_per_address": 64, "requests_per_second": 50.0, "request_burst": 200},
                                      {"connections_per_address": 0, "requests_per_second": 0.5, "request_burst": 3}]  # fmt: skip
    for flag, value in [("--connections-per-address", "-1"), ("--connections-per-address", "2.5"),
                        ("--requests-per-second", "-1"), ("--requests-per-second", "nan"), ("--request-burst", "0")]:  # fmt: skip
        with pytest.raises(SystemExit) as exit_:
            main(["serve", flag, value])
        assert exit_.value.code == 2
        assert f"argument {flag}:" in capsys.readouterr().err
    assert len(given) == 2


def _websocket_scope(host: str, denial: bool = True) -> dict[str, Any]:
    return {"type": "websocket", "path": "/ws/tables/x", "client": (host, 50000), "headers": [],
            "extensions": {"websocket.http.response": {}} if denial else {}}  # fmt: skip


def _drive(guard: Guard, scope: dict[str, Any]) -> list[dict[str, Any]]:
    """Run ``guard`` on one connection; what it sent."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    async def run() -> None:
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await guard(scope, receive, send)

    asyncio.run(run())
    return sent


def test_the_middleware_counts_every_connection_until_it_ends_however_it_ends() -> None:
    endings: list[str] = []
    open_inside: list[int] = []
    counts = ConnectionCounts(most=1)

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        open_inside.append(counts.total)
        ending = endings.pop(0)
        if ending == "error":
            raise RuntimeError("the handler failed")
        if ending == "cancelled":
            raise asyncio.CancelledError
        await send({"type": "websocket.close", "code": 1000})

    guard = Guard(inner, connections=counts)  # type: ignore[arg-type]
    for ending in ["returned", "error", "cancelled"] * 20:
        endings.append(ending)
        _drive(guard, _websocket_scope("192.0.2.1"))
        assert counts.total == 0 and len(counts) == 0
    assert open_inside == [1] * 60


def test_the_middleware_refuses_a_connection_over_the_limit_before_the_handler() -> None:
    counts = ConnectionCounts(most=2)
    counts.enter("192.0.2.1")
    counts.enter("192.0.2.1")
    called: list[Any] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        called.append(scope)

    guard = Guard(inner, connections=counts)  # type: ignore[arg-type]
    sent = _drive(guard, _websocket_scope("192.0.2.1"))
    assert [message["type"] for message in sent] == ["websocket.http.response.start", "websocket.http.response.body"]
    assert sent[0]["status"] == 429
    assert "at most 2 WebSockets" in json.loads(sent[1]["body"])["detail"]
    sent = _drive(guard, _websocket_scope("192.0.2.1", denial=False))  # a server without HTTP refusals
    assert sent == [{"type": "websocket.close", "code": 1013, "reason": sent[0]["reason"]}]
    assert "at most 2 WebSockets" in sent[0]["reason"]
    assert not called and counts.total == 2
    _drive(guard, _websocket_scope("192.0.2.2"))  # another address
    assert len(called) == 1 and counts.total == 2


def test_the_middleware_charges_a_handshake_to_the_address_s_requests() -> None:
    called: list[Any] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        called.append(scope)

    requests = AddressBuckets(rate=1.0, burst=1, now=lambda: 0.0)  # the clock stands still: one token only
    guard = Guard(inner, requests=requests)  # type: ignore[arg-type]
    assert _drive(guard, _websocket_scope("192.0.2.1")) == [] and len(called) == 1
    sent = _drive(guard, _websocket_scope("192.0.2.1"))
    assert sent[0]["status"] == 429 and (b"retry-after", b"1") in sent[0]["headers"]
    assert "at most 1 a second" in json.loads(sent[1]["body"])["detail"]
    sent = _drive(guard, _websocket_scope("192.0.2.1", denial=False))
    assert sent[0]["code"] == 1013 and "too many requests" in sent[0]["reason"]
    assert len(called) == 1 and guard.connections.total == 0  # refused before it was counted
    _drive(guard, _websocket_scope("192.0.2.2"))  # another address
    assert len(called) == 2


# ------------------------------------------------------------------------------ a real server


LIMITED = ("--connections-per-address", "3", "--requests-per-second", "0")
RATED = ("--connections-per-address", "0", "--requests-per-second", "4", "--request-burst", "8")
UNLIMITED = ("--connections-per-address", "0", "--requests-per-second", "0")


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("limited"), LIMITED) as process:
        yield process


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("rated"), RATED) as process:
        yield process


@pytest.fixture(scope="module")
def unlimited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("unlimited"), UNLIMITED) as process:
        yield process


def _get(server: ServerProcess, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as reply:
            return reply.status, {k.lower(): v for k, v in reply.headers.items()}, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def _ws(server: ServerProcess, path: str) -> ClientConnection:
    return connect(server.url.replace("http", "ws") + path, open_timeout=10).__enter__()


def _refused(server: ServerProcess, path: str) -> tuple[int, str]:
    with pytest.raises(InvalidStatus) as refused:
        _ws(server, path)
    response = refused.value.response
    return response.status_code, response.body.decode() if response.body else ""


def _dropped(server: ServerProcess, path: str) -> None:
    """Open a WebSocket by hand and drop its TCP connection without a closing handshake."""
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    raw.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())  # fmt: skip
    assert raw.recv(4096).startswith(b"HTTP/1.1 101")
    raw.close()


def _wait_for_tokens(seconds: float = 2.5) -> None:
    time.sleep(seconds)  # the HTTP bucket (4 a second, bursts of 8) is full again


def test_websockets_over_an_address_limit_are_refused_and_every_ending_gives_its_place_back(limited: ServerProcess) -> None:
    server = client.Client(limited.url, timeout=10)
    table = server.create_table("ordonnance", ["human", "human"])
    seat = server.join(table["id"], 0, "Ada")
    spectate, play = f"/ws/tables/{table['id']}", f"/ws/tables/{table['id']}?token={seat.token}"
    held = [_ws(limited, spectate) for _ in range(3)]
    status, body = _refused(limited, play)
    assert status == 429 and "at most 3 WebSockets at once" in json.loads(body)["detail"]
    held.pop().close()
    held.append(_ws(limited, play))  # a place given back is taken again
    for socket_ in held:
        socket_.close()
    for _ in range(10):  # every way a connection ends; a place leaked would refuse a later connection
        with _ws(limited, play) as seated:  # a clean close
            assert json.loads(seated.recv(timeout=10))["type"] == "state"
        _dropped(limited, spectate)  # the TCP connection dropped
        assert _refused(limited, f"/ws/tables/{table['id']}?token={tokens.new_token()}")[0] == 403  # refused after counting
        with _ws(limited, spectate) as flooded:  # a frame over the protocol's limit: the server closes it
            flooded.send("x" * 100_000)
            with pytest.raises(ConnectionClosed):
                while True:
                    flooded.recv(timeout=10)
    deadline = time.monotonic() + 10
    while True:  # the server learns of the dropped connections as it reads them
        held = []
        try:
            for _ in range(3):
                held.append(_ws(limited, spectate))
            break
        except InvalidStatus:
            for socket_ in held:
                socket_.close()
            assert time.monotonic() < deadline, "a connection's place was never given back"
            time.sleep(0.2)
    assert _refused(limited, spectate)[0] == 429  # the limit still holds
    for socket_ in held:
        socket_.close()


def test_http_requests_over_an_address_rate_get_429_with_retry_after(rated: ServerProcess) -> None:
    _wait_for_tokens()
    answers = [_get(rated, "/api/health") for _ in range(8)]
    assert all(status == 200 for status, _, _ in answers)
    for path in ("/api/health", "/api/tables", "/", "/openapi.json"):
        status, headers, body = _get(rated, path)
        assert status == 429, path
        assert int(headers["retry-after"]) >= 1 and headers["x-content-type-options"] == "nosniff"
        assert "at most 4 a second from one address (bursts of 8)" in json.loads(body)["detail"]
    time.sleep(int(headers["retry-after"]))
    assert _get(rated, "/api/health")[0] == 200  # the bucket refilled


def test_websocket_handshakes_count_as_requests(rated: ServerProcess) -> None:
    """A client reconnecting in a loop is held to the address's rate like any other request."""
    _wait_for_tokens()
    table = client.Client(rated.url, timeout=10).create_table("ordonnance", ["human", "human"])
    for _ in range(7):  # the burst of 8, less the table's creation
        with _ws(rated, f"/ws/tables/{table['id']}") as socket_:
            assert json.loads(socket_.recv(timeout=10))["type"] == "state"
    with pytest.raises(InvalidStatus) as refused:
        _ws(rated, f"/ws/tables/{table['id']}")
    response = refused.value.response
    assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
    assert "at most 4 a second from one address" in json.loads(response.body or b"{}")["detail"]
    assert _get(rated, "/api/health")[0] == 429  # the same bucket as the address's other requests
    _wait_for_tokens()
    with _ws(rated, f"/ws/tables/{table['id']}") as socket_:
        assert json.loads(socket_.recv(timeout=10))["type"] == "state"


def test_zero_lifts_both_limits(unlimited: ServerProcess) -> None:
    assert all(_get(unlimited, "/api/health")[0] == 200 for _ in range(300))
    table = client.Client(unlimited.url, timeout=10).create_table("ordonnance", ["human", "human"])
    held = [_ws(unlimited, f"/ws/tables/{table['id']}") for _ in range(CONNECTIONS_PER_ADDRESS + 6)]
    assert all(json.loads(socket_.recv(timeout=10))["type"] == "state" for socket_ in held)
    for socket_ in held:
        socket_.close()


def test_the_default_limits_hold_64_websockets_of_an_address(server: ServerProcess) -> None:
    table = client.Client(server.url, timeout=10).create_table("ordonnance", ["human", "human"])
    held = [_ws(server, f"/ws/tables/{table['id']}") for _ in range(CONNECTIONS_PER_ADDRESS)]
    assert _refused(server, f"/ws/tables/{table['id']}")[0] == 429
    for socket_ in held:
        socket_.close()
    assert all(_get(server, "/api/health")[0] == 200 for _ in range(100))  # with the 65 handshakes, within a burst of 200
