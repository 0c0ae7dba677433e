"""Hidden-card sampling (PlayerView.sample_game): consistent with the view,
reachable, a working game, and uniform over the deals that fit."""

from __future__ import annotations

import copy
import itertools
import math
import pickle
import random
from collections import Counter
from collections.abc import Callable

import attrs
import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Pass, Rules
from ordonnance.core import rng as _rng
from ordonnance import _sampling as sampling
from ordonnance import _simulator_kernel as kernel
from ordonnance.conformance import check_invariants

from .test_saves import _new
from .test_saves import _rules as every_rules

JIT = not numba.config.DISABLE_JIT
EXAMPLES = 60 if JIT else 10
PER_CELL = 100 if JIT else 20  # samples per possible deal in the chi-square tests
LANCE = (od.Card.parse("L"),)
SMALL_DECK = ("L B S H F LB SH BS LF".split() * 6)[:46]


def _played(rules: Rules, seed: int, steps: int, *, seeded: bool = True, pass_often: bool = False) -> od.Game:
    rng = random.Random(seed)
    game = _new(rules, seed, rng, seeded)
    for _ in range(steps):
        if game.is_over:
            break
        actions = game.legal_actions()
        game.apply(Pass() if pass_often and Pass() in actions else rng.choice(actions))
    return game


def _first(rules: Rules, accept: Callable[[od.Game], bool]) -> od.Game:
    """The first position of random games (passing whenever it may) that ``accept`` likes."""
    for seed in range(300):
        rng = random.Random(seed)
        game = od.Game.new(rules, seed=seed)
        while not game.is_over and not accept(game):
            actions = game.legal_actions()
            game.apply(Pass() if Pass() in actions else rng.choice(actions))
        if accept(game):
            return game
    raise AssertionError("no position found")


def _loads(game: od.Game) -> bool:
    try:
        od.Game.from_json(game.to_json())
    except od.InvalidGameStateError:
        return False
    return True


def _passed_over_with_a_claim(game: od.Game, seat: int) -> bool:
    """Whether a seat (not ``seat``) the turn went past since the last play could claim
    (see sampling.passed_over), written out again: the save checker refuses it too."""
    if game.is_over:
        return False
    over = sampling.passed_over(game._armies, game._completed, game._owner, game._marker, game._current, game._passed)
    return any(q != seat and game._provable_claims(q) for q in over)


def _reachable(game: od.Game, seat: int) -> bool:
    """A position the engine can reach (as far as the hidden hands go): the save loads
    and no seat the turn went past had a claim to make."""
    return _loads(game) and not _passed_over_with_a_claim(game, seat)


# --------------------------------------------------------------------- consistency


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    rules=every_rules(), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120), seeded=st.booleans(),
    pass_often=st.booleans(), sample_seed=st.integers(0, 2**64 - 1),
)  # fmt: skip
def test_every_sample_is_a_reachable_game_with_the_same_view(
    rules: Rules, seed: int, steps: int, seeded: bool, pass_often: bool, sample_seed: int
) -> None:
    game = _played(rules, seed, steps, seeded=seeded, pass_often=pass_often)
    for seat in range(rules.players):
        view = game.view(seat)
        sample = view.sample_game(sample_seed)
        assert sample.view(seat) == view
        assert sample.hand(seat) == game.hand(seat)
        assert sample.seed is None
        assert od.Game.from_json(sample.to_json()) == sample  # a position the engine can reach
        check_invariants(sample)
        assert view.sample_game(sample_seed) == sample  # the seed fixes the deal
        # A working game: it plays on to the end like any other.
        rng = random.Random(seed)
        for _ in range(8):
            if sample.is_over:
                break
            sample.apply(rng.choice(sample.legal_actions()))
        check_invariants(sample, deep=False)


