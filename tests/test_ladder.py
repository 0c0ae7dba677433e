"""The rating ladder: the Bradley-Terry fit and its intervals against slow twins, and the ladder itself."""

from __future__ import annotations

import concurrent.futures as cf
import math
import pickle
import random

import numpy as np
import pytest

import ordonnance as od
from ordonnance.errors import InvalidRulesError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.ladder import DEFAULT_ANCHOR, Ladder, bradley_terry, ladder

ELO = 400.0 / math.log(10.0)


def log_likelihood(wins: list[list[int]], games: list[list[int]], logits: list[float]) -> float:
    """The model the fit maximises, written out: ties count half each way and every pair that
    met plays one more virtual tie."""
    total = 0.0
    k = len(wins)
    for a in range(k):
        for b in range(k):
            if a == b or not games[a][b]:
                continue
            ties = games[a][b] - wins[a][b] - wins[b][a]
            score = wins[a][b] + 0.5 * ties + 0.5
            p = 1.0 / (1.0 + math.exp(logits[b] - logits[a]))
            total += score * math.log(p)
    return total


def random_record(
    rng: random.Random, k: int, strengths: list[float], per_pair: int, tie_rate: float = 0.05
) -> tuple[list[list[int]], list[list[int]]]:
    wins = [[0] * k for _ in range(k)]
    games = [[0] * k for _ in range(k)]
    for a in range(k):
        for b in range(a + 1, k):
            p = strengths[a] / (strengths[a] + strengths[b])
            for _ in range(per_pair):
                u = rng.random()
                if u < tie_rate:
                    pass
                elif u < tie_rate + (1 - tie_rate) * p:
                    wins[a][b] += 1
                else:
                    wins[b][a] += 1
            games[a][b] = games[b][a] = per_pair
    return wins, games


@pytest.mark.parametrize("seed", range(6))
def test_the_fit_is_the_maximum_of_the_likelihood(seed: int) -> None:
    rng = random.Random(seed)
    k = rng.randint(2, 5)
    wins, games = random_record(rng, k, [rng.uniform(0.2, 5.0) for _ in range(k)], rng.randint(5, 60))
    anchor = rng.randrange(k)
    ratings, _ = bradley_terry(wins, games, anchor)
    assert ratings[anchor] == 0.0
    logits = [r / ELO for r in ratings]
    best = log_likelihood(wins, games, logits)
    h = 1e-5
    for b in range(k):
        if b == anchor:
            continue
        up = logits.copy()
        up[b] += h
        down = logits.copy()
        down[b] -= h
        gradient = (log_likelihood(wins, games, up) - log_likelihood(wins, games, down)) / (2 * h)
        assert abs(gradient) < 1e-4
        for step in (0.05, -0.05):
            moved = logits.copy()
            moved[b] += step
            assert log_likelihood(wins, games, moved) < best


@pytest.mark.parametrize("seed", range(6))
def test_the_intervals_come_from_the_curvature_of_the_likelihood(seed: int) -> None:
    rng = random.Random(100 + seed)
    k = rng.randint(2, 5)
    wins, games = random_record(rng, k, [rng.uniform(0.2, 5.0) for _ in range(k)], rng.randint(5, 60))
    anchor = rng.randrange(k)
    ratings, intervals = bradley_terry(wins, games, anchor)
    logits = [r / ELO for r in ratings]
    others = [b for b in range(k) if b != anchor]
    h = 1e-4
    hessian = np.zeros((len(others), len(others)))
    for i, a in enumerate(others):
        for j, b in enumerate(others):
            values = []
            for da, db in ((h, h), (h, -h), (-h, h), (-h, -h)):
                x = logits.copy()
                x[a] += da
                x[b] += db
                values.append(log_likelihood(wins, games, x))
            hessian[i, j] = (values[0] - values[1] - values[2] + values[3]) / (4 * h * h)
    covariance = np.linalg.inv(-hessian)
    assert intervals[anchor] == (0.0, 0.0)
    for i, b in enumerate(others):
        half = 1.959964 * ELO * math.sqrt(covariance[i, i])
        low, high = intervals[b]
        assert low == pytest.approx(ratings[b] - half, rel=1e-3, abs=1e-2)
        assert high == pytest.approx(ratings[b] + half, rel=1e-3, abs=1e-2)


