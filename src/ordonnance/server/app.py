"""The ASGI application: the HTTP API under ``/api``, a WebSocket per table at ``/ws/tables/{id}``.

FastAPI (on Starlette) documents every HTTP endpoint in ``/openapi.json`` from the same
pydantic models that validate the bodies; uvicorn serves it, with the ``websockets`` package
for WebSockets. The interactive ``/docs`` pages are off: they load scripts from a CDN, which
the content security policy forbids.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, MutableMapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import pydantic
from fastapi import FastAPI, HTTPException, Path, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from ordonnance.core import jsonio, registry
from ordonnance.errors import InvalidArgumentError
from ordonnance.core.checks import integer, real
from ordonnance.server.garbage import collection_schedule
from ordonnance.server.limits import (
    CONNECTIONS_PER_ADDRESS, MAX_BODY_BYTES, MAX_MESSAGE_BYTES, MAX_MESSAGE_DEPTH, REQUEST_BURST, REQUEST_RATE,
    AddressBuckets, ConnectionCounts, TokenBucket,
)  # fmt: skip
from ordonnance.server.messages import (
    CLIENT_MESSAGE, GameReply, JoinReply, JoinRequest, Move, TableReply, TableRequest,
)  # fmt: skip
from ordonnance.server.pages import add_pages
from ordonnance.server import review
from ordonnance.server.store import Store
from ordonnance.server.tables import Connection, Refusal, Table, Tables
from ordonnance.server.thinking import BOT_KINDS

__all__ = ["create_app", "SECURITY_HEADERS"]

log = logging.getLogger("ordonnance.server")

#: Headers of every HTTP response: no framing, no sniffing, no referrer, scripts and styles
#: from the server only.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cache-control": "no-store",
}
_HTTP_STATUS = {"bad_request": 400, "not_found": 404, "taken": 409}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]


class Guard:
    """ASGI middleware, in front of every endpoint: an address's HTTP requests (WebSocket
    handshakes included) over its rate refused (429 with ``Retry-After``), request bodies over
    :data:`~ordonnance.server.limits.MAX_BODY_BYTES` refused (413) before they are read, security
    headers on every HTTP response; an address's WebSockets over its limit refused before they are
    accepted (HTTP 429, or close code 1013 on a server that cannot send an HTTP refusal), each
    other one counted until it ends, however it ends. The address is the ASGI scope's client host
    (behind a trusted proxy, see ``FORWARDED_ALLOW_IPS``, uvicorn sets it from ``X-Forwarded-For``)."""

    def __init__(self, app: ASGI, *, requests: AddressBuckets | None = None, connections: ConnectionCounts | None = None) -> None:
        self.app = app
        self.requests = AddressBuckets() if requests is None else requests
        self.connections = ConnectionCounts() if connections is None else connections

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wait = self.requests.take(_address(scope))
        if wait:
            await _refuse(send, "http.response", 429, self._too_many_requests(), _retry_after(wait))
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES:
            await _refuse(send, "http.response", 413, f"a request body is at most {MAX_BODY_BYTES} bytes")
            return
        read = 0

        async def bounded() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > MAX_BODY_BYTES:  # a body longer than its Content-Length said: read no more
                return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_HEADERS]
            await send(message)

        await self.app(scope, bounded, guarded)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = _address(scope)
        wait = self.requests.take(address)  # a WebSocket's handshake is an HTTP request too
        if wait:
            await _refuse_websocket(scope, receive, send, self._too_many_requests(), _retry_after(wait))
            return
        if not self.connections.enter(address):
            reason = f"too many connections: at most {self.connections.most} WebSockets at once from one address"
            await _refuse_websocket(scope, receive, send, reason)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.connections.leave(address)

    def _too_many_requests(self) -> str:
        return f"too many requests: at most {self.requests.rate:g} a second from one address (bursts of {self.requests.burst})"


async def _refuse_websocket(scope: Scope, receive: Receive, send: Send, reason: str,
                            headers: Sequence[tuple[bytes, bytes]] = ()) -> None:  # fmt: skip
    """Refuse a WebSocket before it is accepted: HTTP 429 with the API's error body, or close code
    1013 (try again later) on a server that cannot send an HTTP refusal."""
    await receive()  # the client's websocket.connect
    if "websocket.http.response" in (scope.get("extensions") or {}):
        await _refuse(send, "websocket.http.response", 429, reason, headers)
    else:
        await send({"type": "websocket.close", "code": 1013, "reason": reason})


def _retry_after(wait: float) -> list[tuple[bytes, bytes]]:
    """The ``Retry-After`` header of a refusal: ``wait`` seconds, rounded up to whole ones."""
    return [(b"retry-after", str(math.ceil(wait)).encode())]


def _address(scope: Scope) -> str:
    """The client's host, as the server saw it ("" when the server does not tell)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


