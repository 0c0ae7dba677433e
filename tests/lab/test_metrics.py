"""lab.metrics: every metric against a count by hand over recorded games, for every game."""

from __future__ import annotations

import importlib
import json
import math
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import lab, shinobi
from ordonnance.errors import InvalidArgumentError, InvalidSeedError, OrdonnanceTypeError
from ordonnance.lab.measures import lead_figures

# the module of lab.metrics
metrics_module = importlib.import_module("ordonnance.lab.measures")

RULES = [od.Rules(), od.Rules(players=3, scoring="points"), shinobi.Rules(players=3), bp.Rules()]
PACKAGES = {od.Rules: od, shinobi.Rules: shinobi, bp.Rules: bp}
GAMES = 600


def _study(rules: Any, **kwargs: Any) -> lab.Study:
    options: dict[str, Any] = dict(games=GAMES, seed=11, trace_games=8, skill_games=0, search_games=0, progress=False)
    options.update(kwargs)
    return lab.metrics(rules, **options)


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_seat_figures_and_length_against_the_replayed_games(rules: Any) -> None:
    study = _study(rules)
    result = PACKAGES[type(rules)].simulate(rules, games=GAMES, seed=11, record=True)
    winners = [result.replay(g).winner for g in range(GAMES)]
    n = rules.players
    for seat in range(n):
        assert study.get("win rate", seat=seat).value == winners.count(seat) / GAMES
        assert study.get("score", seat=seat).value == pytest.approx(float(np.mean(result.scores[:, seat])))
    assert study.get("nobody wins alone").value == winners.count(None) / GAMES
    assert study.get("first-player advantage").value == pytest.approx(winners.count(0) / GAMES - 1 / n)
    lengths = [len(result.replay(g).history) for g in range(GAMES)]
    assert study.get("decisions", stat="mean").value == pytest.approx(np.mean(lengths))
    assert study.get("decisions", stat="median").value == sorted(lengths)[(GAMES + 1) // 2 - 1]
    assert study.arrays["decisions"].tolist() == np.bincount(lengths).tolist()
    assert study.get("rounds", stat="p90").games == GAMES


def test_chunks_play_the_games_of_one_simulate_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metrics_module, "CHUNK_SECONDS", 1e-9)  # many small chunks
    study = _study(od.Rules(), games=3000)
    winner = od.simulate(od.Rules(), games=3000, seed=11).winner
    assert study.get("win rate", seat=1).value == np.count_nonzero(winner == 1) / 3000


def _leaders_by_hand(game_type: Any, rules: Any, seed: int, history: Any) -> list[int]:
    game = game_type.new(rules, seed=seed)
    leaders = []
    for action in history:
        game.apply(action)
        scores = game.scores
        best = [seat for seat in range(rules.players) if scores[seat] == max(scores)]
        leaders.append(best[0] if len(best) == 1 else -1)
    return leaders


@pytest.mark.parametrize("rules", [od.Rules(), shinobi.Rules(players=4), bp.Rules()], ids=repr)
def test_lead_changes_against_the_replayed_games(rules: Any) -> None:
    study = _study(rules, trace_games=6)
    package = PACKAGES[type(rules)]
    result = package.simulate(rules, games=6, seed=11, record=True)
    changes, decided = [], []
    for g in range(6):
        finished = result.replay(g)
        leaders = _leaders_by_hand(package.Game, rules, int(result.seeds[g]), finished.history)
        switches = [b for a, b in zip([x for x in leaders if x >= 0], [x for x in leaders if x >= 0][1:]) if a != b]
        changes.append(len(switches))
        if finished.winner is not None:
            last_behind = max((i for i, x in enumerate(leaders) if x != finished.winner), default=-1)
            decided.append((last_behind + 1) / len(leaders))
    assert study.get("lead changes", stat="mean").value == pytest.approx(np.mean(changes))
    assert study.get("lead changes", stat="mean").games == 6
    assert study.get("decided at").value == pytest.approx(np.mean(decided))
    assert study.get("decided at").games == len(decided)


def test_black_prince_fights_against_the_replayed_games() -> None:
    rules = bp.Rules()
    study = _study(rules, trace_games=7)
    result = bp.simulate(rules, games=7, seed=11, record=True)
    per_seat: list[list[int]] = [[], []]
    for g in range(7):
        game = bp.Game.new(rules, seed=int(result.seeds[g]))
        counts = [0, 0]
        for action in result.replay(g).history:
            counts[game.current_player] += json.loads(bp.action_to_json(action))["type"] == "fight"
            game.apply(action)
        per_seat[0].append(counts[0])
        per_seat[1].append(counts[1])
    for seat in range(2):
        assert study.get("fights", seat=seat).value == pytest.approx(np.mean(per_seat[seat]))
        assert study.get("fights", seat=seat).games == 7
    assert study.get("fights in all").value == pytest.approx(np.mean(per_seat[0]) + np.mean(per_seat[1]))
    assert sum(per_seat[0]) + sum(per_seat[1]) > 0


