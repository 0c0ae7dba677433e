"""The Monte-Carlo bot: determinized rollouts on the simulator kernel.

:class:`MonteCarlo` is re-exported as :class:`ordonnance.bots.MonteCarlo`.
Like every bot it sees only a :class:`~ordonnance.PlayerView`. For each legal
action it plays the rest of the game out many times in the numba simulator
(:func:`ordonnance._simulator_kernel.play_out`), each time after dealing the
cards it cannot see at random, and it takes the action that won most often.

>>> import ordonnance as od
>>> game = od.Game.new(od.Rules(), seed=3)
>>> from ordonnance._montecarlo import MonteCarlo  # also ordonnance.bots.MonteCarlo
>>> bot = MonteCarlo(seed=0, rollouts=200)
>>> bot.choose(game.view(0)) in game.legal_actions()
True

The search, step by step:

* **Determinization.** The cards this seat cannot see (``view.unseen``: the
  deck and the other hands) are shuffled and dealt into the other hands (their
  sizes are public) and the draw pile. Everything else (own hand, armies,
  completion order, owners, markers, whose turn) is public and copied.
* **Rollouts.** The action under test is forced as the first decision
  (``play_out``'s ``forced`` action index), then every seat
  is played by the kernel twin of :class:`~ordonnance.bots.Greedy` (or of
  :class:`~ordonnance.bots.Random`, with ``rollout_policy="random"``) to the
  end of the game. A rollout is worth 1 when this seat wins, 0 otherwise, plus
  a small bonus for the score margin (``margin_weight``, so that a lost
  position still prefers losing by less).
* **Common random numbers.** Within a round, rollout ``j`` uses the same deal
  and the same bot seeds for every action, so actions are compared on the
  same hidden cards: the difference of two means is far less noisy than
  either mean.
* **Sequential halving.** The budget is split into ``ceil(log2(k))`` rounds
  for ``k`` actions; each round shares its part equally among the actions
  still in the race and keeps the better half (by mean value, earlier action
  on ties). The last survivor with the best mean is played.

The budget counts rollouts, so a seeded bot is reproducible: the same seed
and the same sequence of views give the same actions on every machine. By
default it follows the length of the game left: ``work // (cards_left + 4)``
rollouts, clamped to ``[min_rollouts, max_rollouts]`` = ``[64, 1000]``.
``cards_left`` is the number of cards still to be played into undecided
territories (a rollout's length) and 4 stands for a rollout's fixed cost.
``work`` is 15,000 by default (:func:`default_work`: 30,000 under points
scoring, whose rollouts prove no claims; 7,500 with ``auto_claim`` and 3-4
players, whose rollouts check every complete army after every play). That
is 340 rollouts for the first move of a two-player game. With the defaults a
decision takes about 3-15 ms of CPU time on one core of the 2-core development
machine (about 4 ms for the first move of a two-player game, ``bench_bots.py``;
8.6 ms before the rules kernel was reshaped around its state record).

``time_limit`` (seconds) bounds a decision's time, setup included, as for every
search bot of every game (:class:`~ordonnance.core.bots.SearchBot`): the rounds
of sequential halving share it out (:class:`~ordonnance.core.clock.HalvingClock`),
and the choices then depend on the machine's speed. ``rollouts``, ``work`` and
``time_limit`` are limits: the search stops at the first one reached. Without
``rollouts`` or ``work`` the time alone decides (up to :data:`MAX_ROLLOUTS`);
with one of them as well, the search stops when either is spent.

The kernel (``cache=True``) compiles on first use together with the
simulator it calls: about 25 s for the very first decision after installing,
then about 0.4 s to load from the disk cache in each new process.
"""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

import attrs
import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance._bridge import Position, Setup, action_code, setup_of
from ordonnance.core.bots import legal
from ordonnance.core.rollouts import RolloutBot
from ordonnance.core.clock import CHUNK_GROWTH, PLANNED_SHARE, HalvingClock, time_limit_argument
from ordonnance.core.rng import splitmix64
from ordonnance.core.jit import splitmix64 as _splitmix64_jit
from ordonnance.actions import Action
from ordonnance.errors import InvalidRulesError
from ordonnance.game import Game
from ordonnance.rules import Rules
from ordonnance.view import PlayerView

# HalvingClock, PLANNED_SHARE and CHUNK_GROWTH moved to ordonnance.core.clock; still found here.
__all__ = ["MonteCarlo", "Search", "default_work", "HalvingClock", "PLANNED_SHARE", "CHUNK_GROWTH"]