def test_the_intervals_cover_the_true_ratings_about_95_percent_of_the_time() -> None:
    rng = random.Random(7)
    strengths = [1.0, 2.5, 0.6, 6.0]  # Elo 0, 159, -89, 311 from bot 0
    truth = [400 * math.log10(s / strengths[0]) for s in strengths]
    runs, covered = 400, [0, 0, 0, 0]
    for _ in range(runs):
        wins, games = random_record(rng, 4, strengths, 150, tie_rate=0.0)  # ties would shift the truth
        _, intervals = bradley_terry(wins, games, 0)
        for b in range(4):
            low, high = intervals[b]
            covered[b] += low <= truth[b] <= high
    assert covered[0] == runs
    for b in (1, 2, 3):  # 95% of 400 runs: 380, standard deviation 4.4
        assert 360 <= covered[b] <= 395, covered


def test_a_bot_cut_off_from_the_anchor_has_unbounded_intervals() -> None:
    wins = [[0, 3, 0], [1, 0, 0], [0, 0, 0]]
    games = [[0, 4, 0], [4, 0, 0], [0, 0, 0]]
    ratings, intervals = bradley_terry(wins, games, 0)
    assert math.isfinite(intervals[1][0]) and math.isfinite(intervals[1][1])
    assert intervals[2] == (-math.inf, math.inf)
    assert ratings[0] == 0.0


def test_a_bad_anchor_number_is_refused() -> None:
    with pytest.raises(InvalidRulesError, match="5"):
        bradley_terry([[0, 1], [1, 0]], [[0, 2], [2, 0]], 5)


def bots() -> dict[str, od.bots.Bot]:
    return {"greedy": od.bots.Greedy(seed=2), "random": od.bots.Random(seed=1)}


def test_a_ladder_anchors_at_random_and_rates_greedy_above_it() -> None:
    result = ladder(bots(), games=2_000, seed=3, executor="serial")
    assert isinstance(result, Ladder)
    assert result.anchor == "random" and result.rating("random") == 0.0
    assert result.interval("random") == (0.0, 0.0)
    low, high = result.interval("greedy")
    assert 0.0 < low < result.rating("greedy") < high
    assert result.standings == ("greedy", "random")
    assert result.ratings == bradley_terry(result.tournament.pairwise_wins, result.tournament.pairwise_games, 1)[0]
    text = str(result)
    assert "random = 0" in text and "greedy" in text and "pairwise score" in text
    assert pickle.loads(pickle.dumps(result)) == result


def test_the_same_seed_gives_the_same_ladder_on_any_executor() -> None:
    serial = ladder(bots(), games=400, seed=5, executor="serial")
    with cf.ThreadPoolExecutor(2) as pool:
        threads = ladder(bots(), games=400, seed=5, executor=pool, chunk_size=50)
    assert serial == threads


def test_the_anchor_defaults_to_the_first_bot_without_random_and_can_be_chosen() -> None:
    players = [od.bots.Greedy(seed=1), od.bots.Random(seed=2)]
    assert ladder(players, games=200, executor="serial").anchor == DEFAULT_ANCHOR
    result = ladder(players, games=200, executor="serial", anchor="Greedy")
    assert result.anchor == "Greedy" and result.rating("Greedy") == 0.0 and result.rating("Random") < 0
    no_random = {"a": od.bots.Greedy(seed=1), "b": od.bots.Greedy(seed=2)}
    assert ladder(no_random, games=200, executor="serial").anchor == "a"


class Exploding:
    """A bot that must never be asked: the ladder checks its anchor first."""

    def choose(self, view: od.PlayerView) -> od.Action:
        raise AssertionError("played before the anchor was checked")


@pytest.mark.parametrize(
    ("anchor", "error"), [("nobody", InvalidRulesError), (3, OrdonnanceTypeError), (b"random", OrdonnanceTypeError)]
)
def test_a_bad_anchor_is_refused_before_any_game(anchor: object, error: type[OrdonnanceError]) -> None:
    with pytest.raises(error, match=repr(anchor).replace("(", r"\(").replace(")", r"\)")) as caught:
        ladder({"x": Exploding(), "y": Exploding()}, games=10, executor="serial", anchor=anchor)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(caught.value)).args == caught.value.args
