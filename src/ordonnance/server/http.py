"""The HTTP protocol and the event loop ``ordonnance serve`` runs uvicorn with: httptools'
parser, and asyncio's selector loop, each without the reference cycle it leaves behind a
connection.

A cycle outlives the connection until a pass of the garbage collector finds it, and the server's
passes over long-lived objects are rare (:mod:`ordonnance.server.garbage`): on a busy server the
cycles of connections that ended would pile up until the next one, and make it long.

uvicorn's httptools protocol and its parser refer to each other. When a connection ends the
protocol drops the parser, and reference counting frees both at once; but a connection that
becomes a WebSocket is handed to the WebSocket protocol, and its HTTP protocol never hears that it
ended: it stays in a cycle with the connection's transport (35 objects). :func:`http_protocol`'s
class drops the parser once the upgrade is done.

Python 3.11's selector event loop keeps each connection's transport in a cycle with its own read
callback (CPython issue gh-100348; 3.12 drops the callback when the transport is closed). Under load
at a human pace, tables coming and going, these cycles were 30,000 objects a minute, and the full
pass that freed them stalled the server for 400 ms. :class:`EventLoop`'s transports drop the
callback once their connection is lost.

httptools (in the ``web`` extra) parses HTTP in C: the server spends about 10% less CPU a move
than with uvicorn's pure-Python h11 when tables come and go (table creation, seats taken,
WebSocket handshakes). Without httptools, h11 serves, which keeps no such cycle.
"""

from __future__ import annotations

import asyncio
import socket
from asyncio import selector_events
from typing import Any

__all__ = ["EventLoop", "http_protocol"]

# asyncio's transport for the connections of a selector loop (private: typeshed does not declare it)
_SocketTransport: Any = getattr(selector_events, "_SelectorSocketTransport")


class _Transport(_SocketTransport):  # type: ignore[misc]
    """asyncio's socket transport, its read callback (a method of its own: a cycle) dropped once
    its connection is lost."""

    def _call_connection_lost(self, exc: BaseException | None) -> None:
        try:
            super()._call_connection_lost(exc)
        finally:
            self._read_ready_cb = None


class EventLoop(asyncio.SelectorEventLoop):
    """asyncio's selector event loop, whose connections' transports leave no reference cycle once
    their connection is lost; uvicorn's ``loop`` option for ``ordonnance serve``."""

    def _make_socket_transport(self, sock: socket.socket, protocol: asyncio.BaseProtocol, waiter: Any = None,
                               *, extra: Any = None, server: Any = None) -> asyncio.Transport:  # fmt: skip
        transport: asyncio.Transport = _Transport(self, sock, protocol, waiter, extra, server)
        return transport


def http_protocol() -> type[asyncio.Protocol] | str:
    """uvicorn's ``http`` option: the httptools protocol that leaves no cycle, or ``"h11"`` without httptools."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return "h11"

    class HttpProtocol(HttpToolsProtocol):
        """uvicorn's httptools protocol, its parser dropped once a WebSocket has the connection."""

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            del self.parser  # it gave its last event, the upgrade: the cycle with it ends here

    return HttpProtocol
