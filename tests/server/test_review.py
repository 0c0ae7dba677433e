"""A finished table's save, replay and review on a real server: nothing of them before the end;
the replay is the game's moves and positions; the review's numbers are the estimate the docs
define, computed here again directly."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

pytest.importorskip("fastapi")

from ordonnance import client  # noqa: E402
from ordonnance.core import registry  # noqa: E402
from ordonnance.core.stats import wilson  # noqa: E402
from ordonnance.server.review import PLAYOUTS, playout_seed  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import positions  # noqa: E402


def _finished(server: ServerProcess, name: str) -> tuple[client.Client, dict[str, Any]]:
    """A table of ``name`` played to its end by bots alone, and its last state."""
    server_client = client.Client(server.url)
    table = server_client.create_table(name, ["random", "greedy"])
    return server_client, list(server_client.spectate(table["id"]))[-1]


def _refused_before_the_end(server_client: client.Client, table_id: str) -> None:
    for ask in (server_client.save, server_client.replay, server_client.review):
        with pytest.raises(client.ServerError) as refused:
            ask(table_id)
        assert refused.value.status == 409


def test_no_save_replay_or_review_before_the_end(server: ServerProcess) -> None:
    server_client = client.Client(server.url)
    table = server_client.create_table("black-prince", ["human", "random"])
    _refused_before_the_end(server_client, table["id"])  # open: a seat is free
    seat = server_client.join(table["id"], 0, "Ada")
    with server_client.connect(seat.table, seat.token) as socket:
        state = socket.receive()
        assert state["status"] == "playing"
        _refused_before_the_end(server_client, table["id"])
        socket.move(state["ply"], state["legal_actions"][0])
        while (state := socket.receive())["ply"] == 0 or state["current_player"] != 0:
            pass
        assert state["status"] == "playing" and state["ply"] > 0
        _refused_before_the_end(server_client, table["id"])  # being played, moves made
    final = server_client.play(seat, registry.package("black-prince").bots.Random(seed=1))
    assert final["status"] == "finished"
    assert server_client.save(table["id"]) == final["view"]
    for ask in (server_client.save, server_client.replay, server_client.review):
        with pytest.raises(client.ServerError) as missing:
            ask("no-such-table")
        assert missing.value.status == 404


@pytest.mark.parametrize("name", ["ordonnance", "black-prince"])
def test_the_replay_is_the_games_moves_and_positions(server: ServerProcess, name: str) -> None:
    server_client, final = _finished(server, name)
    _, games = positions(final)
    replay = server_client.replay(final["table"])
    assert replay["table"] == final["table"] and replay["game"] == name
    assert replay["positions"] == [json.loads(game.to_json()) for game in games]
    assert replay["moves"] == [
        {"ply": ply, "seat": games[ply].current_player, "action": action} for ply, action in enumerate(final["view"]["history"])
    ]
    assert server_client.save(final["table"]) == final["view"] == replay["positions"][-1]


def _direct_wins(name: str, game: Any, table_seed: int, ply: int, seat: int) -> int:
    """The review's estimate, computed here: the seat's playouts dealt again from its view, played
    out by Greedy bots, seeded as the docs say."""
    module = registry.package(name)
    won = 0
    for playout in range(PLAYOUTS):
        sample = game.view(seat).sample_game(seed=playout_seed(table_seed, ply, seat, playout, "deal"))
        bots = [module.bots.Greedy(seed=playout_seed(table_seed, ply, seat, playout, f"bot{k}")) for k in range(game.players)]
        while not sample.is_over:
            sample.apply(bots[sample.current_player].choose(sample.view(sample.current_player)))
        won += sample.winner == seat
    return won


def test_the_review_agrees_with_a_direct_computation(server: ServerProcess) -> None:
    server_client, final = _finished(server, "black-prince")
    first = server_client.review(final["table"])
    assert "plies" in first or 0 <= first["done"] <= first["positions"] == final["ply"] + 1  # 202: its progress
    review = server_client.review(final["table"], wait=120)
    _, games = positions(final)
    seed = final["view"]["seed"]
    assert review["playouts"] == PLAYOUTS and [p["ply"] for p in review["plies"]] == list(range(len(games)))
    for ply, game in enumerate(games[:-1]):
        for seat, chance in enumerate(review["plies"][ply]["chances"]):
            won = _direct_wins("black-prince", game, seed, ply, seat)
            low, high = wilson(won, PLAYOUTS)
            assert chance == {"seat": seat, "won": won, "playouts": PLAYOUTS, "chance": won / PLAYOUTS, "low": low, "high": high}
    winner = games[-1].winner
    assert [c["chance"] for c in review["plies"][-1]["chances"]] == [float(s == winner) for s in range(games[-1].players)]
    chances = {c["chance"] for p in review["plies"][:-1] for c in p["chances"]}
    assert len(chances) > 1  # the estimate moves with the game
    assert server_client.review(final["table"]) == review  # kept: answered at once


def test_reviews_are_computed_while_the_server_serves(server: ServerProcess) -> None:
    """Two reviews asked at once are computed in the workers; the HTTP API answers meanwhile."""
    server_client, first = _finished(server, "ordonnance")
    _, second = _finished(server, "ordonnance")
    results: list[dict[str, Any]] = []
    askers = [threading.Thread(target=lambda t=t: results.append(server_client.review(t, wait=120)))
              for t in (first["table"], second["table"])]  # fmt: skip
    for asker in askers:
        asker.start()
    assert server_client.request("GET", "/api/health") == {"ok": True}
    for asker in askers:
        asker.join(150)
    assert sorted(r["table"] for r in results) == sorted([first["table"], second["table"]])
