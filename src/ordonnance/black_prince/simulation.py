"""Simulation at scale: many whole games of Black Prince in one numba kernel.

>>> from ordonnance import black_prince as bp
>>> res = bp.simulate(bp.Rules(), games=1000, seed=1)
>>> res.winner.shape, res.scores.shape
((1000,), (1000, 2))
>>> game = res.replay(3)
>>> bool(game.winner == (None if res.winner[3] < 0 else res.winner[3])), game.routed == tuple(res.scores[3])
(True, True)

Game ``i`` is dealt by ``Game.new(rules, seed=int(res.seeds[i]))``
(:func:`ordonnance.simulation.game_seeds`, SplitMix64), and each seat's bot
plays it from ``res.bot_seeds[i, seat]`` (:func:`ordonnance.simulation.bot_seeds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince._bridge import decode, encode, tables
from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.bots import Bot, Greedy, Random
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.rules import Rules
from ordonnance.core import simulate as _driver
from ordonnance.core.bots import seeded_copies
from ordonnance.core.play import game_index as _game_index, play_to_the_end
from ordonnance.core.seeds import wrapping
from ordonnance.core.summary import Summary as _Summary
from ordonnance.errors import InvalidRulesError

#: The most games one :func:`simulate` call plays.
MAX_GAMES = _driver.MAX_GAMES

__all__ = ["simulate", "SimulationResult", "Summary", "encode", "decode", "tables"]

_CHUNK = 65_536
#: Decisions a game can take at most, per turn (place, choose, 6 rides, 6 fights, end).
DECISIONS_PER_TURN = 15


def _rounds(turns: Any) -> Any:
    """Rounds begun after ``turns`` turns begun (an int or an array): see :class:`SimulationResult`."""
    return -(-turns // 2)


@attrs.frozen
class Summary(_Summary):
    """The shared summary (:class:`ordonnance.core.summary.Summary`: win rates with 95% Wilson
    intervals, draws, first-player advantage, game length), the mean routs and turns.

    The first-player advantage is seat 0's, as in every game: its win rate minus
    a half. Under ``Rules(first="coin")`` seat 0 does not always move first.
    """

    mean_routed: tuple[float, float]
    """Enemy troops each seat routed, on average."""
    mean_turns: float
    """Turns a game lasted, on average."""
    win_rate_gap: float
    """Seat 0's win rate minus seat 1's (what :attr:`first_player_advantage` meant
    here before it took the shared definition)."""

    def extra_lines(self) -> list[str]:
        """The mean routs, the mean turns and the gap between the seats' win rates."""
        routs = ", ".join(f"player {seat} {mean:.2f}" for seat, mean in enumerate(self.mean_routed))
        return [
            f"  routs on average: {routs}",
            f"  {self.mean_turns:.1f} turns a game on average",
            f"  win-rate gap (seat 0 minus seat 1) {self.win_rate_gap:+.2%}",
        ]


@attrs.frozen(eq=False)
class SimulationResult(_driver.SimulationResult[Rules]):
    """Per-game results of :func:`simulate`, as NumPy arrays (one row per game).

    A *decision* is one action a seat chose (:attr:`decisions`): a placement, a
    move, the Battle-card choice, a fight, the end of a turn or of a battle.
    The two seats take turns, the first player first; a *round* is two turns in
    a row from the first player's, so a game whose last turn is its ``t``-th
    lasts ``ceil(t / 2)`` rounds (:attr:`rounds`).
    """

    turns: npt.NDArray[np.int16]
    """Turns each game lasted (begun, the last one included)."""
    actions: npt.NDArray[np.int32] | None
    """With ``record=True`` (always for bots played in Python): ``[game, i]``, the
    i-th decision as the kernel's int (:func:`decode`)."""
    _bots: tuple[object, ...] = attrs.field(repr=False, alias="bots")

    def summary(self) -> Summary:
        """Aggregate the games: the shared figures (:class:`ordonnance.core.summary.Summary`),
        the mean routs and length."""
        games = len(self)
        shared = _Summary.of(self.winner, self.decisions, self.rounds, 2)
        return Summary(
            **attrs.asdict(shared, recurse=False),
            mean_routed=(float(self.scores[:, 0].mean()) if games else 0.0,
                         float(self.scores[:, 1].mean()) if games else 0.0),
            mean_turns=float(self.turns.mean()) if games else 0.0,
            win_rate_gap=shared.win_rate[0] - shared.win_rate[1],
        )  # fmt: skip

    def record(self, game: int) -> tuple[Action, ...]:
        """Game ``game``'s decisions, in order (needs ``record=True`` for kernel bots)."""
        index = _game_index(game, len(self))
        if self.actions is None:
            raise InvalidRulesError("this result was simulated without record=True")
        kinds = tables(self.rules)
        return tuple(decode(int(code), kinds) for code in self.actions[index, : int(self.decisions[index])])

    def replay(self, game: int) -> Game:
        """Replay game ``game`` through :class:`Game`; returns the finished game.

        From the record when there is one; otherwise the built-in bots play it
        again in Python from their seeds (the kernel is their exact twin).
        """
        index = _game_index(game, len(self))
        replayed = Game.new(self.rules, seed=int(self.seeds[index]))
        if self.actions is not None:
            for action in self.record(index):
                replayed.apply(action)
            return replayed
        bots = seeded_copies(self._bots, self.bot_seeds[index].tolist())
        play_to_the_end(replayed, bots, index=index, deal_seed=int(self.seeds[index]))
        return replayed


