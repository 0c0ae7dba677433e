"""Seeds: one game seed per game, one bot seed per seat and game, checked once for every game.

Every game's ``simulate`` deals game ``i`` from ``game_seeds(seed, games)[i]`` and gives
the bot of seat ``p`` the stream ``bot_seeds(...)[i, p]``; the streams of different
seats never coincide, whatever seeds the bots were given.

>>> from ordonnance.core.rng import splitmix64
>>> from ordonnance.core.seeds import game_seeds
>>> int(game_seeds(5, 2)[1]) == splitmix64(splitmix64(5)[0])[1]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.core import jit
from ordonnance.errors import InvalidSeedError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = ["SEED_LIMIT", "game_seeds", "bot_seeds", "wrapping", "own_seed", "check_seed"]

#: Seeds are 64-bit: ``0 <= seed < SEED_LIMIT``.
SEED_LIMIT = 1 << 64
_MASK64 = SEED_LIMIT - 1


def wrapping() -> Any:
    """A context in which 64-bit arithmetic wraps silently, as it does by design in the
    kernels; with NUMBA_DISABLE_JIT=1 they run on NumPy scalars, which would warn."""
    return np.errstate(over="ignore")


def game_seeds(seed: int, games: int) -> npt.NDArray[np.uint64]:
    """The shuffle seed of each game of ``simulate(..., seed=seed)``: the SplitMix64 stream."""
    out = np.empty(games, np.uint64)
    with wrapping():
        jit.stream(np.uint64(seed), out)
    return out


def bot_seeds(seeds: npt.NDArray[np.uint64], own: Sequence[int]) -> npt.NDArray[np.uint64]:
    """``[game, seat]``: each bot's seed in each game, mixed from its own seed, the
    game's seed and the seat.

    No choice of own seeds makes two seats of a game share a stream:

    >>> import numpy as np
    >>> from ordonnance.core.seeds import bot_seeds, game_seeds
    >>> mixed = bot_seeds(game_seeds(1, 1000), [0, 1])
    >>> bool(np.all(mixed[:, 0] != mixed[:, 1]))
    True
    >>> same = bot_seeds(game_seeds(1, 1000), [7, 7])
    >>> bool(np.all(same[:, 0] != same[:, 1]))
    True
    """
    out = np.empty((len(seeds), len(own)), np.uint64)
    with wrapping():
        jit.mix_bot_seeds(seeds, np.array(own, np.uint64), out)
    return out


def own_seed(bot: object) -> int:
    """A bot's own seed as the seed mix reads it: its ``seed`` if an int, else 0."""
    seed = getattr(bot, "seed", None)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        return 0
    return int(seed) & _MASK64


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as a plain int if it is an integer in 0..2**64-1 (NumPy integers too);
    else the library's error, showing the value."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise OrdonnanceTypeError(f"{name} must be an int, got {shown(seed)}")
    if not 0 <= seed < SEED_LIMIT:
        raise InvalidSeedError(f"{name} must be in 0..2**64-1, got {shown(seed)}")
    return int(seed)
