"""The game: state, turns, legal actions, resolution, claims and the winner.

A :class:`Game` is a mutable position that follows the rules (:ref:`rules`). Drive it with
:meth:`Game.legal_actions` and :meth:`Game.apply`; every other method only
reads. Chance (the shuffle) happens once, in :meth:`Game.new`, from a seed.

>>> import ordonnance as od
>>> game = od.Game.new(od.Rules(players=2), seed=7)
>>> game.current_player, len(game.hand(0)), game.deck_size
(0, 6, 45)
>>> game.hand(0)
(Card.parse('LSHF'), Card.parse('LS'), Card.parse('LBSF'), Card.parse('BSF'), Card.parse('B'), Card.parse('LBS'))
>>> game.apply(od.Play("LSHF", od.Territory.ANTIOCH))
>>> game.current_player, game.army(od.Territory.ANTIOCH, 0)
(1, (Card.parse('LSHF'),))
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance import _army_kernel
from ordonnance.core.engine import EngineGame, OneDrawPile
from ordonnance.core.rng import shuffle
from ordonnance.core.seeds import SEED_LIMIT as _SEED_LIMIT, check_seed as _check_seed
from ordonnance.actions import CLAIMS, PASS, PLAYS, Action, Claim, Pass, Play, to_territory
from ordonnance.army import ARMY_SIZE, describe
from ordonnance.cards import MAX_MASK, Card, CardLike, build_deck
from ordonnance.completion import _can_beat_masks
from ordonnance.errors import (
    IllegalActionError,
    InvalidDeckError,
    InvalidSeedError,
    OrdonnanceTypeError,
)
from ordonnance.rules import HAND_SIZE, Rules
from ordonnance.territory import TERRITORY_COUNT, Territory
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from ordonnance.view import PlayerView

__all__ = ["Game", "Counterexample", "POINTS_BY_RANK"]

#: Points per territory by rank under ``scoring="points"``: 3, 2, 1, then 0.
POINTS_BY_RANK = (3, 2, 1, 0)
#: How much :meth:`Game._from_position` checks.
Check = Literal["none", "parts", "consistent", "reachable"]
_CHECKS = ("none", "parts", "consistent", "reachable")
#: A seat's entry in ``Game._completed`` while its army there is not complete.
NOT_COMPLETE = -1
#: The owner of a territory nobody has won yet.
NOBODY = -1


def _key(masks: Sequence[int]) -> int:
    m = list(masks) + [0] * (ARMY_SIZE - len(masks))
    key: int = _army_kernel.key4(m[0], m[1], m[2], m[3])
    return key


@attrs.frozen
class Counterexample:
    """Why a claim cannot be proven: ``opponent`` could still beat the claimant.

    ``cards`` are cards the opponent could still add (from the cards not face
    up) to reach an army of strength ``key`` that would win the territory;
    empty when the opponent's complete army already wins it.
    """

    opponent: int
    """The seat of the opponent who could win the territory."""
    cards: tuple[Card, ...]
    """Cards that opponent could still add to their army there."""
    key: int
    """The strength key the opponent's army would reach."""

    def __str__(self) -> str:
        with_cards = f" by adding {' '.join(map(str, self.cards))}" if self.cards else ""
        return f"player {self.opponent} could still reach {describe(self.key)}{with_cards}"


