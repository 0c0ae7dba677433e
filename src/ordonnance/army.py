"""The army evaluator: up to four cards in, one comparable integer key out.

An army is one player's cards in one territory. For each symbol, count the
cards of the army that carry it: on 4 cards it is a **regiment**, on 3 a
**battalion**, on 2 a **company**. Armies compare by the number of regiments,
then the regiments' ranks (strongest first), then battalions likewise, then
companies likewise (:ref:`rules-army-strength`).

The key
-------
:func:`army_key` turns an army into an unsigned integer below ``2**24`` such
that a larger key is a stronger army and equal keys are equally strong. It
is three 8-bit fields, strongest tier highest::

    bit   23..21     20..16      15..13      12..8      7..5      4..0
         #regiments  regiments  #battalions battalions #companies companies

Each tier holds a 5-bit mask of the symbols in that tier (bit ``i`` = the
symbol of rank ``i``, as in a card mask) under the 3-bit count of those
symbols. For two sets of the same size, comparing their masks as integers
is exactly comparing their ranks strongest first, so the integer order of
the keys is the order of the rules (:ref:`rules-army-strength`). :func:`describe` decodes a key.

>>> army_key(["SH", "SH", "LS", "S"])
2359336
>>> describe(army_key(["SH", "SH", "LS", "S"]))
ArmyDescription(regiments=(<Symbol.SWORD: 2>,), battalions=(), companies=(<Symbol.HELMET: 3>,))
>>> str(describe(army_key(["SH", "SH", "LS", "S"])))
'1 regiment (Sword), 1 company (Helmet)'
>>> compare_armies(["F", "F", "L", "B"], ["LBSH", "LBSH", "S", "H"])
-1

Cost of the first call
----------------------
The kernels are compiled by numba on first use and cached on disk
(``cache=True``, in ``__pycache__`` beside this package, or in
``NUMBA_CACHE_DIR``). :func:`army_key` needs none: its tables are built at
import by the kernel's arithmetic run on NumPy arrays. The very first
:func:`army_keys` call after installing compiles the batch kernel: a few
seconds on the 2-core development machine. Every later process loads the
cached machine code in well under a second. Call :func:`warm_up` to pay that
cost at a moment of your choosing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance import _army_kernel
from ordonnance.cards import _TEXT_MASKS, MAX_MASK, Card, CardLike, Symbol, to_mask
from ordonnance.errors import InvalidArmyError, InvalidKeyError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = [
    "ARMY_SIZE",
    "KEY_BITS",
    "ArmyDescription",
    "army_key",
    "army_keys",
    "compare_armies",
    "describe",
    "warm_up",
]

#: The number of cards in a complete army.
ARMY_SIZE = 4
#: Every key is below ``2 ** KEY_BITS``.
KEY_BITS = 24

_TIER_NAMES = (("regiment", "regiments"), ("battalion", "battalions"), ("company", "companies"))
_TIER_SHIFTS = (16, 8, 0)


def army_masks(cards: Iterable[CardLike]) -> list[int]:
    """Validate an army (0..4 cards as Cards, masks or strings) into its masks."""
    if type(cards) is not list and type(cards) is not tuple:
        if isinstance(cards, (str, bytes, Card, Mapping, AbstractSet)) or not isinstance(cards, Iterable):
            raise OrdonnanceTypeError(
                f"an army is a list of up to {ARMY_SIZE} cards, "
                f"not {type(cards).__name__}: {shown(cards)}"
            )
        cards = list(itertools.islice(cards, ARMY_SIZE + 1))  # an endless iterator stops here
    if not cards:
        return []
    if len(cards) > ARMY_SIZE:
        raise InvalidArmyError(
            f"an army holds at most {ARMY_SIZE} cards, got {len(cards)}: {shown(cards)}"
        )
    # The common cases inline, 0 for anything else; to_mask then validates
    # (and explains) every card the fast path did not recognise.
    masks = [
        c.mask
        if type(c) is Card
        else c
        if type(c) is int and 0 < c <= MAX_MASK
        else _TEXT_MASKS.get(c, 0)
        if type(c) is str
        else 0
        for c in cards
    ]
    if 0 in masks:
        return [to_mask(c) for c in cards]
    return masks


# army_key's table: nested lists, one level per card slot, so that a key is four
# list subscripts, _KEYS[a][b][c][d] for the masks of the slots (0 = an empty
# slot). A level's lists depend only on the symbol counts of the slots before
# it, so they are shared: lists are keyed by those counts, a base-4 digit per
# symbol (_SPREAD[m] is the digits of one mask; at most three slots are summed).
# The keys are computed at import by the kernel's own word_key run on NumPy
# arrays (no compilation).
_SPREAD = np.array([sum(4**rank for rank in range(5) if mask >> rank & 1) for mask in range(MAX_MASK + 1)])


def _key_table() -> list[Any]:
    masks = np.arange(MAX_MASK + 1)
    a, b, c = (m.reshape(-1) for m in np.meshgrid(masks, masks, masks, indexing="ij"))
    # Every symbol-count state of three slots, with one army word reaching it.
    states, first = np.unique(_SPREAD[a] + _SPREAD[b] + _SPREAD[c], return_index=True)
    words = (a | b << 8 | c << 16)[first, None].astype(np.uint32) | masks.astype(np.uint32) << np.uint32(24)
    word_key: Callable[[npt.NDArray[np.uint32]], npt.NDArray[np.uint32]]
    word_key = getattr(_army_kernel.word_key, "py_func", None) or _army_kernel.word_key  # type: ignore[assignment]
    distinct, index = np.unique(word_key(words), return_inverse=True)
    keys = list(map(distinct.tolist().__getitem__, index.reshape(-1).tolist()))  # one int object per distinct key
    row = len(masks)
    level = {state: keys[i * row : (i + 1) * row] for i, state in enumerate(states.tolist())}
    for slots in (2, 1, 0):
        prefix = np.unique(sum((_SPREAD[m] for m in (a, b, c)[:slots]), np.zeros_like(a))).tolist()
        level = {state: [level[state + spread] for spread in _SPREAD.tolist()] for state in prefix}
    return level[0]


_KEYS = _key_table()
# _CARD_INT[x] is x exactly when x is a plain int in 1..31 (a card mask): those are
# CPython's shared small int objects. Anything else fails: a bool or a NumPy
# integer (another object), a 0 or an index past 31 (None), a negative index
# (it lands on None or on another int), an index past 63 (IndexError) and any
# non-integer (TypeError). A plain int that fails goes to the validator, which
# accepts it: the check decides the speed, never the answer.
_CARD_INT: list[int | None] = [None, *range(1, MAX_MASK + 1), *[None] * (MAX_MASK + 1)]


def army_key(cards: Iterable[CardLike]) -> int:
    """The strength key of an army of 0..4 cards (Cards, int masks or strings).

    A larger key is a stronger army; equal keys are equally strong. Four
    plain int masks or four Cards in a list or tuple take the quickest path
    (a check per card and four list subscripts); anything else is validated
    card by card first.

    >>> army_key([]) == 0
    True
    >>> army_key(["LBSHF"] * 4) > army_key(["LBSH"] * 4) > army_key(["F", "F", "F", "F"])
    True
    """
    if (type(cards) is list or type(cards) is tuple) and len(cards) == ARMY_SIZE:
        a, b, c, d = cards
        if type(a) is int:
            try:
                if _CARD_INT[a] is a and _CARD_INT[b] is b and _CARD_INT[c] is c and _CARD_INT[d] is d:
                    key: int = _KEYS[a][b][c][d]
                    return key
            except (IndexError, TypeError):
                pass
        elif type(a) is Card and type(b) is Card and type(c) is Card and type(d) is Card:
            card_key: int = _KEYS[a.mask][b.mask][c.mask][d.mask]
            return card_key
    m = army_masks(cards)
    m.extend([0] * (ARMY_SIZE - len(m)))
    padded_key: int = _KEYS[m[0]][m[1]][m[2]][m[3]]
    return padded_key


def army_keys(masks: npt.NDArray[np.integer], out: npt.NDArray[np.uint32] | None = None) -> npt.NDArray[np.uint32]:
    """The keys of many armies at once.

    ``masks`` is an ``(n, 4)`` integer array of card masks, one army per row;
    0 marks an empty slot, so rows may hold partial armies. ``uint8`` input is
    used without a copy when C-contiguous (and checked in the same pass that
    computes the keys); other integer dtypes are checked and converted.
    Returns an ``(n,)`` ``uint32`` array: ``out`` when given (a C-contiguous
    ``uint32`` array of shape ``(n,)``, so that a loop allocates nothing; its
    contents are unspecified when the masks are refused), else a new one.

    >>> army_keys(np.array([[12, 12, 5, 4], [16, 16, 1, 2]], dtype=np.uint8))
    array([2359336,      48], dtype=uint32)
    >>> buffer = np.empty(2, np.uint32)
    >>> army_keys(np.array([[1, 1, 1, 1], [2, 2, 2, 0]], dtype=np.uint8), out=buffer) is buffer
    True
    """
    if not isinstance(masks, np.ndarray) or isinstance(masks, np.ma.MaskedArray):
        raise OrdonnanceTypeError(
            f"army_keys needs a NumPy array of shape (n, 4) (not masked), not {type(masks).__name__}: {shown(masks)}"
        )
    if masks.dtype.kind not in "iu":
        raise OrdonnanceTypeError(
            f"army_keys needs an integer array (ideally uint8), got dtype {masks.dtype}"
        )
    if masks.ndim != 2 or masks.shape[1] != ARMY_SIZE:
        raise InvalidArmyError(
            f"army_keys needs an array of shape (n, {ARMY_SIZE}), got shape {masks.shape}"
        )
    n = masks.shape[0]
    if out is None:
        out = np.empty(n, dtype=np.uint32)
    elif (
        not isinstance(out, np.ndarray)
        or isinstance(out, np.ma.MaskedArray)
        or out.dtype != np.uint32
        or out.shape != (n,)
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        raise OrdonnanceTypeError(
            f"out must be a writeable C-contiguous uint32 array of shape ({n},), got {_describe_array(out)}"
        )
    if masks.dtype != np.uint8:
        _check_range(masks)
    words = np.ascontiguousarray(masks, dtype=np.uint8).view(np.uint32).reshape(n)
    if _army_kernel.keys_from_words(words, out):
        _check_range(masks)  # raises: some byte is above 31
    return out


def _check_range(masks: npt.NDArray[np.integer]) -> None:
    bad_cells = (masks > MAX_MASK) | (masks < 0)
    if bad_cells.any():
        bad = masks[bad_cells][0]
        row = int(np.argmax(bad_cells.any(axis=1)))
        raise InvalidArmyError(
            f"card masks must be in 0..{MAX_MASK} (0 = empty slot), got {int(bad)} in row {row}"
        )


def _describe_array(value: object) -> str:
    if isinstance(value, np.ndarray):
        layout = "C-contiguous" if value.flags.c_contiguous else "not C-contiguous"
        readonly = "" if value.flags.writeable else ", read-only"
        return f"{type(value).__name__} of dtype {value.dtype}, shape {value.shape}, {layout}{readonly}"
    return f"{type(value).__name__}: {value!r}"


def compare_armies(a: Iterable[CardLike], b: Iterable[CardLike]) -> int:
    """1 when army ``a`` is stronger, -1 when ``b`` is, 0 when equally strong."""
    key_a, key_b = army_key(a), army_key(b)
    return (key_a > key_b) - (key_a < key_b)


def _symbols_strongest_first(mask: int) -> tuple[Symbol, ...]:
    return tuple(s for s in reversed(Symbol) if mask & s.bit)


@attrs.frozen
class ArmyDescription:
    """What an army's key says: its regiments, battalions and companies.

    Each tuple lists Symbols strongest first. ``str()`` gives a readable line.
    """

    regiments: tuple[Symbol, ...]
    """Symbols carried by 4 cards."""
    battalions: tuple[Symbol, ...]
    """Symbols carried by exactly 3 cards."""
    companies: tuple[Symbol, ...]
    """Symbols carried by exactly 2 cards."""

    def __str__(self) -> str:
        parts = []
        tiers = (self.regiments, self.battalions, self.companies)
        for symbols, (singular, plural) in zip(tiers, _TIER_NAMES):
            if symbols:
                names = ", ".join(s.label for s in symbols)
                parts.append(f"{len(symbols)} {singular if len(symbols) == 1 else plural} ({names})")
        return ", ".join(parts) if parts else "no formation"


def describe(key: int) -> ArmyDescription:
    """Decode a key from :func:`army_key` into its regiments, battalions and companies.

    Raises :class:`~ordonnance.errors.InvalidKeyError` for an integer that no
    army produces.

    >>> print(describe(army_key(["FH", "FH", "FH", "L"])))
    2 battalions (Banner, Helmet)
    """
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
        raise OrdonnanceTypeError(f"a key must be an int, not {type(key).__name__}: {shown(key)}")
    key = int(key)
    if not 0 <= key < 1 << KEY_BITS:
        raise InvalidKeyError(f"a key must be in 0..{(1 << KEY_BITS) - 1}, got {shown(key)}")
    tier_masks = []
    for shift in _TIER_SHIFTS:
        field = key >> shift & 0xFF
        mask, count = field & MAX_MASK, field >> 5
        if mask.bit_count() != count:
            raise InvalidKeyError(f"{shown(key)} is not an army key: count {count} != mask {mask:#07b}")
        tier_masks.append(mask)
    regiments, battalions, companies = tier_masks
    if regiments & battalions or regiments & companies or battalions & companies:
        raise InvalidKeyError(f"{shown(key)} is not an army key: a symbol is in two tiers")
    return ArmyDescription(
        regiments=_symbols_strongest_first(regiments),
        battalions=_symbols_strongest_first(battalions),
        companies=_symbols_strongest_first(companies),
    )


def warm_up() -> None:
    """Compile (or load from the disk cache) the evaluator's kernels now."""
    army_key(["L", "B", "S", "H"])
    army_keys(np.zeros((1, ARMY_SIZE), dtype=np.uint8))
