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
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi.actions import Action, from_code
from ordonnance.shinobi.bots import Bot, Greedy, Random
from ordonnance.shinobi.cards import CLAN_NAMES, CLANS
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rules import HAND_SIZE, Rules
from ordonnance.core.bots import seeded_copies
from ordonnance.core.play import check_players, game_index as _game_index, play_to_the_end
from ordonnance.core.seeds import bot_seeds, game_seeds, own_seed as _own_seed, wrapping as _wrapping
from ordonnance.core.stats import wilson as _wilson

__all__ = ["simulate", "SimulationResult", "Summary", "max_decisions"]

_MASK64 = (1 << 64) - 1
#: The most games one :func:`simulate` call plays.
MAX_GAMES = 100_000_000


def max_decisions(rules: Rules) -> int:
    """An upper bound on the decisions of a game under ``rules``.

    Before the final round every turn plays a card from hand (a hand of four
    always holds a samurai, which can be deployed) and so draws at least one;
    three decisions a turn at most.
    """
    turns = len(rules.troop_deck) - HAND_SIZE * rules.players + 1 + rules.players
    return 3 * turns


def _policy(bot: object) -> int | None:
    """The kernel twin of a bot, or None for a bot the kernel cannot play."""
    if type(bot) is Random:
        return kernel.RANDOM
    if type(bot) is Greedy:
        return kernel.GREEDY
    return None


@attrs.frozen
class Summary:
    """Win rates per seat and per clan, the neutral clans' effect, the game length."""

    games: int
    """Number of games."""
    win_rate: tuple[float, ...]
    """Share of games each seat won alone."""
    win_rate_ci: tuple[tuple[float, float], ...]
    """95% Wilson score interval of each win rate."""
    shared_rate: float
    """Share of games whose win was shared by tied players."""
    clan_win_rate: tuple[float, ...]
    """For each clan: the share of the games it was served in that its player won alone."""
    neutral_leader_rate: float
    """Share of games in which a neutral clan had more cards on the table than every
    served clan (its cards, had they counted, would have won)."""
    neutral_cards: float
    """Mean cards of the neutral clans left on the table at the end."""
    mean_turns: float
    """Mean turns per game."""
    mean_decisions: float
    """Mean decisions (actions) per game."""

    def __str__(self) -> str:
        lines = [f"{self.games:,} games"]
        for seat, (rate, (low, high)) in enumerate(zip(self.win_rate, self.win_rate_ci)):
            lines.append(f"  player {seat} wins {rate:7.2%}  (95% CI {low:.2%} .. {high:.2%})")
        lines.append(f"  shared wins {self.shared_rate:7.2%}")
        for clan, rate in enumerate(self.clan_win_rate):
            lines.append(f"  {CLAN_NAMES[clan]:<8} wins {rate:7.2%} of the games it is served in")
        lines.append(f"  a neutral clan leads the table in {self.neutral_leader_rate:.2%} of the games;"
                     f" neutral cards left {self.neutral_cards:.2f}")  # fmt: skip
        lines.append(f"  {self.mean_turns:.1f} turns, {self.mean_decisions:.1f} decisions a game")
        return "\n".join(lines)


@attrs.frozen(eq=False)
class SimulationResult:
    """Per-game results of :func:`simulate`, as NumPy arrays (one row per game)."""

    rules: Rules
    """The rules played."""
    players: tuple[str, ...]
    """The bot of each seat, as its repr."""
    seeds: npt.NDArray[np.uint64]
    """Each game's deal seed: ``Game.new(rules, seed=int(seeds[i]))``."""
    bot_seeds: npt.NDArray[np.uint64]
    """``[game, seat]``: the seed each seat's bot played that game with."""
    winner: npt.NDArray[np.int8]
    """The single winning seat, or -1 when tied players share the win."""
    winners: npt.NDArray[np.bool_]
    """``[game, seat]``: whether that seat is among the winners."""
    scores: npt.NDArray[np.int16]
    """``[game, seat]``: the cards of that seat's clan on the table at the end."""
    totals: npt.NDArray[np.int16]
    """``[game, clan]``: the cards of each clan on the table at the end."""
    clans: npt.NDArray[np.int8]
    """``[game, i]``: the clan cards in dealt order (seat ``s`` has ``clans[game, s]``;
    the rest are neutral)."""
    turns: npt.NDArray[np.int16]
    """Turns each game lasted."""
    decisions: npt.NDArray[np.int16]
    """Decisions (actions) each game took."""
    actions: npt.NDArray[np.int16] | None
    """With ``record=True`` (and always when a bot was played in Python): ``[game, i]``, the code of the ``i``-th action
    (:func:`ordonnance.shinobi.from_code`), for ``i < decisions[game]``."""
    _bots: tuple[Bot, ...] = attrs.field(repr=False, alias="bots")

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def winners_of(self, game: int) -> tuple[int, ...]:
        """The winning seats of game ``game``."""
        return tuple(int(p) for p in np.flatnonzero(self.winners[_game_index(game, len(self))]))

    def summary(self) -> Summary:
        """Aggregate the games: win rates per seat and clan, neutral clans, game length."""
        games = len(self)
        n = self.rules.players
        wins = [int(np.count_nonzero(self.winner == seat)) for seat in range(n)]
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
        return Summary(
            games=games,
            win_rate=tuple(w / per for w in wins),
            win_rate_ci=tuple(_wilson(w, games) for w in wins),
            shared_rate=float(np.count_nonzero(self.winner < 0)) / per,
            clan_win_rate=tuple(float(sole[c] / served_games[c]) if served_games[c] else math.nan for c in range(CLANS)),
            neutral_leader_rate=float(np.count_nonzero(best_neutral > best_served)) / per,
            neutral_cards=float((totals * neutral).sum()) / per,
            mean_turns=float(self.turns.mean()) if games else 0.0,
            mean_decisions=float(self.decisions.mean()) if games else 0.0,
        )

    def record(self, game: int) -> tuple[int, ...]:
        """Game ``game``'s action codes in order (replayed in the kernel if not recorded)."""
        index = _game_index(game, len(self))
        if self.actions is not None:
            return tuple(int(c) for c in self.actions[index, : int(self.decisions[index])])
        policies = [_policy(bot) for bot in self._bots]
        if any(p is None for p in policies):
            raise InvalidRulesError("games with bots outside the kernel replay only with record=True")
        out = _Outputs(1, self.rules, record=True)
        _run_kernel(self.rules, self.seeds[index : index + 1], self.bot_seeds[index : index + 1],
                    np.array(policies, np.int64), out)  # fmt: skip
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


