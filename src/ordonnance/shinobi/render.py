"""Pictures of a Shinobi table: plain text for terminals, SVG for notebooks and docs.

Both show what is public (every province's armies, the discard pile, the deck
and hand sizes) and, for a :class:`~ordonnance.shinobi.PlayerView`, that seat's
own clan and hand; every clan only once the game is over.

>>> from ordonnance import shinobi
>>> from ordonnance.shinobi.render import board, svg
>>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=7)
>>> game.apply(game.legal_actions()[0])
>>> print(board(game))
Shinobi, 3 players: turn 1, player 0 to give order 2 (reinforce or move)
province 0       clan ?        hand 3  (empty)
province 1       clan ?        hand 4  Go-Hojo 1*
province 2       clan ?        hand 4  (empty)
deck 46; discard: none; * changed this turn
>>> svg(game).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.core import checks
from ordonnance.core.svg import SVG, document as _document, rect as _rect, text as _text
from ordonnance.core.terminal import WIDTH, check_width, fit
from ordonnance.shinobi.cards import CLAN_NAMES, CLANS, NINJA
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.view import PlayerView

__all__ = ["board", "svg", "CLAN_COLOURS"]

#: A colour for each clan, for the SVG picture.
CLAN_COLOURS = ("#2b6cb0", "#2f855a", "#c53030", "#b7791f", "#6b46c1")
_ORDERS = {1: "deploy or ninja", 2: "reinforce or move", 3: "attack"}
_INK = "#1a202c"
_PAPER = "#f7fafc"

Table = Union[Game, PlayerView]


def _public(table: Table) -> tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[bool, ...], ...], tuple[int | None, ...]]:
    """Players, provinces, change marks and the clans this picture may show."""
    if isinstance(table, PlayerView):
        return table.players, table.provinces, table.changed, table.clans
    if isinstance(table, Game):
        n = table.players
        clans = tuple(table.clan(p) if table.is_over else None for p in range(n))
        changed = tuple(tuple(table.changed(p, c) for c in range(CLANS)) for p in range(n))
        return n, tuple(table.province(p) for p in range(n)), changed, clans
    raise OrdonnanceTypeError(f"a picture is of a shinobi Game or PlayerView, not {checks.shown(table)}")


def _status(table: Table) -> str:
    if table.is_over:
        winners = table.winners
        who = f"player {winners[0]} wins" if len(winners) == 1 else "players " + ", ".join(map(str, winners)) + " share the win"
        return f"game over after {table.turns} turns: {who}"
    final = "" if table.extra_turns_left is None else f" (final round: {table.extra_turns_left} turns left)"
    return (f"turn {table.turns + 1}, player {table.current_player} to give order {table.order} "
            f"({_ORDERS[table.order]}){final}")  # fmt: skip


def _hand_sizes(table: Table) -> tuple[int, ...]:
    if isinstance(table, PlayerView):
        return table.hand_sizes
    return tuple(len(table.hand(p)) for p in range(table.players))


def board(table: Table, *, width: int | None = WIDTH) -> str:
    """The table as text: one line per province (``*`` marks an army changed this turn).

    Lines fit ``width`` columns (None: no limit): a province's armies go on
    under themselves, a long status or discard line goes on indented.
    """
    n, provinces, changed, clans = _public(table)
    width = check_width(width)
    own = table.seat if isinstance(table, PlayerView) else None
    sizes = _hand_sizes(table)
    lines = [fit(f"Shinobi, {n} players: {_status(table)}", width)]
    for p in range(n):
        clan = "?" if clans[p] is None else CLAN_NAMES[clans[p]]  # type: ignore[index]
        armies = "  ".join(f"{CLAN_NAMES[c]} {provinces[p][c]}{'*' if changed[p][c] else ''}"
                           for c in range(CLANS) if provinces[p][c]) or "(empty)"  # fmt: skip
        name = f"province {p}" + (" (you)" if p == own else "")
        head = f"{name:<17}clan {clan:<9}hand {sizes[p]}  "
        lines.append(fit(head + armies, width, len(head)))
    discard = table.discard
    piles = ", ".join(f"{CLAN_NAMES[c]} {discard[c]}" for c in range(CLANS) if discard[c])
    if discard[NINJA]:
        piles = ", ".join(filter(None, [piles, f"Ninja {discard[NINJA]}"]))
    lines.append(fit(f"deck {table.deck_size}; discard: {piles or 'none'}; * changed this turn", width))
    if isinstance(table, PlayerView):
        lines.append(fit("your hand: " + (", ".join(card.name for card in table.hand) or "(empty)"), width))
    return "\n".join(lines)


def _labels(names: object, n: int) -> list[str]:
    """``names`` as ``n`` printable strings (NumPy strings too), else the library's error."""
    listed: list[object]
    try:
        listed = checks.bounded(names, "names", n)  # type: ignore[arg-type]
    except InvalidArgumentError:
        listed = []
    if len(listed) != n:
        raise OrdonnanceTypeError(f"names must be {n} strings, one per seat, got {checks.shown(names)}")
    return [checks.text(name, f"names[{p}]", printable=True) for p, name in enumerate(listed)]


