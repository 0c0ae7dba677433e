"""Card value by controlled experiment: what one copy of a card kind is worth to the seat that holds it.

:func:`card_values` plays two arms for each change: the *base* rules, and a *variant*
whose deck has one copy of a card kind added, removed, or swapped for another kind
(:func:`kinds_of` names the kinds), each arm the same number of games with the same
bots. What the change measures is the difference, game by game, of the **holder's**
result (1 if it won alone, else 0), variant minus base, with its 95% interval and the
games an unpaired comparison would need for as narrow a one
(:func:`ordonnance.lab.stats.paired_difference`).

**Who holds a card**, game by game:

* Black Prince: every card belongs to one seat's deck; the kind names it
  (``"0:Knights 3"`` is seat 0's). The holder is that seat, in every game and both arms.
* Shinobi, a clan's samurai (``"Oda"``): the holder is the seat that works for that
  clan (its secret clan card). Games in which the clan is neutral (fewer than five
  players) have no holder and are left out (the row's ``games`` counts the rest).
* Shinobi's ``"Ninja"`` belongs to no clan: it has no holder, and the study reports the
  change in each seat's win rate instead (``seat`` label).
* Ordonnance's cards (``"LS"``) come from one shared deck: the holder is **the seat that
  drew the changed place** of the deck order (the added or swapped-in copy's place, or
  the removed copy's), found by replaying the arm that holds the copy from its record.
  The arms are the same game until that place is drawn (every other card stays in its
  place, below), so it is the same seat in both arms and the change does not decide who
  holds it (but where a claim's proof, which counts the cards not yet seen, tells the
  two decks apart first: rarely, 0.6% of the games with a five-symbol card added). A
  game that ends before that place is drawn has no holder and is left out (the row's
  ``games`` counts the rest; the record's notes give the share). The shuffle, not the
  bots, decides who draws it, so this is a randomised experiment.

**What the arms share.** Every arm plays **the same deal seeds and bot seeds** (common
random numbers, paired on purpose): game ``i`` of each arm has the same seeds, and the
value is the paired difference, game by game, of the holder's results. The deal itself
is shared as far as the decks allow:

* Ordonnance: **the variant's deck order is the base's with the change made to one
  copy and every other card in its place**: the added copy put at a uniformly chosen
  place (the card there moves to the bottom), a uniformly chosen copy taken out (the
  bottom card moves into its place), or one swapped in place for the other kind. The
  choice comes from a stream of its own, and each change is a bijection between (the
  base's order, the choice) and the variant's orders, so each arm is still a uniformly
  random shuffle of its own deck. The bots are seeded as in the base's game ``i``.
* Shinobi deals the clan cards first, from the same stream: **the clans are dealt
  identically in both arms** (so each clan's holder is the same seat); the troop deck
  that follows differs as the deck does.
* Black Prince shuffles seat 0's deck, then seat 1's from the same stream: a change to
  seat 1's deck leaves **seat 0's deck order identical**; a swap in seat 0's deck (same
  size) leaves seat 1's identical; an added or removed card in seat 0's deck shifts
  the stream of seat 1's shuffle by one draw.

Any bots may play (``players=``); Greedy by default, the kernel's, fast. The base arm
is played once and shared by every change (each change's difference is taken with the
same base games).

>>> from ordonnance import black_prince
>>> from ordonnance.lab.cards import card_values
>>> study = card_values(black_prince.Rules(), kinds=["1:Battle"], changes=["remove"], games=200, seed=3)
>>> [(r.label("kind"), r.label("change"), r.label("holder")) for r in study.rows]
[('1:Battle', 'remove', 1)]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.core import registry
from ordonnance.core.checks import bounded, choice, flag, integer, shown, text
from ordonnance.core.executing import ExecutorLike
from ordonnance.core.seeds import check_seed
from ordonnance.errors import InvalidArgumentError, OrdonnanceError, OrdonnanceTypeError
from ordonnance.lab import _deals, decks, running
from ordonnance.lab.stats import paired_difference
from ordonnance.lab.study import Record, Row, Study, row, rules_text

__all__ = ["CHANGES", "Players", "card_values", "kinds_of", "seat_bots", "described", "check_games"]

#: The changes :func:`card_values` makes to one card kind: one copy more, one copy less.
CHANGES = ("add", "remove")

#: The most games one arm of a study may play.
MAX_GAMES = 10_000_000

#: The bots of a study: a sequence (one bot per seat), a factory (a bot class: ``players(seed=seat)``
#: is seat's bot), or None (the game's Greedy in every seat).
Players = Sequence[Any] | Callable[..., Any] | None


def seat_bots(rules: Any, players: Players) -> list[Any]:
    """The bot of each seat of ``rules``: ``players`` as given (one per seat), ``players(seed=seat)``
    for a factory, or the game's ``Greedy(seed=seat)`` when None (``simulate`` checks the bots)."""
    factory: Callable[..., Any]
    if players is None:
        factory = registry.package(registry.name_of(rules)).bots.Greedy
    elif callable(players) and not isinstance(players, Sequence):
        factory = players
    else:
        listed = bounded(players, "players", rules.players)
        if len(listed) != rules.players:
            raise InvalidArgumentError(f"players must list {rules.players} bots (one per seat), got {len(listed)}")
        return listed
    try:
        return [factory(seed=seat) for seat in range(rules.players)]
    except OrdonnanceError:
        raise
    except TypeError as error:
        raise OrdonnanceTypeError(f"players must be bots or a bot class taking seed=, got {shown(players)}: {error}") from None


