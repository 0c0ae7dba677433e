"""The conformance harness every game's checks run in: a failure type and a checked random playthrough.

Each game's ``conformance`` module states its invariants (``check_invariants(game, deep=)``);
:func:`playthrough` plays games with random legal actions, or a policy, and checks
them after every step, for any game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError

__all__ = ["ConformanceError", "require", "playthrough"]


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
        raise OrdonnanceTypeError(f"policy must be a function of a PlayerView or None, got {policy!r}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int):
        raise OrdonnanceTypeError(f"max_steps must be an int, got {max_steps!r}")
    if max_steps < 1:
        raise InvalidArgumentError(f"max_steps must be at least 1, got {max_steps!r}")
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
