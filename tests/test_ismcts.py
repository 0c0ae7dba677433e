"""The ISMCTS bot: legal, reproducible, blind to hidden cards, its kernel held to Python twins.

The twins: the determinization against a Python shuffle and the view it must
agree with; the tree's pieces (UCB with availability, the untried actions)
against plain Python on random small trees; and whole searches against a
slow reference whose tree is a dict keyed by action histories. Without the
JIT (``NUMBA_DISABLE_JIT=1``) everything runs in Python, so budgets and game
counts shrink and the strength check is skipped. The strength figures are in
``benchmarks/bench_ismcts.py``.
"""

from __future__ import annotations

import math
import pickle
import random
import types
from collections import Counter
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import _ismcts, _ismcts_model
from ordonnance.core import clock
from ordonnance import _simulator_kernel as kernel
from ordonnance._ismcts import ISMCTS
from ordonnance._bridge import action_code, setup_of
from ordonnance._montecarlo import Search, determinize
from ordonnance.core.rng import bounded, splitmix64
from ordonnance import Claim, Pass, Play, Rules, Territory

from . import naive
from .positions import position
from .test_batch import IDS, VARIANTS  # every variant, custom decks too
from .test_ismcts_model import keep_best, python_forced, python_odds
from .test_montecarlo import _advance

JIT = not __import__("numba").config.DISABLE_JIT
ITERATIONS = 60 if JIT else 6
#: Without the JIT: the UCB root, whose budget is the iterations (halving runs one deal per action and round).
FAST: dict[str, str] = {} if JIT else {"root": "ucb"}
C, J = Territory.CYPRUS, Territory.JERUSALEM
_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


# --- legality, every variant -----------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_plays_only_legal_actions_in_every_variant(rules: Rules) -> None:
    """ISMCTS in every seat; each choice is one of the view's legal actions (and Game.apply agrees)."""
    game = od.Game.new(rules, seed=3)
    bots = [ISMCTS(seed=seat, iterations=ITERATIONS, **FAST) for seat in range(rules.players)]
    if not JIT:
        _advance(game, 12 * rules.players)
    decisions = 0
    while not game.is_over and (JIT or decisions < 3):
        seat = game.current_player
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        game.apply(action)
        decisions += 1
    assert game.is_over or not JIT


@settings(max_examples=30 if JIT else 5, deadline=None)
@given(
    rules=st.sampled_from(VARIANTS),
    deal=st.integers(0, 2**64 - 1),
    plays=st.integers(0, 90),
    seed=st.integers(0, 2**64 - 1),
)
@example(rules=Rules(), deal=65541, plays=0, seed=0)  # a claim to take with two players (found without the JIT)
def test_legal_in_random_positions(rules: Rules, deal: int, plays: int, seed: int) -> None:
    game = _advance(od.Game.new(rules, seed=deal), plays if JIT else max(plays, 10 * rules.players), seed=deal % 1000)
    if game.is_over:
        return
    view = game.view(game.current_player)
    search = ISMCTS(seed=seed, iterations=ITERATIONS, **FAST).search(view)
    assert search.action in view.legal_actions and search.actions == view.legal_actions
    k = len(view.legal_actions)
    claims = [a for a in view.legal_actions if isinstance(a, Claim)]
    if claims and rules.players == 2 and FAST.get("claims", "first") == "first":
        assert search.action == claims[0] and sum(search.rollouts) == 0  # taken at once, without a search
    elif k > 1:  # at most the budget, or one deal per action still in the race each round
        assert 0 < sum(search.rollouts) <= max(ITERATIONS, k * math.ceil(math.log2(k)))
        assert search.rollouts[search.actions.index(search.action)] == max(search.rollouts)  # it survived every round


def test_claims_and_passes_are_searched_too() -> None:
    game = position({C: ["F F F F", "L"]}, hands=["S", "B"], deck="H", current=0)
    assert game.legal_actions() == [Claim(C), Pass()]
    search = ISMCTS(seed=0, iterations=20, claims="searched").search(game.view(0))
    assert search.action == Claim(C)
    assert sum(search.rollouts) == 20 and min(search.rollouts) >= 1


def test_claims_first_takes_a_claim_at_once_with_two_players_only() -> None:
    game = position({C: ["F F F F", "L"]}, hands=["S", "B"], deck="H", current=0)
    search = ISMCTS(seed=0, iterations=20, claims="first").search(game.view(0))
    assert search.action == Claim(C) and search.rollouts == (0, 0)
    three = position({C: ["F F F F", "L", "B"]}, hands=["S", "B", "L"], deck="H", current=0)
    assert Claim(C) in three.legal_actions()
    assert sum(ISMCTS(seed=0, iterations=20, claims="first").search(three.view(0)).rollouts) == 20


def test_a_single_legal_action_is_returned_without_search() -> None:
    game = position({C: ["F F F", "L"]}, hands=["S", "B"], deck="H", current=0)
    search = ISMCTS(seed=0).search(game.view(0))
    assert search.action == Play("S", C) and search.rollouts == (0,) and math.isnan(search.values[0])