async def _refuse(send: Send, kind: str, status: int, detail: str, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """Answer ``status`` with the API's error body, ``{"detail": ...}``: ``kind`` is
    ``http.response`` or, refusing a WebSocket's handshake, ``websocket.http.response``."""
    await send({"type": f"{kind}.start", "status": status,
                "headers": [(b"content-type", b"application/json"), *headers, *_HEADERS]})  # fmt: skip
    await send({"type": f"{kind}.body", "body": jsonio.dumps({"detail": detail}).encode()})


_HEADERS = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]


_TOKEN = re.compile(r"token=[^\s&\"']*")


def _hide_tokens(record: logging.LogRecord) -> bool:
    """A logging filter that writes ``token=<hidden>`` for every token in a record: tokens must
    not reach the logs."""
    text = record.getMessage()
    if "token=" in text:
        record.msg, record.args = _TOKEN.sub("token=<hidden>", text), None
    return True


def _origin_allowed(websocket: WebSocket, allowed: Sequence[str]) -> bool:
    """A browser's WebSocket must come from the server's own origin or an allowed one; a client
    that sends no Origin (not a browser) is let through: its token is what authorizes it."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    host = websocket.headers.get("host")
    parts = urlsplit(origin)
    return host is not None and parts.scheme in ("http", "https") and parts.netloc == host


def create_app(store: Store, *, bot_workers: int = 2, allow_origins: Sequence[str] = (),
               connections_per_address: int = CONNECTIONS_PER_ADDRESS, requests_per_second: float = REQUEST_RATE,
               request_burst: int = REQUEST_BURST) -> FastAPI:  # fmt: skip
    """The play server's application over ``store``: bots think in ``bot_workers`` processes;
    browsers' WebSockets are accepted from the server's origin and ``allow_origins``
    (``"https://example.org"``).

    Each client address may hold ``connections_per_address`` WebSockets open at once and make
    ``requests_per_second`` HTTP requests a second on average, ``request_burst`` at once (more are
    refused with HTTP 429); 0 lifts either limit. A wrong value raises
    :class:`~ordonnance.errors.InvalidArgumentError` (or
    :class:`~ordonnance.errors.OrdonnanceTypeError`) showing it."""
    connections = ConnectionCounts(integer(connections_per_address, "connections_per_address", low=0, high=10**9))
    requests = AddressBuckets(real(requests_per_second, "requests_per_second", low=0.0, high=1e9),
                              integer(request_burst, "request_burst", low=1, high=10**9))  # fmt: skip
    tables = Tables(store, bot_workers)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        logging.getLogger("uvicorn.error").addFilter(_hide_tokens)  # it logs each WebSocket's URL
        await tables.start()
        try:
            async with collection_schedule():
                yield
        finally:
            await tables.stop()

    app = FastAPI(
        title="Ordonnance play server", version="1",
        description="Tables of Ordonnance, Shinobi and Black Prince for people and bots. Each table's play goes "
        "over its WebSocket, /ws/tables/{id}?token=... (messages: docs/schemas/ordonnance.server.*.json).",
        lifespan=lifespan, docs_url=None, redoc_url=None,
    )  # fmt: skip
    app.state.tables = tables
    app.state.reviews = review.add_routes(app, tables)
    app.state.connections, app.state.requests = connections, requests
    app.add_middleware(Guard, requests=requests, connections=connections)
    add_pages(app, tables)

    async def table_or_404(table_id: str) -> Table:
        table = await tables.find(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r:.40}")
        return table

    def refused(refusal: Refusal) -> HTTPException:
        return HTTPException(_HTTP_STATUS.get(refusal.code, 400), refusal.message)

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        """Whether the server is up (its tables rebuilt)."""
        return {"ok": True}

    @app.get("/api/games")
    async def games() -> list[GameReply]:
        """The games the server offers, their default rules and the bots that may take a seat."""
        replies = []
        for info in registry.GAMES:
            module = registry.package(info.name)
            replies.append(GameReply(name=info.name, title=info.title, min_players=info.min_players,
                                     max_players=info.max_players, rules=module.Rules().to_dict(), bots=list(BOT_KINDS)))  # fmt: skip
        return replies

    @app.get("/api/tables")
    async def lobby() -> list[TableReply]:
        """The lobby: tables with free seats and tables being played, the newest first."""
        return [TableReply(**table.info()) for table in tables.lobby()]

    @app.post("/api/tables", status_code=201)
    async def create_table(request: TableRequest) -> TableReply:
        """Create a table: a game, its rules (default: the game's), a person or a bot in each seat.
        People take their seats with a join; bots start when every seat is taken."""
        try:
            table = await tables.create(request)
        except Refusal as refusal:
            raise refused(refusal) from None
        return TableReply(**table.info())

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str = Path(max_length=32)) -> TableReply:
        """One table."""
        return TableReply(**(await table_or_404(table_id)).info())

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def join(request: JoinRequest, table_id: str = Path(max_length=32), seat: int = Path(ge=0, le=16)) -> JoinReply:
        """Take a free person's seat: its token, the capability to play it (shown once)."""
        table = await table_or_404(table_id)
        try:
            token = await tables.join(table, seat, request.name)
        except Refusal as refusal:
            raise refused(refusal) from None
        return JoinReply(table=table.id, seat=seat, token=token, websocket=f"/ws/tables/{table.id}?token={token}")

    @app.exception_handler(InvalidArgumentError)
    async def invalid(_request: Any, error: InvalidArgumentError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=400)

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        """A table's live connection: the seat's state now and after every move; moves in."""
        if not _origin_allowed(websocket, allow_origins):
            await websocket.close(code=1008, reason="origin not allowed")
            return
        table = await tables.find(table_id) if len(table_id) <= 32 else None
        token = websocket.query_params.get("token")
        seat = None if table is None or token is None else await tables.seat_of(table, token)
        if table is None or (token is not None and seat is None):
            await websocket.close(code=1008, reason="no such table or seat")
            return
        await websocket.accept()
        connection = Connection(seat, websocket.send_text)
        pump = _spawn(connection.pump())
        tables.attach(table, connection)
        bucket = TokenBucket()
        dropping = False
        try:
            while not connection.overflowed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not bucket.take():
                    if not dropping:  # one error for a run of dropped messages
                        connection.post(_error("rate_limited", "too many messages: dropped until the rate falls"))
                    dropping = True
                    continue
                dropping = False
                raw = message.get("text")
                raw = message.get("bytes") if raw is None else raw
                reply = await _serve(tables, table, connection, raw)
                if reply is not None:
                    connection.post(reply)
        except WebSocketDisconnect:
            pass
        finally:
            tables.detach(table, connection)
            connection.stop()
            if connection.overflowed:
                with contextlib.suppress(Exception):
                    await websocket.close(code=1013, reason="too far behind: connect again")
            pump.cancel()

    return app


_TASKS: set[asyncio.Task[None]] = set()


def _spawn(coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    task = asyncio.get_running_loop().create_task(coroutine)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


def _error(code: str, message: str) -> str:
    return jsonio.dumps({"type": "error", "code": code, "message": message[:500]})


async def _serve(tables: Tables, table: Table, connection: Connection, raw: str | bytes | None) -> str | None:
    """The answer to one message: None when it is a move played (its state goes to every connection)."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw or b"")
    if raw is None or size > MAX_MESSAGE_BYTES:
        return _error("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes, got {size}")

    def fail(reason: str) -> Exception:
        return Refusal("bad_json", reason)

    try:
        data = jsonio.parse(raw, fail, max_size=MAX_MESSAGE_BYTES, max_depth=MAX_MESSAGE_DEPTH)
        message = CLIENT_MESSAGE.validate_python(data)
    except Refusal as refusal:
        return _error(refusal.code, refusal.message)
    except pydantic.ValidationError as error:
        return _error("bad_message", "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()))
    if not isinstance(message, Move):
        return table.state(connection.seat)
    try:
        await tables.move(table, connection.seat, message.ply, message.action)
    except Refusal as refusal:
        return _error(refusal.code, refusal.message)
    return None