def test_the_view_shows_who_passed_and_the_sample_keeps_it() -> None:
    game = _first(Rules(players=3, claim_proof="private"), lambda g: not g.is_over and g._passed != 0)
    passed = tuple(p for p in range(3) if game._passed >> p & 1)
    for seat in range(3):
        view = game.view(seat)
        assert view.passed == passed
        assert view.sample_game(3)._passed == game._passed


def test_a_sample_changes_only_hidden_cards_and_its_games_are_independent() -> None:
    game = _played(Rules(players=3), 4, 20)
    view = game.view(2)
    first, second = view.sample_game(1), view.sample_game(2)
    assert first != second and first.view(2) == second.view(2) == view
    first.apply(first.legal_actions()[0])
    assert second.view(2) == view and view.sample_game(1).view(2) == view  # nothing shared
    assert game.view(2) == view


def test_deals_differ_between_seeds_and_seats_of_a_seed() -> None:
    game = _played(Rules(players=4), 0, 0)
    deals = {tuple(map(tuple, game.view(s).sample_game(seed)._hands)) for s in range(4) for seed in range(50)}
    assert len(deals) == 200
    # Unseeded samples draw a fresh seed each time.
    assert len({tuple(game.view(0).sample_game()._hands[1]) for _ in range(5)}) > 1


def test_the_view_keeps_its_sampling_state_out_of_equality_repr_and_pickles() -> None:
    view = _played(Rules(), 1, 10).view(0)
    fresh = attrs.evolve(view)
    sample = view.sample_game(5)
    assert view == fresh and hash(view) == hash(fresh) and repr(view) == repr(fresh)
    again = pickle.loads(pickle.dumps(view))
    assert again == view and again.sample_game(5) == sample


# --------------------------------------------------------------------- the stream


def _reference_order(cards: list[int], seed: int, seat: int, attempt: int) -> list[int]:
    """The kernel's shuffle written out on ordonnance.core.rng (plain Python ints)."""
    mask = (1 << 64) - 1
    _, state = _rng.splitmix64(seed)
    _, state = _rng.splitmix64((state + (seat + 1) * int(kernel._SEAT_GAMMA)) & mask)
    _, state = _rng.splitmix64((state + attempt * int(sampling._ATTEMPT_GAMMA) + int(sampling._SAMPLE_TAG)) & mask)
    items = list(cards)
    _rng.shuffle(items, state)
    return items


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    cards=st.lists(st.integers(1, 31), max_size=60), seed=st.integers(0, 2**64 - 1),
    seat=st.integers(0, 3), attempt=st.integers(0, sampling.MAX_ATTEMPTS - 1),
)  # fmt: skip
def test_the_kernel_shuffle_is_its_python_twin(cards: list[int], seed: int, seat: int, attempt: int) -> None:
    array = np.array(cards, dtype=np.int64)
    if JIT:
        got = sampling._shuffle_unseen(array, seed - (1 << 64) if seed >= 1 << 63 else seed, seat, attempt)
    else:
        with np.errstate(over="ignore"):
            got = sampling._shuffle_unseen(array, np.uint64(seed), seat, attempt)
    assert got.tolist() == _reference_order(cards, seed, seat, attempt)


def test_game_new_and_a_sample_of_the_same_seed_do_not_share_a_stream() -> None:
    cards = list(range(40))
    order = cards[:]
    _rng.shuffle(order, 7)
    assert _reference_order(cards, 7, 0, 0) != order


# --------------------------------------------------------------------- uniformity


def _chi_square_p(counts: list[int], expected: float) -> float:
    """Upper tail of Pearson's statistic (Wilson-Hilferty's normal approximation, fine for many cells)."""
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    df = len(counts) - 1
    z = ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _first_position(rules: Rules, seed: int, plays: int, seat: int) -> od.PlayerView:
    rng = random.Random(seed)
    game = od.Game.new(rules, seed=seed)
    while game.plays < plays:
        game.apply(rng.choice(game.legal_actions()))
    return game.view(seat)


def _deal_of(game: od.Game, seat: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(hand) for q, hand in enumerate(game._hands) if q != seat) + (tuple(game._deck),)


