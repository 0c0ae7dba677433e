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
  routs - enemy routs) / 6.
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

import numba
import numpy as np
import numpy.typing as npt

from ordonnance._rng import splitmix64
from ordonnance._simulator_kernel import bounded as _bounded
from ordonnance._simulator_kernel import splitmix64 as _splitmix64_jit
from ordonnance.black_prince import _kernel as kernel
from ordonnance.black_prince.actions import Action
from ordonnance.black_prince.simulation import encode, tables
from ordonnance.black_prince.view import PlayerView
from ordonnance.bots import _SeededBot
from ordonnance.errors import IllegalActionError, InvalidRulesError, OrdonnanceTypeError

__all__ = ["MonteCarlo", "DEFAULT_ROLLOUTS"]

#: Rollouts per decision by default (about 10-50 ms on one core of the development machine).
DEFAULT_ROLLOUTS = 256
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_PHASES = {"place": kernel.PLACE, "choose": kernel.CHOOSE, "battle": kernel.BATTLE, "over": kernel.OVER}


@numba.njit(cache=True)
def _shuffled(pool: npt.NDArray[np.int64], state: np.uint64) -> tuple[npt.NDArray[np.int64], np.uint64]:
    out = pool.copy()
    for i in range(out.shape[0] - 1, 0, -1):
        state, value = _splitmix64_jit(state)
        j = _bounded(value, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state


@numba.njit(cache=True)
def _rollouts(tb: kernel.Tables, base: kernel.State, me: int, own_pool: npt.NDArray[np.int64],
              other_pool: npt.NDArray[np.int64], other_hand: int, actions: npt.NDArray[np.int64],
              active: npt.NDArray[np.int64], per_action: int, seed: np.uint64, policies: npt.NDArray[np.int64],
              margin_weight: float, sums: npt.NDArray[np.float64], counts: npt.NDArray[np.int64]) -> None:  # fmt: skip
    """``per_action`` rollouts of each action in ``active``; adds their values to ``sums``."""
    size = base.decks.shape[1]
    deal = kernel.new_state(size)
    st = kernel.new_state(size)
    scratch = np.empty(kernel.MAX_LEGAL, np.int64)
    work = np.empty((4, kernel.COLUMNS), np.int64)
    best = np.empty(kernel.MAX_LEGAL, np.int64)
    record = np.zeros(0, np.int64)
    bots = np.zeros(2, np.uint64)
    bots0 = np.zeros(2, np.uint64)
    other = 1 - me
    for j in range(per_action):
        state, _ = _splitmix64_jit(seed + np.uint64(j) * _GAMMA)
        kernel.copy_into(base, deal)
        mine, state = _shuffled(own_pool, state)
        deal.decks[me, : mine.shape[0]] = mine
        deal.deck_len[me] = mine.shape[0]
        theirs, state = _shuffled(other_pool, state)
        deal.hands[other, :] = kernel.EMPTY
        deal.hands[other, :other_hand] = theirs[:other_hand]
        deal.hand_len[other] = other_hand
        rest = theirs.shape[0] - other_hand
        deal.decks[other, :rest] = theirs[other_hand:]
        deal.deck_len[other] = rest
        state, value = _splitmix64_jit(state)
        deal.rng[0] = value
        for q in range(2):
            state, value = _splitmix64_jit(state)
            bots0[q] = value
        for i in range(active.shape[0]):
            a = active[i]
            kernel.copy_into(deal, st)
            bots[:] = bots0
            kernel.apply(tb, st, actions[a], scratch)
            kernel.play_out(tb, st, policies, bots, record, scratch, work, best)
            w = kernel.winner(st)
            value_ = 1.0 if w == me else (0.5 if w < 0 else 0.0)
            value_ += margin_weight * (st.ints[kernel.ROUTED + me] - st.ints[kernel.ROUTED + other]) / 6.0
            sums[a] += value_
            counts[a] += 1


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
    st.ints[kernel.MAX_TURNS] = view.rules.max_turns
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
                _rollouts(kinds.tables, base, view.seat, own, other, view.hand_sizes[1 - view.seat], codes, active,
                          per_action, np.uint64(round_seed), policies, self.margin_weight, sums, counts)  # fmt: skip
            means = sums[active] / counts[active]
            order = sorted(range(len(active)), key=lambda i: (-means[i], int(active[i])))
            active = np.array(sorted(int(active[i]) for i in order[: max(1, (len(active) + 1) // 2)]), np.int64)
            if len(active) == 1:
                break
        means_all = sums / np.maximum(counts, 1)
        return actions[max(active.tolist(), key=lambda a: (means_all[a], -a))]
