"""The Monte-Carlo bot: determinized rollouts on the Shinobi kernel.

:class:`MonteCarlo` is re-exported as :class:`ordonnance.shinobi.bots.MonteCarlo`.
Like every bot it sees only a :class:`~ordonnance.shinobi.PlayerView`. For each
legal action it plays the rest of the game out many times in the numba kernel
(:func:`ordonnance.shinobi._kernel.play_out`, the rules the simulator uses),
each time after dealing at random what it cannot see, and it gives the action
that won most often.

>>> from ordonnance import shinobi
>>> game = shinobi.Game.new(shinobi.Rules(), seed=3)
>>> bot = shinobi.bots.MonteCarlo(seed=0, rollouts=64)
>>> bot.choose(game.view(0)) in game.legal_actions()
True

The search, step by step:

* **Determinization.** The clans of the other seats are dealt at random from
  the four clans that are not this seat's (the rest are neutral), and the troop
  cards it cannot see (:meth:`PlayerView.unseen`: the deck and the other hands)
  are shuffled and dealt into the other hands (their sizes are public) and the
  deck. The table, the discard pile, the changes of this turn, the order and
  the final round are public and copied. Every deal is thus consistent with
  the view, and each consistent deal is equally likely.
* **Rollouts.** The action under test is given, then every seat is played by
  the kernel twin of :class:`~ordonnance.shinobi.bots.Greedy` (or of ``Random``,
  with ``rollout_policy="random"``) for ``horizon`` turns (default
  :data:`DEFAULT_HORIZON`; None plays to the end), and the table is then scored
  as if the game ended there. A rollout is worth 1 when this seat wins alone,
  ``1/k`` for a win shared by ``k``, 0 otherwise, plus a small bonus for the
  score margin (``margin_weight``) so that a lost position still prefers losing
  by less. Cut rollouts won more games against Greedy for the same time than
  whole ones: in tuning runs (four players, 400 rollouts, 150 games each, so
  about +-4 points) 6 turns won 48%, 8 turns 51%, 10 turns 60%, 12 turns 54-56%,
  16 turns 50%; whole games needed 1,000 rollouts (about 85 ms) for 57%. On the
  benchmark's 200 games, 500 rollouts won 56.2% and 800 65.2%, at a median 34 ms
  of CPU time a decision (before Greedy's evaluation in lanes made rollouts
  about twice as fast).
* **Clans.** Every consistent clan assignment is equally likely by default;
  ``home_weight`` leans the deals towards giving each seat the clan it has most
  of at home (weight ``exp(home_weight x cards)``). Against Greedy that lost
  games (0.3: 49%, 1.0: 44%, against 52-56% without), so it is off.
* **Common random numbers.** Within a round, rollout ``j`` uses the same deal
  and the same bot seeds for every action, so actions are compared on the same
  hidden cards.
* **Sequential halving.** The budget (``rollouts`` per decision) is split into
  ``ceil(log2(k))`` rounds for ``k`` actions; each round shares its part equally
  among the actions still in the race and keeps the better half (by mean value,
  the earlier action on ties). The best survivor is played.
* **A bound on the work.** A rollout's cost varies with the table (Greedy
  values every legal action of every decision, a dozen on average and up to
  about fifty), so ``rollouts`` alone does not bound a decision's time.
  ``work`` (:data:`DEFAULT_WORK`) bounds the work of all the rollouts of one
  decision, counted as the decisions played plus the actions Greedy valued:
  each round may spend its share of what is left and stops after the first
  rollout index ``j`` (played for every action in the race) that reaches it,
  so every action keeps the same deals and at least one rollout a round. A
  unit of work costs about 65-70 ns of one core, so the defaults (1,600
  rollouts, 450,000 work, which binds in most decisions) take about 25-30 ms
  of CPU time a decision and at most about 40 ms on the development machine
  (see ``docs/shinobi.rst``).
* **A bound on the time.** ``time_limit`` (seconds) bounds a decision's time,
  setup included, as for every search bot of every game
  (:class:`~ordonnance.core.bots.SearchBot`): the rounds share it out
  (:class:`~ordonnance.core.clock.HalvingClock`), running their rollouts in
  chunks (rollout ``j`` is dealt alike in every chunk, so a search that ends
  before the clock does is the untimed one). ``rollouts``, ``work`` and
  ``time_limit`` are limits: the search stops at the first one reached, and a
  fixed budget left out does not apply under a time limit.

A decision with one legal action is given at once. The budgets count rollouts
and work, not time, so a seeded bot is reproducible on every machine (under a
time limit it is not, as soon as the clock ends a search).
"""

