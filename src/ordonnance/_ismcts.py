"""The information-set MCTS bot: a search tree over what a seat can see, on the simulator kernel.

:class:`ISMCTS` is re-exported as :class:`ordonnance.bots.ISMCTS`. It is
single-observer information-set Monte-Carlo tree search (SO-ISMCTS, Cowling,
Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 4(2)). Like every bot it sees only a :class:`~ordonnance.PlayerView`.

>>> import ordonnance as od
>>> game = od.Game.new(od.Rules(), seed=3)
>>> bot = od.bots.ISMCTS(seed=0, iterations=300)
>>> bot.choose(game.view(0)) in game.legal_actions()
True

One iteration, step by step:

* **Determinization.** The cards the seat cannot see are dealt at random
  into the other hands and the draw pile, exactly as :class:`MonteCarlo`
  deals them (the shared kernel :func:`ordonnance._montecarlo.determinize`).
* **Selection.** From the root (the seat's information set) the iteration
  walks down the tree. A node is a sequence of actions from the root; every
  action of the game is public (a card played into a territory, a claim, a
  pass), so that sequence is what every seat knows of the play since the
  root, and the cards drawn are left to the determinization. At each node the
  actions legal in this deal are listed; when all of them have children, the
  child maximizing UCB1 with availability counts is taken,
  ``mean + exploration * sqrt(ln(available) / visits)``, where ``available``
  counts the iterations in which that child's action was legal at its parent
  (the paper's fix for actions that exist in some deals only) and ``mean`` is
  the reward of the seat that made the move.
* **Expansion.** Otherwise (or while progressive widening allows another
  child) the untried legal action that Greedy ranks first gets a child (ties
  at random), and the descent ends there.
* **Rollout.** From there the game is played to its end, by default
  (``rollout_policy="planner"``, ``planner="odds"``) with the odds policy
  (:func:`ordonnance._ismcts_model.odds_action`) in every seat, which plays
  the move that raises the seat's estimated chance of winning the game most,
  each territory's chance read from tables of where an army's completion
  ends up. With ``planner="potential"`` the planner's seats play
  :func:`planner_action` instead, which keeps the most of each army's
  potential and discards its weakest card where another seat's complete
  army already wins; ``rollout_policy="mixed"`` gives the planner this
  seat's place only and the kernel twin of :class:`~ordonnance.bots.Greedy`
  the others'; with ``"greedy"`` (or ``"random"``) the kernel twin of Greedy
  (or :class:`~ordonnance.bots.Random`) plays every seat
  (:func:`ordonnance._simulator_kernel.play_out`; see the bots page for how
  they compare).
* **Backup.** Every node on the path counts one more visit and adds the reward
  of the seat that moved into it: 1 for a win, 0 otherwise, plus
  ``margin_weight`` times the score margin over the best other seat, divided
  by the highest score possible, so that games are also told apart by how
  they are won or lost.

At the root the budget is shared out by sequential halving (``root="halving"``,
the default, as :class:`MonteCarlo` does): ``ceil(log2(k))`` rounds for ``k``
legal actions, each sending the same deals (common random numbers) through
every action still in the race, below which the tree grows as above, and
keeping the better half by mean reward; the last one left is played. With
``root="ucb"`` the root is searched by UCB1 like any node and its most visited
child is played (ties: the higher mean, then the earlier legal action).
Expansion takes the untried action that Greedy ranks first (a claim, then the
play that makes the strongest army), and progressive widening lets a node of
N visits have at most ``1 + widening * sqrt(N)`` children. The tree lives in
preallocated NumPy arrays (one row of int64 fields per node, :class:`Tree`)
and every iteration runs in one numba kernel: about a thousand iterations
take 50 ms early in a two-player game (see the bots page for the measured
figures).

The budget counts iterations, so a seeded bot given ``iterations`` is
reproducible: the same seed and the same sequence of views give the same
actions on every machine. ``time_limit`` (seconds) bounds a decision's time,
setup included, as for every search bot of every game
(:class:`~ordonnance.core.bots.SearchBot`): sequential halving shares 97% of it
out between its rounds as :class:`MonteCarlo` does, in chunks sized by each
round's own speed (:class:`~ordonnance.core.clock.HalvingClock`); the UCB root
looks at the clock every :data:`BATCH` iterations. The search stops at the
first of ``iterations`` and ``time_limit`` reached (without ``iterations``,
under a time limit, the time alone decides), and a time limit makes the
choices depend on the machine's speed and load: not reproducible.

The kernel (``cache=True``) compiles on first use together with the
simulator it calls (tens of seconds the very first time after installing),
then loads from the disk cache in each new process.
"""

from __future__ import annotations

