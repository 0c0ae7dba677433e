"""The Monte-Carlo bot for Black Prince: determinized rollouts on the rules kernel.

:class:`MonteCarlo` is re-exported as :class:`ordonnance.black_prince.bots.MonteCarlo`.
It sees only a :class:`~ordonnance.black_prince.PlayerView`. For each legal
action it plays the rest of the game out many times in the numba kernel
(the same rules the simulator uses), each time after dealing the cards it
cannot see at random, and takes the action that did best:

* **Determinization.** Its own deck (contents known, order hidden) is
  shuffled; the other seat's unseen cards (hand and deck together) are
  shuffled and dealt into a hand of the public size and a deck; the chance
  stream (breakthroughs) is drawn afresh. Everything else is public.
* **Rollouts.** The action under test is applied, then both seats are played
  by the kernel twin of :class:`~ordonnance.black_prince.Greedy` (or of
  :class:`~ordonnance.black_prince.Random`) to the end. A rollout is worth 1
  for a win, 1/2 for a draw, 0 for a loss, plus ``margin_weight`` x (own
  routs - enemy routs) / 6. A rollout stops :data:`ROLLOUT_HORIZON` turns
  after the decision (scored as at the turn limit), so that a stalled game
  cannot make one decision slow.
* **Common random numbers.** Within a round, rollout ``j`` uses the same deal
  and bot streams for every action, so actions are compared on the same
  hidden cards.
* **Sequential halving.** ``rollouts`` is shared over ``ceil(log2(k))``
  rounds for ``k`` actions; each round keeps the better half by mean (the
  earlier action on ties).
* **A bound on the work.** A rollout's length varies (a few decisions near
  the end, a hundred in an opening that stalls), so ``rollouts`` alone does
  not bound a decision's time. ``work`` (:data:`DEFAULT_WORK` = 4,000) bounds
  the decisions played in all the rollouts of one decision: each round may
  spend its share of what is left, and stops after the first rollout index
  ``j`` (played for every action in the race) that reaches it, so every
  action keeps the same deals and at least one rollout a round. A rollout
  decision costs 3-5 us of one core, so the defaults bound a decision at
  about 20 ms of CPU time on the development machine (a median of about
  10 ms, see the docs).

The budgets count rollouts and decisions, so a seeded bot is reproducible on
every machine. ``time_limit`` (seconds, None by default) bounds a decision's
time, setup included, as for every search bot of every game
(:class:`~ordonnance.core.bots.SearchBot`): the rounds share it out
(:class:`~ordonnance.core.clock.HalvingClock`), running their rollouts in
chunks, at the price of reproducibility once the clock ends a search (one
that finishes within it chooses exactly as without it). ``rollouts``,
``work`` and ``time_limit`` are limits: the search stops at the first one
reached, and a fixed budget left out does not apply under a time limit.

>>> from ordonnance.black_prince import Game, Rules, MonteCarlo
>>> game = Game.new(Rules(), seed=3)
>>> MonteCarlo(seed=0, rollouts=64).choose(game.view(0)) in game.legal_actions()
True
"""

from __future__ import annotations

import math

import numpy as np

from ordonnance.core.rng import splitmix64
from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince._bridge import encode, state_of_view, tables
from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.rules import Rules
from ordonnance.black_prince.view import PlayerView
from ordonnance.core.bots import legal
from ordonnance.core.rollouts import RolloutBot, WorkShare
from ordonnance.core.clock import HalvingClock, time_limit_argument
from ordonnance.errors import OrdonnanceTypeError

__all__ = ["MonteCarlo", "DEFAULT_ROLLOUTS", "DEFAULT_WORK", "MAX_ROLLOUTS", "MAX_WORK", "ROLLOUT_HORIZON"]

#: Rollouts per decision by default (a median of about 11 ms of one core, see the docs).
DEFAULT_ROLLOUTS = 256
#: The most decisions played in the rollouts of one decision by default (see the module).
DEFAULT_WORK = 4_000
#: The most ``rollouts`` a decision may be given.
MAX_ROLLOUTS = 1_000_000
#: The most ``work`` a decision may be given.
MAX_WORK = 10**9
#: A rollout ends, scored as at the turn limit, this many turns after the decision: games
#: last about 12 turns, but a stalled one (a full front line of ties) would run to the limit.
ROLLOUT_HORIZON = 40


