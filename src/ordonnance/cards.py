"""Symbols, unit cards and decks.

A card is a non-empty set of the five symbols. As an integer it is a 5-bit
*mask*: bit ``i`` is set when the symbol of rank ``i`` is on the card, so
``L`` = 1, ``B`` = 2, ``S`` = 4, ``H`` = 8, ``F`` = 16 and ``LSF`` = 21.

>>> card = Card.parse("hs")
>>> card
Card.parse('SH')
>>> card.mask, str(card), card.symbols
(12, 'SH', (<Symbol.SWORD: 2>, <Symbol.HELMET: 3>))
>>> Card.from_mask(12) is card
True
>>> len(standard_deck())
56
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from collections.abc import Iterable
from typing import Union

import attrs
import numpy as np

from ordonnance.errors import InvalidCardError, InvalidDeckError, OrdonnanceTypeError
from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = [
    "Symbol",
    "Card",
    "CardLike",
    "MAX_MASK",
    "MAX_DECK_SIZE",
    "to_mask",
    "standard_deck",
    "build_deck",
    "deck_counts",
]

#: The largest valid card mask: the card carrying all five symbols.
MAX_MASK = 31
#: The most cards :func:`build_deck` takes (an endless iterator is refused, not read forever).
MAX_DECK_SIZE = 10_000


class Symbol(enum.IntEnum):
    """A troop type, weakest (``LANCE`` = 0) to strongest (``BANNER`` = 4)."""

    LANCE = 0
    BOW = 1
    SWORD = 2
    HELMET = 3
    BANNER = 4

    @classmethod
    def _missing_(cls, value: object) -> Symbol:
        raise InvalidCardError(f"a symbol is a rank 0..4, got {shown(value)}")

    @property
    def letter(self) -> str:
        """The one-letter code: ``L``, ``B``, ``S``, ``H`` or ``F``."""
        return _LETTERS[self]

    @property
    def bit(self) -> int:
        """The symbol's bit in a card mask (``1 << rank``)."""
        return 1 << int(self)

    @property
    def label(self) -> str:
        """The name as a person reads it: ``"Lance"``, ..., ``"Banner"``."""
        return self.name.capitalize()


_LETTERS = "LBSHF"
_SYMBOL_OF_LETTER = {
    spelled: Symbol(rank) for rank, letter in enumerate(_LETTERS) for spelled in (letter, letter.lower())
}


def _plain_int(value: object) -> int:
    """NumPy integers become ints; anything else is left for the validator to refuse."""
    return int(value) if isinstance(value, np.integer) else value  # type: ignore[return-value]


