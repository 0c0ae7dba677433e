"""The HTTP protocol ``ordonnance serve`` runs uvicorn with: httptools' parser, without the
reference cycle uvicorn leaves behind each WebSocket.

uvicorn's httptools protocol and its parser refer to each other. When a connection ends the
protocol drops the parser, and reference counting frees both at once; but a connection that
becomes a WebSocket is handed to the WebSocket protocol, and its HTTP protocol never hears that it
ended: it stays in a cycle with the connection's transport (35 objects) until a pass of the garbage
collector finds it, and the server's passes are rare (:mod:`ordonnance.server.garbage`).
:func:`http_protocol`'s class drops the parser once the upgrade is done.

httptools (in the ``web`` extra) parses HTTP in C: the server spends about 10% less CPU a move
than with uvicorn's pure-Python h11 when tables come and go (table creation, seats taken,
WebSocket handshakes). Without httptools, h11 serves, which keeps no such cycle.
"""

from __future__ import annotations

import asyncio

__all__ = ["http_protocol"]


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
