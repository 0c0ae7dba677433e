"""Territory odds: who wins a territory if the missing cards fall at random.

Like a poker equity calculator, :func:`territory_odds` answers "how likely is
each player to win this territory?" from what is known, assuming nothing
about how anyone will play.

>>> import ordonnance as od
>>> from ordonnance.odds import territory_odds
>>> game = od.Game.new(od.Rules(), seed=4)
>>> bots = [od.bots.Greedy(seed=0), od.bots.Greedy(seed=1)]
>>> for _ in range(16):
...     game.apply(bots[game.current_player].choose(game.view(game.current_player)))
>>> game.army(od.Territory.TRIPOLI, 1), game.army(od.Territory.TRIPOLI, 0)
((Card.parse('H'), Card.parse('H'), Card.parse('B'), Card.parse('BF')), ())
>>> print(territory_odds(game, od.Territory.TRIPOLI))
Tripoli: player 0 86.1%, player 1 13.9% (exact, 13,535 outcomes)
>>> print(territory_odds(game, od.Territory.ANTIOCH))
Antioch: player 0 50.6% ± 0.7%, player 1 49.4% ± 0.7% (20,000 samples)

**The model.** Only the cards not face up are uncertain:

* With a :class:`~ordonnance.Game`, only public information is used (as a
  spectator, or as the claim rule's proof, sees it): every card not face up
  (the draw pile and *all* hands) is unknown, and every army still missing
  cards in the territory is completed with cards drawn uniformly at random,
  without replacement, from those cards, jointly for all players (no card can
  go to two armies).
* With a :class:`~ordonnance.PlayerView` (or a ``Game`` and ``player=``), the
  viewer also knows their own hand. Those cards cannot go to an opponent: the
  opponents' missing cards are drawn from the cards the viewer cannot see
  (``view.unseen``: the pile and the other hands), and the viewer's own
  missing cards from their hand together with the unseen cards the opponents
  did not get. This is the same as: every way of filling the missing places
  with distinct physical cards, the viewer's hand cards only in the viewer's
  places, is equally likely.
* Each completed army is then scored (:func:`~ordonnance.army_key`) and the
  territory goes to the strongest (:ref:`rules-deciding-a-territory`). Ties go
  to the army completed first. Armies already complete keep their real
  completion time; armies still incomplete complete after them, those missing
  fewer cards first, then in turn order starting from the player to act.

Early claims need no special case: a claim is provable only when no
completion from the unseen cards beats the claimant, so the model gives the
claimant probability 1 there anyway (with ``claim_proof="public"``). Nobody's
strategy is modelled: the odds are those of cards falling at random, a
baseline for a player's judgement, not a prediction of skilled play.

A decided territory gives probability 1 to its owner. A territory that can
no longer be decided by completing its armies gives probability 0 to
everyone: one left undecided in a finished game (the safety rule, custom
decks only), or, seen from a view, one where the cards the viewer cannot see
are too few to complete the opponents' armies (late in a game, with the pile
empty and the missing cards in the viewer's hand). With a ``Game`` the cards
not face up always suffice.

**Exact or sampled.** A joint outcome is one multiset of cards per
incomplete army, weighted by the number of ways to draw it (its
hypergeometric count). When an upper bound on their number (the product of
each army's possible multisets) is at most ``max_exact``, they are all
enumerated and the odds are exact. Otherwise
``samples`` random completions are drawn (seeded, so the same call gives the
same answer) and each probability comes with its standard error. Both run in
numba kernels (compiled on first use, cached on disk); see ``docs/odds.rst``
for timings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numba
import numpy as np
import numpy.typing as npt

from ordonnance._army_kernel import key4
from ordonnance._simulator_kernel import bounded, splitmix64
from ordonnance.actions import to_territory
from ordonnance.army import ARMY_SIZE
from ordonnance.cards import MAX_MASK
from ordonnance.errors import InvalidGameStateError, InvalidRulesError, InvalidSeatError, OrdonnanceTypeError
from ordonnance.game import Game
from ordonnance.territory import Territory
from ordonnance.view import PlayerView
from ordonnance.core.checks import shown
from ordonnance.core.clock import untimed

__all__ = ["Odds", "territory_odds", "DEFAULT_SAMPLES", "DEFAULT_MAX_EXACT", "MAX_SAMPLES", "MAX_EXACT_LIMIT"]

#: Monte-Carlo samples drawn by default when the odds are not computed exactly.
DEFAULT_SAMPLES = 20_000
#: Largest number of joint outcomes enumerated exactly by default.
DEFAULT_MAX_EXACT = 200_000
#: The most samples one call may draw (about a minute on one core).
MAX_SAMPLES = 100_000_000
#: The largest ``max_exact`` a call accepts (an enumeration of that many outcomes takes seconds).
MAX_EXACT_LIMIT = 100_000_000

_MASK64 = (1 << 64) - 1
_LATER = 1 << 20  # completion order of armies that complete in the future


@attrs.frozen
class Odds:
    """Each seat's probability of winning one territory (see :func:`territory_odds`)."""

    territory: Territory
    """The territory."""
    probabilities: tuple[float, ...]
    """Probability that each seat wins it; they add up to 1 (0 for all if it can no longer be decided)."""
    exact: bool
    """True when computed by enumeration (or the territory is decided), False when sampled."""
    samples: int
    """Monte-Carlo samples drawn (0 when exact)."""
    stderr: tuple[float, ...]
    """Standard error of each probability (0 when exact)."""
    outcomes: int = 0
    """Joint outcomes enumerated (0 when sampled or decided)."""

    @property
    def favourite(self) -> int:
        """The seat most likely to win (the lowest seat on equal odds)."""
        return max(range(len(self.probabilities)), key=lambda p: (self.probabilities[p], -p))

    def interval(self, seat: int, z: float = 1.959963984540054) -> tuple[float, float]:
        """A confidence interval for ``seat``'s probability: ``p ± z * stderr`` (95% by default), clipped to 0..1."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < len(self.probabilities):
            raise InvalidSeatError(f"seats are 0..{len(self.probabilities) - 1}, got {shown(seat)}")
        if isinstance(z, bool) or not isinstance(z, (int, float)) or not 0 <= z < math.inf:
            raise InvalidRulesError(f"z must be a finite number of standard errors, at least 0, got {shown(z)}")
        p, e = self.probabilities[seat], self.stderr[seat]
        return (max(0.0, p - z * e), min(1.0, p + z * e))

    def __str__(self) -> str:
        if self.exact:
            how = f"exact, {self.outcomes:,} outcomes" if self.outcomes else "exact"
            shares = ", ".join(f"player {p} {x:.1%}" for p, x in enumerate(self.probabilities))
        else:
            how = f"{self.samples:,} samples"
            shares = ", ".join(
                f"player {p} {x:.1%} ± {1.96 * e:.1%}" for p, (x, e) in enumerate(zip(self.probabilities, self.stderr))
            )
        return f"{self.territory.label}: {shares} ({how})"


# --------------------------------------------------------------------- kernels


@numba.njit(cache=True, inline="always")
def _leaf_winner(
    n: int,
    armies: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
) -> int:
    best = -1
    best_key = -1
    for p in range(n):
        key = key4(armies[p, 0], armies[p, 1], armies[p, 2], armies[p, 3])
        if key > best_key or (key == best_key and order[p] < order[best]):
            best = p
            best_key = key
    return best


@numba.njit(cache=True)
def _exact(
    n: int,
    partial: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    slot_player: npt.NDArray[np.int64],
    viewer_first: int,
    unseen: npt.NDArray[np.int64],
    known: npt.NDArray[np.int64],
    out: npt.NDArray[np.float64],
) -> int:
    """Enumerate every joint completion; adds each winner's weight to ``out``.

    ``slot_player[s]`` is the seat that slot ``s`` completes (a seat's slots
    are consecutive, the viewer's last, from slot ``viewer_first``, or -1).
    A seat's slots take nondecreasing masks, so each multiset is met once,
    weighted by the number of ways to draw it (a product of binomials):
    choosing mask ``m`` with ``r`` copies left, when the seat already took
    ``j`` copies of ``m``, multiplies the weight by ``r / (j + 1)``. The
    viewer's slots draw from what is left of ``unseen`` plus ``known``.
    Returns the number of outcomes.
    """
    slots = slot_player.shape[0]
    armies = partial.copy()
    remaining = unseen.copy()
    choice = np.zeros(slots, np.int64)
    candidate = np.zeros(slots + 1, np.int64)
    run = np.zeros(slots, np.int64)
    weight = np.ones(slots + 1, np.float64)  # weight[s + 1]: after slot s
    if slots == 0:
        out[_leaf_winner(n, armies, order)] += 1.0
        return 1
    if viewer_first == 0:
        remaining += known
    leaves = 0
    s = 0
    candidate[0] = 1
    while s >= 0:
        m = candidate[s]
        while m <= 31 and remaining[m] <= 0:
            m += 1
        if m > 31:
            # slot s is exhausted: back up
            if s == viewer_first:
                remaining -= known
            s -= 1
            if s >= 0:
                p = slot_player[s]
                remaining[choice[s]] += 1
                armies[p, lengths[p] + _slot_index(s, slot_player)] = 0
                candidate[s] = choice[s] + 1
            continue
        p = slot_player[s]
        first = s == 0 or slot_player[s - 1] != p
        j = 0 if first or choice[s - 1] != m else run[s - 1] + 1
        run[s] = j
        weight[s + 1] = weight[s] * remaining[m] / (j + 1)
        choice[s] = m
        armies[p, lengths[p] + _slot_index(s, slot_player)] = m
        if s == slots - 1:
            out[_leaf_winner(n, armies, order)] += weight[s + 1]
            leaves += 1
            armies[p, lengths[p] + _slot_index(s, slot_player)] = 0
            candidate[s] = m + 1
            continue
        remaining[m] -= 1
        s += 1
        candidate[s] = m if slot_player[s] == p else 1
        if s == viewer_first:
            remaining += known
    return leaves


@numba.njit(cache=True, inline="always")
def _slot_index(s: int, slot_player: npt.NDArray[np.int64]) -> int:
    """Position of slot ``s`` among its seat's slots."""
    i = 0
    while s - i - 1 >= 0 and slot_player[s - i - 1] == slot_player[s]:
        i += 1
    return i


@numba.njit(cache=True)
def _sample(
    n: int,
    partial: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    slot_player: npt.NDArray[np.int64],
    viewer_first: int,
    buf: npt.NDArray[np.int64],
    known_cards: npt.NDArray[np.int64],
    samples: int,
    state: np.uint64,
    wins: npt.NDArray[np.int64],
) -> np.uint64:
    """``samples`` random joint completions; counts each winner in ``wins``, and returns the
    generator's state after them.

    Opponents' slots draw uniformly without replacement from the unseen cards ``buf``
    (which it shuffles in place); the viewer's slots (from ``viewer_first``) from the rest of
    them plus ``known_cards``. Calls that go on with the returned state and the same ``buf``
    draw what one call for all their samples would.
    """
    slots = slot_player.shape[0]
    nu = buf.shape[0]
    nk = known_cards.shape[0]
    armies = partial.copy()
    pool = np.empty(nu + nk, np.int64)
    for _ in range(samples):
        left = nu
        s = 0
        while s < slots and s != viewer_first:
            state, value = splitmix64(state)
            j = bounded(value, left)
            card = buf[j]
            buf[j] = buf[left - 1]
            buf[left - 1] = card
            left -= 1
            p = slot_player[s]
            armies[p, lengths[p] + _slot_index(s, slot_player)] = card
            s += 1
        if s < slots:
            for i in range(left):
                pool[i] = buf[i]
            for i in range(nk):
                pool[left + i] = known_cards[i]
            size = left + nk
            while s < slots:
                state, value = splitmix64(state)
                j = bounded(value, size)
                card = pool[j]
                pool[j] = pool[size - 1]
                size -= 1
                p = slot_player[s]
                armies[p, lengths[p] + _slot_index(s, slot_player)] = card
                s += 1
        wins[_leaf_winner(n, armies, order)] += 1
    return state


# --------------------------------------------------------------------- public


def territory_odds(
    position: Game | PlayerView,
    territory: Territory | int,
    *,
    player: int | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_exact: int = DEFAULT_MAX_EXACT,
) -> Odds:
    """Each seat's probability of winning ``territory`` when the missing cards fall at random.

    ``position`` is a :class:`~ordonnance.Game` (public information only:
    every card not face up is unknown) or a :class:`~ordonnance.PlayerView`
    (its seat also knows its own hand); ``player=`` with a ``Game`` takes that
    seat's view. The model is spelled out in :mod:`ordonnance.odds`. The
    answer is exact when at most ``max_exact`` joint outcomes can exist (an
    upper bound: the product of each incomplete army's possible multisets of
    cards; 0 forces sampling), else estimated from ``samples`` random completions drawn from
    ``seed`` (an int in 0..2**64-1; the same seed gives the same estimate).

    >>> import ordonnance as od
    >>> game = od.Game.new(od.Rules(), seed=4)
    >>> game.apply(od.Play("HF", od.Territory.EDESSA))
    >>> odds = territory_odds(game, od.Territory.EDESSA, player=0, samples=5_000, seed=1)
    >>> odds.exact, odds.samples, odds.favourite
    (False, 5000, 0)

    Raises :class:`~ordonnance.errors.InvalidTerritoryError` or
    :class:`~ordonnance.errors.InvalidSeatError` for a bad territory or seat,
    :class:`~ordonnance.errors.OrdonnanceTypeError` for arguments of the wrong
    type, and :class:`~ordonnance.errors.InvalidRulesError` for a bad
    ``samples`` (1..:data:`MAX_SAMPLES`), ``seed`` or ``max_exact``
    (0..:data:`MAX_EXACT_LIMIT`).
    """
    t = to_territory(territory)
    _check_int("samples", samples, 1, MAX_SAMPLES)
    _check_int("seed", seed, 0, _MASK64)
    _check_int("max_exact", max_exact, 0, MAX_EXACT_LIMIT)
    samples, seed, max_exact = int(samples), int(seed), int(max_exact)
    info = _Info.of(position, t, player)
    n = info.n
    if info.owner is not None:
        return _certain(t, n, info.owner)
    if info.over:
        return Odds(t, (0.0,) * n, True, 0, (0.0,) * n, 0)

    lengths = np.array([len(a) for a in info.armies], np.int64)
    missing = ARMY_SIZE - lengths
    partial = np.zeros((n, ARMY_SIZE), np.int64)
    for p, army in enumerate(info.armies):
        partial[p, : len(army)] = army
    # Completion order: real times first, then fewer cards missing, then turn order from the player to act.
    later = sorted(
        (p for p in range(n) if info.completed_at[p] is None),
        key=lambda p: (missing[p], (p - info.current) % n),
    )
    order = np.array([info.completed_at[p] if info.completed_at[p] is not None else 0 for p in range(n)], np.int64)
    for rank, p in enumerate(later):
        order[p] = _LATER + rank
    # Draw order: opponents (seat order), then the viewer, whose pool differs.
    drawers = [p for p in range(n) if missing[p] and p != info.viewer]
    if info.viewer is not None and missing[info.viewer]:
        drawers.append(info.viewer)
    slot_player = np.array([p for p in drawers for _ in range(missing[p])], np.int64)
    viewer_first = -1
    if info.viewer is not None and missing[info.viewer]:
        viewer_first = int(np.flatnonzero(slot_player == info.viewer)[0])
    opponents_need = int(sum(missing[p] for p in drawers if p != info.viewer))
    if int(missing.sum()) > int(info.unseen.sum() + info.known.sum()):
        # Never from a real game: the cards not face up always suffice.
        raise InvalidGameStateError(
            f"inconsistent position: {int(missing.sum())} cards missing in {t.label}, "
            f"only {int(info.unseen.sum() + info.known.sum())} not face up"
        )
    if opponents_need > int(info.unseen.sum()):
        # The viewer holds cards the opponents would need: no deal completes every army.
        return Odds(t, (0.0,) * n, True, 0, (0.0,) * n, 0)

    if _outcome_bound(info.unseen, info.known, [int(missing[p]) for p in drawers], viewer_first >= 0) <= max_exact:
        weights = np.zeros(n, np.float64)
        outcomes = int(_exact(n, partial, lengths, order, slot_player, viewer_first, info.unseen, info.known, weights))
        total = float(weights.sum())
        probabilities = tuple(float(w / total) for w in weights)
        return Odds(t, probabilities, True, 0, (0.0,) * n, outcomes)

    wins = np.zeros(n, np.int64)
    unseen_cards = np.repeat(np.arange(MAX_MASK + 1, dtype=np.int64), info.unseen)
    known_cards = np.repeat(np.arange(MAX_MASK + 1, dtype=np.int64), info.known)
    state = np.uint64(seed)

    def draw(first: int, count: int) -> int:  # slices of samples: Ctrl-C is seen between them
        nonlocal state
        state = np.uint64(_sample(n, partial, lengths, order, slot_player, viewer_first, unseen_cards, known_cards,
                                  count, state, wins))  # fmt: skip (numba hands a uint64 back as an int)
        return count

    with np.errstate(over="ignore"):  # the 64-bit generator wraps around without the JIT
        untimed(draw, samples)
    probabilities = tuple(float(w) / samples for w in wins)
    stderr = tuple(math.sqrt(max(x * (1.0 - x), 0.0) / samples) for x in probabilities)
    return Odds(t, probabilities, False, samples, stderr, 0)


def _certain(t: Territory, n: int, owner: int) -> Odds:
    return Odds(t, tuple(1.0 if p == owner else 0.0 for p in range(n)), True, 0, (0.0,) * n, 0)


def _check_int(name: str, value: object, low: int, high: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise OrdonnanceTypeError(f"{name} must be an int, got {shown(value)}")
    if value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f">= {low}"
        raise InvalidRulesError(f"{name} must be {bounds}, got {shown(value)}")


def _multisets(counts: npt.NDArray[np.int64], k: int) -> int:
    """How many multisets of ``k`` cards the pool ``counts`` can supply."""
    poly = [1] + [0] * k
    for c in counts.tolist():
        if c <= 0:
            continue
        new = [0] * (k + 1)
        for i, coefficient in enumerate(poly):
            if coefficient:
                for j in range(min(c, k - i) + 1):
                    new[i + j] += coefficient
        poly = new
    return poly[k]


def _outcome_bound(unseen: npt.NDArray[np.int64], known: npt.NDArray[np.int64], missing: Sequence[int], viewer_last: bool) -> int:
    """An upper bound on the joint outcomes: each seat's multisets from the whole pool, multiplied."""
    bound = 1
    for i, k in enumerate(missing):
        pool = unseen + known if viewer_last and i == len(missing) - 1 else unseen
        bound *= _multisets(pool, k)
    return bound


@attrs.frozen
class _Info:
    """What the odds of one territory depend on, read from a Game or a view."""

    n: int
    owner: int | None
    over: bool
    current: int
    armies: tuple[tuple[int, ...], ...]
    completed_at: tuple[int | None, ...]
    unseen: npt.NDArray[np.int64]
    known: npt.NDArray[np.int64]
    viewer: int | None

    @classmethod
    def of(cls, position: object, t: Territory, player: object) -> _Info:
        known = np.zeros(MAX_MASK + 1, np.int64)
        if isinstance(position, Game):
            game = position
            n = game.players
            viewer: int | None = None
            if player is not None:
                viewer = _seat(player, n)
                for card in game.hand(viewer):
                    known[card.mask] += 1
            unseen = np.zeros(MAX_MASK + 1, np.int64)
            for card, count in game.unseen(viewer).items():
                unseen[card.mask] = count
            return cls(
                n=n,
                owner=game.territory_owner(t),
                over=game.is_over,
                current=game.current_player,
                armies=tuple(tuple(c.mask for c in game.army(t, p)) for p in range(n)),
                completed_at=tuple(game.completed_at(t, p) for p in range(n)),
                unseen=unseen,
                known=known,
                viewer=viewer,
            )
        if isinstance(position, PlayerView):
            view = position
            n = view.rules.players
            if player is not None and player != view.seat:
                raise InvalidSeatError(
                    f"this view belongs to seat {view.seat}; player={shown(player)} can only be given with a Game"
                )
            for card in view.hand:
                known[card.mask] += 1
            return cls(
                n=n,
                owner=view.owners[t],
                over=view.is_over,
                current=view.current_player,
                armies=tuple(tuple(c.mask for c in view.armies[t][p]) for p in range(n)),
                completed_at=tuple(view.completed_at[t]),
                unseen=np.array(view.unseen, np.int64),
                known=known,
                viewer=view.seat,
            )
        raise OrdonnanceTypeError(f"territory odds need a Game or a PlayerView, not {type(position).__name__}: {shown(position)}")


def _seat(player: object, n: int) -> int:
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise OrdonnanceTypeError(f"a player is a seat number, not {type(player).__name__}: {shown(player)}")
    if not 0 <= player < n:
        raise InvalidSeatError(f"seats are 0..{n - 1}, got {shown(player)}")
    return int(player)