import math
import sys
from typing import Literal, NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance._bridge import Position, Setup, action_code, setup_of
from ordonnance._montecarlo import Search, determinize, reward
from ordonnance.core.rollouts import check_rollout_options
from ordonnance._ismcts_model import Odds, forced, in_hand, no_tables, odds_action, odds_into, odds_work, tables
from ordonnance.core.rng import splitmix64
from ordonnance.core.jit import splitmix64 as _splitmix64_jit
from ordonnance.actions import Action, Claim
from ordonnance.core.bots import legal
from ordonnance.core.bots import SearchBot
from ordonnance.core.clock import HalvingClock
from ordonnance.errors import InvalidRulesError
from ordonnance.game import Game
from ordonnance.rules import Rules
from ordonnance.view import PlayerView
from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = ["ISMCTS", "DEFAULT_ITERATIONS", "MAX_ITERATIONS", "BATCH"]

#: Iterations per decision when neither ``iterations`` nor ``time_limit`` is given.
DEFAULT_ITERATIONS = 2_000
#: The most iterations a decision may be given (also the cap under a ``time_limit``).
MAX_ITERATIONS = 10_000_000
#: Iterations between two looks at the clock under a ``time_limit`` with ``root="ucb"``.
BATCH = 32
#: Iterations of one step of an untimed UCB search (about 0.1 s).
UNTIMED_BATCH = 4096
#: The default exploration constant of UCB1 (rewards lie in about 0..1).
DEFAULT_EXPLORATION = 0.7
#: The default progressive widening (see ISMCTS).
DEFAULT_WIDENING = 1.0
#: The longest path through the tree (a game has fewer decisions: see kernel.MAX_ACTIONS).
MAX_DEPTH = 256

# Fields of a node row (Tree.nodes).
PARENT = 0
FIRST_CHILD = 1
NEXT_SIBLING = 2
ACTION = 3  # the action index (ordonnance.rl's numbering) that leads from the parent here
PLAYER = 4  # the seat that took it, whose reward the node keeps
VISITS = 5
AVAILABLE = 6  # iterations in which the action was legal at the parent
FIELDS = 7
NONE = -1

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_ROOT_GAMMA = np.uint64(0xD1B54A32D192ED03)
_INITIAL_NODES = 4_096


class Tree(NamedTuple):
    """A search tree in preallocated arrays; node 0 is the root.

    ``nodes[i]`` holds node i's fields (PARENT, FIRST_CHILD, NEXT_SIBLING,
    ACTION, PLAYER, VISITS, AVAILABLE); ``reward[i]`` the summed reward of
    node i's PLAYER over its visits; ``size[0]`` how many rows are in use.
    Children are a linked list, newest first.
    """

    nodes: npt.NDArray[np.int64]
    reward: npt.NDArray[np.float64]
    size: npt.NDArray[np.int64]


def new_tree(capacity: int) -> Tree:
    """An empty tree (the root alone) with room for ``capacity`` nodes."""
    tree = Tree(np.empty((capacity, FIELDS), np.int64), np.empty(capacity, np.float64), np.ones(1, np.int64))
    tree.nodes[0] = (NONE, NONE, NONE, NONE, NONE, 0, 0)
    tree.reward[0] = 0.0
    return tree


def grown(tree: Tree, capacity: int) -> Tree:
    """``tree`` copied into arrays with room for ``capacity`` nodes."""
    used = int(tree.size[0])
    bigger = Tree(np.empty((capacity, FIELDS), np.int64), np.empty(capacity, np.float64), tree.size.copy())
    bigger.nodes[:used] = tree.nodes[:used]
    bigger.reward[:used] = tree.reward[:used]
    return bigger


# --------------------------------------------------------------------- kernels


@numba.njit(cache=True)
def select(tree: Tree, node: int, legal: npt.NDArray[np.bool_], exploration: float) -> int:
    """The child of ``node`` to descend into when every legal action has one (UCB1 with availability).

    Every child whose action is ``legal`` gains one availability first; the
    child with the highest ``reward / visits + exploration * sqrt(ln(available)
    / visits)`` is returned (the first in the children's list on ties), or
    NONE when no child is legal.
    """
    nodes = tree.nodes
    best = NONE
    best_score = -np.inf
    c = nodes[node, FIRST_CHILD]
    while c != NONE:
        if legal[nodes[c, ACTION]]:
            nodes[c, AVAILABLE] += 1
            visits = nodes[c, VISITS]
            score = tree.reward[c] / visits + exploration * math.sqrt(math.log(nodes[c, AVAILABLE]) / visits)
            if score > best_score:
                best_score = score
                best = c
        c = nodes[c, NEXT_SIBLING]
    return best


@numba.njit(cache=True)
def untried(tree: Tree, node: int, legal: npt.NDArray[np.bool_], out: npt.NDArray[np.int64]) -> int:
    """The legal actions of ``node`` without a child, in action order, into ``out``; returns how many."""
    nodes = tree.nodes
    k = 0
    for a in range(kernel.NUM_ACTIONS):
        if legal[a]:
            out[k] = a
            k += 1
    c = nodes[node, FIRST_CHILD]
    while c != NONE:
        a = nodes[c, ACTION]
        if legal[a]:
            for i in range(k):
                if out[i] == a:
                    out[i] = out[k - 1]
                    k -= 1
                    break
        c = nodes[c, NEXT_SIBLING]
    # back into action order (the swaps above moved a few)
    for i in range(1, k):
        x = out[i]
        j = i - 1
        while j >= 0 and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return k


