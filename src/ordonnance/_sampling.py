"""Private: deals of the hidden cards consistent with a view (:meth:`PlayerView.sample_game`).

A :class:`Deal` is built once per view: the public position in the engine's
own lists, checked against the rules' cards. Each sample then shuffles the
cards the seat cannot see in one kernel call and builds the
:class:`~ordonnance.Game` state directly, as :meth:`Game.clone` does (no
replay, no JSON).

**Uniformity.** The unseen cards, one entry per copy, are shuffled uniformly
(Fisher-Yates on SplitMix64, the shuffle of :meth:`Game.new`); the first
``hand_sizes[q]`` go to each other seat ``q`` in seat order and the rest,
in order, is the draw pile. Every arrangement of a multiset is then equally
likely, so every deal (each hand in its order, the pile in its order) is.

**Reachability.** With ``claim_proof="private"`` what a seat can prove
depends on its own hand, so some of those deals are positions the engine
cannot reach, and :meth:`Game.from_json` refuses them: a territory claimed
early that the claimant's hand no longer lets it prove, a provable territory
that ``auto_claim`` would have awarded, a seat listed as having passed with
no claim to make, a seat to act with nothing to do, or a game over while a
seat could still claim. :func:`hands_fit` finds them (the rules "claims",
"automatic claims", "end" and "passes" of docs/saves.rst, the only ones that
look at hidden cards once the deal has no seed) and the shuffle is drawn
again: rejection sampling, which keeps the distribution uniform over the
deals left. Public proof, and points scoring, never refuse a deal.

The rule "turns" looks at hidden cards too: a seat the turn went past since
the last play had no claim to make (unless it passed, before a claim cleared
the pass), or it would have been asked (:func:`passed_over`). :func:`hands_fit` applies it as well, cheaply.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING

import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _simulator_kernel as kernel
from ordonnance.cards import MAX_MASK
from ordonnance.errors import InvalidGameStateError
from ordonnance.game import NOBODY, NOT_COMPLETE, Check, Game
from ordonnance.territory import TERRITORY_COUNT
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from ordonnance.view import PlayerView

__all__ = ["Deal", "MAX_ATTEMPTS", "hands_fit", "passed_over"]

#: Deals a sample draws before giving up on a view no reachable deal fits.
MAX_ATTEMPTS = 100_000
_JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
_TWO63, _TWO64 = 1 << 63, 1 << 64
# Odd constants of the seed mix: sampling streams never start where Game.new's shuffle does.
_ATTEMPT_GAMMA = np.uint64(0xA0761D6478BD642F)
_SAMPLE_TAG = np.uint64(0xE7037ED1A0B428DB)


@numba.njit(cache=True)
def _shuffle_unseen(
    cards: npt.NDArray[np.int64], seed: int | np.uint64, seat: int, attempt: int
) -> npt.NDArray[np.int64]:
    """``cards`` shuffled from a stream of (seed, seat, attempt); ``seed`` is the
    64-bit seed read as a signed int (numba's int64; the cast back is exact),
    or the NumPy uint64 itself when run as Python.

    Each input goes through the SplitMix64 finaliser (a bijection) before the
    next joins, so different seats, or attempts, of one seed never share a
    stream, and a seed's stream is not the one ``Game.new(seed=...)`` shuffles with.
    """
    room = np.empty(cards.shape[0] + kernel.SHUFFLE_DRAWS, np.int64)  # one allocation: the order, then the draws
    out = room[: cards.shape[0]]
    _, state = kernel.splitmix64(np.uint64(seed))
    _, state = kernel.splitmix64(state + np.uint64(seat + 1) * kernel._SEAT_GAMMA)
    _, state = kernel.splitmix64(state + np.uint64(attempt) * _ATTEMPT_GAMMA + _SAMPLE_TAG)
    kernel._shuffle(cards, state, out, room[cards.shape[0] :])
    return out


def _inconsistent(message: str) -> InvalidGameStateError:
    return InvalidGameStateError(f"inconsistent view: {message}")


class Deal:
    """The public position of one view, ready to receive random deals."""

    __slots__ = (
        "_seat", "_rules", "_cards", "_sizes", "_hand", "_armies", "_completed",
        "_owner", "_marker", "_plays", "_current", "_over", "_passed", "_hidden", "_constrained", "_passed_over",
        "_spans", "_dealt",
    )  # fmt: skip

    def __init__(self, view: PlayerView) -> None:
        rules, seat, n = view.rules, view.seat, view.rules.players
        self._check_shapes(view)
        self._seat = seat
        self._rules = rules
        self._hand = [card.mask for card in view.hand]
        self._armies = [[[card.mask for card in army] for army in row] for row in view.armies]
        self._check_cards(view)
        self._completed = [[NOT_COMPLETE if d is None else d for d in row] for row in view.completed_at]
        self._owner = [NOBODY if o is None else o for o in view.owners]
        self._marker = [m or 0 for m in view.markers]
        self._plays = view.plays
        self._current = view.current_player
        self._over = view.is_over
        self._passed = sum(1 << p for p in view.passed)
        self._sizes = view.hand_sizes
        # Where each other hand lies in a deal of the unseen cards (None: this seat's own), then the pile.
        self._spans: list[tuple[int, int] | None] = []
        at = 0
        for q, size in enumerate(self._sizes):
            self._spans.append(None if q == seat else (at, at + size))
            at += 0 if q == seat else size
        self._dealt = at
        unseen = np.array(view.unseen, dtype=np.int64)
        self._cards = np.repeat(np.arange(MAX_MASK + 1, dtype=np.int64), unseen)
        self._hidden = unseen.copy()
        for m in self._hand:
            self._hidden[m] += 1
        self._constrained = rules.claims_allowed and rules.claim_proof == "private"
        self._passed_over = passed_over(
            self._armies, self._completed, self._owner, self._marker, self._current, self._passed
        )

    @staticmethod
    def _check_shapes(view: PlayerView) -> None:
        """Refuse a view no game can give (built or evolved by hand) whose fields do not fit its rules."""
        n, seat = view.rules.players, view.seat
        rows = (view.armies, view.completed_at)
        if any(len(row) != TERRITORY_COUNT or any(len(cell) != n for cell in row) for row in rows):
            raise _inconsistent(f"armies and completed_at must be {TERRITORY_COUNT} rows of {n} seats")
        if len(view.owners) != TERRITORY_COUNT or len(view.markers) != TERRITORY_COUNT:
            raise _inconsistent(
                f"owners and markers must have {TERRITORY_COUNT} entries, got {shown(view.owners)} and {shown(view.markers)}"
            )
        if not 0 <= view.current_player < n:
            raise _inconsistent(f"current_player must be a seat 0..{n - 1}, got {shown(view.current_player)}")
        if len(view.hand_sizes) != n or min(view.hand_sizes) < 0 or view.hand_sizes[seat] != len(view.hand):
            raise _inconsistent(f"hand sizes {shown(view.hand_sizes)} for {n} players, seat {seat} holding {len(view.hand)}")
        if len(view.unseen) != MAX_MASK + 1 or min(view.unseen) < 0:
            raise _inconsistent(f"unseen must count the copies of masks 0..{MAX_MASK}, got {shown(view.unseen)}")
        if any(not 0 <= p < n for p in view.passed) or list(view.passed) != sorted(set(view.passed)):
            raise _inconsistent(f"passed must list seats 0..{n - 1} in increasing order, got {shown(view.passed)}")

    def _check_cards(self, view: PlayerView) -> None:
        """Refuse a view whose cards do not add up to the rules' cards."""
        others = sum(view.hand_sizes) - len(view.hand)
        if sum(view.unseen) != others + view.deck_size:
            raise _inconsistent(
                f"{sum(view.unseen)} unseen cards, but the other hands and the deck hold {others + view.deck_size}"
            )
        places = Counter({m: c for m, c in enumerate(view.unseen) if c})
        places.update(self._hand)
        for row in self._armies:
            for army in row:
                places.update(army)
        if places != Counter(card.mask for card in view.rules.cards):
            raise _inconsistent("the unseen cards, the hand and the table are not the rules' cards")

    def sample(self, seed: int) -> Game:
        """A game of this position with the unseen cards dealt from ``seed`` (validated)."""
        signed = seed - _TWO64 if seed >= _TWO63 else seed
        for attempt in range(MAX_ATTEMPTS):
            if _JIT:
                masks = _shuffle_unseen(self._cards, signed, self._seat, attempt).tolist()
            else:
                with np.errstate(over="ignore"):  # NumPy scalars warn on the wrap-around SplitMix64 relies on
                    masks = _shuffle_unseen(self._cards, np.uint64(seed), self._seat, attempt).tolist()
            game = self.game(masks)
            if not self._constrained or hands_fit(game, self._seat, self._passed_over):
                return game
        raise _inconsistent(f"no deal of the unseen cards in {MAX_ATTEMPTS:,} tries is a position the engine can reach")

    def game(self, masks: list[int], check: Check = "none") -> Game:
        """The position with ``masks`` dealt: the other hands in seat order, then the pile (top last);
        ``check`` as :meth:`Game._from_position <ordonnance.Game._from_position>` takes it."""
        hands = [self._hand[:] if span is None else masks[span[0] : span[1]] for span in self._spans]
        # The view was checked once (__init__); a deal only permutes its unseen cards, so unchecked by default.
        return Game._from_position(
            self._rules, masks[self._dealt :], hands, [[*map(list.copy, row)] for row in self._armies],
            [*map(list.copy, self._completed)], self._owner[:], self._marker[:], self._plays, self._current,
            self._over, self._passed, self._hidden.copy(), check,  # hidden and check by position: a little faster
        )  # fmt: skip


def passed_over(
    armies: list[list[list[int]]],
    completed: list[list[int]],
    owner: list[int],
    marker: list[int],
    current: int,
    passed: int,
) -> list[int]:
    """The seats the turn went past since the last play that had no claim to make.

    Turns go round in seat order and a seat plays whenever it can, so the last
    play was made by the highest seat among those with the most cards on the
    table (seat n - 1 before any play: the first turn is handed on from it).
    After it the engine asked the seats in order until one could act; a claim
    that leaves its claimant nothing to do, or a pass, sends the turn on. So
    every seat strictly between that seat and the one to act (all the others
    if the turn came back to it) was asked and had no play, and no claim to
    make unless it passed. The cards not face up have not changed since the
    play and their hands have not either (a seat draws only when it is given
    the turn), and claims only take territories away, so they still have none.

    A claim clears every pass, so a seat without a pass may have passed all
    the same when a later seat claimed after it: if the latest capture is a
    claim (its territory is not complete for all) by a seat after it and not
    after the one to act, the seats before that claimant are left out (the
    claimant itself sent the turn on after its claim: it had no other).
    """
    n = len(armies[0])
    counts = [sum(len(row[p]) for row in armies) for p in range(n)]
    top = max(counts)
    last = n - 1 if top == 0 else max(p for p in range(n) if counts[p] == top)
    walk = [(last + i) % n for i in range(1, (current - last - 1) % n + 1)]
    latest = max(range(TERRITORY_COUNT), key=lambda t: marker[t])
    if marker[latest] and NOT_COMPLETE in completed[latest] and owner[latest] in walk + [current]:
        walk = walk[walk.index(owner[latest]) :] if owner[latest] in walk else []
    return [q for q in walk if not passed >> q & 1]


def hands_fit(game: Game, seat: int, over: list[int] | None = None) -> bool:
    """Whether the hands of the seats other than ``seat`` fit what the public
    position says they allowed (under private proof; see the module's docstring).

    The same rules as ``_positions._check_claims`` and ``_check_end``, for the
    hidden hands only (``seat``'s own hand is the real one, so its part holds),
    and the rule of :func:`passed_over` (``over``: those seats, computed from
    ``game`` when not given).
    """
    n, current, rules = game.players, game._current, game._rules
    for t in range(TERRITORY_COUNT):
        owner = game._owner[t]
        if owner == NOBODY:
            if rules.auto_claim:
                for p in range(n):
                    complete = game._completed[t][p] != NOT_COMPLETE
                    if p != seat and p != current and complete and game._beater(p, t) is None:
                        return False  # auto_claim would have awarded it after the last play
        elif owner != seat and NOT_COMPLETE in game._completed[t] and game._beater(owner, t) is not None:
            return False  # claimed early: provable then, so provable now
    for p in range(n):
        if p != seat and game._passed >> p & 1 and not game._provable_claims(p):
            return False  # a seat passes only with a claim it could make instead
    if game._over:
        if NOBODY in game._owner:
            return not any(p != seat and game._can_act(p) for p in range(n))
        return True
    if over is None:
        over = passed_over(game._armies, game._completed, game._owner, game._marker, current, game._passed)
    if any(q != seat and game._provable_claims(q) for q in over):
        return False  # the turn went past a seat with a claim to make
    if current == seat or (game._hands[current] and game._open_territories(current)):
        return True  # a play is legal
    return bool(game._provable_claims(current))  # the seat to act has something to do
