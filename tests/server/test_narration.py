"""A state's ``last.detail``: what the game's own narration tells of a move beyond the action, as
``ordonnance play`` tells everyone (a Black Prince fight's totals and their parts)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from ordonnance import black_prince as bp  # noqa: E402
from ordonnance import client  # noqa: E402
from ordonnance.black_prince.cli import describe  # noqa: E402
from ordonnance.core import jsonio  # noqa: E402
from tests.server.conftest import ServerProcess  # noqa: E402


def test_a_black_prince_fight_is_told_with_its_parts(server: ServerProcess) -> None:
    seats = [{"kind": "greedy"}, {"kind": "greedy"}]  # slowed, so the spectator sees every move
    table = client.Client(server.url).request("POST", "/api/tables", {"game": "black-prince", "seats": seats, "bot_delay": 0.05})
    states = list(client.Client(server.url).spectate(table["id"]))
    save = states[-1]["view"]
    game = bp.Game.new(bp.Rules.from_dict(save["rules"]), seed=save["seed"])
    told: dict[int, Any] = {}
    for ply, data in enumerate(save["history"]):
        action = bp.action_from_json(jsonio.dumps(data))
        told[ply] = describe(game, action).removeprefix(str(action)).lstrip(" :") if isinstance(action, bp.Fight) else None
        game.apply(action)
    seen = [state["last"] for state in states if state["last"] is not None]
    assert len(seen) >= len(save["history"]) - 2  # the first moves may come before the spectator
    fights = [last for last in seen if last["action"]["type"] == "fight"]
    assert fights, "no fight was seen"
    for last in seen:
        detail = last["detail"]
        if told[last["ply"]] is None:
            assert detail is None or detail.startswith("breakthrough"), last
        else:
            assert detail is not None and detail.split("; ")[0] == told[last["ply"]], last
            assert " strength" in detail and ("routed" in detail or "nothing happens" in detail)
