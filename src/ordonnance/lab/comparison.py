"""Two rule sets compared on common random numbers: :func:`compare`.

Both arms play the parts of a :func:`~ordonnance.lab.measures.metrics` study from the same
seeds: game ``i`` of each part is dealt from the same seed in both arms, and each seat's
bot plays it from the same stream (a bot's seed mixes its own seed, the game's seed and
its seat only). So:

* when the two rule sets deal alike (the same deck and player count: a change of scoring,
  tie-break, claims, attacks, advantages...), both arms play **identical deals** with the
  same bots' streams, and each metric's difference is paired game by game: the interval
  of the per-game differences is as narrow as the arms agree;
* when they deal differently (another deck, another player count), the seeds are still
  common, so seat ``p``'s bot draws from the same stream in both arms, but the deals
  differ: the difference is still paired game by game (a valid interval), only less
  narrow; the study's record says so;
* the skill games of arms with different player counts rotate the stronger bot through
  different seats, and are compared unpaired.

Each metric gets three rows: ``arm="base"``, ``arm="variant"`` (their estimates) and
``arm="variant - base"`` (the difference, a :class:`~ordonnance.lab.stats.Difference`
whose ``unpaired_games`` says how many games per arm independent arms would need for an
interval as narrow). Game lengths compare their means; each arm's quantiles are in its rows.

>>> import ordonnance as od
>>> from ordonnance import lab
>>> study = lab.compare(od.Rules(), od.Rules(scoring="points"), games=2000, seed=1,
...                     trace_games=0, skill_games=0, progress=False)
>>> study.record.notes[0][:40]
'both arms played identical deals with th'
>>> difference = study.get("first-player advantage", arm="variant - base")
>>> difference.unpaired_games > difference.games
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from ordonnance.core import registry
from ordonnance.core.executing import ExecutorLike
from ordonnance.core.seeds import game_seeds
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError, shown
from ordonnance.lab import running
from ordonnance.lab.measures import (
    SKILL_METRIC,
    Key,
    Series,
    applicable,
    check_players,
    check_progress,
    check_rollouts,
    check_study,
    describe_players,
    histograms,
    play,
    rows_of,
    stop_note,
    study_parts,
)
from ordonnance.lab.stats import Difference, paired_difference, unpaired_difference
from ordonnance.lab.study import Record, Row, Study, rules_text

__all__ = ["compare", "same_deals", "DEAL_CHECKS"]

#: How many of the study's first seeds :func:`same_deals` deals under both rule sets.
DEAL_CHECKS = 16

#: What a dealt game's JSON holds besides its position.
_NOT_DEALT = ("format", "version", "rules", "seed")


def _dealt(rules: Any, seed: int) -> dict[str, Any]:
    """The position ``Game.new(rules, seed=seed)`` deals, as its JSON holds it (not the rules)."""
    game = registry.package(registry.name_of(rules)).Game.new(rules, seed=seed)
    data: dict[str, Any] = json.loads(game.to_json())
    return {key: value for key, value in data.items() if key not in _NOT_DEALT}


def same_deals(base: Any, variant: Any, seed: int, games: int = DEAL_CHECKS) -> bool:
    """Whether the two rule sets deal the first ``games`` seeds of ``seed`` alike: the same
    dealt positions (hands, decks, clans, armies), read from each game's JSON save.

    >>> import ordonnance as od
    >>> same_deals(od.Rules(), od.Rules(scoring="points"), seed=1), same_deals(od.Rules(), od.Rules(players=3), seed=1)
    (True, False)
    """
    if base.players != variant.players:
        return False
    return all(_dealt(base, s) == _dealt(variant, s) for s in game_seeds(seed, games).tolist())


def _players(players: Sequence[Any] | None, variant_players: Sequence[Any] | None, base: Any, variant: Any) -> tuple[
    Sequence[Any] | None, Sequence[Any] | None]:  # fmt: skip
    """Each arm's bots: ``variant_players`` if given, else ``players`` when the counts agree."""
    if variant_players is not None or players is None or base.players == variant.players:
        return players, players if variant_players is None else variant_players
    raise InvalidArgumentError(
        f"the variant has {variant.players} players and the base {base.players}: give the variant's bots "
        f"as variant_players (players was {shown(players)})"
    )


def _difference(base: Series, variant: Series, paired: bool) -> Difference:
    """The variant's metric minus the base's, game by game when ``paired``."""
    a = variant.values.astype(np.float64) - variant.offset
    b = base.values.astype(np.float64) - base.offset
    if paired and len(a) == len(b):
        both = np.isfinite(a) & np.isfinite(b)
        return paired_difference(a[both], b[both])
    return unpaired_difference(applicable(a), applicable(b))


def difference_rows(base: dict[Key, Series], variant: dict[Key, Series], paired_skill: bool) -> list[Row]:
    """Each metric's rows for both arms and their difference (metrics of one arm only: its rows)."""
    rows = rows_of(base, arm="base") + rows_of(variant, arm="variant")
    for key, series in base.items():
        other = variant.get(key)
        if other is None:
            continue
        paired = paired_skill or series.metric != SKILL_METRIC
        extra = (("stat", "mean"),) if series.quantiles else ()
        rows.append(Row(series.metric, _difference(series, other, paired), series.labels + extra + (("arm", "variant - base"),)))
    return rows


