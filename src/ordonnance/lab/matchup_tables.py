"""Matchup tables: Black Prince's armies against each other, Shinobi's seats at each player count.

:func:`matchups` plays one *cell* per pairing and reports each seat's win rate with its
95% Wilson interval (:func:`ordonnance.lab.stats.proportion`) in the lab's tidy table:

* **Black Prince**: every ordered pair of armies, mirror matches included (4 x 4 = 16
  cells: ``army0`` is seat 0's army, ``army1`` seat 1's, so each pair of armies is
  played from both seats). Rows: ``"win rate"`` of each seat, ``"draw rate"``, and
  ``"army score"``: the share of points of seat 0's army (a win 1, a draw 1/2), which is
  what a balanced matchup holds at 50%.
* **Shinobi**: each player count (3, 4 and 5 by default); rows: ``"win rate"`` of each
  seat and ``"shared win rate"`` (games without a sole winner).

Each cell plays ``games`` games from its own seed, mixed from ``seed`` and the cell's
number (SplitMix64's stream: :func:`ordonnance.core.seeds.game_seeds`), so no two cells
share deals or bot seeds: the cells are independent, and so are their intervals. The
other fields of the rules given (Black Prince's ``first``, ``advantages``,
``max_turns``; Shinobi's deck and ``attack``) are kept in every cell.

>>> from ordonnance import shinobi
>>> from ordonnance.lab.matchup_tables import matchups
>>> study = matchups(shinobi.Rules(), counts=[3], games=100, seed=1)
>>> [(r.metric, r.label("seat")) for r in study.rows][:3]
[('win rate', 0), ('win rate', 1), ('win rate', 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from ordonnance.core import registry
from ordonnance.core.checks import bounded, integer, shown, text
from ordonnance.core.executing import ExecutorLike
from ordonnance.core.seeds import check_seed, game_seeds
from ordonnance.errors import InvalidArgumentError
from ordonnance.lab import running
from ordonnance.lab.cards import Players, check_games, check_progress, described, progress_bar, seat_bots
from ordonnance.lab.stats import Estimate, mean, proportion
from ordonnance.lab.study import Record, Row, Study, row, rules_text

__all__ = ["matchups"]


def matchups(
    rules: Any,
    *,
    games: int = 100_000,
    seed: int = 0,
    players: Players = None,
    armies: Sequence[str] | None = None,
    counts: Sequence[int] = (3, 4, 5),
    progress: bool | None = None,
    executor: ExecutorLike = "serial",
    workers: int | None = None,
) -> Study:
    """The matchup table of ``rules``' game (the module documentation says what it holds).

    ``rules``: a Black Prince or Shinobi ``Rules``, whose other fields every cell keeps.
    ``games``: games per cell; ``players``: the bots of every cell, one per seat, or a bot
    class (``players(seed=seat)``, for every player count); None: the game's Greedy. ``armies`` (Black Prince): the armies to pair (default:
    the four printed ones). ``counts`` (Shinobi): the player counts. ``progress``: a progress
    bar on standard error (None: only on a terminal); Ctrl-C stops the study and returns the
    cells played so far, with a note in its record. ``executor`` and ``workers``: where the
    games play, as :func:`ordonnance.tournament` takes them (default ``"serial"``: this
    process), the same table on any (:mod:`ordonnance.lab.running`).
    """
    game = registry.name_of(rules)
    games = check_games(games)
    seed = check_seed(seed)
    from ordonnance.black_prince.cards import ARMIES

    chosen = ARMIES if armies is None else tuple(text(a, "an army", most=100) for a in bounded(armies, "armies", 100))
    player_counts = [integer(n, "a player count", low=3, high=5) for n in bounded(counts, "counts", 10)]
    if game == "black-prince":
        cells = [attrs.evolve(rules, armies=(a, b), decks=None) for a in chosen for b in chosen]
    elif game == "shinobi":
        cells = [attrs.evolve(rules, players=n) for n in player_counts]
    else:
        raise InvalidArgumentError(
            f"matchups are tables of Black Prince's armies or Shinobi's seats, not of {shown(game)}: "
            "use lab.card_values for Ordonnance's cards"
        )
    if players is not None and not (callable(players) and not isinstance(players, Sequence)):
        players = bounded(players, "players", 5)  # read once: every cell plays them
    lineups = [seat_bots(cell, players) for cell in cells]
    seeds = game_seeds(seed, len(cells))
    progress = check_progress(progress)
    executor, workers = running.checked(executor, workers)
    rows: list[Row] = []
    notes = [f"cell i plays from seed game_seeds({seed}, {len(cells)})[i]: the cells are independent"]
    played = 0
    with progress_bar(len(cells) * games, progress, "lab matchups") as bar, running.runner(executor, workers) as ran:
        results = running.whole_arms(ran, list(zip(cells, seeds.tolist(), lineups)), games, False, bar)
        try:
            for cell, result in zip(cells, results):
                rows += _black_prince_rows(cell, result) if game == "black-prince" else _shinobi_rows(cell, result)
                played += 1
        except KeyboardInterrupt:
            notes.append(f"stopped by Ctrl-C: {played} of the {len(cells)} cells played")
        finally:
            results.close()
    record = Record(
        "matchups",
        f"lab.matchups({rules!r}, games={games}, seed={seed}, "
        f"players={described(players)})",
        seed=seed,
        games=games,
        rules=tuple(rules_text(cell) for cell in cells),
        players=tuple(f"{cell.players} players: {', '.join(map(repr, bots))}" for cell, bots in zip(cells, lineups))
        if game == "shinobi"
        else tuple(map(repr, lineups[0] if lineups else ())),
        notes=tuple(notes),
    )
    return Study(tuple(rows), record)


def _win_rates(result: Any, players: int) -> list[Estimate]:
    winner = result.winner.astype(np.int64)
    return [proportion(int(np.count_nonzero(winner == seat)), len(result)) for seat in range(players)]


def _black_prince_rows(rules: Any, result: Any) -> list[Row]:
    army0, army1 = rules.armies
    rows = [row("win rate", rate, army0=army0, army1=army1, seat=seat) for seat, rate in enumerate(_win_rates(result, 2))]
    drawn = int(np.count_nonzero(result.winner < 0))
    rows.append(row("draw rate", proportion(drawn, len(result)), army0=army0, army1=army1))
    points = np.where(result.winner == 0, 1.0, np.where(result.winner < 0, 0.5, 0.0))
    rows.append(row("army score", mean(points), army0=army0, army1=army1, seat=0))
    return rows


def _shinobi_rows(rules: Any, result: Any) -> list[Row]:
    n = rules.players
    rows = [row("win rate", rate, players=n, seat=seat) for seat, rate in enumerate(_win_rates(result, n))]
    shared = int(np.count_nonzero(result.winner < 0))
    rows.append(row("shared win rate", proportion(shared, len(result)), players=n))
    return rows