#: Default budget per decision, in cards simulated: rollouts x (cards left + ROLLOUT_OVERHEAD).
#: Points scoring has no claims to prove, so its rollouts cost about half as much;
#: automatic claims with 3-4 players check every complete army after every play,
#: so their rollouts cost about twice as much.
DEFAULT_WORK = 15_000
DEFAULT_WORK_POINTS = 30_000
DEFAULT_WORK_AUTO_CLAIM_MULTIPLAYER = 7_500
#: A rollout's fixed cost (the deal, the copies, the scoring), in cards.
ROLLOUT_OVERHEAD = 4
#: Default bounds on the number of rollouts per decision.
DEFAULT_MIN_ROLLOUTS = 64
DEFAULT_MAX_ROLLOUTS = 1_000
#: The most rollouts a decision may be given (``rollouts``, ``min_rollouts``, ``max_rollouts``).
MAX_ROLLOUTS = 1_000_000
#: The most ``work`` a decision may be given (it is clamped to ``max_rollouts`` rollouts anyway).
MAX_WORK = 10**12

_MASK64 = (1 << 64) - 1
_TERRITORIES = kernel.TERRITORIES
_ARMY = kernel.ARMY
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_ROUND = np.uint64(0xD1B54A32D192ED03)


# --------------------------------------------------------------------- kernels


@numba.njit(cache=True)
def determinize(n: int, pos: Position, state: np.uint64, deal: npt.NDArray[np.int64]) -> np.uint64:
    """``pos.dealt`` set to ``pos.start`` with the unseen cards dealt at random; returns the generator.

    The cards of ``pos.pool`` are shuffled (Fisher-Yates from the end on
    SplitMix64 from ``state``) into ``deal`` (working space, as long as the
    pool), dealt into the other hands (``pos.sizes[q]`` cards each, in seat
    order) and the rest, in that order, becomes the draw pile. The next ``n``
    outputs seed the kernel bots of the seats.
    """
    pool, dealt = pos.pool, pos.dealt
    n_pool = pool.shape[0]
    for i in range(n_pool):  # not deal[:] = pool: numba compiles a shape-mismatch message for that
        deal[i] = pool[i]
    for i in range(n_pool - 1, 0, -1):
        state, value = _splitmix64_jit(state)
        k = kernel.bounded(value, i + 1)
        deal[i], deal[k] = deal[k], deal[i]
    kernel.copy_game(pos.start, kernel.ONLY_GAME, dealt, kernel.ONLY_GAME)
    at = 0
    for q in range(n):
        if q != pos.me:
            dealt.board[0, kernel.HAND + q] = kernel.pack(deal[at : at + pos.sizes[q]])
            at += pos.sizes[q]
    for i in range(n_pool - at):
        dealt.board[0, kernel.ORDER + i] = deal[at + i]
    for q in range(n):
        state, value = _splitmix64_jit(state)
        dealt.rng[0, q] = value
    return state


@numba.njit(cache=True, inline="always")
def reward(winner: int, scores: npt.NDArray[np.int64], p: int, n: int, margin_weight: float, max_score: int) -> float:
    """A finished game's value for seat p: 1 for a win, else 0, plus ``margin_weight`` times
    p's score margin over the best other seat as a share of ``max_score``."""
    value = 1.0 if winner == p else 0.0
    if margin_weight != 0.0:
        best_other = 0
        for q in range(n):
            if q != p and scores[q] > best_other:
                best_other = scores[q]
        value += margin_weight * (scores[p] - best_other) / max_score
    return value


@numba.njit(cache=True)
def _rollouts(
    cfg: kernel.Config,
    pos: Position,
    acts: npt.NDArray[np.int64],
    active: npt.NDArray[np.int64],
    first: int,
    per_action: int,
    seed: np.uint64,
    margin_weight: float,
    max_score: int,
    sums: npt.NDArray[np.float64],
    counts: npt.NDArray[np.int64],
) -> None:
    """Rollouts ``first .. first + per_action - 1`` of each action index in ``acts[active]``;
    adds values to ``sums``.

    Rollout ``j`` deals the unseen cards (:func:`determinize`) and seeds the
    bots the same way for every action, each of which is then played out from
    a copy in ``pos.work``.
    """
    n = cfg.n
    deal = np.empty(pos.pool.shape[0], np.int64)
    out_actions = np.zeros((1, 3), np.int64)
    scores = np.zeros(n, np.int64)
    work, scratch = pos.work, pos.scratch
    for j in range(first, first + per_action):
        state = seed ^ (np.uint64(j) * _GAMMA)
        state, _ = _splitmix64_jit(state)
        determinize(n, pos, state, deal)
        for ai in range(active.shape[0]):
            a = active[ai]
            kernel.copy_game(pos.dealt, kernel.ONLY_GAME, work, kernel.ONLY_GAME)
            kernel.play_out(cfg, work, kernel.ONLY_GAME, acts[a], out_actions, kernel.NO_RECORD, scratch)
            winner = kernel.outcome(cfg, work, kernel.ONLY_GAME, scores, scratch)
            sums[a] += reward(winner, scores, pos.me, n, margin_weight, max_score)
            counts[a] += 1


