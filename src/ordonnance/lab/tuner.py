"""The rules tuner: search rule options and deck composition toward targets a designer states.

:func:`tune` searches a :class:`~ordonnance.lab.space.Space` around a starting
rule set for variants whose measured figures (:func:`ordonnance.lab.metrics`, or
any ``measure`` returning a :class:`~ordonnance.lab.study.Study`) fall inside the
:class:`Target` bands, preferring the variants with the fewest changes, then
re-measures the best ones on fresh seeds and returns them as a tidy table.

How it works:

1. **Search.** Each trial the optimiser proposes a point; the tuner builds its
   rules, plays ``games`` games of it (in every scenario) on seeds no other
   trial uses, and scores it: the sum over targets (and scenarios) of how far
   each figure lies outside its band, in band widths (:meth:`Target.miss`),
   plus ``penalty`` per change from the start. The start itself is the first
   trial. A point proposed again is played again on fresh seeds and its scores
   are averaged, so the noise of a promising point shrinks as it is revisited.
2. **Re-measurement.** The ``keep`` best points of the search (by mean score,
   fewer changes first among equals) and the start are played again with
   ``confirm_games`` games on seeds that never coincide with any seed of the
   search: their figures are not the lucky draws that made them look best.
3. **Ranking.** Variants that meet every target on re-measurement come first,
   fewest changes first, then by their miss; the others follow by miss.

**Seeds.** Every game of one call is a distinct position of one SplitMix64
stream from ``seed``: the search's evaluations take consecutive blocks of the
first half of the stream, the re-measurement consecutive blocks of the second
half (:func:`ordonnance.core.rng.skipped` by ``2**63``), so no deal of the
re-measurement is a deal of the search, and no two evaluations share a deal.
The default measure plays :func:`ordonnance.lab.metrics`' games only, plus its
trace (a replay of those same games) when a target reads lead changes or
decided-at, and its skill games when a target reads ``stronger bot wins``: those
are dealt from streams ``metrics`` derives from each evaluation's seed by a hash,
so they coincide with another evaluation's only by a 64-bit accident.

**The optimiser: Optuna.** `Optuna <https://optuna.org>`_'s TPE sampler, driven
by its ask-and-tell interface. Chosen over Nevergrad and NTBEA because it is the
best kept of the three (frequent releases, a large user base, typed with
``py.typed``), its samplers take categorical and integer parameters natively
(every dimension here is a finite list of values, and card counts are ordered),
TPE tolerates noisy objectives, and it is light (SQLAlchemy, alembic, colorlog
beside numpy and tqdm; Nevergrad pulls scikit-learn, cma and
bayesian-optimization). NTBEA, TAG's choice, fits such spaces well but has no
maintained Python package. Install it with the ``lab`` extra.

**Progress and Ctrl-C.** A tqdm bar shows the trials and the best score so far
(``progress=False`` hides it). Ctrl-C during the search stops it and goes on to
re-measure the best found so far; Ctrl-C during the re-measurement stops it too,
and the result holds the variants re-measured by then (:attr:`Tuned.interrupted`
says it happened).
"""

from __future__ import annotations

import inspect
import itertools
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from ordonnance.core import registry, rng
from ordonnance.core.checks import bounded, flag, integer, is_integer, is_real, real, shown, text
from ordonnance.core.executing import ExecutorLike
from ordonnance.core.extras import require_extra
from ordonnance.core.play import check_players
from ordonnance.core.seeds import check_seed
from ordonnance.core.simulate import MAX_GAMES
from ordonnance.errors import InvalidArgumentError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.lab import running
from ordonnance.lab.space import Space
from ordonnance.lab.stats import Estimate
from ordonnance.lab.study import Label, Record, Row, Study, rules_text

if TYPE_CHECKING:
    import optuna

__all__ = ["Target", "target", "Variant", "Tuned", "tune", "Measure", "MAX_BUDGET", "MAX_TARGETS", "MAX_SCENARIOS"]

#: A study of one rule set: ``measure(rules, games=, seed=, players=)``, its figures in rows.
Measure = Callable[..., Study]

