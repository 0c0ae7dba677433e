"""A reusable conformance harness for the Shinobi engine: random games, checked.

:func:`random_playthrough` plays games with random legal actions and calls
:func:`check_invariants` after every step: every troop card is in exactly one
place (deck, a hand, a province, the discard pile), the hands, orders and the
final round are consistent, the legal actions are well-formed and each one
applies, and (``deep=True``) JSON, clones and every seat's view are exact,
and the views leak nothing (re-dealing every hidden card and clan leaves them
unchanged). Like :mod:`ordonnance.conformance`, it is meant to be reused by
anything that wraps or reimplements the rules.

>>> from ordonnance.shinobi import Rules
>>> from ordonnance.shinobi.conformance import random_playthrough
>>> random_playthrough(Rules(players=3), seed=1, deep=False).is_over
True
"""

from __future__ import annotations

import random
from collections import Counter

from ordonnance.core import checks
from ordonnance.core.conformance import ConformanceError, RandomPlaythrough, check_copies, check_views
from ordonnance.core.conformance import random_playthrough_of, require as _require
from ordonnance.errors import OrdonnanceTypeError
from ordonnance.shinobi.actions import Action, Pass
from ordonnance.shinobi.cards import CLANS
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rules import HAND_SIZE, Rules
from ordonnance.shinobi.view import PlayerView

__all__ = ["ConformanceError", "check_invariants", "random_playthrough", "redeal_hidden"]


def check_invariants(game: Game, *, deep: bool = True) -> None:
    """Raise :class:`~ordonnance.conformance.ConformanceError` if ``game`` breaks an invariant
    (``game`` a shinobi :class:`~ordonnance.shinobi.Game`, ``deep`` a bool)."""
    _check_game(game)
    deep = checks.flag(deep, "deep")
    n = game.players
    _check_cards(game)
    _require(sorted(game._clan_order) == list(range(CLANS)), "clan cards %s", game._clan_order)
    _require(not game.final_round or game.deck_size == 0, "final round before the deck is empty")
    if game.final_round and not game.is_over:
        _require(1 <= (game.extra_turns_left or 0) <= n, "extra turns left %r", game.extra_turns_left)
    for seat in range(n):
        size = len(game.hand(seat))
        _require(size <= HAND_SIZE, "player %d holds %d cards", seat, size)
        if not game.final_round and seat != game.current_player:
            _require(size == HAND_SIZE, "player %d holds %d cards while the deck lasts", seat, size)
    if game.is_over:
        _require(game.legal_actions() == [], "a finished game offers actions")
        _require(bool(game.winners), "a finished game without winners")
        _require(game.winner == (game.winners[0] if len(game.winners) == 1 else None), "winner and winners")
    else:
        _check_actions(game, apply_each=deep)
    if deep:
        check_copies(game)
        check_views(game, _leak_test_seeds, _check_view)


def _check_cards(game: Game) -> None:
    places: Counter[int] = Counter(game._deck)
    for seat in range(game.players):
        places.update(card.code for card in game.hand(seat))
        for clan, size in enumerate(game.province(seat)):
            _require(size >= 0, "province %d has %d cards of clan %d", seat, size, clan)
            places[clan] += size
    for code, count in enumerate(game.discard):
        places[code] += count
    _require(+places == Counter(game.rules.troop_deck), "troop cards are not each in exactly one place")


def _check_actions(game: Game, *, apply_each: bool) -> None:
    actions = game.legal_actions()
    _require(bool(actions), "player %d is to act but has no legal action", game.current_player)
    codes = [action.code for action in actions]
    _require(codes == sorted(set(codes)), "legal actions not distinct and in code order")
    _require(1 <= game.order <= 3, "order %d", game.order)
    if Pass() in actions:
        _require(game.rules.optional_attack and len(actions) > 1, "pass offered wrongly")
    for action in actions if apply_each else ():
        clone = game.clone()
        clone.apply(action)
        _check_cards(clone)


def _check_view(game: Game, view: PlayerView) -> None:
    seat = view.seat
    _require(view.clan == game.clan(seat), "view shows the wrong clan")
    _require(view.provinces == tuple(game.province(q) for q in range(game.players)), "view's provinces")
    _require(view.deck_size == game.deck_size and view.discard == game.discard, "view's deck or discard")
    unseen = Counter(game._deck) + Counter(c.code for q in range(game.players) if q != seat for c in game.hand(q))
    _require(view.unseen() == tuple(unseen[code] for code in range(CLANS + 1)), "view's unseen cards")


def _leak_test_seeds(game: Game, seat: int) -> list[int]:
    """The seeds of the games :func:`redeal_hidden` deals (``random.Random(...).getrandbits(64)``)."""
    salts = () if game.is_over else range(2)
    return [random.Random(salt * 7919 + seat + 31 * game.turns).getrandbits(64) for salt in salts]


def redeal_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A game that ``seat`` cannot tell from ``game``: everything it cannot see dealt
    again at random (the other seats' clans from the clans not ``seat``'s, the cards of
    the deck and of the other hands, keeping every hand's size), through the engine's
    own :meth:`PlayerView.sample_game` with a seed drawn from ``rng``. Its history starts
    at that position (:meth:`Game.root`): use it to compare views, or to play on."""
    _check_game(game)
    if not isinstance(rng, random.Random):
        raise OrdonnanceTypeError(f"rng must be a random.Random, got {checks.shown(rng)}")
    return game.view(seat).sample_game(rng.getrandbits(64))


def _check_game(game: object) -> None:
    if not isinstance(game, Game):
        raise OrdonnanceTypeError(f"game must be a shinobi Game, got {checks.shown(game)}")


random_playthrough: RandomPlaythrough[Rules, Game, PlayerView, Action] = random_playthrough_of(
    Game, Rules, PlayerView, Action, check_invariants, module=__name__
)
