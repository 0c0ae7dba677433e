"""The rules tuner: its search space, a planted optimum, fresh seeds for the re-measurement,
the fewest-changes preference, Ctrl-C, and the library's errors."""

from __future__ import annotations

import importlib
import math
import sys
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("optuna")

from ordonnance import Rules, black_prince, shinobi
from ordonnance.core.seeds import game_seeds
from ordonnance.errors import InvalidArgumentError, InvalidDeckError, InvalidRulesError, OrdonnanceTypeError
from ordonnance.lab.space import Space, card_kinds, options_of
from ordonnance.lab.stats import Estimate, mean
from ordonnance.lab.study import Record, Study, row
from ordonnance.lab.tuner import Target, target, tune


class Planted:
    """A synthetic measure of Shinobi rules with a known best: figure ``m`` is the Mori samurai
    count plus the Oda count, with a little seeded noise; it records every call."""

    def __init__(self, noise: float = 0.05) -> None:
        self.noise = noise
        self.calls: list[tuple[Any, int, int]] = []

    def __call__(self, rules: Any, *, games: int, seed: int, players: Any = None) -> Study:
        self.calls.append((rules, games, seed))
        draws = np.random.default_rng(seed).normal(rules.samurai[1] + rules.samurai[2], self.noise, size=games)
        return Study((row("m", mean(draws)),), Record("planted", "planted", seed=seed, games=games))


def _space(spread: int = 2) -> Space:
    return Space.of(shinobi.Rules(players=3), options=(), cards=["Mori", "Oda"], spread=spread)


# The space


def test_options_come_from_each_games_rules() -> None:
    assert options_of(Rules()) == {
        "scoring": ("territories", "points"),
        "tie_break": ("latest_capture", "lowest_marker_sum"),
        "claim_proof": ("public", "private"),
        "auto_claim": (False, True),
    }
    assert options_of(shinobi.Rules()) == {"attack": ("mandatory", "optional")}
    assert options_of(black_prince.Rules()) == {"first": ("seat0", "coin")}


def test_card_kinds_of_each_game() -> None:
    assert len(card_kinds(Rules())) == 31 and card_kinds(Rules())[:2] == ("L", "B")
    assert card_kinds(shinobi.Rules()) == ("Go-Hojo", "Mori", "Oda", "Takeda", "Uesugi", "Ninja")
    kinds = card_kinds(black_prince.Rules(armies=("Scottish", "French")))
    assert "Scottish:Pikemen 3" in kinds and "French:Knights 3" in kinds and "Scottish:Knights 3" not in kinds
    assert card_kinds(black_prince.Rules(armies=("French", "French"))) == tuple(
        k for k in card_kinds(black_prince.Rules(armies=("French", "English"))) if k.startswith("French:")
    )


def test_distance_counts_changed_options_and_cards() -> None:
    space = Space.of(Rules(), cards=["LS", "F"], spread=2)
    point = space.start_point() | {"scoring": "points", "cards[LS]": -2, "cards[F]": 1}
    assert space.distance(space.start_point()) == 0
    assert space.distance(point) == 4
    variant = space.variant(point)
    assert variant.scoring == "points"
    counts = Counter(str(card) for card in variant.cards)
    assert counts["LS"] == 0 and counts["F"] == 5 and len(variant.cards) == 56 - 2 + 1


def test_no_change_keeps_the_start_rules() -> None:
    space = Space.of(black_prince.Rules(), options={"max_turns": (50, 200)})
    assert space.variant(space.start_point()) == black_prince.Rules()