from __future__ import annotations

import itertools
import math
from typing import Literal, NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from ordonnance.core import checks
from ordonnance.core.rollouts import RolloutBot, WorkShare
from ordonnance.core.clock import HalvingClock
from ordonnance.core.rng import splitmix64
from ordonnance.core.jit import nth_output
from ordonnance.core.jit import splitmix64 as _splitmix64_jit
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.shinobi import _kernel as kernel
from ordonnance.shinobi._bridge import state_of_view
from ordonnance.shinobi.actions import Action
from ordonnance.shinobi.cards import CLANS
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rules import Rules
from ordonnance.shinobi.view import PlayerView

__all__ = ["MonteCarlo", "DEFAULT_ROLLOUTS", "DEFAULT_WORK", "MAX_ROLLOUTS", "MAX_WORK", "DEFAULT_HORIZON", "state_of_view",
           "clan_prior", "determinize", "rollouts", "position_of", "Position", "Knobs", "Tally"]

#: Rollouts per decision by default.
DEFAULT_ROLLOUTS = 1_600
#: The most work of one decision by default (see the module docs).
DEFAULT_WORK = 450_000
#: The largest budget a bot accepts (a decision then takes minutes, not forever).
MAX_ROLLOUTS = 1_000_000
#: The largest ``work`` a bot accepts.
MAX_WORK = 10**10
#: Turns a rollout plays by default before the table is scored (2.5 rounds of 4 players).
DEFAULT_HORIZON = 10
_MASK64 = (1 << 64) - 1


