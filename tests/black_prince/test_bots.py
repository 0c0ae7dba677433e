"""Bots: legal, reproducible, and sensible in positions where the right move is plain."""

from __future__ import annotations

import numba
import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince import EndBattle, Fight, PlayBattle
from ordonnance.black_prince._greedy import frontal_balance, score
from ordonnance.errors import IllegalActionError, InvalidRulesError, OrdonnanceTypeError

from .positions import position

GAMES = 4 if numba.config.DISABLE_JIT else 12


def play(bots: list[bp.Bot], seed: int, armies: tuple[str, str] = ("English", "French")) -> bp.Game:
    game = bp.Game.new(bp.Rules(armies=armies), seed=seed)
    while not game.is_over:
        seat = game.current_player
        action = bots[seat].choose(game.view(seat))
        assert action in game.legal_actions()
        game.apply(action)
    return game


@pytest.mark.parametrize("kind", [bp.Random, bp.Greedy])
def test_bots_are_legal_and_reproducible(kind: type) -> None:
    for seed in range(GAMES):
        a = play([kind(seed=seed), bp.Random(seed=seed + 100)], seed)
        b = play([kind(seed=seed), bp.Random(seed=seed + 100)], seed)
        assert a == b


def test_montecarlo_is_legal_and_reproducible() -> None:
    for seed in range(2):
        a = play([bp.MonteCarlo(seed=seed, rollouts=16), bp.Greedy(seed=1)], seed)
        b = play([bp.MonteCarlo(seed=seed, rollouts=16), bp.Greedy(seed=1)], seed)
        assert a == b


def winning_fight_position() -> bp.Game:
    # column 2: knights 3 beat archers 1 (3 + 1 > 1); column 3: archers 1 lose to knights 2
    cells = {(2, 2): "Knights 3", (1, 2): "Archers 1", (2, 4): "Archers 1", (1, 4): "Knights 2"}
    return position(cells, hands=[["Battle"], ["Archers 3"]], phase="battle", battle={"contact": [2, 4]})


def test_greedy_scores_fights_by_what_they_change() -> None:
    game = winning_fight_position()
    view = game.view(0)
    assert score(view, Fight(2, 2)) == 4 and score(view, Fight(4, 4)) == -4
    assert bp.Greedy(seed=0).choose(view) == Fight(2, 2)
    assert frontal_balance(view.battlefield, 0) == (1 - -1) + (-1 - 1)


def test_greedy_plays_a_battle_card_only_when_it_pays() -> None:
    good = position({(2, 2): "Knights 3", (1, 2): "Archers 1"}, hands=[["Battle"], ["Archers 3"]], phase="choose")
    assert score(good.view(0), PlayBattle()) == 1 and bp.Greedy(seed=0).choose(good.view(0)) == PlayBattle()
    bad = position({(2, 2): "Archers 1", (1, 2): "Knights 3"}, hands=[["Battle"], ["Archers 3"]], phase="choose")
    assert score(bad.view(0), PlayBattle()) == -1 and bp.Greedy(seed=0).choose(bad.view(0)) != PlayBattle()


def test_montecarlo_takes_the_plain_winning_fight() -> None:
    # swordsmen 3 strike diagonally with +1 flank: 4 beats archers 1, 4 ties knights 3 (+1 against swordsmen)
    cells = {(2, 2): "Swordsmen 3", (1, 3): "Archers 1", (1, 1): "Knights 3"}
    game = position(cells, hands=[["Battle"], ["Archers 3"]], phase="battle", battle={"contact": [2]})
    assert game.legal_actions() == [Fight(2, 1), Fight(2, 3), EndBattle()]
    assert bp.Greedy(seed=0).choose(game.view(0)) == Fight(2, 3)
    assert bp.MonteCarlo(seed=1).choose(game.view(0)) == Fight(2, 3)


def test_bots_refuse_views_without_a_decision_and_bad_settings() -> None:
    game = bp.Game.new(bp.Rules(), seed=1)
    for bot in (bp.Random(seed=1), bp.Greedy(seed=1), bp.MonteCarlo(seed=1)):
        with pytest.raises(IllegalActionError):
            bot.choose(game.view(1))
    with pytest.raises(InvalidRulesError):
        bp.MonteCarlo(rollouts=0)
    with pytest.raises(InvalidRulesError):
        bp.MonteCarlo(rollout_policy="smart")
    with pytest.raises(OrdonnanceTypeError):
        bp.MonteCarlo(margin_weight="a lot")  # type: ignore[arg-type]
    with pytest.raises(OrdonnanceTypeError):
        bp.Random(seed=-1)


def test_greedy_beats_random_clearly() -> None:
    """A small sample of what the benchmark measures on 1,000 games (seats and armies balanced)."""
    res = bp.simulate(bp.Rules(armies=("French", "English")), games=200, seed=4, players=[bp.Greedy(seed=1), bp.Random(seed=2)])
    swapped = bp.simulate(bp.Rules(armies=("English", "French")), games=200, seed=5, players=[bp.Random(seed=2), bp.Greedy(seed=1)])
    wins = int((res.winner == 0).sum() + (swapped.winner == 1).sum())
    assert wins > 0.75 * 400


def test_simulate_still_twins_the_engine_after_a_montecarlo_search() -> None:
    """The rollouts and the simulator share one kernel module (and so one disk cache): a
    search must leave the simulator's games exactly the engine's."""
    game = bp.Game.new(bp.Rules(), seed=7)
    bp.MonteCarlo(seed=2, rollouts=8).choose(game.view(0))
    res = bp.simulate(bp.Rules(), games=20, seed=1, players=[bp.Greedy(seed=1), bp.Random(seed=2)], record=True)
    for g in range(20):
        assert res.replay(g).routed == tuple(res.scores[g]) and res.decisions[g] > 1


def test_bot_reprs_name_the_game() -> None:
    assert repr(bp.Random(seed=1)) == "black_prince.Random(seed=1)"
    assert repr(bp.Greedy(seed=2)) == "black_prince.Greedy(seed=2)"
    assert repr(bp.MonteCarlo(seed=3, rollouts=9)).startswith("black_prince.MonteCarlo(seed=3, rollouts=9")