def test_black_prince_cards_change_the_armys_deck_at_every_seat_it_plays() -> None:
    rules = black_prince.Rules(armies=("Scottish", "French"))
    space = Space.of(rules, options={"armies": [("Scottish", "French"), ("French", "French"), ("English", "Burgundian")]},
                     cards=["Scottish:Pikemen 3", "French:Cavalry 3"])  # fmt: skip
    knights, pikemen, cavalry = black_prince.Card("Knights", 3), black_prince.Card("Pikemen", 3), black_prince.Card("Cavalry", 3)
    point = space.start_point() | {"cards[Scottish:Pikemen 3]": -1, "cards[French:Cavalry 3]": 1}
    variant = space.variant(point)
    assert len(variant.deck(0)) == 24 and len(variant.deck(1)) == 26
    assert variant.deck(0).count(pikemen) == 2 and variant.deck(1).count(cavalry) == 1
    assert variant.deck(1).count(knights) == rules.deck(1).count(knights)
    mirror = space.variant(point | {"armies": ("French", "French")})
    assert mirror.deck(0) == mirror.deck(1) and mirror.deck(0).count(cavalry) == 1 and len(mirror.deck(0)) == 26
    unplayed = space.variant(point | {"armies": ("English", "Burgundian")})
    assert unplayed == black_prince.Rules(armies=("English", "Burgundian"))  # neither changed army plays
    assert space.dimensions[1].values == (-1, 0, 1)
    assert Space.of(rules, options=(), cards=["English:Archers 3"], spread=9).dimensions[0].values[0] == -6


def test_impossible_rules_get_the_games_error() -> None:
    space = Space.of(Rules(), options=("scoring", "auto_claim"), cards=())
    with pytest.raises(InvalidRulesError, match="auto_claim"):
        space.variant({"scoring": "points", "auto_claim": True})


