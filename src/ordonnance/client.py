"""A small Python client of the play server (``ordonnance serve``): for bot authors and tests.

HTTP goes through the standard library; a table's WebSocket through the ``websockets``
package (the ``web`` extra). A bot plays a seat with :meth:`Client.play`: it sees that seat's
view (the game's ``PlayerView``, read from the JSON the server sends) and answers with
``choose(view)``, as in every other part of the library::

    from ordonnance import client, shinobi

    server = client.Client("http://127.0.0.1:8000")
    table = server.create_table("shinobi", ["human", "greedy", "random"], rules={"players": 3})
    seat = server.join(table["id"], 0, "Ada")
    final = server.play(seat, shinobi.bots.Greedy(seed=1))
    print(final["view"]["format"])  # the whole game, every card shown

The messages are described in :doc:`/server` and ``docs/schemas/ordonnance.server.*.json``.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import attrs

from ordonnance.core import jsonio, registry
from ordonnance.errors import OrdonnanceError

__all__ = ["Client", "SeatToken", "TableSocket", "ServerError"]


class ServerError(OrdonnanceError, ValueError):
    """The server refused a request (its HTTP status and reason) or sent an error message."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        """The HTTP status, for a refused HTTP request."""
        self.code = code
        """The error message's code, for a refused WebSocket message."""


@attrs.frozen
class SeatToken:
    """A seat taken: the table, the seat and its token (the capability to play it: keep it secret)."""

    table: str
    """The table's id."""
    seat: int
    """The seat's number."""
    token: str = attrs.field(repr=False)
    """The seat's token."""


class TableSocket:
    """A connection to a table's WebSocket: :meth:`receive` its messages, :meth:`move`.

    :attr:`received` keeps every message received, in order (tests read it)."""

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        from websockets.sync.client import connect

        # Entered as a context manager (this class closes it), the form websockets 17.1 asks for.
        self._socket = connect(url, open_timeout=timeout, max_size=2**22).__enter__()
        self.timeout = timeout
        """Seconds :meth:`receive` waits for a message."""
        self.received: list[dict[str, Any]] = []
        """Every message received so far."""
        self.state: dict[str, Any] | None = None
        """The last state message received."""

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message from the server (waiting up to ``timeout``, default :attr:`timeout`, seconds)."""
        text = self._socket.recv(timeout=self.timeout if timeout is None else timeout)
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message as it is (a dict is written as JSON)."""
        self._socket.send(jsonio.dumps(message) if isinstance(message, dict) else message)

    def move(self, ply: int, action: Any) -> None:
        """Send a move: ``action`` (the game's action JSON data) for the position at ``ply``."""
        self.send({"type": "move", "ply": ply, "action": action})

    def sync(self) -> None:
        """Ask for the state again."""
        self.send({"type": "sync"})

    def close(self) -> None:
        """Close the connection."""
        self._socket.close()

    def __enter__(self) -> TableSocket:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    def states(self) -> Iterator[dict[str, Any]]:
        """The state messages as they come, until the game is over (the last one shows every card);
        an error message raises :class:`ServerError`."""
        while True:
            message = self.receive()
            if message["type"] == "error":
                raise ServerError(message["message"], code=message["code"])
            yield message
            if message["status"] == "finished":
                return


