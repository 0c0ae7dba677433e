"""A small app that embeds the play server: a club's game night.

It builds the server's ASGI application (``ordonnance.server.app.create_app`` over an SQLite
store), adds a route of its own, serves it with uvicorn in a thread, and then, as any program
could over the network, plays a table through ``ordonnance.client``: Ada (here a Greedy bot
of our own, seeing only her seat's view) against the server's Greedy bot at Black Prince. Once
the game is over it reads the save, the replay and the review, and prints where the game
turned. Needs the ``web`` extra::

    pip install 'ordonnance[web]'
    python examples/server_app.py                 # a fresh database in a temporary folder
    python examples/server_app.py --db club.db --port 8123 --game ordonnance
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from ordonnance import client
from ordonnance.core import registry
from ordonnance.server.app import create_app
from ordonnance.server.http import http_protocol
from ordonnance.server.store import SQLiteStore


def make_app(db: Path, bot_workers: int = 1) -> FastAPI:
    """The play server over the SQLite file ``db``, with the club's own route added."""
    app = create_app(SQLiteStore(db), bot_workers=bot_workers)

    @app.get("/club/welcome")
    async def welcome() -> dict[str, Any]:
        """The club's greeting: the tables being played right now."""
        return {"club": "Thursday cards", "tables": len(app.state.tables.lobby())}

    return app


class Background:
    """uvicorn serving ``app`` on ``port`` in a thread, until :meth:`stop`."""

    def __init__(self, app: FastAPI, port: int) -> None:
        # as ordonnance serve runs it: its event loop and HTTP protocol leave no reference cycle behind a connection
        config = uvicorn.Config(app, host="127.0.0.1", port=port, loop="ordonnance.server.http:EventLoop",
                                http=http_protocol(), ws="websockets-sansio", log_level="warning")  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self, timeout: float = 120.0) -> None:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:  # set once the lifespan (the tables, the bots' workers) is up
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(60)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def game_night(url: str, game: str) -> dict[str, Any]:
    """Play one table of ``game`` through the client: Ada against the server's Greedy bot; returns its review."""
    club = client.Client(url)
    print("welcome:", club.request("GET", "/club/welcome"))
    table = club.create_table(game, ["human", "greedy"])
    seat = club.join(table["id"], 0, "Ada")
    final = club.play(seat, registry.package(game).bots.Greedy(seed=1))
    save = club.save(table["id"])
    winner = registry.package(game).Game.from_json(json.dumps(save)).winner
    names = [s["name"] for s in final["seats"]]
    print(f"table {table['id']}: {final['ply']} moves, winner: {names[winner] if winner is not None else 'nobody'}")
    replay = club.replay(table["id"])
    assert replay["positions"][-1] == save and len(replay["moves"]) == final["ply"]
    review = club.review(table["id"], wait=300)
    ada = [ply["chances"][0]["chance"] for ply in review["plies"]]
    swings = [(abs(after - before), ply) for ply, (before, after) in enumerate(zip(ada, ada[1:]), start=1)]
    swing, turn = max(swings)
    move = replay["moves"][turn - 1]
    print(f"Ada's chance: {ada[0]:.2f} at the deal, {ada[-1]:.2f} at the end")
    print(f"the turning point: move {turn - 1} by {names[move['seat']]}, Ada's chance {ada[turn - 1]:.2f} -> {ada[turn]:.2f}")
    return review


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="the SQLite file (default: a temporary one)")
    parser.add_argument("--port", type=int, default=None, help="the port (default: a free one)")
    parser.add_argument("--game", default="black-prince", choices=registry.names())
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db if args.db is not None else Path(folder) / "club.db"
        port = args.port if args.port is not None else free_port()
        server = Background(make_app(db), port)
        server.start()
        try:
            game_night(f"http://127.0.0.1:{port}", args.game)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
