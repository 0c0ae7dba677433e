"""The metrics of any game, from simulated games: :func:`metrics`.

A study plays *parts*, each a run of its game's ``simulate``:

* **the games** (``games`` of them, with ``players``, from ``seed``): per-seat win rates,
  the games nobody won alone, the first-player advantage (seat 0's win rate minus
  ``1 / players``), each seat's mean score, game length in decisions, rounds and (Shinobi,
  Black Prince) turns (mean and quantiles, and ``Study.arrays`` holds each length's
  histogram: ``arrays["decisions"][k]`` games took ``k`` decisions), and the game's own
  figures (below);
* **the trace** (the first ``trace_games`` of those same games, recorded and replayed
  through the game's ``Game``): after each decision the *leader* is the seat with the
  highest score alone (Ordonnance: territories or points held so far; Shinobi: the cards
  of its clan on the table, which only an onlooker knows, the clans being secret; Black
  Prince: enemy troops routed so far). *Lead changes* counts how often the leader became
  another seat; *decided at* is the share of the game's decisions after which the final
  winner led for good (0: from the first decision; 1: only at the end, or never, when a
  tie-break gave the win). Games nobody won alone have no *decided at*;
* **skill** (``skill_games``): a Greedy bot against Random bots, and (``search_games``) a
  MonteCarlo bot of ``search_rollouts`` rollouts a decision against Greedy bots, the
  stronger bot taking each seat in turn (an equal share of the games in each seat, each
  seat's games on deals of their own): how often the stronger bot wins, against a fair
  share of ``1 / players``. A game of pure luck scores the fair share; of pure skill, 1.

The game's own figures: Ordonnance, for each territory, how often each seat won it, how
often it stayed undecided, and the victory marker on it (the order it was won in);
Shinobi, each clan's win rate in the games it was served in and the neutral clans (how
often one leads the table, their cards left); Black Prince's routs are its scores, and its
trace counts the fights each seat started (``fights``, by ``seat``) and the game's
fights (``fights in all``).

Every number is an :class:`~ordonnance.lab.stats.Estimate` with its 95% interval:
Wilson's for shares of games, the normal one for means, order statistics for quantiles.
The games are played a fraction of a second at a time behind a progress bar; Ctrl-C stops
the study and returns what was played, with a note in its record.

>>> import ordonnance as od
>>> from ordonnance import lab
>>> study = lab.metrics(od.Rules(), games=2000, seed=1, trace_games=20, skill_games=200, search_games=0, progress=False)
>>> seat0, seat1 = study.get("win rate", seat=0), study.get("win rate", seat=1)
>>> round(seat0.value + seat1.value + study.get("nobody wins alone").value, 9)
1.0
>>> int(study.arrays["decisions"].sum())
2000
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.core import registry
from ordonnance.core.checks import bounded, flag, integer
from ordonnance.core.rng import skipped, splitmix64
from ordonnance.core.seeds import check_seed
from ordonnance.core.simulate import MAX_GAMES, in_chunks
from ordonnance.core.executing import ExecutorLike
from ordonnance.lab import running
from ordonnance.lab.stats import Estimate, mean, proportion, quantiles
from ordonnance.lab.study import Label, Record, Row, Study, rules_text

__all__ = [
    "metrics", "Series", "Part", "study_parts", "play", "estimates", "rows_of", "histograms", "applicable",
    "lead_figures", "check_study", "check_progress", "check_players", "check_rollouts", "describe_players", "stop_note", "CHUNK_SECONDS", "QUANTILES", "SKILL_METRIC",
]  # fmt: skip

#: The wall time each chunk of a study's games aims at (between chunks Ctrl-C and the bar get through).
CHUNK_SECONDS = 0.5

#: The quantiles of game length a study reports, by their label.
QUANTILES = (("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9))

#: The metric of the skill games: how often the stronger bot won.
SKILL_METRIC = "stronger bot wins"

#: Tags that derive the skill parts' seeds from the study's seed, so their deals are their own.
_SKILL_TAG = 0x5C111_0000
_SEARCH_TAG = 0x5EA2C_0000

Arrays = dict[str, npt.NDArray[Any]]
Key = tuple[str, tuple[tuple[str, Label], ...]]


@attrs.frozen(eq=False)
class Series:
    """One metric's per-game values: ``values[i]`` for game ``i`` of its part (NaN: the metric
    does not apply to that game, as a clan that was not served)."""

    metric: str
    """The metric's name."""
    labels: tuple[tuple[str, Label], ...]
    """What it is about (``(("seat", 0),)``)."""
    values: npt.NDArray[Any]
    """Per-game values, in the result's own dtype (bools for shares; floats where NaN marks a game it does not apply to)."""
    share: bool = False
    """Whether the values are 0/1 outcomes (a share of games: the Wilson interval)."""
    offset: float = 0.0
    """Subtracted from the share (the first-player advantage is seat 0's win rate minus ``1 / players``)."""
    quantiles: bool = False
    """Whether to report the values' quantiles and histogram too (game lengths)."""

    @property
    def key(self) -> Key:
        """``(metric, labels)``: what pairs a series of one arm with the other's."""
        return (self.metric, self.labels)