@pytest.mark.parametrize(
    ("kwargs", "error", "shown"),
    [
        ({"options": ("colour",)}, InvalidArgumentError, "'colour'"),
        ({"options": ("players",)}, InvalidArgumentError, "'players'"),
        ({"options": {"players": (2, 9)}}, InvalidRulesError, "9"),
        ({"options": (7,)}, OrdonnanceTypeError, "7"),
        ({"cards": ["XYZ"]}, InvalidArgumentError, "'XYZ'"),
        ({"cards": ["L", "L"]}, InvalidArgumentError, "cards[L]"),
        ({"spread": -1}, InvalidArgumentError, "-1"),
        ({"spread": 1.5}, OrdonnanceTypeError, "1.5"),
    ],
)
def test_bad_spaces_get_the_librarys_errors(kwargs: dict[str, Any], error: type[Exception], shown: str) -> None:
    with pytest.raises(error, match=shown.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        Space.of(Rules(), **kwargs)


def test_a_point_off_the_space_is_refused() -> None:
    space = _space()
    with pytest.raises(InvalidArgumentError, match="7"):
        space.variant(space.start_point() | {"cards[Mori]": 7})
    with pytest.raises(InvalidArgumentError, match="cards"):
        space.variant({"cards[Mori]": 0})


# Targets


def test_a_targets_miss_is_in_band_widths() -> None:
    band = target("m", 10, 12)
    assert band.miss(11) == 0 and band.miss(13) == 0.5 and band.miss(6) == 2
    assert target("m", high=0.01).miss(0.03) == pytest.approx(2)
    assert target("m", low=0).miss(-3) == 3
    assert band.miss(math.nan) == math.inf


@pytest.mark.parametrize(
    ("args", "error", "shown"),
    [
        (("m",), InvalidArgumentError, "needs a low or a high"),
        (("m", 3, 1), InvalidArgumentError, r"\(3\.0, 1\.0\)"),
        (("m", "low"), OrdonnanceTypeError, "'low'"),
        (("m", math.nan), InvalidArgumentError, "nan"),
        ((7, 0, 1), OrdonnanceTypeError, "7"),
    ],
)
def test_bad_targets_get_the_librarys_errors(args: tuple[Any, ...], error: type[Exception], shown: str) -> None:
    with pytest.raises(error, match=shown):
        Target(*args)


# The search


def test_finds_a_planted_optimum() -> None:
    # m = Mori + Oda = 22 at the start; the band 19.5..20.5 is met by removing exactly 2 cards
    # of the two clans (3 points of the 25 in the space), the fewest changes that meet it.
    measure = Planted()
    tuned = tune(
        shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=60, games=50,
        confirm_games=200, seed=3, measure=measure, progress=False,
    )  # fmt: skip
    best = tuned.variants[0]
    assert best.met and best.distance == 2
    assert sum(best.rules.samurai[1:3]) == 20
    assert tuned.best == best.rules
    assert tuned.get("m", variant=0).value == pytest.approx(20, abs=0.05)
    start = [v for v in tuned.variants if v.distance == 0]
    assert start and not start[0].met  # the start is re-measured too, as the reference


def test_the_remeasurement_uses_seeds_disjoint_from_the_searchs() -> None:
    measure = Planted()
    tuned = tune(
        shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=20, games=30,
        confirm_games=40, keep=3, seed=11, measure=measure, progress=False,
    )  # fmt: skip
    search = [call for call in measure.calls if call[1] == 30]
    confirm = [call for call in measure.calls if call[1] == 40]
    assert len(search) == 20 and len(confirm) == len(tuned.variants) >= 3
    searched = np.concatenate([game_seeds(seed, games) for _, games, seed in search])
    confirmed = np.concatenate([game_seeds(seed, games) for _, games, seed in confirm])
    assert len(np.unique(searched)) == len(searched)  # no two trials share a deal either
    assert len(np.unique(confirmed)) == len(confirmed)
    assert not set(searched.tolist()) & set(confirmed.tolist())
    assert tuned.arrays["search_seeds"].tolist() == [seed for _, _, seed in search]
    assert tuned.arrays["confirm_seeds"].tolist() == [seed for _, _, seed in confirm]


def test_prefers_the_closer_of_two_equally_good_variants() -> None:
    # Every point with Mori + Oda = 21 meets the band: Mori -1 (1 change) and Mori +1, Oda -2 (3 changes)
    # among them; the tuner must rank a 1-change variant first although both score 0 misses.
    measure = Planted(noise=0.0)
    tuned = tune(
        shinobi.Rules(players=3), targets={"m": (20.9, 21.1)}, space=_space(), budget=40, games=10,
        confirm_games=10, keep=25, seed=5, penalty=0.0, measure=measure, progress=False,
    )  # fmt: skip
    met = [v for v in tuned.variants if v.met]
    assert len({v.distance for v in met}) > 1  # equally good variants at several distances were re-measured
    assert tuned.variants[0].distance == 1 == min(v.distance for v in met)
    assert [v.distance for v in met] == sorted(v.distance for v in met)


def test_a_seed_gives_the_same_search() -> None:
    def run() -> list[Any]:
        tuned = tune(
            shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=15, games=20,
            confirm_games=20, seed=9, measure=Planted(), progress=False,
        )  # fmt: skip
        return [(v.changes, v.miss) for v in tuned.variants] + tuned.arrays["score"].tolist()

    assert run() == run()


def test_impossible_points_are_skipped() -> None:
    # Ninjas go up to 3 only: the +1 of the three ninjas is impossible rules, never re-measured.
    space = Space.of(shinobi.Rules(players=3), options=(), cards=["Ninja", "Mori"], spread=1)
    tuned = tune(
        shinobi.Rules(players=3), targets={"m": (21.5, 21.6)}, space=space, budget=30, games=10, confirm_games=10,
        seed=2, measure=Planted(0.0), progress=False,
    )  # fmt: skip
    assert np.isnan(tuned.arrays["score"]).any()
    assert all(v.rules.ninjas <= 3 for v in tuned.variants)


def test_ctrl_c_stops_the_search_with_the_best_so_far() -> None:
    planted = Planted()
    pressed = []

    def measure(rules: Any, **kwargs: Any) -> Study:
        if len(planted.calls) == 8 and not pressed:
            pressed.append(True)
            raise KeyboardInterrupt
        return planted(rules, **kwargs)

    tuned = tune(
        shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=1000, games=10,
        confirm_games=10, seed=1, measure=measure, progress=False,
    )  # fmt: skip
    assert tuned.interrupted
    assert len(tuned.arrays["score"]) == len(tuned.arrays["distance"]) == 8  # the ninth trial was cut short
    assert tuned.variants and "interrupted" in tuned.record.text()
    assert all(v.search_trials >= 1 for v in tuned.variants)  # best so far: points the search had played
    assert sum(v.search_trials for v in tuned.variants) <= 8


def test_ctrl_c_during_the_remeasurement_keeps_the_variants_measured() -> None:
    planted = Planted()

    def measure(rules: Any, *, games: int, **kwargs: Any) -> Study:
        if games == 11 and len(planted.calls) == 12:
            raise KeyboardInterrupt
        return planted(rules, games=games, **kwargs)

    tuned = tune(
        shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=10, games=10,
        confirm_games=11, keep=5, seed=1, measure=measure, progress=False,
    )  # fmt: skip
    assert tuned.interrupted and len(tuned.variants) == 2


def test_the_table_is_tidy() -> None:
    pytest.importorskip("pandas")
    tuned = tune(
        shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=10, games=10,
        confirm_games=10, keep=2, seed=1, measure=Planted(), progress=False,
    )  # fmt: skip
    table = tuned.table()
    assert {"metric", "variant", "changes", "distance", "met", "value", "low", "high", "games"} <= set(table.columns)
    assert set(table["metric"]) == {"m", "target miss"}
    assert table.attrs["ordonnance.lab"]["study"] == "tune"


@pytest.mark.parametrize(
    ("kwargs", "error", "shown"),
    [
        ({"targets": {}}, InvalidArgumentError, r"\{\}"),
        ({"targets": {"m": 5}}, OrdonnanceTypeError, "5"),
        ({"targets": {"m": ("a", 1)}}, OrdonnanceTypeError, "'a'"),
        ({"targets": ["m"]}, OrdonnanceTypeError, "'m'"),
        ({"budget": 0}, InvalidArgumentError, "0"),
        ({"games": -5}, InvalidArgumentError, "-5"),
        ({"seed": -1}, Exception, "-1"),
        ({"space": "all"}, OrdonnanceTypeError, "'all'"),
        ({"space": Space.of(shinobi.Rules(), options=("attack",), cards=())}, InvalidArgumentError, "players=4"),
        ({"measure": 3}, OrdonnanceTypeError, "3"),
        ({"scenarios": {"x": {"attack": "optional"}}, "space": Space.of(shinobi.Rules(players=3), cards=())},
         InvalidArgumentError, "'attack'"),
        ({"scenarios": {"x": {"colour": 1}}}, InvalidArgumentError, "'colour'"),
        ({"penalty": -1.0}, InvalidArgumentError, "-1.0"),
    ],
)  # fmt: skip
def test_bad_arguments_get_the_librarys_errors(kwargs: dict[str, Any], error: type[Exception], shown: str) -> None:
    arguments: dict[str, Any] = {"targets": {"m": (0, 1)}, "space": _space(), "measure": Planted(), "progress": False}
    with pytest.raises(error, match=shown):
        tune(shinobi.Rules(players=3), **(arguments | kwargs))


def test_a_target_the_study_lacks_is_named() -> None:
    with pytest.raises(InvalidArgumentError, match="'length'"):
        tune(shinobi.Rules(players=3), targets={"length": (0, 1)}, space=_space(), budget=2, games=5,
             measure=Planted(), progress=False)  # fmt: skip


# Real games, through lab.metrics


def test_finds_the_option_that_obviously_meets_a_real_target() -> None:
    # A Black Prince mirror match: seat 0 starting wins about 61% of Random games, a coin for
    # the first player makes it fair. max_turns 100 changes nothing (games take about 14 turns).
    start = black_prince.Rules(armies=("French", "French"))
    space = Space.of(start, options={"first": ("seat0", "coin"), "max_turns": (100, 200)}, cards=())
    tuned = tune(
        start, targets={"first-player advantage": (-0.04, 0.04)}, space=space, budget=8, games=400,
        confirm_games=2000, keep=3, seed=4, progress=False,
    )  # fmt: skip
    best = tuned.variants[0]
    assert best.met and best.changes == "first='coin'" and best.rules == black_prince.Rules(armies=("French", "French"), first="coin")
    start_variant = next(v for v in tuned.variants if v.distance == 0)
    assert not start_variant.met and start_variant.miss > 0.5
    figure = tuned.get("first-player advantage", variant=0)
    assert figure.games == 2000 and figure.low < 0 < figure.high


def test_every_scenario_must_meet_the_targets() -> None:
    start = black_prince.Rules()
    space = Space.of(start, cards=())
    scenarios = {f"{a} v {a}": {"armies": (a, a)} for a in ("French", "English")}
    tuned = tune(
        start, targets=[target("win rate", 0.45, 0.55, seat=0)], space=space, budget=4, games=400,
        confirm_games=1000, keep=2, seed=8, scenarios=scenarios, progress=False,
    )  # fmt: skip
    assert tuned.variants[0].rules.first == "coin" and tuned.variants[0].met
    assert set(tuned.variants[0].studies) == set(scenarios)
    for name in scenarios:
        assert 0.45 <= tuned.get("win rate", variant=0, scenario=name, seat=0).value <= 0.55


def test_progress_shows_the_trials_and_the_best_score(capsys: pytest.CaptureFixture[str]) -> None:
    tune(
        shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=5, games=10,
        confirm_games=10, keep=1, seed=1, measure=Planted(), progress=True,
    )  # fmt: skip
    shown = capsys.readouterr().err
    assert "tune" in shown and "5/5" in shown and "best" in shown and "re-measure" in shown
    tune(
        shinobi.Rules(players=3), targets={"m": (19.5, 20.5)}, space=_space(), budget=5, games=10,
        confirm_games=10, keep=1, seed=1, measure=Planted(), progress=False,
    )  # fmt: skip
    assert capsys.readouterr().err == ""


def test_without_optuna_the_tuner_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna now raises ImportError
    with pytest.raises(ImportError, match=r"ordonnance\[lab\]"):
        tune(shinobi.Rules(players=3), targets={"m": (0, 1)}, space=_space(), measure=Planted(), progress=False)


def test_ctrl_c_inside_lab_metrics_stops_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # lab.metrics catches Ctrl-C itself and returns the games played so far: the tuner must stop, not go on.
    metrics_module = importlib.import_module("ordonnance.lab.measures")
    real_read, reads = metrics_module._read, []

    def read(*args: Any) -> Any:
        reads.append(1)
        if len(reads) == 3:
            raise KeyboardInterrupt
        return real_read(*args)

    monkeypatch.setattr(metrics_module, "_read", read)
    start = black_prince.Rules(armies=("French", "French"))
    tuned = tune(
        start, targets={"first-player advantage": (-0.04, 0.04)}, space=Space.of(start, cards=()), budget=50,
        games=100, confirm_games=100, seed=1, progress=False,
    )  # fmt: skip
    assert tuned.interrupted and len(tuned.arrays["score"]) == 2
    assert all(v.studies[""].get("first-player advantage").games == 100 for v in tuned.variants)


@pytest.mark.parametrize("custom", [False, True], ids=["default space", "custom space"])
def test_the_recorded_call_makes_the_same_study_again(custom: bool) -> None:
    from ordonnance.lab.space import Dimension

    start = shinobi.Rules(players=3)
    space = Space.of(start, options={"attack": ("mandatory", "optional")}, cards=["Ninja"], spread=2) if custom else None
    tuned = tune(start, targets=[target("win rate", 0.3, 0.4, seat=0)], space=space, budget=3, games=40, confirm_games=40, keep=1,
                 seed=5, progress=False)  # fmt: skip
    names = {"lab": importlib.import_module("ordonnance.lab"), "Rules": shinobi.Rules, "Space": Space,
             "Dimension": Dimension, "Target": Target}  # fmt: skip
    again = eval(tuned.record.call, names)  # noqa: S307 - the point of the test
    assert ("space=None" in tuned.record.call) is not custom
    assert again.text() == tuned.text()