def test_no_legal_action_and_wrong_views_are_errors() -> None:
    game = od.Game.new(Rules(), seed=1)
    with pytest.raises(od.IllegalActionError, match="no legal action"):
        ISMCTS(seed=0).choose(game.view(1))
    with pytest.raises(TypeError, match="PlayerView"):
        ISMCTS(seed=0).choose(game)  # type: ignore[arg-type]
    view = game.view(0)
    with pytest.raises(od.InvalidGameStateError, match="unseen cards"):
        ISMCTS(seed=0).choose(attrs.evolve(view, deck_size=view.deck_size + 1))


# --- reproducibility and information -----------------------------------------------


def test_same_seed_same_choices() -> None:
    view = _advance(od.Game.new(Rules(), seed=5), 10 if JIT else 26).view(0)
    a, b = ISMCTS(seed=42, iterations=ITERATIONS, **FAST), ISMCTS(seed=42, iterations=ITERATIONS, **FAST)
    first = [a.search(view) for _ in range(2)]
    second = [b.search(view) for _ in range(2)]
    assert [(s.action, s.values, s.rollouts) for s in first] == [(s.action, s.values, s.rollouts) for s in second]
    assert first[0].values != first[1].values  # each decision draws fresh deals
    assert ISMCTS(seed=43, iterations=ITERATIONS, **FAST).search(view).values != first[0].values


@pytest.mark.skipif(not JIT, reason="whole games of searches are slow without the JIT")
def test_games_between_seeded_bots_replay_exactly() -> None:
    def play() -> list[od.Action]:
        game = od.Game.new(Rules(players=3), seed=8)
        bots: list[od.bots.Bot] = [ISMCTS(seed=1, iterations=50), od.bots.Greedy(seed=2), ISMCTS(seed=3, iterations=40)]
        actions: list[od.Action] = []
        while not game.is_over:
            seat = game.current_player
            actions.append(bots[seat].choose(game.view(seat)))
            game.apply(actions[-1])
        return actions

    assert play() == play()


def test_no_peeking_choices_depend_on_the_view_only() -> None:
    """Same table and own hand, different hidden cards: equal views, equal searches."""
    armies = {C: ["F F", "H H"], J: ["S", "L"]}
    a = position(armies, hands=["F H S", "L B"], deck="LB SH F H B S")
    b = position(armies, hands=["F H S", "SH F"], deck="B S LB H L B")
    assert a.view(0) == b.view(0)
    assert a.hand(1) != b.hand(1)
    for iterations in (ITERATIONS, 4 * ITERATIONS):
        search_a = ISMCTS(seed=9, iterations=iterations).search(a.view(0))
        search_b = ISMCTS(seed=9, iterations=iterations).search(b.view(0))
        assert (search_a.action, search_a.values, search_a.rollouts) == (search_b.action, search_b.values, search_b.rollouts)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_peeking_in_dealt_games(players: int) -> None:
    """Two decks that differ only in cards seat 0 cannot see: equal views, equal searches."""
    rules = Rules(players=players)
    order = [str(c) for c in rules.cards]
    random.Random(players).shuffle(order)
    mine = {k * players for k in range(5)} | {5 * players}  # seat 0's deal and its first draw
    others = [i for i in range(len(order)) if i not in mine]
    moved = list(order)
    rotated = others[1:] + others[:1]
    for i, j in zip(others, rotated):
        moved[i] = order[j]
    a, b = od.Game.new(rules, deck=order), od.Game.new(rules, deck=moved)
    assert a.view(0) == b.view(0) and a.hand(1) != b.hand(1)
    s_a = ISMCTS(seed=2, iterations=ITERATIONS, **FAST).search(a.view(0))
    s_b = ISMCTS(seed=2, iterations=ITERATIONS, **FAST).search(b.view(0))
    assert (s_a.action, s_a.values, s_a.rollouts) == (s_b.action, s_b.values, s_b.rollouts)


# --- the kernel against Python ------------------------------------------------------


def _python_deal(pool: list[int], state: int) -> tuple[list[int], int]:
    """The reference Fisher-Yates on SplitMix64 (the readable twin of the kernel's shuffle)."""
    deal = list(pool)
    return deal, naive.fisher_yates(deal, state)


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(players=4, auto_claim=True)], ids=["2p", "3p", "4p"])
def test_determinization_is_a_deal_consistent_with_the_view(rules: Rules) -> None:
    game = _advance(od.Game.new(rules, seed=21), 7 * rules.players)
    view = game.view(game.current_player)
    setup = setup_of(view, "greedy")
    n, me = rules.players, view.seat
    for seed in range(5):
        with np.errstate(over="ignore"):
            state = determinize(n, setup.position, np.uint64(seed), np.empty(len(setup.position.pool), np.int64))
        deal, expected_state = _python_deal([int(m) for m in setup.position.pool], seed)
        row = setup.position.dealt.board[0]
        hands: dict[int, list[int]] = {}
        pos = 0
        for q in range(n):
            cards = [(int(row[kernel.HAND + q]) >> (8 * i)) & 255 for i in range(int(row[kernel.HAND_LEN + q]))]
            hands[q] = cards
            if q != me:
                assert cards == deal[pos : pos + view.hand_sizes[q]]  # the shuffled pool, seat by seat
                pos += view.hand_sizes[q]
        pile = [int(m) for m in row[kernel.ORDER : kernel.ORDER + view.deck_size]]
        assert pile == deal[pos:]
        # consistent with the view: own hand as seen, the others' sizes, the unseen multiset
        assert hands[me] == [c.mask for c in view.hand]
        assert [len(hands[q]) for q in range(n)] == list(view.hand_sizes)
        hidden = Counter(m for q in range(n) if q != me for m in hands[q]) + Counter(pile)
        assert hidden == Counter({m: c for m, c in enumerate(view.unseen) if c})
        # the public fields are the start's, and the kernel bots are seeded from what follows the shuffle
        public = np.r_[kernel.ARMY_AT : kernel.HIDDEN, kernel.PLAYS : kernel.ORDER]
        assert (row[public] == setup.position.start.board[0][public]).all()
        s = expected_state
        for q in range(n):
            s, value = splitmix64(s)
            assert int(setup.position.dealt.rng[0, q]) == value
        assert int(state) == s