def simulate(
    rules: Rules | None = None,
    *,
    games: int,
    seed: int = 0,
    players: Sequence[Bot] | None = None,
    record: bool = False,
) -> SimulationResult:
    """Play ``games`` whole games and return every result as NumPy arrays.

    ``players`` gives a bot per seat (default: two :class:`~ordonnance.black_prince.Random`
    bots). Built-in :class:`~ordonnance.black_prince.Random` and
    :class:`~ordonnance.black_prince.Greedy` bots are played by the numba
    kernel, which plays exactly as :class:`Game` with those bots would; any
    other line-up is played through :class:`Game` in Python (and recorded).
    Built-in bots play each game as a fresh copy seeded from
    ``bot_seeds[game, seat]``; other bots are called as they are. The same
    ``seed`` and bots give the same results on every machine.
    A record is kept only if it fits in
    :data:`~ordonnance.core.simulate.MAX_RECORD_BYTES` (16 GiB; four bytes for each of
    15 decisions a turn of ``rules.max_turns``, 12,000 a game by default, for
    ``record=True`` and for bots played in Python); a larger one is refused before
    anything is allocated. The games go to the kernel a fraction of a second at a time,
    so Ctrl-C raises :class:`KeyboardInterrupt` within a second.
    """
    return _driver.simulate(HOOKS, rules, games=games, seed=seed, players=players, record=record)


class _Outputs(_driver.Outputs):
    """The result arrays being filled; ``width`` decisions of each game are kept (0: none)."""

    decisions: npt.NDArray[np.int32]

    def __init__(self, games: int, width: int) -> None:
        super().__init__(games, 2, decisions=np.int32)
        self.turns = np.zeros(games, np.int16)
        self.actions = np.zeros((games, width), np.int32) if width else None


class _Hooks(_driver.Hooks[Rules, _Outputs, SimulationResult]):
    """What :func:`ordonnance.core.simulate.simulate` needs of Black Prince."""

    def outputs(self, rules: Rules, games: int, *, record: bool, in_kernel: bool) -> _Outputs:
        return _Outputs(games, DECISIONS_PER_TURN * rules.max_turns if record or not in_kernel else 0)

    def record_bytes(self, rules: Rules, *, record: bool, in_kernel: bool) -> int:
        return 4 * DECISIONS_PER_TURN * rules.max_turns if record or not in_kernel else 0  # int32 codes

    def run_kernel(self, call: _driver.Call[Rules, _Outputs]) -> None:
        rules, seeds, out = call.rules, call.seeds, call.out
        kinds = tables(rules)
        width = 0 if out.actions is None else out.actions.shape[1]
        chunk = _CHUNK if out.actions is None else max(1, min(_CHUNK, 2_000_000 // max(width, 1)))
        for start in range(0, len(seeds), chunk):
            stop = min(start + chunk, len(seeds))
            size = stop - start
            part = kernel.Results(np.empty(size, np.int64), np.empty((size, 2), np.int64), np.empty(size, np.int64),
                                  np.empty(size, np.int64), np.zeros((size, width), np.int64))  # fmt: skip
            with wrapping():
                kernel.simulate(kinds.tables, kinds.canon, kinds.canon_len, rules.first == "coin", rules.max_turns,
                                seeds[start:stop], call.bot_seeds[start:stop], call.policies, part)  # fmt: skip
            out.winner[start:stop], out.scores[start:stop], out.turns[start:stop] = part.winner, part.scores, part.turns
            out.decisions[start:stop] = part.decisions
            if out.actions is not None:
                out.actions[start:stop] = part.actions
        out.rounds[:] = _rounds(out.turns)

    def read(self, game: Game, steps: Sequence[tuple[int, Any]], out: _Outputs, g: int) -> None:
        if out.actions is not None:
            kinds = tables(game.rules)
            kept = steps[: out.actions.shape[1]]
            out.actions[g, : len(kept)] = [encode(action, kinds) for _, action in kept]
        out.turns[g] = game.turn
        out.rounds[g] = _rounds(game.turn)

    def result(self, call: _driver.Call[Rules, _Outputs]) -> SimulationResult:
        return SimulationResult(**call.shared(), turns=call.out.turns, actions=call.out.actions, bots=call.bots)


#: Black Prince's hooks for the shared simulate driver.
HOOKS = _Hooks(Rules, "ordonnance.black_prince.Rules", Rules, Random, Game,
               {Random: kernel.RANDOM, Greedy: kernel.GREEDY})  # fmt: skip
