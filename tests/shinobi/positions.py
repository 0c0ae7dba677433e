"""Hand-made Shinobi positions, for the rule tests.

:func:`position` builds a game through the engine's checked constructor of
positions (``Game._from_position``): the table, the hands and the deck are set
as given, at the start of ``current``'s turn, and the game then skips the
orders without a choice as the engine does. The rules' troop deck is exactly
the cards placed (``discard`` pads it when the hands are small). Such a game's
history starts there.

:func:`dealt` builds a real deal instead: the deck order that gives each seat
the hand wanted and then draws ``draws`` in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ordonnance.shinobi import CLANS, Game, Rules
from ordonnance.shinobi.cards import NINJA

Hand = Sequence[int]  # card codes: a clan 0..4, or NINJA (5)


def position(
    provinces: Sequence[Sequence[int]],
    hands: Sequence[Hand],
    *,
    clans: Sequence[int],
    deck: Hand = (),
    discard: Sequence[int] = (0,) * (CLANS + 1),
    current: int = 0,
    extra: int | None = None,
    attack: str = "mandatory",
) -> Game:
    """A game at the start of ``current``'s turn with this table, hands and deck (top first).

    ``extra`` puts the game in its final round with that many turns left.
    """
    players = len(hands)
    counts: Counter[int] = Counter(deck)
    for hand in hands:
        counts.update(hand)
    for row in provinces:
        for clan, size in enumerate(row):
            counts[clan] += size
    for code, count in enumerate(discard):
        counts[code] += count
    rules = Rules(players=players, samurai=tuple(counts[c] for c in range(CLANS)), ninjas=counts[NINJA], attack=attack)  # type: ignore[arg-type]
    return Game._from_position(
        rules, clans=clans, deck=deck, hands=hands, provinces=[list(row) + [0] * (CLANS - len(row)) for row in provinces],
        discard=discard, current_player=current, extra_turns_left=extra,
        turns=0 if extra is None else players - extra,  # the fewest turns that reach this final round
    )  # fmt: skip


def dealt(rules: Rules, clans: Sequence[int], hands: Sequence[Hand], draws: Hand = ()) -> Game:
    """A real deal: seat ``p`` is dealt ``hands[p]`` and works for ``clans[p]``; the deck then
    yields ``draws`` in order, then the rest of the rules' troop cards in code order."""
    n = rules.players
    top = [hands[p][k] for k in range(4) for p in range(n)] + list(draws)
    rest = Counter(rules.troop_deck) - Counter(top)
    return Game.new(rules, deck=top + sorted(rest.elements()), clans=clans)
