"""Private numba kernel: the rules of Black Prince over a record of fixed-shape arrays.

One implementation of the rules for everything fast (the simulator and the
Monte-Carlo bot's rollouts, both in this module so that numba's disk cache of
one never outlives a change to the other), held to the readable engine
(:class:`ordonnance.black_prince.Game`) by the twin tests: the same shuffles,
deal, legal actions in the same order, the same auto-steps and breakthrough
draws, and bot twins that draw from the same streams, so a simulated game
and the same game through ``Game`` are identical action for action.

The state is a :class:`State` of small arrays (pgx style), the card kinds a
:class:`Tables`; a card is its kind index into the tables (-1: empty).
An action is one int: ``op | a << 3 | b << 11`` (see :func:`encode`).
Everything arrives validated; nothing here raises or reads out of bounds.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from ordonnance.core.jit import bounded, splitmix64

Array = npt.NDArray[np.int64]

COLUMNS = 6
HAND = 6
FRONT_LIMIT = 6
ROUT_TO_WIN = 6
EMPTY = -1
#: Most legal actions in any position (places 6x6, behind 6, moves 12; or a battle's 12 + 18 + 1).
MAX_LEGAL = 64

#: Phases.
PLACE = 0
CHOOSE = 1
BATTLE = 2
OVER = 3
#: Action ops.
OP_PLACE = 0
OP_BEHIND = 1
OP_MOVE = 2
OP_BATTLE = 3
OP_END_TURN = 4
OP_RIDE = 5
OP_FIGHT = 6
OP_END_BATTLE = 7
#: Type families as bit masks over TroopType numbers.
MOUNTED = 0b0000_0111
LINE = 0b0111_1000
ARCHER = 0b1000_0100
#: ints[] slots.
CURRENT = 0
PHASE = 1
TURN = 2
FOUGHT = 3
ROUTED = 4  # 4 and 5: routed by seat 0 and seat 1
MAX_TURNS = 6
INTS = 7
#: Policy codes.
RANDOM = 0
GREEDY = 1


class Tables(NamedTuple):
    """The card kinds of a game, read-only: type (-1 for Battle), strength, advantage mask."""

    kind_type: Array
    strength: Array
    advantages: Array


class State(NamedTuple):
    """A position as fixed-shape arrays; ``decks[p, :deck_len[p]]`` has its top card last."""

    cells: Array  # [4, 6]: kind or -1, rows as in Game
    hands: Array  # [2, 6]
    hand_len: Array  # [2]
    decks: Array  # [2, D]
    deck_len: Array  # [2]
    discards: Array  # [2, D]
    discard_len: Array  # [2]
    flags: Array  # [3, 6]: attacked, moved, contact (by the attacker's column)
    ints: Array  # [INTS]: current, phase, turn, fought, routed 0, routed 1, max turns
    rng: npt.NDArray[np.uint64]  # [1]: the chance stream


@numba.njit(cache=True)
def new_state(deck_size: int) -> State:
    """An empty state whose decks hold up to ``deck_size`` cards."""
    return State(
        np.full((4, COLUMNS), EMPTY, np.int64), np.full((2, HAND), EMPTY, np.int64), np.zeros(2, np.int64),
        np.full((2, deck_size), EMPTY, np.int64), np.zeros(2, np.int64),
        np.full((2, deck_size), EMPTY, np.int64), np.zeros(2, np.int64),
        np.zeros((3, COLUMNS), np.int64), np.zeros(INTS, np.int64), np.zeros(1, np.uint64),
    )  # fmt: skip


@numba.njit(cache=True)
def copy_into(src: State, dst: State) -> None:
    """Copy every array of ``src`` into ``dst`` (same shapes)."""
    dst.cells[:, :] = src.cells
    dst.hands[:, :] = src.hands
    dst.hand_len[:] = src.hand_len
    dst.decks[:, :] = src.decks
    dst.deck_len[:] = src.deck_len
    dst.discards[:, :] = src.discards
    dst.discard_len[:] = src.discard_len
    dst.flags[:, :] = src.flags
    dst.ints[:] = src.ints
    dst.rng[:] = src.rng


@numba.njit(cache=True, inline="always")
def encode(op: int, a: int, b: int) -> int:
    """One action as an int: op (3 bits), a (8 bits: kind or column), b (column, target, or step 0/1)."""
    return op | (a << 3) | (b << 11)


@numba.njit(cache=True, inline="always")
def front(p: int) -> int:
    return 2 - p


@numba.njit(cache=True, inline="always")
def back(p: int) -> int:
    return 3 - 3 * p


@numba.njit(cache=True, inline="always")
def _has(mask: int, kind_type: int) -> bool:
    return kind_type >= 0 and (mask >> kind_type) & 1 == 1


# ------------------------------------------------------------------ fights


@numba.njit(cache=True, inline="always")
def _engaged(cells: Array, p: int, c: int) -> bool:
    return bool(cells[front(p), c] >= 0 and cells[front(1 - p), c] >= 0)


@numba.njit(cache=True)
def _side_total(tb: Tables, cells: Array, p: int, c: int, other: int, flank: bool) -> tuple[int, int]:
    """(total, cards lost if beaten) of ``p``'s front unit in column ``c`` against kind ``other``."""
    k = cells[front(p), c]
    t = tb.kind_type[k]
    total = tb.strength[k]
    if _has(tb.advantages[k], tb.kind_type[other]):
        total += 1
    lost = 1
    behind = cells[back(p), c]
    if _has(LINE, t) and behind >= 0 and tb.kind_type[behind] == t:
        total += 1
        lost = 2
    engaged = _engaged(cells, p, c)
    if engaged:
        for s in (c - 1, c + 1):
            if 0 <= s < COLUMNS:
                friend = cells[front(p), s]
                if friend >= 0 and _has(ARCHER, tb.kind_type[friend]) and not _engaged(cells, p, s):
                    total += 1
    if flank and not engaged:
        total += 1
    return total, lost