def _series(metric: str, values: npt.ArrayLike, *, share: bool = False, offset: float = 0.0,
            quantiles: bool = False, **labels: Label) -> Series:  # fmt: skip
    return Series(metric, tuple(labels.items()), np.asarray(values), share, offset, quantiles)


@attrs.frozen(eq=False)
class Part:
    """A run of ``simulate`` within a study: its games, seed and bots, and what it reads."""

    name: str
    """What it measures, for the progress bar (``"games"``, ``"trace"``, ``"skill Greedy-Random"``)."""
    games: int
    """Games to play."""
    seed: int
    """``simulate``'s seed (game ``i`` of the part is game ``i`` of ``simulate(seed=seed)``)."""
    players: Callable[[Any], Sequence[Any] | None]
    """The bots for a rule set (None: ``simulate``'s default)."""
    read: Callable[[Any, Any], list[Series]]
    """The series of a chunk of games: ``read(rules, result)``."""
    record: bool = False
    """Whether ``simulate`` keeps the actions (the trace replays them)."""


def _derived(seed: int, tag: int) -> int:
    """A seed for a part whose deals must be its own: SplitMix64's output from ``seed`` mixed with ``tag``."""
    return splitmix64(seed ^ tag)[1]


def _game_series(rules: Any, result: Any) -> list[Series]:
    """The figures every game shares, and the game's own."""
    n = int(rules.players)
    winner = np.asarray(result.winner)
    out = [_series("win rate", winner == seat, share=True, seat=seat) for seat in range(n)]
    out.append(_series("nobody wins alone", winner < 0, share=True))
    out.append(_series("first-player advantage", winner == 0, share=True, offset=1 / n))
    out += [_series("score", result.scores[:, seat], seat=seat) for seat in range(n)]
    out.append(_series("decisions", result.decisions, quantiles=True))
    out.append(_series("rounds", result.rounds, quantiles=True))
    turns = getattr(result, "turns", None)
    if isinstance(turns, np.ndarray):
        out.append(_series("turns", turns, quantiles=True))
    extras = _EXTRAS.get(registry.name_of(rules))
    return out + (extras(rules, result) if extras is not None else [])


def _ordonnance_series(rules: Any, result: Any) -> list[Series]:
    """Each territory: who won it, whether it stayed undecided, its victory marker."""
    from ordonnance.territory import Territory

    out = []
    for territory in Territory:
        owners = result.owners[:, territory]
        name = territory.label
        out += [_series("territory won", owners == seat, share=True, territory=name, seat=seat) for seat in range(rules.players)]
        out.append(_series("territory undecided", owners < 0, share=True, territory=name))
        markers = result.markers[:, territory].astype(np.float64)
        out.append(_series("victory marker", np.where(markers > 0, markers, np.nan), territory=name))
    return out


