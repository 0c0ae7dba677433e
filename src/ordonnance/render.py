"""SVG pictures of cards, armies and the whole table, in pure Python.

Like ``chess.svg`` for python-chess: every function returns the SVG text of
one picture as an :class:`SVG` (a ``str`` whose ``_repr_svg_`` makes Jupyter
show it inline). Nothing outside the standard library is used, the output
is valid XML with ``width``, ``height`` and ``viewBox`` set, every text is
escaped, and the same input always gives the same text. :func:`board` is the
table as plain text (:func:`ordonnance.text.board`), as every game's ``render`` has it.

>>> import xml.etree.ElementTree as ET
>>> import ordonnance as od
>>> from ordonnance import render
>>> picture = render.card(od.Card.parse("SH"))
>>> ET.fromstring(picture).get("width"), ET.fromstring(picture).get("height")
('60', '90')
>>> table = render.svg(od.Game.new(od.Rules(), seed=7))
>>> ET.fromstring(table).tag
'{http://www.w3.org/2000/svg}svg'

Each symbol has its own shape and colour, in the same place on every card
(weakest at the top), so regiments line up across an army:

=======  =========================  =========
Symbol   Shape                      Colour
=======  =========================  =========
Lance    spear                      green
Bow      bow and string             orange
Sword    sword                      blue
Helmet   helmet                     purple
Banner   flag on a pole             red
=======  =========================  =========
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs
import numpy as np

from ordonnance.core.svg import SVG, document as _document, num as _num, rect as _rect, text as _text
from ordonnance.army import ARMY_SIZE, ArmyDescription, army_key, describe
from ordonnance.cards import Card, CardLike, Symbol, to_mask
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.territory import Territory
from ordonnance.text import board
from ordonnance.view import PlayerView
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from ordonnance.game import Game

__all__ = [
    "SVG",
    "SYMBOL_COLORS",
    "board",
    "card",
    "army",
    "svg",
    "card_repr_svg",
    "game_repr_svg",
    "view_repr_svg",
]


#: The colour of each symbol on a card, as CSS hex colours.
SYMBOL_COLORS: dict[Symbol, str] = {
    Symbol.LANCE: "#2e7d32",
    Symbol.BOW: "#e65100",
    Symbol.SWORD: "#1565c0",
    Symbol.HELMET: "#6a1b9a",
    Symbol.BANNER: "#c62828",
}

# Card geometry in card units: a card is 60 wide and 90 high, then scaled.
_CARD_W = 60.0
_CARD_H = 90.0
_ROW_TOP = 22.0
_ROW_STEP = 13.0
_INK = "#3e2723"
_PAPER = "#fffdf5"
_MUTED = "#6d6d6d"
_GOLD = "#d4a017"
_GOLD_DARK = "#8a6d0b"
_HIGHLIGHT = "#fff4cc"
_TURN = "#e3f2fd"
_TURN_DARK = "#1565c0"

# Each icon in a 12 x 12 box; ``{c}`` is the symbol's colour.
_ICONS: dict[Symbol, str] = {
    # a spear: shaft and head
    Symbol.LANCE: (
        '<rect x="5.3" y="3.5" width="1.4" height="8.5" fill="{c}"/>'
        '<path d="M6 0 L8.6 4.2 L3.4 4.2 Z" fill="{c}"/>'
    ),
    # a bow: curved limb and a string
    Symbol.BOW: (
        '<path d="M3 0.8 Q12 6 3 11.2" fill="none" stroke="{c}" stroke-width="1.8"/>'
        '<path d="M3 0.8 L3 11.2" stroke="{c}" stroke-width="0.7"/>'
    ),
    # a sword: blade, cross-guard and grip
    Symbol.SWORD: (
        '<path d="M6 0 L7.3 2 L7.3 7.8 L4.7 7.8 L4.7 2 Z" fill="{c}"/>'
        '<rect x="2.6" y="7.8" width="6.8" height="1.4" fill="{c}"/>'
        '<rect x="5.3" y="9.2" width="1.4" height="2.8" fill="{c}"/>'
    ),
    # a helmet: dome, brim and a visor slit
    Symbol.HELMET: (
        '<path d="M1.2 8.5 A4.8 4.8 0 0 1 10.8 8.5 L10.8 11.5 L1.2 11.5 Z" fill="{c}"/>'
        '<rect x="2.8" y="7.6" width="6.4" height="1.1" fill="#ffffff"/>'
    ),
    # a banner: pole and a swallow-tailed flag
    Symbol.BANNER: (
        '<rect x="1.5" y="0.3" width="1.3" height="11.7" fill="{c}"/>'
        '<path d="M2.8 0.8 L11.4 0.8 L8.6 3.6 L11.4 6.4 L2.8 6.4 Z" fill="{c}"/>'
    ),
}


# ----------------------------------------------------------------------- helpers


def _text_width(text: str, font_size: float) -> float:
    """A generous estimate of a text's width in a sans-serif font."""
    return 0.62 * font_size * len(text)