@numba.njit(cache=True)
def fight_totals(tb: Tables, cells: Array, p: int, c: int, t: int) -> tuple[int, int, int, int]:
    """``p``'s unit in column ``c`` attacks column ``t``: (attacker total, defender total,
    attacker's cards lost if beaten, defender's cards lost if beaten)."""
    a_kind = cells[front(p), c]
    d_kind = cells[front(1 - p), t]
    a, a_lost = _side_total(tb, cells, p, c, d_kind, c != t)
    d, d_lost = _side_total(tb, cells, 1 - p, t, a_kind, False)
    return a, d, a_lost, d_lost


@numba.njit(cache=True)
def worth(tb: Tables, cells: Array, p: int, c: int, t: int) -> int:
    """What the fight changes for the attacker: +cards destroyed, -cards lost, 0 on a tie."""
    a, d, a_lost, d_lost = fight_totals(tb, cells, p, c, t)
    if a > d:
        return d_lost
    if d > a:
        return -a_lost
    return 0


# ------------------------------------------------------------------ legal actions


@numba.njit(cache=True)
def _front_count(cells: Array) -> int:
    n = 0
    for r in (1, 2):
        for c in range(COLUMNS):
            n += cells[r, c] >= 0
    return n


@numba.njit(cache=True, inline="always")
def _beside(cells: Array, p: int, c: int, ignore: int) -> bool:
    for s in (c - 1, c + 1):
        if 0 <= s < COLUMNS and s != ignore and cells[front(p), s] >= 0:
            return True
    return False


@numba.njit(cache=True)
def _can_place(cells: Array, p: int, c: int, count: int) -> bool:
    if cells[front(p), c] >= 0 or count >= FRONT_LIMIT:
        return False
    if cells[front(1 - p), c] >= 0 or _beside(cells, p, c, -1):
        return True
    return count == 0


@numba.njit(cache=True)
def _enemy_near(cells: Array, p: int, c: int) -> bool:
    for t in (c - 1, c, c + 1):
        if 0 <= t < COLUMNS and cells[front(1 - p), t] >= 0:
            return True
    return False