@pytest.mark.parametrize(
    ("rules", "seed", "plays", "seat", "deals", "fitting"),
    [
        (Rules(deck=SMALL_DECK), 0, 33, 1, 630, 630),
        (Rules(deck=SMALL_DECK, claim_proof="private", auto_claim=True), 2, 34, 0, 60, 50),
        (Rules(deck=SMALL_DECK, claim_proof="private"), 170, 34, 0, 180, 120),
    ],
    ids=["public", "private-auto_claim", "private"],
)
def test_sampled_deals_are_uniform_over_the_reachable_ones(
    rules: Rules, seed: int, plays: int, seat: int, deals: int, fitting: int
) -> None:
    """Every deal of the unseen cards (each hand and the pile in order) is listed;
    the reachable ones are those ``Game.from_json`` loads and that give no seat the
    turn went past a claim to make; a chi-square test of
    the samples against the uniform distribution over them, at the 1e-4 level
    (seeds fixed: the test gives the same answer every run)."""
    view = _first_position(rules, seed, plays, seat)
    deal = sampling.Deal(view)
    every = {order: deal.game(list(order)) for order in set(itertools.permutations(deal._cards.tolist()))}
    reachable = {_deal_of(game, seat) for game in every.values() if _reachable(game, seat)}
    # The position is as small as meant, and private proof refuses some deals.
    assert (len(every), len(reachable)) == (deals, fitting)
    counts: Counter[tuple[tuple[int, ...], ...]] = Counter(
        _deal_of(view.sample_game(s), seat) for s in range(PER_CELL * fitting)
    )
    assert set(counts) <= reachable
    p = _chi_square_p([counts[d] for d in reachable], PER_CELL)
    assert p > 1e-4, f"chi-square p-value {p:.2g}"


def test_the_fast_check_is_the_save_checker_on_raw_deals() -> None:
    """``hands_fit`` (the rejection test) agrees with ``Game.from_json``, plus the
    passed-over rule, on raw, unfiltered deals of private-proof positions."""
    checked = refused = 0
    shuffler = random.Random(0)
    cases = [
        (Rules(deck=SMALL_DECK, claim_proof="private", auto_claim=True), [2, 3]),
        (Rules(deck=SMALL_DECK, claim_proof="private"), [170, 171]),
        (Rules(players=3, claim_proof="private", auto_claim=True), [0]),
    ]
    for rules, seeds in cases:
        for seed in seeds if JIT else seeds[:1]:
            rng = random.Random(seed)
            game = od.Game.new(rules, seed=seed)
            while not game.is_over:
                for seat in range(rules.players) if game.plays >= 28 else (shuffler.randrange(rules.players),):
                    deal = sampling.Deal(game.view(seat))
                    for _ in range(8 if game.plays >= 28 else 1):
                        order = deal._cards.tolist()
                        shuffler.shuffle(order)
                        raw = deal.game(order)
                        fits = sampling.hands_fit(raw, seat)
                        assert fits == _reachable(raw, seat)
                        checked += 1
                        refused += not fits
                game.apply(rng.choice(game.legal_actions()))
    assert checked > 100 and refused > 0


# --------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("seed", "error", "match"),
    [
        (-1, od.InvalidSeedError, "got -1"),
        (2**64, od.InvalidSeedError, "got 18446744073709551616"),
        (1.5, od.OrdonnanceTypeError, "got 1.5"),
        ("3", od.OrdonnanceTypeError, "got '3'"),
        (True, od.OrdonnanceTypeError, "got True"),
    ],
)
def test_bad_seeds_are_refused(seed: object, error: type[Exception], match: str) -> None:
    view = od.Game.new(Rules(), seed=1).view(0)
    with pytest.raises(error, match=match):
        view.sample_game(seed)  # type: ignore[arg-type]