def compare(
    base: Any,
    variant: Any,
    *,
    games: int = 10_000,
    seed: int = 0,
    players: Sequence[Any] | None = None,
    variant_players: Sequence[Any] | None = None,
    trace_games: int = 200,
    skill_games: int = 1_000,
    search_games: int = 0,
    search_rollouts: int = 8,
    progress: bool | None = None,
    executor: ExecutorLike = "serial",
    workers: int | None = None,
) -> Study:
    """Compare two rule sets of one game on common random numbers (see the module documentation).

    ``players`` are the bots of both arms (default ``simulate``'s: Random in every seat);
    ``variant_players`` the variant's when they differ (needed when the player counts
    differ and ``players`` is given). The other arguments are :func:`~ordonnance.lab.measures.metrics`'
    (``executor``: where the games play, the same table on any; :mod:`ordonnance.lab.running`).
    """
    games, seed, counts = check_study(base, games, seed, {
        "trace_games": trace_games, "skill_games": skill_games, "search_games": search_games,
    })  # fmt: skip
    if registry.name_of(variant) != registry.name_of(base):
        raise OrdonnanceTypeError(
            f"compare needs two rule sets of one game, got {registry.name_of(base)}'s and "
            f"{registry.name_of(variant)}'s: {shown(variant)}"
        )
    rollouts = check_rollouts(search_rollouts, base)
    progress = check_progress(progress)
    players = check_players(players, base)
    variant_players = check_players(variant_players, variant, "variant_players")
    base_bots, variant_bots = _players(players, variant_players, base, variant)
    executor, workers = running.checked(executor, workers)
    sizes = (counts["trace_games"], counts["skill_games"], counts["search_games"], rollouts)
    base_parts = study_parts(base, base_bots, games, seed, *sizes)
    variant_parts = study_parts(variant, variant_bots, games, seed, *sizes)
    alike = base.players == variant.players
    with running.runner(executor, workers) as ran:
        if alike:
            (base_series, variant_series), played, stopped = play(
                [base_parts, variant_parts], [base, variant], progress, "lab compare", ran
            )
            played_parts = base_parts
        else:
            (base_series,), played, stopped = play([base_parts], [base], progress, "lab compare: base", ran)
            variant_played: list[int] = []
            if not stopped:
                (variant_series,), variant_played, stopped = play([variant_parts], [variant], progress, "lab compare: variant",
                                                                  ran)  # fmt: skip
            else:
                variant_series = {}
            base_series, variant_series = _common_games(base_series, variant_series)
            played_parts, played = base_parts, [min(a, b) for a, b in zip(played, variant_played + [0] * len(played))]
    same_bots = describe_players(base_bots) == describe_players(variant_bots)
    notes = [_deal_note(base, variant, seed, same_bots)]
    if base.players != variant.players and counts["skill_games"] + counts["search_games"]:
        notes.append("the skill games rotate the stronger bot through different seats in each arm: compared unpaired")
    if counts["trace_games"]:
        notes.append("the trace replays the first games of the same seed")
    if stopped:
        notes += stop_note(played, played_parts)
    call = (
        f"lab.compare({base!r}, {variant!r}, games={games}, seed={seed}, players={players!r}, "
        f"variant_players={variant_players!r}, trace_games={trace_games}, skill_games={skill_games}, "
        f"search_games={search_games}, search_rollouts={rollouts})"
    )
    described = describe_players(base_bots) + (() if same_bots else tuple(f"variant: {p}" for p in describe_players(variant_bots)))
    record = Record("compare", call, seed=seed, games=games, rules=(rules_text(base), rules_text(variant)),
                    players=described, notes=tuple(notes))  # fmt: skip
    rows = difference_rows(base_series, variant_series, paired_skill=base.players == variant.players)
    return Study(tuple(rows), record, {**histograms(base_series, "base "), **histograms(variant_series, "variant ")})


def _common_games(base: dict[Key, Series], variant: dict[Key, Series]) -> tuple[dict[Key, Series], dict[Key, Series]]:
    """Both arms' series cut to the games both played (Ctrl-C may have stopped one sooner)."""
    import attrs

    cut_base, cut_variant = dict(base), dict(variant)
    for key in set(base) & set(variant):
        if base[key].metric == SKILL_METRIC:
            continue  # rotations of different lengths: compared unpaired, nothing to cut
        n = min(len(base[key].values), len(variant[key].values))
        cut_base[key] = attrs.evolve(base[key], values=base[key].values[:n])
        cut_variant[key] = attrs.evolve(variant[key], values=variant[key].values[:n])
    return cut_base, cut_variant


def _deal_note(base: Any, variant: Any, seed: int, same_bots: bool) -> str:
    """What the record says of the pairing."""
    bots = "the same bots' streams" if same_bots else "each seat's bot drawing from the same stream in both arms"
    if same_deals(base, variant, seed):
        return f"both arms played identical deals with {bots} (common random numbers): differences paired game by game"
    why = "the player counts differ" if base.players != variant.players else "the rule sets deal differently (deck, or chance drawn at the deal)"
    return (
        f"{why}, so the deals differ: both arms played from the same seeds, {bots}, "
        "and the differences are paired game by game (valid, but not on identical deals)"
    )