@numba.njit(cache=True)
def legal(tb: Tables, st: State, out: Array) -> int:
    """Write the legal actions in the engine's order into ``out``; returns how many."""
    phase = st.ints[PHASE]
    p = st.ints[CURRENT]
    cells = st.cells
    n = 0
    if phase == PLACE:
        count = _front_count(cells)
        places = 0
        for c in range(COLUMNS):
            if _can_place(cells, p, c, count):
                places |= 1 << c
        for i in range(st.hand_len[p]):
            k = st.hands[p, i]
            t = tb.kind_type[k]
            if t < 0:
                continue
            seen = False
            for j in range(i):
                if st.hands[p, j] == k:
                    seen = True
                    break
            if seen:
                continue
            for c in range(COLUMNS):
                if places >> c & 1:
                    out[n] = encode(OP_PLACE, k, c)
                    n += 1
            if _has(LINE, t):
                for c in range(COLUMNS):
                    unit = cells[front(p), c]
                    if unit >= 0 and tb.kind_type[unit] == t and cells[back(p), c] < 0:
                        out[n] = encode(OP_BEHIND, k, c)
                        n += 1
        for c in range(COLUMNS):
            if cells[front(p), c] < 0:
                continue
            for step in (0, 1):
                to = c - 1 + 2 * step
                if 0 <= to < COLUMNS and cells[front(p), to] < 0:
                    if cells[front(1 - p), to] >= 0 or _beside(cells, p, to, c):
                        out[n] = encode(OP_MOVE, c, step)
                        n += 1
    elif phase == CHOOSE:
        out[0] = encode(OP_BATTLE, 0, 0)
        out[1] = encode(OP_END_TURN, 0, 0)
        n = 2
    elif phase == BATTLE:
        if st.ints[FOUGHT] == 0:
            for c in range(COLUMNS):
                unit = cells[front(p), c]
                if unit >= 0 and _has(MOUNTED, tb.kind_type[unit]) and st.flags[1, c] == 0:
                    for step in (0, 1):
                        to = c - 1 + 2 * step
                        if 0 <= to < COLUMNS and cells[front(p), to] < 0:
                            out[n] = encode(OP_RIDE, c, step)
                            n += 1
        mandatory = False
        for c in range(COLUMNS):
            if cells[front(p), c] < 0 or st.flags[0, c] != 0:
                continue
            if cells[front(1 - p), c] >= 0:
                mandatory = True
            for t in (c - 1, c, c + 1):
                if 0 <= t < COLUMNS and cells[front(1 - p), t] >= 0:
                    out[n] = encode(OP_FIGHT, c, t)
                    n += 1
        if n > 0 and not mandatory:
            out[n] = encode(OP_END_BATTLE, 0, 0)
            n += 1
    return n


# ------------------------------------------------------------------ applying


@numba.njit(cache=True)
def _draw(st: State, p: int) -> None:
    while st.hand_len[p] < HAND and st.deck_len[p] > 0:
        st.deck_len[p] -= 1
        st.hands[p, st.hand_len[p]] = st.decks[p, st.deck_len[p]]
        st.hand_len[p] += 1


@numba.njit(cache=True)
def _take_from_hand(st: State, p: int, i: int) -> int:
    """Remove and return the card in hand slot ``i``, keeping the order of the rest."""
    k = st.hands[p, i]
    for j in range(i, st.hand_len[p] - 1):
        st.hands[p, j] = st.hands[p, j + 1]
    st.hand_len[p] -= 1
    st.hands[p, st.hand_len[p]] = EMPTY
    return int(k)


@numba.njit(cache=True)
def _remove_kind(st: State, p: int, k: int) -> None:
    for i in range(st.hand_len[p]):
        if st.hands[p, i] == k:
            _take_from_hand(st, p, i)
            return


@numba.njit(cache=True)
def _discard(tb: Tables, st: State, p: int, k: int) -> None:
    """``p``'s card ``k`` goes to ``p``'s discard pile; a troop counts as routed for the other seat."""
    st.discards[p, st.discard_len[p]] = k
    st.discard_len[p] += 1
    if tb.kind_type[k] >= 0:
        st.ints[ROUTED + 1 - p] += 1


@numba.njit(cache=True)
def _reset_battle(st: State) -> None:
    st.flags[:, :] = 0
    st.ints[FOUGHT] = 0


@numba.njit(cache=True)
def _game_over(st: State) -> None:
    st.ints[PHASE] = OVER
    _reset_battle(st)


@numba.njit(cache=True)
def _can_act(tb: Tables, st: State, p: int) -> bool:
    """Whether ``p``, holding no card, would have a decision on a turn starting now (between
    turns): a first step (a move), or a battle the full front line forces."""
    current, phase = st.ints[CURRENT], st.ints[PHASE]
    scratch = np.empty(MAX_LEGAL, np.int64)  # only once the cards have run out
    st.ints[CURRENT] = p
    st.ints[PHASE] = PLACE
    can = legal(tb, st, scratch) > 0
    if not can and _front_count(st.cells) >= FRONT_LIMIT:
        st.ints[PHASE] = BATTLE
        can = legal(tb, st, scratch) > 0
    st.ints[CURRENT] = current
    st.ints[PHASE] = phase
    return can