def test_numpy_seeds_are_taken() -> None:
    view = od.Game.new(Rules(), seed=1).view(0)
    assert view.sample_game(np.uint64(2**64 - 1)) == view.sample_game(2**64 - 1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"deck_size": 40}, "unseen cards"),
        ({"hand_sizes": (9, 5)}, "hand sizes"),
        ({"hand_sizes": (6, 5, 5)}, "hand sizes"),
        ({"unseen": (0,) * 32}, "unseen cards"),
        ({"unseen": (-1,) + (0,) * 31}, "unseen must count"),
        ({"passed": (1, 0)}, "passed must list"),
        ({"passed": (-1,)}, "passed must list"),
        ({"current_player": 2}, "current_player must be"),
        ({"owners": (None,) * 4}, "owners and markers"),
        ({"completed_at": ((None,),) * 5}, "armies and completed_at"),
        ({"hand_sizes": (6, -1)}, "hand sizes"),
        ({"armies": ((LANCE, ()),) + (((), ()),) * 4}, "not the rules' cards"),
    ],
)
def test_views_no_game_can_give_are_refused(change: dict[str, object], match: str) -> None:
    view = od.Game.new(Rules(), seed=1).view(0)
    with pytest.raises(od.InvalidGameStateError, match=match):
        attrs.evolve(view, **change).sample_game(0)  # type: ignore[arg-type]


# --------------------------------------------------------------------- copies


def test_copy_and_deepcopy_are_clones() -> None:
    game = _played(Rules(players=3), 2, 15)
    for copied in (copy.copy(game), copy.deepcopy(game)):
        assert copied == game and copied is not game
        copied.apply(copied.legal_actions()[0])
        assert copied != game
    assert copy.deepcopy([game, game])[0] is not game


def test_a_view_no_deal_fits_is_refused_after_a_bounded_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Private proof, and seat 1 listed as having passed with no complete army: no
    hand lets it have a claim to make, so every deal is refused; the search stops."""
    view = od.Game.new(Rules(claim_proof="private"), seed=1).view(0)
    monkeypatch.setattr(sampling, "MAX_ATTEMPTS", 50)
    with pytest.raises(od.InvalidGameStateError, match="no deal of the unseen cards in 50 tries"):
        attrs.evolve(view, passed=(1,)).sample_game(0)


def test_the_real_deal_always_fits() -> None:
    """No rule of the rejection test refuses what the engine really reached: every
    position (with frequent passes) of random private-proof games, from every seat."""
    checked = 0
    for players, auto in itertools.product((2, 3, 4), (False, True)):
        rules = Rules(players=players, claim_proof="private", auto_claim=auto)
        for seed in range(8 if JIT else 2):
            rng = random.Random(seed)
            game = od.Game.new(rules, seed=seed)
            while True:
                for seat in range(players):
                    assert sampling.hands_fit(game, seat)
                    checked += 1
                if game.is_over:
                    break
                actions = game.legal_actions()
                game.apply(Pass() if Pass() in actions and rng.random() < 0.5 else rng.choice(actions))
    assert checked > 1000


def test_no_sample_gives_a_seat_the_turn_went_past_a_claim_to_make() -> None:
    """A position where some deals give seat 0, which the turn went past, a claim to
    make: the engine would have stopped there, so the save checker refuses those
    deals, and the samples never give one."""
    view = _first_position(Rules(claim_proof="private"), 61, 38, 1)
    deal = sampling.Deal(view)
    shuffler = random.Random(0)
    passed_over_with_a_claim = 0
    for _ in range(300):
        order = deal._cards.tolist()
        shuffler.shuffle(order)
        raw = deal.game(order)
        if _passed_over_with_a_claim(raw, 1):
            passed_over_with_a_claim += 1
            assert not _loads(raw)
    assert passed_over_with_a_claim > 0  # the position is one the test is about
    for s in range(100 if JIT else 10):
        sample = view.sample_game(s)
        assert _loads(sample) and not _passed_over_with_a_claim(sample, 1)
