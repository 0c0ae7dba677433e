"""The text board and the SVG picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import render
from ordonnance.errors import OrdonnanceTypeError

from .positions import position

SVG = "{http://www.w3.org/2000/svg}"


def finished() -> bp.Game:
    game = bp.Game.new(bp.Rules(armies=("Burgundian", "Scottish")), seed=12)
    bots = [bp.Greedy(seed=1), bp.Random(seed=2)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    return game


def test_text_board_is_a_grid_of_every_cell() -> None:
    game = position({(2, 0): "Light cavalry 1", (3, 1): "Pikemen 2", (2, 1): "Pikemen 1", (1, 5): "Halberdiers 3"},
                    hands=[["Archers 2"], ["Archers 1"]])  # fmt: skip
    lines = render.board(game).splitlines()
    assert lines[0].startswith("turn 5, player 0 to place") and len(lines) == 7
    grid = lines[2:6]
    assert all(line.count("|") == 7 for line in grid)
    assert "LCav 1" in grid[2] and "Pikemen 1" in grid[2] and "Pikemen 2" in grid[3] and "Halb 3" in grid[1]
    assert render.board(game.view(1)) == render.board(game)  # nothing hidden is drawn
    assert str(game) == render.board(game)
    assert "over:" in render.board(finished()).splitlines()[0]
    assert render.board(game.battlefield).splitlines()[0].startswith("routed")


def test_svg_is_valid_xml_with_a_card_per_unit() -> None:
    game = finished()
    for picture in (render.svg(game), render.svg(game.view(0)), game._repr_svg_(), game.view(1)._repr_svg_()):
        root = ET.fromstring(picture)
        assert root.tag == f"{SVG}svg" and root.get("viewBox") and root.get("width")
        cards = [g for g in root.iter(f"{SVG}g") if "card" in (g.get("class") or "")]
        on_table = sum(game.cell(r, c) is not None for r in range(4) for c in range(6))
        assert len(cards) == on_table
    assert render.svg(game) == render.svg(game.clone())  # the same input, the same text
    with pytest.raises(OrdonnanceTypeError):
        render.svg("a game")  # type: ignore[arg-type]
