"""Hand-made Black Prince positions, set up through ``Game._from_position``.

A position names only the cards a test cares about; every other card of a
seat's deck stays in that deck (canonical order). Such a position keeps every
invariant of a position alone (``check="consistent"``), not how turns, hands and
the seed's deal follow from play: a test sets up the table it needs at any turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ordonnance import black_prince as bp


#: Every type at every strength twice, and 4 Battle cards: room for any hand-made position.
EVERYTHING = tuple(bp.Card(t, s) for t in bp.TroopType for s in (1, 2, 3) for _ in range(2)) + (bp.BATTLE,) * 4
#: The rules of hand-made positions: both seats play EVERYTHING.
TEST_RULES = bp.Rules(armies=("Blue", "Red"), decks=(EVERYTHING, EVERYTHING))


def position(
    cells: Mapping[tuple[int, int], str],
    *,
    hands: Sequence[Sequence[str]] = ((), ()),
    discards: Sequence[Sequence[str]] = ((), ()),
    decks: Sequence[Sequence[str] | None] = (None, None),
    current: int = 0,
    phase: str = "place",
    turn: int = 5,
    seed: int = 1,
    rules: bp.Rules | None = None,
    battle: Mapping[str, Any] | None = None,
) -> bp.Game:
    """A game with ``cells[(row, column)]`` (card texts), the given hands and discard piles.

    In the ``"choose"`` and ``"battle"`` steps (after the draw) the current
    player's hand is filled up from the top of its deck. A deck left as None holds the rest of the seat's cards (canonical order,
    so the top card is the last of that order); ``battle`` sets the battle
    flags ``attacked``, ``moved``, ``contact`` (lists of columns) and ``fought``.
    """
    rules = TEST_RULES if rules is None else rules
    grid: list[list[Any]] = [[None] * 6 for _ in range(4)]
    for (row, column), text in cells.items():
        grid[row][column] = text
    out_decks = []
    out_hands = [list(h) for h in hands]
    for seat in (0, 1):
        used: Counter[bp.Card] = Counter(bp.Card.parse(t) for t in [*hands[seat], *discards[seat]])
        for (row, _), text in cells.items():
            if bp.board.owner(row) == seat:
                used[bp.Card.parse(text)] += 1
        given = decks[seat]
        if given is None:
            rest = Counter(rules.deck(seat)) - used
            deck: list[Any] = [c for c in rules.deck(seat) for _ in range(rest.pop(c, 0))][::-1]
            if seat == current and phase in ("choose", "battle"):
                # these steps come after the draw: fill the hand from the top of the deck
                short = max(0, (6 if phase == "choose" else 5) - len(out_hands[seat]))
                out_hands[seat] += deck[:short]
                deck = deck[short:]
            out_decks.append(deck)
        else:
            out_decks.append(list(given))
    flags = dict(battle or {})

    def cards(texts: Sequence[str | bp.Card]) -> list[bp.Card]:
        return [text if isinstance(text, bp.Card) else bp.Card.parse(text) for text in texts]

    return bp.Game._from_position(
        rules,
        seed=seed,
        rng=seed,
        decks=[cards(deck) for deck in out_decks],
        hands=[cards(hand) for hand in out_hands],
        cells=[[None if text is None else bp.Card.parse(text) for text in row] for row in grid],
        discards=[cards(pile) for pile in discards],
        current_player=current,
        phase=phase,
        turn=turn,
        attacked=[c in flags.get("attacked", ()) for c in range(6)],
        moved=[c in flags.get("moved", ()) for c in range(6)],
        contact=[c in flags.get("contact", ()) for c in range(6)],
        fought=bool(flags.get("fought", False)),
        check="consistent",
    )


def seat_cards(game: bp.Game, seat: int) -> Counter[bp.Card]:
    """Every card of ``seat`` wherever it is (deck, hand, table, discard)."""
    cards = Counter(game._decks[seat]) + Counter(game.hand(seat)) + Counter(game.discard(seat))
    for row in (bp.front_row(seat), bp.back_row(seat)):
        cards.update(c for c in (game.cell(row, col) for col in range(6)) if c is not None)
    return cards
