"""The small game protocol the shared tournament is generalised over, as Black Prince meets it."""

from __future__ import annotations

import pickle

import numpy as np

from ordonnance import black_prince as bp


def test_game_protocol() -> None:
    rules = bp.Rules(armies=("French", "Scottish"), first="coin")
    assert rules.players == 2
    game = bp.Game.new(rules, seed=11)
    bots = [bp.Greedy(seed=3), bp.Random(seed=4)]
    assert all(isinstance(bot.seed, int) for bot in bots)
    while not game.is_over:
        assert game.winner is None and game.winners == ()
        seat = game.current_player
        action = bots[seat].choose(game.view(seat))
        assert action in game.legal_actions()
        game.apply(action)
        assert bp.Game.from_json(game.to_json()) == game and game.clone() == game
    assert game.winners == ((0, 1) if game.winner is None else (game.winner,))
    assert isinstance(game.scores, tuple) and len(game.scores) == 2 and game.scores == game.routed


def test_simulate_protocol_in_chunks_and_through_python_bots() -> None:
    rules = bp.Rules()
    for players in ([bp.Random(seed=1), bp.Greedy(seed=2)], [bp.MonteCarlo(seed=1, rollouts=8), bp.Random(seed=2)]):
        res = bp.simulate(rules, games=3, seed=99, players=players)
        assert res.winner.dtype.kind == "i" and res.winner.shape == (3,) and set(res.winner) <= {-1, 0, 1}
        assert res.scores.shape == (3, rules.players)
        for i in range(3):
            replayed = res.replay(i)
            assert replayed.seed == int(res.seeds[i]) and replayed.routed == tuple(res.scores[i])
            assert res.winner[i] == (-1 if replayed.winner is None else replayed.winner)
        assert res.summary().games == 3
    # the same seed gives the same games, whatever the chunk a tournament cuts
    whole = bp.simulate(rules, games=6, seed=5)
    assert np.array_equal(whole.seeds, bp.simulate(rules, games=6, seed=5).seeds)


def test_values_and_errors_pickle() -> None:
    game = bp.Game.new(bp.Rules(), seed=2)
    for value in (bp.Rules(armies=("Scottish", "English")), bp.Card("Knights", 3), game.view(0),
                  bp.Fight(1, 2), bp.fight((2, 0), (1, 0), bp.Battlefield.empty(bp.Rules())
                                           .with_card((2, 0), bp.Card("Archers", 2))
                                           .with_card((1, 0), bp.Card("Pikemen", 1)))):  # fmt: skip
        assert pickle.loads(pickle.dumps(value)) == value
    assert pickle.loads(pickle.dumps(game)) == game
    result = bp.simulate(bp.Rules(), games=4, seed=1, players=[bp.Greedy(seed=1), bp.MonteCarlo(seed=2, rollouts=4)])
    again = pickle.loads(pickle.dumps(result))  # results travel back from tournament workers
    assert np.array_equal(again.winner, result.winner) and again.replay(3).routed == tuple(result.scores[3])