def _shinobi_series(rules: Any, result: Any) -> list[Series]:
    """Each clan's win rate in the games it was served in; the neutral clans."""
    from ordonnance.shinobi.cards import CLAN_NAMES, CLANS

    n = int(rules.players)
    served = result.clans[:, :n].astype(np.int64)
    games = len(result.winner)
    rows = np.arange(games)
    out = []
    for clan in range(CLANS):
        seat_of = np.full(games, -1)
        for seat in range(n):
            seat_of[served[:, seat] == clan] = seat
        won = np.where(seat_of >= 0, (result.winner == seat_of).astype(np.float64), np.nan)
        out.append(_series("clan win rate", won, share=True, clan=CLAN_NAMES[clan]))
    neutral = np.ones((games, CLANS), bool)
    neutral[rows[:, None], served] = False
    totals = result.totals.astype(np.int64)
    best_served = np.where(neutral, -1, totals).max(axis=1, initial=-1)
    best_neutral = np.where(neutral, totals, -1).max(axis=1, initial=-1)
    out.append(_series("neutral clan leads", best_neutral > best_served, share=True))
    out.append(_series("neutral cards", (totals * neutral).sum(axis=1)))
    return out


#: The game's own figures, by game: only what no other game has.
_EXTRAS: dict[str, Callable[[Any, Any], list[Series]]] = {
    "ordonnance": _ordonnance_series,
    "shinobi": _shinobi_series,
}


def _replayed(game_type: Any, rules: Any, seed: int, history: Sequence[Any]) -> tuple[list[int], list[int]]:
    """``(leaders, actors)`` of ``history`` replayed from the deal of ``seed``: the sole leader by
    score after each action (-1: a tie), and the seat that took it."""
    game = game_type.new(rules, seed=seed)
    leaders, actors = [], []
    for action in history:
        actors.append(int(game.current_player))
        game.apply(action)
        scores = list(game.scores)
        top = max(scores)
        leaders.append(scores.index(top) if scores.count(top) == 1 else -1)
    return leaders, actors


def lead_figures(leaders: Sequence[int], winner: int | None) -> tuple[int, float]:
    """``(lead changes, decided at)`` of a game whose sole leader after each decision was
    ``leaders[i]`` (-1: a tie) and whose final winner is ``winner`` (None: nobody alone;
    decided at is then NaN).

    >>> lead_figures([-1, 0, 0, -1, 1, 1, 0, 0], 0)
    (2, 0.75)
    >>> lead_figures([1, 1], 1), lead_figures([0, -1], None)
    ((0, 0.0), (0, nan))
    """
    changes, last = 0, -1
    for leader in leaders:
        if leader >= 0:
            changes += last >= 0 and leader != last
            last = leader
    if winner is None or not leaders:
        return changes, float("nan")
    behind = [i for i, leader in enumerate(leaders) if leader != winner]
    return changes, (behind[-1] + 1) / len(leaders) if behind else 0.0


def _trace_series(rules: Any, result: Any) -> list[Series]:
    """Lead changes and decided-at of each game, and the game's own traced figures, replayed
    through the game's ``Game``."""
    name = registry.name_of(rules)
    game_type = registry.package(name).Game
    extra = _TRACE_EXTRAS.get(name)
    changes, decided, extras = [], [], []
    for g in range(len(result.winner)):
        finished = result.replay(g)
        leaders, actors = _replayed(game_type, rules, int(result.seeds[g]), finished.history)
        figures = lead_figures(leaders, finished.winner)
        changes.append(figures[0])
        decided.append(figures[1])
        if extra is not None:
            extras.append(extra(rules, finished.history, actors))
    out = [_series("lead changes", changes, quantiles=True), _series("decided at", decided)]
    if extras:
        keys = _TRACE_KEYS[name](rules)
        out += [Series(metric, labels, np.asarray([game[i] for game in extras])) for i, (metric, labels) in enumerate(keys)]
    return out


def _black_prince_fights(rules: Any) -> list[tuple[str, tuple[tuple[str, Label], ...]]]:
    """The traced figures of Black Prince: fights each seat started, and fights in all."""
    return [("fights", (("seat", seat),)) for seat in range(int(rules.players))] + [("fights in all", ())]


def _black_prince_fight_counts(rules: Any, history: Sequence[Any], actors: Sequence[int]) -> list[float]:
    """The fights each seat started in one game (a :class:`~ordonnance.black_prince.Fight`
    action is one fight), and their sum, in :func:`_black_prince_fights`'s order."""
    from ordonnance.black_prince import Fight

    counts = [0.0] * int(rules.players)
    for action, seat in zip(history, actors):
        if isinstance(action, Fight):
            counts[seat] += 1
    return counts + [sum(counts)]


