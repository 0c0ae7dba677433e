"""Simulation at scale: many whole games of Shinobi in one numba kernel.

>>> from ordonnance import shinobi
>>> res = shinobi.simulate(shinobi.Rules(players=4), games=1000, seed=1)
>>> res.winner.shape, res.scores.shape, res.totals.shape
((1000,), (1000, 4), (1000, 5))
>>> game = res.replay(3)
>>> game.is_over and game.winners == res.winners_of(3)
True

The deal of game ``i`` is ``Game.new(rules, seed=int(res.seeds[i]))``, with
the seeds of :func:`ordonnance.simulation.game_seeds` (the SplitMix64 stream of
``seed``), and each seat's bot plays it with the seed ``res.bot_seeds[i, seat]``
(:func:`ordonnance.simulation.bot_seeds`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.core import simulate as _driver
from ordonnance.core.play import game_index as _game_index
from ordonnance.core.seeds import wrapping
from ordonnance.core.summary import Summary as _Summary
from ordonnance.errors import InvalidRulesError
from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi.actions import from_code
from ordonnance.shinobi.bots import Bot, Greedy, Random
from ordonnance.shinobi.cards import CLAN_NAMES, CLANS
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rules import HAND_SIZE, Rules

__all__ = ["simulate", "SimulationResult", "Summary", "max_decisions"]

#: The most games one :func:`simulate` call plays.
MAX_GAMES = _driver.MAX_GAMES


def max_decisions(rules: Rules) -> int:
    """An upper bound on the decisions of a game under ``rules``.

    Before the final round every turn plays a card from hand (a hand of four
    always holds a samurai, which can be deployed) and so draws at least one;
    three decisions a turn at most.
    """
    turns = len(rules.troop_deck) - HAND_SIZE * rules.players + 1 + rules.players
    return 3 * turns


def _rounds(turns: Any, players: int) -> Any:
    """Rounds begun after ``turns`` turns (an int or an array): see :class:`SimulationResult`."""
    return -(-turns // players)


@attrs.frozen
class Summary(_Summary):
    """The shared summary (:class:`ordonnance.core.summary.Summary`: win rates with 95% Wilson
    intervals, games without a sole winner, first-player advantage, game length), win rates per
    clan, the neutral clans' effect and the mean turns.

    No game of Shinobi is drawn: :attr:`draw_rate` is the share of games whose win
    tied players shared.
    """

    clan_win_rate: tuple[float, ...]
    """For each clan: the share of the games it was served in that its player won alone."""
    neutral_leader_rate: float
    """Share of games in which a neutral clan had more cards on the table than every
    served clan (its cards, had they counted, would have won)."""
    neutral_cards: float
    """Mean cards of the neutral clans left on the table at the end."""
    mean_turns: float
    """Mean turns per game."""

    @property
    def shared_rate(self) -> float:
        """Deprecated: :attr:`draw_rate`, the share of games whose win was shared by tied players."""
        warnings.warn("Summary.shared_rate is deprecated: use draw_rate (games without a sole winner)",
                      DeprecationWarning, stacklevel=2)  # fmt: skip
        return self.draw_rate

    def extra_lines(self) -> list[str]:
        """Each clan's win rate, the neutral clans and the mean turns."""
        lines = [f"  {CLAN_NAMES[clan]:<8} wins {rate:7.2%} of the games it is served in"
                 for clan, rate in enumerate(self.clan_win_rate)]  # fmt: skip
        lines.append(f"  a neutral clan leads the table in {self.neutral_leader_rate:.2%} of the games;"
                     f" neutral cards left {self.neutral_cards:.2f}")  # fmt: skip
        lines.append(f"  {self.mean_turns:.1f} turns a game on average")
        return lines