# --------------------------------------------------------------------- the bot


@attrs.frozen
class Search:
    """What one :meth:`MonteCarlo.search` found: the action and every action's estimate."""

    action: Action
    """The action chosen."""
    actions: tuple[Action, ...]
    """The legal actions, in ``view.legal_actions`` order."""
    values: tuple[float, ...]
    """Mean rollout value of each action (win rate plus the small margin bonus); NaN when not simulated."""
    rollouts: tuple[int, ...]
    """Rollouts spent on each action."""
    seconds: float
    """Wall time of the search."""

    def __str__(self) -> str:
        lines = [f"{sum(self.rollouts):,} rollouts in {self.seconds * 1e3:.1f} ms: {self.action}"]
        ranked = sorted(range(len(self.actions)), key=lambda i: (-self.rollouts[i], -_finite(self.values[i])))
        for i in ranked:
            mark = "*" if self.actions[i] == self.action else " "
            lines.append(f" {mark} {str(self.actions[i]):<28} {self.values[i]:6.3f}  ({self.rollouts[i]} rollouts)")
        return "\n".join(lines)


def _finite(x: float) -> float:
    return x if math.isfinite(x) else -math.inf


class MonteCarlo(RolloutBot):
    """Determinized Monte-Carlo search over the simulator kernel; strongest built-in bot.

    ``seed`` makes the bot reproducible (an int in 0..2**64-1; drawn at
    random when None). The budget per decision is ``rollouts`` in total when
    given, else ``work // (cards_left + 4)`` clamped to ``[min_rollouts,
    max_rollouts]``, with ``work`` (cards simulated in the rollouts, about the
    decisions they play) from :func:`default_work` unless given (see
    :meth:`budget` and the module docs). ``time_limit`` (seconds, optional)
    bounds the decision's time, setup included
    (:class:`~ordonnance.core.bots.SearchBot`): each round of sequential halving
    gets an equal share of what is left of 97% of it, spent in chunks of
    rollouts at the round's own speed as measured so far (at least one rollout
    of each action in the race a round;
    :meth:`~ordonnance.core.clock.HalvingClock.run_round`); results then depend
    on the machine's speed. With a time limit and neither ``rollouts`` nor
    ``work``, the time alone decides. ``rollout_policy`` is the kernel bot that
    plays every seat after the first action (``"greedy"``, the default and the
    stronger, or ``"random"``); ``margin_weight`` is the weight of the score
    margin added to a rollout's win/loss value. ``time_budget`` is the
    deprecated old name of ``time_limit``.

    It uses only the :class:`~ordonnance.PlayerView` it is given, never the
    game, so it cannot peek at hidden cards.
    """

    view_type = PlayerView
    ROLLOUT_LIMIT = MAX_ROLLOUTS
    WORK_LIMIT = MAX_WORK
    UNTIMED_ROLLOUTS = None  # budget() works them out
    UNTIMED_WORK = None
    DEFAULT_MARGIN_WEIGHT = 0.1
    BUDGET_ERROR = "{name} must be a positive int of at most {limit:,}, got {value}"
    BUDGET_OPTIONS = (("min_rollouts", DEFAULT_MIN_ROLLOUTS), ("max_rollouts", DEFAULT_MAX_ROLLOUTS))
    rollouts: int | None
    work: int | None

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int | None = None,
        work: int | None = None,
        min_rollouts: int = DEFAULT_MIN_ROLLOUTS,
        max_rollouts: int = DEFAULT_MAX_ROLLOUTS,
        time_limit: float | None = None,
        rollout_policy: Literal["greedy", "random"] = "greedy",
        margin_weight: float = 0.1,
        time_budget: float | None = None,
    ) -> None:
        for name, value in (("min_rollouts", min_rollouts), ("max_rollouts", max_rollouts)):
            self.check_budget(name, value, MAX_ROLLOUTS)
        if min_rollouts > max_rollouts:
            raise InvalidRulesError(f"min_rollouts ({min_rollouts}) must not exceed max_rollouts ({max_rollouts})")
        seconds = time_limit_argument(time_limit, time_budget, "MonteCarlo")
        super().__init__(seed, rollouts=rollouts, work=work, time_limit=seconds, rollout_policy=rollout_policy,
                         margin_weight=margin_weight)  # fmt: skip
        self.min_rollouts = min_rollouts
        """The fewest rollouts ``work`` may give."""
        self.max_rollouts = max_rollouts
        """The most rollouts ``work`` may give."""

    def choose(self, view: PlayerView) -> Action:
        """The action with the best rollout value for this view."""
        return self.search(view).action

    def budget(self, view: PlayerView) -> int:
        """The number of rollouts a decision in ``view`` may spend.

        ``rollouts`` when given; else ``work // (cards_left + 4)`` clamped to
        ``[min_rollouts, max_rollouts]``, where ``cards_left`` counts the cards
        still to be played into undecided territories, and ``work`` is
        :func:`default_work` when not given, or unbounded (:data:`MAX_ROLLOUTS`)
        under a time limit. The search spends at most this many, and at least
        one per action still in the race each round.
        """
        if self.rollouts is not None:
            return self.rollouts
        work = self.work
        if work is None:
            if self.time_limit is not None:
                return MAX_ROLLOUTS
            work = default_work(view.rules)
        left = _cards_left(view) + ROLLOUT_OVERHEAD
        return min(self.max_rollouts, max(self.min_rollouts, work // left))

    def search(self, view: PlayerView) -> Search:
        """Run the search for ``view`` and report every action's estimate.

        Raises :class:`~ordonnance.errors.IllegalActionError` when the view's
        seat has no legal action (not its turn, or the game is over).
        """
        actions = legal(view, PlayerView)
        self._state, decision_seed = splitmix64(self._state)
        if len(actions) == 1:
            return Search(actions[0], actions, (math.nan,), (0,), 0.0)
        clock = self._clock(view)
        return self._search(view, actions, decision_seed, self.budget(view), clock)

    def _search(self, view: PlayerView, actions: tuple[Action, ...], decision_seed: int, budget: int,
                clock: HalvingClock) -> Search:  # fmt: skip
        """Sequential halving over ``actions`` with ``budget`` rollouts in all, timed by ``clock``."""
        setup = setup_of(view, self.rollout_policy)
        k = len(actions)
        acts = np.array([action_code(action) for action in actions], np.int64)
        sums = np.zeros(k, np.float64)
        counts = np.zeros(k, np.int64)
        survivors = list(range(k))
        rounds = math.ceil(math.log2(k))
        for r in range(rounds):
            per_action = max(1, budget // (len(survivors) * rounds))
            round_seed = np.uint64(decision_seed ^ ((r + 1) * int(_ROUND) & _MASK64))
            active = np.array(survivors, np.int64)

            def play(first: int, count: int) -> int:
                _run(setup, acts, active, first, count, round_seed, self.margin_weight, sums, counts)
                return count

            clock.run_round(play, len(survivors), per_action, rounds - r)
            means = sums / np.maximum(counts, 1)
            survivors.sort(key=lambda a: (-means[a], a))
            survivors = survivors[: max(1, (len(survivors) + 1) // 2)]
            if clock.out():
                break
        means = sums / np.maximum(counts, 1)
        best = min(survivors, key=lambda a: (-means[a], a))
        values = tuple(float(means[a]) if counts[a] else math.nan for a in range(k))
        return Search(actions[best], actions, values, tuple(int(c) for c in counts), clock.seconds())

    def _rehearse(self, view: PlayerView) -> None:
        self._search(view, legal(view, PlayerView), 0, 1, HalvingClock(None))

    def _example_view(self) -> PlayerView:
        return Game.new(Rules(), seed=0).view(0)


def default_work(rules: Rules) -> int:
    """The default ``work`` budget for ``rules`` (see :meth:`MonteCarlo.budget`)."""
    if rules.scoring == "points":
        return DEFAULT_WORK_POINTS
    if rules.auto_claim and rules.players > 2:
        return DEFAULT_WORK_AUTO_CLAIM_MULTIPLAYER
    return DEFAULT_WORK


def _cards_left(view: PlayerView) -> int:
    """Cards still to be played into undecided territories (an upper bound on a rollout's length)."""
    n = view.rules.players
    left = 0
    for t in range(_TERRITORIES):
        if view.owners[t] is None:
            left += sum(_ARMY - len(view.armies[t][p]) for p in range(n))
    return left


def _run(
    setup: Setup,
    acts: npt.NDArray[np.int64],
    active: npt.NDArray[np.int64],
    first: int,
    per_action: int,
    seed: np.uint64,
    margin_weight: float,
    sums: npt.NDArray[np.float64],
    counts: npt.NDArray[np.int64],
) -> None:
    """:func:`_rollouts` on ``setup``'s position."""
    # Without the JIT (NUMBA_DISABLE_JIT=1) the 64-bit generator runs on NumPy
    # scalars, which warn on the wrap-around that the algorithm relies on.
    with np.errstate(over="ignore"):
        _rollouts(
            setup.cfg, setup.position, acts, active, first, per_action, seed, margin_weight, setup.max_score, sums, counts
        )
