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
every machine. ``time_budget`` (seconds, None by default) also stops the
search when the clock runs out, looking at it every few rollouts: a bound
on the wall-clock time for a machine slower or busier than expected, at the
price of reproducibility once it is reached (a search that finishes within
it chooses exactly as without it).

>>> from ordonnance.black_prince import Game, Rules, MonteCarlo
>>> game = Game.new(Rules(), seed=3)
>>> MonteCarlo(seed=0, rollouts=64).choose(game.view(0)) in game.legal_actions()
True
"""

from __future__ import annotations

import math
import time

import numpy as np
import numpy.typing as npt

from ordonnance.core.rng import splitmix64
from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.simulation import encode, tables
from ordonnance.black_prince.view import PlayerView
from ordonnance.core.bots import SeededBot as _SeededBot
from ordonnance.errors import IllegalActionError, InvalidRulesError, OrdonnanceTypeError

__all__ = ["MonteCarlo", "DEFAULT_ROLLOUTS", "DEFAULT_WORK", "MAX_ROLLOUTS", "MAX_WORK", "ROLLOUT_HORIZON"]

#: Rollouts per decision by default (a median of about 11 ms of one core, see the docs).
DEFAULT_ROLLOUTS = 256
#: The most decisions played in the rollouts of one decision by default (see the module).
DEFAULT_WORK = 4_000
#: The most ``rollouts`` a decision may be given.
MAX_ROLLOUTS = 1_000_000
#: The most ``work`` a decision may be given.
MAX_WORK = 10**9
#: Rollouts per action between two looks at the clock when ``time_budget`` is set.
_CHUNK = 4
#: A rollout ends, scored as at the turn limit, this many turns after the decision: games
#: last about 12 turns, but a stalled one (a full front line of ties) would run to the limit.
ROLLOUT_HORIZON = 40
_PHASES = {"place": kernel.PLACE, "choose": kernel.CHOOSE, "battle": kernel.BATTLE, "over": kernel.OVER}


def _base_state(view: PlayerView) -> tuple[kernel.State, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The public state of ``view`` in the kernel's arrays, and the two pools of unseen kinds."""
    kinds = tables(view.rules)
    index = kinds.index
    st = kernel.new_state(kinds.canon.shape[1])
    for r in range(4):
        for c in range(6):
            card = view.battlefield.cells[r][c]
            st.cells[r, c] = -1 if card is None else index[card]
    me = view.seat
    st.hands[me, : len(view.hand)] = [index[c] for c in view.hand]
    st.hand_len[me] = len(view.hand)
    for seat in (0, 1):
        pile = view.discards[seat]
        st.discards[seat, : len(pile)] = [index[c] for c in pile]
        st.discard_len[seat] = len(pile)
    st.flags[0] = view.attacked
    st.flags[1] = view.moved
    st.flags[2] = view.contact
    st.ints[kernel.CURRENT] = view.current_player
    st.ints[kernel.PHASE] = _PHASES[view.phase]
    st.ints[kernel.TURN] = view.turn
    st.ints[kernel.FOUGHT] = view.fought
    st.ints[kernel.ROUTED] = view.routed[0]
    st.ints[kernel.ROUTED + 1] = view.routed[1]
    st.ints[kernel.MAX_TURNS] = min(view.rules.max_turns, view.turn + ROLLOUT_HORIZON)
    own = np.array([index[c] for c in view.unseen(me)], np.int64)
    other = np.array([index[c] for c in view.unseen(1 - me)], np.int64)
    return st, own, other