def _random_tree(data: st.DataObject) -> tuple[_ismcts.Tree, np.ndarray]:
    """A root with up to 12 visited children on random actions, and a random legal mask."""
    actions = data.draw(st.lists(st.integers(0, kernel.NUM_ACTIONS - 1), min_size=0, max_size=12, unique=True))
    tree = _ismcts.new_tree(len(actions) + 2)
    for a in actions:
        c = _ismcts.add_child(tree, 0, a, 0)
        visits = data.draw(st.integers(1, 50))
        tree.nodes[c, _ismcts.VISITS] = visits
        tree.nodes[c, _ismcts.AVAILABLE] = visits + data.draw(st.integers(0, 50))
        tree.reward[c] = data.draw(st.floats(-0.5, 1.0)) * visits
    legal = np.zeros(kernel.NUM_ACTIONS, np.bool_)
    for a in data.draw(st.lists(st.integers(0, kernel.NUM_ACTIONS - 1), max_size=20)) + data.draw(st.lists(st.sampled_from(actions or [0]), max_size=6)):
        legal[a] = True
    return tree, legal


@settings(max_examples=200 if JIT else 40, deadline=None)
@given(data=st.data(), exploration=st.floats(0, 3))
def test_ucb_selection_matches_python(data: st.DataObject, exploration: float) -> None:
    tree, legal = _random_tree(data)
    size = int(tree.size[0])
    children = list(range(size - 1, 0, -1))  # newest first, as the list runs
    before = tree.nodes.copy()
    # the reference: availability first, then UCB1 over the legal children, first best wins
    best, best_score = _ismcts.NONE, -math.inf
    for c in children:
        a = int(before[c, _ismcts.ACTION])
        if legal[a]:
            available = int(before[c, _ismcts.AVAILABLE]) + 1
            visits = int(before[c, _ismcts.VISITS])
            score = tree.reward[c] / visits + exploration * math.sqrt(math.log(available) / visits)
            if score > best_score:
                best, best_score = c, score
    assert _ismcts.select(tree, 0, legal, exploration) == best
    for c in children:
        grew = int(tree.nodes[c, _ismcts.AVAILABLE] - before[c, _ismcts.AVAILABLE])
        assert grew == (1 if legal[int(before[c, _ismcts.ACTION])] else 0)
    assert (tree.nodes[:, _ismcts.VISITS] == before[:, _ismcts.VISITS]).all()


@settings(max_examples=200 if JIT else 40, deadline=None)
@given(data=st.data())
def test_untried_actions_match_python(data: st.DataObject) -> None:
    tree, legal = _random_tree(data)
    tried = {int(tree.nodes[c, _ismcts.ACTION]) for c in range(1, int(tree.size[0]))}
    out = np.empty(kernel.NUM_ACTIONS, np.int64)
    k = _ismcts.untried(tree, 0, legal, out)
    assert out[:k].tolist() == [a for a in range(kernel.NUM_ACTIONS) if legal[a] and a not in tried]