def described(players: Players) -> str:
    """``players`` as a study's call shows it."""
    if players is None:
        return "None"
    return getattr(players, "__qualname__", None) or repr(list(players))  # type: ignore[arg-type]


def check_progress(progress: object) -> bool | None:
    """``progress``: None (a bar on a terminal only) or a bool."""
    return None if progress is None else flag(progress, "progress")


def progress_bar(total: int, progress: bool | None, desc: str) -> Any:
    """A tqdm bar of ``total`` games on standard error (disabled by ``progress=False``; with None,
    shown on a terminal once a second has passed)."""
    from tqdm import tqdm

    return tqdm(
        total=total, unit="game", unit_scale=total >= 10_000, desc=desc, file=sys.stderr,
        disable=None if progress is None else not progress, delay=1.0 if progress is None else 0.0,
    )  # fmt: skip


def check_games(games: object, low: int = 2) -> int:
    """``games`` as an int in ``low..MAX_GAMES``, or the library's error."""
    return integer(games, "games", low=low, high=MAX_GAMES)


def _wins(result: Any) -> npt.NDArray[np.float64]:
    """``[game, seat]``: 1.0 where the seat won the game alone."""
    seats = np.arange(result.rules.players)
    wins: npt.NDArray[np.float64] = (result.winner.astype(np.int64)[:, None] == seats[None, :]).astype(np.float64)
    return wins


def _ordonnance_holders(rules: Any, base: Any, arm: Any, derived: _deals.Derived) -> npt.NDArray[np.int64]:
    """Each game's holder of the changed copy: the seat that drew the changed place, replayed in the
    arm holding the copy (the variant for an added or swapped-in copy, the base for a removed one);
    -1 where that place was never drawn."""
    orders, places = _deals.derived_orders(rules, base.seeds, derived.change, derived.mask, derived.other)
    if derived.change == _deals.REMOVE:
        return _deals.drawers(base, _deals.base_orders(rules, base.seeds), places)
    return _deals.drawers(arm, orders, places)


def _owner_holders(rules: Any, result: Any, kind: str) -> npt.NDArray[np.float64] | None:
    """``[game, seat]``: 1.0 for the seat that owns ``kind``'s cards (Black Prince's deck seat,
    Shinobi's clan); None for a kind that no seat owns (Shinobi's Ninja)."""
    holders = np.zeros((len(result), rules.players), np.float64)
    seat = _seat_of(rules, kind)
    if seat is not None:
        holders[:, seat] = 1.0
        return holders
    from ordonnance.shinobi.cards import CLAN_NAMES

    if kind not in CLAN_NAMES:
        return None
    clan = CLAN_NAMES.index(kind)
    holders[:] = result.clans[:, : rules.players] == clan
    return holders


def kinds_of(rules: Any) -> tuple[str, ...]:
    """The card kinds of ``rules``' game, as :func:`card_values` names them: Ordonnance's 31
    cards (``"LS"``), Shinobi's five clans and ``"Ninja"``, each Black Prince seat's distinct
    cards (``"0:Knights 3"``).

    >>> from ordonnance import shinobi
    >>> kinds_of(shinobi.Rules())
    ('Go-Hojo', 'Mori', 'Oda', 'Takeda', 'Uesugi', 'Ninja')
    """
    return decks.kinds(rules, by="seat")


def _seat_of(rules: Any, kind: str) -> int | None:
    """The seat whose deck holds ``kind`` (Black Prince; None in the other games); the library's
    error for a name that is no kind of the game, or a Black Prince kind named by army."""
    seat = decks.parse(rules, kind).seat
    if registry.name_of(rules) == "black-prince" and seat is None:
        raise InvalidArgumentError(f"a Black Prince card kind is '<seat>:<card>' ('0:Knights 3'), got {shown(kind)}")
    return seat