def test_lead_figures_by_hand() -> None:
    assert lead_figures([0, 1, 0, 1], 1) == (3, 0.75)
    assert lead_figures([-1, -1, 2], 2) == (0, 2 / 3)
    assert lead_figures([1, 1, 1], 0) == (0, 1.0)  # a tie-break winner never led: decided at the end
    assert math.isnan(lead_figures([], 0)[1])


def test_ordonnance_territories_against_its_summary() -> None:
    study = _study(od.Rules())
    result = od.simulate(od.Rules(), games=GAMES, seed=11)
    summary = result.summary()
    for t in od.Territory:
        for seat in range(2):
            assert study.get("territory won", territory=t.label, seat=seat).value == summary.territory_frequency[t][seat]
        undecided = np.count_nonzero(result.owners[:, t] < 0) / GAMES
        assert study.get("territory undecided", territory=t.label).value == undecided
        markers = result.markers[:, t]
        assert study.get("victory marker", territory=t.label).value == pytest.approx(markers[markers > 0].mean())


def test_shinobi_clans_against_its_summary() -> None:
    from ordonnance.shinobi.cards import CLAN_NAMES

    rules = shinobi.Rules(players=4)
    study = _study(rules)
    summary = shinobi.simulate(rules, games=GAMES, seed=11).summary()
    for clan, name in enumerate(CLAN_NAMES):
        assert study.get("clan win rate", clan=name).value == pytest.approx(summary.clan_win_rate[clan])
    assert study.get("neutral clan leads").value == pytest.approx(summary.neutral_leader_rate)
    assert study.get("neutral cards").value == pytest.approx(summary.neutral_cards)
    assert study.get("turns", stat="mean").value == pytest.approx(summary.mean_turns)


def test_black_prince_routs_against_its_summary() -> None:
    study = _study(bp.Rules())
    summary = bp.simulate(bp.Rules(), games=GAMES, seed=11).summary()
    assert (study.get("score", seat=0).value, study.get("score", seat=1).value) == pytest.approx(summary.mean_routed)
    assert study.get("turns", stat="mean").value == pytest.approx(summary.mean_turns)


@pytest.mark.parametrize("rules", [od.Rules(), shinobi.Rules(players=3), bp.Rules()], ids=repr)
def test_a_greedy_bot_beats_random_ones(rules: Any) -> None:
    study = _study(rules, games=10, trace_games=0, skill_games=90, search_games=6, search_rollouts=2)
    skill = study.get("stronger bot wins", strong="Greedy", weak="Random")
    assert skill.games == 90 and skill.low > 1 / rules.players
    assert study.get("stronger bot wins", weak="Greedy").games == 6


def test_the_skill_games_have_deals_of_their_own() -> None:
    parts = metrics_module.study_parts(od.Rules(), None, 100, 11, 10, 20, 4, 2)
    seeds = [part.seed for part in parts if part.name not in ("games", "trace")]
    assert len(set(seeds)) == len(seeds) == 4 and 11 not in seeds


def test_ctrl_c_returns_what_was_played(monkeypatch: pytest.MonkeyPatch) -> None:
    real = metrics_module._read
    calls = []

    def interrupted(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(metrics_module, "_read", interrupted)
    study = _study(od.Rules(), games=5000)
    assert study.get("win rate", seat=0).games == 256  # the first chunk
    assert "stopped by Ctrl-C" in study.record.notes[-1]


def test_record_says_how_to_play_it_again() -> None:
    study = _study(shinobi.Rules(players=5))
    assert study.record.seed == 11 and study.record.games == GAMES
    assert '"players": 5' in study.record.rules[0]
    assert "games=600" in study.record.call


def test_bad_arguments_get_the_librarys_errors() -> None:
    with pytest.raises(OrdonnanceTypeError, match="'ordonnance'"):
        lab.metrics("ordonnance", games=10)
    with pytest.raises(InvalidArgumentError, match="-1"):
        lab.metrics(od.Rules(), games=-1)
    with pytest.raises(InvalidSeedError, match="-3"):
        lab.metrics(od.Rules(), games=10, seed=-3)
    with pytest.raises(InvalidArgumentError, match="skill_games"):
        lab.metrics(od.Rules(), games=10, skill_games=-5)