def _priority(s: kernel.State, a: int) -> int:
    """Greedy's order of an action, from the Python engine's army keys."""
    if a == kernel.PASS_ACTION:
        return -1
    if a >= kernel.CLAIM_ACTIONS:
        return 1 << 62
    p, t = int(s.board[0, kernel.CURRENT]), a % 5
    length = int(s.board[0, kernel.ARMY_LEN + t * kernel.SEATS + p])
    word = int(s.board[0, kernel.ARMY_AT + t * kernel.SEATS + p])
    army = [od.Card.from_mask((word >> (8 * i)) & 255) for i in range(length)] + [od.Card.from_mask(a // 5 + 1)]
    return 2 * od.army_key(army) + (length == 3)


_ALL_SYMBOLS = od.Card.from_mask(31)


def _cards(word: int, length: int) -> list[od.Card]:
    return [od.Card.from_mask((word >> (8 * i)) & 255) for i in range(length)]


def _python_planner(cfg: kernel.Config, s: kernel.State) -> int:
    """The planner policy's action for the seat to act in game 0, from the Python engine's army keys
    (the twin of ``_ismcts.planner_action``; it advances the seat's generator the same way)."""
    row = s.board[0]
    p = int(row[kernel.CURRENT])
    first, hand, opens = python_forced(cfg, s)
    if first is not None:
        return first

    def army(t: int, q: int) -> list[od.Card]:
        at = t * kernel.SEATS + q
        return _cards(int(row[kernel.ARMY_AT + at]), int(row[kernel.ARMY_LEN + at]))

    def most(cards: list[od.Card]) -> int:
        return od.army_key(cards + [_ALL_SYMBOLS] * (4 - len(cards)))

    state = int(s.rng[0, p])
    best, top, ties = kernel.PASS_ACTION, None, 0
    for t in opens:
        mine = army(t, p)
        lost = any(
            q != p and int(row[kernel.COMPLETED + t * kernel.SEATS + q]) != kernel.NOT_COMPLETE and od.army_key(army(t, q)) >= most(mine)
            for q in range(cfg.n)
        )
        for m in hand:
            after = mine + [od.Card.from_mask(m)]
            rank = (0, -bin(m).count("1"), 0) if lost else (most(after) - most(mine), od.army_key(after), int(len(after) == 4))
            best, top, ties, state = keep_best(rank, (m - 1) * 5 + t, best, top, ties, state)
    s.rng[0, p] = np.uint64(state)
    return best


def _python_roll_out(cfg: kernel.Config, s: kernel.State, planners: int = -1, odds: bool = False) -> None:
    """The planner (the odds policy if ``odds``) in the seats of the bit mask ``planners`` (every
    seat: -1), the kernel bots in the others."""
    scratch = np.zeros(kernel.SCRATCH, np.int64)
    while not s.board[0, kernel.OVER]:
        if (planners >> int(s.board[0, kernel.CURRENT])) & 1:
            a = python_odds(cfg, s) if odds else _python_planner(cfg, s)
        else:
            a = kernel.bot_action(cfg, s, 0, scratch)
        kernel.apply_action(cfg, s, 0, a, scratch)


@settings(max_examples=40 if JIT else 4, deadline=None)
@given(rules=st.sampled_from(VARIANTS), deal=st.integers(0, 2**64 - 1), plays=st.integers(0, 80), seed=st.integers(0, 2**64 - 1),
       odds=st.booleans())  # fmt: skip
def test_planner_rollouts_match_python(rules: Rules, deal: int, plays: int, seed: int, odds: bool) -> None:
    """The planner's (or the odds policy's) every choice in a whole rollout of a determinized
    position, against its Python twin."""
    game = _advance(od.Game.new(rules, seed=deal), plays if JIT else max(plays, 14 * rules.players), seed=deal % 1000)
    if game.is_over:
        return
    setup = setup_of(game.view(game.current_player), "greedy")
    with np.errstate(over="ignore"):
        determinize(rules.players, setup.position, np.uint64(seed), np.empty(len(setup.position.pool), np.int64))
        twin = kernel.new_state(1, setup.cfg.deck)
        kernel.copy_game(setup.position.dealt, 0, twin, 0)
        mid = kernel.new_state(1, setup.cfg.deck)
        kernel.copy_game(setup.position.dealt, 0, mid, 0)
        tables = _ismcts_model.tables() if odds else _ismcts_model.no_tables()
        first = _ismcts.planned(setup.cfg, mid, int(odds), tables, setup.position.scratch)
        assert first == (python_odds if odds else _python_planner)(setup.cfg, twin) and (mid.rng == twin.rng).all()
        kernel.copy_game(setup.position.dealt, 0, twin, 0)
        planners = (1 << rules.players) - 1 if seed % 2 else 1 << (seed // 2 % rules.players)  # every seat, or one
        _ismcts.roll_out(setup.cfg, setup.position.dealt, planners, int(odds), tables, setup.position.scratch)
        _python_roll_out(setup.cfg, twin, planners, odds)
    assert setup.position.dealt.board[0, kernel.OVER] == 1
    assert (setup.position.dealt.board == twin.board).all() and (setup.position.dealt.rng == twin.rng).all()


def _weighed_rows(work: np.ndarray, board: np.ndarray, p: int) -> list[list[float]]:
    """What the odds policy's working space holds for seat p about the undecided territories: each
    one's ``below`` row and its chance."""
    t_count, rows = kernel.TERRITORIES, []
    for t in range(t_count):
        if board[0, kernel.OWNER + t] == kernel.NOBODY:
            rows.append([*work[_ismcts_model.BELOW + p * t_count + t], work[_ismcts_model.CHANCES + p, t]])
    return rows


@settings(max_examples=25 if JIT else 4, deadline=None)
@given(rules=st.sampled_from(VARIANTS), deals=st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=2, unique=True),
       plays=st.integers(0, 30))  # fmt: skip
def test_odds_working_space_forgets_between_games(rules: Rules, deals: list[int], plays: int) -> None:
    """One working space of the odds policy through two games, ``forget`` between them, each from
    a position ``plays`` moves in (so a territory often holds as many cards in both): every choice
    is a fresh working space's (``odds_action``), and after every call the seat's rows about the
    undecided territories are what a fresh working space computes."""
    tables, scratch = _ismcts_model.tables(), np.zeros(kernel.SCRATCH, np.int64)
    work = _ismcts_model.odds_work()
    with np.errstate(over="ignore"):
        for deal in deals:
            game = _advance(od.Game.new(rules, seed=deal), plays, seed=deal % 1000)
            if game.is_over:
                continue
            setup = setup_of(game.view(game.current_player), "greedy")
            cfg, s = setup.cfg, setup.position.dealt
            determinize(rules.players, setup.position, np.uint64(deal), np.empty(len(setup.position.pool), np.int64))
            fresh = kernel.new_state(1, cfg.deck)
            _ismcts_model.forget(work)
            while not s.board[0, kernel.OVER]:
                kernel.copy_game(s, 0, fresh, 0)
                p = int(s.board[0, kernel.CURRENT])
                a = _ismcts_model.odds_into(cfg, s, tables, scratch, work)
                new = _ismcts_model.odds_work()
                assert a == _ismcts_model.odds_into(cfg, fresh, tables, scratch, new) and (s.rng == fresh.rng).all()
                if a < kernel.CLAIM_ACTIONS:  # a play: the territories were weighed
                    assert _weighed_rows(work, s.board, p) == _weighed_rows(new, s.board, p)
                kernel.apply_action(cfg, s, 0, a, scratch)


@pytest.mark.parametrize("planner", ["potential", "odds"])
@pytest.mark.parametrize("rules", VARIANTS[:: 1 if JIT else 6], ids=IDS[:: 1 if JIT else 6])
def test_planner_rollouts_play_only_legal_actions(rules: Rules, planner: str) -> None:
    """ISMCTS with the planner's (or the odds policy's) rollouts in every seat, every variant: legal choices only."""
    game = _advance(od.Game.new(rules, seed=5), 0 if JIT else 14 * rules.players)
    bots = [ISMCTS(seed=seat, iterations=ITERATIONS, rollout_policy="planner", planner=planner, **FAST)  # type: ignore[arg-type]
            for seat in range(rules.players)]  # fmt: skip
    for _ in range(8 if JIT else 2):
        if game.is_over:
            break
        view = game.view(game.current_player)
        action = bots[view.seat].choose(view)
        assert action in view.legal_actions
        game.apply(action)


class Reference:
    """SO-ISMCTS with the tree as dicts keyed by action histories, in plain Python.

    The rules steps come from the kernel (held to ``Game`` by the simulator's
    tests); the tree, the choices, the priorities and the rewards are plain Python.
    """

    def __init__(
        self, view: od.PlayerView, seed: int, exploration: float, widening: float, margin_weight: float, modelled: bool,
        planners: int = 0, claim_first: bool = False, odds: bool = False,
    ) -> None:
        self.setup = setup_of(view, "greedy")
        self.modelled, self.planners, self.claim_first, self.odds = modelled, planners, claim_first, odds
        self.n = view.rules.players
        self.seed, self.exploration, self.widening, self.margin_weight = seed, exploration, widening, margin_weight
        self.max_score = (3 if view.rules.scoring == "points" else 1) * 5
        self.stats: dict[tuple[int, ...], list[float]] = {(): [0, 0, 0.0, -1]}  # history -> [visits, available, reward, player]
        self.kids: dict[tuple[int, ...], list[int]] = {}  # history -> actions in the order their children were made
        self.legal = np.zeros(kernel.NUM_ACTIONS, np.bool_)

    def deal(self, j: int) -> int:
        state, _ = splitmix64(self.seed ^ (j * _GAMMA & _MASK64))
        s = self.setup
        with np.errstate(over="ignore"):
            return int(determinize(self.n, s.position, np.uint64(state), np.empty(len(s.position.pool), np.int64)))

    def descend(self, s: kernel.State, history: tuple[int, ...], state: int) -> list[tuple[int, ...]]:
        path = []
        cfg, scratch = self.setup.cfg, self.setup.position.scratch
        while not s.board[0, kernel.OVER]:
            p = int(s.board[0, kernel.CURRENT])
            if self.claim_first:
                kernel.legal_mask(cfg, s, 0, self.legal, scratch)
                claims = [a for a in range(kernel.CLAIM_ACTIONS, kernel.PASS_ACTION) if self.legal[a]]
                if claims:
                    with np.errstate(over="ignore"):
                        kernel.apply_action(cfg, s, 0, claims[0], scratch)
                    continue
            if self.modelled and p != self.setup.position.me:
                with np.errstate(over="ignore"):
                    if (self.planners >> p) & 1:
                        a = python_odds(cfg, s) if self.odds else _python_planner(cfg, s)
                    else:
                        a = kernel.bot_action(cfg, s, 0, scratch)
                    kernel.apply_action(cfg, s, 0, a, scratch)
                continue
            kernel.legal_mask(cfg, s, 0, self.legal, scratch)
            moves = [a for a in range(kernel.NUM_ACTIONS) if self.legal[a]]
            made = self.kids.setdefault(history, [])
            for a in made:
                if self.legal[a]:
                    self.stats[history + (a,)][1] += 1
            fresh = [a for a in moves if a not in made]
            expanded = bool(fresh) and len(moves) - len(fresh) < 1 + self.widening * math.sqrt(self.stats[history][0])
            if expanded:
                top = max(_priority(s, a) for a in fresh)
                a, ties = -1, 0
                for b in fresh:
                    if _priority(s, b) == top:
                        ties += 1
                        if ties > 1:
                            state, r = splitmix64(state)
                        if ties == 1 or bounded(r, ties) == 0:
                            a = b
                made.append(a)
                self.stats[history + (a,)] = [0, 1, 0.0, int(s.board[0, kernel.CURRENT])]
            else:
                def ucb(b: int) -> float:
                    v, avail, reward, _ = self.stats[history + (b,)]
                    return reward / v + self.exploration * math.sqrt(math.log(avail) / v)

                a = max((b for b in reversed(made) if self.legal[b]), key=ucb)  # max keeps the first best
            with np.errstate(over="ignore"):
                kernel.apply_action(cfg, s, 0, a, scratch)
            history += (a,)
            path.append(history)
            if expanded:
                break
        return path

    def finish(self, s: kernel.State, path: list[tuple[int, ...]]) -> None:
        scores = np.zeros(self.n, np.int64)
        with np.errstate(over="ignore"):
            if self.planners:
                _python_roll_out(self.setup.cfg, s, self.planners, self.odds)
            else:
                kernel.play_out(self.setup.cfg, s, 0, -1, np.zeros((1, 3), np.int64), False, self.setup.position.scratch)
            winner = kernel.outcome(self.setup.cfg, s, 0, scores, self.setup.position.scratch)
        self.stats[()][0] += 1
        for h in path:
            p = int(self.stats[h][3])
            best_other = max([int(scores[q]) for q in range(self.n) if q != p] + [0])
            self.stats[h][0] += 1
            self.stats[h][2] += (1.0 if winner == p else 0.0) + self.margin_weight * (int(scores[p]) - best_other) / self.max_score

    def ucb_root(self, iterations: int) -> None:
        for j in range(iterations):
            state = self.deal(j)
            self.finish(self.setup.position.dealt, self.descend(self.setup.position.dealt, (), state))

    def halving(self, actions: list[int], budget: int) -> int:
        cfg, s = self.setup.cfg, self.setup.position
        self.kids[()] = list(actions)
        for a in actions:
            self.stats[(a,)] = [0, 0, 0.0, s.me]
        mean = lambda a: self.stats[(a,)][2] / self.stats[(a,)][0]  # noqa: E731
        survivors = list(actions)
        rounds = math.ceil(math.log2(len(actions)))
        j = 0
        for _ in range(rounds):
            for _ in range(max(1, budget // (len(survivors) * rounds))):
                state = self.deal(j)
                j += 1
                for i, a in enumerate(survivors):
                    kernel.copy_game(s.dealt, 0, s.work, 0)
                    with np.errstate(over="ignore"):
                        kernel.apply_action(cfg, s.work, 0, a, s.scratch)
                    self.stats[(a,)][1] += 1
                    ties, _ = splitmix64(state ^ ((i + 1) * 0xD1B54A32D192ED03 & _MASK64))
                    self.finish(s.work, [(a,)] + self.descend(s.work, (a,), ties))
            survivors.sort(key=lambda a: (-mean(a), actions.index(a)))
            survivors = survivors[: max(1, (len(survivors) + 1) // 2)]
        return min(survivors, key=lambda a: (-mean(a), actions.index(a)))

    def root(self) -> dict[int, tuple[int, float]]:
        """Each root action's (visits, reward sum)."""
        return {h[0]: (int(v[0]), v[2]) for h, v in self.stats.items() if len(h) == 1}


@pytest.mark.parametrize(
    ("root", "opponents", "policy", "claims"),
    [("halving", "searched", "greedy", "searched"), ("ucb", "searched", "greedy", "searched"),
     ("halving", "modelled", "greedy", "searched"), ("halving", "searched", "planner", "searched"),
     ("ucb", "modelled", "planner", "searched"), ("halving", "searched", "mixed", "first"),
     ("ucb", "modelled", "mixed", "first"), ("halving", "searched", "odds-mixed", "first"),
     ("ucb", "modelled", "odds", "searched")],
)  # fmt: skip
@pytest.mark.parametrize(
    ("rules", "plays", "plays_without_jit"),
    [(Rules(), 6, 24), (Rules(players=3, auto_claim=True), 30, 40), (Rules(scoring="points", players=4), 50, 60)],
    ids=["2p", "3p-auto", "4p-points"],
)
def test_whole_search_matches_the_python_reference(
    rules: Rules, plays: int, plays_without_jit: int, root: str, opponents: str, policy: str, claims: str
) -> None:
    game = _advance(od.Game.new(rules, seed=31), plays if JIT else plays_without_jit)
    assert not game.is_over
    view = game.view(game.current_player)
    iterations = 150 if JIT else 12
    odds = policy.startswith("odds")
    policy = {"odds": "planner", "odds-mixed": "mixed"}.get(policy, policy)
    bot = ISMCTS(seed=77, iterations=iterations, exploration=0.9, widening=0.7, margin_weight=0.2, root=root, opponents=opponents, rollout_policy=policy, claims=claims, planner="odds" if odds else "potential")  # type: ignore[arg-type]
    _, decision_seed = splitmix64(77)
    search = bot.search(view)
    n, me = rules.players, view.seat
    planners = {"planner": (1 << n) - 1, "mixed": 1 << me}.get(policy, 0)
    claim_first = claims == "first" and n == 2
    if claim_first and any(isinstance(a, Claim) for a in view.legal_actions):
        assert search.action == next(a for a in view.legal_actions if isinstance(a, Claim)) and sum(search.rollouts) == 0
        return
    reference = Reference(view, decision_seed, 0.9, 0.7, 0.2, opponents == "modelled", planners, claim_first, odds)
    with np.errstate(over="ignore"):  # without the JIT the kernel's 64-bit words wrap on NumPy scalars
        if root == "ucb":
            reference.ucb_root(iterations)
        else:
            chosen = reference.halving([action_code(a) for a in view.legal_actions], iterations)
            assert action_code(search.action) == chosen
    expected = reference.root()
    got = {action_code(a): (v, r * v if v else 0.0) for a, v, r in zip(search.actions, search.rollouts, search.values)}
    assert {a: v for a, (v, _) in got.items() if v} == {a: v for a, (v, _) in expected.items() if v}
    for a, (v, total) in expected.items():
        assert got[a][1] == pytest.approx(total, abs=1e-9)
    assert sum(search.rollouts) == reference.stats[()][0]


def test_the_tree_keeps_its_invariants() -> None:
    """Visits add up, availability is at least the visits, the arrays grow under a time limit."""
    view = _advance(od.Game.new(Rules(players=3), seed=4), 9).view(0)
    setup = setup_of(view, "greedy")
    tree = _ismcts.new_tree(8)
    knobs = _ismcts.Knobs(exploration=0.7, widening=1.0, margin_weight=0.1, max_score=5, me=-1, planner=0, claim_first=False)
    done = 0
    iterations = 300 if JIT else 20
    with np.errstate(over="ignore"):
        while done < iterations:
            if tree.nodes.shape[0] - int(tree.size[0]) < 16:
                tree = _ismcts.grown(tree, 2 * tree.nodes.shape[0])
            done += _ismcts.iterate(setup.cfg, setup.position, tree, done, min(16, iterations - done), np.uint64(5), knobs)
    size = int(tree.size[0])
    nodes = tree.nodes[:size]
    assert nodes[0, _ismcts.VISITS] == iterations and size == iterations + 1  # one node per iteration (a long game)
    child_visits = np.zeros(size, np.int64)
    for c in range(1, size):
        child_visits[nodes[c, _ismcts.PARENT]] += nodes[c, _ismcts.VISITS]
        assert 1 <= nodes[c, _ismcts.VISITS] <= nodes[c, _ismcts.AVAILABLE]
    assert child_visits[0] == iterations
    assert (child_visits <= nodes[:, _ismcts.VISITS]).all()


def test_time_limit_stops_the_search() -> None:
    view = od.Game.new(Rules(), seed=4).view(0)
    k = len(view.legal_actions)
    search = ISMCTS(seed=0, time_limit=1e-9, root="ucb").search(view)
    assert search.action in view.legal_actions
    assert sum(search.rollouts) == _ismcts.BATCH  # one batch, then the clock says stop
    search = ISMCTS(seed=0, time_limit=1e-9).search(view)
    assert sum(search.rollouts) == k  # one deal through every action, then the clock says stop


def test_a_time_limit_is_shared_out_as_montecarlo_shares_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With deals that take 10 us through each action on a fake clock, a 50 ms search spends
    about 97% of it (4,850 iterations) in chunks, numbering its deals on across rounds."""
    now = [0.0]
    calls: list[tuple[int, int]] = []

    def iterate_halving(cfg: Any, pos: Any, tree: _ismcts.Tree, roots: Any, first: int, count: int, seed: Any,
                        knobs: Any) -> int:
        calls.append((first, count))
        tree.nodes[roots, _ismcts.VISITS] += count
        tree.reward[roots] += count * (roots == 3)  # the third legal action (node 3) wins every deal
        now[0] += count * len(roots) * 1e-5
        return count

    monkeypatch.setattr(clock, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(_ismcts, "iterate_halving", iterate_halving)
    view = od.Game.new(Rules(), seed=4).view(0)
    bot = ISMCTS(seed=3, time_limit=0.05)
    bot.warm_up(view)  # the warm-up's deals (if this process has not searched yet) are not the decision's
    calls.clear()
    search = bot.search(view)
    assert search.action == view.legal_actions[2]
    assert 0.9 * 4850 <= sum(search.rollouts) <= 4850 and search.seconds <= 0.97 * 0.05
    rounds = math.ceil(math.log2(len(view.legal_actions)))
    assert len(calls) > 2 * rounds
    for previous, call in zip(calls, calls[1:]):
        assert call[0] == previous[0] + previous[1]


def test_random_rollouts_are_available() -> None:
    view = od.Game.new(Rules(), seed=4).view(0)
    assert ISMCTS(seed=0, iterations=ITERATIONS, rollout_policy="random").choose(view) in view.legal_actions


# --- arguments, pickling, repr -------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": True}, "seed"),
        ({"iterations": 0}, "iterations must be a positive int of at most 10,000,000 or None, got 0"),
        ({"iterations": True}, "iterations must be a positive int"),
        ({"iterations": 2.0}, "iterations must be a positive int"),
        ({"iterations": 10**8}, "iterations must be a positive int of at most 10,000,000"),
        ({"time_limit": 0}, "time_limit must be a positive number of seconds or None, got 0"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"time_limit": math.inf}, "time_limit"),
        ({"time_limit": math.nan}, "time_limit"),
        ({"time_limit": "1"}, "time_limit"),
        ({"exploration": -0.1}, "exploration must be a number in 0..100, got -0.1"),
        ({"exploration": math.nan}, "exploration"),
        ({"rollout_policy": "smart"}, "rollout_policy must be 'greedy', 'random', 'planner' or 'mixed', got 'smart'"),
        ({"margin_weight": 2}, "margin_weight must be a number in 0..1, got 2"),
        ({"widening": 0}, "widening must be a positive number"),
        ({"widening": "wide"}, "widening"),
        ({"root": "flat"}, "root must be 'halving' or 'ucb', got 'flat'"),
        ({"opponents": "greedy"}, "opponents must be 'searched' or 'modelled', got 'greedy'"),
        ({"claims": "never"}, "claims must be 'searched' or 'first', got 'never'"),
        ({"planner": "wise"}, "planner must be 'potential' or 'odds', got 'wise'"),
    ],
)
def test_bad_parameters(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(od.OrdonnanceError, match=message.replace(".", r"\.")):
        ISMCTS(**kwargs)  # type: ignore[arg-type]


def test_repr_seed_and_protocol() -> None:
    assert repr(ISMCTS(seed=5)) == "bots.ISMCTS(seed=5)"
    assert repr(ISMCTS(seed=5, iterations=300, time_limit=0.05)) == "bots.ISMCTS(seed=5, iterations=300, time_limit=0.05)"
    assert repr(ISMCTS(seed=1, exploration=1.5, rollout_policy="random", margin_weight=0.0)) == (
        "bots.ISMCTS(seed=1, exploration=1.5, rollout_policy='random', margin_weight=0.0)"
    )
    assert repr(ISMCTS(seed=1, rollout_policy="planner", claims="first", planner="odds")) == "bots.ISMCTS(seed=1)"  # the defaults
    assert repr(ISMCTS(seed=1, rollout_policy="mixed", planner="potential")) == (
        "bots.ISMCTS(seed=1, rollout_policy='mixed', planner='potential')"
    )
    assert repr(ISMCTS(seed=1, rollout_policy="greedy", claims="searched")) == (
        "bots.ISMCTS(seed=1, rollout_policy='greedy', claims='searched')"
    )
    assert repr(ISMCTS(seed=2, widening=math.inf, root="ucb", opponents="modelled", claims="searched")) == (
        "bots.ISMCTS(seed=2, widening=inf, root='ucb', opponents='modelled', claims='searched')"
    )
    assert isinstance(ISMCTS().seed, int)
    assert isinstance(ISMCTS(seed=0), od.bots.Bot)
    assert od.bots.ISMCTS is ISMCTS
    assert ISMCTS(seed=0).budget() == _ismcts.DEFAULT_ITERATIONS
    assert ISMCTS(seed=0, time_limit=1.0).budget() == _ismcts.MAX_ITERATIONS


def test_pickles_with_its_stream() -> None:
    view = _advance(od.Game.new(Rules(), seed=6), 4).view(0)
    bot = ISMCTS(seed=3, iterations=ITERATIONS, exploration=1.1)
    bot.choose(view)
    copy = pickle.loads(pickle.dumps(bot))
    assert repr(copy) == repr(bot)
    assert copy.search(view).values == bot.search(view).values


def test_simulate_and_tournament_play_it() -> None:
    """The Python path of simulate and tournament seed a fresh copy per game, as for the other bots."""
    bots = [ISMCTS(seed=1, iterations=ITERATIONS // 2), od.bots.Greedy(seed=2)]
    games = 2 if JIT else 1
    a = od.simulate(Rules(), games=games, seed=3, players=bots)
    b = od.simulate(Rules(), games=games, seed=3, players=bots)
    assert (a.winner == b.winner).all() and (a.scores == b.scores).all()
    assert a.players[0] == "bots.ISMCTS(seed=1, iterations=%d)" % (ITERATIONS // 2)
    if JIT:
        result = od.tournament(bots, games=4, seed=1, executor="serial")
        assert result.games == 4 and sum(result.win_rate) <= 1


@pytest.mark.skipif(not JIT, reason="needs the JIT")
def test_beats_greedy() -> None:
    """A cheap version of the benchmark: 40 duplicate games at 400 iterations a decision."""
    result = od.tournament({"ismcts": ISMCTS(seed=1, iterations=400), "greedy": od.bots.Greedy(seed=2)},
                           games=40, seed=5, executor="serial")  # fmt: skip
    assert result.win_rate[0] > 0.7
