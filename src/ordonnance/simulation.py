"""Simulation at scale: many whole games in one numba kernel.

>>> import ordonnance as od
>>> res = od.simulate(od.Rules(), games=1000, seed=1)
>>> res.winner.shape, res.owners.shape
((1000,), (1000, 5))
>>> 0.3 < res.summary().win_rate[0] < 0.7
True

Every simulated game can be replayed through :class:`~ordonnance.Game`:

>>> res = od.simulate(od.Rules(), games=10, seed=1, record=True)
>>> game = res.replay(3)
>>> bool(game.winner == res.winner[3]) and game.is_over
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance.actions import PASS, Action, Claim, Pass, Play
from ordonnance.bots import Bot, Greedy, Random
from ordonnance.core.bots import seeded_copies
from ordonnance.core.play import check_players, game_index as _game_index, play_to_the_end
from ordonnance.core.seeds import bot_seeds, game_seeds, own_seed as _own_seed, wrapping as _wrapping
from ordonnance.core.stats import wilson as _wilson
from ordonnance.cards import Card
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.game import Game, shuffled_deck
from ordonnance.rules import Rules
from ordonnance.territory import TERRITORY_COUNT, Territory

__all__ = ["simulate", "SimulationResult", "Summary", "game_seeds", "bot_seeds", "MAX_GAMES"]

#: The most games one :func:`simulate` call plays (its results are kept in memory:
#: about 60 bytes a game for two players).
MAX_GAMES = 100_000_000
_MASK64 = (1 << 64) - 1
_CHUNK = 65_536  # games per kernel call: bounds the working memory


def _players(players: Sequence[Bot] | None, n: int) -> list[Bot]:
    """The bot of each seat, checked: default ``Random(seed=seat)`` for every seat."""
    return check_players(players, n, Random)


def _policy(bot: object) -> int | None:
    """The kernel twin of a bot, or None for a bot the kernel cannot play."""
    if type(bot) is Random:
        return kernel.RANDOM
    if type(bot) is Greedy:
        return kernel.GREEDY
    return None


@attrs.frozen
class Summary:
    """Win rates with 95% Wilson intervals, first-player advantage, territory frequencies."""

    games: int
    """Number of games."""
    win_rate: tuple[float, ...]
    """Share of games each seat won."""
    win_rate_ci: tuple[tuple[float, float], ...]
    """95% Wilson score interval of each win rate."""
    draw_rate: float
    """Share of games nobody won."""
    first_player_advantage: float
    """Seat 0's win rate minus the fair share ``1 / players``."""
    first_player_advantage_ci: tuple[float, float]
    """95% interval of the first-player advantage."""
    territory_frequency: tuple[tuple[float, ...], ...]
    """``[territory][seat]``: share of games in which that seat won that territory."""

    def __str__(self) -> str:
        lines = [f"{self.games:,} games"]
        for seat, (rate, (low, high)) in enumerate(zip(self.win_rate, self.win_rate_ci)):
            lines.append(f"  player {seat} wins {rate:7.2%}  (95% CI {low:.2%} .. {high:.2%})")
        if self.draw_rate:
            lines.append(f"  nobody wins {self.draw_rate:7.2%}")
        low, high = self.first_player_advantage_ci
        lines.append(f"  first-player advantage {self.first_player_advantage:+.2%} (95% CI {low:+.2%} .. {high:+.2%})")
        for t in Territory:
            shares = "  ".join(f"p{seat} {share:6.2%}" for seat, share in enumerate(self.territory_frequency[t]))
            lines.append(f"  {t.label:<9} {shares}")
        return "\n".join(lines)


