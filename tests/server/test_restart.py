"""A server stopped and started again on the same file: every unfinished game resumes exactly where
it was, its bots included."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("fastapi")

from ordonnance import client  # noqa: E402
from ordonnance.core import registry  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import SeatPlayer, check_bots_decided, positions  # noqa: E402


def test_every_unfinished_table_resumes_after_a_restart(fresh_server: ServerProcess) -> None:
    fresh_server.start()
    server = client.Client(fresh_server.url)
    # A person with two bots, stopped while the person is to act, after a few moves.
    waiting = server.create_table("shinobi", ["human", "greedy", "random"], {"players": 3})
    seat = server.join(waiting["id"], 0, "Ada")
    bot = registry.package("shinobi").bots.Random(seed=5)
    module = registry.package("shinobi")
    with server.connect(seat.table, seat.token) as socket:
        for state in socket.states():
            if state["legal_actions"]:
                if state["ply"] >= 6:
                    before = state
                    break
                view = module.PlayerView.from_json(json.dumps(state["view"]))
                socket.move(state["ply"], json.loads(module.action_to_json(bot.choose(view))))
    # Bots alone, stopped while they play: a search bot thinks a fifth of a second a decision.
    thinking = server.create_table("ordonnance", [{"kind": "montecarlo", "time_limit": 0.2}, "random"])
    # A table still waiting for a person.
    open_table = server.create_table("black-prince", ["human", "greedy"])
    # A person connected through the restart, against a search bot: the client connects again.
    through = server.create_table("black-prince", ["human", {"kind": "montecarlo", "time_limit": 0.1}])
    connected = SeatPlayer(server, server.join(through["id"], 0, "Cy"), registry.package("black-prince").bots.Greedy(seed=3))
    connected.start()
    deadline = time.monotonic() + 60  # the worker's first search loads its kernels
    while (in_play := server.table(thinking["id"]))["ply"] < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert in_play["status"] == "playing" and in_play["ply"] >= 2
    assert server.table(through["id"])["status"] == "playing"

    fresh_server.stop()
    fresh_server.start()
    server = client.Client(fresh_server.url)

    with server.connect(seat.table, seat.token) as socket:
        assert socket.receive() == before  # exactly the state it was left in
    assert server.table(open_table["id"])["status"] == "open"
    final = list(server.spectate(thinking["id"]))[-1]
    module_o, games = positions(final)
    assert games[-1].is_over and len(games) - 1 >= in_play["ply"]
    assert check_bots_decided(final, ("random",)) > 0  # the Random bot's seat, across the restart
    player = SeatPlayer(server, seat, bot)
    player.start()
    final = player.result()
    _, games = positions(final)
    assert games[-1].is_over
    assert check_bots_decided(final) > 0  # Greedy and Random resumed exactly where they were
    late = server.join(open_table["id"], 0, "Bob")
    final = server.play(late, registry.package("black-prince").bots.Random(seed=1))
    assert positions(final)[1][-1].is_over
    final = connected.result()
    assert positions(final)[1][-1].is_over
    assert server.table(through["id"])["status"] == "finished"
    log = fresh_server.log.read_text()
    assert "WebSocket /ws/tables/" in log and "token=<hidden>" in log  # connections are logged at info ...
    assert seat.token not in log and late.token not in log  # ... their tokens never
    assert "Traceback" not in log