#: The most trials one search may make.
MAX_BUDGET = 1_000_000
#: The most targets and scenarios one search may name.
MAX_TARGETS = 100
MAX_SCENARIOS = 100

#: Where the re-measurement's seeds start in the stream: the search keeps to the first half.
_CONFIRM_OFFSET = 1 << 63
#: What the optimiser is told of a point whose rules are impossible: worse than any miss it will see.
_IMPOSSIBLE = 1e9


def _to_metric(value: object) -> str:
    metric = text(value, "a target's metric", most=200, printable=True)
    if not metric:
        raise InvalidArgumentError(f"a target's metric must not be empty, got {shown(value)}")
    return metric


def _to_end(value: object) -> float | None:
    return None if value is None else real(value, "a target's end")


def _to_scale(value: object) -> float | None:
    if value is None:
        return None
    scale = real(value, "a target's scale")
    if not scale > 0:
        raise InvalidArgumentError(f"a target's scale must be positive, got {shown(value)}")
    return scale


def _to_labels(value: object) -> tuple[tuple[str, Label], ...]:
    if isinstance(value, Mapping):
        value = list(value.items())
    pairs = []
    listed: list[Any] = bounded(value, "a target's labels", MAX_TARGETS)  # type: ignore[arg-type]  # bounded checks the type
    for pair in listed:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise OrdonnanceTypeError(f"a target's labels are (name, value) pairs, got {shown(pair)}")
        name = text(pair[0], "a label's name", most=200, printable=True)
        label = pair[1]
        if isinstance(label, str):
            label = text(label, f"label {name!r}", most=200, printable=True)
        elif is_integer(label):
            label = int(label)
        elif is_real(label):
            label = real(label, f"label {name!r}")
        else:
            raise OrdonnanceTypeError(f"label {name!r} must be a str, an int or a float, got {shown(label)}")
        pairs.append((name, label))
    return tuple(pairs)


@attrs.frozen
class Target:
    """A band a figure should fall in: ``low <= figure <= high`` (either end may be None).

    >>> from ordonnance.lab import target
    >>> band = target("decisions", 30, 40, stat="mean")
    >>> band.miss(35), band.miss(45), band.describe()
    (0.0, 0.5, 'decisions (stat=mean) in 30..40')
    """

    metric: str = attrs.field(converter=_to_metric)
    """The figure's metric, as the measure's study names it (``"first-player advantage"``)."""
    low: float | None = attrs.field(default=None, converter=_to_end)
    """The lowest acceptable value (None: no lower end)."""
    high: float | None = attrs.field(default=None, converter=_to_end)
    """The highest acceptable value (None: no upper end)."""
    labels: tuple[tuple[str, Label], ...] = attrs.field(default=(), converter=_to_labels)
    """The labels picking the figure's row (``(("seat", 0),)``), as :meth:`Study.get` takes them."""
    scale: float | None = attrs.field(default=None, converter=_to_scale)
    """What one unit of miss is (None: the band's width, or the one end's size, or 1)."""

    def __attrs_post_init__(self) -> None:
        if self.low is None and self.high is None:
            raise InvalidArgumentError(f"target {self.metric!r} needs a low or a high end, got {shown(self)}")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise InvalidArgumentError(f"target {self.metric!r} has low above high: {shown((self.low, self.high))}")

    @property
    def unit(self) -> float:
        """One unit of miss: :attr:`scale`, else the band's width, else the one end's size, else 1."""
        if self.scale is not None:
            return float(self.scale)
        if self.low is not None and self.high is not None and self.high > self.low:
            return float(self.high - self.low)
        end = self.low if self.low is not None else self.high
        return abs(float(end)) if end else 1.0

    def miss(self, value: float) -> float:
        """How far ``value`` lies outside the band, in :attr:`unit` s (0 inside it; NaN counts as infinitely far)."""
        if math.isnan(value):
            return math.inf
        if self.low is not None and value < self.low:
            return (self.low - value) / self.unit
        if self.high is not None and value > self.high:
            return (value - self.high) / self.unit
        return 0.0

    def figure(self, study: Study) -> Estimate:
        """The figure of ``study`` this target is about."""
        return study.get(self.metric, **dict(self.labels))

    def describe(self) -> str:
        """The target in words: ``first-player advantage (seat=0) in -0.005..0.005``."""
        labels = ", ".join(f"{k}={v}" for k, v in self.labels)
        where = f" ({labels})" if labels else ""
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        return f"{self.metric}{where} in {low}..{high}"


