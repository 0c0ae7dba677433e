"""The games' pictures name their parts for the pages (data- attributes), without drawing anything else."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ordonnance import black_prince as bp
from ordonnance import shinobi
from ordonnance.black_prince import render as bp_render
from ordonnance.shinobi import render as shinobi_render
from ordonnance.shinobi.cards import CLAN_NAMES

SVG = "{http://www.w3.org/2000/svg}"


def test_shinobi_names_each_province_and_army() -> None:
    game = shinobi.Game.new(shinobi.Rules(players=3), seed=5)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    root = ET.fromstring(shinobi_render.svg(game.view(1)))
    provinces = [g.get("data-province") for g in root.iter(f"{SVG}g") if g.get("class") == "sh-province"]
    assert provinces == ["0", "1", "2"]
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "sh-army":
            province, clan = int(g.get("data-province", "")), g.get("data-clan")
            assert clan in CLAN_NAMES
            cards = len([r for r in g.iter(f"{SVG}rect")])
            assert cards == min(game.province(province)[CLAN_NAMES.index(clan)], 20)


def test_black_prince_names_each_cell_and_card() -> None:
    game = bp.Game.new(bp.Rules(), seed=7)
    for _ in range(8):
        game.apply(game.legal_actions()[0])
    picture = bp_render.svg(game.view(0))
    root = ET.fromstring(picture)
    cells = [(int(g.get("data-row", "")), int(g.get("data-column", ""))) for g in root.iter(f"{SVG}g")
             if g.get("class") == "bp-cell"]  # fmt: skip
    assert sorted(cells) == [(r, c) for r in range(4) for c in range(6)]
    named = sorted(g.get("data-card", "") for g in root.iter(f"{SVG}g") if g.get("data-card"))
    on_field = sorted(str(game.cell(r, c)) for r in range(4) for c in range(6) if game.cell(r, c) is not None)
    assert named == on_field and named


def test_the_groups_that_name_parts_draw_nothing() -> None:
    """The groups added for the pages carry a class and data- attributes only (no transform, fill or
    stroke): the pictures look as they did."""
    game = bp.Game.new(bp.Rules(), seed=7)
    game.apply(game.legal_actions()[0])
    sgame = shinobi.Game.new(shinobi.Rules(players=4), seed=7)
    sgame.apply(sgame.legal_actions()[0])
    checked = 0
    for picture in (bp_render.svg(game), shinobi_render.svg(sgame)):
        for g in ET.fromstring(picture).iter(f"{SVG}g"):
            if any(key.startswith("data-") for key in g.attrib) and g.get("class") != "od-card":
                assert all(key == "class" or key.startswith("data-") for key in g.attrib), g.attrib
                checked += 1
            elif g.get("data-card") is not None:  # Black Prince's card groups: the one attribute added
                assert set(g.attrib) == {"class", "data-card"}
    assert checked >= 24 + 4
