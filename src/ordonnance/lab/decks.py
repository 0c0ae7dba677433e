"""Each game's deck by card kind: the kinds of a rule set's deck(s), a kind's copies, and the
rules with some kinds' copies changed. The only game-specific deck arithmetic of the lab
(:func:`ordonnance.lab.card_values` and the tuner's :class:`~ordonnance.lab.space.Space` use it).

**How a kind is named**, game by game (:func:`parse` reads a name, the one place that does):

* Ordonnance: a card of the shared deck, as :class:`ordonnance.Card` writes it (``"LS"``).
* Shinobi: a clan's samurai (``"Oda"``) or ``"Ninja"``.
* Black Prince: ``"<owner>:<card>"``. The owner is a **seat** (``"0:Knights 3"``: seat 0's
  deck) or an **army** (``"French:Knights 3"``: the deck of every seat that plays the
  French, both seats in a mirror match, none when no seat plays it). A digit is a seat;
  anything else an army.

>>> from ordonnance import black_prince
>>> from ordonnance.lab import decks
>>> mirror = black_prince.Rules(armies=("French", "French"))
>>> decks.count(mirror, "0:Battle"), decks.count(mirror, "French:Battle")
(4, 4)
>>> by_seat = decks.changed(mirror, {"0:Battle": -1})
>>> by_army = decks.changed(mirror, {"French:Battle": -1})
>>> [decks.count(by_seat, f"{seat}:Battle") for seat in (0, 1)], [decks.count(by_army, f"{seat}:Battle") for seat in (0, 1)]
([3, 4], [3, 3])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

import attrs

from ordonnance.core import registry
from ordonnance.core.checks import bounded, choice, integer, shown, text
from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError

__all__ = ["Kind", "By", "parse", "kinds", "count", "changed"]

#: How :func:`kinds` names Black Prince's kinds: by the seat whose deck holds them, or by the army.
By = Literal["seat", "army"]

#: The most copies one change may add or remove, and the most kinds it may change.
MOST = 10_000


@attrs.frozen
class Kind:
    """A card kind, read from its name (:func:`parse`)."""

    card: str
    """The card, as its game writes it (``"LS"``, ``"Oda"``, ``"Knights 3"``)."""
    seat: int | None = None
    """Black Prince: the seat whose deck it is in (None when named by army, and in the other games)."""
    army: str | None = None
    """Black Prince: the army whose deck it is in, at every seat playing it (None when named by seat)."""

    def __str__(self) -> str:
        owner = self.army if self.seat is None else str(self.seat)
        return self.card if owner is None else f"{owner}:{self.card}"


def parse(rules: Any, name: str) -> Kind:
    """The kind ``name`` names in ``rules``' game (the module documentation gives the names); the
    library's error showing ``name`` for a name that is no kind of the game."""
    return _DECKS[registry.name_of(rules)].parse(text(name, "a card kind"))


def kinds(rules: Any, *, by: By = "seat") -> tuple[str, ...]:
    """The kinds of ``rules``' deck(s), by name: Ordonnance's 31 cards (fewest symbols first,
    then by mask), Shinobi's five clans and ``"Ninja"``, the distinct cards of each Black Prince
    seat's deck (seat 0's first, each in the deck's order), named by seat or (``by="army"``) by
    army, an army played at both seats listed once.

    >>> from ordonnance import shinobi
    >>> kinds(shinobi.Rules())
    ('Go-Hojo', 'Mori', 'Oda', 'Takeda', 'Uesugi', 'Ninja')
    """
    deck = _DECKS[registry.name_of(rules)]
    return deck.kinds(rules, choice(by, "by", ("seat", "army")))


def count(rules: Any, name: str) -> int:
    """The copies of the kind ``name`` under ``rules`` (0 where the deck has none). A Black Prince
    army no seat plays counts its printed deck's copies (none for an army that is not printed)."""
    deck = _DECKS[registry.name_of(rules)]
    return deck.count(rules, deck.parse(text(name, "a card kind")))


def changed(rules: Any, deltas: Mapping[str, int]) -> Any:
    """``rules`` with each named kind's copies moved by its delta (positive: copies added,
    negative: removed). The library's error showing the kind when a deck holds too few copies
    to remove, and the game's error when the rules refuse the deck that results. A changed
    Ordonnance deck lists its cards in the standard deck's order; an added Black Prince card is
    a copy of the deck's own (its advantages kept), else the printed card.

    >>> from ordonnance import shinobi
    >>> changed(shinobi.Rules(), {"Oda": 2, "Ninja": -1})
    Rules(players=4, samurai=(11, 11, 13, 11, 11), ninjas=2, attack='mandatory')
    """
    deck = _DECKS[registry.name_of(rules)]
    if not isinstance(deltas, Mapping):
        raise OrdonnanceTypeError(f"deltas must map card kinds to copies added, got {shown(deltas)}")
    changes = []
    for name, delta in bounded(deltas.items(), "deltas", MOST):
        name = text(name, "a card kind")
        changes.append((name, deck.parse(name), integer(delta, f"the copies of {name} added", low=-MOST, high=MOST)))
    return deck.changed(rules, changes)


def _moved(have: int, delta: int, name: str) -> int:
    """``have`` copies moved by ``delta``; the library's error when fewer than none would be left."""
    if have + delta >= 0:
        return have + delta
    if have == 0:
        raise InvalidArgumentError(f"the deck holds no {shown(name)} to remove")
    raise InvalidArgumentError(f"the deck holds {have} of {shown(name)}, too few to remove {-delta}")