@numba.njit(cache=True, inline="always")  # measured: as a call taking the tables, random simulate ran ~14% slower
def _end_turn(tb: Tables, st: State) -> None:
    _reset_battle(st)
    # The end when the cards have run out: no card in any hand or deck, and neither seat
    # could do anything on a turn of its own from here.
    out_of_cards = st.hand_len[0] + st.hand_len[1] + st.deck_len[0] + st.deck_len[1] == 0
    played_out = out_of_cards and not _can_act(tb, st, 0) and not _can_act(tb, st, 1)
    if played_out or st.ints[TURN] >= st.ints[MAX_TURNS]:
        _game_over(st)
        return
    st.ints[CURRENT] = 1 - st.ints[CURRENT]
    st.ints[TURN] += 1
    st.ints[PHASE] = PLACE


@numba.njit(cache=True)
def _start_battle(st: State) -> None:
    p = st.ints[CURRENT]
    st.ints[PHASE] = BATTLE
    for c in range(COLUMNS):
        st.flags[2, c] = st.cells[front(p), c] >= 0 and _enemy_near(st.cells, p, c)


@numba.njit(cache=True)
def _after_first_step(tb: Tables, st: State) -> None:
    p = st.ints[CURRENT]
    _draw(st, p)
    if _front_count(st.cells) >= FRONT_LIMIT:
        _start_battle(st)
        return
    for i in range(st.hand_len[p]):
        if tb.kind_type[st.hands[p, i]] < 0:
            st.ints[PHASE] = CHOOSE
            return
    _end_turn(tb, st)


@numba.njit(cache=True)
def _finish_battle(tb: Tables, st: State) -> None:
    p = st.ints[CURRENT]
    q = 1 - p
    for c in range(COLUMNS):
        if st.cells[front(p), c] < 0 or st.flags[2, c] != 0 or st.hand_len[q] == 0:
            continue
        state, value = splitmix64(st.rng[0])
        st.rng[0] = state
        _discard(tb, st, q, _take_from_hand(st, q, bounded(value, st.hand_len[q])))
        if st.ints[ROUTED + p] >= ROUT_TO_WIN:
            _game_over(st)
            return
    _end_turn(tb, st)


@numba.njit(cache=True)
def _shift(cells: Array, p: int, c: int, to: int) -> None:
    """Move ``p``'s unit in column ``c`` (and the card behind it) to column ``to``."""
    for r in (front(p), back(p)):
        cells[r, to] = cells[r, c]
        cells[r, c] = EMPTY


@numba.njit(cache=True)
def settle(tb: Tables, st: State, out: Array) -> int:
    """Run the steps nobody decides until a decision is due or the game is over; returns
    how many legal actions the decision has, and leaves them in ``out`` (0: over)."""
    while True:
        phase = st.ints[PHASE]
        if phase == OVER:
            return 0
        n = legal(tb, st, out)
        if n > 0:
            return n
        if phase == PLACE:
            _after_first_step(tb, st)
        else:
            _finish_battle(tb, st)


@numba.njit(cache=True)
def apply(tb: Tables, st: State, action: int, out: Array) -> int:
    """Carry out a legal ``action`` (as :func:`legal` lists it), then the steps that follow;
    returns the next decision's number of legal actions, which it leaves in ``out``."""
    op = action & 7
    a = (action >> 3) & 255
    b = action >> 11
    p = st.ints[CURRENT]
    if op == OP_PLACE or op == OP_BEHIND:
        _remove_kind(st, p, a)
        st.cells[front(p) if op == OP_PLACE else back(p), b] = a
        _after_first_step(tb, st)
    elif op == OP_MOVE:
        _shift(st.cells, p, a, a - 1 + 2 * b)
        _after_first_step(tb, st)
    elif op == OP_BATTLE:
        for i in range(st.hand_len[p]):
            if tb.kind_type[st.hands[p, i]] < 0:
                _discard(tb, st, p, _take_from_hand(st, p, i))
                break
        _start_battle(st)
    elif op == OP_END_TURN:
        _end_turn(tb, st)
    elif op == OP_RIDE:
        to = a - 1 + 2 * b
        _shift(st.cells, p, a, to)
        st.flags[1, to] = 1
        st.flags[1, a] = 0
        st.flags[2, to] = st.flags[2, a] != 0 or _enemy_near(st.cells, p, to)
        st.flags[2, a] = 0
    elif op == OP_FIGHT:
        total_a, total_d, lost_a, lost_d = fight_totals(tb, st.cells, p, a, b)
        st.flags[0, a] = 1
        st.ints[FOUGHT] = 1
        if total_a != total_d:
            loser, column, lost = (1 - p, b, lost_d) if total_a > total_d else (p, a, lost_a)
            _discard(tb, st, loser, st.cells[front(loser), column])
            st.cells[front(loser), column] = EMPTY
            if lost == 2:
                _discard(tb, st, loser, st.cells[back(loser), column])
                st.cells[back(loser), column] = EMPTY
            if st.ints[ROUTED] >= ROUT_TO_WIN or st.ints[ROUTED + 1] >= ROUT_TO_WIN:
                _game_over(st)
    else:
        _finish_battle(tb, st)
    return settle(tb, st, out)


