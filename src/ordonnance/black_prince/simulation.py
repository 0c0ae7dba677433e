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

import functools
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince.actions import (
    END_BATTLE,
    END_TURN,
    PLAY_BATTLE,
    Action,
    EndBattle,
    EndTurn,
    Fight,
    MountedMove,
    Move,
    Place,
    PlaceBehind,
    PlayBattle,
)
from ordonnance.black_prince.bots import Bot, Greedy, Random
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.rules import Rules
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.core.bots import seeded_copies
from ordonnance.core.play import check_players, game_index as _game_index, play_to_the_end
from ordonnance.core.seeds import bot_seeds, game_seeds, own_seed as _own_seed, wrapping as _wrapping
from ordonnance.core.stats import wilson as _wilson

#: The most games one :func:`simulate` call plays.
MAX_GAMES = 100_000_000

__all__ = ["simulate", "SimulationResult", "Summary", "encode", "decode", "tables"]

_MASK64 = (1 << 64) - 1
_CHUNK = 65_536
#: Decisions a game can take at most, per turn (place, choose, 6 rides, 6 fights, end).
DECISIONS_PER_TURN = 15


@attrs.frozen(eq=False)
class Kinds:
    """The card kinds of a rules' two decks, as the kernel numbers them."""

    cards: tuple[Card, ...]
    """Kind i is ``cards[i]`` (sorted canonically, no repeats)."""
    tables: kernel.Tables
    """The kernel's tables of types, strengths and advantage masks."""
    canon: npt.NDArray[np.int64]
    """``[seat, i]``: kind of card i of ``rules.deck(seat)`` (padded with -1)."""
    canon_len: npt.NDArray[np.int64]
    """Each deck's size."""
    index: dict[Card, int]
    """A card's kind number."""


@functools.lru_cache(maxsize=64)
def tables(rules: Rules) -> Kinds:
    """The kernel's view of ``rules``' cards (cached per rules)."""
    cards = tuple(sorted(set(rules.deck(0)) | set(rules.deck(1)), key=lambda c: c.sort_key))
    index = {card: i for i, card in enumerate(cards)}
    kind_type = np.array([-1 if c.type is None else int(c.type) for c in cards], np.int64)
    strength = np.array([c.strength for c in cards], np.int64)
    advantages = np.array([sum(1 << int(t) for t in rules.card_advantages(c)) for c in cards], np.int64)
    size = max(len(rules.deck(0)), len(rules.deck(1)))
    canon = np.full((2, size), -1, np.int64)
    for seat in (0, 1):
        canon[seat, : len(rules.deck(seat))] = [index[c] for c in rules.deck(seat)]
    canon_len = np.array([len(rules.deck(0)), len(rules.deck(1))], np.int64)
    return Kinds(cards, kernel.Tables(kind_type, strength, advantages), canon, canon_len, index)


