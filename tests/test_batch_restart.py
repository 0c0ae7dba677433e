"""Every game's batch starts the next episode of its finished games on demand (``restart``), as its
next step would have started them, and leaves the other games untouched."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ordonnance import Rules
from ordonnance import black_prince as bp
from ordonnance import shinobi
from ordonnance.batch import Batch
from ordonnance.black_prince.batch import Batch as BlackPrinceBatch
from ordonnance.shinobi.batch import Batch as ShinobiBatch

#: Each game's batch built with the given opponent and seat.
BATCHES: dict[str, Callable[..., Any]] = {
    "ordonnance": lambda **kw: Batch(8, Rules(), **kw),
    "ordonnance-uint8": lambda **kw: Batch(8, Rules(players=3), observe="uint8", **kw),
    "shinobi-4": lambda **kw: ShinobiBatch(8, shinobi.Rules(players=4), **kw),
    "black_prince": lambda **kw: BlackPrinceBatch(8, bp.Rules(), **kw),
}
SETTINGS = [
    {"opponent": "random", "seat": 0},
    {"opponent": "greedy", "seat": "random"},
    {"opponent": "self"},
]


def _actions(batch: Any, rng: np.random.Generator) -> np.ndarray:
    masks = batch.legal_action_mask()
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], np.int64)


def _dtype(batch: Any) -> Any:
    return np.uint8 if getattr(batch, "_compact", None) is not None else np.float32


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: "-".join(map(str, s.values())))
@pytest.mark.parametrize("name", sorted(BATCHES))
def test_restart_is_the_next_steps_restart_and_touches_no_other_game(name: str, settings: dict[str, Any]) -> None:
    restarting = BATCHES[name](seed=11, **settings)
    stepping = BATCHES[name](seed=11, **settings)
    rng = np.random.default_rng(5)
    restarts = events = 0
    for _ in range(400):
        actions = _actions(restarting, rng)
        first, second = restarting.step(actions), stepping.step(actions)
        assert (first.terminated == second.terminated).all()
        ended = first.terminated.copy()
        if not ended.any():
            continue
        dtype = _dtype(restarting)
        before = (restarting.observe(dtype).copy(), restarting.legal_action_mask().copy(), restarting.current_player)
        restarted = restarting.restart()
        assert (restarted == ended).all()
        assert not restarting.is_over[ended].any() or name == "black_prince"  # a Black Prince deal may end at once
        # the others: untouched
        kept = ~ended
        assert (restarting.observe(dtype)[kept] == before[0][kept]).all()
        assert (restarting.legal_action_mask()[kept] == before[1][kept]).all()
        assert (restarting.current_player[kept] == before[2][kept]).all()
        # the restarted: what the next step starts in the other batch
        result = stepping.step(_actions(stepping, rng))
        assert (result.reset[ended]).all()
        assert (restarting.deal_seeds[ended] == stepping.deal_seeds[ended]).all()
        assert (restarting.episodes[ended] == stepping.episodes[ended]).all()
        assert (restarting.observe(dtype)[ended] == stepping.observe(dtype)[ended]).all()
        assert (restarting.legal_action_mask()[ended] == stepping.legal_action_mask()[ended]).all()
        for i in np.flatnonzero(ended)[:2].tolist():
            assert restarting.game(i).to_json() == stepping.game(i).to_json()
        restarts += int(ended.sum())
        events += 1
        if events == 3:
            break
        stepping = BATCHES[name](seed=11, **settings)  # start the comparison afresh from the same stream
        restarting = BATCHES[name](seed=11, **settings)
        for _ in range(int(rng.integers(1, 40))):
            same = _actions(restarting, rng)
            restarting.step(same), stepping.step(same)
    assert restarts > 0


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_restart_without_ended_games_changes_nothing(name: str) -> None:
    batch = BATCHES[name](seed=3, opponent="random", seat=0)
    batch.step(_actions(batch, np.random.default_rng(0)))
    dtype = _dtype(batch)
    observation, mask = batch.observe(dtype).copy(), batch.legal_action_mask().copy()
    episodes = batch.episodes
    ended = batch.is_over.copy()
    restarted = batch.restart()
    assert (restarted == ended).all()
    kept = ~ended
    assert (batch.observe(dtype)[kept] == observation[kept]).all()
    assert (batch.legal_action_mask()[kept] == mask[kept]).all()
    assert (batch.episodes[kept] == episodes[kept]).all()
