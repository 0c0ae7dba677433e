"""The docs' figure of the battlefield is the picture of the tutorial's position, drawn by the code."""

from __future__ import annotations

import pathlib
import xml.etree.ElementTree as ET

from ordonnance import black_prince as bp
from ordonnance.black_prince.render import svg

DOCS = pathlib.Path(__file__).parents[2] / "docs"
TUTORIAL = DOCS / "black_prince_tutorial.rst"
RULES_PAGE = DOCS / "black_prince_rules.rst"
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


def fight_position() -> bp.Battlefield:
    """The rules page's fight: double line and archer support against knights."""
    field = bp.Battlefield.empty(bp.Rules())
    for square, card in [((2, 1), bp.Card("Pikemen", 2)), ((3, 1), bp.Card("Pikemen", 1)),
                         ((2, 2), bp.Card("Archers", 1)), ((1, 1), bp.Card("Knights", 3))]:  # fmt: skip
        field = field.with_card(square, card)
    return field


def figure_in_docs(page: pathlib.Path = TUTORIAL) -> str:
    text = page.read_text(encoding="utf-8")
    start = text.index(MARK) + len(MARK)
    return text[start:].splitlines()[0].strip()


def test_the_rules_page_figure_is_up_to_date() -> None:
    picture = svg(fight_position(), title="A fight with supports")
    assert figure_in_docs(RULES_PAGE) == picture
    assert bp.fight((2, 1), (1, 1), fight_position()).attacker.total == 5  # as the page says


def test_the_tutorial_figure_is_up_to_date() -> None:
    picture = svg(tutorial_position(), title="The tutorial's position")
    ET.fromstring(picture)
    assert figure_in_docs() == picture, "regenerate: python tests/black_prince/test_docs.py"


if __name__ == "__main__":  # rewrite the figures in the docs
    for page, picture in ((TUTORIAL, svg(tutorial_position(), title="The tutorial's position")),
                          (RULES_PAGE, svg(fight_position(), title="A fight with supports"))):  # fmt: skip
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("   " + figure_in_docs(page), "   " + str(picture)), encoding="utf-8")