class MonteCarlo(_SeededBot):
    """Determinized Monte-Carlo search with sequential halving over the legal actions.

    ``rollouts`` is the budget per decision and ``work`` the most decisions
    its rollouts may play (both reproducible); ``time_budget`` (seconds,
    optional) stops a search early when the clock runs out, and makes the bot
    irreproducible when it does; ``rollout_policy`` plays both seats in the
    rollouts (``"greedy"`` or ``"random"``); ``margin_weight`` adds a little
    for routing more than the enemy.
    """

    def __init__(self, seed: int | None = None, *, rollouts: int = DEFAULT_ROLLOUTS, work: int = DEFAULT_WORK,
                 time_budget: float | None = None, rollout_policy: str = "greedy",
                 margin_weight: float = 0.05) -> None:  # fmt: skip
        super().__init__(seed)
        for name, value, limit in (("rollouts", rollouts, MAX_ROLLOUTS), ("work", work, MAX_WORK)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
                raise InvalidRulesError(f"{name} must be an int in 1..{limit}, got {value!r}")
        if time_budget is not None and (
            isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)) or not 0 < time_budget <= 3600
        ):
            raise InvalidRulesError(f"time_budget must be a number of seconds in (0, 3600] or None, got {time_budget!r}")
        if rollout_policy not in ("greedy", "random"):
            raise InvalidRulesError(f"rollout_policy must be 'greedy' or 'random', got {rollout_policy!r}")
        if isinstance(margin_weight, bool) or not isinstance(margin_weight, (int, float)) or not 0 <= margin_weight <= 1:
            raise OrdonnanceTypeError(f"margin_weight must be a number in 0..1, got {margin_weight!r}")
        self.rollouts = rollouts
        """Rollouts per decision."""
        self.work = work
        """The most decisions the rollouts of one decision may play (a bound on its time)."""
        self.time_budget = None if time_budget is None else float(time_budget)
        """Seconds after which a search stops early (None: no clock, reproducible)."""
        self.rollout_policy = rollout_policy
        """The bot both seats play in the rollouts."""
        self.margin_weight = float(margin_weight)
        """Weight of the rout margin in a rollout's value."""

    def __repr__(self) -> str:
        budget = "" if self.time_budget is None else f", time_budget={self.time_budget!r}"
        return (f"black_prince.MonteCarlo(seed={self.seed}, rollouts={self.rollouts}, work={self.work}{budget}, "
                f"rollout_policy={self.rollout_policy!r})")  # fmt: skip

    def choose(self, view: PlayerView) -> Action:
        """The action with the best mean rollout value (see the module)."""
        actions = view.legal_actions
        if not actions:
            raise IllegalActionError(None, f"seat {view.seat} has no legal action in this view")
        self._state, seed = splitmix64(self._state)
        if len(actions) == 1:
            return actions[0]
        start = time.perf_counter()
        kinds = tables(view.rules)
        codes = np.array([encode(a, kinds) for a in actions], np.int64)
        base, own, other = _base_state(view)
        policy = kernel.GREEDY if self.rollout_policy == "greedy" else kernel.RANDOM
        policies = np.array([policy, policy], np.int64)
        sums = np.zeros(len(actions))
        counts = np.zeros(len(actions), np.int64)
        active = np.arange(len(actions), dtype=np.int64)
        rounds = max(1, math.ceil(math.log2(len(actions))))
        work_left = self.work
        for r in range(rounds):
            per_action = max(1, self.rollouts // rounds // len(active))
            share = work_left // (rounds - r)
            round_seed, _ = splitmix64((seed + r * 0x9E3779B97F4A7C15) & ((1 << 64) - 1))
            j = used = 0
            while j < per_action and (j == 0 or used < share):
                stop = per_action if self.time_budget is None else min(per_action, j + _CHUNK)
                with np.errstate(over="ignore"):
                    j, steps = kernel.rollouts(kinds.tables, base, view.seat, own, other, view.hand_sizes[1 - view.seat],
                                               codes, active, j, stop, share - used, np.uint64(round_seed), policies,
                                               self.margin_weight, sums, counts)  # fmt: skip
                used += steps
                if self._out_of_time(start):
                    break
            work_left -= used
            means = sums[active] / counts[active]
            order = sorted(range(len(active)), key=lambda i: (-means[i], int(active[i])))
            active = np.array(sorted(int(active[i]) for i in order[: max(1, (len(active) + 1) // 2)]), np.int64)
            if len(active) == 1 or self._out_of_time(start):
                break
        means_all = sums / np.maximum(counts, 1)
        return actions[max(active.tolist(), key=lambda a: (means_all[a], -a))]

    def _out_of_time(self, start: float) -> bool:
        return self.time_budget is not None and time.perf_counter() - start > self.time_budget