def target(metric: str, low: float | None = None, high: float | None = None, *, scale: float | None = None, **labels: Label) -> Target:
    """A :class:`Target`, its labels given as keywords: ``target("win rate", 0.45, 0.55, seat=0)``."""
    return Target(metric, low, high, tuple(labels.items()), scale)


@attrs.frozen
class Variant:
    """One variant the tuner re-measured: its changes and what the fresh games said of it."""

    rules: Any
    """The variant's rules."""
    point: Mapping[str, Any]
    """Its value on every dimension of the space."""
    changes: str
    """Its changes from the start, in words (``""``: the start itself)."""
    distance: int
    """How many options and cards it changes."""
    search_score: float
    """Its mean score in the search (misses plus the penalty for changes)."""
    search_trials: int
    """How many trials of the search played it."""
    studies: Mapping[str, Study]
    """The re-measurement's study of each scenario (``""`` when there are none)."""
    miss: float
    """The sum of the targets' misses on the re-measurement (0: every target met)."""

    @property
    def met(self) -> bool:
        """Whether the re-measured figures meet every target."""
        return self.miss == 0


@attrs.frozen(eq=False)
class Tuned(Study):
    """What :func:`tune` returns: the re-measured variants as a tidy study, best first.

    Its rows are every figure of each variant's re-measurement, labelled ``variant``
    (its rank, 0 the best), ``changes``, ``distance``, ``met`` (1 when it meets every
    target) and ``scenario`` when there are scenarios, and a ``target miss`` row per
    variant; its ``arrays`` hold the search's progress (``score``: each trial's, NaN
    for impossible rules; ``best``: the best so far; ``distance``: each trial's
    changes) and the seeds each evaluation was given (``search_seeds``,
    ``confirm_seeds``).
    """

    variants: tuple[Variant, ...] = ()
    """The re-measured variants, best first."""
    targets: tuple[Target, ...] = ()
    """The targets searched for."""
    interrupted: bool = False
    """Whether Ctrl-C cut the search or the re-measurement short."""

    @property
    def best(self) -> Any:
        """The rules of the best variant (the first of :attr:`variants`)."""
        if not self.variants:
            raise InvalidArgumentError("the tuner re-measured no variant (it was interrupted before any)")
        return self.variants[0].rules