class Game(OneDrawPile, EngineGame[Rules, "PlayerView"]):
    """A game of Ordonnance in progress (or finished).

    Create games with :meth:`new` or :meth:`from_json`. The state changes only
    through :meth:`apply`; an illegal action raises
    :class:`~ordonnance.errors.IllegalActionError` and changes nothing. The game
    is over (:attr:`is_over`) once every territory is decided or nobody can act.
    Games are equal when their rules, seed and positions are: the
    :attr:`history` that reached the position is not compared. Saves
    (:meth:`to_json`) are described in :doc:`/saves`.
    """

    _package = "ordonnance"
    _seat_noun = "player"
    # unseen: what the seat cannot see, so the seat's hand by difference
    _private_view_keys = ("seat", "hand", "legal_actions", "unseen")

    __slots__ = (
        "_rules",
        "_seed",
        "_rng_state",
        "_deck",
        "_hands",
        "_armies",
        "_completed",
        "_owner",
        "_marker",
        "_plays",
        "_current",
        "_over",
        "_passed",
        "_hidden",
        "_history",
        "_start",
        "_order",
    )

    _rules: Rules
    _seed: int | None
    _rng_state: int | None
    _deck: list[int]  # masks, top card LAST so that drawing is a pop()
    _hands: list[list[int]]
    _armies: list[list[list[int]]]  # [territory][seat] -> masks in play order
    _completed: list[list[int]]  # [territory][seat] -> play number of the 4th card, or -1
    _owner: list[int]  # [territory] -> seat, or -1
    _marker: list[int]  # [territory] -> victory marker 1..5, or 0
    _plays: int  # cards played so far
    _current: int
    _over: bool
    _passed: int  # bit p set: seat p passed since the last play or claim (it is not asked again)
    _hidden: npt.NDArray[np.int64]  # counts by mask of every card not face up
    _history: list[Action] | None  # the actions applied since the start; None: set up here, nothing applied yet
    _start: Game | None  # the position a set-up game started from (never changed); None: the deal, or here
    _order: tuple[int, ...] | None  # the deck given to new(deck=), top card first; None: shuffled, or set up

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        deck: Iterable[CardLike] | None = None,
    ) -> Game:
        """Start a game: shuffle (from ``seed``) or take ``deck`` as the exact order.

        ``deck`` lists the cards top first and must hold exactly the cards of
        ``rules`` (a permutation of the standard deck unless ``rules.deck`` is
        set). Without ``deck`` the rules' cards are shuffled; a ``seed`` (an
        int in 0..2**64-1) makes the shuffle the same on every machine, and
        without one a random seed is drawn (see :attr:`seed`). Cards are dealt
        one at a time in seat order, five each; then player 0 starts. The
        game's :attr:`history` starts at this deal.
        """
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
        expected = Counter(card.mask for card in rules.cards)
        rng_state: int | None
        if deck is not None:
            if seed is not None:
                raise OrdonnanceTypeError("give either seed or deck, not both")
            order = [card.mask for card in build_deck(deck, min_size=0)]
            got = Counter(order)
            if got != expected:
                given = [str(Card.from_mask(m)) for m in order]
                raise InvalidDeckError(f"{_multiset_difference('deck', got, expected)} (got {shown(given):.60})")
            rng_state = None
        else:
            seed = secrets.randbits(64) if seed is None else _check_seed(seed)
            order, rng_state = shuffled_deck(rules, seed)
        game = cls.__new__(cls)
        n = rules.players
        game._rules = rules
        game._seed = seed
        game._rng_state = rng_state
        game._history = []
        game._start = None
        game._order = tuple(order) if deck is not None else None
        game._deck = order[::-1]
        game._hands = [[] for _ in range(n)]
        game._armies = [[[] for _ in range(n)] for _ in range(TERRITORY_COUNT)]
        game._completed = [[NOT_COMPLETE] * n for _ in range(TERRITORY_COUNT)]
        game._owner = [NOBODY] * TERRITORY_COUNT
        game._marker = [0] * TERRITORY_COUNT
        game._plays = 0
        game._over = False
        game._passed = 0
        game._hidden = np.zeros(MAX_MASK + 1, dtype=np.int64)
        for mask in order:
            game._hidden[mask] += 1
        for _ in range(HAND_SIZE):
            for seat in range(n):
                game._hands[seat].append(game._deck.pop())
        game._current = n - 1
        game._advance()
        return game

    def clone(self) -> Game:
        """An independent copy of this game (cheap: a few small lists)."""
        other = Game.__new__(Game)
        other._rules = self._rules
        other._seed = self._seed
        other._rng_state = self._rng_state
        other._deck = self._deck[:]
        other._hands = [hand[:] for hand in self._hands]
        other._armies = [[army[:] for army in armies] for armies in self._armies]
        other._completed = [row[:] for row in self._completed]
        other._owner = self._owner[:]
        other._marker = self._marker[:]
        other._plays = self._plays
        other._current = self._current
        other._over = self._over
        other._passed = self._passed
        other._hidden = self._hidden.copy()
        history = self._history
        other._history = None if history is None else history[:]
        other._start = self._start
        other._order = self._order
        return other

    @classmethod
    def _from_position(
        cls,
        rules: Rules,
        pile: list[int],
        hands: list[list[int]],
        armies: list[list[list[int]]],
        completed: list[list[int]],
        owners: list[int],
        markers: list[int],
        plays: int,
        current: int,
        over: bool,
        passed: int,
        hidden: npt.NDArray[np.int64] | None = None,
        check: Check = "reachable",
        *,
        seed: int | None = None,
        rng_state: int | None = None,
        history: list[Action] | None = None,
        order: tuple[int, ...] | None = None,
    ) -> Game:
        """The one constructor of a game set up in a position rather than dealt
        (a save, a view's re-deal, an OpenSpiel state): its :attr:`history` starts there.

        The parts are the engine's own: card masks, the draw ``pile`` top card
        *last*, ``hands`` in the order drawn, ``armies[territory][seat]`` in
        play order, ``completed[territory][seat]`` the play number of the 4th
        card or -1, ``owners`` a seat or -1, ``markers`` 1..5 or 0, ``passed``
        a bit per seat; the game takes the lists as they are (pass fresh
        ones). ``hidden`` (the counts by mask of the cards not face up) is
        computed unless given with ``check="none"``. ``history``, when given,
        is the actions that reached the position from the deal (of ``seed``,
        or of the deck ``order``, top card first); a check replays it from
        there and requires the same position.

        ``check`` says how much is checked, each level including the one
        before, refusing with :class:`~ordonnance.errors.InvalidGameStateError`
        and the reason: ``"parts"``, each part alone (lengths, ranges);
        ``"consistent"``, every card in one place, armies, markers and
        decisions that fit the rules; ``"reachable"`` (the default), a position the engine could have
        reached under its rules (the rules of ``docs/saves.rst``). ``"none"``
        is for callers whose parts cannot be wrong: a re-deal of a checked
        view's hidden cards, a board of the kernel (twin-tested against this
        engine).
        """
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
        game = cls.__new__(cls)
        game._rules = rules
        game._seed = seed
        game._rng_state = rng_state
        game._deck = pile
        game._hands = hands
        game._armies = armies
        game._completed = completed
        game._owner = owners
        game._marker = markers
        game._plays = plays
        game._current = current
        game._over = over
        game._passed = passed
        game._history = history
        game._start = None
        game._order = order
        if check == "none" and hidden is not None:
            game._hidden = hidden
            return game
        if check != "none":
            from ordonnance import _positions

            if check not in _CHECKS:
                raise OrdonnanceTypeError(f"check must be one of {', '.join(map(repr, _CHECKS))}, got {shown(check)}")
            _positions.check_parts(game)
            if check != "parts":
                _positions.check_consistent(game)
        counts = np.zeros(MAX_MASK + 1, dtype=np.int64)
        for m in pile:
            counts[m] += 1
        for hand in hands:
            for m in hand:
                counts[m] += 1
        game._hidden = counts
        if history is not None and check != "none":
            _positions.check_history(game)
        elif check == "reachable":
            _positions.check_reachable(game)
        return game

    # ------------------------------------------------------------------ reading

    @property
    def seed(self) -> int | None:
        """The seed of the shuffle, or None when the deck order was given."""
        return self._seed

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied since the deal, in order; saves keep them (:meth:`to_json`).

        A game set up in a position whose past is not known (loaded from a save
        of version 1 or 2, dealt again by :meth:`PlayerView.sample_game
        <ordonnance.PlayerView.sample_game>`, rebuilt from an OpenSpiel state
        made by ``state_of``) starts its history there: it lists the actions
        applied since, and :meth:`root` is that position.

        >>> import ordonnance as od
        >>> game = od.Game.new(od.Rules(), seed=7)
        >>> game.apply(od.Play("LSHF", "antioch"))
        >>> game.history
        (Play(Card.parse('LSHF'), Territory.ANTIOCH),)
        """
        history = self._history
        return () if history is None else tuple(history)

    def root(self) -> Game:
        """A copy of the position :attr:`history` starts from: the deal (the same
        ``Game.new`` call), or the position a game was set up in. Applying the
        history to it gives this game again:

        >>> import ordonnance as od
        >>> game = od.Game.new(od.Rules(), seed=7)
        >>> game.apply(game.legal_actions()[3])
        >>> replayed = game.root()
        >>> for action in game.history:
        ...     replayed.apply(action)
        >>> replayed == game, game.root().plays
        (True, 0)
        """
        if self._history is None:
            return self.clone()
        if self._start is not None:
            return self._start.clone()
        if self._order is not None:
            return Game.new(self._rules, deck=self._order)
        return Game.new(self._rules, seed=self._seed)

    @property
    def plays(self) -> int:
        """Cards played so far."""
        return self._plays

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards in ``player``'s hand, in the order drawn (hidden information)."""
        return tuple(Card.from_mask(m) for m in self._hands[self._seat(player)])

    def army(self, territory: Territory | int, player: int) -> tuple[Card, ...]:
        """``player``'s cards in ``territory``, in the order played."""
        t = to_territory(territory)
        return tuple(Card.from_mask(m) for m in self._armies[t][self._seat(player)])

    def army_key(self, territory: Territory | int, player: int) -> int:
        """The strength key of ``player``'s army in ``territory``."""
        return _key(self._armies[to_territory(territory)][self._seat(player)])

    def completed_at(self, territory: Territory | int, player: int) -> int | None:
        """When ``player`` played their 4th card in ``territory`` (a play number), or None.

        Smaller is earlier: the earlier army wins ties.
        """
        done = self._completed[to_territory(territory)][self._seat(player)]
        return None if done == NOT_COMPLETE else done

    def territory_owner(self, territory: Territory | int) -> int | None:
        """The seat that won ``territory``, or None while undecided."""
        owner = self._owner[to_territory(territory)]
        return None if owner == NOBODY else owner

    def marker(self, territory: Territory | int) -> int | None:
        """The victory marker (1..5, in capture order) on ``territory``, or None."""
        marker = self._marker[to_territory(territory)]
        return marker or None

    def is_decided(self, territory: Territory | int) -> bool:
        """Whether ``territory`` has been won (it then takes no more cards)."""
        return self._owner[to_territory(territory)] != NOBODY

    def is_open(self, territory: Territory | int, player: int) -> bool:
        """Whether ``player`` may still play into ``territory``."""
        t = to_territory(territory)
        return self._owner[t] == NOBODY and len(self._armies[t][self._seat(player)]) < ARMY_SIZE

    def face_up(self) -> Counter[Card]:
        """Every card on the table, counted."""
        return Counter(
            Card.from_mask(m) for armies in self._armies for army in armies for m in army
        )

    def unseen(self, player: int | None = None) -> Counter[Card]:
        """Cards not face up: the deck and every hand, less ``player``'s own hand if given."""
        counts = self._hidden.copy()
        if player is not None:
            for m in self._hands[self._seat(player)]:
                counts[m] -= 1
        return Counter({Card.from_mask(m): int(c) for m, c in enumerate(counts) if c})

    def ranking(self, territory: Territory | int) -> tuple[int, ...]:
        """Seats ordered from the strongest army in ``territory`` to the weakest.

        Ties go to the army completed first; incomplete armies come after
        complete ones of the same strength.
        """
        t = to_territory(territory)
        return tuple(sorted(range(self.players), key=lambda p: self._rank_key(t, p)))

    def _rank_key(self, t: int, p: int) -> tuple[int, int]:
        done = self._completed[t][p]
        return (-_key(self._armies[t][p]), done if done != NOT_COMPLETE else 1 << 30)

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's score so far: territories held, or points under ``scoring="points"``."""
        scores = [0] * self.players
        for t in Territory:
            if self._owner[t] == NOBODY:
                continue
            if self._rules.scoring == "territories":
                scores[self._owner[t]] += 1
            else:
                for rank, seat in enumerate(self.ranking(t)):
                    scores[seat] += POINTS_BY_RANK[rank]
        return tuple(scores)

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over; None before, or when nobody wins.

        Highest score wins; a tie is broken by :attr:`Rules.tie_break`
        (``"lowest_marker_sum"`` falls back to ``"latest_capture"`` on equal
        sums). Players tied with no marker at all share a draw (None).
        """
        if not self._over:
            return None
        scores = self.scores
        best = max(scores)
        tied = [p for p in range(self.players) if scores[p] == best]
        if len(tied) == 1:
            return tied[0]
        markers = {p: [self._marker[t] for t in Territory if self._owner[t] == p] for p in tied}
        if self._rules.tie_break == "lowest_marker_sum":
            with_markers = [p for p in tied if markers[p]]
            if with_markers:
                low = min(sum(markers[p]) for p in with_markers)
                tied = [p for p in with_markers if sum(markers[p]) == low]
                if len(tied) == 1:
                    return tied[0]
        latest = {p: max(markers[p], default=0) for p in tied}
        top = max(latest.values())
        return None if top == 0 else next(p for p in tied if latest[p] == top)

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of :attr:`current_player` now (empty once the game is over).

        Plays (each distinct card in hand into each open territory), then
        provable claims; :class:`Pass` only when claims are possible but no
        play is.
        """
        if self._over:
            return []
        p = self._current
        actions: list[Action] = []
        open_territories = self._open_territories(p)
        if open_territories:
            seen = 0
            for m in self._hands[p]:
                if not seen >> m & 1:
                    seen |= 1 << m
                    plays = PLAYS[m]
                    actions.extend(plays[t] for t in open_territories)
        has_plays = bool(actions)
        actions.extend(CLAIMS[t] for t in self._provable_claims(p))
        if not has_plays and actions:
            actions.append(PASS)
        return actions

    def apply(self, action: Action) -> None:
        kind = type(action)
        mask = territory = 0
        if kind is Play:
            assert isinstance(action, Play)
            self._check_play(action)
            mask, territory = action.card.mask, action.territory
        elif kind is Claim:
            assert isinstance(action, Claim)
            self._check_claim(action)
            territory = action.territory
        elif kind is Pass:
            self._check_pass(action)
        else:
            raise OrdonnanceTypeError(
                f"an action is a Play, Claim or Pass, not {type(action).__name__}: {shown(action)}"
            )
        history = self._history
        if history is None:  # the first action of a set-up game: its start is the position now
            self._start = self.clone()
            self._history = history = []
        history.append(action)
        if kind is Play:
            self._play(mask, territory)
        elif kind is Claim:
            self._passed = 0
            self._award(territory, self._current)
            if not self._over and not self.legal_actions():
                self._advance()
        else:
            self._passed |= 1 << self._current
            self._advance()

    def _check_play(self, action: Play) -> None:
        self._check_not_over(action)
        p, t, m = self._current, action.territory, action.card.mask
        if m not in self._hands[p]:
            hand = " ".join(str(Card.from_mask(x)) for x in self._hands[p]) or "empty"
            raise IllegalActionError(action, f"{action.card} is not in player {p}'s hand ({hand})")
        if self._owner[t] != NOBODY:
            raise IllegalActionError(
                action, f"territory {t.label} is already decided (won by player {self._owner[t]})"
            )
        if len(self._armies[t][p]) >= ARMY_SIZE:
            raise IllegalActionError(
                action, f"territory {t.label} already holds {ARMY_SIZE} of your cards"
            )

    def _check_claim(self, action: Claim) -> None:
        self._check_not_over(action)
        p, t = self._current, action.territory
        reason = self._claim_refusal(p, t)
        if reason is not None:
            raise IllegalActionError(action, reason)

    def _check_pass(self, action: Action) -> None:
        self._check_not_over(action)
        legal = self.legal_actions()
        plays = [a for a in legal if type(a) is Play]
        if plays:
            raise IllegalActionError(
                action, f"player {self._current} can still play, e.g. {plays[0]}; pass only without a play"
            )
        if PASS not in legal:
            raise IllegalActionError(action, f"player {self._current} has nothing to pass on")

    def _check_not_over(self, action: Action) -> None:
        if self._over:
            raise IllegalActionError(action, "the game is over")

    # ------------------------------------------------------------------ claims

    def can_claim(self, player: int, territory: Territory | int) -> bool:
        """Whether ``player`` can prove ``territory`` unbeatable now (:ref:`rules-early-claim`).

        The player's army there must be complete and the territory undecided;
        then no opponent may be able to beat it with any cards not face up (the
        claimant's hand included, unless ``claim_proof="private"``). Whose turn
        it is does not matter here; claims are made on one's own turn.
        """
        p, t = self._seat(player), to_territory(territory)
        return self._claim_precondition(p, t) is None and self._beater(p, t) is None

    def claim_counterexample(self, player: int, territory: Territory | int) -> Counterexample | None:
        """Why ``player`` cannot claim ``territory``: an opponent and cards that would win it.

        None when the claim is provable. Raises
        :class:`~ordonnance.errors.IllegalActionError` when no claim can be
        considered at all (territory decided, army incomplete, points scoring).
        """
        p, t = self._seat(player), to_territory(territory)
        basic = self._claim_precondition(p, t)
        if basic is not None:
            raise IllegalActionError(Claim(t), basic)
        return self._counterexample(p, t)

    def _claim_precondition(self, p: int, t: int) -> str | None:
        if not self._rules.claims_allowed:
            return "early claims are not available with scoring='points'"
        if self._owner[t] != NOBODY:
            return f"territory {Territory(t).label} is already decided (won by player {self._owner[t]})"
        if self._completed[t][p] == NOT_COMPLETE:
            cards = len(self._armies[t][p])
            return f"player {p}'s army in {Territory(t).label} is not complete ({cards} of {ARMY_SIZE} cards)"
        return None

    def _claim_refusal(self, p: int, t: int) -> str | None:
        basic = self._claim_precondition(p, t)
        if basic is not None:
            return basic
        counter = self._counterexample(p, t)
        if counter is not None:
            return f"{Territory(t).label} is not provably won: {counter}"
        return None

    def _pool(self, p: int) -> npt.NDArray[np.int64]:
        if self._rules.claim_proof == "public":
            return self._hidden
        pool = self._hidden.copy()
        for m in self._hands[p]:
            pool[m] -= 1
        return pool

    def _counterexample(self, p: int, t: int) -> Counterexample | None:
        found = self._beater(p, t)
        if found is None:
            return None
        q, key, added = found
        return Counterexample(q, tuple(Card.from_mask(m) for m in added), key)

    def _beater(self, p: int, t: int) -> tuple[int, int, tuple[int, ...]] | None:
        """An opponent who could still win ``t`` against ``p``'s complete army:
        (seat, key they would reach, masks they would add), or None."""
        claimant_key = _key(self._armies[t][p])
        claimant_done = self._completed[t][p]
        pool = self._pool(p)
        for q in range(self.players):
            if q == p:
                continue
            army, done = self._armies[t][q], self._completed[t][q]
            if done != NOT_COMPLETE:
                key = _key(army)
                if key > claimant_key or (key == claimant_key and done < claimant_done):
                    return q, key, ()
                continue
            # An opponent still incomplete would complete later, so must be strictly stronger.
            found = _can_beat_masks(army, pool, claimant_key + 1)
            if found is not None:
                return q, found[0], found[1]
        return None

    def _provable_claims(self, p: int) -> list[int]:
        if not self._rules.explicit_claims:
            return []
        return [
            t
            for t in range(TERRITORY_COUNT)
            if self._owner[t] == NOBODY
            and self._completed[t][p] != NOT_COMPLETE
            and self._beater(p, t) is None
        ]

    # ------------------------------------------------------------------ flow

    def _open_territories(self, p: int) -> list[int]:
        return [
            t
            for t in range(TERRITORY_COUNT)
            if self._owner[t] == NOBODY and len(self._armies[t][p]) < ARMY_SIZE
        ]

    def _play(self, mask: int, t: int) -> None:
        p = self._current
        self._passed = 0
        self._hands[p].remove(mask)
        self._hidden[mask] -= 1
        army = self._armies[t][p]
        army.append(mask)
        if len(army) == ARMY_SIZE:
            self._completed[t][p] = self._plays
        self._plays += 1
        self._resolve_after_play()
        if not self._over:
            self._advance()

    def _resolve_after_play(self) -> None:
        """Decide, in table order, every territory complete for all (and, with
        auto_claim, every provable one)."""
        for t in range(TERRITORY_COUNT):
            if self._owner[t] != NOBODY:
                continue
            done = self._completed[t]
            if NOT_COMPLETE not in done:
                self._award(t, self.ranking(t)[0])
            elif self._rules.auto_claim:
                for p in sorted(range(self.players), key=lambda q: done[q]):
                    if done[p] != NOT_COMPLETE and self._beater(p, t) is None:
                        self._award(t, p)
                        break
            if self._over:
                return

    def _award(self, t: int, p: int) -> None:
        self._owner[t] = p
        self._marker[t] = 1 + sum(1 for m in self._marker if m)
        if NOBODY not in self._owner:
            self._over = True

    def _advance(self) -> None:
        """Hand the turn to the next seat that can act, drawing its card; end the
        game (safety rule) when nobody can act.

        A seat that passed is not asked again until someone plays or claims: it
        can never play again (it passed for want of a play), so asking it again
        would change nothing, and a game where every seat left passes ends.
        """
        n = self.players
        for offset in range(1, n + 1):
            p = (self._current + offset) % n
            if self._passed >> p & 1:
                continue
            if self._open_territories(p):
                if self._deck:
                    self._hands[p].append(self._deck.pop())
                if self._hands[p]:
                    self._current = p
                    return
            if self._rules.explicit_claims and self._provable_claims(p):
                self._current = p
                return
        self._over = True

    def _can_play(self, p: int) -> bool:
        """Whether seat ``p`` would get a play on a turn now (an open territory and
        a card, in hand or to draw)."""
        return bool(self._open_territories(p)) and bool(self._deck or self._hands[p])

    def _can_act(self, p: int) -> bool:
        """Whether :meth:`_advance` would give seat ``p`` a turn now."""
        if self._passed >> p & 1:
            return False
        return self._can_play(p) or (self._rules.explicit_claims and bool(self._provable_claims(p)))

    # ------------------------------------------------------------------ helpers

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: everything public plus their own hand."""
        return super().view(player)

    def _state(self) -> tuple[object, ...]:
        return (
            self._rules,
            self._seed,
            self._rng_state,
            self._deck,
            self._hands,
            self._armies,
            self._completed,
            self._owner,
            self._marker,
            self._plays,
            self._current,
            self._over,
            self._passed,
        )

    def __repr__(self) -> str:
        status = "over" if self._over else f"player {self._current} to act"
        return f"<Game {self.players} players, {self._plays} cards played, {status}>"


def shuffled_deck(rules: Rules, seed: int) -> tuple[list[int], int]:
    """The masks of ``rules``' cards as ``Game.new(rules, seed=seed)`` shuffles them
    (top card first), and the generator's state afterwards."""
    order = sorted(card.mask for card in rules.cards)
    return order, shuffle(order, seed)


def _multiset_difference(name: str, got: Counter[int], expected: Counter[int]) -> str:
    missing = expected - got
    extra = got - expected
    parts = []
    if missing:
        parts.append("missing " + " ".join(f"{Card.from_mask(m)}x{c}" for m, c in sorted(missing.items())))
    if extra:
        parts.append("extra " + " ".join(f"{Card.from_mask(m)}x{c}" for m, c in sorted(extra.items())))
    return f"{name} does not hold the rules' cards: {'; '.join(parts)}"