class MonteCarlo(RolloutBot):
    """Determinized Monte-Carlo search with sequential halving over the legal actions.

    ``rollouts`` is the most rollouts of a decision in total and ``work`` the
    most decisions its rollouts may play (both reproducible); ``time_limit``
    (seconds, optional) bounds the decision's time, setup included
    (:class:`~ordonnance.core.bots.SearchBot`), and makes the bot irreproducible
    when it ends a search; under a time limit a budget left out is unbounded
    (:data:`MAX_ROLLOUTS`, :data:`MAX_WORK`), so that the time decides.
    ``rollout_policy`` plays both seats in the rollouts (``"greedy"`` or
    ``"random"``); ``margin_weight`` adds a little for routing more than the
    enemy. ``time_budget`` is the deprecated old name of ``time_limit``.
    """

    prefix = "black_prince."
    view_type = PlayerView
    ROLLOUT_LIMIT = MAX_ROLLOUTS
    WORK_LIMIT = MAX_WORK
    UNTIMED_ROLLOUTS = DEFAULT_ROLLOUTS
    UNTIMED_WORK = DEFAULT_WORK
    rollouts: int
    work: int
    DEFAULT_MARGIN_WEIGHT = 0.05
    BUDGET_ERROR = "{name} must be an int in 1..{limit}, got {value}"
    MARGIN_ERROR = OrdonnanceTypeError

    def __init__(self, seed: int | None = None, *, rollouts: int | None = None, work: int | None = None,
                 time_limit: float | None = None, rollout_policy: str = "greedy", margin_weight: float = 0.05,
                 time_budget: float | None = None) -> None:  # fmt: skip
        seconds = time_limit_argument(time_limit, time_budget, "MonteCarlo")
        super().__init__(seed, rollouts=rollouts, work=work, time_limit=seconds, rollout_policy=rollout_policy,
                         margin_weight=margin_weight)  # fmt: skip

    def _halving(self, view: PlayerView, actions: tuple[Action, ...], seed: int, budget: int, work_left: int,
                 clock: HalvingClock) -> int:  # fmt: skip
        """The index of the action sequential halving keeps, with ``budget`` rollouts and
        ``work_left`` decisions in all, timed by ``clock``."""
        kinds = tables(view.rules)
        codes = np.array([encode(a, kinds) for a in actions], np.int64)
        base, own, other = state_of_view(view, min(view.rules.max_turns, view.turn + ROLLOUT_HORIZON))
        policy = kernel.GREEDY if self.rollout_policy == "greedy" else kernel.RANDOM
        policies = np.array([policy, policy], np.int64)
        other_hand = view.hand_sizes[1 - view.seat]
        sums = np.zeros(len(actions))
        counts = np.zeros(len(actions), np.int64)
        active = np.arange(len(actions), dtype=np.int64)
        deal = kernel.Deal(base, view.seat, own, other, other_hand)
        knobs = kernel.Knobs(policies, self.margin_weight)
        tally = kernel.Tally(codes, sums, counts)
        rounds = max(1, math.ceil(math.log2(len(actions))))
        for r in range(rounds):
            per_action = max(1, budget // rounds // len(active))
            round_seed, _ = splitmix64((seed + r * 0x9E3779B97F4A7C15) & ((1 << 64) - 1))
            round_ = WorkShare(
                work_left // (rounds - r),
                lambda first, stop, most: kernel.rollouts(kinds.tables, deal, knobs, tally, active, first, stop, most,
                                                          np.uint64(round_seed)),
            )  # fmt: skip
            clock.run_round(round_.play, len(active), per_action, rounds - r)
            work_left -= round_.used
            means = sums[active] / counts[active]
            order = sorted(range(len(active)), key=lambda i: (-means[i], int(active[i])))
            active = np.array(sorted(int(active[i]) for i in order[: max(1, (len(active) + 1) // 2)]), np.int64)
            if len(active) == 1 or clock.out():
                break
        means_all = sums / np.maximum(counts, 1)
        return int(max(active.tolist(), key=lambda a: (means_all[a], -a)))

    def _warm_key(self, view: PlayerView) -> Rules:
        """The rules of ``view``, a Black Prince view (else the library's error, before any search)."""
        legal(view, PlayerView)
        return view.rules

    def _example_view(self) -> PlayerView:
        game = Game.new(Rules(), seed=0)
        return game.view(game.current_player)
