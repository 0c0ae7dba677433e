"""The HTTP protocol and the event loop ``ordonnance serve`` runs uvicorn with leave no reference
cycle behind a connection: each one would otherwise stay in memory until a pass of the garbage
collector found it, and the server's schedule makes those passes rare
(:mod:`ordonnance.server.garbage`)."""

from __future__ import annotations

import asyncio
import gc
import socket
import sys
from collections.abc import Callable
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("httptools")
from websockets.asyncio.client import connect  # noqa: E402

from ordonnance.server import cli  # noqa: E402
from ordonnance.server.http import EventLoop, http_protocol  # noqa: E402

CONNECTIONS = 20


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A WebSocket that says hello and closes when the client does."""
    assert scope["type"] == "websocket"
    await receive()
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": "hello"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


def garbage_after_websockets(http: Any, loop: Callable[[], asyncio.AbstractEventLoop]) -> list[Any]:
    """The objects in reference cycles after :data:`CONNECTIONS` WebSockets to uvicorn (``http``
    its HTTP protocol), on an event loop made by ``loop``, opened and closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def run() -> list[Any]:
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
            left = list(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        server.should_exit = True
        await serving
        return left

    gc.collect()  # what earlier tests left is not counted
    gc.disable()  # no pass of its own frees a cycle before the count
    try:
        with asyncio.Runner(loop_factory=loop) as runner:
            return runner.run(run())
    finally:
        gc.enable()


def protocols_left_as_garbage(http: Any) -> int:
    """uvicorn's HTTP protocols in reference cycles after the WebSockets, on the server's loop."""
    return sum(type(o).__module__.startswith("uvicorn.protocols.http") for o in garbage_after_websockets(http, EventLoop))


def transports_left_as_garbage(loop: Callable[[], asyncio.AbstractEventLoop]) -> int:
    """asyncio's transports (the server's and the clients') in reference cycles after the
    WebSockets, on a loop made by ``loop``, with the server's HTTP protocol."""
    return sum(isinstance(o, asyncio.Transport) for o in garbage_after_websockets(http_protocol(), loop))


def test_the_servers_http_protocol_leaves_no_cycle_behind_a_websocket() -> None:
    assert not isinstance(http_protocol(), str), "with httptools installed (the web extra), serve uses it"
    assert protocols_left_as_garbage(http_protocol()) == 0


def test_uvicorns_own_protocols() -> None:
    """h11's (what serves without httptools) leaves none either; httptools' own leaves one a
    WebSocket: should a release of uvicorn stop doing so, this fails, and ordonnance.server.http is
    no longer needed."""
    assert protocols_left_as_garbage("h11") == 0
    assert protocols_left_as_garbage("httptools") >= CONNECTIONS


def test_the_servers_event_loop_leaves_no_cycle_behind_a_connection() -> None:
    assert transports_left_as_garbage(EventLoop) == 0


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 drops the transport's read callback itself (gh-100348)")
def test_pythons_own_event_loop() -> None:
    """Python 3.11's selector loop leaves each transport in a cycle with its read callback: the
    reason for the server's own loop."""
    assert transports_left_as_garbage(asyncio.SelectorEventLoop) >= CONNECTIONS


def test_serve_runs_uvicorn_with_the_loop_and_protocols_above(monkeypatch: pytest.MonkeyPatch) -> None:
    from ordonnance.server import app, store

    options: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda _app, **given: options.update(given))
    monkeypatch.setattr(store, "open_store", lambda db: db)
    monkeypatch.setattr(app, "create_app", lambda db, **_limits: db)
    interval = sys.getswitchinterval()
    try:
        cli.serve(db="unused.db")
    finally:
        sys.setswitchinterval(interval)
    assert uvicorn.Config(hello, loop=options["loop"]).get_loop_factory() is EventLoop
    assert options["http"].__qualname__ == http_protocol().__qualname__  # type: ignore[union-attr]
    assert options["ws"] == "websockets-sansio"
