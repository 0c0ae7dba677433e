"""Every message of the play server, as pydantic models: their validation and their JSON Schema
come from one definition.

Over a table's WebSocket a client sends :class:`Move` (``{"type": "move", "ply": n, "action":
...}``) or :class:`Sync` (``{"type": "sync"}``, to be sent the state again); the server sends
:class:`State` (on connecting, after every move, on a sync) or :class:`Error` (for a message it
refused; the connection and the game stay as they were). The HTTP API's bodies are the
``*Request`` and ``*Reply`` models (FastAPI's ``/openapi.json`` documents them).
:func:`client_schema` and :func:`server_schema` are the WebSocket messages' JSON Schemas
(``docs/schemas/ordonnance.server.*.json``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ordonnance.server.limits import MAX_NAME_LENGTH

__all__ = [
    "Move", "Sync", "ClientMessage", "SeatInfo", "LastMove", "State", "Error", "ServerMessage", "ERROR_CODES",
    "SeatRequest", "TableRequest", "JoinRequest", "JoinReply", "TableReply", "GameReply",
    "ReplayMove", "ReplayReply", "Chance", "ReviewedPly", "ReviewReply", "ReviewProgress",
    "client_schema", "server_schema", "CLIENT_MESSAGE", "SERVER_MESSAGE",
]  # fmt: skip

#: What an :class:`Error`'s ``code`` may be, and when.
ERROR_CODES = {
    "too_large": "the message is longer than the server reads",
    "bad_json": "the message is not JSON the server reads (not UTF-8, not JSON, nested too deeply, repeated keys)",
    "bad_message": "the message is not one the protocol defines (its type or fields)",
    "bad_action": "the action is not the game's action JSON",
    "rate_limited": "the connection sent messages faster than allowed; they were dropped",
    "spectator": "a spectator cannot move",
    "not_started": "the table still has free seats",
    "finished": "the game is over",
    "stale_ply": "the move is for another ply than the game's (an old move replayed, or a position not yet seen)",
    "not_your_turn": "another seat is to act",
    "illegal": "the action is not legal in the position",
    "unavailable": "the move could not be stored; it was not played",
    "bot_failed": "a bot's seat failed to move several times in a row (its bot raised, or its move could not be "
    "stored); the server goes on trying",
}

_STRICT = ConfigDict(extra="forbid", strict=True)


class Move(BaseModel):
    """A client's move: the action of its seat, for the position at ``ply``."""

    model_config = _STRICT
    type: Literal["move"]
    ply: Annotated[int, Field(ge=0, le=1_000_000, description="The ply the move is for: the state's ply.")]
    action: Annotated[dict[str, Any], Field(description="The action, as the game's action JSON.")]


class Sync(BaseModel):
    """A client's request to be sent the state again (after a reconnection, say)."""

    model_config = _STRICT
    type: Literal["sync"]


ClientMessage = Annotated[Move | Sync, Field(discriminator="type")]
"""A message a client sends."""


class SeatInfo(BaseModel):
    """One seat as anyone may see it."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "random", "greedy", "montecarlo"]
    name: str | None = Field(description="The name shown: the person's, once the seat is taken, or the bot's.")
    taken: bool = Field(description="Whether someone sits there (a bot always does).")
    time_limit: float | None = Field(default=None, description="Seconds a search bot thinks a decision.")


class LastMove(BaseModel):
    """The move that led to the state."""

    model_config = ConfigDict(extra="forbid")
    ply: int
    seat: int
    action: dict[str, Any]
    detail: str | None = Field(
        default=None,
        description="What the move did beyond the action itself, in words anyone at the table may read "
        "(a Black Prince fight: its totals and their parts), or null.",
    )


class State(BaseModel):
    """The table as the connection's seat may see it."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["state"]
    table: str
    game: str = Field(description="The game's name (ordonnance, shinobi, black-prince).")
    seat: int | None = Field(description="The connection's seat; null for a spectator.")
    ply: int = Field(description="Moves played; a move is sent for this ply.")
    status: Literal["open", "playing", "finished"]
    current_player: int | None = Field(description="The seat to act while the game is played, else null.")
    seats: list[SeatInfo]
    view: dict[str, Any] = Field(
        description="While the game is played: the seat's view (Game.view(seat).to_json()) or, for a spectator, "
        "the public view (Game.public_view_json()); once over, the whole game with every card "
        "(Game.to_json()). Its 'format' says which."
    )
    legal_actions: list[dict[str, Any]] = Field(description="The seat's legal actions now (empty when not to act).")
    last: LastMove | None = Field(description="The move that led here, or null.")


