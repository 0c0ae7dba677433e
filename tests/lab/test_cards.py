"""lab.card_values: the arms' design (shared seeds as documented) and planted effects found with the right sign."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from ordonnance import Card, Rules, black_prince, shinobi
from ordonnance.black_prince.game import shuffled_decks
from ordonnance.core.seeds import game_seeds
from ordonnance.errors import InvalidArgumentError, OrdonnanceError
from ordonnance.lab.cards import card_values

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[Any]:
    """Every result ``module.simulate`` returns while the test runs."""
    results: list[Any] = []
    real = module.simulate

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        results.append(result)
        return result

    monkeypatch.setattr(module, "simulate", spy)
    return results


def test_owned_kinds_pair_deal_and_bot_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    results = _spy(monkeypatch, shinobi)
    card_values(shinobi.Rules(players=3), kinds=["Oda"], games=300, seed=5)
    base, added, removed = results
    for arm in (added, removed):
        assert np.array_equal(arm.seeds, base.seeds) and np.array_equal(arm.bot_seeds, base.bot_seeds)
        assert np.array_equal(arm.clans, base.clans)  # the clans are dealt identically: the holder is the same seat
        assert arm.rules.samurai[2] == base.rules.samurai[2] + (1 if arm is added else -1)


def test_black_prince_arms_keep_the_untouched_deck_order(monkeypatch: pytest.MonkeyPatch) -> None:
    results = _spy(monkeypatch, black_prince)
    card_values(black_prince.Rules(), kinds=["1:Battle"], changes=["remove"], games=50, seed=2)
    base, removed = results
    assert np.array_equal(base.seeds, removed.seeds) and np.array_equal(base.bot_seeds, removed.bot_seeds)
    for seed in base.seeds[:20].tolist():
        base_decks, _ = shuffled_decks(base.rules, seed)
        variant_decks, _ = shuffled_decks(removed.rules, seed)
        assert base_decks[0] == variant_decks[0]
        assert len(variant_decks[1]) == len(base_decks[1]) - 1
    # a swap keeps seat 0's deck size, so seat 1's shuffle draws the same numbers: its order is identical
    card_values(black_prince.Rules(), kinds=[], swaps=[("0:Battle", "0:Knights 2")], games=50, seed=2)
    swapped = results[-1]
    assert np.array_equal(base.seeds, swapped.seeds)
    for seed in base.seeds[:20].tolist():
        base_decks, _ = shuffled_decks(base.rules, seed)
        variant_decks, _ = shuffled_decks(swapped.rules, seed)
        assert base_decks[1] == variant_decks[1] and base_decks[0] != variant_decks[0]


@pytest.mark.parametrize(("kind", "change"), [("LBSHF", "add"), ("L", "remove"), ("L", "swap to HF")])
def test_ordonnance_arms_replay_identical_deals_but_the_changed_copy(
    monkeypatch: pytest.MonkeyPatch, kind: str, change: str
) -> None:
    import ordonnance
    from ordonnance import simulation

    results = _spy(monkeypatch, ordonnance)  # the base arm's simulate, then the variant's own deal:
    real = simulation._simulate_orders
    monkeypatch.setattr(simulation, "_simulate_orders", lambda *args: results.append(real(*args)) or results[-1])
    swaps = [(kind, change.split()[-1])] if change.startswith("swap") else []
    study = card_values(Rules(), kinds=[] if swaps else [kind], changes=[] if swaps else [change], swaps=swaps, games=120, seed=4)
    base, variant = results
    assert np.array_equal(base.seeds, game_seeds(4, 120)) and np.array_equal(variant.seeds, base.seeds)
    assert np.array_equal(variant.bot_seeds, base.bot_seeds)
    mask, other = Card.parse(kind).mask, Card.parse(change.split()[-1]).mask if swaps else 0
    for i in range(len(base)):
        before = [card.mask for card in base.record(i)[0]]
        after = [card.mask for card in variant.record(i)[0]]
        assert variant.replay(i).is_over and base.replay(i).is_over  # both arms' records replay from their own deals
        bottom = max(len(before), len(after)) - 1
        differ = [p for p in range(bottom + 1) if p >= min(len(before), len(after)) or before[p] != after[p]]
        changed = [p for p in differ if p != bottom] or [bottom]  # every other card in its place
        assert len(changed) == 1
        if change == "add":
            assert after[changed[0]] == mask
        elif change == "remove":
            assert before[changed[0]] == mask or before[bottom] == mask
        else:
            assert differ == changed and before[changed[0]] == mask and after[changed[0]] == other
    assert any("paired on purpose" in note for note in study.record.notes)


@pytest.mark.skipif(not JIT, reason="hundreds of studies: the kernel's speed is needed")
def test_ordonnance_intervals_cover_a_large_study_s_value() -> None:
    """300 small paired studies against one large one: their 95% intervals hold its value about as often."""
    metric = "holder win rate change"
    truth = card_values(Rules(), kinds=["LBSHF"], changes=["add"], games=100_000, seed=10**9).get(metric)
    hits = [
        card_values(Rules(), kinds=["LBSHF"], changes=["add"], games=200, seed=s).get(metric).covers(truth.value)
        for s in range(300)
    ]
    assert 0.91 <= sum(hits) / len(hits) <= 0.99  # 95% +- about 3 binomial standard errors of 300 studies


@pytest.mark.skipif(not JIT, reason="60,000 games: the kernel's speed is needed")
def test_ordonnance_paired_interval_is_narrower_than_independent_arms(monkeypatch: pytest.MonkeyPatch) -> None:
    import ordonnance
    from ordonnance import simulation
    from ordonnance.lab import _deals
    from ordonnance.lab.cards import _wins
    from ordonnance.lab.stats import paired_difference

    arms = _spy(monkeypatch, simulation)
    real = simulation._simulate_orders
    monkeypatch.setattr(simulation, "_simulate_orders", lambda *args: arms.append(real(*args)) or arms[-1])
    paired = card_values(Rules(), kinds=["HF"], changes=["add"], games=20_000, seed=3).get("holder win rate change")
    added = arms[-1]
    orders, places = _deals.derived_orders(Rules(), added.seeds, _deals.ADD, Card.parse("HF").mask)
    drew = _deals.drawers(added, orders, places)
    held = drew >= 0
    other_base = ordonnance.simulate(Rules(), games=20_000, seed=4, players=[ordonnance.bots.Greedy(seed=s) for s in (0, 1)])
    games = np.arange(len(drew))[held]
    independent = paired_difference(_wins(added)[games, drew[held]], _wins(other_base)[games, drew[held]])
    assert paired.games == independent.games
    assert paired.high - paired.low < 0.9 * (independent.high - independent.low)


@pytest.mark.parametrize(("kind", "change"), [("LS", "add"), ("L", "remove"), ("L", "swap to HF")])
def test_ordonnance_holder_is_the_seat_that_drew_the_changed_place(
    monkeypatch: pytest.MonkeyPatch, kind: str, change: str
) -> None:
    """The row against a hand count: each game's holder found by replaying the arm holding the copy through
    the engine and watching its draw pile; games where the changed place was never drawn left out."""
    import ordonnance
    from ordonnance import simulation
    from ordonnance.lab import _deals
    from ordonnance.lab.stats import paired_difference

    results = _spy(monkeypatch, ordonnance)
    real = simulation._simulate_orders
    monkeypatch.setattr(simulation, "_simulate_orders", lambda *args: results.append(real(*args)) or results[-1])
    swaps = [(kind, change.split()[-1])] if change.startswith("swap") else []
    study = card_values(Rules(), kinds=[] if swaps else [kind], changes=[] if swaps else [change], swaps=swaps, games=80, seed=6)
    base, variant = results
    holding = base if change == "remove" else variant
    code = {"add": _deals.ADD, "remove": _deals.REMOVE}.get(change, _deals.SWAP)
    other = Card.parse(change.split()[-1]).mask if swaps else 0
    _, places = _deals.derived_orders(Rules(), base.seeds, code, Card.parse(kind).mask, other)
    holders, base_results, variant_results = [], [], []
    for i, place in enumerate(places.tolist()):
        order, steps = holding.record(i)
        game = ordonnance.Game.new(holding.rules, deck=order)
        seat = place % 2 if place < 10 else game.current_player if place < len(order) - len(game._deck) else None
        for _, action in steps:
            if seat is not None:
                break
            game.apply(action)
            if place < len(order) - len(game._deck):
                seat = game.current_player
        holders.append(seat)
        if seat is not None:
            base_results.append(float(base.winner[i] == seat))
            variant_results.append(float(variant.winner[i] == seat))
    expected = paired_difference(np.array(variant_results), np.array(base_results))
    got = study.get("holder win rate change")
    assert got.games == len(base_results) == sum(h is not None for h in holders) < 80
    assert (got.value, got.low, got.high) == pytest.approx((expected.value, expected.low, expected.high))
    assert study.rows[0].label("holder") == "drew"
    assert any("never drawn" in note for note in study.record.notes)


@pytest.mark.skipif(not JIT, reason="14,000 games: the kernel's speed is needed (the twin tests check it without the JIT)")
def test_planted_ordonnance_values_have_the_right_sign() -> None:
    # A five-symbol card wins its army, a single Lance rarely does. The holder of an added copy gets it
    # instead of the card that was at its place, and the holder of a removed one the bottom card instead:
    # among mostly Lances those are Lances, among mostly five-symbol cards they are five-symbol cards.
    lances = card_values(
        Rules(deck=["L"] * 37 + ["LBSHF"] * 4), kinds=["LBSHF"], swaps=[("L", "LBSHF")], games=2000, seed=1
    )
    assert lances.get("holder win rate change", kind="LBSHF", change="add").low > 0
    assert lances.get("holder win rate change", kind="LBSHF", change="remove").high < 0
    # a swap's holder holds the card swapped in
    assert lances.get("holder win rate change", kind="L", change="swap to LBSHF").low > 0
    strong = card_values(Rules(deck=["L"] * 4 + ["LBSHF"] * 37), kinds=["L"], games=2000, seed=1)
    assert strong.get("holder win rate change", kind="L", change="add").high < 0
    assert strong.get("holder win rate change", kind="L", change="remove").low > 0


def test_planted_shinobi_clan_values_have_the_right_sign() -> None:
    # three samurai a clan: one more of my clan's cards is a large share of the table
    study = card_values(shinobi.Rules(players=3, samurai=3, ninjas=0), kinds=["Oda"], games=2000, seed=1)
    assert study.get("holder win rate change", kind="Oda", change="add").low > 0
    assert study.get("holder win rate change", kind="Oda", change="remove").high < 0
    # Oda is neutral in 2 games of 5 with three players: those games have no holder
    games = study.get("holder win rate change", kind="Oda", change="add").games
    assert 0.5 < games / 2000 < 0.7


def test_removing_a_battle_card_costs_its_holder() -> None:
    study = card_values(black_prince.Rules(), kinds=["1:Battle"], changes=["remove"], games=1500, seed=3)
    estimate = study.get("holder win rate change", kind="1:Battle", change="remove", holder=1)
    assert estimate.high < 0


def test_a_kind_nobody_holds_reports_each_seat() -> None:
    study = card_values(shinobi.Rules(players=3), kinds=["Ninja"], changes=["remove"], games=100, seed=1)
    assert [r.label("seat") for r in study.rows] == [0, 1, 2]
    assert {r.metric for r in study.rows} == {"seat win rate change"}


def test_swaps_and_every_kind() -> None:
    study = card_values(Rules(), kinds=["L"], changes=[], swaps=[("L", "LBSHF")], games=100, seed=1)
    assert [r.label("change") for r in study.rows] == ["swap to LBSHF"]
    every = card_values(shinobi.Rules(players=3), games=20, seed=1)  # adding a fourth ninja is refused: left out
    assert len(every.find("holder win rate change")) == 10
    assert any("Ninja add: left out" in note for note in every.record.notes)


def test_any_bots_may_play(monkeypatch: pytest.MonkeyPatch) -> None:
    results = _spy(monkeypatch, black_prince)
    random = [black_prince.bots.Random(seed=3), black_prince.bots.Random(seed=4)]
    study = card_values(black_prince.Rules(), kinds=["0:Battle"], changes=["add"], games=30, seed=1, players=random)
    assert all(result.players == tuple(map(repr, random)) for result in results)
    assert study.record.players == tuple(map(repr, random))
    card_values(black_prince.Rules(), kinds=["0:Battle"], changes=["add"], games=30, seed=1, players=black_prince.bots.Random)
    assert results[-1].players == tuple(repr(black_prince.bots.Random(seed=s)) for s in (0, 1))
    card_values(black_prince.Rules(), kinds=["0:Battle"], changes=["add"], games=30, seed=1)
    assert results[-1].players == tuple(repr(black_prince.bots.Greedy(seed=s)) for s in (0, 1))
    with pytest.raises(InvalidArgumentError, match="2 bots"):
        card_values(black_prince.Rules(), kinds=["0:Battle"], games=30, players=random[:1])


def test_ctrl_c_returns_the_changes_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    real = shinobi.simulate
    calls = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:  # the base, the first change, then Ctrl-C
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(shinobi, "simulate", interrupted)
    study = card_values(shinobi.Rules(players=3), kinds=["Oda", "Mori"], changes=["add"], games=50, seed=1)
    assert [r.label("kind") for r in study.rows] == ["Oda"]
    assert "stopped by Ctrl-C: 1 of the 2 changes measured" in study.record.notes
    assert len(study.record.rules) == 2  # the base and the change measured


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    card_values(shinobi.Rules(players=3), kinds=["Oda"], changes=["add"], games=50, seed=1, progress=True)
    assert "lab card_values" in capsys.readouterr().err
    card_values(shinobi.Rules(players=3), kinds=["Oda"], changes=["add"], games=50, seed=1, progress=False)
    assert capsys.readouterr().err == ""


def test_arguments_may_be_iterators() -> None:
    study = card_values(Rules(), kinds=iter(["L"]), changes=iter(["add"]), swaps=iter([("L", "F")]), games=50, seed=1)
    assert [r.label("change") for r in study.rows] == ["add", "swap to F"]
    assert "swaps=[('L', 'F')]" in study.record.call and "changes=['add']" in study.record.call


def test_bad_arguments() -> None:
    with pytest.raises(OrdonnanceError):
        card_values(Rules(), kinds=["LQ"], games=10)
    with pytest.raises(InvalidArgumentError, match="no 'LBSHF' to remove"):
        card_values(Rules(deck=["L"] * 40), kinds=["LBSHF"], changes=["remove"], games=10)
    with pytest.raises(InvalidArgumentError, match="a change must be one of"):
        card_values(Rules(), kinds=["L"], changes=["double"], games=10)
    with pytest.raises(InvalidArgumentError, match="games"):
        card_values(Rules(), kinds=["L"], games=1)
    with pytest.raises(OrdonnanceError):
        card_values(shinobi.Rules(), kinds=["Ninja"], changes=["add"], games=10)  # the rules refuse four ninjas


def test_table() -> None:
    pytest.importorskip("pandas")
    study = card_values(black_prince.Rules(), kinds=["0:Battle"], games=50, seed=1)
    table = study.table()
    assert list(table.columns) == ["metric", "kind", "change", "holder", "value", "low", "high", "games", "unpaired_games"]
    assert list(table["change"]) == ["add", "remove"] and table.attrs["ordonnance.lab"]["study"] == "card_values"
