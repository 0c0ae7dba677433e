"""The HTTP protocol ``ordonnance serve`` runs uvicorn with leaves no reference cycle behind a
WebSocket: each one would otherwise stay in memory until a pass of the garbage collector found it,
and the server's schedule makes those passes rare (:mod:`ordonnance.server.garbage`)."""

from __future__ import annotations

import asyncio
import gc
import socket
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("httptools")
from websockets.asyncio.client import connect  # noqa: E402

from ordonnance.server.http import http_protocol  # noqa: E402

CONNECTIONS = 20


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A WebSocket that says hello and closes when the client does."""
    assert scope["type"] == "websocket"
    await receive()
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": "hello"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


def protocols_left_as_garbage(http: Any) -> int:
    """uvicorn's HTTP protocols in reference cycles after :data:`CONNECTIONS` WebSockets opened and closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def run() -> int:
        config = uvicorn.Config(hello, host="127.0.0.1", port=port, http=http, ws="websockets-sansio",
                                lifespan="off", log_level="warning")  # fmt: skip
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        for _ in range(CONNECTIONS):
            async with connect(f"ws://127.0.0.1:{port}/") as websocket:
                assert await websocket.recv() == "hello"
        await asyncio.sleep(0.2)  # the server sees every close
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            left = sum(type(o).__module__.startswith("uvicorn.protocols.http") for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        server.should_exit = True
        await serving
        return left

    gc.disable()  # no pass of its own frees a cycle before the count
    try:
        return asyncio.run(run())
    finally:
        gc.enable()


def test_the_servers_http_protocol_leaves_no_cycle_behind_a_websocket() -> None:
    assert not isinstance(http_protocol(), str), "with httptools installed (the web extra), serve uses it"
    assert protocols_left_as_garbage(http_protocol()) == 0


def test_uvicorns_own_protocols() -> None:
    """h11's (what serves without httptools) leaves none either; httptools' own leaves one a
    WebSocket: should a release of uvicorn stop doing so, this fails, and ordonnance.server.http is
    no longer needed."""
    assert protocols_left_as_garbage("h11") == 0
    assert protocols_left_as_garbage("httptools") >= CONNECTIONS