@attrs.frozen(eq=False)
class SimulationResult(_driver.SimulationResult[Rules]):
    """Per-game results of :func:`simulate`, as NumPy arrays (one row per game).

    A *decision* is one action a seat chose (:attr:`decisions`); a turn may take
    several (deploy, move, attack), or none when its seat has no choice to make.
    Turns pass from seat 0 in seat order, every seat taking each of its turns,
    the final round's included. A *round* is ``players`` turns in a row from
    seat 0: round ``r`` is turns ``(r - 1) * players + 1 .. r * players``, so a
    game of ``t`` turns lasts ``ceil(t / players)`` rounds (:attr:`rounds`).
    """

    winners: npt.NDArray[np.bool_]
    """``[game, seat]``: whether that seat is among the winners."""
    totals: npt.NDArray[np.int16]
    """``[game, clan]``: the cards of each clan on the table at the end."""
    clans: npt.NDArray[np.int8]
    """``[game, i]``: the clan cards in dealt order (seat ``s`` has ``clans[game, s]``;
    the rest are neutral)."""
    turns: npt.NDArray[np.int16]
    """Turns each game lasted."""
    actions: npt.NDArray[np.int16] | None
    """With ``record=True`` (and always when a bot was played in Python): ``[game, i]``, the code of the ``i``-th action
    (:func:`ordonnance.shinobi.from_code`), for ``i < decisions[game]``."""
    _bots: tuple[Bot, ...] = attrs.field(repr=False, alias="bots")

    def winners_of(self, game: int) -> tuple[int, ...]:
        """The winning seats of game ``game``."""
        return tuple(int(p) for p in np.flatnonzero(self.winners[_game_index(game, len(self))]))

    def summary(self) -> Summary:
        """Aggregate the games: the shared figures (:class:`ordonnance.core.summary.Summary`),
        win rates per clan, neutral clans, turns."""
        games = len(self)
        n = self.rules.players
        served = self.clans[:, :n].astype(np.int64)
        sole = np.zeros(CLANS)
        served_games = np.zeros(CLANS)
        rows = np.arange(games)
        for seat in range(n):
            np.add.at(served_games, served[:, seat], 1)
            np.add.at(sole, served[:, seat], self.winner == seat)
        neutral = np.ones((games, CLANS), bool)
        neutral[rows[:, None], served] = False
        totals = self.totals.astype(np.int64)
        best_served = np.where(neutral, -1, totals).max(axis=1) if games else np.zeros(0)
        best_neutral = np.where(neutral, totals, -1).max(axis=1) if games else np.zeros(0)
        per = max(games, 1)
        return Summary.of(
            self.winner, self.decisions, self.rounds, n,
            clan_win_rate=tuple(float(sole[c] / served_games[c]) if served_games[c] else math.nan for c in range(CLANS)),
            neutral_leader_rate=float(np.count_nonzero(best_neutral > best_served)) / per,
            neutral_cards=float((totals * neutral).sum()) / per,
            mean_turns=float(self.turns.mean()) if games else 0.0,
        )  # fmt: skip

    def record(self, game: int) -> tuple[int, ...]:
        """Game ``game``'s action codes in order (replayed in the kernel if not recorded)."""
        index = _game_index(game, len(self))
        if self.actions is not None:
            return tuple(int(c) for c in self.actions[index, : int(self.decisions[index])])
        policies = [HOOKS.policy(bot) for bot in self._bots]
        if any(p is None for p in policies):
            raise InvalidRulesError("games with bots outside the kernel replay only with record=True")
        out = _Outputs(1, self.rules, record=True)
        HOOKS.run_kernel(_driver.Call(
            self.rules, self._bots, self.seeds[index : index + 1], self.bot_seeds[index : index + 1],
            np.array(policies, np.int64), out, record=True, in_kernel=True,
        ))  # fmt: skip
        return tuple(int(c) for c in out.actions[0, : int(out.decisions[0])])

    def replay(self, game: int) -> Game:
        """Replay game ``game`` through :class:`~ordonnance.shinobi.Game`; the finished game.

        Raises :class:`~ordonnance.errors.IllegalActionError` if a recorded action
        were illegal (it never is: the tests replay thousands).
        """
        index = _game_index(game, len(self))
        replayed = Game.new(self.rules, seed=int(self.seeds[index]))
        for code in self.record(index):
            replayed.apply(from_code(code))
        return replayed


