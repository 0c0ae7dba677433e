"""The strongest army a partial army can still become: the "provably unbeatable" check.

An army with ``k`` cards missing can be completed with any ``k`` cards of a
pool (a multiset of cards). :func:`best_completion_key` is the strongest key
any such completion reaches, :func:`best_completion` also says which cards
reach it, and :func:`can_beat` looks for any completion at or above a
threshold, which is what an early claim must rule out
(:ref:`rules-deciding-a-territory`): an opponent who would complete after the claimant needs
``threshold = claimant_key + 1``, one who could win ties needs
``threshold = claimant_key``.

>>> from ordonnance.army import army_key
>>> pool = ["F", "F", "F", "LB", "S"]
>>> best_completion_key(["F"], pool) == army_key(["F", "F", "F", "F"])
True
>>> best_completion(["F", "F"], pool)
Completion(key=3145728, cards=(Card.parse('F'), Card.parse('F')))
>>> can_beat(["L", "B"], pool, army_key(["F", "F", "F", "F"])) is None
True

Pools are iterables of cards (Cards, int masks or strings) or mappings from
card to number of copies, such as a :class:`collections.Counter`.

The search is a branch and bound in a numba kernel
(:mod:`ordonnance._completion_kernel`). Like the army evaluator it is
compiled on first use and cached on disk (``cache=True``): the first call
after installing compiles for a few seconds, later processes load the
machine code in a fraction of a second. A warm call takes microseconds,
validation included, even for an empty army against two whole decks.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Union

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance import _completion_kernel
from ordonnance._entry import int_entry
from ordonnance.army import ARMY_SIZE, KEY_BITS, army_masks
from ordonnance.cards import MAX_DECK_SIZE, MAX_MASK, Card, CardLike, to_mask
from ordonnance.core.checks import shown
from ordonnance.errors import (
    InvalidCardError,
    InvalidDeckError,
    OrdonnanceTypeError,
)

__all__ = [
    "Completion",
    "PoolLike",
    "best_completion",
    "best_completion_key",
    "can_beat",
    "pool_counts",
]

#: A pool of cards: an iterable of cards (a multiset) or a mapping card -> copies.
PoolLike = Union[Iterable[CardLike], Mapping[CardLike, int]]

#: Copies above this never matter: at most this many cards are ever added.
_MAX_USEFUL_COPIES = ARMY_SIZE
#: Keys are below this (``2 ** KEY_BITS``); thresholds are clamped into 0..this.
_KEY_LIMIT = 1 << KEY_BITS
_CARD_OF_MASK = {mask: Card.from_mask(mask) for mask in range(1, MAX_MASK + 1)}


@attrs.frozen
class Completion:
    """A way to complete a partial army: the cards to add and the key reached.

    >>> Completion(key=3145728, cards=(Card.parse("F"),) * 2).cards
    (Card.parse('F'), Card.parse('F'))
    """

    key: int
    """The strength key of the partial army with :attr:`cards` added."""
    cards: tuple[Card, ...]
    """The added cards, strongest first (most symbols, then highest mask)."""


def pool_counts(pool: PoolLike) -> npt.NDArray[np.int64]:
    """Validate a pool into copies by card mask: an ``int64`` array of shape ``(32,)``.

    ``pool`` is an iterable of cards (Cards, masks or strings; repeats are
    copies) or a mapping from card to a non-negative int number of copies.
    Copies beyond 4 are counted as 4, since no completion adds more cards. An iterable
    holds at most :data:`~ordonnance.cards.MAX_DECK_SIZE` cards (it is read no further).

    >>> pool_counts(["SH", "SH", 1]).nonzero()
    (array([ 1, 12]),)
    >>> int(pool_counts({"F": 10**30})[16])
    4
    """
    if isinstance(pool, Mapping):
        return _counts_of_mapping(pool)
    if isinstance(pool, (str, bytes, Card)) or not isinstance(pool, Iterable):
        raise OrdonnanceTypeError(
            "a pool is an iterable of cards or a mapping card -> copies, "
            f"not {type(pool).__name__}: {shown(pool)}"
        )
    cards = pool if isinstance(pool, (list, tuple)) else list(itertools.islice(pool, MAX_DECK_SIZE + 1))
    if len(cards) > MAX_DECK_SIZE:  # no deck holds more: an endless iterator stops here
        raise InvalidDeckError(f"a pool holds at most {MAX_DECK_SIZE:,} cards (a deck's worth), got more: {shown(pool)}")
    masks = [card.mask for card in cards if type(card) is Card]
    if len(masks) != len(cards):
        masks = [_pool_mask(card, f"pool card at position {i}") for i, card in enumerate(cards)]
    counts = np.bincount(np.array(masks, dtype=np.intp), minlength=MAX_MASK + 1)
    return counts.astype(np.int64, copy=False)


def _counts_of_mapping(pool: Mapping[CardLike, int]) -> npt.NDArray[np.int64]:
    counts = [0] * (MAX_MASK + 1)
    for card, copies in pool.items():
        mask = _pool_mask(card, f"pool card {card!r}")
        if isinstance(copies, bool) or not isinstance(copies, (int, np.integer)) or copies < 0:
            raise InvalidDeckError(
                f"copies of {shown(card)} in a pool must be a non-negative int, got {shown(copies)}"
            )
        counts[mask] = min(counts[mask] + int(copies), _MAX_USEFUL_COPIES)
    return np.array(counts, dtype=np.int64)


def _pool_mask(card: object, where: str) -> int:
    try:
        return to_mask(card)  # type: ignore[arg-type]  # to_mask validates any object
    except (InvalidCardError, OrdonnanceTypeError) as error:
        raise type(error)(f"{where}: {error}") from None


def _threshold(value: object) -> int:
    """A threshold that is not an int in 0..2**24 (can_beat's shortcut), checked and clamped."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise OrdonnanceTypeError(
            f"a threshold must be an int key, not {type(value).__name__}: {shown(value)}"
        )
    return min(max(int(value), 0), _KEY_LIMIT)


