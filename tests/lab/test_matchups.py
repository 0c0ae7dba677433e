"""lab.matchups: Black Prince's army table and Shinobi's seat table: shape, independence of cells, mirrors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ordonnance import Rules, black_prince, shinobi
from ordonnance.black_prince.cards import ARMIES
from ordonnance.core.seeds import game_seeds
from ordonnance.errors import OrdonnanceError
from ordonnance.lab.matchup_tables import matchups


def test_black_prince_table_has_every_ordered_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real = black_prince.simulate

    def spy(rules: Any, **kwargs: Any) -> Any:
        seen.append((rules.armies, kwargs["seed"]))
        return real(rules, **kwargs)

    monkeypatch.setattr(black_prince, "simulate", spy)
    study = matchups(black_prince.Rules(), games=20, seed=7)
    assert [armies for armies, _ in seen] == [(a, b) for a in ARMIES for b in ARMIES]
    assert [seed for _, seed in seen] == game_seeds(7, 16).tolist()  # each cell its own seed
    assert len(study.find("win rate")) == 32 and len(study.find("army score")) == 16
    for a in ARMIES:
        for b in ARMIES:
            won = [study.get("win rate", army0=a, army1=b, seat=s).value for s in (0, 1)]
            drawn = study.get("draw rate", army0=a, army1=b).value
            assert sum(won) + drawn == pytest.approx(1.0)


def test_mirror_matches_are_even_when_a_coin_picks_the_first_player() -> None:
    study = matchups(black_prince.Rules(first="coin"), games=600, seed=1, armies=["English", "Scottish"])
    for army in ("English", "Scottish"):
        score = study.get("army score", army0=army, army1=army)
        assert score.covers(0.5) and score.width < 0.1


def test_shinobi_seat_table() -> None:
    study = matchups(shinobi.Rules(attack="optional"), games=200, seed=3)
    assert [(r.label("players"), r.label("seat")) for r in study.find("win rate")] == [
        (n, seat) for n in (3, 4, 5) for seat in range(n)
    ]
    for n in (3, 4, 5):
        total = sum(r.estimate.value for r in study.find("win rate", players=n)) + study.get("shared win rate", players=n).value
        assert total == pytest.approx(1.0)
    assert "attack" in study.record.rules[0] and '"optional"' in study.record.rules[0]


def test_players_play_every_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real = shinobi.simulate

    def spy(rules: Any, **kwargs: Any) -> Any:
        result = real(rules, **kwargs)
        seen.append(result.players)
        return result

    monkeypatch.setattr(shinobi, "simulate", spy)
    matchups(shinobi.Rules(), games=10, seed=1, players=shinobi.bots.Random)
    assert seen == [tuple(repr(shinobi.bots.Random(seed=s)) for s in range(n)) for n in (3, 4, 5)]
    bots = [shinobi.bots.Random(seed=9)] * 3
    study = matchups(shinobi.Rules(), games=10, seed=1, counts=[3], players=iter(bots))
    assert seen[-1] == tuple(map(repr, bots)) and study.record.players == (f"3 players: {', '.join(map(repr, bots))}",)
    with pytest.raises(OrdonnanceError, match="4 bots"):
        matchups(shinobi.Rules(), games=10, seed=1, players=bots)


def test_ctrl_c_returns_the_cells_played(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = shinobi.simulate

    def interrupted(rules: Any, **kwargs: Any) -> Any:
        if rules.players == 5:
            raise KeyboardInterrupt
        return real(rules, **kwargs)

    monkeypatch.setattr(shinobi, "simulate", interrupted)
    study = matchups(shinobi.Rules(), games=20, seed=1, progress=True)
    assert sorted({r.label("players") for r in study.rows}) == [3, 4]  # type: ignore[type-var]
    assert "stopped by Ctrl-C: 2 of the 3 cells played" in study.record.notes
    assert "lab matchups" in capsys.readouterr().err


def test_table_columns() -> None:
    pytest.importorskip("pandas")
    table = matchups(shinobi.Rules(), counts=[4], games=50, seed=1).table()
    assert list(table.columns) == ["metric", "players", "seat", "value", "low", "high", "games"]
    assert len(table) == 5 and np.all(table["low"] <= table["value"])


def test_bad_arguments() -> None:
    with pytest.raises(OrdonnanceError, match="card_values"):
        matchups(Rules(), games=10)
    with pytest.raises(OrdonnanceError, match="player count"):
        matchups(shinobi.Rules(), counts=[6], games=10)
    with pytest.raises(OrdonnanceError, match="army"):
        matchups(black_prince.Rules(), armies=["Roman"], games=10)