#: The game's own figures read from the trace's replays, by game: their keys and their per-game values.
_TRACE_KEYS: dict[str, Callable[[Any], list[tuple[str, tuple[tuple[str, Label], ...]]]]] = {
    "black-prince": _black_prince_fights,
}
_TRACE_EXTRAS: dict[str, Callable[[Any, Sequence[Any], Sequence[int]], list[float]]] = {
    "black-prince": _black_prince_fight_counts,
}


@attrs.frozen
class _SkillRead:
    """Reads how often the stronger bot, in seat ``strong``, won (a class, not a closure: parts go to workers pickled)."""

    strong: int
    name: str
    against: str

    def __call__(self, rules: Any, result: Any) -> list[Series]:
        return [_series(SKILL_METRIC, np.asarray(result.winner) == self.strong, share=True, strong=self.name, weak=self.against)]


@attrs.frozen
class _Chosen:
    """The bots a study was given, for any rule set (None: ``simulate``'s default)."""

    players: tuple[Any, ...] | None

    def __call__(self, rules: Any) -> tuple[Any, ...] | None:
        return self.players


@attrs.frozen
class _Lineup:
    """The stronger bot in seat ``seat``, the weaker bot in every other: ``kind(seed=s, **options)``."""

    seat: int
    strong: tuple[Any, tuple[tuple[str, Any], ...]]
    weak: tuple[Any, tuple[tuple[str, Any], ...]]

    def __call__(self, rules: Any) -> list[Any]:
        def bot(s: int, kind: Any, options: tuple[tuple[str, Any], ...]) -> Any:
            return kind(seed=s, **dict(options))

        return [bot(s, *(self.strong if s == self.seat else self.weak)) for s in range(int(rules.players))]


def study_parts(
    rules: Any, players: Sequence[Any] | None, games: int, seed: int, trace_games: int, skill_games: int,
    search_games: int, search_rollouts: int,
) -> list[Part]:  # fmt: skip
    """The parts of a :func:`metrics` study (and of each arm of a comparison)."""
    bots = registry.package(registry.name_of(rules)).bots
    chosen = _Chosen(None if players is None else tuple(players))
    parts = [Part("games", games, seed, chosen, _game_series)]
    if trace_games:
        parts.append(Part("trace", min(trace_games, games), seed, chosen, _trace_series, record=True))

    Bot = tuple[Any, tuple[tuple[str, Any], ...]]

    def rotations(tag: int, total: int, strong: Bot, weak: Bot, names: tuple[str, str]) -> None:
        for seat in range(int(rules.players)):
            share = -(-total // int(rules.players))
            parts.append(Part(f"{names[0]} v {names[1]}, seat {seat}", share, _derived(seed, tag + seat),
                              _Lineup(seat, strong, weak), _SkillRead(seat, *names)))  # fmt: skip

    if skill_games:
        rotations(_SKILL_TAG, skill_games, (bots.Greedy, ()), (bots.Random, ()), ("Greedy", "Random"))
    if search_games:
        rotations(
            _SEARCH_TAG, search_games, (bots.MonteCarlo, (("rollouts", search_rollouts),)),
            (bots.Greedy, ()), (f"MonteCarlo({search_rollouts} rollouts)", "Greedy"),
        )  # fmt: skip
    return parts


class _Progress:
    """A tqdm bar on standard error (as tournaments show), or nothing."""

    def __init__(self, total: int, progress: bool | None, desc: str) -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=total, unit="game", unit_scale=total >= 10_000, desc=desc, file=sys.stderr,
            disable=None if progress is None else not progress, delay=1.0 if progress is None else 0.0,
            ncols=_columns(),
        )  # fmt: skip

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *_: object) -> None:
        self.bar.close()


def _columns() -> int | None:
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, ValueError, OSError):
        return None
    return None if size.columns else 80


