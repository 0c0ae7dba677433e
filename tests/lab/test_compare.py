"""lab.compare: both arms replay identical deals when the rules allow, the differences are
paired game by game, and the record says what was paired."""

from __future__ import annotations

import importlib
import json
from typing import Any

import numpy as np
import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import lab, shinobi
from ordonnance.core.rng import skipped
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.lab.comparison import same_deals
from ordonnance.lab.stats import Difference, paired_difference

metrics_module = importlib.import_module("ordonnance.lab.measures")
OPTIONS: dict[str, Any] = dict(games=500, seed=5, trace_games=0, skill_games=0, progress=False)


def _dealt(game: Any) -> dict[str, Any]:
    data = json.loads(type(game).new(game.rules, seed=json.loads(game.to_json())["seed"]).to_json())
    return {k: v for k, v in data.items() if k not in ("rules", "format", "version")}


def _played(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, int, int]]:
    """Every chunk compare plays: (part, rules, start, stop)."""
    calls: list[tuple[Any, Any, int, int]] = []
    real = metrics_module._read

    def spy(part: Any, rules: Any, start: int, stop: int) -> Any:
        calls.append((part, rules, start, stop))
        return real(part, rules, start, stop)

    monkeypatch.setattr(metrics_module, "_read", spy)
    return calls


def _replayed(package: Any, part: Any, rules: Any, start: int, stop: int) -> Any:
    return package.simulate(rules, games=stop - start, seed=skipped(part.seed, start), players=part.players(rules), record=True)


@pytest.mark.parametrize(
    ("package", "base", "variant"),
    [
        (od, od.Rules(), od.Rules(auto_claim=True)),
        (shinobi, shinobi.Rules(players=4), shinobi.Rules(players=4, attack="optional")),
        (bp, bp.Rules(), bp.Rules(max_turns=12)),
    ],
    ids=["ordonnance", "shinobi", "black-prince"],
)
def test_both_arms_replay_identical_deals(monkeypatch: pytest.MonkeyPatch, package: Any, base: Any, variant: Any) -> None:
    calls = _played(monkeypatch)
    study = lab.compare(base, variant, **OPTIONS)
    assert study.record.notes[0].startswith("both arms played identical deals")
    chunks = [call for call in calls if call[0].name == "games"]
    assert sum(stop - start for _, rules, start, stop in chunks if rules is base) == 500
    wins: dict[int, list[int]] = {id(base): [], id(variant): []}
    for part, rules, start, stop in chunks:
        if rules is not base:
            continue
        a = _replayed(package, part, base, start, stop)
        b = _replayed(package, part, variant, start, stop)
        assert np.array_equal(a.seeds, b.seeds) and np.array_equal(a.bot_seeds, b.bot_seeds)
        for g in range(stop - start):
            first, second = a.replay(g), b.replay(g)
            assert _dealt(first) == _dealt(second)
            wins[id(base)].append(-1 if first.winner is None else first.winner)
            wins[id(variant)].append(-1 if second.winner is None else second.winner)
    # the study counted exactly the replayed games
    for rules, arm in ((base, "base"), (variant, "variant")):
        assert study.get("win rate", seat=0, arm=arm).value == wins[id(rules)].count(0) / 500
    by_hand = paired_difference(np.array(wins[id(variant)]) == 0, np.array(wins[id(base)]) == 0)
    assert study.get("first-player advantage", arm="variant - base") == by_hand


def test_pairing_narrows_the_first_player_advantage() -> None:
    study = lab.compare(od.Rules(), od.Rules(auto_claim=True), **{**OPTIONS, "games": 4000})
    difference = study.get("first-player advantage", arm="variant - base")
    assert isinstance(difference, Difference)
    assert difference.unpaired_games > 2 * difference.games
    base, variant = study.get("first-player advantage", arm="base"), study.get("first-player advantage", arm="variant")
    assert difference.width < (base.width**2 + variant.width**2) ** 0.5 / 1.2
    assert difference.value == pytest.approx(variant.value - base.value)


def test_other_player_counts_share_the_seeds_not_the_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _played(monkeypatch)
    study = lab.compare(od.Rules(), od.Rules(players=3), **{**OPTIONS, "skill_games": 60})
    assert "player counts differ" in study.record.notes[0] and "not on identical deals" in study.record.notes[0]
    assert "compared unpaired" in study.record.notes[1]
    games = [c for c in calls if c[0].name == "games"]
    two_part, two, start, stop = games[0]
    three_part, three, _, _ = next(c for c in games if c[1].players == 3)
    assert start == 0
    a, b = _replayed(od, two_part, two, 0, stop), _replayed(od, three_part, three, 0, stop)
    assert np.array_equal(a.seeds, b.seeds)
    assert np.array_equal(a.bot_seeds, b.bot_seeds[:, :2])  # each seat's stream is common
    assert _dealt(a.replay(0)) != _dealt(b.replay(0))
    assert study.get("win rate", seat=2, arm="variant").games == 500
    assert study.find("win rate", seat=2, arm="variant - base") == ()
    skill = study.get("stronger bot wins", arm="variant - base")
    assert skill.games == 60 + 60 and skill.unpaired_games == 60  # unpaired: both arms' games


def test_same_deals_reads_the_dealt_position() -> None:
    assert same_deals(shinobi.Rules(players=3), shinobi.Rules(players=3, ninjas=2), seed=1) is False
    assert same_deals(shinobi.Rules(players=3), shinobi.Rules(players=3, attack="optional"), seed=1) is True
    assert same_deals(bp.Rules(), bp.Rules(first="coin"), seed=1) is False  # the coin draws from the chance stream


def test_a_coin_for_the_first_player_is_not_an_identical_deal() -> None:
    study = lab.compare(bp.Rules(), bp.Rules(first="coin"), **OPTIONS)
    assert study.record.notes[0].startswith("the rule sets deal differently")


def test_bad_arguments() -> None:
    with pytest.raises(OrdonnanceTypeError, match="one game"):
        lab.compare(od.Rules(), shinobi.Rules(), games=10)
    with pytest.raises(InvalidArgumentError, match="variant_players"):
        lab.compare(od.Rules(), od.Rules(players=3), games=10, players=[od.bots.Random(), od.bots.Random()])
    with pytest.raises(InvalidArgumentError, match="games"):
        lab.compare(od.Rules(), od.Rules(), games=0)


def test_equal_bots_of_each_arm_are_the_same_bots() -> None:
    def greedy() -> list[Any]:
        return [od.bots.Greedy(seed=0), od.bots.Greedy(seed=1)]

    study = lab.compare(od.Rules(), od.Rules(auto_claim=True), **{**OPTIONS, "players": greedy(), "variant_players": greedy()})
    assert "with the same bots' streams" in study.record.notes[0]
    assert not any(p.startswith("variant:") for p in study.record.players)
    other = lab.compare(od.Rules(), od.Rules(), **{**OPTIONS, "players": greedy(),
                                                   "variant_players": [od.bots.Random(seed=0), od.bots.Random(seed=1)]})  # fmt: skip
    assert "each seat's bot drawing from the same stream" in other.record.notes[0]
    alone = lab.metrics(od.Rules(), games=500, seed=5, players=[od.bots.Random(seed=0), od.bots.Random(seed=1)],
                        trace_games=0, skill_games=0, progress=False)  # fmt: skip
    assert other.get("win rate", seat=0, arm="variant") == alone.get("win rate", seat=0)
