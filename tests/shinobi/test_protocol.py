"""The small game protocol the shared tournament is generalised over, and pickling
(tournament chunks cross process boundaries)."""

from __future__ import annotations

import pickle

import numpy as np

from ordonnance.errors import IllegalActionError, InvalidGameStateError
from ordonnance.shinobi import Game, Rules, bots, simulate
from ordonnance.simulation import game_seeds

from .test_bots import FEW


def test_a_chunk_of_a_tournament_replays_through_the_protocol_alone() -> None:
    rules = Rules(players=3)
    players = [bots.Greedy(seed=7), bots.Random(seed=8), bots.MonteCarlo(seed=9, **FEW)]
    chunk = simulate(rules, games=3, seed=123, players=players)
    assert chunk.winner.dtype.kind == "i" and chunk.scores.shape == (3, rules.players)
    summary = chunk.summary()
    assert summary.games == 3
    for i, seed in enumerate(game_seeds(123, 3).tolist()):
        game = chunk.replay(i)
        fresh = Game.new(rules, seed=seed)
        for action in game.history:
            assert fresh.current_player in range(rules.players) and action in fresh.legal_actions()
            fresh.apply(action)
        assert fresh == game and fresh.is_over and tuple(chunk.scores[i]) == fresh.scores
        assert (fresh.winner if fresh.winner is not None else -1) == chunk.winner[i]
        assert Game.from_json(fresh.to_json()) == fresh.clone()


def test_values_results_bots_and_errors_pickle() -> None:
    game = Game.new(Rules(players=5, attack="optional"), seed=3)
    game.apply(game.legal_actions()[2])
    assert pickle.loads(pickle.dumps(game)) == game
    assert pickle.loads(pickle.dumps(game.view(1))) == game.view(1)
    res = simulate(Rules(), games=4, seed=2, players=[bots.Greedy(seed=s) for s in range(4)])
    again = pickle.loads(pickle.dumps(res))
    assert np.array_equal(again.totals, res.totals) and again.replay(2) == res.replay(2)
    bot = pickle.loads(pickle.dumps(bots.MonteCarlo(seed=4, rollouts=9)))
    assert repr(bot) == repr(bots.MonteCarlo(seed=4, rollouts=9))
    for error in (IllegalActionError(game.legal_actions()[0], "why"), InvalidGameStateError("bad save")):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)