def play(
    parts: Sequence[Sequence[Part]], arms: Sequence[Any], progress: bool | None, desc: str,
    ran: running.Runner | None = None,
) -> tuple[list[dict[Key, Series]], list[int], bool]:  # fmt: skip
    """Play the parts of each rule set of ``arms`` (``parts[arm]``: alike in their games, seeds
    and order, their bots each arm's own), chunk by chunk, each chunk for every arm before the
    next, so that Ctrl-C leaves the arms with the same games: per arm the merged series, the
    games each part played, and whether Ctrl-C stopped it. ``ran``: where the chunks play
    (None: this process; :mod:`ordonnance.lab.running`)."""
    chunks: list[list[list[Series]]] = [[] for _ in arms]
    first = parts[0]
    played = [0] * len(first)
    total = sum(part.games for part in first) * len(arms)
    stopped = False
    with _Progress(total, progress, desc) as bar:
        if ran is not None and not ran.in_process:
            chunks, played, stopped = running.play_parts(ran, parts, arms, bar.bar)
            return [_merge(arm) for arm in chunks], played, stopped
        for p, part in enumerate(first):
            bar.bar.set_postfix_str(part.name, refresh=False)

            def run(start: int, stop: int, p: int = p) -> None:
                done = [_read(parts[arm][p], rules, start, stop) for arm, rules in enumerate(arms)]
                for arm, series in enumerate(done):
                    chunks[arm].append(series)
                played[p] = stop
                bar.bar.update((stop - start) * len(arms))

            try:
                in_chunks(part.games, run, seconds=CHUNK_SECONDS)
            except KeyboardInterrupt:
                stopped = True
                break
    return [_merge(arm) for arm in chunks], played, stopped


def _read(part: Part, rules: Any, start: int, stop: int) -> list[Series]:
    """Games ``start..stop-1`` of ``part`` under ``rules``: game ``i`` of the part is game ``i`` of
    ``simulate(seed=part.seed)`` (SplitMix64's state skips ahead, and a bot's seed depends on
    its game's seed and seat only)."""
    package = registry.package(registry.name_of(rules))
    result = package.simulate(
        rules, games=stop - start, seed=skipped(part.seed, start), players=part.players(rules), record=part.record
    )
    return part.read(rules, result)


def _merge(chunks: Sequence[Sequence[Series]]) -> dict[Key, Series]:
    """The series of consecutive chunks, each metric's values joined in order."""
    pieces: dict[Key, list[Series]] = {}
    for chunk in chunks:
        for series in chunk:
            pieces.setdefault(series.key, []).append(series)
    return {
        key: attrs.evolve(found[0], values=np.concatenate([s.values for s in found])) for key, found in pieces.items()
    }


def estimates(series: Series) -> Iterator[tuple[Estimate, dict[str, Label]]]:
    """The estimates of one series with the extra labels of each (``stat`` for a length's
    mean and quantiles): a share's Wilson interval, a mean's normal one."""
    values = applicable(series.values)
    if series.share:
        won = proportion(int(np.count_nonzero(values)), len(values))
        yield attrs.evolve(won, value=won.value - series.offset, low=won.low - series.offset, high=won.high - series.offset), {}
        return
    if not series.quantiles:
        yield mean(values), {}
        return
    yield mean(values), {"stat": "mean"}
    for (name, _), estimate in zip(QUANTILES, quantiles(values, [q for _, q in QUANTILES])):
        yield estimate, {"stat": name}