def clan_prior(view: PlayerView, home_weight: float) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Every way to give the other seats distinct clans (not this seat's), as rows of
    5 clans in seat order (this seat's own, then the neutral clans last), and their
    cumulative weights: ``exp(home_weight x`` the cards of its clan each seat has at
    home ``)``. Every row is consistent with the view; ``home_weight=0`` makes them
    equally likely."""
    n, me = view.players, view.seat
    seats = [q for q in range(n) if q != me]
    others = [c for c in range(CLANS) if c != view.clan]
    rows, weights = [], []
    for chosen in itertools.permutations(others, len(seats)):
        row = [0] * CLANS
        row[me] = view.clan
        for q, c in zip(seats, chosen):
            row[q] = c
        row[n:] = sorted(set(others) - set(chosen))
        rows.append(row)
        weights.append(math.exp(home_weight * sum(view.provinces[q][c] for q, c in zip(seats, chosen))))
    return np.array(rows, np.int64), np.cumsum(weights)


class Position(NamedTuple):
    """A view's position in the kernel, to be dealt again and again (:func:`determinize`);
    :func:`position_of` builds it."""

    base: npt.NDArray[np.int64]  # the state record of what the view shows (state_of_view)
    me: int  # the seat whose view it is
    pool: npt.NDArray[np.int64]  # the card codes me cannot see, one entry per copy
    clans: npt.NDArray[np.int64]  # every consistent clan assignment (clan_prior)
    cumulative: npt.NDArray[np.float64]  # their cumulative weights


class Knobs(NamedTuple):
    """How a rollout is played and valued (see :func:`rollouts`)."""

    policies: npt.NDArray[np.int64]  # the kernel bot of each seat
    margin_weight: float  # the weight of the final score margin
    cards: int  # the unit of the margin: the cards in the game
    horizon: int  # turns a rollout plays (kernel.ALL_TURNS: to the end)


class Tally(NamedTuple):
    """The actions under test and what their rollouts have added up (see :func:`rollouts`)."""

    codes: npt.NDArray[np.int64]  # action codes
    sums: npt.NDArray[np.float64]  # [a]: the values of a's rollouts, summed
    counts: npt.NDArray[np.int64]  # [a]: a's rollouts


def position_of(view: PlayerView, home_weight: float) -> Position:
    """``view``'s position (:func:`~ordonnance.shinobi._bridge.state_of_view`) with the clan
    prior of ``home_weight`` (:func:`clan_prior`)."""
    base, pool = state_of_view(view)
    clans, cumulative = clan_prior(view, home_weight)
    return Position(base, view.seat, pool, clans, cumulative)


@numba.njit(cache=True)
def determinize(pos: Position, out: npt.NDArray[np.int64], rng: np.uint64) -> np.uint64:
    """``out``: ``pos.base`` with the clans (a row of ``pos.clans`` drawn by its ``cumulative``
    weight), the other seats' hands and the deck dealt at random (``pos.pool`` shuffled:
    other hands in seat order, then the deck); returns the new rng."""
    base, me, pool, clans, cumulative = pos.base, pos.me, pos.pool, pos.clans, pos.cumulative
    n = base[kernel.N]
    out[:] = base
    rng, value = _splitmix64_jit(rng)
    target = (value >> np.uint64(11)) * (1.0 / 9007199254740992.0) * cumulative[-1]
    row = 0
    while row < cumulative.shape[0] - 1 and cumulative[row] <= target:
        row += 1
    for q in range(CLANS):
        out[kernel.CLAN + q] = clans[row, q]
    start = kernel.DECK
    for i in range(pool.shape[0]):
        out[start + i] = pool[i]
    rng = kernel._shuffle(out, start, pool.shape[0], rng)
    at = 0
    for q in range(n):
        if q != me:
            for _ in range(base[kernel.HAND_LEN + q]):
                out[kernel.HAND + kernel.CODES * q + out[start + at]] += 1
                at += 1
    # The deck is what is left: shift it to the front of the deck area.
    for i in range(pool.shape[0] - at):
        out[start + i] = out[start + at + i]
    out[kernel.DECK_POS] = 0
    out[kernel.DECK_END] = pool.shape[0] - at
    kernel.refresh(out)
    return rng


@numba.njit(cache=True)
def rollouts(
    pos: Position, knobs: Knobs, tally: Tally, active: npt.NDArray[np.int64], first: int, stop: int, share: int,
    seed: np.uint64,
) -> tuple[int, int]:
    """Rollouts ``j = first, first + 1, ...`` of each action ``tally.codes[a]`` for ``a`` in ``active``,
    adding their values to ``tally.sums[a]`` and their number to ``tally.counts[a]``, until ``j``
    reaches ``stop`` or the work (decisions played, and actions Greedy valued) reaches ``share``
    after some ``j``; returns the next ``j`` and the work. Rollout ``j`` deals (from the ``j + 1``-th
    output of SplitMix64 seeded ``seed``) and seeds the bots alike for every action, whichever
    call plays it; a rollout stops after ``knobs.horizon`` turns, and its margin counts in units
    of ``knobs.cards``."""
    base, me = pos.base, pos.me
    codes, sums, counts = tally.codes, tally.sums, tally.counts
    policies, margin_weight, cards, horizon = knobs.policies, knobs.margin_weight, knobs.cards, knobs.horizon
    n = base[kernel.N]
    dealt = np.empty_like(base)
    state = np.empty_like(base)
    work = np.zeros(kernel.WORK, np.int64)
    rng0 = np.zeros(n, np.uint64)
    rngs = np.zeros(n, np.uint64)
    record = np.zeros(0, np.int64)
    decisions = 0
    for j in range(first, stop):
        if j > first and decisions + work[kernel.VALUED] >= share:
            return j, int(decisions + work[kernel.VALUED])
        rng = determinize(pos, dealt, nth_output(seed, j + 1))
        for q in range(n):
            rng, rng0[q] = _splitmix64_jit(rng)
        for ai in range(active.shape[0]):
            a = active[ai]
            state[:] = dealt
            rngs[:] = rng0
            kernel.apply(state, codes[a])
            decisions += kernel.play_out(state, policies, rngs, work, record, base[kernel.TURNS] + horizon)
            mask = kernel.winners(state)
            value = 0.0
            if mask >> me & 1:
                shared = 0
                for q in range(n):
                    shared += mask >> q & 1
                value = 1.0 / shared
            mine, best = kernel.score(state, me), 0
            for q in range(n):
                if q != me:
                    best = max(best, kernel.score(state, q))
            sums[a] += value + margin_weight * (mine - best) / max(cards, 1)
            counts[a] += 1
    return stop, int(decisions + work[kernel.VALUED])


class MonteCarlo(RolloutBot):
    """Determinized Monte-Carlo search with Greedy rollouts (see the module docs).

    ``rollouts`` is the most rollouts of a decision in total (default
    :data:`DEFAULT_ROLLOUTS`) and ``work`` the most work its rollouts may do
    (default :data:`DEFAULT_WORK`; see the module docs), both reproducible;
    ``time_limit`` (seconds, optional) bounds the decision's time, setup
    included (:class:`~ordonnance.core.bots.SearchBot`); under a time limit a
    budget left out is unbounded (:data:`MAX_ROLLOUTS`, :data:`MAX_WORK`), so
    that the time decides. ``rollout_policy`` plays every seat in the rollouts
    (``"greedy"`` or ``"random"``); ``margin_weight`` adds the final score
    margin, scaled to the cards in the game, to each rollout's win value;
    ``horizon`` cuts rollouts after that many turns (None: whole games);
    ``home_weight`` is the clan prior (see the module docs).
    """

    prefix = "shinobi.bots."
    view_type = PlayerView
    ROLLOUT_LIMIT = MAX_ROLLOUTS
    WORK_LIMIT = MAX_WORK
    UNTIMED_ROLLOUTS = DEFAULT_ROLLOUTS
    UNTIMED_WORK = DEFAULT_WORK
    rollouts: int
    work: int
    DEFAULT_MARGIN_WEIGHT = 0.1
    SEARCH_OPTIONS = (("horizon", DEFAULT_HORIZON), ("home_weight", 0.0))

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int | None = None,
        work: int | None = None,
        time_limit: float | None = None,
        rollout_policy: Literal["greedy", "random"] = "greedy",
        margin_weight: float = 0.1,
        horizon: int | None = DEFAULT_HORIZON,
        home_weight: float = 0.0,
    ) -> None:
        policy = checks.choice(rollout_policy, "rollout_policy", ("greedy", "random"), error=InvalidRulesError)
        super().__init__(seed, rollouts=rollouts, work=work, time_limit=time_limit, rollout_policy=policy,
                         margin_weight=margin_weight)  # fmt: skip
        self.horizon = checks.optional_integer(horizon, "horizon", low=1, high=1 << 30, error=InvalidRulesError)
        """Turns a rollout plays before the table is scored as if the game ended (None: to the end)."""
        self.home_weight = checks.real(home_weight, "home_weight", low=0, high=5, error=InvalidRulesError)
        """How strongly a seat's armies at home hint at its clan (0: every consistent clan equally likely)."""

    def _halving(self, view: PlayerView, actions: tuple[Action, ...], seed: int, budget: int, work_left: int,
                 clock: HalvingClock) -> int:  # fmt: skip
        """The index of the action sequential halving keeps, with ``budget`` rollouts and
        ``work_left`` work in all, timed by ``clock``."""
        pos = position_of(view, self.home_weight)
        alive = list(range(len(actions)))
        policy = kernel.GREEDY if self.rollout_policy == "greedy" else kernel.RANDOM
        knobs = Knobs(np.full(view.players, policy, np.int64), self.margin_weight, len(view.rules.troop_deck),
                      kernel.ALL_TURNS if self.horizon is None else self.horizon)  # fmt: skip
        tally = Tally(np.array([action.code for action in actions], np.int64), np.zeros(len(actions)),
                      np.zeros(len(actions), np.int64))  # fmt: skip
        sums, played = tally.sums, tally.counts
        rounds = max(1, math.ceil(math.log2(len(alive))))
        stream = seed
        for r in range(rounds):
            per_action = max(1, budget // (rounds * len(alive)))
            stream, round_seed = splitmix64(stream)
            active = np.array(alive, np.int64)
            round_ = WorkShare(
                work_left // (rounds - r),
                lambda first, stop, most: rollouts(pos, knobs, tally, active, first, stop, most, np.uint64(round_seed)),
            )  # fmt: skip
            clock.run_round(round_.play, len(alive), per_action, rounds - r)
            work_left -= round_.used
            alive.sort(key=lambda a: (-sums[a] / played[a], a))
            alive = alive[: max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1 or clock.out():
                break
        return alive[0]

    def _warm_key(self, view: object) -> Rules:
        if not isinstance(view, PlayerView):  # before reading its rules: a warm-up of anything else is refused
            raise OrdonnanceTypeError(f"a warm-up searches a shinobi PlayerView (game.view(seat)), not {checks.shown(view)}")
        return view.rules

    def _example_view(self) -> PlayerView:
        game = Game.new(Rules(), seed=0)
        return game.view(game.current_player)