class Client:
    """The play server at ``url`` (``"http://127.0.0.1:8000"``)."""

    def __init__(self, url: str = "http://127.0.0.1:8000", timeout: float = 30.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ServerError(f"the server's URL is http(s)://host:port, got {url!r:.80}")
        self.url = url.rstrip("/")
        """The server's URL."""
        self.timeout = timeout
        """Seconds a request (or a wait for a message) may take."""

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON answer of one HTTP request; a refusal raises :class:`ServerError` with its status."""
        data = None if body is None else jsonio.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"content-type": "application/json"})  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as error:
            try:
                detail = json.loads(error.read()).get("detail")
            except (ValueError, AttributeError):
                detail = error.reason
            raise ServerError(f"{method} {path}: {error.code} {detail}", status=error.code) from None

    def games(self) -> list[dict[str, Any]]:
        """The games the server offers, with their default rules and bots."""
        return list(self.request("GET", "/api/games"))

    def lobby(self) -> list[dict[str, Any]]:
        """The tables with free seats and those being played."""
        return list(self.request("GET", "/api/tables"))

    def table(self, table_id: str) -> dict[str, Any]:
        """One table as the lobby shows it."""
        return dict(self.request("GET", f"/api/tables/{quote(table_id, safe='')}"))

    def save(self, table_id: str) -> dict[str, Any]:
        """A finished table's save, the whole game's JSON (``Game.from_json`` reads it); before the
        end :class:`ServerError` (status 409)."""
        return dict(self.request("GET", f"/api/tables/{quote(table_id, safe='')}/save"))

    def replay(self, table_id: str) -> dict[str, Any]:
        """A finished table move by move: ``moves`` (ply, seat, action) and ``positions`` (the whole
        game's JSON after each number of moves, from the deal); before the end :class:`ServerError`."""
        return dict(self.request("GET", f"/api/tables/{quote(table_id, safe='')}/replay"))

    def review(self, table_id: str, *, wait: float | None = None) -> dict[str, Any]:
        """A finished table's review: each seat's chance to win after every move (``plies``), with
        95% intervals. The server computes it once; until it is ready the answer is its progress
        (``done`` of ``positions``), unless ``wait`` seconds are given to ask again until it is
        (then :class:`ServerError` if it is not ready in time)."""
        path = f"/api/tables/{quote(table_id, safe='')}/review"
        deadline = None if wait is None else time.monotonic() + wait
        while True:
            reply = dict(self.request("GET", path))
            if "plies" in reply or deadline is None:
                return reply
            if time.monotonic() > deadline:
                raise ServerError(f"the review of table {table_id!r:.40} was not ready in {wait} s: {reply}")
            time.sleep(0.2)

    def create_table(self, game: str, seats: Sequence[str | dict[str, Any]], rules: dict[str, Any] | None = None) -> dict[str, Any]:
        """Create a table of ``game`` (its ``rules`` as the game's rules JSON, default its default
        rules): ``seats`` lists each seat's kind (``"human"``, ``"random"``, ``"greedy"``,
        ``"montecarlo"``) or a dict (``{"kind": "montecarlo", "time_limit": 0.2, "name": "Monty"}``)."""
        listed = [{"kind": seat} if isinstance(seat, str) else dict(seat) for seat in seats]
        body: dict[str, Any] = {"game": game, "seats": listed}
        if rules is not None:
            body["rules"] = rules
        return dict(self.request("POST", "/api/tables", body))

    def join(self, table_id: str, seat: int, name: str) -> SeatToken:
        """Take the free person's seat ``seat`` of a table as ``name``: its token."""
        reply = self.request("POST", f"/api/tables/{quote(table_id, safe='')}/seats/{int(seat)}", {"name": name})
        return SeatToken(reply["table"], reply["seat"], reply["token"])

    def connect(self, table_id: str, token: str | None = None) -> TableSocket:
        """Open a table's WebSocket: a seat's with its ``token``, a spectator's without."""
        parts = urlsplit(self.url)
        path = f"/ws/tables/{quote(table_id, safe='')}" + ("" if token is None else f"?token={quote(token, safe='')}")
        scheme = "wss" if parts.scheme == "https" else "ws"
        return TableSocket(urlunsplit((scheme, parts.netloc, "", "", "")) + path, self.timeout)

    def play(self, seat: SeatToken, bot: Any, *, reconnect_for: float = 30.0) -> dict[str, Any]:
        """Play ``seat`` with ``bot`` (anything with ``choose(view)``) to the end of the game: the
        last state, which shows the whole game.

        A dropped connection (the server restarting, say) is opened again, waiting longer each
        time, for up to ``reconnect_for`` seconds in a row; the state the server sends on
        connecting resumes the game where it is."""
        from websockets.exceptions import ConnectionClosed

        failed_since: float | None = None
        while True:
            try:
                with self.connect(seat.table, seat.token) as socket:
                    for state in socket.states():
                        failed_since = None
                        if state["legal_actions"]:
                            module = registry.package(state["game"])
                            view = module.PlayerView.from_json(jsonio.dumps(state["view"]))
                            socket.move(state["ply"], json.loads(module.action_to_json(bot.choose(view))))
                    assert socket.state is not None
                    return socket.state
            except (ConnectionClosed, ConnectionError, TimeoutError):
                now = time.monotonic()
                failed_since = now if failed_since is None else failed_since
                if now - failed_since > reconnect_for:
                    raise
                time.sleep(min(0.1 * 2 ** min(int(now - failed_since), 5), 2.0))

    def spectate(self, table_id: str) -> Iterator[dict[str, Any]]:
        """Watch a table: its public states as they come, the last one (the game over) with every card."""
        with self.connect(table_id) as socket:
            yield from socket.states()