def tune(
    start: Any,
    *,
    targets: Sequence[Target] | Mapping[str, tuple[float | None, float | None]],
    space: Space | None = None,
    budget: int = 100,
    games: int = 2_000,
    confirm_games: int = 20_000,
    keep: int = 5,
    seed: int = 0,
    players: Sequence[Any] | None = None,
    scenarios: Mapping[str, Mapping[str, Any]] | None = None,
    penalty: float = 0.02,
    measure: Measure | None = None,
    progress: bool = True,
    executor: ExecutorLike = "serial",
    workers: int | None = None,
) -> Tuned:
    """Search variants of ``start`` whose figures meet ``targets`` with the fewest changes
    (see the module documentation).

    ``targets``: :class:`Target` s, or a mapping from a metric to its ``(low, high)``.
    ``space``: the dimensions searched (None: ``Space.of(start)``, every option with a short
    list of values and every card count of the start's deck, by one copy).
    ``budget``: trials of the search; ``games``: games each trial plays of its variant (in
    each scenario); ``confirm_games``: games of each re-measurement; ``keep``: how many of the
    search's best points to re-measure (beside the start). ``players``: the bots, as
    ``simulate`` takes them. ``scenarios``: named rule changes under which every target must
    hold (``{"Scottish v French": {"armies": ("Scottish", "French")}, ...}``: every army
    matchup); the space must not search the fields they set. ``penalty``: the score each
    change adds during the search. ``measure``: the study of one rule set (default
    :func:`ordonnance.lab.metrics`), called as ``measure(rules, games=, seed=, players=)``.
    ``executor`` and ``workers``: where the default measure plays each trial's games, as
    :func:`ordonnance.tournament` takes them (default ``"serial"``: this process; a pool of
    ours is started once for the whole search), the same results on any
    (:mod:`ordonnance.lab.running`); a ``measure`` of yours plays where it plays.
    """
    optuna = _optuna()
    registry.name_of(start)  # the Rules of one of the games
    space = Space.of(start) if space is None else space
    if not isinstance(space, Space):
        raise OrdonnanceTypeError(f"space must be an ordonnance.lab.Space, got {shown(space)}")
    if space.start != start:
        raise InvalidArgumentError(f"space must be a space around start ({shown(start)}), got one around {shown(space.start)}")
    if not space.dimensions:
        raise InvalidArgumentError(f"space must search at least one option or card, got {shown(space)}")
    goals = _targets(targets)
    budget = integer(budget, "budget", low=1, high=MAX_BUDGET)
    games = integer(games, "games", low=1, high=MAX_GAMES)
    confirm_games = integer(confirm_games, "confirm_games", low=1, high=MAX_GAMES)
    keep = integer(keep, "keep", low=1, high=1000)
    seed = check_seed(seed)
    penalty = real(penalty, "penalty", low=0.0)
    progress = flag(progress, "progress")
    players = _players(players, int(start.players))
    bases = _scenarios(start, space, scenarios)
    executor, workers = running.checked(executor, workers)
    if measure is not None:
        _check_measure(measure)

    with running.runner(executor, workers) as ran:
        chosen_measure = _metrics(goals, ran.executor or "serial") if measure is None else measure
        search = _Search(space, goals, bases, chosen_measure, players, games, seed, penalty)
        interrupted = search.run(optuna, budget, progress)
        chosen = search.chosen(keep)
        variants: list[Variant] = []
        confirm = _Seeds(rng.skipped(seed, _CONFIRM_OFFSET))
        try:
            for key in _bar(chosen, progress, "re-measure", total=len(chosen)):
                variants.append(search.confirm(key, confirm, confirm_games))
        except KeyboardInterrupt:
            interrupted = True
    variants.sort(key=lambda v: (not v.met, v.distance if v.met else 0, v.miss, v.distance))
    return Tuned(
        tuple(_rows(variants, goals, bool(scenarios))),
        _record(start, space, goals, bases, search, budget, games, confirm_games, keep, seed, players, penalty, interrupted),
        {
            "score": np.array(search.scores, np.float64),
            "best": np.fmin.accumulate(np.array(search.scores, np.float64)) if search.scores else np.zeros(0),
            "distance": np.array(search.distances, np.int64),
            "search_seeds": np.array(search.seeds.given, np.uint64),
            "confirm_seeds": np.array(confirm.given, np.uint64),
        },
        variants=tuple(variants),
        targets=goals,
        interrupted=interrupted,
    )


class _Seeds:
    """Consecutive blocks of one SplitMix64 stream: each evaluation's ``simulate`` seed."""

    def __init__(self, state: int) -> None:
        self.state = state
        self.given: list[int] = []

    def take(self, games: int) -> int:
        seed = self.state
        self.state = rng.skipped(self.state, games)
        self.given.append(seed)
        return seed


Key = tuple[int, ...]


