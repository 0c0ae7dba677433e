"""Every game played to its end on a real server: people (test clients) with a bot, bots alone, a
spectator; every message each connection received checked against what its seat may see."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

pytest.importorskip("fastapi")

from ordonnance import client  # noqa: E402
from ordonnance.core import jsonio, registry  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import check_bots_decided, check_schema, positions  # noqa: E402

#: Each game's rules at its tables here (Shinobi with three seats).
RULES: dict[str, dict[str, Any] | None] = {"ordonnance": None, "shinobi": {"players": 3}, "black-prince": None}


def _players(name: str) -> int:
    module = registry.package(name)
    rules = module.Rules() if RULES[name] is None else module.Rules.from_dict(RULES[name])
    return int(rules.players)


def _play(socket: client.TableSocket, bot: Any) -> None:
    """Play a seat to the end with a library bot, every message kept in ``socket.received``."""
    for state in socket.states():
        if state["legal_actions"]:
            module = registry.package(state["game"])
            view = module.PlayerView.from_json(jsonio.dumps(state["view"]))
            socket.move(state["ply"], json.loads(module.action_to_json(bot.choose(view))))


def _watch(socket: client.TableSocket) -> None:
    for _ in socket.states():
        pass


def _check_received(received: list[dict[str, Any]], seat: int | None, games: list[Any], final: dict[str, Any]) -> None:
    """Each message is the server's schema, and shows exactly what ``seat`` (None: a spectator)
    may see at its ply: the seat's view, the public view, or the whole game once over."""
    assert received, "nothing received"
    for message in received:
        check_schema(message)
        assert message["type"] == "state", message
        assert message["seat"] == seat
        game = games[message["ply"]]
        if message["status"] == "finished":
            assert message["view"] == final["view"] and message["ply"] == len(games) - 1
            continue
        if seat is None:
            assert message["view"] == json.loads(game.public_view_json())
            assert message["legal_actions"] == []
        else:
            view = json.loads(game.view(seat).to_json())
            assert message["view"] == view
            assert message["legal_actions"] == (view["legal_actions"] if message["status"] == "playing" else [])
    assert received[-1]["status"] == "finished"
    assert [m["ply"] for m in received] == sorted(m["ply"] for m in received)


@pytest.mark.parametrize("name", list(RULES))
def test_people_and_a_bot_play_to_the_end_each_seeing_only_its_view(server: ServerProcess, name: str) -> None:
    players = _players(name)
    kinds = ["human"] * (players - 1) + ["greedy"]
    server_client = client.Client(server.url)
    table = server_client.create_table(name, kinds, RULES[name])
    assert table["status"] == "open"
    module = registry.package(name)
    spectator = server_client.connect(table["id"])
    seats = [server_client.join(table["id"], seat, f"Player {seat}") for seat in range(players - 1)]
    sockets = [server_client.connect(seat.table, seat.token) for seat in seats]
    threads = [threading.Thread(target=_play, args=(socket, module.bots.Random(seed=seat)), daemon=True)
               for seat, socket in enumerate(sockets)]  # fmt: skip
    watcher = threading.Thread(target=_watch, args=(spectator,), daemon=True)
    for thread in [*threads, watcher]:
        thread.start()
    for thread in [*threads, watcher]:
        thread.join(120)
        assert not thread.is_alive()
    final = spectator.received[-1]
    _, games = positions(final)
    assert games[-1].is_over and final["ply"] == len(games) - 1 > 0
    for seat, socket in enumerate(sockets):
        _check_received(socket.received, seat, games, final)
        socket.close()
    _check_received(spectator.received, None, games, final)
    spectator.close()
    assert check_bots_decided(final) > 0  # the bot's moves are its own view's, seeded by the table
    assert [seat["name"] for seat in final["seats"]] == [f"Player {seat}" for seat in range(players - 1)] + ["Greedy"]
    assert server_client.table(table["id"])["status"] == "finished"


@pytest.mark.parametrize("name", list(RULES))
def test_bots_alone_play_to_the_end(server: ServerProcess, name: str) -> None:
    players = _players(name)
    kinds = (["random", "greedy"] * players)[:players]
    server_client = client.Client(server.url)
    table = server_client.create_table(name, kinds, RULES[name])
    states = list(server_client.spectate(table["id"]))
    final = states[-1]
    assert final["status"] == "finished"
    _, games = positions(final)
    assert check_bots_decided(final) == len(games) - 1  # every decision a bot's, as seeded


def test_a_montecarlo_bot_with_a_time_limit_takes_a_seat(server: ServerProcess) -> None:
    server_client = client.Client(server.url)
    table = server_client.create_table("ordonnance", [{"kind": "montecarlo", "time_limit": 0.02}, "human"])
    assert table["seats"][0] == {"kind": "montecarlo", "name": "Montecarlo", "taken": True, "time_limit": 0.02}
    seat = server_client.join(table["id"], 1, "Ada")
    final = server_client.play(seat, registry.package("ordonnance").bots.Greedy(seed=1))
    _, games = positions(final)
    assert games[-1].is_over
    assert check_bots_decided(final) == 0  # a time limit is not reproducible: nothing to replay


def test_the_lobby_lists_open_and_played_tables_not_finished_ones(server: ServerProcess) -> None:
    server_client = client.Client(server.url)
    waiting = server_client.create_table("black-prince", ["human", "random"])
    finished = server_client.create_table("black-prince", ["random", "random"])
    list(server_client.spectate(finished["id"]))
    listed = {table["id"]: table for table in server_client.lobby()}
    assert listed[waiting["id"]]["status"] == "open" and finished["id"] not in listed
    games = {game["name"]: game for game in server_client.games()}
    assert list(games) == list(registry.names())
    assert games["shinobi"]["rules"] == registry.package("shinobi").Rules().to_dict()