@numba.njit(cache=True)
def priority(s: kernel.State, a: int) -> int:
    """How promising action ``a`` of the seat to act in game 0 looks before any search (higher first).

    Greedy's order: a claim first, then a play by the key of the army it makes
    (an army it completes first on equal keys), a pass last.
    """
    if a >= kernel.PASS_ACTION:
        return -1
    if a >= kernel.CLAIM_ACTIONS:
        return 1 << 62
    p = s.board[0, kernel.CURRENT]
    t = a % kernel.TERRITORIES
    at = t * kernel.SEATS + p
    length = s.board[0, kernel.ARMY_LEN + at]
    key = kernel._word_key(s.board[0, kernel.ARMY_AT + at] | ((a // kernel.TERRITORIES + 1) << (8 * length)))
    return 2 * key + (1 if length == kernel.ARMY - 1 else 0)


@numba.njit(cache=True)
def add_child(tree: Tree, node: int, action: int, player: int) -> int:
    """A new child of ``node`` reached by ``action`` of ``player`` (available once, not yet visited)."""
    nodes = tree.nodes
    i = tree.size[0]
    tree.size[0] = i + 1
    nodes[i, PARENT] = node
    nodes[i, FIRST_CHILD] = NONE
    nodes[i, NEXT_SIBLING] = nodes[node, FIRST_CHILD]
    nodes[i, ACTION] = action
    nodes[i, PLAYER] = player
    nodes[i, VISITS] = 0
    nodes[i, AVAILABLE] = 1
    tree.reward[i] = 0.0
    nodes[node, FIRST_CHILD] = i
    return int(i)


@numba.njit(cache=True)
def workspace(n: int, pool: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.int64],
                                          npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64],
                                          npt.NDArray[np.int64]]:  # fmt: skip
    """Working space of an iteration: the deal, the legal mask, the choices, the path, the rewards,
    the scores and play_out's (unused) record."""
    return (np.empty(pool, np.int64), np.zeros(kernel.NUM_ACTIONS, np.bool_), np.empty(kernel.NUM_ACTIONS, np.int64),
            np.empty(MAX_DEPTH, np.int64), np.zeros(n, np.float64), np.zeros(n, np.int64),
            np.zeros((1, 3), np.int64))  # fmt: skip


class Knobs(NamedTuple):
    """The search's constants, as the kernels read them (see :class:`ISMCTS`)."""

    exploration: float
    widening: float  # finite: math.inf is passed as a large number
    margin_weight: float
    max_score: int
    me: int  # -1: every seat's moves are searched; else only this seat's, the others play the rollout policy
    planner: int  # the seats (a bit each) whose rollout policy is planner_action; the others play the Config's kernel bots
    claim_first: bool  # a seat that can claim does, outside the tree (see ISMCTS's ``claims``)
    planner_kind: int = 0  # 0: planner_action, 1: odds_action
    odds: Odds = no_tables()  # odds_action's tables (empty unless planner_kind is 1)


@numba.njit(cache=True)
def descend(
    cfg: kernel.Config,
    s: kernel.State,
    tree: Tree,
    node: int,
    path: npt.NDArray[np.int64],
    depth: int,
    state: np.uint64,
    knobs: Knobs,
    legal: npt.NDArray[np.bool_],
    choices: npt.NDArray[np.int64],
    scratch: npt.NDArray[np.int64],
) -> int:
    """Selection and expansion from ``node`` in game 0 of ``s``, the nodes passed appended to ``path``
    from ``depth`` on; returns the new depth. ``state`` draws the ties; ``legal`` and
    ``choices`` are working space.

    While the game goes on: a node of N visits whose legal actions have fewer
    than ``1 + widening * sqrt(N)`` children gains one, for its most promising
    untried legal action (:func:`priority`; ties at random), and the descent
    ends there; otherwise the descent goes on into the child :func:`select` picks.
    """
    nodes = tree.nodes
    while s.board[0, kernel.OVER] == 0 and depth < MAX_DEPTH:
        p = s.board[0, kernel.CURRENT]
        if knobs.claim_first and cfg.explicit_claims:
            t = kernel.first_claim(cfg, s.board, kernel.ONLY_GAME, p, scratch)
            if t >= 0:
                kernel.step(cfg, s, kernel.ONLY_GAME, kernel.CLAIM_ACTIONS + t, scratch)  # claimed, not searched
                continue
        if knobs.me >= 0 and p != knobs.me:
            a = planned(cfg, s, knobs.planner_kind, knobs.odds, scratch) if (knobs.planner >> p) & 1 else kernel.chosen(cfg, s, kernel.ONLY_GAME, scratch)
            kernel.step(cfg, s, kernel.ONLY_GAME, a, scratch)  # modelled, not searched
            continue
        kernel.fill_legal_mask(cfg, s, kernel.ONLY_GAME, legal, scratch)
        k = untried(tree, node, legal, choices)
        total = 0
        for a in range(kernel.NUM_ACTIONS):
            total += legal[a]
        if k > 0 and total - k < 1 + knobs.widening * math.sqrt(nodes[node, VISITS]):
            best = priority(s, choices[0])
            for i in range(1, k):
                best = max(best, priority(s, choices[i]))
            a = kernel.NO_ACTION  # not the literal NONE, for which numba would compile kernel.step again
            ties = 0
            for i in range(k):
                if priority(s, choices[i]) == best:  # the best at random: keep the t-th with chance 1/t
                    ties += 1
                    if ties == 1:
                        a = choices[i]
                    else:
                        state, r = _splitmix64_jit(state)
                        if kernel.bounded(r, ties) == 0:
                            a = choices[i]
            select(tree, node, legal, knobs.exploration)  # the legal siblings were available too
            node = add_child(tree, node, a, s.board[0, kernel.CURRENT])
            kernel.step(cfg, s, kernel.ONLY_GAME, a, scratch)
            path[depth] = node
            return depth + 1
        child = select(tree, node, legal, knobs.exploration)
        if child == NONE:
            break  # no legal action (only where the engine would not ask): defensive
        node = child
        kernel.step(cfg, s, kernel.ONLY_GAME, nodes[node, ACTION], scratch)
        path[depth] = node
        depth += 1
    return depth


@numba.njit(cache=True, inline="always")
def potential(word: int, length: int) -> int:
    """The key of an army of ``length`` cards (``word``) if every missing card carried all five
    symbols: the most it can still become."""
    for i in range(length, kernel.ARMY):
        word |= 31 << (8 * i)
    return kernel._word_key(word)


@numba.njit(cache=True)
def planner_action(cfg: kernel.Config, s: kernel.State, scratch: npt.NDArray[np.int64]) -> int:
    """The action of the "planner" rollout policy for the seat to act in game 0 of ``s``.

    Claims first, as Greedy. A play into a territory where another seat's
    complete army is already at least as strong as the most this seat's army
    there can become (:func:`potential`) loses nothing, and there the card with
    the fewest symbols goes. Elsewhere a play is ranked by how little it lowers
    its army's potential, then by the army's key after it, then by whether it
    completes the army. Ties at random from the seat's generator (the t-th
    best kept with chance 1/t, over territories, then hand lanes, in order).
    """
    b = s.board
    p = b[0, kernel.CURRENT]
    first = forced(cfg, b, p, scratch)
    if first >= 0:
        return first
    hand, size, open_here = in_hand(b, p)
    best = kernel.PASS_ACTION
    b1 = b2 = b3 = -(1 << 62)
    ties = 0
    state = s.rng[0, p]
    for t in range(kernel.TERRITORIES):
        if not (open_here >> t) & 1:
            continue
        at = t * kernel.SEATS + p
        length = b[0, kernel.ARMY_LEN + at]
        word = b[0, kernel.ARMY_AT + at]
        before = potential(word, length)
        lost = False
        for q in range(cfg.n):
            aq = t * kernel.SEATS + q
            if q != p and b[0, kernel.COMPLETED + aq] != kernel.NOT_COMPLETE and kernel._word_key(b[0, kernel.ARMY_AT + aq]) >= before:
                lost = True
        for i in range(size):
            m = (hand >> (8 * i)) & 255
            after = word | (m << (8 * length))
            if lost:
                s1, s2, s3 = 0, -kernel.bit_count(m), 0
            else:
                s1 = potential(after, length + 1) - before
                s2 = kernel._word_key(after)
                s3 = 1 if length == kernel.ARMY - 1 else 0
            if s1 > b1 or (s1 == b1 and (s2 > b2 or (s2 == b2 and s3 > b3))):
                b1, b2, b3 = s1, s2, s3
                ties = 1
                best = (m - 1) * kernel.TERRITORIES + t
            elif s1 == b1 and s2 == b2 and s3 == b3:
                ties += 1
                state, value = _splitmix64_jit(state)
                if kernel.bounded(value, ties) == 0:
                    best = (m - 1) * kernel.TERRITORIES + t
    s.rng[0, p] = state
    return best


@numba.njit(cache=True, inline="always")
def planned(cfg: kernel.Config, s: kernel.State, kind: int, odds: Odds, scratch: npt.NDArray[np.int64]) -> int:
    """The planner's action of ``kind`` (0: :func:`planner_action`, 1:
    :func:`ordonnance._ismcts_model.odds_action` with the tables ``odds``)."""
    if kind == 1:
        return odds_action(cfg, s, odds, scratch)
    return planner_action(cfg, s, scratch)


@numba.njit(cache=True)
def roll_out(cfg: kernel.Config, s: kernel.State, planner: int, kind: int, odds: Odds, scratch: npt.NDArray[np.int64]) -> None:
    """Play game 0 of ``s`` to its end with :func:`planner_action` in the seats of the bit mask
    ``planner``, the Config's kernel bots in the others."""
    work = odds_work()  # odds_into's, once for the whole rollout
    while not s.board[0, kernel.OVER]:
        if (planner >> s.board[0, kernel.CURRENT]) & 1:
            a = odds_into(cfg, s, odds, scratch, work) if kind == 1 else planner_action(cfg, s, scratch)
        else:
            a = kernel.chosen(cfg, s, kernel.ONLY_GAME, scratch)
        kernel.step(cfg, s, kernel.ONLY_GAME, a, scratch)


@numba.njit(cache=True)
def finish(
    cfg: kernel.Config,
    s: kernel.State,
    tree: Tree,
    path: npt.NDArray[np.int64],
    depth: int,
    knobs: Knobs,
    value: npt.NDArray[np.float64],
    scores: npt.NDArray[np.int64],
    out_actions: npt.NDArray[np.int64],
    scratch: npt.NDArray[np.int64],
) -> None:
    """Roll game 0 of ``s`` out with the kernel bots and back the rewards up the root and ``path[:depth]``."""
    n = cfg.n
    if knobs.planner:
        roll_out(cfg, s, knobs.planner, knobs.planner_kind, knobs.odds, scratch)
    else:
        kernel.play_out(cfg, s, kernel.ONLY_GAME, kernel.NO_ACTION, out_actions, kernel.NO_RECORD, scratch)
    winner = kernel.outcome(cfg, s, kernel.ONLY_GAME, scores, scratch)
    for p in range(n):
        value[p] = reward(winner, scores, p, n, knobs.margin_weight, knobs.max_score)
    nodes = tree.nodes
    nodes[0, VISITS] += 1
    for i in range(depth):
        v = path[i]
        nodes[v, VISITS] += 1
        tree.reward[v] += value[nodes[v, PLAYER]]


@numba.njit(cache=True)
def iterate(
    cfg: kernel.Config, pos: Position, tree: Tree, first: int, count: int, seed: np.uint64, knobs: Knobs
) -> int:
    """Iterations ``first .. first + count - 1`` of plain SO-ISMCTS from ``pos.start``; returns how many ran.

    Iteration ``j`` draws its deal and its choices from SplitMix64 seeded
    with ``seed ^ j * gamma``, so a search split into several calls gives
    the same tree as one call. It stops early (before an iteration) when the
    tree may not have room for the node an iteration adds.
    """
    n, dealt, scratch = cfg.n, pos.dealt, pos.scratch
    deal, legal, choices, path, value, scores, out_actions = workspace(n, pos.pool.shape[0])
    for j in range(first, first + count):
        if tree.size[0] >= tree.nodes.shape[0]:
            return j - first
        state = seed ^ (np.uint64(j) * _GAMMA)
        state, _ = _splitmix64_jit(state)
        state = determinize(n, pos, state, deal)
        depth = descend(cfg, dealt, tree, 0, path, 0, state, knobs, legal, choices, scratch)
        finish(cfg, dealt, tree, path, depth, knobs, value, scores, out_actions, scratch)
    return count


@numba.njit(cache=True)
def iterate_halving(
    cfg: kernel.Config,
    pos: Position,
    tree: Tree,
    roots: npt.NDArray[np.int64],
    first: int,
    count: int,
    seed: np.uint64,
    knobs: Knobs,
) -> int:
    """Deals ``first .. first + count - 1`` of a round of sequential halving; returns how many ran.

    ``roots`` holds the root's children still in the race. Deal ``j`` (drawn as
    in :func:`iterate`) is played once through each of them (common random
    numbers: every root action meets the same hidden cards and the same
    rollout seeds), descending below it as plain SO-ISMCTS does with the ties
    drawn from ``seed ^ j * gamma`` mixed with the child's place in ``roots``.
    Stops early (before a deal) when the tree may not have room for the nodes a
    deal adds (one per root child).
    """
    n, dealt, work, scratch = cfg.n, pos.dealt, pos.work, pos.scratch
    deal, legal, choices, path, value, scores, out_actions = workspace(n, pos.pool.shape[0])
    nodes = tree.nodes
    for j in range(first, first + count):
        if tree.size[0] + roots.shape[0] > nodes.shape[0]:
            return j - first
        state = seed ^ (np.uint64(j) * _GAMMA)
        state, _ = _splitmix64_jit(state)
        state = determinize(n, pos, state, deal)
        for i in range(roots.shape[0]):
            child = roots[i]
            kernel.copy_game(dealt, kernel.ONLY_GAME, work, kernel.ONLY_GAME)
            kernel.step(cfg, work, kernel.ONLY_GAME, nodes[child, ACTION], scratch)
            nodes[child, AVAILABLE] += 1
            path[0] = child
            ties, _ = _splitmix64_jit(state ^ (np.uint64(i + 1) * _ROOT_GAMMA))
            depth = descend(cfg, work, tree, child, path, 1, ties, knobs, legal, choices, scratch)
            finish(cfg, work, tree, path, depth, knobs, value, scores, out_actions, scratch)
    return count


# --------------------------------------------------------------------- the bot


class ISMCTS(SearchBot):
    """Information-set Monte-Carlo tree search (SO-ISMCTS) over the simulator kernel.

    ``seed`` makes the bot reproducible (an int in 0..2**64-1; drawn at
    random when None). Each decision runs ``iterations`` iterations
    (:data:`DEFAULT_ITERATIONS` when neither budget is given); with
    ``time_limit`` (seconds for the whole decision, setup included:
    :class:`~ordonnance.core.bots.SearchBot`) it plans to spend 97% of it (each
    round of sequential halving an equal share of what is left, in chunks sized
    by the round's own speed as measured so far; the UCB root looks at the
    clock every :data:`BATCH` iterations), at most ``iterations`` (or
    :data:`MAX_ITERATIONS`) in any case.
    Only an iteration budget is reproducible: under a time limit the choices
    depend on the machine's speed.

    ``exploration`` is UCB1's constant; ``widening`` the progressive widening
    (a node of N visits has at most ``1 + widening * sqrt(N)`` children;
    ``math.inf``: none); ``rollout_policy`` the kernel bot that plays every
    seat after the tree (``"planner"``, the default: the planner for every
    seat; ``"mixed"``: the planner for this seat, Greedy for the others;
    ``"greedy"``; ``"random"``; the bots page measures them);
    ``margin_weight`` the weight of the score margin in a
    reward. ``root="halving"`` (the default) shares the budget among the root's
    actions by sequential halving over common deals, ``root="ucb"`` descends
    from the root by UCB1 as everywhere else. ``opponents="searched"`` (the
    default) searches every seat's moves in the tree; ``"modelled"`` lets the
    rollout policy play the other seats inside the tree too, so that the tree
    holds this seat's moves only. ``claims="first"`` (the default; it acts with
    two players only: with more, when a territory is taken decides the markers
    and so the tie-breaks) takes a provable territory as soon as it may,
    without search, at the root and for every seat in the tree; with two
    players that gives nothing away (a claim can only take options from the
    other seat) and saves the search; ``claims="searched"`` searches claims
    like any action. ``planner`` chooses the policy of the planner's seats
    of the rollouts: ``"odds"`` (the default)
    :func:`ordonnance._ismcts_model.odds_action`, which plays the
    move that raises the seat's estimated chance of winning the game most
    (each territory's chance from tables of how strong an army's completion
    ends up; built once a process, about half a second, when such a bot is
    made), ``"potential"`` :func:`planner_action`. See the module docs.

    It uses only the :class:`~ordonnance.PlayerView` it is given, never the
    game, so it cannot peek at hidden cards.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        widening: float = DEFAULT_WIDENING,
        rollout_policy: Literal["greedy", "random", "planner", "mixed"] = "planner",
        margin_weight: float = 0.1,
        root: Literal["halving", "ucb"] = "halving",
        opponents: Literal["searched", "modelled"] = "searched",
        claims: Literal["searched", "first"] = "first",
        planner: Literal["potential", "odds"] = "odds",
    ) -> None:
        if iterations is not None and (
            not checks.is_integer(iterations) or not 1 <= iterations <= MAX_ITERATIONS
        ):
            raise InvalidRulesError(f"iterations must be a positive int of at most {MAX_ITERATIONS:,} or None, got {shown(iterations)}")
        iterations = None if iterations is None else int(iterations)
        if not checks.is_real(exploration) or not 0 <= exploration <= 100:
            raise InvalidRulesError(f"exploration must be a number in 0..100, got {shown(exploration)}")
        if not checks.is_real(widening) or not 0 < widening <= math.inf or (
            isinstance(widening, int) and widening > sys.float_info.max  # an int no float holds
        ):
            raise InvalidRulesError(f"widening must be a positive number (math.inf: none), got {shown(widening)}")
        check_rollout_options(rollout_policy, margin_weight, ("greedy", "random", "planner", "mixed"))
        if not isinstance(root, str) or root not in ("halving", "ucb"):
            raise InvalidRulesError(f"root must be 'halving' or 'ucb', got {shown(root)}")
        if not isinstance(opponents, str) or opponents not in ("searched", "modelled"):
            raise InvalidRulesError(f"opponents must be 'searched' or 'modelled', got {shown(opponents)}")
        if not isinstance(claims, str) or claims not in ("searched", "first"):
            raise InvalidRulesError(f"claims must be 'searched' or 'first', got {shown(claims)}")
        if not isinstance(planner, str) or planner not in ("potential", "odds"):
            raise InvalidRulesError(f"planner must be 'potential' or 'odds', got {shown(planner)}")
        super().__init__(seed, time_limit=time_limit)
        self.iterations = iterations
        """Iterations per decision (None: :data:`DEFAULT_ITERATIONS`, or up to :data:`MAX_ITERATIONS` with a time limit)."""
        self.exploration = float(exploration)
        """UCB1's exploration constant."""
        self.widening = float(widening)
        """Progressive widening: a node of N visits has at most ``1 + widening * sqrt(N)`` children."""
        self.rollout_policy: Literal["greedy", "random", "planner", "mixed"] = str(rollout_policy)  # type: ignore[assignment]
        """The kernel bot of the rollouts."""
        self.margin_weight = float(margin_weight)
        """The weight of the score margin in a reward."""
        self.root: Literal["halving", "ucb"] = str(root)  # type: ignore[assignment]
        """How the root's action is chosen: sequential halving, or UCB1 as below it."""
        self.opponents: Literal["searched", "modelled"] = opponents
        """Whether the other seats' moves are searched in the tree or played there by the rollout policy."""
        self.claims: Literal["searched", "first"] = claims
        """Whether claims are searched like any action, or taken as soon as legal with two players."""
        self.planner: Literal["potential", "odds"] = planner
        """Which policy plays the planner's seats of the rollouts (:func:`planner_action` or the odds policy)."""
        if planner == "odds":
            tables()  # built once per process (about half a second), here rather than in a timed decision

    def __repr__(self) -> str:
        parts = [f"seed={self.seed}"]
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.time_limit is not None:
            parts.append(f"time_limit={self.time_limit!r}")
        if self.exploration != DEFAULT_EXPLORATION:
            parts.append(f"exploration={self.exploration!r}")
        if self.widening != DEFAULT_WIDENING:
            parts.append(f"widening={self.widening!r}")
        if self.rollout_policy != "planner":
            parts.append(f"rollout_policy={self.rollout_policy!r}")
        if self.margin_weight != 0.1:
            parts.append(f"margin_weight={self.margin_weight!r}")
        if self.root != "halving":
            parts.append(f"root={self.root!r}")
        if self.opponents != "searched":
            parts.append(f"opponents={self.opponents!r}")
        if self.claims != "first":
            parts.append(f"claims={self.claims!r}")
        if self.planner != "odds":
            parts.append(f"planner={self.planner!r}")
        return f"bots.ISMCTS({', '.join(parts)})"

    def budget(self) -> int:
        """The most iterations a decision may run."""
        if self.iterations is not None:
            return self.iterations
        return DEFAULT_ITERATIONS if self.time_limit is None else MAX_ITERATIONS

    def choose(self, view: PlayerView) -> Action:
        """The most visited action of the search for this view."""
        return self.search(view).action

    def search(self, view: PlayerView) -> Search:
        """Run the search for ``view``; reports each root action's mean reward and visits.

        ``Search.rollouts`` counts the iterations through each action (one
        rollout each). Raises :class:`~ordonnance.errors.IllegalActionError`
        when the view's seat has no legal action.
        """
        actions: tuple[Action, ...] = legal(view, PlayerView)
        self._state, decision_seed = splitmix64(self._state)
        claim_first = self.claims == "first" and view.rules.players == 2
        claim = next((i for i, a in enumerate(actions) if isinstance(a, Claim)), None) if claim_first else None
        if len(actions) == 1 or claim is not None:
            only = 0 if claim is None else claim
            return Search(actions[only], actions, tuple(math.nan for _ in actions), tuple(0 for _ in actions), 0.0)
        clock = self._clock(view)
        return self._search(view, actions, decision_seed, self.iterations, clock)

    def _search(self, view: PlayerView, actions: tuple[Action, ...], decision_seed: int, iterations: int | None,
                clock: HalvingClock) -> Search:  # fmt: skip
        """The search proper: ``iterations`` (None: :meth:`budget`) timed by ``clock``."""
        n = view.rules.players
        claim_first = self.claims == "first" and n == 2
        budget = self.budget() if iterations is None else iterations
        planner = {"planner": (1 << n) - 1, "mixed": 1 << view.seat}.get(self.rollout_policy, 0)
        setup = setup_of(view, "greedy" if planner else self.rollout_policy)
        me = -1 if self.opponents == "searched" else view.seat
        knobs = Knobs(self.exploration, min(self.widening, 1e18), self.margin_weight, setup.max_score, me, planner, claim_first,
                      int(self.planner == "odds"),
                      tables() if self.planner == "odds" and planner else no_tables())
        run = _Run(setup, knobs, np.uint64(decision_seed), new_tree(min(budget, _INITIAL_NODES) + 1))
        # Without the JIT (NUMBA_DISABLE_JIT=1) the 64-bit generator runs on NumPy
        # scalars, which warn on the wrap-around that the algorithm relies on.
        with np.errstate(over="ignore"):
            if self.root == "ucb":
                best = run.ucb(budget, clock, actions)
            else:
                best = run.halving(iterations, clock, actions)
        return _report(run.tree, actions, best, clock.seconds())

    def _warm_key(self, view: PlayerView) -> tuple[Rules, str]:
        return view.rules, self.root  # the two roots run different kernels

    def _rehearse(self, view: PlayerView) -> None:
        self._search(view, legal(view, PlayerView), 0, 1, HalvingClock(None))

    def _example_view(self) -> PlayerView:
        return Game.new(Rules(), seed=0).view(0)


class _Run:
    """One search: the position, the constants, the generator and the tree (which may grow)."""

    def __init__(self, setup: Setup, knobs: Knobs, seed: np.uint64, tree: Tree) -> None:
        self.setup, self.knobs, self.seed, self.tree = setup, knobs, seed, tree

    def _room(self, nodes: int) -> None:
        if self.tree.nodes.shape[0] - int(self.tree.size[0]) < nodes:
            self.tree = grown(self.tree, max(2 * self.tree.nodes.shape[0], int(self.tree.size[0]) + nodes))

    def ucb(self, budget: int, clock: HalvingClock, actions: tuple[Action, ...]) -> int | None:
        """Plain SO-ISMCTS: ``budget`` iterations from the root (fewer when the clock runs out)."""
        s = self.setup
        done = 0
        while done < budget:
            step = min(BATCH if clock.limit is not None else UNTIMED_BATCH, budget - done)  # Ctrl-C between steps
            self._room(step)
            done += iterate(s.cfg, s.position, self.tree, done, step, self.seed, self.knobs)
            if clock.out():
                break
        return None

    def halving(self, iterations: int | None, clock: HalvingClock, actions: tuple[Action, ...]) -> int:
        """Sequential halving over the root's actions with SO-ISMCTS below each; returns the best one's index.

        ``ceil(log2(k))`` rounds for ``k`` actions; each shares its part of the
        budget among the actions still in the race (one deal through each of
        them at a time) and keeps the better half by mean reward. Under a time
        limit each round gets an equal share of what is left of the planned
        time, as :class:`MonteCarlo`'s rounds do (:class:`HalvingClock`), and
        without an iteration budget runs as many deals as fit in it.
        """
        s = self.setup
        k = len(actions)
        self._room(k)
        for action in actions:
            add_child(self.tree, 0, action_code(action), s.position.me)
        node_of = list(range(1, k + 1))  # the children, in legal order
        survivors = list(range(k))
        rounds = math.ceil(math.log2(k))
        timed = iterations is None and clock.limit is not None
        budget = DEFAULT_ITERATIONS if iterations is None else iterations
        deals = 0
        for r in range(rounds):
            roots = np.array([node_of[a] for a in survivors], np.int64)
            most = MAX_ITERATIONS if timed else max(1, budget // (len(survivors) * rounds))

            def play(first: int, count: int) -> int:
                self._room(count * roots.shape[0])
                return int(iterate_halving(s.cfg, s.position, self.tree, roots, deals + first, count, self.seed, self.knobs))

            deals += clock.run_round(play, len(survivors), most, rounds - r)
            means = {a: self._mean(node_of[a]) for a in survivors}
            survivors.sort(key=lambda a: (-means[a], a))
            survivors = survivors[: max(1, (len(survivors) + 1) // 2)]
            if clock.out():
                break
        return self._best(survivors, node_of)

    def _mean(self, node: int) -> float:
        visits = int(self.tree.nodes[node, VISITS])
        return float(self.tree.reward[node]) / visits if visits else -math.inf

    def _best(self, survivors: list[int], node_of: list[int]) -> int:
        return min(survivors, key=lambda a: (-self._mean(node_of[a]), a))


def _report(tree: Tree, actions: tuple[Action, ...], best: int | None, seconds: float) -> Search:
    """The root's statistics per legal action, and the one chosen (``best``, else the most visited)."""
    index = {action_code(action): i for i, action in enumerate(actions)}
    visits = [0] * len(actions)
    values = [math.nan] * len(actions)
    c = int(tree.nodes[0, FIRST_CHILD])
    while c != NONE:
        i = index[int(tree.nodes[c, ACTION])]
        visits[i] = int(tree.nodes[c, VISITS])
        if visits[i]:
            values[i] = float(tree.reward[c]) / visits[i]
        c = int(tree.nodes[c, NEXT_SIBLING])
    if best is None:
        best = min(range(len(actions)), key=lambda i: (-visits[i], -(values[i] if visits[i] else -math.inf), i))
    return Search(actions[best], actions, tuple(values), tuple(visits), seconds)