def _best_completion_masks(
    partial_masks: Sequence[int], counts: npt.NDArray[np.int64]
) -> tuple[int, tuple[int, ...]] | None:
    """Unchecked fast path of :func:`best_completion`, for the game engine.

    ``partial_masks`` holds 0..4 valid masks (zeros count as empty slots),
    ``counts`` is an ``int64`` array of shape ``(32,)`` of copies by mask
    (non-positive counts are ignored). Returns ``(key, added masks)`` or None
    when the pool holds too few cards. Nothing is validated.
    """
    p = (*partial_masks, 0, 0, 0, 0)
    packed = _best_of_counts(p[0], p[1], p[2], p[3], _int64(counts))
    return None if packed < 0 else _completion_kernel.unpack(packed)


def _can_beat_masks(
    partial_masks: Sequence[int], counts: npt.NDArray[np.int64], threshold: int
) -> tuple[int, tuple[int, ...]] | None:
    """Unchecked fast path of :func:`can_beat`, for the game engine.

    Arguments as for :func:`_best_completion_masks`, plus ``threshold``, an
    int that fits in ``int64``. Returns ``(key, added masks)`` of one
    completion with ``key >= threshold`` (the first found, not the best), or
    None when there is none.
    """
    p = (*partial_masks, 0, 0, 0, 0)
    packed = _beats_of_counts(p[0], p[1], p[2], p[3], _int64(counts), threshold)
    return None if packed < 0 else _completion_kernel.unpack(packed)


_INT64 = np.dtype(np.int64)