# ------------------------------------------------------------------ bots


@numba.njit(cache=True)
def _frontal_balance(tb: Tables, cells: Array, p: int) -> int:
    total = 0
    for c in range(COLUMNS):
        if cells[front(p), c] >= 0 and cells[front(1 - p), c] >= 0:
            total += worth(tb, cells, p, c, c) - worth(tb, cells, 1 - p, c, c)
    return total


@numba.njit(cache=True)
def _best_fight(tb: Tables, cells: Array, p: int, c: int) -> int:
    best = 0
    found = False
    for t in (c - 1, c, c + 1):
        if 0 <= t < COLUMNS and cells[front(1 - p), t] >= 0:
            value = worth(tb, cells, p, c, t)
            if not found or value > best:
                best = value
                found = True
    return best


@numba.njit(cache=True)
def _battle_worth(tb: Tables, st: State, p: int) -> int:
    cells = st.cells
    total = 0
    for c in range(COLUMNS):
        if cells[front(p), c] < 0:
            continue
        if cells[front(1 - p), c] >= 0:
            total += worth(tb, cells, p, c, c)
        elif (c > 0 and cells[front(1 - p), c - 1] >= 0) or (c < COLUMNS - 1 and cells[front(1 - p), c + 1] >= 0):
            total += max(0, _best_fight(tb, cells, p, c))
        elif st.hand_len[1 - p] > 0:
            total += 1
    return total


@numba.njit(cache=True)
def greedy_score(tb: Tables, st: State, action: int, work: Array) -> int:
    """The Greedy bot's score of ``action`` (as ordonnance.black_prince._greedy.score)."""
    op = action & 7
    a = (action >> 3) & 255
    b = action >> 11
    p = st.ints[CURRENT]
    if op == OP_FIGHT:
        return 4 * worth(tb, st.cells, p, a, b)
    if op == OP_BATTLE:
        return _battle_worth(tb, st, p)
    if op == OP_END_TURN or op == OP_END_BATTLE:
        return 0
    work[:, :] = st.cells
    if op == OP_PLACE or op == OP_BEHIND:
        work[front(p) if op == OP_PLACE else back(p), b] = a
        return 4 * _frontal_balance(tb, work, p) + (tb.strength[a] if op == OP_PLACE else 2)
    to = a - 1 + 2 * b
    _shift(work, p, a, to)
    if op == OP_MOVE:
        return 4 * _frontal_balance(tb, work, p)
    return 4 * (_best_fight(tb, work, p, to) - _best_fight(tb, st.cells, p, a)) - 1


@numba.njit(cache=True)
def choose(tb: Tables, st: State, policy: int, bot_rng: npt.NDArray[np.uint64], actions: Array, n: int,
           work: Array, best: Array) -> int:  # fmt: skip
    """The action of a built-in bot (its stream in ``bot_rng[seat]``) among ``actions[:n]``."""
    p = st.ints[CURRENT]
    state, value = splitmix64(bot_rng[p])
    bot_rng[p] = state
    if policy == RANDOM:
        return int(actions[bounded(value, n)])
    count = 0
    top = 0
    for i in range(n):
        s = greedy_score(tb, st, actions[i], work)
        if count == 0 or s > top:
            top = s
            count = 0
        if s == top:
            best[count] = actions[i]
            count += 1
    return int(best[bounded(value, count)])


