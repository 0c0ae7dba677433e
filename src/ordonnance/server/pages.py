"""The play server's web pages: the lobby (``/``), a table (``/tables/{id}``), each game's rules
(``/rules/{game}``) and the picture of a table as its seat may see it.

The pages are plain HTML, CSS and JavaScript shipped in the package (``server/static``), so the
server needs no build step and no internet connection. A page never draws a card itself: it
asks :func:`picture` for the game's own SVG of the seat's view (:func:`ordonnance.render.svg` and
the other games' ``render.svg``), drawn by the server from that view alone, so nothing the seat
cannot see reaches the page. The elements of those pictures carry ``data-`` attributes (a
card's ``data-card``, a territory's ``data-territory``, a province's ``data-province``, a
cell's ``data-column``) that the page makes clickable; the moves it offers are only the legal
actions the server sent, matched through their action JSON.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path as FilePath
from typing import Any

from fastapi import FastAPI, Header, HTTPException, Path, Query
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from ordonnance.core import jsonio, registry
from ordonnance.server.tables import Table, Tables

__all__ = ["STATIC", "add_pages", "picture"]

#: The folder of the pages' files.
STATIC = FilePath(__file__).with_name("static")


def _names(table: Table) -> list[str]:
    return [seat.name or f"Seat {p}" for p, seat in enumerate(table.seats)]


def _draw(table: Table, position: Any, *, everything: bool) -> str:
    """The game's own SVG of ``position`` (a seat's view, or a Game): every card of a Game only when
    ``everything``."""
    render = importlib.import_module(table.module.__name__ + ".render")
    if table.name == "ordonnance":
        hands = everything and not isinstance(position, table.module.PlayerView)
        return str(render.svg(position, hands=hands, names=_names(table)))
    if table.name == "shinobi":
        return str(render.svg(position, names=_names(table)))
    return str(render.svg(position, title=" vs ".join(_names(table))))


def picture(table: Table, seat: int | None, ply: int | None = None) -> str:
    """The SVG of ``table`` for ``seat``: while it is played, the seat's view (a spectator's: the
    game's public picture, no hand shown); once it is over, every card, at ``ply`` (default: the
    end) for a replay."""
    if table.status == "finished":
        if ply is None or ply >= table.plies:
            return _draw(table, table.game, everything=True)
        game = table.module.Game.new(table.rules, seed=table.seed)
        for action in json.loads(table.game.to_json())["history"][:ply]:
            game.apply(table.module.action_from_json(jsonio.dumps(action)))
        return _draw(table, game, everything=True)
    if seat is None:
        return _draw(table, table.game, everything=False)
    return _draw(table, table.game.view(seat), everything=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html")


def add_pages(app: FastAPI, tables: Tables) -> None:
    """Add the web pages and the pictures' endpoint to the play server's ``app``."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return _page("lobby.html")

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str = Path(max_length=32)) -> FileResponse:
        return _page("table.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str = Path(max_length=32)) -> FileResponse:
        if game not in registry.names():
            raise HTTPException(404, f"no game {game!r:.40}")
        return _page(f"rules-{game}.html")

    @app.get("/api/tables/{table_id}/picture", responses={200: {"content": {"image/svg+xml": {}}}})
    async def table_picture(
        table_id: str = Path(max_length=32),
        ply: int | None = Query(default=None, ge=0, le=1_000_000),
        authorization: str | None = Header(default=None, max_length=200),
    ) -> Response:
        """The table's SVG picture as a seat sees it (``Authorization: Bearer <token>``; without
        it, the public picture); once the game is over, every card, at ``ply`` for a replay."""
        table = await tables.find(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r:.40}")
        seat = None
        if authorization is not None:
            token = authorization.removeprefix("Bearer ").strip()
            seat = await tables.seat_of(table, token)
            if seat is None:
                raise HTTPException(403, "the token grants no seat at this table")
        return Response(picture(table, seat, ply), media_type="image/svg+xml",
                        headers={"x-ply": str(table.plies)})  # fmt: skip

    @app.get("/api/tables/{table_id}/result")
    async def table_result(table_id: str = Path(max_length=32)) -> dict[str, Any]:
        """A finished table's result: its winner (null: a draw), each seat's score and the cards left
        in each hand (every card is shown once the game is over)."""
        table = await tables.find(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r:.40}")
        if table.status != "finished":
            raise HTTPException(409, f"table {table.id} is {table.status}, not finished")
        game = table.game
        return {"winner": game.winner, "scores": [int(score) for score in game.scores],
                "hands": [[str(card) for card in game.hand(seat)] for seat in range(len(table.seats))]}  # fmt: skip