class _Search:
    """The search's state: every point tried, its scores, and the optimiser's trials."""

    def __init__(
        self,
        space: Space,
        targets: tuple[Target, ...],
        bases: Mapping[str, Any],
        measure: Measure,
        players: Sequence[Any] | None,
        games: int,
        seed: int,
        penalty: float,
    ) -> None:
        self.space, self.targets, self.bases, self.measure = space, targets, bases, measure
        self.players, self.games, self.penalty = players, games, penalty
        self.seeds = _Seeds(seed)
        self.sampler_seed = rng.splitmix64(seed)[1] >> 32
        self.tried: dict[Key, list[float]] = {}
        self.impossible: dict[Key, str] = {}
        self.scores: list[float] = []
        self.distances: list[int] = []

    def point(self, key: Key) -> dict[str, Any]:
        return {d.name: d.values[i] for d, i in zip(self.space.dimensions, key)}

    def start_key(self) -> Key:
        return tuple(d.values.index(d.start) for d in self.space.dimensions)

    def run(self, optuna: Any, budget: int, progress: bool) -> bool:
        """Make ``budget`` trials; True when Ctrl-C stopped them."""
        verbosity = optuna.logging.get_verbosity()
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        try:
            sampler = optuna.samplers.TPESampler(seed=self.sampler_seed, n_startup_trials=max(1, min(10, budget // 4)))
            study = optuna.create_study(direction="minimize", sampler=sampler)
            study.enqueue_trial(self._params(self.start_key()))
            bar = _bar(None, progress, "tune", total=budget)
            try:
                for _ in range(budget):
                    trial = study.ask()
                    key = tuple(self._suggest(trial, d) for d in self.space.dimensions)
                    score = self.evaluate(key)
                    study.tell(trial, _IMPOSSIBLE if math.isnan(score) else score)
                    bar.update(1)
                    best = self.best_score()
                    bar.set_postfix_str(f"best {best:.3g}" if math.isfinite(best) else "no variant yet")
            except KeyboardInterrupt:
                return True
            finally:
                bar.close()
        finally:
            optuna.logging.set_verbosity(verbosity)
        return False

    def _params(self, key: Key) -> dict[str, int]:
        return {d.name: i for d, i in zip(self.space.dimensions, key)}

    @staticmethod
    def _suggest(trial: optuna.Trial, dimension: Any) -> int:
        last = len(dimension.values) - 1
        if dimension.ordered:  # card counts, numbers: let the sampler use their order
            return int(trial.suggest_int(dimension.name, 0, last))
        return int(trial.suggest_categorical(dimension.name, list(range(last + 1))))

    def evaluate(self, key: Key) -> float:
        """One trial of the point ``key``: its score (NaN for impossible rules)."""
        point = self.point(key)
        distance = self.space.distance(point)
        if key not in self.impossible:
            try:
                variants = {name: self.space.variant(point, base=base) for name, base in self.bases.items()}
            except OrdonnanceError as error:
                self.impossible[key] = str(error)
        if key in self.impossible:
            score = math.nan
        else:
            miss = sum(self._miss(self._measure(rules, self.seeds, self.games)) for rules in variants.values())
            score = miss + self.penalty * distance
            self.tried.setdefault(key, []).append(score)
        self.scores.append(score)
        self.distances.append(distance)
        return score

    def _measure(self, rules: Any, seeds: _Seeds, games: int) -> Study:
        study = self.measure(rules, games=games, seed=seeds.take(games), players=self.players)
        if not isinstance(study, Study):
            raise OrdonnanceTypeError(f"measure must return an ordonnance.lab.Study, got {shown(study)}")
        return study

    def _miss(self, study: Study) -> float:
        return sum(t.miss(t.figure(study).value) for t in self.targets)

    def best_score(self) -> float:
        return min((float(np.mean(s)) for s in self.tried.values()), default=math.inf)

    def chosen(self, keep: int) -> list[Key]:
        """The start and the ``keep`` best points of the search, best first."""
        def rank(key: Key) -> tuple[float, int]:
            return (float(np.mean(self.tried[key])), self.space.distance(self.point(key)))

        best = sorted(self.tried, key=rank)[:keep]
        start = self.start_key()
        return best if start in best or start in self.impossible else [*best, start]

    def confirm(self, key: Key, seeds: _Seeds, games: int) -> Variant:
        point = self.point(key)
        if key in self.impossible:  # only the start can be: the search never keeps one
            raise InvalidArgumentError(f"the start rules are impossible in a scenario: {self.impossible[key]}")
        studies = {}
        for name, base in self.bases.items():
            studies[name] = self._measure(self.space.variant(point, base=base), seeds, games)
        return Variant(
            rules=self.space.variant(point),
            point=point,
            changes=self.space.changes(point),
            distance=self.space.distance(point),
            search_score=float(np.mean(self.tried[key])) if key in self.tried else math.nan,
            search_trials=len(self.tried.get(key, ())),
            studies=studies,
            miss=sum(self._miss(study) for study in studies.values()),
        )


def _players(players: object, n: int) -> tuple[Any, ...] | None:
    """The bot of each seat, checked as ``simulate`` checks them (None: its default)."""
    if players is None:
        return None
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise OrdonnanceTypeError(f"players must be a sequence of {n} bots (one per seat), got {shown(players)}")
    return tuple(check_players(list(itertools.islice(players, n + 1)), n, lambda seed: None))


def _check_measure(measure: object) -> None:
    """Refuse a ``measure`` that cannot be called as ``measure(rules, games=, seed=, players=)``."""
    wanted = f"measure must be callable as measure(rules, games=, seed=, players=), got {shown(measure)}"
    if not callable(measure):
        raise OrdonnanceTypeError(wanted)
    try:
        inspect.signature(measure).bind(None, games=1, seed=0, players=None)
    except TypeError:
        raise OrdonnanceTypeError(wanted) from None
    except ValueError:  # a callable whose signature Python cannot read: trust it
        pass


def _targets(targets: object) -> tuple[Target, ...]:
    if isinstance(targets, Mapping):
        goals = []
        for metric, band in bounded(targets.items(), "targets", MAX_TARGETS):
            if isinstance(band, (str, bytes)) or not isinstance(band, Sequence) or len(band) != 2:
                raise OrdonnanceTypeError(f"targets[{metric!r}] must be a (low, high) pair, got {shown(band)}")
            for end in band:
                if end is not None and not is_real(end):
                    raise OrdonnanceTypeError(f"targets[{metric!r}] must be a pair of numbers or None, got {shown(band)}")
            goals.append(Target(metric, band[0], band[1]))
        listed: list[Any] = goals
    else:
        listed = bounded(targets, "targets", MAX_TARGETS)  # type: ignore[arg-type]  # bounded checks the type
    for item in listed:
        if not isinstance(item, Target):
            raise OrdonnanceTypeError(f"targets must be Targets or a mapping of metric to (low, high), got {shown(item)}")
    if not listed:
        raise InvalidArgumentError(f"tune needs at least one target, got {shown(targets)}")
    return tuple(listed)


def _scenarios(start: Any, space: Space, scenarios: object) -> dict[str, Any]:
    """Each scenario's base rules (``{"": start}`` without scenarios)."""
    if scenarios is None:
        return {"": start}
    if not isinstance(scenarios, Mapping):
        raise OrdonnanceTypeError(f"scenarios must map a name to rule changes, got {shown(scenarios)}")
    searched = {d.name for d in space.dimensions if not d.cards}
    bases = {}
    for name, changes in bounded(scenarios.items(), "scenarios", MAX_SCENARIOS):
        name = text(name, "a scenario's name", most=200)
        if not isinstance(changes, Mapping):
            raise OrdonnanceTypeError(f"scenario {name!r} must map rule fields to values, got {shown(changes)}")
        clash = sorted(searched & set(changes))
        if clash:
            raise InvalidArgumentError(f"scenario {name!r} sets {shown(clash)}, which the space searches")
        try:
            bases[name] = attrs.evolve(start, **changes)
        except TypeError as error:  # attrs: a field the rules do not have
            raise InvalidArgumentError(f"scenario {name!r} changes {shown(dict(changes))}: {error}") from None
    if not bases:
        raise InvalidArgumentError("scenarios must name at least one scenario, got none")
    return bases


def _rows(variants: Sequence[Variant], targets: Sequence[Target], scenarios: bool) -> list[Row]:
    rows = []
    for rank, variant in enumerate(variants):
        labels: dict[str, Label] = {
            "variant": rank, "changes": variant.changes or "(none)", "distance": variant.distance, "met": int(variant.met),
        }  # fmt: skip
        games = sum(next(iter(s.rows)).estimate.games for s in variant.studies.values() if s.rows)
        rows.append(Row("target miss", Estimate(variant.miss, math.nan, math.nan, games), tuple(labels.items())))
        for name, study in variant.studies.items():
            where = {**labels, "scenario": name} if scenarios else labels
            rows += [Row(r.metric, r.estimate, tuple(where.items()) + r.labels) for r in study.rows]
    return rows


def _record(
    start: Any,
    space: Space,
    targets: Sequence[Target],
    bases: Mapping[str, Any],
    search: _Search,
    budget: int,
    games: int,
    confirm_games: int,
    keep: int,
    seed: int,
    players: Sequence[Any] | None,
    penalty: float,
    interrupted: bool,
) -> Record:
    dims = ", ".join(f"{d.name} in {list(d.values)!r}" for d in space.dimensions)
    notes = [
        f"targets: {'; '.join(t.describe() for t in targets)}",
        f"space: {dims}",
        f"search: {len(search.scores)} trials of {games} games each, {len(search.impossible)} impossible points; "
        f"penalty {penalty} per change",
        f"re-measured on {confirm_games} games each, on seeds disjoint from the search's (the second half of the stream)",
    ]
    if interrupted:
        notes.append("interrupted by Ctrl-C: the search or the re-measurement stopped early")
    shown_space = "None" if space == Space.of(start) else repr(space)
    call = (
        f"lab.tune({start!r}, targets={list(targets)!r}, space={shown_space}, budget={budget}, games={games}, "
        f"confirm_games={confirm_games}, keep={keep}, seed={seed}, penalty={penalty})"
    )
    return Record(
        "tune", call, seed=seed, games=games,
        rules=tuple(rules_text(base) for base in bases.values()),
        players=tuple(repr(p) for p in players) if players is not None else (), notes=tuple(notes),
    )  # fmt: skip


def _bar(items: Any, progress: bool, desc: str, *, total: int) -> Any:
    from tqdm import tqdm

    return tqdm(items, total=total, desc=desc, unit="trial" if items is None else "variant", file=sys.stderr, disable=not progress)


def _optuna() -> Any:
    """optuna, or the ImportError naming the ``lab`` extra."""
    try:
        import optuna
    except ImportError as error:
        require_extra("lab", error, "The rules tuner", "optuna")
        raise  # pragma: no cover - require_extra raised
    return optuna


#: The metrics that need :func:`ordonnance.lab.metrics`' trace (replayed games) or its skill games.
_TRACED = frozenset({"lead changes", "decided at", "fights", "fights in all"})
#: How :func:`ordonnance.lab.metrics`' record begins its note when Ctrl-C stopped it.
_STOPPED = "stopped by Ctrl-C"
_SKILLED = frozenset({"stronger bot wins"})


def _metrics(targets: Sequence[Target], executor: ExecutorLike = "serial") -> Measure:
    """:func:`ordonnance.lab.metrics` playing only what the targets read: its trace and skill
    games only when a target needs them (as many as its games), without a progress bar, on ``executor``."""
    from ordonnance.lab.measures import metrics

    named = {t.metric for t in targets}
    traced, skilled = bool(named & _TRACED), bool(named & _SKILLED)

    def measure(rules: Any, *, games: int, seed: int, players: Sequence[Any] | None) -> Study:
        study = metrics(
            rules, players=players, games=games, seed=seed, trace_games=games if traced else 0,
            skill_games=games if skilled else 0, search_games=0, progress=False, executor=executor,
        )  # fmt: skip
        if any(note.startswith(_STOPPED) for note in study.record.notes):
            raise KeyboardInterrupt  # metrics kept what it had played; the tuner stops its trial instead
        return study

    return measure