def _int64(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``counts`` as the compiled entries read it (they check no type): int64, C-contiguous."""
    if counts.dtype is _INT64 and counts.flags.c_contiguous:
        return counts
    return np.ascontiguousarray(counts, dtype=np.int64)


def _best_of_counts(p0: int, p1: int, p2: int, p3: int, counts: npt.NDArray[np.int64]) -> int:
    """:func:`_completion_kernel.best_completion`, by its compiled entry found on the first call."""
    global _best_of_counts
    _best_of_counts = int_entry(_completion_kernel.best_completion, 0, 0, 0, 0, np.zeros(1, np.int64))
    return _best_of_counts(p0, p1, p2, p3, counts)


def _beats_of_counts(p0: int, p1: int, p2: int, p3: int, counts: npt.NDArray[np.int64], threshold: int) -> int:
    """:func:`_completion_kernel.beats`, by its compiled entry found on the first call."""
    global _beats_of_counts
    _beats_of_counts = int_entry(_completion_kernel.beats, 0, 0, 0, 0, np.zeros(1, np.int64), 0)
    return _beats_of_counts(p0, p1, p2, p3, counts, threshold)


def _pool_bytes(pool: list[object] | tuple[object, ...]) -> bytearray | None:
    """A list or tuple of int masks (or of Cards) as one byte per card, else None.

    ``bytearray()`` checks in one C pass that every item is an integer in
    0..255 (twice as fast as ``bytes()`` here); the kernel then refuses 0 and
    anything above 31. Only a bool passes both and is no card, and it can only
    be a byte 0 or 1: each item at a 1 must be the int 1 itself (CPython's
    shared small int), found by ``list.index`` in C; an item that is not (True,
    a NumPy 1, anything odd) sends the whole pool to :func:`pool_counts`,
    which validates card by card (and refuses bools). None means that.
    """
    if pool and type(pool[0]) is Card:
        masks = [card.mask for card in pool if type(card) is Card]
        return bytearray(masks) if len(masks) == len(pool) else None
    try:
        packed = bytearray(pool)  # type: ignore[arg-type]  # refused below if not ints
        at = -1
        for _ in range(packed.count(1)):
            at = pool.index(1, at + 1)  # ValueError: an odd integer-like object not equal to 1
            if pool[at] is not _ONE:
                return None
    except (TypeError, ValueError):
        return None
    return packed


_ONE = 1


def _search(partial: Iterable[CardLike], pool: PoolLike, threshold: int) -> int:
    """Validate and search: the packed best completion when ``threshold`` is negative,
    else one reaching it (``NONE``, negative, when there is none)."""
    m = [] if type(partial) is list and not partial else army_masks(partial)
    if (type(pool) is list or type(pool) is tuple) and len(pool) <= MAX_DECK_SIZE:
        packed_pool = _pool_bytes(pool)
        if packed_pool is not None:
            army = int.from_bytes(bytes(m), "little") if m else 0  # the army word: a mask per byte
            packed: int = _search_of_bytes(army, packed_pool, threshold)
            if packed != _BAD_POOL:
                return packed
    m += _PADDING[len(m) :]
    counts = pool_counts(pool)  # validates card by card (and explains a refusal)
    if threshold < 0:
        return _best_of_counts(m[0], m[1], m[2], m[3], counts)
    return _beats_of_counts(m[0], m[1], m[2], m[3], counts, threshold)


_PADDING = [0] * ARMY_SIZE
_BAD_POOL = _completion_kernel.BAD_POOL


def _search_of_bytes(army: int, pool: bytearray, threshold: int) -> int:
    """:func:`_completion_kernel.search_of_bytes`, by its compiled entry found on the first call."""
    global _search_of_bytes
    _search_of_bytes = int_entry(_completion_kernel.search_of_bytes, 0, bytearray(1), -1)
    return _search_of_bytes(army, pool, threshold)


def _completion(packed: int) -> Completion | None:
    if packed < 0:
        return None
    key, added = _completion_kernel.unpack(packed)
    return Completion(key=key, cards=tuple(_CARD_OF_MASK[m] for m in added))


def best_completion_key(partial: Iterable[CardLike], pool: PoolLike) -> int | None:
    """The strongest key reachable by adding ``4 - len(partial)`` cards from ``pool``.

    ``partial`` is 0..4 cards (Cards, masks or strings); ``pool`` a multiset
    of cards as an iterable or a mapping card -> copies (see
    :func:`pool_counts`). Returns None when the pool holds fewer cards than
    the army is missing; a complete army's own key when nothing is missing.

    >>> from ordonnance.army import army_key
    >>> best_completion_key(["F", "F"], ["F", "L", "LB"]) == army_key(["F", "F", "F", "LB"])
    True
    >>> best_completion_key(["F", "F"], ["F"]) is None
    True
    """
    packed = _search(partial, pool, -1)
    return None if packed < 0 else packed >> _completion_kernel.KEY_SHIFT


def best_completion(partial: Iterable[CardLike], pool: PoolLike) -> Completion | None:
    """The strongest completion of ``partial`` from ``pool``, or None if it cannot complete.

    Arguments as for :func:`best_completion_key`. Adding ``cards`` of the
    result to ``partial`` gives an army of key ``key``; when several
    completions are equally strong, one of them is returned.

    >>> best_completion(["SH", "S"], {"SH": 3, "LBSHF": 1, "F": 5})
    Completion(key=2369536, cards=(Card.parse('LBSHF'), Card.parse('SH')))
    >>> best_completion(["L", "B", "S", "H"], [])
    Completion(key=0, cards=())
    """
    return _completion(_search(partial, pool, -1))


def can_beat(partial: Iterable[CardLike], pool: PoolLike, threshold: int) -> Completion | None:
    """A completion of ``partial`` from ``pool`` with key ``>= threshold``, or None.

    Arguments as for :func:`best_completion_key`. The search stops at the
    first completion found at or above ``threshold``, which need not be the
    strongest. None means that no completion reaches ``threshold``: for an
    early claim against an opponent who completes later, ``threshold`` is the
    claimant's key + 1.

    >>> from ordonnance.army import army_key
    >>> claimant = army_key(["F", "F", "F", "L"])
    >>> can_beat(["H", "H"], ["H", "H", "L"], claimant + 1)
    Completion(key=2621440, cards=(Card.parse('H'), Card.parse('H')))
    >>> can_beat(["H", "H"], ["H", "L", "B"], claimant + 1) is None
    True
    """
    if type(threshold) is not int or not 0 <= threshold <= _KEY_LIMIT:
        threshold = _threshold(threshold)
    return _completion(_search(partial, pool, threshold))
