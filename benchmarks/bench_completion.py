"""The completion search against brute-force enumeration of the pool.

Worst case: an empty army against the whole standard deck (56 cards) and
against two decks (112 cards), through the public ``best_completion_key``
and through the engine's unchecked ``_best_completion_masks`` (pool counts
ready).

Typical case: 1,000 positions taken from random two-player games (a partial
army of 1 to 3 cards, the pool every card not face up: 17 to 55 cards),
through the public API (validation included) and through the engine's
unchecked ``_best_completion_masks``; also ``_can_beat_masks`` asked to beat
the best key, the answer "no" that a successful claim needs.

Single calls: ``best_completion_key`` and ``can_beat`` on an empty army and
the 56 int masks of a deck, against the kernel called directly (through
numba's dispatcher, the reference), the compiled entry that the public calls
use (the floor for a call that must also validate every mask), and a function
that does nothing timed the same way (the harness's own cost per call, which
every median here includes); the two public calls print their share of the
2 us target. Run with ``--benchmark-timer time.thread_time``.

The alternatives: the pure-Python brute force of the tests (every multiset
of the missing cards, scored by ``tests.naive.strength``), and a NumPy brute
force (every multiset the pool can supply, scored in one ``army_keys`` call).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import ordonnance as od
from ordonnance import _completion_kernel
from ordonnance._entry import compiled_entry
from conftest import items, of_target
from ordonnance.completion import (
    _best_completion_masks,
    _can_beat_masks,
    best_completion_key,
    pool_counts,
)
from tests import naive_completion

POSITIONS = 1000
TERRITORIES = 5
HAND = 5

Position = tuple[list[od.Card], list[od.Card]]


def random_positions(count: int, seed: int = 2026) -> list[Position]:
    """(partial army, pool) pairs met in random two-player games.

    Each turn the player draws (while the deck lasts) and plays a random card
    of their hand into a random territory of theirs holding fewer than 4
    cards. Before a play, with probability 0.3, one army of 1..3 cards
    (either player's) is sampled, with the pool of every card not face up
    (the deck and both hands).
    """
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        deck = list(od.standard_deck())
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(HAND)] for _ in range(2)]
        armies: list[list[list[od.Card]]] = [[[] for _ in range(TERRITORIES)] for _ in range(2)]
        player = 0
        while True:
            open_ts = [t for t in range(TERRITORIES) if len(armies[player][t]) < 4]
            if not open_ts or not hands[player]:
                break
            if deck:
                hands[player].append(deck.pop())
            partials = [a for side in armies for a in side if 1 <= len(a) <= 3]
            if partials and rng.random() < 0.3 and len(found) < count:
                found.append((list(rng.choice(partials)), deck + hands[0] + hands[1]))
            card = hands[player].pop(rng.randrange(len(hands[player])))
            armies[player][rng.choice(open_ts)].append(card)
            player = 1 - player
    return found


def python_brute_force(partial: list[od.Card], pool: list[od.Card]) -> tuple[object, ...] | None:
    """The strongest completion, trying every multiset: the tests' reference."""
    return naive_completion.best_strength([c.mask for c in partial], Counter(c.mask for c in pool))


class NumpyBruteForce:
    """Every multiset of k masks (k = 1..4) precomputed; per call, filter and score."""

    def __init__(self) -> None:
        self.rows: dict[int, npt.NDArray[np.uint8]] = {}
        self.needs: dict[int, npt.NDArray[np.int64]] = {}
        for k in range(1, 5):
            combos = itertools.combinations_with_replacement(range(1, 32), k)
            rows = np.array(list(combos), np.uint8)
            self.rows[k] = rows
            self.needs[k] = np.stack([np.bincount(r, minlength=32) for r in rows])

    def __call__(self, partial: list[od.Card], pool: list[od.Card]) -> int | None:
        masks = [c.mask for c in partial]
        k = 4 - len(masks)
        counts = pool_counts(pool)
        rows = self.rows[k][(self.needs[k] <= counts).all(axis=1)]
        if not len(rows):
            return None
        armies = np.empty((len(rows), 4), np.uint8)
        armies[:, : len(masks)] = masks
        armies[:, len(masks) :] = rows
        return int(od.army_keys(armies).max())


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return random_positions(POSITIONS)


@pytest.fixture(scope="module")
def numpy_brute_force() -> NumpyBruteForce:
    return NumpyBruteForce()


def test_alternatives_agree(positions: list[Position], numpy_brute_force: NumpyBruteForce) -> None:
    assert all(1 <= len(partial) <= 3 for partial, _ in positions)
    for partial, pool in positions[:50]:
        want = numpy_brute_force(partial, pool)
        assert best_completion_key(partial, pool) == want
        masks = [c.mask for c in partial]
        reference = naive_completion.best_completion(masks, Counter(c.mask for c in pool))
        assert reference is not None and od.army_key([*masks, *reference[1]]) == want


# ------------------------------------------------------------- worst case

WORST = {"1 deck": od.standard_deck(1), "2 decks": od.standard_deck(2)}


@pytest.mark.parametrize("decks", sorted(WORST))
def test_worst_case_best_completion_key(benchmark: Any, decks: str) -> None:
    pool = WORST[decks]
    benchmark.group = f"completion, empty army vs {decks}"
    items(benchmark, 1, subject=True)
    best_completion_key([], pool)  # compile or load the kernel first
    benchmark(best_completion_key, [], pool)


@pytest.mark.parametrize("decks", sorted(WORST))
def test_worst_case_kernel_entry(benchmark: Any, decks: str) -> None:
    counts = pool_counts(WORST[decks])
    benchmark.group = f"completion, empty army vs {decks}"
    items(benchmark, 1, subject=True)
    _best_completion_masks([], counts)
    benchmark(_best_completion_masks, [], counts)


@pytest.mark.parametrize("decks", sorted(WORST))
def test_worst_case_numpy_brute_force(
    benchmark: Any, decks: str, numpy_brute_force: NumpyBruteForce
) -> None:
    benchmark.group = f"completion, empty army vs {decks}"
    items(benchmark, 1)
    benchmark.pedantic(numpy_brute_force, args=([], list(WORST[decks])), rounds=20, iterations=1)


@pytest.mark.parametrize("decks", sorted(WORST))
def test_worst_case_python_brute_force(benchmark: Any, decks: str) -> None:
    benchmark.group = f"completion, empty army vs {decks}"
    items(benchmark, 1)
    benchmark.pedantic(python_brute_force, args=([], list(WORST[decks])), rounds=3, iterations=1)


# ----------------------------------------------------------- typical case


def _public_loop(positions: list[Position]) -> None:
    for partial, pool in positions:
        best_completion_key(partial, pool)


@pytest.mark.benchmark(group="completion, 1000 positions from random games")
def test_typical_best_completion_key(benchmark: Any, positions: list[Position]) -> None:
    items(benchmark, len(positions), subject=True)
    _public_loop(positions[:10])
    benchmark(_public_loop, positions)


@pytest.mark.benchmark(group="completion, 1000 positions from random games")
def test_typical_kernel_entry(benchmark: Any, positions: list[Position]) -> None:
    prepared = [([c.mask for c in partial], pool_counts(pool)) for partial, pool in positions]

    def loop() -> None:
        for masks, counts in prepared:
            _best_completion_masks(masks, counts)

    items(benchmark, len(prepared), subject=True)
    loop()
    benchmark(loop)


@pytest.mark.benchmark(group="completion, 1000 positions from random games")
def test_typical_kernel_entry_can_beat_proof(benchmark: Any, positions: list[Position]) -> None:
    """``_can_beat_masks`` at threshold best + 1: a claim that holds, the costliest answer."""
    prepared = []
    for partial, pool in positions:
        masks, counts = [c.mask for c in partial], pool_counts(pool)
        found = _best_completion_masks(masks, counts)
        assert found is not None
        prepared.append((masks, counts, found[0] + 1))

    def loop() -> None:
        for masks, counts, threshold in prepared:
            _can_beat_masks(masks, counts, threshold)

    items(benchmark, len(prepared))
    loop()
    benchmark(loop)


@pytest.mark.benchmark(group="completion, 1000 positions from random games")
def test_typical_numpy_brute_force(
    benchmark: Any, positions: list[Position], numpy_brute_force: NumpyBruteForce
) -> None:
    def loop() -> None:
        for partial, pool in positions:
            numpy_brute_force(partial, pool)

    items(benchmark, len(positions))
    benchmark.pedantic(loop, rounds=3, iterations=1)


@pytest.mark.benchmark(group="completion, 1000 positions from random games")
def test_typical_python_brute_force(benchmark: Any, positions: list[Position]) -> None:
    def loop() -> None:
        for partial, pool in positions:
            python_brute_force(partial, pool)

    items(benchmark, len(positions))
    benchmark.pedantic(loop, rounds=1, iterations=1)


# ------------------------------------------------- single calls on int masks

DECK_MASKS = [card.mask for card in od.standard_deck()]
BEST_KEY = od.army_key([31, 31, 31, 31])  # out of reach (one LBSHF card): can_beat answers "no"


#: Single calls a second on one core (issue 11): 2 us each.
SINGLE_TARGET = 1 / 2e-6
SINGLE = {"rounds": 100, "iterations": 1_000, "warmup_rounds": 3}
SINGLE_GROUP = "completion, one call: empty army vs 56 int masks"


def harness_reference(partial: object, pool: object) -> None:
    """Does nothing: timed the same way as the calls, it is the harness's own cost per call."""


@pytest.mark.benchmark(group=SINGLE_GROUP)
def test_single_best_completion_key_int_masks(benchmark: Any) -> None:
    items(benchmark, 1, subject=True)
    best_completion_key([], DECK_MASKS)
    benchmark.pedantic(best_completion_key, args=([], DECK_MASKS), **SINGLE)
    of_target(benchmark, "best_completion_key([], 56 int masks) (harness included)", SINGLE_TARGET)


@pytest.mark.benchmark(group=SINGLE_GROUP)
def test_single_can_beat_int_masks(benchmark: Any) -> None:
    items(benchmark, 1, subject=True)
    od.can_beat([], DECK_MASKS, BEST_KEY)
    benchmark.pedantic(od.can_beat, args=([], DECK_MASKS, BEST_KEY), **SINGLE)
    of_target(benchmark, "can_beat([], 56 int masks, key) (harness included)", SINGLE_TARGET)


@pytest.mark.benchmark(group=SINGLE_GROUP)
def test_single_harness_reference(benchmark: Any) -> None:
    """A function that does nothing, called as the others are: subtract its median
    from theirs for the cost of the call alone."""
    items(benchmark, 1)
    benchmark.pedantic(harness_reference, args=([], DECK_MASKS), **SINGLE)


@pytest.mark.benchmark(group=SINGLE_GROUP)
def test_single_best_completion_kernel_called_directly(benchmark: Any) -> None:
    """The reference: the kernel through numba's dispatcher, pool counts ready."""
    counts = pool_counts(DECK_MASKS)
    items(benchmark, 1)
    _completion_kernel.best_completion(0, 0, 0, 0, counts)
    benchmark.pedantic(_completion_kernel.best_completion, args=(0, 0, 0, 0, counts), **SINGLE)


@pytest.mark.benchmark(group=SINGLE_GROUP)
def test_single_beats_kernel_called_directly(benchmark: Any) -> None:
    counts = pool_counts(DECK_MASKS)
    items(benchmark, 1)
    _completion_kernel.beats(0, 0, 0, 0, counts, BEST_KEY)
    benchmark.pedantic(_completion_kernel.beats, args=(0, 0, 0, 0, counts, BEST_KEY), **SINGLE)


@pytest.mark.benchmark(group=SINGLE_GROUP)
def test_single_search_of_bytes_compiled_entry(benchmark: Any) -> None:
    """The kernel the public calls run, by its compiled entry as they reach it (no
    numba dispatcher), the bytes ready: the floor for a call that must also
    validate the 56 masks."""
    pool = bytearray(DECK_MASKS)
    entry = compiled_entry(_completion_kernel.search_of_bytes, 0, pool, -1)
    items(benchmark, 1)
    benchmark.pedantic(entry, args=(0, pool, -1), **SINGLE)


@pytest.mark.benchmark(group=SINGLE_GROUP)
def test_single_can_beat_compiled_entry(benchmark: Any) -> None:
    pool = bytearray(DECK_MASKS)
    entry = compiled_entry(_completion_kernel.search_of_bytes, 0, pool, -1)
    items(benchmark, 1)
    benchmark.pedantic(entry, args=(0, pool, BEST_KEY), **SINGLE)