def svg(table: Table, *, names: Sequence[str] | None = None) -> SVG:
    """The table as an SVG picture: a column of cards per army, one box per province.

    ``names`` labels the seats (default ``player 0``...): one printable string per seat (a
    control character, which XML cannot hold, is refused); they are escaped.
    """
    n, provinces, changed, clans = _public(table)
    if names is None:
        labels = [f"player {p}" for p in range(n)]
    else:
        labels = _labels(names, n)
    box_w, box_h, card_w, card_h, step = 190.0, 210.0, 30.0, 18.0, 7.0
    width, top = 20 + n * (box_w + 12), 48.0
    body = [_rect(0, 0, width, top + box_h + 70, fill=_PAPER)]
    body.append(_text(14, 26, f"Shinobi: {_status(table)}", size=15, weight="bold"))
    for p in range(n):
        x = 14 + p * (box_w + 12)
        body.append(f'<g class="sh-province" data-province="{p}">')
        body.append(_rect(x, top, box_w, box_h, fill="#ffffff", stroke=_INK, rx=8))
        clan = "" if clans[p] is None else f" ({CLAN_NAMES[clans[p]]})"  # type: ignore[index]
        body.append(_text(x + 10, top + 20, f"{labels[p]}{clan}", size=12, weight="bold"))
        for c in range(CLANS):
            cx = x + 10 + c * (card_w + 6)
            body.append(f'<g class="sh-army" data-province="{p}" data-clan="{CLAN_NAMES[c]}">')
            for k in range(min(provinces[p][c], 20)):
                y = top + box_h - 16 - card_h - k * step
                body.append(_rect(cx, y, card_w, card_h, fill=CLAN_COLOURS[c], stroke="#ffffff", rx=3))
            if provinces[p][c]:
                mark = "*" if changed[p][c] else ""
                body.append(_text(cx + card_w / 2, top + box_h - 4, f"{provinces[p][c]}{mark}", size=11, anchor="middle"))
            body.append("</g>")
        body.append("</g>")
    legend_y = top + box_h + 24
    for c in range(CLANS):
        lx = 14 + c * 120
        body.append(_rect(lx, legend_y - 11, 12, 12, fill=CLAN_COLOURS[c]))
        body.append(_text(lx + 17, legend_y, f"{CLAN_NAMES[c]} (out {table.discard[c]})", size=11))
    foot = f"deck {table.deck_size}, ninjas out {table.discard[NINJA]}; * changed this turn"
    if isinstance(table, PlayerView):
        foot += f"; your clan {CLAN_NAMES[table.clan]}, hand: " + (", ".join(c.name for c in table.hand) or "empty")
    body.append(_text(14, legend_y + 26, foot, size=11))
    return _document(width, top + box_h + 70, f"Shinobi: {_status(table)}", body)