def encode(action: Action, kinds: Kinds) -> int:
    """The kernel's int for ``action`` (see :func:`ordonnance.black_prince._kernel.encode`)."""
    if isinstance(action, (Place, PlaceBehind)):
        return int(kernel.encode(kernel.OP_PLACE if type(action) is Place else kernel.OP_BEHIND,
                                 kinds.index[action.card], action.column))  # fmt: skip
    if isinstance(action, (Move, MountedMove)):
        op = kernel.OP_MOVE if type(action) is Move else kernel.OP_RIDE
        return int(kernel.encode(op, action.column, (action.step + 1) // 2))
    if isinstance(action, Fight):
        return int(kernel.encode(kernel.OP_FIGHT, action.column, action.target))
    op = {PlayBattle: kernel.OP_BATTLE, EndTurn: kernel.OP_END_TURN, EndBattle: kernel.OP_END_BATTLE}[type(action)]
    return int(kernel.encode(op, 0, 0))


def decode(code: int, kinds: Kinds) -> Action:
    """The action the kernel's int ``code`` stands for."""
    op, a, b = code & 7, (code >> 3) & 255, code >> 11
    if op == kernel.OP_PLACE:
        return Place(kinds.cards[a], b)
    if op == kernel.OP_BEHIND:
        return PlaceBehind(kinds.cards[a], b)
    if op == kernel.OP_MOVE:
        return Move(a, 2 * b - 1)
    if op == kernel.OP_RIDE:
        return MountedMove(a, 2 * b - 1)
    if op == kernel.OP_FIGHT:
        return Fight(a, b)
    if op == kernel.OP_BATTLE:
        return PLAY_BATTLE
    return END_TURN if op == kernel.OP_END_TURN else END_BATTLE


@attrs.frozen
class Summary:
    """Win rates with 95% Wilson intervals, the first-player advantage and the mean routs."""

    games: int
    """Number of games."""
    win_rate: tuple[float, float]
    """Share of games each seat won."""
    win_rate_ci: tuple[tuple[float, float], tuple[float, float]]
    """95% Wilson score interval of each win rate."""
    draw_rate: float
    """Share of games nobody won."""
    first_player_advantage: float
    """Seat 0's win rate minus seat 1's."""
    mean_routed: tuple[float, float]
    """Enemy troops each seat routed, on average."""
    mean_turns: float
    """Turns a game lasted, on average."""

    def __str__(self) -> str:
        lines = [f"{self.games:,} games"]
        for seat, (rate, (low, high)) in enumerate(zip(self.win_rate, self.win_rate_ci)):
            lines.append(f"  player {seat} wins {rate:7.2%}  (95% CI {low:.2%} .. {high:.2%}), "
                         f"routs {self.mean_routed[seat]:.2f} on average")  # fmt: skip
        lines.append(f"  draws {self.draw_rate:7.2%}; {self.mean_turns:.1f} turns a game on average")
        return "\n".join(lines)


@attrs.frozen(eq=False)
class SimulationResult:
    """Per-game results of :func:`simulate`, as NumPy arrays (one row per game)."""

    rules: Rules
    """The rules played."""
    players: tuple[str, ...]
    """The bot of each seat, as its repr."""
    seeds: npt.NDArray[np.uint64]
    """Each game's seed: ``Game.new(rules, seed=int(seeds[i]))``."""
    bot_seeds: npt.NDArray[np.uint64]
    """``[game, seat]``: the seed each seat's bot played that game with."""
    winner: npt.NDArray[np.int8]
    """The winning seat, or -1 for a draw."""
    scores: npt.NDArray[np.int16]
    """``[game, seat]``: the enemy troops that seat routed."""
    turns: npt.NDArray[np.int16]
    """Turns each game lasted."""
    decisions: npt.NDArray[np.int32]
    """Decisions made in each game."""
    actions: npt.NDArray[np.int32] | None
    """With ``record=True`` (always for bots played in Python): ``[game, i]``, the
    i-th decision as the kernel's int (:func:`decode`)."""
    _bots: tuple[object, ...] = attrs.field(repr=False, alias="bots")

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def summary(self) -> Summary:
        """Aggregate the games: win rates, draws, first-player advantage, mean routs and length."""
        games = len(self)
        wins = [int(np.count_nonzero(self.winner == seat)) for seat in (0, 1)]
        rate = [w / games if games else 0.0 for w in wins]
        return Summary(
            games=games,
            win_rate=(rate[0], rate[1]),
            win_rate_ci=(_wilson(wins[0], games), _wilson(wins[1], games)),
            draw_rate=float(np.count_nonzero(self.winner < 0)) / games if games else 0.0,
            first_player_advantage=rate[0] - rate[1],
            mean_routed=(float(self.scores[:, 0].mean()) if games else 0.0,
                         float(self.scores[:, 1].mean()) if games else 0.0),  # fmt: skip
            mean_turns=float(self.turns.mean()) if games else 0.0,
        )

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


def _players(players: Sequence[Bot] | None) -> list[Bot]:
    """The bot of each seat, checked: default ``Random(seed=seat)``."""
    return check_players(players, 2, Random)


def _policy(bot: object) -> int | None:
    if type(bot) is Random:
        return kernel.RANDOM
    if type(bot) is Greedy:
        return kernel.GREEDY
    return None


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
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a black_prince.Rules, got {rules!r}")
    if isinstance(games, bool) or not isinstance(games, int) or not 0 <= games <= MAX_GAMES:
        raise InvalidRulesError(f"games must be an int in 0..{MAX_GAMES:,}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
        raise InvalidRulesError(f"seed must be an int in 0..2**64-1, got {seed!r}")
    if not isinstance(record, bool):
        raise OrdonnanceTypeError(f"record must be a bool, got {record!r}")
    bots = _players(players)
    seeds = game_seeds(seed, games)
    per_game = bot_seeds(seeds, [_own_seed(bot) for bot in bots])
    policies = [_policy(bot) for bot in bots]
    in_kernel = all(p is not None for p in policies)
    width = DECISIONS_PER_TURN * rules.max_turns if record or not in_kernel else 0
    winner = np.empty(games, np.int8)
    scores = np.empty((games, 2), np.int16)
    turns = np.empty(games, np.int16)
    decisions = np.empty(games, np.int32)
    actions = np.zeros((games, width), np.int32) if width else None
    if in_kernel:
        _run_kernel(rules, seeds, per_game, np.array(policies, np.int64), winner, scores, turns, decisions, actions)
    else:
        assert actions is not None
        _run_python(rules, bots, seeds, per_game, winner, scores, turns, decisions, actions)
    return SimulationResult(
        rules=rules, players=tuple(repr(bot) for bot in bots), seeds=seeds, bot_seeds=per_game,
        winner=winner, scores=scores, turns=turns, decisions=decisions, actions=actions, bots=tuple(bots),
    )  # fmt: skip


def _run_kernel(
    rules: Rules,
    seeds: npt.NDArray[np.uint64],
    per_game: npt.NDArray[np.uint64],
    policies: npt.NDArray[np.int64],
    winner: npt.NDArray[np.int8],
    scores: npt.NDArray[np.int16],
    turns: npt.NDArray[np.int16],
    decisions: npt.NDArray[np.int32],
    actions: npt.NDArray[np.int32] | None,
) -> None:
    kinds = tables(rules)
    width = 0 if actions is None else actions.shape[1]
    chunk = _CHUNK if actions is None else max(1, min(_CHUNK, 2_000_000 // max(width, 1)))
    for start in range(0, len(seeds), chunk):
        stop = min(start + chunk, len(seeds))
        size = stop - start
        w = np.empty(size, np.int64)
        s = np.empty((size, 2), np.int64)
        t = np.empty(size, np.int64)
        d = np.empty(size, np.int64)
        r = np.zeros((size, width), np.int64)
        with _wrapping():
            kernel.simulate(kinds.tables, kinds.canon, kinds.canon_len, rules.first == "coin", rules.max_turns,
                            seeds[start:stop], np.ascontiguousarray(per_game[start:stop]), policies,
                            w, s, t, d, r)  # fmt: skip
        winner[start:stop], scores[start:stop], turns[start:stop], decisions[start:stop] = w, s, t, d
        if actions is not None:
            actions[start:stop] = r


def _run_python(
    rules: Rules,
    bots: list[Bot],
    seeds: npt.NDArray[np.uint64],
    per_game: npt.NDArray[np.uint64],
    winner: npt.NDArray[np.int8],
    scores: npt.NDArray[np.int16],
    turns: npt.NDArray[np.int16],
    decisions: npt.NDArray[np.int32],
    actions: npt.NDArray[np.int32],
) -> None:
    kinds = tables(rules)
    for g, game_seed in enumerate(seeds.tolist()):
        game = Game.new(rules, seed=game_seed)
        step = 0

        def record(seat: int, action: Action) -> None:
            nonlocal step
            if step < actions.shape[1]:
                actions[g, step] = encode(action, kinds)
            step += 1

        play_to_the_end(game, seeded_copies(bots, per_game[g].tolist()), index=g, deal_seed=game_seed, on_action=record)
        decisions[g] = step
        winner[g] = -1 if game.winner is None else game.winner
        scores[g] = game.routed
        turns[g] = game.turn
