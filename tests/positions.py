"""Hand-made game positions, built as JSON and loaded through ``Game.from_json``.

Only the territories a test cares about are spelled out; every other territory
is filled with decided armies of filler cards (face up, so they never enter a
claim's pool), and the rules' deck is exactly the cards placed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import ordonnance as od
from ordonnance.serialization import _load

from . import naive

FILLER = ("L", "B", "S", "H")
PAD = "L"


def position(
    armies: Mapping[int, Sequence[str]],
    *,
    hands: Sequence[str],
    deck: str = "",
    completed: Sequence[tuple[int, int]] = (),
    current: int = 0,
    owners: Mapping[int, int] | None = None,
    **rules: Any,
) -> od.Game:
    """A game with ``armies[t][p]`` (space-separated cards), hands and deck (top first).

    The position is consistent (every card in one place, decisions that fit
    the armies) but not necessarily reachable by play, so it is loaded past
    the reachability rules of ``Game.from_json``.

    When the cards placed are fewer than the rules' 20 per player, Lances
    fill the bottom of the deck. ``completed`` lists (territory, seat) of the complete armies in the order
    they were completed; complete armies missing from it follow in table and
    seat order. ``owners`` marks territories among ``armies`` already decided
    (markers follow the filler territories' in table order).
    """
    players = len(hands)
    table: list[list[list[str]]] = []
    order: list[tuple[int, int]] = []
    filler_ts = [t for t in range(5) if t not in armies]
    for t in range(5):
        if t in armies:
            table.append([a.split() for a in armies[t]])
        else:
            table.append([list(FILLER) for _ in range(players)])
            order.extend((t, p) for p in range(players))
    for t, p in completed:
        order.append((t, p))
    for t in armies:
        for p in range(players):
            if len(table[t][p]) == 4 and (t, p) not in order:
                order.append((t, p))
    completed_at = [[None] * players for _ in range(5)]
    for i, (t, p) in enumerate(order):
        completed_at[t][p] = i
    own: list[int | None] = [None] * 5
    markers: list[int | None] = [None] * 5
    decided = [(t, _filler_winner(table[t], completed_at[t])) for t in filler_ts]
    decided += sorted((owners or {}).items())
    for marker, (t, p) in enumerate(decided, start=1):
        own[t], markers[t] = p, marker
    hand_cards = [h.split() for h in hands]
    deck_cards = deck.split()
    placed = [c for h in hand_cards for c in h] + [c for row in table for a in row for c in a]
    # The rules want 20 cards per player: pad the bottom of the deck with Lances.
    deck_cards += [PAD] * max(0, 20 * players - len(placed) - len(deck_cards))
    everything = deck_cards + placed
    data = {
        "format": "ordonnance.game",
        "version": 1,
        "rules": od.Rules(players=players, deck=sorted(everything), **rules).to_dict(),
        "seed": None,
        "rng_state": None,
        "deck": deck_cards,
        "hands": hand_cards,
        "armies": table,
        "completed_at": completed_at,
        "owners": own,
        "markers": markers,
        "plays": sum(len(a) for row in table for a in row),
        "current_player": current,
        "over": all(o is not None for o in own),
    }
    return _load(json.dumps(data), reachable=False)


def _filler_winner(armies: list[list[str]], completed_at: list[int | None]) -> int:
    masks = [[od.Card.parse(c).mask for c in a] for a in armies]
    return naive.ranking(masks, completed_at)[0]