# ------------------------------------------------------------------ whole games


@numba.njit(cache=True)
def deal(tb: Tables, st: State, canon: Array, canon_len: Array, seed: np.uint64, coin: bool,
         max_turns: int) -> None:  # fmt: skip
    """Set ``st`` to the start of ``Game.new(rules, seed=seed)``: shuffles, deal, who starts."""
    state = seed
    for p in range(2):
        m = canon_len[p]
        order = canon[p, :m].copy()
        for i in range(m - 1, 0, -1):
            state, value = splitmix64(state)
            j = bounded(value, i + 1)
            order[i], order[j] = order[j], order[i]
        for i in range(m):
            st.decks[p, i] = order[m - 1 - i]
        st.deck_len[p] = m
        st.hand_len[p] = 0
        st.discard_len[p] = 0
    st.hands[:, :] = EMPTY
    st.cells[:, :] = EMPTY
    for p in range(2):
        _draw(st, p)
    first = 0
    if coin:
        state, value = splitmix64(state)
        first = bounded(value, 2)
    st.rng[0] = state
    st.ints[:] = 0
    st.ints[CURRENT] = first
    st.ints[PHASE] = PLACE
    st.ints[TURN] = 1
    st.ints[MAX_TURNS] = max_turns
    _reset_battle(st)


@numba.njit(cache=True)
def play_out(tb: Tables, st: State, policies: Array, bot_rng: npt.NDArray[np.uint64], record: Array,
             scratch: Array, work: Array, best: Array) -> int:  # fmt: skip
    """Play ``st`` to the end with the built-in bots; returns the decisions made.

    The first ``record.shape[0]`` decisions are written to ``record``.
    """
    steps = 0
    actions = np.empty(MAX_LEGAL, np.int64)
    n = settle(tb, st, actions)
    while n > 0:
        action = choose(tb, st, policies[st.ints[CURRENT]], bot_rng, actions, n, work, best)
        if steps < record.shape[0]:
            record[steps] = action
        n = apply(tb, st, action, scratch)
        actions, scratch = scratch, actions
        steps += 1
    return steps


@numba.njit(cache=True)
def winner(st: State) -> int:
    """The winning seat of a finished game, or -1 on a draw."""
    a = st.ints[ROUTED]
    b = st.ints[ROUTED + 1]
    return 0 if a > b else 1 if b > a else -1


class Results(NamedTuple):
    """The arrays :func:`simulate` fills, one row per game (those of
    :class:`ordonnance.black_prince.SimulationResult` of the same names, as int64)."""

    winner: Array  # the winning seat, or -1 on a draw
    scores: Array  # [game, seat]: the enemy troops the seat routed
    turns: Array  # turns the game lasted
    decisions: Array  # decisions the seats made
    actions: Array  # [game, i]: the i-th decision, while the row has room (width 0: none kept)


@numba.njit(cache=True)
def simulate(tb: Tables, canon: Array, canon_len: Array, coin: bool, max_turns: int, seeds: npt.NDArray[np.uint64],
             bot_seeds: npt.NDArray[np.uint64], policies: Array, out: Results) -> None:  # fmt: skip
    """Play one game per seed, game g into row g of ``out``."""
    st = new_state(canon.shape[1])
    scratch = np.empty(MAX_LEGAL, np.int64)
    work = np.empty((4, COLUMNS), np.int64)
    best = np.empty(MAX_LEGAL, np.int64)
    bot_rng = np.zeros(2, np.uint64)
    for g in range(seeds.shape[0]):
        deal(tb, st, canon, canon_len, seeds[g], coin, max_turns)
        bot_rng[0] = bot_seeds[g, 0]
        bot_rng[1] = bot_seeds[g, 1]
        out.decisions[g] = play_out(tb, st, policies, bot_rng, out.actions[g], scratch, work, best)
        out.winner[g] = winner(st)
        out.scores[g, 0] = st.ints[ROUTED]
        out.scores[g, 1] = st.ints[ROUTED + 1]
        out.turns[g] = st.ints[TURN]


# ------------------------------------------------------------------ Monte-Carlo rollouts

_GAMMA = np.uint64(0x9E3779B97F4A7C15)


