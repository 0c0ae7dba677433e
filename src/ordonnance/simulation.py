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

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance.actions import PASS, Action, Claim, Pass, Play
from ordonnance.bots import Bot, Greedy, Random
from ordonnance.cards import Card
from ordonnance.core import simulate as _driver
from ordonnance.core.play import check_players
from ordonnance.core.play import game_index as _game_index
from ordonnance.core.seeds import bot_seeds, game_seeds, own_seed, wrapping
from ordonnance.core.stats import wilson as _wilson  # noqa: F401  (benchmarks import it from here)
from ordonnance.core.summary import Summary as _Summary
from ordonnance.errors import InvalidRulesError
from ordonnance.game import Game, shuffled_deck
from ordonnance.rules import Rules
from ordonnance.territory import TERRITORY_COUNT, Territory

__all__ = ["simulate", "SimulationResult", "Summary", "game_seeds", "bot_seeds", "MAX_GAMES"]

#: The most games one :func:`simulate` call plays (its results are kept in memory:
#: about 60 bytes a game for two players).
MAX_GAMES = _driver.MAX_GAMES
_CHUNK = 65_536  # games per kernel call: bounds the working memory


def kernel_policy(bot: object) -> int | None:
    """The kernel twin of a bot, or None for a bot the kernel cannot play."""
    return HOOKS.policy(bot)


@attrs.frozen
class Summary(_Summary):
    """The shared summary (:class:`ordonnance.core.summary.Summary`: win rates with 95% Wilson
    intervals, games nobody won, first-player advantage, game length) and territory frequencies."""

    territory_frequency: tuple[tuple[float, ...], ...]
    """``[territory][seat]``: share of games in which that seat won that territory."""

    def extra_lines(self) -> list[str]:
        """Each territory's line: how often each seat won it."""
        lines = []
        for t in Territory:
            shares = "  ".join(f"p{seat} {share:6.2%}" for seat, share in enumerate(self.territory_frequency[t]))
            lines.append(f"  {t.label:<9} {shares}")
        return lines


