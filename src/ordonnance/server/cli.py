"""``ordonnance serve``: the play server on uvicorn, over an SQLite file or a PostgreSQL database."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ordonnance.core import cli as core
from ordonnance.errors import shown
from ordonnance.server.limits import CONNECTIONS_PER_ADDRESS, REQUEST_BURST, REQUEST_RATE

__all__ = ["add_serve", "serve"]

#: Seconds a thread waiting for Python's global lock waits before the running one must let it go
#: (Python's default is 0.005). The store commits in a thread of its own, and each move it stores
#: is acknowledged only once that thread has the lock back from the busy event loop.
SWITCH_INTERVAL = 0.001

#: What ``ordonnance serve --help`` shows as examples.
EXAMPLES = (
    "ordonnance serve",
    "ordonnance serve --port 8080 --db games.db",
    "ordonnance serve --port 8001 --db postgresql://games:secret@db.example.org/games",
    "ordonnance serve --host 0.0.0.0 --allow-origin https://games.example.org",
)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "ordonnance.db", *, bot_workers: int = 2,
          allow_origins: Sequence[str] = (), log_level: str = "info",
          connections_per_address: int = CONNECTIONS_PER_ADDRESS, requests_per_second: float = REQUEST_RATE,
          request_burst: int = REQUEST_BURST) -> None:  # fmt: skip
    """Run the play server until interrupted: uvicorn on ``host:port``, its tables in ``db``: the
    path of an SQLite file (created when missing) or a ``postgresql://`` URL (several server
    processes may share the database; see :func:`~ordonnance.server.store.open_store`). The
    unfinished tables in it resume, bots thinking in
    ``bot_workers`` processes, browsers' WebSockets accepted from the server's origin and
    ``allow_origins``. Each client address may hold ``connections_per_address`` WebSockets at once
    and make ``requests_per_second`` HTTP requests a second on average, ``request_burst`` at once
    (0 lifts a limit; see :func:`~ordonnance.server.app.create_app`). Needs the ``web`` extra."""
    import uvicorn

    from ordonnance.server.app import create_app
    from ordonnance.server.http import EventLoop, http_protocol
    from ordonnance.server.limits import MAX_FRAME_BYTES
    from ordonnance.server.store import open_store

    sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(open_store(db), bot_workers=bot_workers, allow_origins=allow_origins,
                     connections_per_address=connections_per_address, requests_per_second=requests_per_second,
                     request_burst=request_burst)  # fmt: skip
    uvicorn.run(
        app, host=host, port=port, loop=f"{EventLoop.__module__}:{EventLoop.__qualname__}", http=http_protocol(), ws="websockets-sansio", ws_max_size=MAX_FRAME_BYTES, access_log=False,
        log_level=log_level, server_header=False,
    )  # fmt: skip


def _at_least_zero(text: str) -> int:
    value = core.whole(text)
    if not 0 <= value <= 10**9:
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) to 1,000,000,000, got {value:,}")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {shown(text):.60}") from None
    if not 0 <= value <= 1e9:  # NaN too
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) to 1e9, got {shown(text):.60}")
    return value


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401

        if args.db.startswith(("postgresql://", "postgres://")):
            import psycopg  # noqa: F401
    except ImportError:
        print("ordonnance serve: error: the play server needs the web extra: pip install 'ordonnance[web]'",
              file=sys.stderr)  # fmt: skip
        return core.EXIT_ERROR
    serve(args.host, args.port, args.db, bot_workers=args.bot_workers, allow_origins=args.allow_origin,
          log_level=args.log_level, connections_per_address=args.connections_per_address,
          requests_per_second=args.requests_per_second, request_burst=args.request_burst)  # fmt: skip
    return 0


def add_serve(commands: Any, wrap: Callable[[str], str]) -> argparse.ArgumentParser:
    """Add ``serve`` to the command parsers ``commands``; ``wrap`` fills a description's lines."""
    parser: core.Parser = commands.add_parser(
        "serve", help="the play server: tables online for people and bots (web extra)",
        formatter_class=core.Formatter,
        description=wrap(
            "Run the play server (needs the web extra: pip install 'ordonnance[web]'): tables of every game for "
            "people and bots, an HTTP API under /api (documented at /openapi.json) and a WebSocket per table. "
            "Every move is stored in an SQLite file or a PostgreSQL database before it is acknowledged; started "
            "again on the same store, the unfinished tables resume where they were. Several server processes may "
            "share one PostgreSQL database: a move made through one reaches the players of the others at once. "
            "Ctrl-C stops it."
        ),
        epilog="Examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES),
    )  # fmt: skip
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=core.at_most(65535), default=8000, help="the port (default 8000)")
    parser.add_argument("--db", default=os.path.join(".", "ordonnance.db"), metavar="PATH|URL",
                        help="the SQLite file of the tables (default ./ordonnance.db), or a postgresql://user:password@"
                        "host/database URL")  # fmt: skip
    parser.add_argument("--bot-workers", type=core.at_most(64), default=2,
                        help="processes the bots think in (default 2)")  # fmt: skip
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="a web origin besides the server's own whose pages may open WebSockets (repeatable)")  # fmt: skip
    parser.add_argument("--log-level", choices=("critical", "error", "warning", "info", "debug"), default="info",
                        help="what the server logs (default info)")  # fmt: skip
    parser.add_argument("--connections-per-address", type=_at_least_zero, default=CONNECTIONS_PER_ADDRESS,
                        metavar="N", help=f"WebSockets one client address may hold open at once (default "
                        f"{CONNECTIONS_PER_ADDRESS}; 0: no limit)")  # fmt: skip
    parser.add_argument("--requests-per-second", type=_rate, default=REQUEST_RATE, metavar="R",
                        help=f"HTTP requests one client address may make a second, on average (default "
                        f"{REQUEST_RATE:g}; 0: no limit); more are refused with 429 and Retry-After")  # fmt: skip
    parser.add_argument("--request-burst", type=core.at_most(10**9), default=REQUEST_BURST, metavar="N",
                        help=f"HTTP requests one client address may make at once (default {REQUEST_BURST})")  # fmt: skip
    parser.set_defaults(run=_run, parser=parser)
    return parser