@attrs.frozen(repr=False, order=False)
class Card:
    """One unit card: an immutable, hashable set of symbols.

    Build cards with :meth:`parse` or :meth:`from_mask` (both return shared
    instances); ``Card(mask)`` validates too.
    """

    mask: int = attrs.field(converter=_plain_int)
    """The 5-bit mask, 1..31 (bit ``i`` set when the symbol of rank ``i`` is on the card); always a plain int."""

    @mask.validator
    def _check_mask(self, _attribute: object, value: object) -> None:
        _check_mask_value(value)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Unpickling (and copying) gives back the shared instance of the card.
        return (Card.from_mask, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse letters ``L B S H F`` in any order and case, e.g. ``"sh"``.

        Only those ten ASCII letters name symbols (no other character that
        ``str.upper()`` would turn into one, such as ``"ſ"``). Raises
        :class:`~ordonnance.errors.InvalidCardError` for an empty text, an
        unknown letter or a repeated one.
        """
        cached = _PARSED.get(text) if isinstance(text, str) else None
        if cached is not None:
            return cached
        if not isinstance(text, str):
            raise OrdonnanceTypeError(f"card text must be a str, not {type(text).__name__}: {shown(text)}")
        mask = 0
        for char in text:
            symbol = _SYMBOL_OF_LETTER.get(char)
            if symbol is None:
                letter = char.upper() if char.isascii() else char
                raise InvalidCardError(
                    f"unknown symbol letter {shown(letter)} in card {shown(text)} (use L, B, S, H, F)"
                )
            if mask & symbol.bit:
                raise InvalidCardError(f"repeated symbol letter {shown(symbol.letter)} in card {shown(text)}")
            mask |= symbol.bit
        if mask == 0:
            raise InvalidCardError(f"a card needs at least one symbol, got {shown(text)}")
        card = _CARDS[mask]
        if len(_PARSED) < _MAX_CACHED_TEXTS:
            _PARSED[text] = card
            _TEXT_MASKS[text] = mask
        return card

    @classmethod
    def from_mask(cls, mask: int) -> Card:
        """The card with this mask (1..31)."""
        if type(mask) is not int or not 0 < mask <= MAX_MASK:
            _check_mask_value(mask)
        return _CARDS[int(mask)]

    @property
    def symbols(self) -> tuple[Symbol, ...]:
        """The card's symbols, weakest first."""
        return tuple(s for s in Symbol if self.mask & s.bit)

    def __contains__(self, symbol: object) -> bool:
        return isinstance(symbol, Symbol) and bool(self.mask & symbol.bit)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __str__(self) -> str:
        return "".join(s.letter for s in self.symbols)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The card as SVG, for Jupyter (see :func:`ordonnance.render.card`)."""
        from ordonnance.render import card_repr_svg

        return card_repr_svg(self)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return _sort_key(self) < _sort_key(other)


def _sort_key(card: Card) -> tuple[int, int]:
    return (len(card), card.mask)


def _check_mask_value(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise OrdonnanceTypeError(
            f"a card mask must be an int, not {type(value).__name__}: {shown(value)}"
        )
    if not 1 <= value <= MAX_MASK:
        raise InvalidCardError(f"card mask must be in 1..{MAX_MASK}, got {shown(value)}")


_CARDS: dict[int, Card] = {mask: Card(mask) for mask in range(1, MAX_MASK + 1)}
_PARSED: dict[str, Card] = {str(card): card for card in _CARDS.values()}
# Masks of texts already parsed, for the evaluator's fast path. Both caches
# are bounded: every spelling of every card (case, order) is 6,330 texts.
_TEXT_MASKS: dict[str, int] = {text: card.mask for text, card in _PARSED.items()}
_MAX_CACHED_TEXTS = 10_000

#: Anything that names a card: a :class:`Card`, its mask or its letters.
CardLike = Union[Card, int, str]


def to_mask(card: CardLike) -> int:
    """The mask of a card given as a :class:`Card`, an int mask or a string."""
    if type(card) is Card:
        return card.mask
    if type(card) is int and 1 <= card <= MAX_MASK:
        return card
    if isinstance(card, str):
        return Card.parse(card).mask
    return Card.from_mask(card).mask  # type: ignore[arg-type]  # validates and raises


def _cards_with(symbol_count: int) -> list[Card]:
    return [c for c in _CARDS.values() if len(c) == symbol_count]


#: Copies of each card in the standard deck, by number of symbols on the card.
_STANDARD_COPIES = {1: 4, 2: 2, 3: 1, 4: 1, 5: 1}


def standard_deck(copies: int = 1) -> tuple[Card, ...]:
    """The standard 56-card deck of the rules (:ref:`rules-deck`), ``copies`` times over.

    Each 1-symbol card appears 4 times, each 2-symbol card twice, every other
    card once; every symbol is on 23 cards. Cards come sorted (fewest symbols
    first, then by mask); shuffle them yourself or let :class:`Game` do it.
    """
    if not checks.is_integer(copies):
        raise OrdonnanceTypeError(f"copies must be an int, got {shown(copies)}")
    return _standard_deck(int(copies))


@functools.lru_cache(maxsize=8)
def _standard_deck(copies: int) -> tuple[Card, ...]:
    if not 1 <= copies <= MAX_DECK_SIZE // 56:
        raise InvalidDeckError(f"copies must be in 1..{MAX_DECK_SIZE // 56} (at most {MAX_DECK_SIZE:,} cards), got {shown(copies)}")
    deck = [
        card
        for count, per_card in _STANDARD_COPIES.items()
        for card in _cards_with(count)
        for _ in range(per_card * copies)
    ]
    return tuple(deck)


def build_deck(cards: Iterable[CardLike], *, min_size: int = 1) -> tuple[Card, ...]:
    """Validate any multiset of cards (Cards, masks or strings) as a deck.

    Returns the cards as a tuple in the order given. Raises
    :class:`~ordonnance.errors.InvalidDeckError` when the deck holds fewer
    than ``min_size`` cards, or the error of the first bad card.
    """
    if isinstance(cards, (str, bytes)):
        raise OrdonnanceTypeError(f"a deck is an iterable of cards, not a string: {shown(cards)}")
    if not isinstance(cards, Iterable) or isinstance(cards, (Card, dict)):
        raise OrdonnanceTypeError(f"a deck is an iterable of cards, not {type(cards).__name__}: {shown(cards)}")
    min_size = checks.integer(min_size, "min_size", low=0, high=MAX_DECK_SIZE, error=InvalidDeckError)
    deck = []
    for position, card in enumerate(cards):
        if position == MAX_DECK_SIZE:
            raise InvalidDeckError(f"a deck holds at most {MAX_DECK_SIZE:,} cards; {shown(cards):.80} holds more")
        try:
            deck.append(_CARDS[to_mask(card)])
        except (InvalidCardError, OrdonnanceTypeError) as error:
            raise type(error)(f"deck card at position {position}: {error}") from None
    if len(deck) < min_size:
        raise InvalidDeckError(f"a deck needs at least {min_size} cards, got {len(deck)}")
    return tuple(deck)


def deck_counts(cards: Iterable[CardLike]) -> Counter[Card]:
    """How many copies of each card a deck (or any collection of cards) holds."""
    return Counter(build_deck(cards, min_size=0))