class _Outputs(_driver.Outputs):
    """The result arrays being filled."""

    decisions: npt.NDArray[np.int16]

    def __init__(self, games: int, rules: Rules, *, record: bool) -> None:
        n = rules.players
        super().__init__(games, n)
        self.winners = np.zeros((games, n), np.bool_)
        self.totals = np.zeros((games, CLANS), np.int16)
        self.clans = np.zeros((games, CLANS), np.int8)
        self.turns = np.zeros(games, np.int16)
        self.actions = np.zeros((games, max_decisions(rules) if record else 0), np.int16)

    def results(self) -> kernel.Results:
        """The arrays as the kernel fills them."""
        return kernel.Results(self.winners, self.winner, self.scores, self.totals, self.clans, self.turns,
                              self.decisions, self.actions)  # fmt: skip


def simulate(
    rules: Rules | None = None,
    *,
    games: int,
    seed: int = 0,
    players: Sequence[Bot] | None = None,
    record: bool = False,
) -> SimulationResult:
    """Play ``games`` whole games and return every result as NumPy arrays.

    ``players`` gives a bot per seat (default :class:`~ordonnance.shinobi.bots.Random`
    for every seat). Built-in ``Random`` and ``Greedy`` bots run inside the numba
    kernel, which plays exactly as :class:`~ordonnance.shinobi.Game` with those
    bots would (the tests replay simulated games through ``Game``); any other bot
    is driven through ``Game`` in Python. With ``record=True`` each game's
    actions are kept (:attr:`SimulationResult.actions`); without it
    :meth:`SimulationResult.replay` plays a kernel game again to recover them.
    The same ``seed`` and bots give the same results on every machine.
    A record is kept only if it fits in
    :data:`~ordonnance.core.simulate.MAX_RECORD_BYTES` (16 GiB; two bytes a decision of
    :func:`max_decisions`, for ``record=True`` and for bots played in Python); a larger
    one is refused before anything is allocated. The games go to the kernel a fraction
    of a second at a time, so Ctrl-C raises :class:`KeyboardInterrupt` within a second.
    """
    return _driver.simulate(HOOKS, rules, games=games, seed=seed, players=players, record=record)


class _Hooks(_driver.Hooks[Rules, _Outputs, SimulationResult]):
    """What :func:`ordonnance.core.simulate.simulate` needs of Shinobi."""

    def outputs(self, rules: Rules, games: int, *, record: bool, in_kernel: bool) -> _Outputs:
        return _Outputs(games, rules, record=record or not in_kernel)

    def record_bytes(self, rules: Rules, *, record: bool, in_kernel: bool) -> int:
        return 2 * max_decisions(rules) if record or not in_kernel else 0  # int16 action codes

    def run_kernel(self, call: _driver.Call[Rules, _Outputs]) -> None:
        rules, out = call.rules, call.out
        with wrapping():
            kernel.simulate(rules.players, np.array(rules.troop_deck, np.int64), rules.optional_attack, call.seeds,
                            call.bot_seeds, call.policies, out.results())  # fmt: skip
        out.rounds[:] = _rounds(out.turns, rules.players)

    def read(self, game: Game, steps: Sequence[tuple[int, Any]], out: _Outputs, g: int) -> None:
        out.actions[g, : len(steps)] = [action.code for _, action in steps]
        out.winners[g, list(game.winners)] = True
        out.totals[g] = game.totals
        out.clans[g] = game._clan_order
        out.turns[g] = game.turns
        out.rounds[g] = _rounds(game.turns + (0 if game.is_over else 1), game.players)

    def result(self, call: _driver.Call[Rules, _Outputs]) -> SimulationResult:
        out = call.out
        return SimulationResult(
            **call.shared(),
            winners=out.winners, totals=out.totals, clans=out.clans, turns=out.turns,
            actions=out.actions if call.record or not call.in_kernel else None, bots=call.bots,
        )  # fmt: skip


#: Shinobi's hooks for the shared simulate driver.
HOOKS = _Hooks(Rules, "ordonnance.shinobi.Rules", lambda: Rules(players=4), Random, Game,
               {Random: kernel.RANDOM, Greedy: kernel.GREEDY})  # fmt: skip
