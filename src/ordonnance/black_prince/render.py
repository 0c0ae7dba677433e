"""Pictures of the battlefield: a text grid and an SVG drawing (valid XML, stdlib only).

>>> import xml.etree.ElementTree as ET
>>> from ordonnance.black_prince import Game, Rules, Place
>>> from ordonnance.black_prince import render
>>> game = Game.new(Rules(), seed=7)
>>> game.apply(Place(game.hand(0)[0], 2))
>>> print(render.board(game))
turn 1, player 0 to choose; routed: player 0 0, player 1 0
             0           1           2           3           4           5
1 back |           |           |           |           |           |           |
1 front|           |           |           |           |           |           |
0 front|           |           | Archers 2 |           |           |           |
0 back |           |           |           |           |           |           |
hands 6/6, decks 18/19, discards 0/0
>>> print(render.board(game, width=None).splitlines()[4])  # no limit: 81 columns
0 front |           |           | Archers 2 |           |           |           |
>>> ET.fromstring(render.svg(game)).tag
'{http://www.w3.org/2000/svg}svg'
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ordonnance.black_prince.board import ROWS, owner
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.rules import COLUMNS
from ordonnance.errors import OrdonnanceTypeError
from ordonnance.core.checks import shown
from ordonnance.core.svg import SVG, label
from ordonnance.core.terminal import WIDTH, check_width, fit

__all__ = ["board", "svg", "ROW_NAMES", "SEAT_COLORS", "TYPE_SHORT"]

#: How the text board names rows 0..3.
ROW_NAMES = ("1 back", "1 front", "0 front", "0 back")
#: The fill colour of each seat's cards.
SEAT_COLORS = ("#dbe8f7", "#f7dcdc")
_STROKES = ("#2b5c9e", "#a33131")
#: Short names of the types, for narrow cells.
TYPE_SHORT = {
    "Knights": "Kn", "Cavalry": "Cav", "Light cavalry": "LCav", "Pikemen": "Pike",
    "Spearmen": "Spear", "Swordsmen": "Sword", "Halberdiers": "Halb", "Archers": "Arch",
}  # fmt: skip
_WIDTH = 11


def _status(position: object) -> str:
    phase = getattr(position, "phase", None)
    routed = getattr(position, "routed", (0, 0))
    head = f"routed: player 0 {routed[0]}, player 1 {routed[1]}"
    if phase is None:
        return head
    if phase == "over":
        winner = getattr(position, "winner", None)
        result = "a draw" if winner is None else f"player {winner} wins"
        return f"turn {getattr(position, 'turn', '?')}, over: {result}; {head}"
    return f"turn {getattr(position, 'turn', '?')}, player {getattr(position, 'current_player', '?')} to {phase}; {head}"


def _cell_text(card: Card | None, width: int) -> str:
    if card is None:
        return ""
    text = str(card)
    if len(text) > width and card.type is not None:
        text = f"{TYPE_SHORT[card.type.label]} {card.strength}"
    return text


#: (row label width, cell width) of the grid, widest first: the first that fits a board's width.
_LAYOUTS = ((8, _WIDTH), (7, _WIDTH), (7, 10), (7, 9), (7, 8))


def board(position: object, *, width: int | None = WIDTH) -> str:
    """The battlefield as a text grid (a Game, a PlayerView or a Battlefield), row 0 at the top.

    Games and views add a status line (turn, who decides, routs) and the hand,
    deck and discard counts; nothing hidden is shown. Lines fit ``width``
    columns (None: no limit); below 80 the cells narrow and long names shorten
    (``Halb 3``), down to a grid of 62 columns.
    """
    cell = getattr(position, "cell", None)
    if not callable(cell):
        raise OrdonnanceTypeError(f"board() draws a Game, a PlayerView or a Battlefield, got {shown(position)}")
    width = check_width(width)
    label, size = next(
        (layout for layout in _LAYOUTS if width is None or layout[0] + 1 + COLUMNS * (layout[1] + 1) <= width),
        _LAYOUTS[-1],
    )
    lines = [fit(_status(position), width)]
    lines.append(" " * (label + 1) + "".join(f"{c:^{size}} " for c in range(COLUMNS)).rstrip())
    for r in range(ROWS):
        cells = "|".join(f"{_cell_text(cell(r, c), size - 2):^{size}}" for c in range(COLUMNS))
        lines.append(f"{ROW_NAMES[r]:<{label}}|{cells}|")
    sizes = getattr(position, "hand_sizes", None)
    if sizes is None and hasattr(position, "hand"):
        sizes = (len(position.hand(0)), len(position.hand(1)))
    if sizes is not None:
        decks = getattr(position, "deck_sizes", None)
        if decks is None:
            decks = (position.deck_size(0), position.deck_size(1))  # type: ignore[attr-defined]
        discards = getattr(position, "discards", None)
        if discards is None:
            discards = (position.discard(0), position.discard(1))  # type: ignore[attr-defined]
        lines.append(
            f"hands {sizes[0]}/{sizes[1]}, decks {decks[0]}/{decks[1]}, discards {len(discards[0])}/{len(discards[1])}"
        )
    return "\n".join(lines)


_CW, _CH, _GAP, _LEFT, _TOP = 96, 64, 8, 70, 40


def _svg_card(card: Card, x: int, y: int, seat: int) -> str:
    fill, stroke = SEAT_COLORS[seat], _STROKES[seat]
    assert card.type is not None
    label = card.type.label
    family = "mounted" if card.type.is_mounted else "line" if card.type.is_line else "archers"
    return (
        f'<g class="card {family}" data-card="{escape(str(card))}"><rect x="{x}" y="{y}" width="{_CW}" height="{_CH}" rx="6" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="2"/>'
        f'<text x="{x + _CW // 2}" y="{y + 24}" text-anchor="middle" font-size="13">{escape(label)}</text>'
        f'<text x="{x + _CW // 2}" y="{y + 50}" text-anchor="middle" font-size="22" font-weight="bold" '
        f'fill="{stroke}">{card.strength}</text></g>'
    )


def svg(position: object, *, title: str | None = None) -> SVG:
    """The battlefield as an SVG picture (a Game, a PlayerView or a Battlefield); hands stay hidden.

    ``title`` (default ``"Black Prince battlefield"``) is printable text of at most 200
    characters (:func:`ordonnance.core.svg.label`)."""
    cell = getattr(position, "cell", None)
    if not callable(cell):
        raise OrdonnanceTypeError(f"svg() draws a Game, a PlayerView or a Battlefield, got {shown(position)}")
    title = (None if title is None else label(title, "title")) or "Black Prince battlefield"
    width = _LEFT + COLUMNS * (_CW + _GAP) + _GAP
    height = _TOP + ROWS * (_CH + _GAP) + 16 + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#fbf8f0"/>',
        f'<text x="{_GAP}" y="22" font-size="14">{escape(_status(position))}</text>',
    ]
    front_line_y = _TOP + 2 * (_CH + _GAP) - _GAP // 2
    parts.append(f'<line x1="{_LEFT}" y1="{front_line_y}" x2="{width - _GAP}" y2="{front_line_y}" stroke="#777" '
                 'stroke-dasharray="6 4"/>')  # fmt: skip
    for r in range(ROWS):
        y = _TOP + r * (_CH + _GAP)
        parts.append(f'<text x="{_GAP}" y="{y + _CH // 2 + 5}" font-size="12">{escape(ROW_NAMES[r])}</text>')
        for c in range(COLUMNS):
            x = _LEFT + c * (_CW + _GAP)
            card = cell(r, c)
            parts.append(f'<g class="bp-cell" data-row="{r}" data-column="{c}">')
            if card is None:
                parts.append(f'<rect x="{x}" y="{y}" width="{_CW}" height="{_CH}" rx="6" fill="none" '
                             'stroke="#ccc" stroke-dasharray="4 3"/>')  # fmt: skip
            else:
                parts.append(_svg_card(card, x, y, owner(r)))
            parts.append("</g>")
    y = _TOP + ROWS * (_CH + _GAP) + 12
    for c in range(COLUMNS):
        parts.append(f'<text x="{_LEFT + c * (_CW + _GAP) + _CW // 2}" y="{y}" text-anchor="middle" '
                     f'font-size="11" fill="#555">{c}</text>')  # fmt: skip
    parts.append("</svg>")
    return SVG("".join(parts))