def _kinds(rules: Any, kinds: Sequence[str] | None) -> list[str]:
    if kinds is None:
        return list(kinds_of(rules))
    out = []
    for kind in bounded(kinds, "kinds", 10_000):
        kind = text(kind, "a card kind")
        _seat_of(rules, kind)
        out.append(kind)
    return out


def _changes(changes: Sequence[str], swaps: Sequence[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """The changes (each ``"add"`` or ``"remove"``) and the swaps (``(kind, other)`` pairs), checked."""
    made = [choice(change, "a change", CHANGES) for change in bounded(changes, "changes", len(CHANGES))]
    pairs = []
    for pair in bounded(swaps, "swaps", 10_000):
        if isinstance(pair, str) or not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise OrdonnanceTypeError(f"a swap is a pair (kind removed, kind added), got {shown(pair)}")
        pairs.append((text(pair[0], "a swapped-out kind"), text(pair[1], "a swapped-in kind")))
    return made, pairs


def _derived(rules: Any, kind: str, change: str, other: str | None) -> _deals.Derived | None:
    """How the variant's deals come from the base's: for Ordonnance, its deck orders derived from the
    base's (:class:`ordonnance.lab._deals.Derived`); None for the other games (the same seeds deal as
    the deck allows)."""
    if registry.name_of(rules) != "ordonnance":
        return None
    from ordonnance.cards import Card

    mask = Card.parse(kind).mask
    if change == "swap":
        assert other is not None
        return _deals.Derived(rules, _deals.SWAP, mask, Card.parse(other).mask)
    return _deals.Derived(rules, _deals.ADD if change == "add" else _deals.REMOVE, mask)


def _variant(rules: Any, kind: str, change: str, other: str | None) -> Any:
    """The base rules with one copy of ``kind`` added, removed, or swapped for ``other``."""
    if change == "swap":
        assert other is not None
        if other == kind:
            raise InvalidArgumentError(f"a swap changes a kind for another, got {shown(kind)} for itself")
        _kinds(rules, [other])
        return decks.changed(decks.changed(rules, {kind: -1}), {other: 1})
    return decks.changed(rules, {kind: 1 if change == "add" else -1})


def card_values(
    rules: Any,
    *,
    kinds: Sequence[str] | None = None,
    changes: Sequence[str] = CHANGES,
    swaps: Sequence[tuple[str, str]] = (),
    games: int = 100_000,
    seed: int = 0,
    players: Players = None,
    progress: bool | None = None,
    executor: ExecutorLike = "serial",
    workers: int | None = None,
) -> Study:
    """The value of each card kind of ``rules``' game to its holder, by controlled experiment
    (the module documentation says who holds a card and what the arms share).

    ``kinds``: the card kinds, as :func:`kinds_of` names them
    (Ordonnance ``"LS"``, Shinobi ``"Oda"`` and ``"Ninja"``, Black Prince ``"0:Knights 3"``);
    None: every kind of the deck(s). ``changes``: which of ``"add"`` and ``"remove"`` to
    make to each kind (a kind with no copy is not removed; a change the rules refuse,
    such as a deck too small, is left out when ``kinds`` is None and raises otherwise).
    ``swaps``: ``(kind, other)`` pairs, one copy of ``kind`` replaced by ``other``
    (the holder is then the holder of ``other``'s new copy). ``games``: games per arm;
    ``players``: the bots of every arm, one per seat, or a bot class (``players(seed=seat)``);
    None: the game's Greedy in every seat. ``progress``: a progress bar on standard error
    (None: only on a terminal, for a study longer than a second). Ctrl-C stops the study
    and returns the changes measured so far, with a note in its record. ``executor`` and
    ``workers``: where the games play, as :func:`ordonnance.tournament` takes them (default
    ``"serial"``: this process), the same table on any (:mod:`ordonnance.lab.running`).

    One row per change: metric ``"holder win rate change"`` (``"seat win rate change"``
    and a ``seat`` label for a kind that nobody holds), labels ``kind``, ``change``
    (``"add"``, ``"remove"``, ``"swap to <other>"``) and ``holder`` (the seat for a kind
    one seat owns, ``"drew"`` for Ordonnance's, ``"clan"`` for Shinobi's samurai), a
    paired :class:`~ordonnance.lab.stats.Difference`: variant minus base.
    """
    game = registry.name_of(rules)
    games = check_games(games)
    seed = check_seed(seed)
    chosen = _kinds(rules, kinds)
    made, pairs = _changes(changes, swaps)
    every_kind = kinds is None
    shared_deck = game == "ordonnance"
    bots = seat_bots(rules, players)
    progress = check_progress(progress)
    notes: list[str] = []
    tried: list[Any] = [rules]
    jobs: list[tuple[str, str, str | None]] = [(kind, change, None) for kind in chosen for change in made]
    jobs += [(kind, "swap", other) for kind, other in pairs]
    planned: list[tuple[str, str, str | None, Any]] = []
    for kind, change, other in jobs:
        try:
            planned.append((kind, change, other, _variant(rules, kind, change, other)))
        except OrdonnanceError as error:
            if not every_kind:
                raise
            notes.append(f"{kind} {change}: left out ({error})")
    rows: list[Row] = []
    executor, workers = running.checked(executor, workers)
    arms = [(rules, seed, bots)] + [(variant, seed, bots) for *_, variant in planned]
    deals = [None] + [_derived(rules, kind, change, other) for kind, change, other, _ in planned]
    with progress_bar((len(planned) + 1) * games, progress, "lab card_values") as bar, \
            running.runner(executor, workers) as ran:  # fmt: skip
        played = running.whole_arms(ran, arms, games, shared_deck, bar, deals)
        try:
            base = next(played)
            base_wins = _wins(base)
            for (kind, change, other, variant), arm in zip(planned, played):
                label = change if other is None else f"swap to {other}"
                rows += _rows(rules, base, arm, base_wins, kind, label, other)
                tried.append(variant)
        except KeyboardInterrupt:
            notes.append(f"stopped by Ctrl-C: {len(tried) - 1} of the {len(planned)} changes measured")
        finally:
            played.close()
    if shared_deck and rows:
        left_out = [1 - r.estimate.games / games for r in rows]
        notes.append(f"games with no holder (the changed place never drawn), left out: {min(left_out):.1%} to "
                     f"{max(left_out):.1%} of a change's games")  # fmt: skip
    record = Record(
        "card_values",
        f"lab.card_values({rules!r}, kinds={chosen!r}, changes={made!r}, swaps={pairs!r}, "
        f"games={games}, seed={seed}, players={described(players)})",
        seed=seed,
        games=games,
        rules=tuple(rules_text(r) for r in tried),
        players=tuple(map(repr, bots)),
        notes=(
            "every arm plays the same deal seeds and bot seeds (paired on purpose); each variant's deck order is the "
            "base's with every other card in its place: the new copy put at a uniform place (that place's card moved "
            "to the bottom), a uniform copy taken out (the bottom card moved into its place), or one swapped in "
            "place; the holder is the seat that drew the changed place, found by replaying the arm holding the copy "
            "(the arms are the same game until that place is drawn, but where a claim's proof tells their decks apart); "
            "games where it was never drawn are left out; "
            "value = the holder's result in the variant minus in the base, paired game by game"
            if shared_deck
            else "every arm plays the same deal seeds and bot seeds (paired on purpose; the deal differs where the "
            "deck does); value = the holder's win rate in the variant minus in the base, paired game by game",
            "a win is a sole win (1), anything else 0",
            *notes,
        ),
    )
    return Study(tuple(rows), record)


def _rows(
    rules: Any, base: Any, arm: Any, base_wins: npt.NDArray[np.float64], kind: str, change: str, swapped_in: str | None
) -> list[Row]:
    """The rows of one change: the holder's paired difference (or each seat's, for a kind nobody holds)."""
    game = registry.name_of(rules)
    arm_wins = _wins(arm)
    if game == "ordonnance":
        derived = _derived(rules, kind, "swap" if swapped_in is not None else change, swapped_in)
        assert derived is not None
        drew = _ordonnance_holders(rules, base, arm, derived)
        weights = (drew[:, None] == np.arange(rules.players)[None, :]).astype(np.float64)
        holder: str | int = "drew"
    else:
        owned = _owner_holders(rules, base, swapped_in or kind)
        if owned is None:
            return [
                row("seat win rate change", paired_difference(arm_wins[:, seat], base_wins[:, seat]), kind=kind, change=change, seat=seat)
                for seat in range(rules.players)
            ]
        weights = owned
        seat = _seat_of(rules, swapped_in or kind)
        holder = "clan" if seat is None else seat
    held = weights.sum(axis=1) > 0
    value = paired_difference((weights * arm_wins).sum(axis=1)[held], (weights * base_wins).sum(axis=1)[held])
    return [row("holder win rate change", value, kind=kind, change=change, holder=holder)]
