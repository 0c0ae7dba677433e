"""A reusable conformance harness: random games with invariants checked at every step.

Like OpenSpiel's random simulation test, :func:`random_playthrough` plays a
game with uniformly random legal actions and calls :func:`check_invariants`
after every step. Use it to test the engine, a custom deck, or a bot
(``policy``) that must only ever choose legal actions::

    >>> from ordonnance import Rules
    >>> from ordonnance.conformance import random_playthrough
    >>> game = random_playthrough(Rules(players=3), seed=1)
    >>> game.is_over
    True
"""

from __future__ import annotations

from collections import Counter

from ordonnance.actions import Action, Claim, Pass, Play
from ordonnance.army import ARMY_SIZE
from ordonnance.core.conformance import ConformanceError as ConformanceError, RandomPlaythrough
from ordonnance.core.conformance import check_copies, check_views, random_playthrough_of, require as _require
from ordonnance.errors import OrdonnanceTypeError
from ordonnance.game import Game
from ordonnance.rules import Rules
from ordonnance.territory import TERRITORY_COUNT, Territory
from ordonnance.view import PlayerView
from ordonnance.core.checks import shown

__all__ = ["ConformanceError", "check_invariants", "random_playthrough"]


def check_invariants(game: Game, *, deep: bool = True) -> None:
    """Check every invariant of a position; raise :class:`ConformanceError` if one fails.

    Always: at most 4 cards in any army, every card of the rules in exactly one
    place, markers 1..k in capture order on exactly the decided territories,
    legal actions consistent with the state. With ``deep``: the JSON round trip
    gives an equal game, a clone is equal and independent, and each view shows
    exactly the public information plus its own hand.
    """
    if not isinstance(game, Game):
        raise OrdonnanceTypeError(f"check_invariants() checks a Game, not {type(game).__name__}: {shown(game)}")
    n = game.players
    places: Counter[int] = Counter(game._deck)
    for p in range(n):
        places.update(c.mask for c in game.hand(p))
    face_up = 0
    for t in Territory:
        for p in range(n):
            army = game.army(t, p)
            _require(len(army) <= ARMY_SIZE, "%s: player %d has %d cards", t.label, p, len(army))
            _require((len(army) == ARMY_SIZE) == (game.completed_at(t, p) is not None),
                     "%s: completion of player %d does not match %d cards", t.label, p, len(army))  # fmt: skip
            places.update(c.mask for c in army)
            face_up += len(army)
    _require(places == Counter(c.mask for c in game.rules.cards), "cards are not each in exactly one place")
    hidden = Counter(game._deck) + Counter(c.mask for p in range(n) for c in game.hand(p))
    _require(Counter(c.mask for c in game.unseen().elements()) == hidden, "unseen cards are not deck plus hands")
    _require(face_up == game.plays, "%d cards face up but %d plays", face_up, game.plays)

    decided = [t for t in Territory if game.is_decided(t)]
    markers = sorted(game.marker(t) or 0 for t in decided)
    _require(markers == list(range(1, len(decided) + 1)), "markers %s for %d territories", markers, len(decided))
    _require(all(game.marker(t) is None for t in Territory if t not in decided), "marker on undecided territory")
    for t in decided:
        owner = game.territory_owner(t)
        assert owner is not None
        _require(game.completed_at(t, owner) is not None, "%s won by an incomplete army", t.label)
    if len(decided) == TERRITORY_COUNT:
        _require(game.is_over, "all territories decided but the game goes on")

    actions = game.legal_actions()
    if game.is_over:
        _require(actions == [], "a finished game offers actions")
    else:
        _require(bool(actions), "player %d is to act but has no legal action", game.current_player)
        _require(len(set(actions)) == len(actions), "duplicate legal actions")
        plays = [a for a in actions if isinstance(a, Play)]
        claims = [a for a in actions if isinstance(a, Claim)]
        _require((Pass() in actions) == (not plays and bool(claims)), "pass offered wrongly")
        p = game.current_player
        hand = game.hand(p)
        for action in plays:
            _require(action.card in hand, "%s plays a card not in hand", action)
            _require(game.is_open(action.territory, p), "%s plays into a closed territory", action)
        for claim in claims:
            _require(game.can_claim(p, claim.territory), "%s offered but not provable", claim)

    if deep:
        check_copies(game)
        check_views(game, _leak_test_seeds, _check_view)


def _check_view(game: Game, view: PlayerView) -> None:
    unseen = Counter({m: c for m, c in enumerate(view.unseen) if c})
    _require(unseen == Counter(c.mask for c in game.unseen(view.seat).elements()), "view's unseen cards")
    _require(view.hand_sizes == tuple(len(game.hand(p)) for p in range(game.players)), "hand sizes")
    _require(view.deck_size == game.deck_size, "deck size")


def _leak_test_seeds(game: Game, seat: int) -> list[int]:
    return [len(game.unseen(seat)) * 7919 + seat]


random_playthrough: RandomPlaythrough[Rules, Game, PlayerView, Action] = random_playthrough_of(
    Game, Rules, PlayerView, Action, check_invariants, module=__name__
)
