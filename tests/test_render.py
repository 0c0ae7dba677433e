"""The SVG pictures: valid XML, sizes, what they show and what they hide."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Card, Rules, Territory, render
from ordonnance.render import SYMBOL_COLORS, SVG

NS = "{http://www.w3.org/2000/svg}"


def _parse(picture: str) -> ET.Element:
    assert isinstance(picture, SVG)
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    assert width > 0 and height > 0
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    return root


def _by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == name]


def _texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{NS}text")]


def _cards_in(element: ET.Element) -> list[str]:
    return [e.attrib["data-card"] for e in element.iter() if e.get("class") == "od-card"]


def _play(game: od.Game, steps: int, seed: int = 0) -> od.Game:
    bots = [od.bots.Random(seed=seed + p) for p in range(game.players)]
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    return game


def _finished(players: int = 2, seed: int = 3) -> od.Game:
    return _play(od.Game.new(Rules(players=players), seed=seed), 10_000, seed)


# --- cards ---------------------------------------------------------------------------


@pytest.mark.parametrize("mask", range(1, 32))
def test_every_card_is_valid_svg_with_its_symbols_and_only_those(mask: int) -> None:
    card = Card.from_mask(mask)
    picture = render.card(card)
    root = _parse(picture)
    assert (root.attrib["width"], root.attrib["height"]) == ("60", "90")
    assert _cards_in(root) == [str(card)]
    texts = _texts(root)
    assert str(card) in texts
    for symbol, color in SYMBOL_COLORS.items():
        assert (symbol.letter in texts) == (symbol in card)
        assert (color in picture) == (symbol in card)


def test_the_five_symbols_have_five_different_colours_and_shapes() -> None:
    assert len(set(SYMBOL_COLORS.values())) == 5
    shapes = {render._ICONS[s] for s in od.Symbol}
    assert len(shapes) == 5


def test_card_accepts_cards_masks_and_letters_and_scales() -> None:
    assert render.card("hs") == render.card(12) == render.card(Card.parse("SH"))
    root = _parse(render.card("F", size=40))
    assert (root.attrib["width"], root.attrib["height"]) == ("40", "60")
    with pytest.raises(od.InvalidCardError):
        render.card("X")
    with pytest.raises(ValueError, match="size"):
        render.card("F", size=0)
    with pytest.raises(TypeError, match="size"):
        render.card("F", size="big")  # type: ignore[arg-type]


# --- armies --------------------------------------------------------------------------


def test_army_shows_every_card_in_order_and_the_describe_line() -> None:
    cards = ["SH", "SH", "LS", "S"]
    root = _parse(render.army(cards))
    assert _cards_in(root) == cards
    assert str(od.describe(od.army_key(cards))) in _texts(root)


def test_army_of_no_card_and_too_many_cards() -> None:
    root = _parse(render.army([]))
    assert _cards_in(root) == [] and "no formation" in _texts(root)
    with pytest.raises(od.InvalidArmyError):
        render.army(["L"] * 5)


def test_army_is_wide_enough_for_its_cards() -> None:
    for n in range(5):
        root = _parse(render.army(["LBSHF"] * n, size=50, gap=10))
        assert float(root.attrib["width"]) >= n * 50 + max(0, n - 1) * 10


# --- the table -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("steps", [0, 7, 25, 10_000])
def test_table_shows_every_army_owner_marker_score_and_turn(players: int, steps: int) -> None:
    game = _play(od.Game.new(Rules(players=players), seed=players), steps, seed=steps)
    root = _parse(render.svg(game))
    texts = _texts(root)
    territories = _by_class(root, "od-territory")
    assert [e.attrib["data-territory"] for e in territories] == [t.label for t in Territory]
    for element, t in zip(territories, Territory):
        owner = game.territory_owner(t)
        if owner is None:
            assert "data-owner" not in element.attrib and "undecided" in _texts(element)
        else:
            assert element.attrib["data-owner"] == str(owner)
            assert element.attrib["data-marker"] == str(game.marker(t))
            assert f"won by Player {owner}" in _texts(element)
            assert f"victory marker {game.marker(t)}" in _texts(element)
    armies = _by_class(root, "od-army")
    assert len(armies) == 5 * players
    for element in armies:
        t = Territory[element.attrib["data-territory"].upper()]
        seat = int(element.attrib["data-seat"])
        assert _cards_in(element) == [str(c) for c in game.army(t, seat)]
    heads = _by_class(root, "od-player")
    assert [int(e.attrib["data-score"]) for e in heads] == list(game.scores)
    assert f"deck: {game.deck_size} cards" in texts
    if game.is_over:
        winner = game.winner
        status = "game over: " + ("a draw" if winner is None else f"Player {winner} wins")
    else:
        status = f"Player {game.current_player} to act"
    assert f"{players} players · {status}" in texts


def test_territories_are_rows_in_table_order() -> None:
    root = _parse(render.svg(_finished()))
    tops = []
    for element in _by_class(root, "od-territory"):
        rect = element.find(f"{NS}rect")
        assert rect is not None
        tops.append(float(rect.attrib["y"]))
    assert tops == sorted(tops) and len(set(tops)) == 5


def test_game_hands_are_hidden_by_default_and_shown_on_request() -> None:
    game = _play(od.Game.new(Rules(players=3), seed=5), 9)
    hidden = _parse(render.svg(game))
    for hand in _by_class(hidden, "od-hand"):
        seat = int(hand.attrib["data-seat"])
        assert hand.attrib["data-hidden"] == "true"
        assert _cards_in(hand) == []
        assert len(_by_class(hand, "od-card-back")) == len(game.hand(seat))
    shown = _parse(render.svg(game, hands=True))
    for hand in _by_class(shown, "od-hand"):
        seat = int(hand.attrib["data-seat"])
        assert hand.attrib["data-hidden"] == "false"
        assert _cards_in(hand) == [str(c) for c in game.hand(seat)]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_view_shows_its_own_hand_only(seat: int) -> None:
    game = _play(od.Game.new(Rules(players=3), seed=8), 11)
    root = _parse(render.svg(game.view(seat)))
    for hand in _by_class(root, "od-hand"):
        p = int(hand.attrib["data-seat"])
        if p == seat:
            assert _cards_in(hand) == [str(c) for c in game.hand(seat)]
        else:
            assert _cards_in(hand) == []
            assert len(_by_class(hand, "od-card-back")) == len(game.hand(p))
    assert f"Player {seat} (you)" in _texts(root)
    with pytest.raises(ValueError, match="hands"):
        render.svg(game.view(seat), hands=True)


def test_a_view_picture_depends_on_nothing_hidden() -> None:
    deck = list(od.standard_deck())
    game = od.Game.new(Rules(), deck=deck)
    # Swap a card of player 1's hand with a different one deep in the deck:
    # player 0 sees exactly the same table, so the same picture.
    other_deck = deck[:]
    j = next(i for i in range(20, len(deck)) if deck[i] != deck[1])
    other_deck[1], other_deck[j] = other_deck[j], other_deck[1]
    other = od.Game.new(Rules(), deck=other_deck)
    assert game.hand(1) != other.hand(1)
    assert render.svg(game.view(0)) == render.svg(other.view(0))
    assert render.svg(game) == render.svg(other)
    assert render.svg(game, hands=True) != render.svg(other, hands=True)


def test_names_are_escaped() -> None:
    names = ["<Bob & 'Al'>", 'Zoë "Z"']
    picture = render.svg(od.Game.new(Rules(), seed=1), names=names)
    assert "<Bob" not in picture
    texts = _texts(_parse(picture))
    assert "<Bob & 'Al'> · to act" in texts and 'Zoë "Z"' in texts
    with pytest.raises(ValueError, match="one name per player"):
        render.svg(od.Game.new(Rules(), seed=1), names=["only one"])


def test_output_is_deterministic() -> None:
    game = _play(od.Game.new(Rules(players=4), seed=11), 30)
    copy = od.Game.from_json(game.to_json())
    assert render.svg(game) == render.svg(game) == render.svg(copy)
    assert render.svg(game.view(2)) == render.svg(copy.view(2))
    assert render.army(game.army(Territory.EDESSA, 1)) == render.army(copy.army(Territory.EDESSA, 1))
    # No float noise: every number is short.
    for value in _numbers(render.svg(game, hands=True, size=37)):
        assert len(value.split(".")[-1]) <= 2 or "." not in value


def _numbers(picture: str) -> list[str]:
    root = ET.fromstring(picture)
    out = []
    for element in root.iter():
        for name in ("x", "y", "width", "height"):
            if name in element.attrib:
                out.append(element.attrib[name])
    return out


def test_table_size_follows_card_size_and_player_count() -> None:
    game = od.Game.new(Rules(), seed=2)
    small = _parse(render.svg(game, size=30))
    large = _parse(render.svg(game, size=60))
    assert float(small.attrib["width"]) < float(large.attrib["width"])
    assert float(small.attrib["height"]) < float(large.attrib["height"])
    four = _parse(render.svg(od.Game.new(Rules(players=4), seed=2)))
    assert float(four.attrib["width"]) > float(_parse(render.svg(game)).attrib["width"])


def test_svg_refuses_other_objects() -> None:
    with pytest.raises(TypeError, match="Game or a PlayerView"):
        render.svg("not a game")  # type: ignore[arg-type]


def test_points_scoring_shows_points() -> None:
    game = _play(od.Game.new(Rules(scoring="points"), seed=4), 10_000)
    assert game.is_over
    texts = _texts(_parse(render.svg(game)))
    for score in game.scores:
        assert f"{score} {'point' if score == 1 else 'points'}" in texts


def test_notebook_hooks() -> None:
    card = Card.parse("LB")
    game = od.Game.new(Rules(), seed=3)
    assert render.card_repr_svg(card) == render.card(card)
    assert render.game_repr_svg(game) == render.svg(game)
    assert render.view_repr_svg(game.view(1)) == render.svg(game.view(1))
    picture = render.svg(game)
    assert picture._repr_svg_() == str(picture) and type(picture._repr_svg_()) is str


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=2, max_size=2))
def test_any_name_gives_valid_xml_or_a_clear_refusal(names: list[str]) -> None:
    """Every text a user may pass: escaped into valid XML (that encodes), or refused
    with the bad character shown (control characters, lone surrogates)."""
    game = od.Game.new(Rules(), seed=1)
    try:
        picture = render.svg(game, names=names)
    except od.InvalidArgumentError as error:
        assert "control character or lone surrogate" in str(error) or "at most 200" in str(error)
        assert any(ch in str(error) or repr(ch)[1:-1] in str(error) for name in names for ch in name)
        return
    picture.encode("utf-8")  # no lone surrogate
    root = ET.fromstring(picture)
    texts = "".join(root.itertext())
    for name in names:
        assert name.strip() == "" or name in texts


@pytest.mark.parametrize("bad", ["a\x00", "b\x1b[31m", "\ud800", "\udfff", "x\ufffe", "\x7f", "\x85"])
def test_names_with_characters_xml_cannot_hold_are_refused(bad: str) -> None:
    with pytest.raises(od.InvalidArgumentError, match="control character or lone surrogate"):
        render.svg(od.Game.new(Rules(), seed=1), names=[bad, "b"])


# --------------------------------------------------------------------- text boards, in every game


def _positions(game: str, players: int, seed: int) -> list[object]:
    """Every 7th position of a random game of ``game`` (a copy each), and the last."""
    import random

    from ordonnance.core import registry

    package = registry.package(game)
    rules = package.Rules() if game == "black-prince" else package.Rules(players=players)
    position = package.Game.new(rules, seed=seed)
    rng = random.Random(seed)
    kept = []
    while not position.is_over:
        if len(position.history) % 7 == 0:
            kept.append(package.Game.from_json(position.to_json()))
        position.apply(rng.choice(list(position.legal_actions())))
    return kept + [position]


def _board(game: str):  # type: ignore[no-untyped-def]
    import importlib

    from ordonnance.core import registry

    return importlib.import_module(registry.info(game).package + ".render").board


BOARDS = [("ordonnance", p) for p in (2, 3, 4)] + [("shinobi", p) for p in (3, 4, 5)] + [("black-prince", 2)]


@pytest.mark.parametrize(("game", "players"), BOARDS, ids=[f"{g}-{p}" for g, p in BOARDS])
def test_text_boards_fit_80_columns_at_every_position_for_the_game_and_each_seat(game: str, players: int) -> None:
    board = _board(game)
    widest = 0
    for seed in range(2):
        for position in _positions(game, players, seed):
            tables = [position] + [position.view(seat) for seat in range(players)]  # type: ignore[attr-defined]
            for table in tables:
                text = board(table)
                assert text == board(table, width=80) and all(len(line) <= 80 for line in text.splitlines()), text
                widest = max(widest, max(map(len, board(table, width=None).splitlines())))
            assert str(position) == board(position)
    if (game, players) != ("ordonnance", 2):  # two players of Ordonnance fit 80 columns even unlimited
        assert widest > 80  # so the test saw boards that had to be narrowed


@pytest.mark.parametrize(("game", "players"), BOARDS, ids=[f"{g}-{p}" for g, p in BOARDS])
def test_narrower_boards_keep_every_army(game: str, players: int) -> None:
    board = _board(game)
    position = _positions(game, players, 3)[-1]
    wide, narrow = board(position, width=None), board(position, width=60)
    most = 62 if game == "black-prince" else 60  # the grid's six cells of 8 characters at the least
    assert all(len(line) <= most for line in narrow.splitlines()), narrow
    if game == "ordonnance":
        words = lambda text: sorted(w for w in text.split() if w.isalpha() and w.isupper())  # noqa: E731  (the cards)
        assert words(wide) == words(narrow)
    elif game == "shinobi":
        assert " ".join(wide.split()) == " ".join(narrow.split())  # the same words, lines broken elsewhere
    else:
        assert [line.count("|") for line in wide.splitlines()] == [line.count("|") for line in narrow.splitlines()]


def test_ordonnance_boards_of_two_players_keep_their_columns() -> None:
    game = _play(od.Game.new(Rules(), seed=4), 20)
    lines = render.board(game).splitlines()
    assert lines[0] == f"{'':<10}{'player 0':<22}{'player 1':<22}won by"
    for territory, line in zip(Territory, lines[1:6]):
        cards = [" ".join(map(str, game.army(territory, p))) or "-" for p in range(2)]
        assert line.startswith(f"{territory.label:<10}{cards[0]}") and line[32:].startswith(cards[1])


def test_a_view_board_shows_its_hand_and_marks_its_seat() -> None:
    from ordonnance.text import board, details

    game = _play(od.Game.new(Rules(players=3), seed=8), 15)
    view = game.view(1)
    text = board(view)
    assert "player 1 (you)" in text and text.splitlines()[-1] == "your hand: " + "  ".join(map(str, game.hand(1)))
    assert "your hand" not in board(game) and "(you)" not in board(game)
    for seat in (0, 2):  # another seat's view: the same table, its own hand
        assert board(game.view(seat)).splitlines()[-1] == "your hand: " + "  ".join(map(str, game.hand(seat)))
    full = details(view)
    for territory in Territory:
        assert f"{territory.label}: " in full
    assert all(len(line) <= 80 for line in full.splitlines())
    assert "your hand" not in details(game)


@pytest.mark.parametrize(("width", "error"), [(39, od.errors.InvalidArgumentError), ("80", od.errors.OrdonnanceTypeError)])
def test_boards_refuse_a_bad_width(width: object, error: type[Exception]) -> None:
    from ordonnance.black_prince import Game as BlackPrince
    from ordonnance.black_prince.render import board as black_prince_board
    from ordonnance.shinobi import Game as Shinobi
    from ordonnance.shinobi.render import board as shinobi_board
    from ordonnance.text import board

    for draw, position in ((board, od.Game.new(Rules(), seed=1)), (shinobi_board, Shinobi.new(seed=1)),
                           (black_prince_board, BlackPrince.new(seed=1))):  # fmt: skip
        with pytest.raises(error):
            draw(position, width=width)  # type: ignore[operator]