class _Outputs:
    """The result arrays being filled."""

    def __init__(self, games: int, rules: Rules, *, record: bool) -> None:
        n = rules.players
        self.winners = np.zeros((games, n), np.bool_)
        self.winner = np.zeros(games, np.int8)
        self.scores = np.zeros((games, n), np.int16)
        self.totals = np.zeros((games, CLANS), np.int16)
        self.clans = np.zeros((games, CLANS), np.int8)
        self.turns = np.zeros(games, np.int16)
        self.decisions = np.zeros(games, np.int16)
        self.actions = np.zeros((games, max_decisions(rules) if record else 0), np.int16)


def _players(players: Sequence[Bot] | None, n: int) -> list[Bot]:
    """The bot of each seat, checked as for Ordonnance: default ``Random(seed=seat)``."""
    return check_players(players, n, Random)


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
    """
    rules = Rules(players=4) if rules is None else rules
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a shinobi Rules, got {rules!r}")
    if isinstance(games, bool) or not isinstance(games, int) or not 0 <= games <= MAX_GAMES:
        raise InvalidRulesError(f"games must be an int in 0..{MAX_GAMES:,}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
        raise InvalidRulesError(f"seed must be an int in 0..2**64-1, got {seed!r}")
    n = rules.players
    bots = _players(players, n)
    seeds = game_seeds(seed, games)
    per_game = bot_seeds(seeds, [_own_seed(bot) for bot in bots])
    policies = [_policy(bot) for bot in bots]
    python = any(p is None for p in policies)
    out = _Outputs(games, rules, record=record or python)
    if python:
        _run_python(rules, bots, seeds, per_game, out)
    else:
        _run_kernel(rules, seeds, per_game, np.array(policies, np.int64), out)
    return SimulationResult(
        rules=rules,
        players=tuple(repr(bot) for bot in bots),
        seeds=seeds,
        bot_seeds=per_game,
        winner=out.winner,
        winners=out.winners,
        scores=out.scores,
        totals=out.totals,
        clans=out.clans,
        turns=out.turns,
        decisions=out.decisions,
        actions=out.actions if record or python else None,
        bots=tuple(bots),
    )


def _run_kernel(
    rules: Rules,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    policies: npt.NDArray[np.int64],
    out: _Outputs,
) -> None:
    with _wrapping():
        kernel.simulate(rules.players, np.array(rules.troop_deck, np.int64), rules.optional_attack, seeds,
                        np.ascontiguousarray(bot_seeds), policies, out.winners, out.winner, out.scores, out.totals,
                        out.clans, out.turns, out.decisions, out.actions)  # fmt: skip


def _run_python(
    rules: Rules,
    bots: list[Bot],
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    out: _Outputs,
) -> None:
    actions = out.actions
    for g, game_seed in enumerate(seeds.tolist()):
        game = Game.new(rules, seed=game_seed)
        step = 0

        def record(seat: int, action: Action) -> None:
            nonlocal step
            actions[g, step] = action.code
            step += 1

        play_to_the_end(game, seeded_copies(bots, bot_seeds[g].tolist()), index=g, deal_seed=game_seed, on_action=record)
        out.winners[g, list(game.winners)] = True
        out.winner[g] = -1 if game.winner is None else game.winner
        out.totals[g] = game.totals
        out.clans[g] = game._clan_order
        out.scores[g] = game.scores
        out.turns[g] = game.turns
        out.decisions[g] = step
