"""A rating ladder: Bradley-Terry Elo ratings with 95% intervals, anchored at one bot.

>>> import ordonnance as od
>>> from ordonnance.ladder import ladder
>>> result = ladder({"random": od.bots.Random(seed=1), "greedy": od.bots.Greedy(seed=2)},
...                 games=2_000, seed=1, executor="serial")
>>> result.anchor, result.rating("random")
('random', 0.0)
>>> low, high = result.interval("greedy")
>>> 0 < low < result.rating("greedy") < high
True

:func:`ladder` plays a :func:`~ordonnance.tournament` (every seating of the
bots on the same deals, so every pair meets over duplicate deals), then fits
a Bradley-Terry model to the pairwise results: bot ``a`` finishes above bot
``b`` with probability ``s_a / (s_a + s_b)``. A rating is ``400 log10 s`` Elo
points, counted from the *anchor* bot (``Random`` = 0 by default), so 400
points mean 10-to-1 odds. As in :attr:`TournamentResult.elo`, a tie counts
half a win each way and every pair that met gets one virtual tie, so that a
bot that never loses still has a finite rating.

**Intervals.** Each rating's 95% interval is ``rating +- 1.96`` standard
errors, from the inverse of the Fisher information of the fit with the
anchor held at 0 (the usual large-sample interval of a maximum-likelihood
estimate). It treats games as independent. Duplicate deals make them
anti-correlated within a pair (a deal good for seat 0 is played once with
each bot there), which only lowers the true spread, so the intervals are if
anything a little wide; with three or four players a game gives several
comparisons that are not independent, and the intervals are too narrow.
They are intervals of the difference to the anchor;
a bot that wins every game against every other has a rating held up only by
the virtual ties, and its interval says so by being wide.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs
import numpy as np

from ordonnance.core.bots import Bot
from ordonnance.core.spec import RulesLike as GameRules
from ordonnance.core.stats import Z95
from ordonnance.core.tournament import ExecutorLike, TournamentResult, bradley_terry_elo, named_bots, tournament
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = ["Ladder", "ladder", "rate", "bradley_terry", "DEFAULT_ANCHOR"]

#: The bot a ladder's ratings count from when it plays and no other anchor is given.
DEFAULT_ANCHOR = "Random"

_ELO_PER_LOGIT = 400.0 / math.log(10.0)


@attrs.frozen
class Ladder:
    """The ratings of :func:`ladder`, and the tournament they were fitted to."""

    tournament: TournamentResult
    """Every game's counts (names, seatings, pairwise results)."""
    anchor: str
    """The bot rated 0."""
    ratings: tuple[float, ...]
    """Each bot's Elo rating (in the order of :attr:`names`), the anchor's 0."""
    intervals: tuple[tuple[float, float], ...]
    """Each rating's 95% interval; the anchor's is ``(0.0, 0.0)``."""

    @property
    def names(self) -> tuple[str, ...]:
        """The bots' names."""
        return self.tournament.names

    @property
    def standings(self) -> tuple[str, ...]:
        """The names, best rated first (name order on equal ratings)."""
        order = sorted(range(len(self.names)), key=lambda b: (-self.ratings[b], b))
        return tuple(self.names[b] for b in order)

    def rating(self, bot: int | str) -> float:
        """One bot's rating, by name or number."""
        return self.ratings[self.tournament.index(bot)]

    def interval(self, bot: int | str) -> tuple[float, float]:
        """One bot's 95% interval, by name or number."""
        return self.intervals[self.tournament.index(bot)]

    def __str__(self) -> str:
        t = self.tournament
        width = max(8, *(len(name) for name in self.names))
        lines = [
            f"ladder: {len(self.names)} bots, {t.players} players a game, {len(t.seatings):,} seatings x "
            f"{t.games_per_seating:,} deals = {t.games:,} games (seed {t.seed})",
            f"Bradley-Terry Elo, {self.anchor} = 0, 95% intervals",
            f"rank  {'bot':<{width}}  {'Elo':>6}  {'95% interval':<15}  {'games':>9}  {'win rate':>8}",
        ]
        for rank, name in enumerate(self.standings, 1):
            b = self.names.index(name)
            low, high = self.intervals[b]
            interval = "anchor" if name == self.anchor else f"{low:>6.0f} .. {high:<6.0f}"
            lines.append(
                f"{rank:>4}  {name:<{width}}  {self.ratings[b]:>6.0f}  {interval:<15}  "
                f"{t.played[b]:>9,}  {t.win_rate[b]:>8.2%}"
            )
        lines.append("")
        lines.extend(t.pairwise_table(self.standings))
        if any(t.forfeits):
            lost = ", ".join(f"{name} {count:,}" for name, count in zip(self.names, t.forfeits) if count)
            lines.append(f"games lost on time (over {t.time_limit:g} s for a decision): {lost}")
        return "\n".join(lines)


