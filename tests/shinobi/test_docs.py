"""The docs' figure is what the code draws today."""

from __future__ import annotations

from pathlib import Path

from ordonnance import shinobi
from ordonnance.shinobi.render import svg

FIGURE = Path(__file__).resolve().parents[2] / "docs" / "_static" / "shinobi_table.svg"


def figure() -> str:
    """Seat 0's view after 60 decisions of four Greedy bots on the deal of seed 12."""
    game = shinobi.Game.new(shinobi.Rules(players=4), seed=12)
    players = [shinobi.bots.Greedy(seed=s) for s in range(4)]
    for _ in range(60):
        game.apply(players[game.current_player].choose(game.view(game.current_player)))
    return str(svg(game.view(0), names=["you", "Greedy 1", "Greedy 2", "Greedy 3"]))


def test_the_rules_page_figure_is_current() -> None:
    assert FIGURE.read_text(encoding="utf-8") == figure(), "regenerate docs/_static/shinobi_table.svg with figure()"