def _to_card(card: CardLike) -> Card:
    return Card.from_mask(to_mask(card))


def _check_size(size: float, name: str = "size", low: float = 8) -> float:
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, float, np.integer, np.floating)):
        raise OrdonnanceTypeError(f"{name} must be a number of pixels, not {type(size).__name__}: {shown(size)}")
    if not low <= size <= 1000:
        raise InvalidArgumentError(f"{name} must be in {low:g}..1000 pixels, got {shown(size)}")
    return float(size)


# What XML 1.0 cannot hold (C0 controls but tab and newlines, surrogates, U+FFFE/U+FFFF),
# and the other control characters, which no name needs.
_UNWRITABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _score_text(score: int, scoring: str) -> str:
    if scoring == "territories":
        return f"{score} {'territory' if score == 1 else 'territories'}"
    return f"{score} {'point' if score == 1 else 'points'}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ----------------------------------------------------------------------- cards


def _card_group(card: Card, x: float, y: float, width: float) -> str:
    """One card face up, its top-left corner at (x, y), ``width`` pixels wide."""
    parts = [
        f'<g class="od-card" data-card="{card}" '
        f'transform="translate({_num(x)} {_num(y)}) scale({_num(width / _CARD_W)})">',
        _rect(1, 1, _CARD_W - 2, _CARD_H - 2, fill=_PAPER, stroke=_INK, stroke_width=1.5, rx=6),
        _text(_CARD_W / 2, 15, str(card), size=12, anchor="middle", weight="bold"),
        f'<path d="M8 18.5 L52 18.5" stroke="{_INK}" stroke-width="0.6" opacity="0.5"/>',
    ]
    for symbol in card.symbols:
        top = _ROW_TOP + _ROW_STEP * int(symbol)
        color = SYMBOL_COLORS[symbol]
        parts.append(
            f'<g transform="translate(13 {_num(top)})">{_ICONS[symbol].format(c=color)}</g>'
        )
        parts.append(_text(36, top + 10, symbol.letter, size=11, fill=color, weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _back_group(x: float, y: float, width: float) -> str:
    """One card face down."""
    return (
        f'<g class="od-card-back" '
        f'transform="translate({_num(x)} {_num(y)}) scale({_num(width / _CARD_W)})">'
        + _rect(1, 1, _CARD_W - 2, _CARD_H - 2, fill="#7b2d26", stroke="#4a1a16", stroke_width=1.5, rx=6)
        + _rect(6, 6, _CARD_W - 12, _CARD_H - 12, fill="none", stroke="#e0c080", stroke_width=1, rx=3)
        + '<path d="M30 24 L42 45 L30 66 L18 45 Z" fill="#e0c080" opacity="0.8"/>'
        + "</g>"
    )


def _slot_group(x: float, y: float, width: float) -> str:
    """An empty place for a card still to come."""
    scale = width / _CARD_W
    slot = _rect(
        x + scale, y + scale, width - 2 * scale, width * _CARD_H / _CARD_W - 2 * scale,
        fill="none", stroke="#bdbdbd", stroke_width=1, rx=6 * scale, dash="4 3",
    )  # fmt: skip
    return slot.replace("<rect ", '<rect class="od-slot" ', 1)


def card(card: CardLike, size: float = 60) -> SVG:
    """The SVG of one card, ``size`` pixels wide (and 1.5 times as high).

    ``card`` is a :class:`~ordonnance.Card`, a mask or letters. The card's
    letters are written at the top; below, each symbol is drawn in its own
    row (Lance at the top, Banner at the bottom) with its shape and colour.

    >>> from ordonnance import render
    >>> picture = render.card("LSF", size=40)
    >>> picture.startswith("<svg") and 'width="40" height="60"' in picture
    True
    """
    c = _to_card(card)
    width = _check_size(size)
    height = width * _CARD_H / _CARD_W
    return _document(width, height, f"card {c}", [_card_group(c, 0, 0, width)])


def army(cards: Iterable[CardLike], size: float = 60, gap: float = 6) -> SVG:
    """The SVG of an army: its cards side by side and its formations underneath.

    ``cards`` holds 0..4 cards (Cards, masks or letters); the line underneath
    is ``str(describe(army_key(cards)))``.

    >>> from ordonnance import render
    >>> picture = render.army(["SH", "SH", "LS", "S"])
    >>> "1 regiment (Sword), 1 company (Helmet)" in picture
    True
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise OrdonnanceTypeError(f"an army is an iterable of cards, not {type(cards).__name__}: {shown(cards)}")
    hand = [_to_card(c) for c in cards]
    line = str(describe(army_key(hand)))
    width = _check_size(size)
    gap = _check_size(gap, "gap", 0)
    height = width * _CARD_H / _CARD_W
    margin = 6.0
    font = max(9.0, width / 5)
    cards_w = len(hand) * width + max(0, len(hand) - 1) * gap
    total_w = max(cards_w, _text_width(line, font)) + 2 * margin
    left = (total_w - cards_w) / 2
    body = ['<g class="od-army">']
    body += [_card_group(c, left + i * (width + gap), margin, width) for i, c in enumerate(hand)]
    body.append("</g>")
    text_y = margin + height + font * 1.3
    body.append(_text(total_w / 2, text_y, line, size=font, anchor="middle"))
    title = f"army {' '.join(map(str, hand)) or '(empty)'}: {line}"
    return _document(total_w, text_y + font * 0.6 + margin, title, body)


_card_svg = card


# ----------------------------------------------------------------------- the table


@attrs.frozen
class _Table:
    """What the table picture shows, from a Game or a PlayerView."""

    players: int
    scoring: str
    armies: tuple[tuple[tuple[Card, ...], ...], ...]
    completed_at: tuple[tuple[int | None, ...], ...]
    owners: tuple[int | None, ...]
    markers: tuple[int | None, ...]
    scores: tuple[int, ...]
    current: int
    is_over: bool
    winner: int | None
    deck_size: int
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]  # None: face down
    viewer: int | None


def _table_of_view(view: PlayerView) -> _Table:
    n = view.rules.players
    return _Table(
        players=n,
        scoring=view.rules.scoring,
        armies=view.armies,
        completed_at=view.completed_at,
        owners=view.owners,
        markers=view.markers,
        scores=view.scores,
        current=view.current_player,
        is_over=view.is_over,
        winner=view.winner,
        deck_size=view.deck_size,
        hand_sizes=view.hand_sizes,
        hands=tuple(view.hand if p == view.seat else None for p in range(n)),
        viewer=view.seat,
    )


def _table_of_game(game: Game, hands: bool) -> _Table:
    n = game.players
    territories = list(Territory)
    return _Table(
        players=n,
        scoring=game.rules.scoring,
        armies=tuple(tuple(game.army(t, p) for p in range(n)) for t in territories),
        completed_at=tuple(tuple(game.completed_at(t, p) for p in range(n)) for t in territories),
        owners=tuple(game.territory_owner(t) for t in territories),
        markers=tuple(game.marker(t) for t in territories),
        scores=game.scores,
        current=game.current_player,
        is_over=game.is_over,
        winner=game.winner,
        deck_size=game.deck_size,
        hand_sizes=tuple(len(game.hand(p)) for p in range(n)),
        hands=tuple(game.hand(p) if hands else None for p in range(n)),
        viewer=None,
    )


def _names(names: Sequence[str] | None, players: int) -> list[str]:
    if names is None:
        return [f"Player {p}" for p in range(players)]
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise OrdonnanceTypeError(f"names must be a list of {players} names, not {type(names).__name__}: {shown(names)}")
    if len(names) != players:
        raise InvalidArgumentError(f"names must list one name per player ({players}), got {shown(names)}")
    for name in names:
        if not isinstance(name, str):
            raise OrdonnanceTypeError(f"a player name must be a str, not {type(name).__name__}: {shown(name)}")
        bad = _UNWRITABLE.search(name)
        if bad is not None:
            raise InvalidArgumentError(
                f"a player name cannot hold the control character or lone surrogate {shown(bad.group())}: {shown(name)}"
            )
        if len(name) > 200:
            raise InvalidArgumentError(f"a player name is at most 200 characters, got {len(name)}: {shown(name[:40])}...")
    return list(names)


def _status(table: _Table, names: Sequence[str]) -> str:
    if table.is_over:
        return "game over: " + ("a draw" if table.winner is None else f"{names[table.winner]} wins")
    return f"{names[table.current]} to act"


def svg(
    game: Game | PlayerView,
    *,
    hands: bool = False,
    size: float = 48,
    names: Sequence[str] | None = None,
) -> SVG:
    """The SVG of the whole table: a :class:`~ordonnance.Game` or a :class:`~ordonnance.PlayerView`.

    One row per territory in table order, with its name, its owner and
    victory marker, then one column per player with that player's army there
    (empty places dashed), its formations and when it was completed. The
    header says whose turn it is (or who won), the deck size and the scores;
    the footer shows each player's hand.

    Hands are hidden (face down, so only their sizes show) unless ``hands``
    is true for a Game. A PlayerView shows only its own hand, never the
    others' (``hands=True`` is refused for a view). ``size`` is the width of
    one card in pixels; ``names`` gives one display name per seat.

    >>> import ordonnance as od
    >>> from ordonnance import render
    >>> game = od.Game.new(od.Rules(), seed=7)
    >>> game.apply(game.legal_actions()[0])
    >>> picture = render.svg(game)
    >>> "Antioch" in picture and "Player 1 to act" in picture and "deck: 44 cards" in picture
    True
    >>> render.svg(game.view(1)) == render.svg(game.view(1))
    True
    """
    from ordonnance.game import Game

    if not isinstance(hands, bool):
        raise OrdonnanceTypeError(f"hands must be True or False, got {shown(hands)}")
    if isinstance(game, PlayerView):
        if hands:
            raise InvalidArgumentError("a PlayerView cannot show the other players' hands; use hands=False, got hands=True")
        table = _table_of_view(game)
    elif isinstance(game, Game):
        table = _table_of_game(game, bool(hands))
    else:
        raise OrdonnanceTypeError(
            f"svg() draws a Game or a PlayerView, not {type(game).__name__}: {shown(game)}"
        )
    return _draw_table(table, _names(names, table.players), _check_size(size))


def _formation_lines(cards: Sequence[Card], width: float, font: float) -> list[str]:
    """The army's formations as lines that fit ``width``, one tier per piece."""
    if not cards:
        return ["no cards"]
    desc = describe(army_key(cards))
    tiers = [
        ArmyDescription(regiments=desc.regiments, battalions=(), companies=()),
        ArmyDescription(regiments=(), battalions=desc.battalions, companies=()),
        ArmyDescription(regiments=(), battalions=(), companies=desc.companies),
    ]
    tier_symbols = (desc.regiments, desc.battalions, desc.companies)
    pieces = [str(tier) for tier, symbols in zip(tiers, tier_symbols) if symbols]
    if not pieces:
        return [str(desc)]
    lines: list[str] = []
    for piece in pieces:
        joined = f"{lines[-1]}, {piece}" if lines else piece
        if _text_width(joined, font) <= width:
            lines[-1:] = [joined]
            continue
        if lines:
            lines[-1] += ","
        if _text_width(piece, font) <= width:
            lines.append(piece)
        else:  # "4 companies (Banner, Helmet, Sword, Lance)" on two lines
            count, names = piece.split(" (", 1)
            lines.extend([count, f"({names}"])
    return lines


def _draw_table(table: _Table, names: list[str], cw: float) -> SVG:
    n = table.players
    ch = cw * _CARD_H / _CARD_W
    gap = max(2.0, cw / 12)
    pad = 8.0
    margin = 12.0
    small = max(8.0, cw / 5)
    line_h = small * 1.35
    army_w = ARMY_SIZE * cw + (ARMY_SIZE - 1) * gap
    col_w = army_w + 2 * pad
    label_w = max(150.0, 3.2 * cw)
    header_h = 58.0
    colhead_h = 40.0
    players_w = n * col_w
    width = 2 * margin + label_w + players_w
    left = margin + label_w

    formations = [
        [_formation_lines(table.armies[t][p], col_w - 8, small) for p in range(n)] for t in Territory
    ]
    row_h = [pad + ch + (1 + max(len(f) for f in formations[t])) * line_h + pad for t in Territory]
    per_line = max(1, int((players_w - 2 * pad + gap) // (cw + gap)))
    hand_lines = [max(1, -(-table.hand_sizes[p] // per_line)) for p in range(n)]
    hand_row_h = [pad + lines * ch + (lines - 1) * gap + pad + small for lines in hand_lines]
    table_top = margin + header_h
    rows_top = table_top + colhead_h
    hands_top = rows_top + sum(row_h) + 10
    height = hands_top + small * 1.6 + sum(hand_row_h) + margin
    body: list[str] = [_rect(0, 0, width, height, fill="#f4efe3")]

    # -- header: title, whose turn, deck
    status = _status(table, names)
    body.append(_text(margin, margin + 18, "Ordonnance", size=20, weight="bold"))
    who = "" if table.viewer is None else f" (as seen by {names[table.viewer]})"
    body.append(_text(margin, margin + 40, f"{n} players · {status}{who}", size=13))
    deck_w = cw * 0.55
    deck_x = width - margin - deck_w
    body.append(_back_group(deck_x, margin, deck_w))
    body.append(_text(deck_x - 8, margin + 24, f"deck: {table.deck_size} cards", size=12, anchor="end"))

    # -- column headers: names, scores, whose turn
    for p in range(n):
        x = left + p * col_w
        active = not table.is_over and table.current == p
        won = table.is_over and table.winner == p
        body.append(f'<g class="od-player" data-seat="{p}" data-score="{table.scores[p]}">')
        fill = _TURN if active else _HIGHLIGHT if won else "#ffffff"
        stroke = _TURN_DARK if active else _GOLD if won else "#d7ccc8"
        body.append(_rect(x + 2, table_top, col_w - 4, colhead_h - 6, fill=fill, stroke=stroke, rx=5))
        tag = " · to act" if active else " · winner" if won else ""
        heading = names[p] + tag
        body.append(_text(x + col_w / 2, table_top + 15, heading, size=12, anchor="middle", weight="bold"))
        score = _score_text(table.scores[p], table.scoring)
        body.append(_text(x + col_w / 2, table_top + 29, score, size=10, anchor="middle", fill=_MUTED))
        body.append("</g>")

    # -- one row per territory: name, owner, marker, then every army
    y = rows_top
    for t in Territory:
        h = row_h[t]
        owner = table.owners[t]
        marker = table.markers[t]
        decided = "" if owner is None else f' data-owner="{owner}" data-marker="{marker}"'
        body.append(f'<g class="od-territory" data-territory="{t.label}"{decided}>')
        body.append(_rect(margin, y + 2, width - 2 * margin, h - 4, fill="#ffffff", stroke="#d7ccc8", rx=6))
        body.append(_text(margin + 10, y + 24, t.label, size=15, weight="bold"))
        if owner is None:
            body.append(_text(margin + 10, y + 44, "undecided", size=11, fill=_MUTED))
        else:
            body.append(_text(margin + 10, y + 44, f"won by {names[owner]}", size=11))
            cx, cy = margin + 24, y + 68
            body.append(
                f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="13" fill="{_GOLD}" '
                f'stroke="{_GOLD_DARK}" stroke-width="2"/>'
            )
            body.append(_text(cx, cy + 5, str(marker), size=14, anchor="middle", weight="bold"))
            body.append(_text(cx + 20, cy + 4, f"victory marker {marker}", size=10, fill=_MUTED))
        done = table.completed_at[t]
        finished = sorted(d for d in done if d is not None)
        for p in range(n):
            x = left + p * col_w
            cards = table.armies[t][p]
            body.append(f'<g class="od-army" data-territory="{t.label}" data-seat="{p}">')
            if owner == p:
                body.append(
                    _rect(x + 3, y + 5, col_w - 6, h - 10, fill=_HIGHLIGHT, stroke=_GOLD, stroke_width=2, rx=5)
                )
            for i in range(ARMY_SIZE):
                cx = x + pad + i * (cw + gap)
                if i < len(cards):
                    body.append(_card_group(cards[i], cx, y + pad, cw))
                elif owner is None:
                    body.append(_slot_group(cx, y + pad, cw))
            text_y = y + pad + ch + small * 1.3
            for line in formations[t][p]:
                body.append(_text(x + col_w / 2, text_y, line, size=small, anchor="middle"))
                text_y += line_h
            d = done[p]
            if d is not None:
                state = f"complete ({_ordinal(finished.index(d) + 1)})"
            else:
                state = f"{len(cards)} of {ARMY_SIZE} cards"
            body.append(_text(x + col_w / 2, text_y, state, size=small * 0.9, anchor="middle", fill=_MUTED))
            body.append("</g>")
        body.append("</g>")
        y += h

    # -- hands: face up when visible, else face down
    body.append(_text(margin, hands_top + small * 1.1, "Hands", size=small * 1.2, weight="bold"))
    y = hands_top + small * 1.6
    for p in range(n):
        h = hand_row_h[p]
        body.append(_rect(margin, y + 2, width - 2 * margin, h - 4, fill="#ffffff", stroke="#d7ccc8", rx=6))
        visible = table.hands[p]
        count = table.hand_sizes[p]
        hidden = "true" if visible is None else "false"
        body.append(f'<g class="od-hand" data-seat="{p}" data-hidden="{hidden}">')
        label = names[p] + ("" if p != table.viewer else " (you)")
        body.append(_text(margin + 10, y + 24, label, size=13, weight="bold"))
        counted = f"{count} {'card' if count == 1 else 'cards'}" + ("" if visible is not None else ", hidden")
        body.append(_text(margin + 10, y + 42, counted, size=11, fill=_MUTED))
        for i in range(count):
            row, col = divmod(i, per_line)
            cx = left + pad + col * (cw + gap)
            cy = y + pad + row * (ch + gap)
            if visible is not None:
                body.append(_card_group(visible[i], cx, cy, cw))
            else:
                body.append(_back_group(cx, cy, cw))
        body.append("</g>")
        y += h

    title = f"Ordonnance table, {n} players: {status}"
    return _document(width, height, title, body)



# ----------------------------------------------------------------------- notebook hooks


def card_repr_svg(card: Card) -> str:
    """The picture for ``Card._repr_svg_`` (Jupyter): :func:`card` at its default size."""
    return str(_card_svg(card))


def game_repr_svg(game: Game) -> str:
    """The picture for ``Game._repr_svg_`` (Jupyter): :func:`svg` with hands hidden."""
    return str(svg(game))


def view_repr_svg(view: PlayerView) -> str:
    """The picture for ``PlayerView._repr_svg_`` (Jupyter): :func:`svg` of the view."""
    return str(svg(view))