#: A change: the kind's name as given (errors show it), the kind, and the copies added (negative: removed).
_Change = tuple[str, Kind, int]


class _Deck:
    """How one game's deck is read and changed by card kind."""

    #: The game, as an error message names it; its kinds are those :meth:`kinds` lists (Black Prince's parse its own).
    game = ""

    def parse(self, name: str) -> Kind:
        names = self.kinds(None, "seat")
        if name not in names:
            raise InvalidArgumentError(f"{self.game} card kind is one of {', '.join(names)}, got {shown(name)}")
        return Kind(name)

    def kinds(self, rules: Any, by: By) -> tuple[str, ...]:
        raise NotImplementedError

    def count(self, rules: Any, kind: Kind) -> int:
        raise NotImplementedError

    def changed(self, rules: Any, changes: list[_Change]) -> Any:
        raise NotImplementedError


class _OrdonnanceDeck(_Deck):
    game = "an Ordonnance"

    def kinds(self, rules: Any, by: By) -> tuple[str, ...]:
        return tuple(str(card) for card in _ordonnance_cards())

    def count(self, rules: Any, kind: Kind) -> int:
        return sum(1 for card in rules.cards if str(card) == kind.card)

    def changed(self, rules: Any, changes: list[_Change]) -> Any:
        counts = Counter(str(card) for card in rules.cards)
        for name, kind, delta in changes:
            counts[kind.card] = _moved(counts[kind.card], delta, name)
        # the standard deck's order (fewest symbols first, then by mask): equal counts list as the standard deck
        return attrs.evolve(rules, deck=[card for card in _ordonnance_cards() for _ in range(counts[str(card)])])


def _ordonnance_cards() -> list[Any]:
    from ordonnance.cards import MAX_MASK, Card

    return sorted((Card.from_mask(mask) for mask in range(1, MAX_MASK + 1)), key=lambda card: (len(card), card.mask))


class _ShinobiDeck(_Deck):
    game = "a Shinobi"

    def kinds(self, rules: Any, by: By) -> tuple[str, ...]:
        from ordonnance.shinobi.cards import CLAN_NAMES

        return (*CLAN_NAMES, "Ninja")

    def count(self, rules: Any, kind: Kind) -> int:
        counts: dict[str, int] = dict(zip(self.kinds(rules, "seat"), (*rules.samurai, rules.ninjas)))
        return counts[kind.card]

    def changed(self, rules: Any, changes: list[_Change]) -> Any:
        names = self.kinds(rules, "seat")
        counts = [*rules.samurai, rules.ninjas]
        for name, kind, delta in changes:
            at = names.index(kind.card)
            counts[at] = _moved(counts[at], delta, name)
        return attrs.evolve(rules, samurai=tuple(counts[:-1]), ninjas=counts[-1])


class _BlackPrinceDeck(_Deck):
    def parse(self, name: str) -> Kind:
        from ordonnance.black_prince.cards import Card

        owner, colon, text = name.partition(":") if isinstance(name, str) else ("", "", "")
        owner = owner.strip()
        if not colon or not owner or (owner.isdigit() and owner not in ("0", "1")):
            raise InvalidArgumentError(
                f"a Black Prince card kind is '<seat or army>:<card>' ('0:Knights 3', 'French:Knights 3'), got {shown(name)}"
            )
        card = str(Card.parse(text))
        return Kind(card, seat=int(owner)) if owner.isdigit() else Kind(card, army=owner.capitalize())

    def kinds(self, rules: Any, by: By) -> tuple[str, ...]:
        out: dict[str, None] = {}
        for seat in (0, 1):
            owner = seat if by == "seat" else rules.armies[seat]
            for card in sorted(set(rules.deck(seat)), key=lambda c: c.sort_key):
                out.setdefault(f"{owner}:{card}")
        return tuple(out)

    def count(self, rules: Any, kind: Kind) -> int:
        return sum(1 for card in self._deck(rules, kind) if str(card) == kind.card)

    def _deck(self, rules: Any, kind: Kind) -> tuple[Any, ...]:
        """The deck ``kind`` is in: its seat's, its army's seat's, else its army's printed deck, else none."""
        from ordonnance.black_prince.cards import ARMIES, deck

        if kind.seat is not None:
            return tuple(rules.deck(kind.seat))
        if kind.army in rules.armies:
            return tuple(rules.deck(rules.armies.index(kind.army)))
        return deck(kind.army) if kind.army in ARMIES else ()

    def changed(self, rules: Any, changes: list[_Change]) -> Any:
        from ordonnance.black_prince.cards import Card

        decks = [list(rules.deck(0)), list(rules.deck(1))]
        touched = False
        for seat, army in enumerate(rules.armies):
            mine = [change for change in changes if change[1].seat == seat or (change[1].seat is None and change[1].army == army)]
            touched = touched or bool(mine)
            for name, kind, delta in mine:
                copies = [at for at, card in enumerate(decks[seat]) if str(card) == kind.card]
                _moved(len(copies), delta, name)
                if delta > 0:
                    own = decks[seat][copies[-1]] if copies else Card.parse(kind.card)
                    decks[seat] += [own] * delta
                for at in reversed(copies[len(copies) + delta :] if delta < 0 else []):
                    del decks[seat][at]
        return attrs.evolve(rules, decks=decks) if touched else rules


_DECKS: dict[str, _Deck] = {"ordonnance": _OrdonnanceDeck(), "shinobi": _ShinobiDeck(), "black-prince": _BlackPrinceDeck()}
