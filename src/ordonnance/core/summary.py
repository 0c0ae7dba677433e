"""The summary of a simulation, the same for every game: seat figures and game length.

Every game's ``simulate(...).summary()`` returns a :class:`Summary`, or its game's
subclass that adds the game's own figures (Ordonnance's territories, Shinobi's
clans, Black Prince's routs). The shared figures are defined here once:

* ``win_rate[seat]``: the share of games that seat won alone;
* ``draw_rate``: the share of games without a sole winner (draws and shared
  wins), so that ``sum(win_rate) + draw_rate == 1``;
* ``first_player_advantage``: ``win_rate[0] - 1 / players``, seat 0's win rate
  above the fair share;
* ``mean_decisions`` and ``mean_rounds``: how long a game lasts, in actions
  the seats took and in rounds (each game's ``SimulationResult.rounds`` says
  what a round is there).

>>> from ordonnance.core.summary import Summary
>>> s = Summary.from_counts(games=200, players=2, wins=[110, 80], decisions=8_000, rounds=4_000)
>>> s.win_rate, round(s.draw_rate, 3), round(s.first_player_advantage, 3), s.mean_rounds
((0.55, 0.4), 0.05, 0.05, 20.0)
>>> print(s)
200 games
  player 0 wins  55.00%  (95% CI 48.08% .. 61.74%)
  player 1 wins  40.00%  (95% CI 33.46% .. 46.92%)
  nobody wins alone   5.00%  (draws and shared wins)
  first-player advantage +5.00% (95% CI -1.92% .. +11.74%)
  40.0 decisions, 20.0 rounds a game on average
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.core.stats import wilson

__all__ = ["Summary"]


@attrs.frozen
class Summary:
    """Seat figures with 95% Wilson intervals and the mean game length, defined alike for every game.

    Each game's summary is this class or a subclass with the game's own fields;
    ``str(summary)`` prints the shared lines first (:meth:`shared_lines`), then
    the game's (:meth:`extra_lines`).
    """

    games: int
    """Number of games."""
    players: int
    """Seats a game."""
    win_rate: tuple[float, ...]
    """For each seat, the share of games it won alone."""
    win_rate_ci: tuple[tuple[float, float], ...]
    """95% Wilson score interval of each win rate."""
    draw_rate: float
    """Share of games without a sole winner: draws and shared wins (``sum(win_rate) + draw_rate == 1``)."""
    first_player_advantage: float
    """Seat 0's win rate minus the fair share ``1 / players``."""
    first_player_advantage_ci: tuple[float, float]
    """95% interval of the first-player advantage: the Wilson interval of seat 0's win rate minus ``1 / players``."""
    mean_decisions: float
    """Decisions (actions the seats took) a game, on average."""
    mean_rounds: float
    """Rounds a game, on average (what a round is: each game's ``SimulationResult.rounds``)."""

    @classmethod
    def from_counts(
        cls, *, games: int, players: int, wins: Sequence[int], decisions: int, rounds: int, **extras: Any
    ) -> Self:
        """The summary of ``games`` games of ``players`` seats: ``wins[seat]`` won by that seat
        alone, ``decisions`` and ``rounds`` in all; ``extras`` are a subclass's own fields.
        With no games every rate and mean is 0."""
        per = max(games, 1)
        first_low, first_high = wilson(wins[0], games)
        fair = 1 / players
        return cls(
            games=games,
            players=players,
            win_rate=tuple(w / games if games else 0.0 for w in wins),
            win_rate_ci=tuple(wilson(w, games) for w in wins),
            draw_rate=(games - sum(wins)) / per,
            first_player_advantage=(wins[0] / games if games else 0.0) - fair,
            first_player_advantage_ci=(first_low - fair, first_high - fair),
            mean_decisions=decisions / per,
            mean_rounds=rounds / per,
            **extras,
        )

    @classmethod
    def of(
        cls,
        winner: npt.NDArray[np.integer[Any]],
        decisions: npt.NDArray[np.integer[Any]],
        rounds: npt.NDArray[np.integer[Any]],
        players: int,
        **extras: Any,
    ) -> Self:
        """The summary of simulated games: ``winner[game]`` is the sole winning seat or -1,
        ``decisions[game]`` and ``rounds[game]`` the game's length; ``extras`` as in :meth:`from_counts`."""
        return cls.from_counts(
            games=int(winner.shape[0]),
            players=players,
            wins=[int(np.count_nonzero(winner == seat)) for seat in range(players)],
            decisions=int(decisions.sum(dtype=np.int64)),
            rounds=int(rounds.sum(dtype=np.int64)),
            **extras,
        )

    def seat_lines(self) -> list[str]:
        """The lines of each seat's win rate and of the games without a sole winner."""
        lines = [
            f"  player {seat} wins {rate:7.2%}  (95% CI {low:.2%} .. {high:.2%})"
            for seat, (rate, (low, high)) in enumerate(zip(self.win_rate, self.win_rate_ci))
        ]
        lines.append(f"  nobody wins alone {self.draw_rate:7.2%}  (draws and shared wins)")
        return lines

    def advantage_line(self) -> str:
        """The line of the first-player advantage."""
        low, high = self.first_player_advantage_ci
        return f"  first-player advantage {self.first_player_advantage:+.2%} (95% CI {low:+.2%} .. {high:+.2%})"

    def length_line(self) -> str:
        """The line of the mean game length."""
        return f"  {self.mean_decisions:.1f} decisions, {self.mean_rounds:.1f} rounds a game on average"

    def shared_lines(self) -> list[str]:
        """The lines every game's summary prints first, in one format."""
        return [f"{self.games:,} games", *self.seat_lines(), self.advantage_line(), self.length_line()]

    def extra_lines(self) -> list[str]:
        """The lines of the game's own figures, printed after the shared ones (none here)."""
        return []

    def __str__(self) -> str:
        return "\n".join([*self.shared_lines(), *self.extra_lines()])
