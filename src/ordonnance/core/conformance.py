"""The conformance harness every game's checks run in: a failure type, a checked random playthrough,
and the checks of copies and views every game shares.

Each game's ``conformance`` module states its invariants (``check_invariants(game, deep=)``);
:func:`playthrough` plays games with random legal actions, or a policy, and checks
them after every step, for any game; :func:`random_playthrough_of` makes a game's
``random_playthrough`` from its ``Game`` class and its ``check_invariants``.
:func:`check_copies` and :func:`check_views` check what every game's copies and views
promise: JSON and clones give equal, independent games, and a view shows its seat's hand
and actions and leaks nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from ordonnance.errors import InvalidArgumentError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = [
    "ConformanceError", "require", "playthrough", "RandomPlaythrough", "random_playthrough_of", "PLAYTHROUGH_DOC",
    "check_copies", "check_view", "check_views",
]  # fmt: skip


class ConformanceError(AssertionError):
    """An invariant of the rules does not hold."""


def require(condition: bool, message: str, *args: object) -> None:
    """Fail with ``message % args``; the message is formatted only on failure."""
    if not condition:
        raise ConformanceError(message % args if args else message)


_G = TypeVar("_G")


def playthrough(
    game: _G,
    seed: int,
    check: Callable[[_G], None],
    *,
    policy: Callable[[Any], Any] | None = None,
    max_steps: int = 10_000,
) -> _G:
    """Play ``game`` to its end with random legal actions drawn from ``random.Random(seed)``
    (or the actions ``policy`` picks from the acting seat's view), calling ``check(game)``
    before the first step and after each; returns the finished game.

    A ``policy`` must return one of the legal actions; anything else fails the check,
    and so does a game that has not ended after ``max_steps`` actions.
    """
    if policy is not None and not callable(policy):
        raise OrdonnanceTypeError(f"policy must be a function of a PlayerView or None, got {shown(policy)}")
    if not checks.is_integer(max_steps):
        raise OrdonnanceTypeError(f"max_steps must be an int, got {shown(max_steps)}")
    max_steps = int(max_steps)
    if max_steps < 1:
        raise InvalidArgumentError(f"max_steps must be at least 1, got {shown(max_steps)}")
    rng = random.Random(seed)
    g: Any = game
    check(game)
    for _ in range(max_steps):
        if g.is_over:
            return game
        actions = g.legal_actions()
        if policy is None:
            action = rng.choice(actions)
        else:
            action = policy(g.view(g.current_player))
            require(action in actions, "policy chose an illegal action %r", action)
        g.apply(action)
        check(game)
    raise ConformanceError(f"game did not end within {max_steps} steps")


_R = TypeVar("_R", contravariant=True)
_GameT = TypeVar("_GameT", covariant=True)
_V = TypeVar("_V", covariant=True)
_A = TypeVar("_A", contravariant=True)


class RandomPlaythrough(Protocol[_R, _GameT, _V, _A]):
    """Every game's ``random_playthrough(rules, seed, *, policy=None, deep=True, max_steps=10_000)``:
    the finished game of ``rules`` dealt with ``seed``, played with random legal actions (or
    ``policy``'s, from views ``_V``), its ``check_invariants(game, deep=deep)`` checked at every step."""

    def __call__(
        self,
        rules: _R,
        seed: int,
        *,
        policy: Callable[[_V], _A] | None = None,
        deep: bool = True,
        max_steps: int = 10_000,
    ) -> _GameT:
        """Play one game, checking every step; return it finished."""
        ...


#: What every game's ``random_playthrough`` says of itself.
PLAYTHROUGH_DOC = """Play one game with random legal actions (or ``policy``), checking every step.

    Returns the finished game. A ``policy`` receives the acting seat's view and
    must return one of its legal actions; anything else fails the check.
    """


def random_playthrough_of(
    game_class: Any,
    rules_class: type,
    view_class: type,
    action: object,
    check_invariants: Callable[..., None],
    *,
    module: str,
    doc: str = PLAYTHROUGH_DOC,
) -> RandomPlaythrough[Any, Any, Any, Any]:
    """A game's ``random_playthrough`` (:class:`RandomPlaythrough`), a function of ``module``
    documented by ``doc`` (by default :data:`PLAYTHROUGH_DOC`): it deals ``game_class.new(rules, seed=seed)`` (which validates the
    rules and the seed) and plays it with :func:`playthrough`, checking
    ``check_invariants(game, deep=deep)`` at every step. ``rules_class``, ``view_class`` and
    ``action`` (the game's ``Rules``, ``PlayerView`` and ``Action``) are its annotations."""

    def random_playthrough(
        rules: Any, seed: int, *, policy: Callable[[Any], Any] | None = None, deep: bool = True, max_steps: int = 10_000
    ) -> Any:
        game = game_class.new(rules, seed=seed)
        return playthrough(game, seed, lambda g: check_invariants(g, deep=deep), policy=policy, max_steps=max_steps)

    random_playthrough.__module__ = module
    random_playthrough.__doc__ = doc
    random_playthrough.__annotations__ = {
        "rules": rules_class, "seed": int, "policy": Callable[[view_class], action] | None,
        "deep": bool, "max_steps": int, "return": game_class,
    }  # fmt: skip
    return random_playthrough


def check_copies(game: Any) -> None:
    """Check that ``game``'s JSON (``type(game).from_json(game.to_json())``) gives an equal game
    with the same history and legal actions, and that a clone is equal and independent."""
    restored = type(game).from_json(game.to_json())
    require(restored == game, "JSON round trip changed the game")
    require(restored.history == game.history, "JSON round trip changed the history")
    require(restored.legal_actions() == game.legal_actions(), "JSON round trip changed the legal actions")
    clone = game.clone()
    require(clone == game, "clone differs")
    if not clone.is_over:
        clone.apply(clone.legal_actions()[0])
        require(clone != game, "applying to a clone changed the original")


def check_view(game: Any, view: Any, samples: Iterable[int], *, view_json: bool = False) -> None:
    """Check that ``view`` (``game.view(view.seat)``) shows its seat's hand, offers the legal
    actions in turn and none out of turn, and leaks nothing: the game of each seed of
    ``samples`` dealt from it (``view.sample_game(seed)``, where every card the seat cannot
    see is dealt again) gives the same view. With ``view_json`` (which costs a JSON round
    trip per view), also the same view JSON, which reads back to the view."""
    seat = view.seat
    require(view.hand == game.hand(seat), "view shows the wrong hand")
    if game.current_player == seat and not game.is_over:
        require(list(view.legal_actions) == game.legal_actions(), "view's legal actions")
    else:
        require(view.legal_actions == (), "a view offers actions out of turn")
    text = view.to_json() if view_json else ""
    for seed in samples:
        other = view.sample_game(seed).view(seat)
        require(other == view, "a view changes when only hidden cards change: it leaks")
        if view_json:
            require(other.to_json() == text, "a view's JSON changes when only hidden cards change: it leaks")
    if view_json:
        try:
            restored = type(view).from_json(text)
        except OrdonnanceError as error:
            raise ConformanceError(f"a view's JSON does not read back to it: {error}") from None
        require(restored == view, "a view's JSON does not read back to it")


def check_views(
    game: Any,
    samples: Callable[[Any, int], Iterable[int]],
    check: Callable[[Any, Any], None] | None = None,
    *,
    view_json: bool = False,
) -> None:
    """Check every seat's view of ``game``: the game's own ``check(game, view)`` (what its
    views show besides the hand and the actions), then :func:`check_view` with the leak-test
    seeds ``samples(game, seat)``."""
    for seat in range(game.rules.players):
        view = game.view(seat)
        if check is not None:
            check(game, view)
        check_view(game, view, samples(game, seat), view_json=view_json)
