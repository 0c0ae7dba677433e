"""The search space of the rules tuner: rule options and deck composition of any game.

A :class:`Space` is a starting rule set and a list of :class:`Dimension`\\ s, each a
finite list of values. A *point* gives each dimension one of its values; the
variant it stands for is the start with those values (:meth:`Space.variant`).

Two kinds of dimension:

* an **option**: a field of the game's ``Rules`` (Ordonnance's ``scoring``,
  Shinobi's ``attack``, Black Prince's ``first`` ...); changing it costs 1;
* a **card count**: copies of one card kind added to (positive) or removed from
  (negative) the deck the variant's options give; it costs one per card
  (``cards[LS]`` at +2 costs 2).

The *distance* of a point from the start is the sum of those costs: the number
of changed options and cards.

>>> from ordonnance import shinobi
>>> from ordonnance.lab.space import Space
>>> space = Space.of(shinobi.Rules(players=3), spread=1)
>>> [d.name for d in space.dimensions]
['attack', 'cards[Go-Hojo]', 'cards[Mori]', 'cards[Oda]', 'cards[Takeda]', 'cards[Uesugi]', 'cards[Ninja]']
>>> point = space.start_point() | {"attack": "optional", "cards[Ninja]": -1}
>>> space.variant(point)
Rules(players=3, samurai=(11, 11, 11, 11, 11), ninjas=2, attack='optional')
>>> space.distance(point), space.changes(point)
(2, "attack='optional', cards[Ninja] -1")

Which options each game offers by default (:func:`options_of`): every field whose
values are a short list known from its type (a ``Literal`` or a bool). Fields
with many values (player counts, Black Prince's ``max_turns`` and ``armies``)
join a space when their values are given: ``Space.of(rules, options={"max_turns":
(100, 200)})``. Card kinds (:func:`card_kinds`) are game-specific: Ordonnance's 31
cards (``"LS"``), Shinobi's five clans and the Ninja, each Black Prince seat's
armies' cards (``"French:Knights 3"``: a change to an army's deck applies to every
seat that plays it; a kind named by seat, ``"0:Knights 3"``, changes that seat's deck
whatever army it plays). :mod:`ordonnance.lab.decks` reads and changes the decks.
"""

from __future__ import annotations

import math
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args, get_origin

import attrs

from ordonnance.core import registry
from ordonnance.core.checks import bounded, integer, shown
from ordonnance.errors import InvalidArgumentError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.lab import decks

__all__ = ["Dimension", "Space", "options_of", "card_kinds", "MAX_DIMENSIONS", "MAX_VALUES"]

#: The most dimensions a space may have.
MAX_DIMENSIONS = 200
#: The most values one dimension may take.
MAX_VALUES = 1000

#: The fields of each game's ``Rules`` that hold its deck: they are searched as card counts, not options.
_CARD_FIELDS = {"ordonnance": {"deck"}, "shinobi": {"samurai", "ninjas"}, "black-prince": {"decks", "advantages"}}


@attrs.frozen
class Dimension:
    """One searched choice: a rule option, or the copies of a card kind added or removed."""

    name: str
    """The option's field name (``"scoring"``), or ``"cards[<kind>]"`` for a card count."""
    values: tuple[Any, ...]
    """The values the search may give it (the start's value among them)."""
    start: Any
    """The start's value: the option's value in the start rules, or 0 (no card added or removed)."""
    cards: bool = False
    """Whether this is a card count (its value: copies added, negative to remove)."""

    def cost(self, value: Any) -> int:
        """The changes ``value`` makes from the start: 0 or 1 for an option, the cards added or removed for a count."""
        if self.cards:
            return abs(int(value) - int(self.start))
        return int(value != self.start)

    @property
    def ordered(self) -> bool:
        """Whether the values are numbers in increasing order (the optimiser may then use their order)."""
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in self.values)
        return numeric and list(self.values) == sorted(self.values)