def applicable(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The values of the games a metric applies to (NaN marks the others)."""
    return values[np.isfinite(values)] if values.dtype.kind == "f" else values


def rows_of(series: dict[Key, Series], **labels: Label) -> list[Row]:
    """The study rows of merged series, each with ``labels`` added."""
    out = []
    for item in series.values():
        for estimate, extra in estimates(item):
            out.append(Row(item.metric, estimate, item.labels + tuple(extra.items()) + tuple(labels.items())))
    return out


def histograms(series: dict[Key, Series], prefix: str = "") -> dict[str, npt.NDArray[np.int64]]:
    """Each length's histogram: ``counts[k]`` games of length ``k``."""
    return {
        prefix + item.metric: np.bincount(applicable(item.values).astype(np.int64))
        for item in series.values()
        if item.quantiles and len(item.values)
    }


def check_players(players: object, rules: Any, name: str = "players") -> list[Any] | None:
    """``players`` as a list (None stays None), read with a bound (an endless iterator is refused);
    ``simulate`` checks the bots themselves."""
    return None if players is None else bounded(players, name, int(rules.players))  # type: ignore[arg-type]


def check_rollouts(rollouts: object, rules: Any) -> int:
    """``search_rollouts``: 1 to what the game's MonteCarlo bot takes."""
    most = int(registry.package(registry.name_of(rules)).bots.MonteCarlo.ROLLOUT_LIMIT)
    return integer(rollouts, "search_rollouts", low=1, high=most)


def check_progress(progress: object) -> bool | None:
    """``progress``: None (a bar on a terminal, for long studies) or a bool."""
    return None if progress is None else flag(progress, "progress")


def check_study(rules: Any, games: object, seed: object, counts: dict[str, object]) -> tuple[int, int, dict[str, int]]:
    """The common arguments of a study, checked (the library's errors, showing the value)."""
    registry.name_of(rules)  # a Rules of one of the games
    checked = {name: integer(value, name, low=0, high=MAX_GAMES) for name, value in counts.items()}
    return integer(games, "games", low=1, high=MAX_GAMES), check_seed(seed), checked


def describe_players(players: Sequence[Any] | None) -> tuple[str, ...]:
    """The bots as the record keeps them."""
    return ("simulate's default (Random in every seat)",) if players is None else tuple(map(repr, players))


def stop_note(played: Sequence[int], parts: Sequence[Part]) -> tuple[str, ...]:
    """The record's note when Ctrl-C stopped a study."""
    done = ", ".join(f"{part.name} {count:,} of {part.games:,}" for part, count in zip(parts, played))
    return (f"stopped by Ctrl-C: the rows count the games played ({done})",)


def metrics(
    rules: Any,
    *,
    players: Sequence[Any] | None = None,
    games: int = 10_000,
    seed: int = 0,
    trace_games: int = 200,
    skill_games: int = 1_000,
    search_games: int = 0,
    search_rollouts: int = 8,
    progress: bool | None = None,
    executor: ExecutorLike = "serial",
    workers: int | None = None,
) -> Study:
    """The metrics of a rule set of any game (Ordonnance's, Shinobi's or Black Prince's
    ``Rules``) from ``games`` simulated games with ``players`` (a bot per seat; default
    ``simulate``'s, Random in every seat), from ``seed``: see the module documentation.

    ``trace_games`` of them are replayed for lead changes; ``skill_games`` (Greedy against
    Random) and ``search_games`` (MonteCarlo of ``search_rollouts`` rollouts against Greedy:
    Python bots, tens of games a second) measure skill (0: skip). ``progress``: show a bar
    (None: on a terminal, once a study takes over a second). ``executor`` and ``workers``:
    where the games play, as :func:`ordonnance.tournament` takes them (default ``"serial"``:
    this process; None or ``"process"``: ``workers`` local processes; or any
    :class:`concurrent.futures.Executor`, a Dask cluster's included), with the same table
    whatever the executor (:mod:`ordonnance.lab.running`).
    """
    games, seed, counts = check_study(rules, games, seed, {
        "trace_games": trace_games, "skill_games": skill_games, "search_games": search_games,
    })  # fmt: skip
    rollouts = check_rollouts(search_rollouts, rules)
    players = check_players(players, rules)
    progress = check_progress(progress)
    executor, workers = running.checked(executor, workers)
    parts = study_parts(rules, players, games, seed, counts["trace_games"], counts["skill_games"],
                        counts["search_games"], rollouts)  # fmt: skip
    with running.runner(executor, workers) as ran:
        (series,), played, stopped = play([parts], [rules], progress, "lab metrics", ran)
    call = (
        f"lab.metrics({rules!r}, players={players!r}, games={games}, seed={seed}, trace_games={trace_games}, "
        f"skill_games={skill_games}, search_games={search_games}, search_rollouts={rollouts})"
    )
    notes = ["the trace replays the first games of the same seed"] if counts["trace_games"] else []
    if stopped:
        notes += stop_note(played, parts)
    record = Record("metrics", call, seed=seed, games=games, rules=(rules_text(rules),),
                    players=describe_players(players), notes=tuple(notes))  # fmt: skip
    return Study(tuple(rows_of(series)), record, histograms(series))