@numba.njit(cache=True)
def shuffled(pool: npt.NDArray[np.int64], state: np.uint64) -> tuple[npt.NDArray[np.int64], np.uint64]:
    """A Fisher-Yates shuffled copy of ``pool`` (as ordonnance.core.rng.shuffle) and the new state."""
    out = pool.copy()
    for i in range(out.shape[0] - 1, 0, -1):
        state, value = splitmix64(state)
        j = bounded(value, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state


class Deal(NamedTuple):
    """A seat's view, to be dealt again and again by :func:`rollouts`."""

    base: State  # what the view shows (black_prince._bridge.state_of_view)
    me: int  # the seat whose view it is
    own_pool: npt.NDArray[np.int64]  # the seat's own deck, unseen order
    other_pool: npt.NDArray[np.int64]  # the other seat's hand and deck, unseen
    other_hand: int  # how many of other_pool are in its hand


class Knobs(NamedTuple):
    """How :func:`rollouts` plays and values a rollout."""

    policies: npt.NDArray[np.int64]  # the kernel bot of each seat
    margin_weight: float  # the weight of the routed-cards margin


class Tally(NamedTuple):
    """The actions under test and what their rollouts add up (see :func:`rollouts`)."""

    actions: npt.NDArray[np.int64]  # action codes
    sums: npt.NDArray[np.float64]  # [a]: the values of a's rollouts, summed
    counts: npt.NDArray[np.int64]  # [a]: a's rollouts


@numba.njit(cache=True)
def rollouts(tb: Tables, deal: Deal, knobs: Knobs, tally: Tally, active: npt.NDArray[np.int64],
             first: int, stop: int, max_steps: int, seed: np.uint64) -> tuple[int, int]:  # fmt: skip
    """The Monte-Carlo bot's search: determinized rollouts ``first .. stop - 1`` of each
    action in ``active`` from ``deal.base`` (seat ``deal.me``'s view), played out by
    ``knobs.policies``; adds each rollout's value to ``tally.sums[action]`` and counts it
    in ``tally.counts``.

    Rollout ``j`` deals the same hidden cards and bot streams for every action: the
    own deck ``own_pool`` shuffled, the other seat's ``other_pool`` shuffled into a hand
    of ``other_hand`` cards and a deck, and a fresh chance stream. After each ``j``
    played for every action, the search stops once the decisions played in the
    rollouts reach ``max_steps`` (so every action keeps the same rollouts and at least
    one). Returns the next ``j`` and the decisions played."""
    base, me, own_pool, other_pool, other_hand = deal  # unpacked once: no reference count per use
    policies, margin_weight = knobs
    actions, sums, counts = tally
    size = base.decks.shape[1]
    dealt = new_state(size)
    st = new_state(size)
    scratch = np.empty(MAX_LEGAL, np.int64)
    work = np.empty((4, COLUMNS), np.int64)
    best = np.empty(MAX_LEGAL, np.int64)
    record = np.zeros(0, np.int64)
    bots = np.zeros(2, np.uint64)
    bots0 = np.zeros(2, np.uint64)
    other = 1 - me
    steps = 0
    for j in range(first, stop):
        state, _ = splitmix64(seed + np.uint64(j) * _GAMMA)
        copy_into(base, dealt)
        mine, state = shuffled(own_pool, state)
        dealt.decks[me, : mine.shape[0]] = mine
        dealt.deck_len[me] = mine.shape[0]
        theirs, state = shuffled(other_pool, state)
        dealt.hands[other, :] = EMPTY
        dealt.hands[other, :other_hand] = theirs[:other_hand]
        dealt.hand_len[other] = other_hand
        rest = theirs.shape[0] - other_hand
        dealt.decks[other, :rest] = theirs[other_hand:]
        dealt.deck_len[other] = rest
        state, value = splitmix64(state)
        dealt.rng[0] = value
        for q in range(2):
            state, value = splitmix64(state)
            bots0[q] = value
        for i in range(active.shape[0]):
            a = active[i]
            copy_into(dealt, st)
            bots[:] = bots0
            apply(tb, st, actions[a], scratch)
            steps += 1 + play_out(tb, st, policies, bots, record, scratch, work, best)
            w = winner(st)
            value_ = 1.0 if w == me else (0.5 if w < 0 else 0.0)
            value_ += margin_weight * (st.ints[ROUTED + me] - st.ints[ROUTED + other]) / 6.0
            sums[a] += value_
            counts[a] += 1
        if steps >= max_steps:
            return j + 1, steps
    return stop, steps