class Error(BaseModel):
    """The answer to a message the server refused; the game and the connection are as they were."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["error"]
    code: str = Field(description="What was wrong: " + "; ".join(f"{k}: {v}" for k, v in ERROR_CODES.items()) + ".")
    message: str = Field(description="Why, for people, showing the bad value (shortened).")


ServerMessage = Annotated[State | Error, Field(discriminator="type")]
"""A message the server sends."""

CLIENT_MESSAGE: TypeAdapter[Move | Sync] = TypeAdapter(ClientMessage)
"""Validates a client's message (parsed JSON) into :class:`Move` or :class:`Sync`."""
SERVER_MESSAGE: TypeAdapter[State | Error] = TypeAdapter(ServerMessage)
"""Validates a server's message."""


def _schema(adapter: TypeAdapter[Any], title: str) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        **adapter.json_schema(mode="serialization"),
    }


def client_schema() -> dict[str, Any]:
    """The JSON Schema of a message a client sends over a table's WebSocket."""
    return _schema(CLIENT_MESSAGE, "A message a client sends the play server")


def server_schema() -> dict[str, Any]:
    """The JSON Schema of a message the play server sends over a table's WebSocket."""
    return _schema(SERVER_MESSAGE, "A message the play server sends")


# --------------------------------------------------------------------- the HTTP API's bodies


class SeatRequest(BaseModel):
    """One seat of a new table: a person's (taken later with its join) or a bot's."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "random", "greedy", "montecarlo"]
    time_limit: Annotated[float, Field(gt=0, le=30)] | None = Field(
        default=None, description="Seconds a montecarlo bot thinks a decision (default 1); none for the others."
    )
    name: Annotated[str, Field(max_length=MAX_NAME_LENGTH)] | None = Field(
        default=None, description="A bot's name (default: its kind); a person's is given when they join."
    )


class TableRequest(BaseModel):
    """A new table."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(max_length=32, description="ordonnance, shinobi or black-prince")]
    rules: dict[str, Any] | None = Field(
        default=None, description="The rules as the game's rules JSON (Rules.to_dict()); default: its default rules."
    )
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=8)]
    bot_delay: Annotated[float, Field(ge=0, le=10)] = Field(
        default=0.0, description="Seconds a bot waits before each move (to watch a table of bots at a chosen "
        "speed); kept while the server runs, 0 after a restart."
    )


class JoinRequest(BaseModel):
    """Taking a free seat."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=MAX_NAME_LENGTH)]


class JoinReply(BaseModel):
    """A seat taken: its token, the capability to play it (shown once; keep it secret)."""

    table: str
    seat: int
    token: str
    websocket: str = Field(description="The path of the table's WebSocket, the token in its query.")


class TableReply(BaseModel):
    """A table as the lobby shows it."""

    id: str
    game: str
    rules: dict[str, Any]
    status: Literal["open", "playing", "finished"]
    ply: int
    seats: list[SeatInfo]
    created: float


class GameReply(BaseModel):
    """A game the server offers."""

    name: str
    title: str
    min_players: int
    max_players: int
    rules: dict[str, Any] = Field(description="The default rules, as the game's rules JSON.")
    bots: list[str]


class ReplayMove(BaseModel):
    """One move of a finished table's replay."""

    ply: int
    seat: int
    action: dict[str, Any] = Field(description="The action, as the game's action JSON.")


class ReplayReply(BaseModel):
    """A finished table, move by move, every card shown."""

    table: str
    game: str
    moves: list[ReplayMove]
    positions: list[dict[str, Any]] = Field(
        description="Every position from the deal (index 0) to the end (index len(moves)), as the whole game's "
        "JSON (Game.to_json()): positions[p] is the game after moves[:p]."
    )


class Chance(BaseModel):
    """One seat's chance to win at one position, as the review estimates it."""

    seat: int
    won: int = Field(description="Playouts the seat won.")
    playouts: int = Field(description="Playouts played from the seat's view (0 at the end: the result is known).")
    chance: float = Field(description="won / playouts; at the end 1 for the winner, else 0.")
    low: float = Field(description="The 95% Wilson interval's low end.")
    high: float = Field(description="The 95% Wilson interval's high end.")


class ReviewedPly(BaseModel):
    """Every seat's chance to win at one position (after ``ply`` moves)."""

    ply: int
    chances: list[Chance]


class ReviewReply(BaseModel):
    """A finished table's review: every seat's chance to win after every move."""

    table: str
    game: str
    playouts: int = Field(description="Playouts per seat and position.")
    plies: list[ReviewedPly] = Field(description="One per position, from the deal (ply 0) to the end.")


class ReviewProgress(BaseModel):
    """A review still being computed (HTTP 202): ask again."""

    table: str
    done: int = Field(description="Positions reviewed so far.")
    positions: int = Field(description="Positions to review.")