@attrs.frozen(eq=False)
class SimulationResult:
    """Per-game results of :func:`simulate`, as NumPy arrays (one row per game)."""

    rules: Rules
    """The rules played."""
    players: tuple[str, ...]
    """The bot of each seat, as its repr."""
    seeds: npt.NDArray[np.uint64]
    """Each game's shuffle seed: ``Game.new(rules, seed=int(seeds[i]))``."""
    bot_seeds: npt.NDArray[np.uint64]
    """``[game, seat]``: the seed each seat's bot played that game with."""
    winner: npt.NDArray[np.int8]
    """The winning seat, or -1 when nobody wins."""
    owners: npt.NDArray[np.int8]
    """``[game, territory]``: the seat that won it, or -1 if undecided."""
    markers: npt.NDArray[np.int8]
    """``[game, territory]``: the victory marker 1..5 on it, or 0."""
    scores: npt.NDArray[np.int16]
    """``[game, seat]``: territories held, or points under ``scoring="points"``."""
    actions: npt.NDArray[np.int8] | None
    """With ``record=True``: ``[game, i] = (seat, card mask, territory)`` for a play,
    ``(seat, 0, territory)`` for a claim and ``(seat, 0, -1)`` for a pass."""
    action_counts: npt.NDArray[np.int16] | None
    """With ``record=True``: how many rows of ``actions`` each game used."""

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def summary(self) -> Summary:
        """Aggregate the games: win rates, first-player advantage, territory frequencies."""
        games = len(self)
        n = self.rules.players
        wins = [int(np.count_nonzero(self.winner == seat)) for seat in range(n)]
        first_low, first_high = _wilson(wins[0], games)
        return Summary(
            games=games,
            win_rate=tuple(w / games if games else 0.0 for w in wins),
            win_rate_ci=tuple(_wilson(w, games) for w in wins),
            draw_rate=float(np.count_nonzero(self.winner < 0)) / games if games else 0.0,
            first_player_advantage=(wins[0] / games if games else 0.0) - 1 / n,
            first_player_advantage_ci=(first_low - 1 / n, first_high - 1 / n),
            territory_frequency=tuple(
                tuple(float(np.count_nonzero(self.owners[:, t] == seat)) / max(games, 1) for seat in range(n))
                for t in range(TERRITORY_COUNT)
            ),
        )

    def record(self, game: int) -> tuple[tuple[Card, ...], tuple[tuple[int, Action], ...]]:
        """Game ``game``'s deck order (top first) and its actions as (seat, action)."""
        if self.actions is None or self.action_counts is None:
            raise InvalidRulesError("this result was simulated without record=True")
        index = _game_index(game, len(self))
        order = tuple(Card.from_mask(m) for m in shuffled_deck(self.rules, int(self.seeds[index]))[0])
        steps: list[tuple[int, Action]] = []
        for seat, mask, territory in self.actions[index, : int(self.action_counts[index])].tolist():
            action: Action
            if territory < 0:
                action = PASS
            elif mask == 0:
                action = Claim(Territory(territory))
            else:
                action = Play(Card.from_mask(mask), Territory(territory))
            steps.append((seat, action))
        return order, tuple(steps)

    def replay(self, game: int) -> Game:
        """Replay game ``game`` through :class:`Game` from its record; returns the finished game.

        Raises :class:`~ordonnance.errors.IllegalActionError` if a recorded
        action were illegal (it never is: the tests replay thousands).
        """
        index = _game_index(game, len(self))
        replayed = Game.new(self.rules, seed=int(self.seeds[index]))
        for seat, action in self.record(index)[1]:
            if replayed.current_player != seat:
                raise InvalidRulesError(f"game {index}: recorded seat {seat} acts, but it is seat {replayed.current_player}'s turn")
            replayed.apply(action)
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

    ``players`` gives a bot per seat (default: :class:`~ordonnance.bots.Random`
    for every seat). Built-in :class:`~ordonnance.bots.Random` and
    :class:`~ordonnance.bots.Greedy` bots run inside the numba kernel, which
    plays exactly as :class:`Game` with those bots would (the tests replay
    simulated games through ``Game`` to prove it); any other bot is driven
    through :class:`Game` in Python, one decision at a time. With
    ``record=True`` each game's actions are kept for :meth:`SimulationResult.replay`.
    The same ``seed`` and bots give the same results on every machine.

    Each seat's bot plays each game from its own seed there,
    :attr:`SimulationResult.bot_seeds`, mixed from the game's seed, the seat and
    the bot's ``seed`` attribute (0 for a bot without an integer one), so no two
    seats share a random stream whatever seeds the bots were given. The bots
    passed in are never changed: built-in bots play every game as a fresh copy
    (so one bot object can serve several threads at once), and any other bot is
    called as it is, its ``choose`` once per decision of its seat, game after
    game in order. At most :data:`MAX_GAMES` games a call.
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a Rules, got {rules!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise InvalidRulesError(f"games must be a non-negative int, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
        raise InvalidRulesError(f"seed must be an int in 0..2**64-1, got {seed!r}")
    if games > MAX_GAMES:
        raise InvalidRulesError(
            f"games must be at most {MAX_GAMES:,} per call (results are kept in memory), got {games!r}; "
            "simulate in chunks, or use tournament()"
        )
    n = rules.players
    bots = _players(players, n)
    seeds = game_seeds(seed, games)
    per_game = bot_seeds(seeds, [_own_seed(bot) for bot in bots])
    winner = np.empty(games, np.int8)
    owners = np.empty((games, TERRITORY_COUNT), np.int8)
    markers = np.empty((games, TERRITORY_COUNT), np.int8)
    scores = np.empty((games, n), np.int16)
    actions = np.zeros((games, kernel.MAX_ACTIONS, 3), np.int8) if record else None
    counts = np.zeros(games, np.int16) if record else None

    policies = [_policy(bot) for bot in bots]
    if all(p is not None for p in policies):
        _run_kernel(rules, seeds, per_game, np.array(policies, np.int64), winner, owners, markers, scores, actions, counts)
    else:
        _run_python(rules, bots, seeds, per_game, winner, owners, markers, scores, actions, counts)
    return SimulationResult(
        rules=rules,
        players=tuple(repr(bot) for bot in bots),
        seeds=seeds,
        bot_seeds=per_game,
        winner=winner,
        owners=owners,
        markers=markers,
        scores=scores,
        actions=actions,
        action_counts=counts,
    )


def _run_kernel(
    rules: Rules,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    policies: npt.NDArray[np.int64],
    winner: npt.NDArray[np.int8],
    owners: npt.NDArray[np.int8],
    markers: npt.NDArray[np.int8],
    scores: npt.NDArray[np.int16],
    actions: npt.NDArray[np.int8] | None,
    counts: npt.NDArray[np.int16] | None,
    *,
    by_player: bool = True,
) -> None:
    """Play the games in the kernel, in chunks; ``by_player=False`` keeps to the
    general kernel even where the player-by-player one applies (for the tests)."""
    cfg = kernel.config(rules, policies.tolist())
    n = rules.players
    cards = kernel.deck_of(rules)
    record = actions is not None
    independent = (
        by_player
        and bool(np.all(policies == kernel.RANDOM))
        and not rules.auto_claim
        and len(cards) >= kernel.TERRITORIES * kernel.ARMY * n
    )
    if independent:
        # Its working memory does not grow with the games: one call, straight into the results.
        no_actions = np.zeros((len(seeds), 1, 3), np.int8)
        with _wrapping():
            kernel.simulate_random(
                cards, n, seeds, np.ascontiguousarray(bot_seeds), cfg.scoring, cfg.tie_break, owners, markers, scores, winner,
                no_actions if actions is None else actions,
                np.zeros(len(seeds), np.int16) if counts is None else counts,
                record,
            )
        return
    state = kernel.new_state(1, len(cards))
    scratch = np.zeros(kernel.SCRATCH, np.int64)
    for start in range(0, len(seeds), _CHUNK):
        stop = min(start + _CHUNK, len(seeds))
        size = stop - start
        o = np.empty((size, TERRITORY_COUNT), np.int64)
        m = np.empty((size, TERRITORY_COUNT), np.int64)
        s = np.empty((size, n), np.int64)
        w = np.empty(size, np.int64)
        a = np.zeros((size, kernel.MAX_ACTIONS if record else 1, 3), np.int64)
        c = np.zeros(size, np.int64)
        chunk_seeds, chunk_bot_seeds = seeds[start:stop], np.ascontiguousarray(bot_seeds[start:stop])
        with _wrapping():
            kernel.simulate(cfg, state, cards, chunk_seeds, chunk_bot_seeds, o, m, s, w, a, c, record, scratch)
        owners[start:stop], markers[start:stop], scores[start:stop], winner[start:stop] = o, m, s, w
        if actions is not None and counts is not None:
            actions[start:stop] = a
            counts[start:stop] = c


def _run_python(
    rules: Rules,
    bots: list[Bot],
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    winner: npt.NDArray[np.int8],
    owners: npt.NDArray[np.int8],
    markers: npt.NDArray[np.int8],
    scores: npt.NDArray[np.int16],
    actions: npt.NDArray[np.int8] | None,
    counts: npt.NDArray[np.int16] | None,
) -> None:
    for g, game_seed in enumerate(seeds.tolist()):
        game = Game.new(rules, seed=game_seed)
        step = 0

        def record(seat: int, action: Action) -> None:
            nonlocal step
            if actions is not None and step < kernel.MAX_ACTIONS:
                if isinstance(action, Pass):
                    actions[g, step] = (seat, 0, -1)
                else:
                    mask = action.card.mask if isinstance(action, Play) else 0
                    actions[g, step] = (seat, mask, int(action.territory))
                step += 1

        play_to_the_end(game, seeded_copies(bots, bot_seeds[g].tolist()), index=g, deal_seed=game_seed, on_action=record)
        if counts is not None:
            counts[g] = step
        winner[g] = -1 if game.winner is None else game.winner
        owners[g] = [-1 if (o := game.territory_owner(t)) is None else o for t in Territory]
        markers[g] = [game.marker(t) or 0 for t in Territory]
        scores[g] = game.scores
