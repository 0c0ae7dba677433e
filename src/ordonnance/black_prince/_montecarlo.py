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

The budget counts rollouts, so a seeded bot is reproducible on every machine.

>>> from ordonnance.black_prince import Game, Rules, MonteCarlo
>>> game = Game.new(Rules(), seed=3)
>>> MonteCarlo(seed=0, rollouts=64).choose(game.view(0)) in game.legal_actions()
True
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ordonnance._rng import splitmix64
from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.simulation import encode, tables
from ordonnance.black_prince.view import PlayerView
from ordonnance.bots import _SeededBot
from ordonnance.errors import IllegalActionError, InvalidRulesError, OrdonnanceTypeError

__all__ = ["MonteCarlo", "DEFAULT_ROLLOUTS", "ROLLOUT_HORIZON"]

#: Rollouts per decision by default (a median of about 11 ms of one core, see the docs).
DEFAULT_ROLLOUTS = 256
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

    ``rollouts`` is the budget per decision; ``rollout_policy`` plays both
    seats in the rollouts (``"greedy"`` or ``"random"``); ``margin_weight``
    adds a little for routing more than the enemy.
    """

    def __init__(self, seed: int | None = None, *, rollouts: int = DEFAULT_ROLLOUTS,
                 rollout_policy: str = "greedy", margin_weight: float = 0.05) -> None:  # fmt: skip
        super().__init__(seed)
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or not 1 <= rollouts <= 1_000_000:
            raise InvalidRulesError(f"rollouts must be an int in 1..1000000, got {rollouts!r}")
        if rollout_policy not in ("greedy", "random"):
            raise InvalidRulesError(f"rollout_policy must be 'greedy' or 'random', got {rollout_policy!r}")
        if isinstance(margin_weight, bool) or not isinstance(margin_weight, (int, float)) or not 0 <= margin_weight <= 1:
            raise OrdonnanceTypeError(f"margin_weight must be a number in 0..1, got {margin_weight!r}")
        self.rollouts = rollouts
        """Rollouts per decision."""
        self.rollout_policy = rollout_policy
        """The bot both seats play in the rollouts."""
        self.margin_weight = float(margin_weight)
        """Weight of the rout margin in a rollout's value."""

    def __repr__(self) -> str:
        return f"black_prince.MonteCarlo(seed={self.seed}, rollouts={self.rollouts}, rollout_policy={self.rollout_policy!r})"

    def choose(self, view: PlayerView) -> Action:
        """The action with the best mean rollout value (see the module)."""
        actions = view.legal_actions
        if not actions:
            raise IllegalActionError(None, f"seat {view.seat} has no legal action in this view")
        self._state, seed = splitmix64(self._state)
        if len(actions) == 1:
            return actions[0]
        kinds = tables(view.rules)
        codes = np.array([encode(a, kinds) for a in actions], np.int64)
        base, own, other = _base_state(view)
        policy = kernel.GREEDY if self.rollout_policy == "greedy" else kernel.RANDOM
        policies = np.array([policy, policy], np.int64)
        sums = np.zeros(len(actions))
        counts = np.zeros(len(actions), np.int64)
        active = np.arange(len(actions), dtype=np.int64)
        rounds = max(1, math.ceil(math.log2(len(actions))))
        for r in range(rounds):
            per_action = max(1, self.rollouts // rounds // len(active))
            round_seed, _ = splitmix64((seed + r * 0x9E3779B97F4A7C15) & ((1 << 64) - 1))
            with np.errstate(over="ignore"):
                kernel.rollouts(kinds.tables, base, view.seat, own, other, view.hand_sizes[1 - view.seat], codes, active,
                          per_action, np.uint64(round_seed), policies, self.margin_weight, sums, counts)  # fmt: skip
            means = sums[active] / counts[active]
            order = sorted(range(len(active)), key=lambda i: (-means[i], int(active[i])))
            active = np.array(sorted(int(active[i]) for i in order[: max(1, (len(active) + 1) // 2)]), np.int64)
            if len(active) == 1:
                break
        means_all = sums / np.maximum(counts, 1)
        return actions[max(active.tolist(), key=lambda a: (means_all[a], -a))]