@attrs.frozen(eq=False)
class SimulationResult(_driver.SimulationResult[Rules]):
    """Per-game results of :func:`simulate`, as NumPy arrays (one row per game).

    A *decision* is one action a seat took: a play, a claim or a pass
    (:attr:`decisions`). A *turn* is a seat's actions up to its play or pass (a
    claim leaves the turn with the claimant while it can still act). A *round*
    goes once round the table: the first turn begins one, and so does every turn
    that starts at a seat not after the seat of the turn before (seats that
    cannot act are skipped). Without early claims every seat plays its 20
    cards in 20 rounds (:attr:`rounds`).
    """

    owners: npt.NDArray[np.int8]
    """``[game, territory]``: the seat that won it, or -1 if undecided."""
    markers: npt.NDArray[np.int8]
    """``[game, territory]``: the victory marker 1..5 on it, or 0."""
    actions: npt.NDArray[np.int8] | None
    """With ``record=True``: ``[game, i] = (seat, card mask, territory)`` for a play,
    ``(seat, 0, territory)`` for a claim and ``(seat, 0, -1)`` for a pass."""
    action_counts: npt.NDArray[np.int16] | None
    """With ``record=True``: how many rows of ``actions`` each game used (its :attr:`decisions`)."""
    _orders: npt.NDArray[np.integer[Any]] | None = attrs.field(default=None, repr=False)
    # The deck order each game was dealt from (:func:`_simulate_orders`), else None: dealt from its seed.

    def summary(self) -> Summary:
        """Aggregate the games: the shared figures (:class:`ordonnance.core.summary.Summary`) and
        how often each seat won each territory."""
        games, n = len(self), self.rules.players
        return Summary.of(
            self.winner, self.decisions, self.rounds, n,
            territory_frequency=tuple(
                tuple(float(np.count_nonzero(self.owners[:, t] == seat)) / max(games, 1) for seat in range(n))
                for t in range(TERRITORY_COUNT)
            ),
        )  # fmt: skip

    def record(self, game: int) -> tuple[tuple[Card, ...], tuple[tuple[int, Action], ...]]:
        """Game ``game``'s deck order (top first) and its actions as (seat, action)."""
        if self.actions is None or self.action_counts is None:
            raise InvalidRulesError("this result was simulated without record=True")
        index = _game_index(game, len(self))
        order = tuple(Card.from_mask(m) for m in self._order(index))
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
        order, steps = self.record(index)
        replayed = Game.new(self.rules, seed=int(self.seeds[index])) if self._orders is None else Game.new(self.rules, deck=order)
        for seat, action in steps:
            if replayed.current_player != seat:
                raise InvalidRulesError(f"game {index}: recorded seat {seat} acts, but it is seat {replayed.current_player}'s turn")
            replayed.apply(action)
        return replayed

    def _order(self, index: int) -> list[int]:
        """Game ``index``'s deck order (card masks, top first)."""
        if self._orders is None:
            return shuffled_deck(self.rules, int(self.seeds[index]))[0]
        return [int(m) for m in self._orders[index].tolist()]


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
    A record is kept only if it fits in
    :data:`~ordonnance.core.simulate.MAX_RECORD_BYTES` (16 GiB; 288 bytes a game); a
    larger one is refused before anything is allocated. The games go to the kernel a
    fraction of a second at a time, so Ctrl-C raises :class:`KeyboardInterrupt` within a
    second.
    """
    return _driver.simulate(HOOKS, rules, games=games, seed=seed, players=players, record=record)


def _simulate_orders(
    rules: Rules,
    orders: npt.NDArray[np.integer[Any]],
    seeds: npt.NDArray[np.uint64],
    players: Sequence[Bot] | None,
    record: bool,
) -> SimulationResult:
    """:func:`simulate`, but game ``i`` is dealt from the deck order ``orders[i]`` (card masks, top
    first: a permutation of ``rules``' cards, as ``Game.new(rules, deck=...)`` takes it), its bots
    seeded as ``simulate`` seeds game ``i`` of seed ``seeds[i]``. :meth:`SimulationResult.replay`
    deals each game from its order."""
    given = np.asarray(orders)
    seeds = np.ascontiguousarray(seeds, np.uint64)
    if given.shape != (len(seeds), len(rules.cards)):
        raise InvalidRulesError(f"orders must be one deck of {len(rules.cards)} cards a game, got shape {given.shape}")
    if not np.array_equal(np.sort(given, axis=1), np.broadcast_to(kernel.deck_of(rules), given.shape)):
        raise InvalidRulesError("orders must each be a permutation of the rules' cards")
    orders = np.ascontiguousarray(given, np.int8)  # card masks: 1..31
    bots = check_players(players, rules.players, Random)
    policies = np.array([-1 if (p := HOOKS.policy(bot)) is None else p for bot in bots], np.int64)
    in_kernel = bool(np.all(policies >= 0))
    per_game = bot_seeds(seeds, [own_seed(bot) for bot in bots])
    call = _driver.Call(rules, tuple(bots), seeds, per_game, policies, _Outputs(len(seeds), rules, record=record), record, in_kernel)
    if in_kernel:
        _driver.in_chunks(
            len(seeds),
            lambda start, stop: _run_kernel(rules, seeds[start:stop], per_game[start:stop], policies, call.out.rows(start, stop), orders=orders[start:stop]),
        )
    else:
        _driver.play_in_python(_FromOrders(orders), rules, bots, seeds, per_game, call.out)
    return attrs.evolve(HOOKS.result(call), orders=orders)


class _Outputs(_driver.Outputs):
    """The arrays of :class:`SimulationResult` being filled."""

    decisions: npt.NDArray[np.int16]

    def __init__(self, games: int, rules: Rules, *, record: bool) -> None:
        super().__init__(games, rules.players)
        self.owners = np.zeros((games, TERRITORY_COUNT), np.int8)
        self.markers = np.zeros((games, TERRITORY_COUNT), np.int8)
        self.actions = np.zeros((games, kernel.MAX_ACTIONS, 3), np.int8) if record else None

    def results(self) -> kernel.Results:
        """The arrays as the kernel fills them (without a record, a row of one action it writes nothing to)."""
        actions = np.zeros((len(self.winner), 1, 3), np.int8) if self.actions is None else self.actions
        return kernel.Results(self.owners, self.markers, self.scores, self.winner, actions, self.decisions, self.rounds)


def _rounds(steps: Sequence[tuple[int, Action]]) -> int:
    """The rounds of a game played with ``steps`` (see :class:`SimulationResult`)."""
    rounds, last, ended = 0, kernel.SEATS, True
    for seat, action in steps:
        if seat < last or (seat == last and ended):
            rounds += 1
        last, ended = seat, not isinstance(action, Claim)
    return rounds


class _Hooks(_driver.Hooks[Rules, _Outputs, SimulationResult]):
    """What :func:`ordonnance.core.simulate.simulate` needs of Ordonnance."""

    def outputs(self, rules: Rules, games: int, *, record: bool, in_kernel: bool) -> _Outputs:
        return _Outputs(games, rules, record=record)

    def record_bytes(self, rules: Rules, *, record: bool, in_kernel: bool) -> int:
        return kernel.MAX_ACTIONS * 3 if record else 0  # (seat, card mask, territory) as int8

    def run_kernel(self, call: _driver.Call[Rules, _Outputs]) -> None:
        _run_kernel(call.rules, call.seeds, call.bot_seeds, call.policies, call.out)

    def read(self, game: Game, steps: Sequence[tuple[int, Any]], out: _Outputs, g: int) -> None:
        out.owners[g] = [-1 if (o := game.territory_owner(t)) is None else o for t in Territory]
        out.markers[g] = [game.marker(t) or 0 for t in Territory]
        out.rounds[g] = _rounds(steps)
        if out.actions is not None:
            for i, (seat, action) in enumerate(steps[: kernel.MAX_ACTIONS]):
                if isinstance(action, Pass):
                    out.actions[g, i] = (seat, 0, -1)
                else:
                    out.actions[g, i] = (seat, action.card.mask if isinstance(action, Play) else 0, int(action.territory))

    def result(self, call: _driver.Call[Rules, _Outputs]) -> SimulationResult:
        out = call.out
        return SimulationResult(
            **call.shared(),
            owners=out.owners, markers=out.markers, actions=out.actions,
            action_counts=out.decisions.copy() if call.record else None,
        )  # fmt: skip


#: Ordonnance's hooks for the shared simulate driver.
HOOKS = _Hooks(Rules, "ordonnance.Rules", Rules, Random, Game, {Random: kernel.RANDOM, Greedy: kernel.GREEDY})


class _FromOrders(_Hooks):
    """:data:`HOOKS` dealing the games, one after another, from given deck orders (the Python road
    of :func:`_simulate_orders`)."""

    def __init__(self, orders: npt.NDArray[np.integer[Any]]) -> None:
        super().__init__(Rules, HOOKS.rules_name, Rules, Random, Game, HOOKS.kernel_bots)
        self._orders = iter(orders.tolist())

    def new_game(self, rules: Rules, seed: int) -> Game:
        return Game.new(rules, deck=[Card.from_mask(m) for m in next(self._orders)])


def _run_kernel(
    rules: Rules,
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    policies: npt.NDArray[np.int64],
    out: _Outputs,
    *,
    by_player: bool = True,
    orders: npt.NDArray[np.integer[Any]] | None = None,
) -> None:
    """Play the games in the kernel, in chunks, into ``out`` (recording when it has ``actions``),
    dealt from their seeds or from ``orders`` (one deck order a game); ``by_player=False`` keeps
    to the general kernel even where the player-by-player one applies (for the tests)."""
    cfg = kernel.config(rules, policies.tolist())
    n = rules.players
    cards = kernel.deck_of(rules)
    record = out.actions is not None
    bot_seeds = np.ascontiguousarray(bot_seeds)
    independent = (
        by_player
        and orders is None
        and bool(np.all(policies == kernel.RANDOM))
        and not rules.auto_claim
        and len(cards) >= kernel.TERRITORIES * kernel.ARMY * n
    )
    if independent:
        # Its working memory does not grow with the games: one call, straight into the results.
        with wrapping():
            kernel.simulate_random(cards, n, seeds, bot_seeds, cfg.scoring, cfg.tie_break, out.results(), record)
        return
    state = kernel.new_state(1, len(cards))
    scratch = np.zeros(kernel.SCRATCH, np.int64)
    results = out.results()
    for start in range(0, len(seeds), _CHUNK):
        stop = min(start + _CHUNK, len(seeds))
        size = stop - start
        part = kernel.Results(
            np.empty((size, TERRITORY_COUNT), np.int64), np.empty((size, TERRITORY_COUNT), np.int64),
            np.empty((size, n), np.int64), np.empty(size, np.int64),
            np.zeros((size, kernel.MAX_ACTIONS if record else 1, 3), np.int64), np.zeros(size, np.int64),
            np.zeros(size, np.int64),
        )  # fmt: skip
        with wrapping():
            if orders is None:
                kernel.simulate(cfg, state, cards, seeds[start:stop], bot_seeds[start:stop], part, record, scratch)
            else:
                kernel.simulate_orders(cfg, state, orders[start:stop], bot_seeds[start:stop], part, record, scratch)
        for into, came in zip(results, part):
            into[start:stop] = came
