"""Text board and SVG: valid XML, escaped names, nothing hidden shown."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from ordonnance.errors import OrdonnanceTypeError
from ordonnance.shinobi import Game, Rules
from ordonnance.shinobi.cards import CLAN_NAMES
from ordonnance.shinobi.render import board, svg


def played(players: int, steps: int, seed: int = 1) -> Game:
    game = Game.new(Rules(players=players), seed=seed)
    rng = random.Random(seed)
    while steps and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        steps -= 1
    return game


@pytest.mark.parametrize("players", [3, 4, 5])
def test_svg_is_valid_xml_for_games_and_views(players: int) -> None:
    for steps in (0, 30, 10_000):
        game = played(players, steps)
        for table in (game, game.view(players - 1)):
            root = ET.fromstring(str(svg(table)))
            assert root.tag.endswith("svg") and root.find("{http://www.w3.org/2000/svg}title") is not None


def test_names_are_escaped() -> None:
    picture = str(svg(played(3, 5), names=["<b>&amp;", 'say "hi"', "ok"]))
    ET.fromstring(picture)
    assert "<b>" not in picture and "&lt;b&gt;&amp;amp;" in picture
    with pytest.raises(OrdonnanceTypeError, match="names must be 3 strings"):
        svg(played(3, 0), names=["a"])
    with pytest.raises(OrdonnanceTypeError, match="shinobi Game or PlayerView"):
        board("table")  # type: ignore[arg-type]


def test_the_board_shows_clans_only_when_it_may() -> None:
    game = played(4, 20)
    text = board(game)
    assert "clan ?" in text and "your hand" not in text and "province 3" in text
    view_text = board(game.view(2))
    assert f"clan {CLAN_NAMES[game.clan(2)]}" in view_text and view_text.count("clan ?") == 3
    assert "your hand" in view_text
    over = played(4, 10_000)
    assert over.is_over and "clan ?" not in board(over) and "game over after" in board(over)
    assert str(over) == board(over) and over._repr_svg_().startswith("<svg")
