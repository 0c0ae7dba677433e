"""The docs' figure of the battlefield is the picture of the tutorial's position, drawn by the code."""

from __future__ import annotations

import pathlib
import xml.etree.ElementTree as ET

from ordonnance import black_prince as bp
from ordonnance.black_prince.render import svg

TUTORIAL = pathlib.Path(__file__).parents[2] / "docs" / "black_prince_tutorial.rst"
MARK = ".. raw:: html\n\n"


def tutorial_position() -> bp.Game:
    """The position the tutorial reaches (its doctests check every step)."""
    game = bp.Game.new(bp.Rules(armies=("English", "French")), seed=7)
    game.apply(bp.Place(bp.Card("Archers", 3), 2))
    game.apply(bp.EndTurn())
    bots = [bp.Greedy(seed=1), bp.Greedy(seed=2)]
    while game.front_count() < 4 or game.phase != "place":
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    return game


def figure_in_docs() -> str:
    text = TUTORIAL.read_text(encoding="utf-8")
    start = text.index(MARK) + len(MARK)
    return text[start:].splitlines()[0].strip()


def test_the_tutorial_figure_is_up_to_date() -> None:
    picture = svg(tutorial_position(), title="The tutorial's position")
    ET.fromstring(picture)
    assert figure_in_docs() == picture, "regenerate: python tests/black_prince/test_docs.py"


if __name__ == "__main__":  # rewrite the figure in the tutorial
    text = TUTORIAL.read_text(encoding="utf-8")
    old = figure_in_docs()
    picture = str(svg(tutorial_position(), title="The tutorial's position"))
    TUTORIAL.write_text(text.replace("   " + old, "   " + picture) if old else text, encoding="utf-8")
