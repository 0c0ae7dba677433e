"""Playing whole games with bots, for every game: the checked seat list, the loop, game indices.

These serve each game's ``simulate`` (its Python path, for bots the kernel cannot
play), tournaments and the ladder alike; they use nothing of a game but its
protocol (``is_over``, ``current_player``, ``view(seat)``, ``apply(action)``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ordonnance.errors import BotError, InvalidRulesError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.core.bots import has_choose
from ordonnance.core.checks import shown

__all__ = ["check_players", "game_index", "play_to_the_end"]


def check_players(players: Sequence[Any] | None, n: int, default: Callable[..., Any]) -> list[Any]:
    """The bot of each seat, checked: ``default(seed=seat)`` for every seat when None."""
    if players is None:
        return [default(seed=seat) for seat in range(n)]
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise OrdonnanceTypeError(f"players must be a sequence of {n} bots (one per seat), got {shown(players)}")
    bots = list(players)
    if len(bots) != n:
        raise InvalidRulesError(f"players must list {n} bots (one per seat), got {len(bots)}: {shown(players)}")
    for seat, bot in enumerate(bots):
        if isinstance(bot, type):
            raise OrdonnanceTypeError(f"players[{seat}] is the class {bot.__name__}, not a bot: did you mean {bot.__name__}()?")
        if not has_choose(bot):
            raise OrdonnanceTypeError(f"players[{seat}] has no choose(view) method: {shown(bot)}")
    return bots


def game_index(game: int, games: int) -> int:
    """``game`` (negative counts from the end) as an index into ``games`` games, checked."""
    if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not -games <= game < games:
        raise InvalidRulesError(f"game index must be in 0..{games - 1}, got {shown(game)}")
    return int(game) % games



def play_to_the_end(
    game: Any,
    bots: Sequence[Any],
    *,
    index: int,
    deal_seed: int,
    names: Sequence[str] | None = None,
    time_limit: float | None = None,
    untimed: Callable[[object], bool] = lambda bot: False,
    on_action: Callable[[int, Any], None] | None = None,
) -> int | None:
    """Play ``game`` (of any of the games) to its end, a bot per seat; returns the
    seat that took longer than ``time_limit`` over a decision (the game then stops
    there), else None.

    A bot that raises, or chooses an action the game refuses, raises
    :class:`~ordonnance.errors.BotError` naming the bot (``names[seat]``, else its
    repr), its seat, the game (``index``) and the deal's seed. ``untimed(bot)``
    exempts a bot from the time limit; ``on_action(seat, action)`` sees every
    action played.
    """

    def failed(seat: int, reason: str) -> BotError:
        name = names[seat] if names is not None and seat < len(names) else repr(bots[seat])
        return BotError(name, seat, index, deal_seed, reason)

    while not game.is_over:
        seat: int = game.current_player
        start = time.perf_counter()
        try:
            action = bots[seat].choose(game.view(seat))
        except Exception as error:  # a bot may raise anything: name the bot, seat and game
            raise failed(seat, f"{type(error).__name__}: {error}") from error
        if time_limit is not None and time.perf_counter() - start > time_limit and not untimed(bots[seat]):
            return seat
        try:
            game.apply(action)
        except OrdonnanceError as error:
            raise failed(seat, f"it chose {shown(action)}, which is not legal: {error}") from None
        if on_action is not None:
            on_action(seat, action)
    return None