def bradley_terry(
    pairwise_wins: Sequence[Sequence[int]], pairwise_games: Sequence[Sequence[int]], anchor: int = 0
) -> tuple[tuple[float, ...], tuple[tuple[float, float], ...]]:
    """Elo ratings counted from bot ``anchor`` and their 95% intervals.

    ``pairwise_wins[a][b]`` is how often ``a`` finished above ``b`` and
    ``pairwise_games[a][b]`` how often both played (as in
    :class:`~ordonnance.core.tournament.TournamentResult`). The fit is the one of
    :attr:`TournamentResult.elo` (ties half, one virtual tie per pair that
    met); the intervals come from the Fisher information (see the module
    documentation). A bot that met no bot connected to the anchor has
    infinite bounds.
    """
    k = len(pairwise_wins)
    if not 0 <= anchor < k:
        raise InvalidRulesError(f"the anchor is a bot number 0..{k - 1}, got {shown(anchor)}")
    pw = tuple(tuple(int(x) for x in row) for row in pairwise_wins)
    pg = tuple(tuple(int(x) for x in row) for row in pairwise_games)
    elo = np.array(bradley_terry_elo(pw, pg))
    ratings = elo - elo[anchor]
    logit = ratings / _ELO_PER_LOGIT
    together = np.array(pg, dtype=float)
    np.fill_diagonal(together, 0.0)
    together = np.where(together > 0, together + 1.0, 0.0)  # the virtual tie is a game too
    p = 1.0 / (1.0 + np.exp(logit[None, :] - logit[:, None]))  # p[a, b]: a above b
    information = -together * p * p.T
    np.fill_diagonal(information, -information.sum(axis=1))
    others = [b for b in range(k) if b != anchor]
    spread = np.full(k, math.inf)
    spread[anchor] = 0.0
    if others:
        sub = information[np.ix_(others, others)]
        connected = _connected_to(together, anchor)
        keep = [i for i, b in enumerate(others) if connected[b]]
        if keep:
            covariance = np.linalg.inv(sub[np.ix_(keep, keep)])
            for i, position in enumerate(keep):
                spread[others[position]] = Z95 * _ELO_PER_LOGIT * math.sqrt(max(float(covariance[i, i]), 0.0))
    intervals = tuple((float(r - s), float(r + s)) for r, s in zip(ratings, spread))
    return tuple(float(r) for r in ratings), intervals


def _connected_to(together: np.ndarray, start: int) -> list[bool]:
    seen = [False] * len(together)
    seen[start] = True
    stack = [start]
    while stack:
        a = stack.pop()
        for b in np.flatnonzero(together[a] > 0):
            if not seen[b]:
                seen[b] = True
                stack.append(int(b))
    return seen


def ladder(
    bots: Sequence[Bot] | Mapping[str, Bot],
    games: int = 10_000,
    rules: GameRules | None = None,
    *,
    anchor: str | None = None,
    seed: int = 0,
    executor: ExecutorLike = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool | None = None,
    time_limit: float | None = None,
) -> Ladder:
    """Rate bots against each other: a duplicate tournament, then Bradley-Terry Elo with 95% intervals.

    ``bots``, ``games``, ``rules`` and the keyword arguments after ``anchor``
    are :func:`~ordonnance.tournament`'s (``games`` in all, shared by every
    seating, so each pair of bots meets on the same deals in every seating).
    ``anchor`` names the bot rated 0: by default the one named
    :data:`DEFAULT_ANCHOR` (``"Random"``, or ``"random"``) if it plays, else
    the first bot. It is checked before any game is played.
    """
    if anchor is not None and not isinstance(anchor, str):
        raise OrdonnanceTypeError(f"anchor is a bot's name or None, got {shown(anchor)}")
    names, _ = named_bots(bots)
    if anchor is not None and anchor not in names:  # checked before any game; rate() picks the default
        raise InvalidRulesError(f"the anchor {shown(anchor)} is not one of the bots: {', '.join(names)}")
    result = tournament(
        bots, games, rules, seed=seed, executor=executor, workers=workers,
        chunk_size=chunk_size, progress=progress, time_limit=time_limit,
    )  # fmt: skip
    return rate(result, anchor)


def rate(result: TournamentResult, anchor: str | None = None) -> Ladder:
    """The ladder of a tournament already played: its bots' ratings counted from ``anchor``
    (the default as in :func:`ladder`)."""
    if not isinstance(result, TournamentResult):
        raise OrdonnanceTypeError(f"rate() takes a TournamentResult, got {shown(result):.80}")
    if anchor is None:
        matches = [name for name in result.names if name.lower() == DEFAULT_ANCHOR.lower()]
        anchor = matches[0] if matches else result.names[0]
    elif not isinstance(anchor, str):
        raise OrdonnanceTypeError(f"anchor is a bot's name or None, got {shown(anchor)}")
    elif anchor not in result.names:
        raise InvalidRulesError(f"the anchor {shown(anchor)} is not one of the bots: {', '.join(result.names)}")
    ratings, intervals = bradley_terry(result.pairwise_wins, result.pairwise_games, result.names.index(anchor))
    return Ladder(result, anchor, ratings, intervals)
