"""A reusable conformance harness for Black Prince: random games, invariants at every step.

>>> from ordonnance.black_prince import Rules
>>> from ordonnance.black_prince.conformance import random_playthrough
>>> random_playthrough(Rules(armies=("Scottish", "Burgundian")), seed=1).is_over
True
"""

from __future__ import annotations

from collections import Counter

from ordonnance.black_prince.actions import Action, EndBattle, Fight, MountedMove, Move, Place, PlaceBehind
from ordonnance.black_prince.board import back_row, front_row
from ordonnance.black_prince.game import Game, check_reachable
from ordonnance.black_prince.rules import COLUMNS, Rules
from ordonnance.black_prince.view import PlayerView
from ordonnance.core.conformance import ConformanceError, RandomPlaythrough, check_copies, check_views
from ordonnance.core.conformance import random_playthrough_of, require as _require
from ordonnance.errors import IllegalActionError, InvalidGameStateError

__all__ = ["ConformanceError", "check_invariants", "random_playthrough"]


def check_invariants(game: Game, *, deep: bool = True) -> None:
    """Check every invariant of a position; raise :class:`ConformanceError` if one fails.

    Always: each seat's cards in exactly one place (deck, hand, table,
    discard), the position reachable (the checks every loaded position
    passes), legal actions distinct and consistent with the phase. With
    ``deep``: the JSON round trip (which replays the history) and a clone give
    equal, independent games, every legal action applies on a copy, an illegal
    one is refused without a change, and each view is the public information
    plus its own hand only: its JSON reads back to it, and a game dealt the
    hidden cards again (:meth:`PlayerView.sample_game`) gives the same view and
    the same view JSON.
    """
    try:
        check_reachable(game)
    except InvalidGameStateError as error:
        raise ConformanceError(str(error)) from None
    decks = game._parts()["decks"]
    for seat in (0, 1):
        places = Counter(decks[seat]) + Counter(game.hand(seat)) + Counter(game.discard(seat))
        for row in (front_row(seat), back_row(seat)):
            places.update(c for c in (game.cell(row, col) for col in range(COLUMNS)) if c is not None)
        _require(places == Counter(game.rules.deck(seat)), "seat %d's cards are not each in one place", seat)
    actions = game.legal_actions()
    _require(len(set(actions)) == len(actions), "duplicate legal actions")
    _require(game.is_over == (not actions), "over=%s with %d legal actions", game.is_over, len(actions))
    if game.phase == "battle":
        _require(all(type(a) in (MountedMove, Fight, EndBattle) for a in actions), "a battle offers %s", actions)
    if game.phase == "place":
        _require(all(type(a) in (Place, PlaceBehind, Move) for a in actions), "the first step offers %s", actions)
    if deep:
        _check_copies(game, actions)


def _check_copies(game: Game, actions: list[Action]) -> None:
    check_copies(game)
    for action in actions:
        clone = game.clone()
        clone.apply(action)
        _require(clone != game, "%s changed nothing", action)
        _require(clone.history == game.history + (action,), "%s was not added to the history", action)
    before = game.clone()
    for bad in _illegal_samples(game, actions):
        try:
            game.apply(bad)
        except IllegalActionError:
            pass
        else:
            raise ConformanceError(f"illegal {bad!r} was accepted")
        _require(game == before, "a refused action changed the game")
    check_views(game, _leak_test_seeds, _check_view, view_json=True)


def _illegal_samples(game: Game, actions: list[Action]) -> list[Action]:
    candidates: list[Action] = [Move(0, -1), Fight(0, 0), EndBattle(), MountedMove(5, 1)]
    candidates += [Place(card, col) for card in game.rules.deck(0)[:1] for col in range(COLUMNS)]
    return [a for a in candidates if a not in actions]


def _check_view(game: Game, view: PlayerView) -> None:
    seat = view.seat
    _require(view.hand_sizes == (len(game.hand(0)), len(game.hand(1))), "view's hand sizes")
    decks = game._parts()["decks"]
    _require(Counter(view.unseen(seat)) == Counter(decks[seat]), "view.unseen of the own seat is not the own deck")
    hidden = Counter(decks[1 - seat]) + Counter(game.hand(1 - seat))
    _require(Counter(view.unseen(1 - seat)) == hidden, "view.unseen of the other seat is not its hand and deck")


def _leak_test_seeds(game: Game, seat: int) -> list[int]:
    return [game.turn * 7919 + 31 * seat + salt for salt in range(2)]


random_playthrough: RandomPlaythrough[Rules, Game, PlayerView, Action] = random_playthrough_of(
    Game, Rules, PlayerView, Action, check_invariants, module=__name__
)