@attrs.frozen
class Space:
    """The variants the tuner may try: the start rules and the dimensions searched."""

    start: Any
    """The starting rule set (any game's ``Rules``)."""
    dimensions: tuple[Dimension, ...]
    """The searched dimensions."""

    @classmethod
    def of(
        cls,
        rules: Any,
        *,
        options: Sequence[str] | Mapping[str, Sequence[Any]] | None = None,
        cards: Sequence[str] | None = None,
        spread: int = 1,
    ) -> Space:
        """The space around ``rules``.

        ``options``: the option fields searched, by name (their values from :func:`options_of`),
        or a mapping from name to the values to try (the start's value is added when missing);
        None: every option :func:`options_of` lists. ``cards``: the card kinds whose count is
        searched (as :func:`card_kinds` names them); None: every kind of the start's deck(s),
        ``()``: none. ``spread``: each count moves by at most this many copies either way.
        """
        game = registry.name_of(rules)
        spread = integer(spread, "spread", low=0, high=MAX_VALUES // 2)
        known = options_of(rules)
        fields = _option_fields(rules, game)
        dimensions = [_option(rules, name, known, fields, values) for name, values in _chosen(options, known)]
        for kind in card_kinds(rules) if cards is None else _listed(cards, "cards"):
            if not isinstance(kind, str):
                raise OrdonnanceTypeError(f"a card kind is named by a str, got {shown(kind)}")
            low = max(-spread, -decks.count(rules, kind))
            dimensions.append(Dimension(f"cards[{kind}]", tuple(range(low, spread + 1)), 0, cards=True))
        names = [d.name for d in dimensions]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise InvalidArgumentError(f"a space searches each option and card once, got {shown(repeated)} twice")
        if len(dimensions) > MAX_DIMENSIONS:
            raise InvalidArgumentError(f"a space has at most {MAX_DIMENSIONS} dimensions, got {len(dimensions)}")
        return cls(rules, tuple(dimensions))

    def __len__(self) -> int:
        return len(self.dimensions)

    @property
    def size(self) -> int:
        """How many points the space holds (some may be impossible rules)."""
        return math.prod(len(d.values) for d in self.dimensions)

    def start_point(self) -> dict[str, Any]:
        """The point of the start rules: every dimension at its start value."""
        return {d.name: d.start for d in self.dimensions}

    def check_point(self, point: Mapping[str, Any]) -> dict[str, Any]:
        """``point`` as a plain dict, every dimension given one of its values (else the library's error)."""
        if not isinstance(point, Mapping):
            raise OrdonnanceTypeError(f"a point maps each dimension's name to a value, got {shown(point)}")
        names = {d.name for d in self.dimensions}
        if set(point) != names:
            raise InvalidArgumentError(
                f"a point gives a value to each of {sorted(names)}, got {shown(sorted(map(str, point)))}"
            )
        for d in self.dimensions:
            if not any(_same(point[d.name], v) for v in d.values):
                raise InvalidArgumentError(f"{d.name} takes one of {shown(d.values)}, got {shown(point[d.name])}")
        return dict(point)

    def variant(self, point: Mapping[str, Any], *, base: Any = None) -> Any:
        """The rules ``point`` stands for: the start (or ``base``, rules of the same game) with
        its changed options, then its cards added to or removed from that deck; impossible rules
        raise the game's error (a card count below zero too)."""
        point = self.check_point(point)
        if base is None:
            base = self.start
        elif type(base) is not type(self.start):
            raise OrdonnanceTypeError(f"base must be rules of the start's game ({type(self.start).__name__}), got {shown(base)}")
        options = {d.name: point[d.name] for d in self.dimensions if not d.cards and d.cost(point[d.name])}
        rules = attrs.evolve(base, **options) if options else base
        deltas = {d.name[len("cards[") : -1]: int(point[d.name]) for d in self.dimensions if d.cards and point[d.name]}
        if not deltas:
            return rules
        return decks.changed(rules, deltas)

    def distance(self, point: Mapping[str, Any]) -> int:
        """The changes ``point`` makes from the start: one per option, one per card added or removed."""
        point = self.check_point(point)
        return sum(d.cost(point[d.name]) for d in self.dimensions)

    def changes(self, point: Mapping[str, Any]) -> str:
        """The changes ``point`` makes from the start, in words (``"scoring='points', cards[LS] +1"``; ``""``: none)."""
        point = self.check_point(point)
        said = []
        for d in self.dimensions:
            value = point[d.name]
            if d.cost(value):
                said.append(f"{d.name} {int(value):+d}" if d.cards else f"{d.name}={value!r}")
        return ", ".join(said)


def options_of(rules: Any) -> dict[str, tuple[Any, ...]]:
    """Every option of ``rules``' game whose values are known from its type (a ``Literal``
    or a bool), with those values; the deck's fields are card counts, not options.

    >>> from ordonnance import Rules
    >>> options_of(Rules())
    {'scoring': ('territories', 'points'), 'tie_break': ('latest_capture', 'lowest_marker_sum'), 'claim_proof': ('public', 'private'), 'auto_claim': (False, True)}
    """
    game = registry.name_of(rules)
    hints = typing.get_type_hints(type(rules))
    out: dict[str, tuple[Any, ...]] = {}
    for name in _option_fields(rules, game):
        hint = hints.get(name)
        if hint is bool:
            out[name] = (False, True)
        elif get_origin(hint) is Literal:
            out[name] = get_args(hint)
    return out


def card_kinds(rules: Any) -> tuple[str, ...]:
    """The card kinds of ``rules``' deck(s) whose counts a :class:`Space` may search, as it names them.

    >>> from ordonnance import black_prince
    >>> card_kinds(black_prince.Rules(armies=("Scottish", "French")))[:3]
    ('Scottish:Battle', 'Scottish:Knights 1', 'Scottish:Knights 2')
    """
    return decks.kinds(rules, by="army")


def _option_fields(rules: Any, game: str) -> list[str]:
    return [f.name for f in attrs.fields(type(rules)) if f.name not in _CARD_FIELDS[game]]


def _listed(items: object, name: str) -> list[Any]:
    return bounded(items, name, MAX_DIMENSIONS)  # type: ignore[arg-type]  # bounded checks the type


def _chosen(
    options: Sequence[str] | Mapping[str, Sequence[Any]] | None, known: Mapping[str, tuple[Any, ...]]
) -> list[tuple[str, tuple[Any, ...] | None]]:
    if options is None:
        return [(name, None) for name in known]
    if isinstance(options, Mapping):
        return [(name, tuple(_listed(values, f"options[{name!r}]"))) for name, values in _listed(options.items(), "options")]
    return [(name, None) for name in _listed(options, "options")]


def _option(
    rules: Any, name: object, known: Mapping[str, tuple[Any, ...]], fields: Sequence[str], values: tuple[Any, ...] | None
) -> Dimension:
    if not isinstance(name, str):
        raise OrdonnanceTypeError(f"an option is named by a str, got {shown(name)}")
    if name not in fields:
        raise InvalidArgumentError(f"{type(rules).__module__}.Rules has no option {shown(name)}; its options are {fields}")
    start = getattr(rules, name)
    if values is None:
        if name not in known:
            raise InvalidArgumentError(f"option {shown(name)} has no short list of values: give them, {{{name!r}: (...)}}")
        values = known[name]
    if not values:
        raise InvalidArgumentError(f"option {shown(name)} needs at least one value, got {shown(values)}")
    if len(values) > MAX_VALUES:
        raise InvalidArgumentError(f"option {shown(name)} takes at most {MAX_VALUES} values, got {len(values)}")
    converted = []
    for value in values:
        try:  # each value as the rules would hold it (an army pair as a tuple, a NumPy int as an int)
            converted.append(getattr(attrs.evolve(rules, **{name: value}), name))
        except OrdonnanceError as error:
            raise type(error)(f"option {name}={value!r} is impossible from the start rules: {error}") from None
    if not any(_same(start, v) for v in converted):
        converted.insert(0, start)
    unique: list[Any] = []
    for value in converted:
        if not any(_same(value, u) for u in unique):
            unique.append(value)
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in unique):
        unique.sort()
    return Dimension(name, tuple(unique), start)


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b
