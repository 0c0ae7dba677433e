"""The game: state, the three orders of a turn, refills, the final round, the winner.

A :class:`Game` is a mutable position that follows :doc:`/shinobi_rules`. Drive it
with :meth:`Game.legal_actions` and :meth:`Game.apply`; every other method only
reads. Chance (shuffling the clan cards and the troop deck) happens once, in
:meth:`Game.new`, from a seed.

>>> from ordonnance import shinobi
>>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=7)
>>> game.current_player, game.order, len(game.hand(0)), game.deck_size
(0, 1, 4, 46)
>>> action = game.legal_actions()[0]
>>> action
Deploy(card_clan=0, province=1)
>>> game.apply(action)
>>> game.order, game.province(1)
(2, (1, 0, 0, 0, 0))
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ordonnance.core import checks
from ordonnance.core.engine import EngineGame, OneDrawPile
from ordonnance.core.rng import shuffle
from ordonnance.core.seeds import check_seed as _check_seed
from ordonnance.errors import (
    IllegalActionError,
    InvalidDeckError,
    InvalidGameStateError,
    OrdonnanceError,
    OrdonnanceTypeError,
)
from ordonnance.shinobi.actions import ACTIONS, PASS_CODE, Action, Attack, Deploy, Move, Ninja, Pass, Reinforce, is_action
from ordonnance.shinobi.cards import CLANS, CODES, NINJA, Card, to_clan
from ordonnance.shinobi.rules import HAND_SIZE, Rules

if TYPE_CHECKING:
    from ordonnance.shinobi.view import PlayerView

__all__ = ["Game", "dealt"]

#: The orders of a turn, by number.
DEPLOY_ORDER, REINFORCE_ORDER, ATTACK_ORDER = 1, 2, 3
_ORDER_NAMES = {1: "order 1 (deploy or ninja)", 2: "order 2 (reinforce or move)", 3: "order 3 (attack)"}
NOT_FINAL = -1


def dealt(rules: Rules, seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The deal of ``Game.new(rules, seed=seed)``: the clan of each of the five clan
    cards in shuffled order (seat ``s`` gets the ``s``-th; the rest are neutral) and
    the troop deck's codes, top card first.

    One SplitMix64 stream from ``seed`` (an int in 0..2**64-1) shuffles the clan cards,
    then the troop deck.
    """
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a shinobi Rules, got {checks.shown(rules)}")
    seed = _check_seed(seed)
    clans = list(range(CLANS))
    state = shuffle(clans, seed)
    deck = list(rules.troop_deck)
    shuffle(deck, state)
    return tuple(clans), tuple(deck)


class Game(OneDrawPile, EngineGame[Rules, "PlayerView"]):
    """A game of Shinobi: War of Clans in progress (or finished).

    Create games with :meth:`new` or :meth:`from_json` (``Game()`` is refused). The
    state changes only through :meth:`apply`; an illegal action raises
    :class:`~ordonnance.errors.IllegalActionError` and changes nothing. The game is
    over (:attr:`is_over`) after the final round. A seat's :meth:`view` shows the
    public table, counts of hidden things and its own clan and hand. Saves
    (:meth:`to_json`) hold the start, every action since and the position (see
    :mod:`~ordonnance.shinobi.serialization`); two games are equal when all of that is.
    """

    _package = "ordonnance.shinobi"
    _noun = "shinobi game"
    _private_view_keys = ("seat", "clan", "clans", "hand", "legal_actions")  # clans: the seat's own shown

    __slots__ = (
        "_rules", "_seed", "_clan_order", "_initial_deck", "_deck", "_hands", "_provinces",
        "_discard", "_changed", "_current", "_order", "_extra", "_over", "_turns", "_history", "_start",
    )  # fmt: skip

    _rules: Rules
    _seed: int | None
    _clan_order: tuple[int, ...]  # all five clans: seat s has _clan_order[s], the rest are neutral
    _initial_deck: tuple[int, ...]  # the troop deck before the deal (or the draw pile at _start), top card first
    _deck: list[int]  # the draw pile, top card LAST so that drawing is a pop()
    _hands: list[list[int]]  # by seat, card codes in the order drawn
    _provinces: list[list[int]]  # [seat][clan] -> cards
    _discard: list[int]  # [code] -> cards discarded (samurai by clan, then ninjas)
    _changed: list[list[bool]]  # [seat][clan] -> that army gained or lost a card this turn
    _current: int
    _order: int  # the next order of the current turn, 1..3
    _extra: int  # turns left in the final round, or NOT_FINAL before it
    _over: bool
    _turns: int  # turns finished
    _history: list[int]  # action codes applied so far
    _start: Game | None  # the position play started from (never changed); None: the deal

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        deck: Iterable[Card | int | str] | None = None,
        clans: Iterable[int | str] | None = None,
    ) -> Game:
        """Start a game: shuffle from ``seed``, or take ``deck`` and ``clans`` as given.

        Without ``deck`` and ``clans`` the clan cards and then the troop deck are
        shuffled from ``seed`` (an int in 0..2**64-1; drawn at random when None,
        see :attr:`seed` and :func:`dealt`). Otherwise give both: ``deck`` lists
        the troop cards top first (a permutation of the rules' troop deck, as
        :class:`Card`, codes or names) and ``clans`` the clan of each seat (all
        different; the clans left out are neutral). Four cards are dealt to each
        seat, one at a time in seat order; then seat 0 starts.
        """
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a shinobi Rules, got {checks.shown(rules)}")
        if deck is None and clans is None:
            seed = secrets.randbits(64) if seed is None else _check_seed(seed)
            clan_order, order = dealt(rules, seed)
        elif deck is None or clans is None:
            raise OrdonnanceTypeError("give both deck and clans (or neither, and a seed)")
        elif seed is not None:
            raise OrdonnanceTypeError("give either a seed or deck and clans, not both")
        else:
            order = _check_deck(rules, deck)
            clan_order = _check_clans(rules, clans)
        return cls._dealt(rules, seed, clan_order, order)

    @classmethod
    def _dealt(cls, rules: Rules, seed: int | None, clan_order: tuple[int, ...], order: tuple[int, ...]) -> Game:
        """The deal of ``order`` (checked by the caller): four cards to each seat in turn."""
        n = rules.players
        pile = list(order[::-1])
        hands: list[list[int]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for seat in range(n):
                hands[seat].append(pile.pop())
        game = cls._made(rules, clan_order, pile, hands, [[0] * CLANS for _ in range(n)], [0] * CODES)
        game._seed = seed
        game._initial_deck = order
        game._settle()
        return game

    @classmethod
    def _made(
        cls,
        rules: Rules,
        clan_order: tuple[int, ...],
        pile: list[int],
        hands: list[list[int]],
        provinces: list[list[int]],
        discard: list[int],
        changed: list[list[bool]] | None = None,
        current: int = 0,
        order: int = DEPLOY_ORDER,
        extra: int = NOT_FINAL,
        turns: int = 0,
    ) -> Game:
        """A game holding exactly these parts (taken, not copied), not settled: the one place a Game is made."""
        game = cls.__new__(cls)
        game._rules = rules
        game._seed = None
        game._clan_order = clan_order
        game._initial_deck = tuple(pile[::-1])
        game._deck = pile
        game._hands = hands
        game._provinces = provinces
        game._discard = discard
        game._changed = [[False] * CLANS for _ in range(rules.players)] if changed is None else changed
        game._current = current
        game._order = order
        game._extra = extra
        game._over = extra == 0
        game._turns = turns
        game._history = []
        game._start = None
        return game

    @classmethod
    def _from_position(
        cls,
        rules: Rules,
        *,
        clans: Sequence[int | str],
        deck: Sequence[Card | int | str],
        hands: Sequence[Sequence[Card | int | str]],
        provinces: Sequence[Sequence[int]],
        discard: Sequence[int],
        changed: Sequence[Sequence[bool]] | None = None,
        current_player: int = 0,
        order: int = DEPLOY_ORDER,
        turns: int = 0,
        extra_turns_left: int | None = None,
    ) -> Game:
        """The one constructor of a position other than a deal (a game sampled from a view,
        a save that starts from a set position): every part checked, then the position.

        ``clans`` gives each seat's clan (the others are neutral), ``deck`` the draw pile
        top card first, ``hands`` each seat's cards in the order drawn, ``provinces`` and
        ``changed`` each ``[seat][clan]``, ``discard`` the discarded cards of each code;
        cards as :class:`Card`, codes or names. ``extra_turns_left`` is None before the
        final round and 0 once the game is over. The parts must be a position the engine
        can reach: every troop card of the rules in exactly one place, full hands while the
        deck lasts (the seat to act may have played the cards of its earlier orders), a
        final round only once the deck is empty, no army changed before the turn's first
        order. Anything else raises :class:`~ordonnance.errors.InvalidGameStateError`
        naming the part and showing its value. Orders without a legal choice are then
        skipped, as after every action. The game's :attr:`history` starts here and
        :attr:`seed` is None; :meth:`_parts` reverses it.
        """
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a shinobi Rules, got {checks.shown(rules)}")
        n = rules.players
        try:
            clan_order = _check_clans(rules, clans)
        except OrdonnanceError as error:
            raise InvalidGameStateError(f"clans: {error}") from None
        pile = _card_list(deck, "deck")[::-1]
        hand_lists = [_card_list(hand, f"hands[{seat}]") for seat, hand in enumerate(_rows(hands, "hands", n))]
        province_rows = [_counts(row, f"provinces[{seat}]", CLANS) for seat, row in enumerate(_rows(provinces, "provinces", n))]
        discarded = _counts(discard, "discard", CODES)
        if changed is None:
            flags = [[False] * CLANS for _ in range(n)]
        else:
            flags = [_flags(row, f"changed[{seat}]") for seat, row in enumerate(_rows(changed, "changed", n))]
        current = _number(current_player, "current_player", 0, n - 1)
        order = _number(order, "order", DEPLOY_ORDER, ATTACK_ORDER)
        turns = _number(turns, "turns", 0, None)
        extra = NOT_FINAL if extra_turns_left is None else _number(extra_turns_left, "extra_turns_left", 0, n)
        game = cls._made(rules, clan_order, pile, hand_lists, province_rows, discarded, flags, current, order, extra, turns)
        game._check_position()
        if not game._over:
            game._settle()
        game._initial_deck = tuple(game._deck[::-1])
        game._start = game.clone()  # its own _start stays None: root() sets it on the copies it gives
        return game

    def _check_position(self) -> None:
        """Refuse a position the engine cannot reach (see :meth:`_from_position`)."""
        n, deck = self.players, self._deck
        places = Counter(deck)
        for seat in range(n):
            places.update(self._hands[seat])
            for clan, size in enumerate(self._provinces[seat]):
                places[clan] += size
        for code, count in enumerate(self._discard):
            places[code] += count
        if places != Counter(self._rules.troop_deck):
            raise InvalidGameStateError(
                "the deck, hands, provinces and discard pile must hold the rules' troop cards once each, "
                f"got {_card_counts(places)} for {_card_counts(Counter(self._rules.troop_deck))}"
            )
        sizes = [len(hand) for hand in self._hands]
        if max(sizes) > HAND_SIZE:
            raise InvalidGameStateError(f"a hand holds at most {HAND_SIZE} cards, got hands of {sizes}")
        final = self._extra != NOT_FINAL
        extra = f"extra_turns_left={checks.shown(self.extra_turns_left)}"
        if final and deck:
            raise InvalidGameStateError(f"the final round ({extra}) starts once the deck is empty, but it holds {len(deck)} cards")
        if not final and not deck and self._turns:
            raise InvalidGameStateError(f"the deck ran out {self._turns} turns ago but the final round has not begun ({extra})")
        if final and self._turns < n - self._extra:
            raise InvalidGameStateError(f"{extra} says {n - self._extra} turns of the final round are over, but turns={self._turns}")
        if not final:
            played = HAND_SIZE - sizes[self._current]
            others = [size for seat, size in enumerate(sizes) if seat != self._current]
            if others != [HAND_SIZE] * (n - 1) or played > self._order - 1:
                raise InvalidGameStateError(
                    f"while the deck lasts every hand is full but the cards the seat to act has played "
                    f"this turn, got hands of {sizes} with current_player={self._current} at order={self._order}"
                )
        if self._over and self._order != ATTACK_ORDER:
            raise InvalidGameStateError(f"a finished game ({extra}) stands at order {ATTACK_ORDER}, got order={self._order}")
        if self._order == DEPLOY_ORDER and any(any(row) for row in self._changed):
            raise InvalidGameStateError(f"no army has changed before a turn's first order (order=1), got changed={self._changed}")
        # Each order changes one army, a move two; while the deck lasts, the cards the seat to
        # act has played this turn tell what its first order did (each card played changes one).
        changed = sum(map(sum, self._changed))
        most = 4 if self._over else {DEPLOY_ORDER: 0, REINFORCE_ORDER: 1, ATTACK_ORDER: 3}[self._order]
        if changed > most or (not final and self._order == REINFORCE_ORDER and changed != HAND_SIZE - sizes[self._current]):
            raise InvalidGameStateError(
                f"the orders given this turn (order={self._order}, hands of {sizes}) cannot have changed "
                f"{changed} armies, got changed={self._changed}"
            )

    def _check_turns(self) -> None:
        """Refuse a position whose turn count disagrees with the seat to act (seat 0 starts, each
        turn passes to the next seat) or with the cards played (at most two a turn, at orders 1
        and 2). Play always agrees; the loaders of saves and views check it, :meth:`_from_position`
        does not (hand-made test positions set the table at turn 0)."""
        n, turns = self.players, self._turns
        seat = (turns - 1) % n if self._over else turns % n
        if self._current != seat:
            raise InvalidGameStateError(f"seat {seat} acts after {turns} turns (seat 0 starts), got current_player={self._current}")
        played = sum(self.totals) + sum(self._discard)
        most = 2 * turns + (0 if self._over else self._order - 1)
        if played > most:
            raise InvalidGameStateError(
                f"{turns} turns (at order {self._order}) play at most {most} cards, but {played} are on the table or discarded"
            )

    def _parts(self) -> dict[str, Any]:
        """The position as the keywords of :meth:`_from_position` (the deck top card first)."""
        return {
            "clans": self._clan_order[: self.players],
            "deck": tuple(self._deck[::-1]),
            "hands": tuple(tuple(hand) for hand in self._hands),
            "provinces": tuple(tuple(row) for row in self._provinces),
            "discard": tuple(self._discard),
            "changed": tuple(tuple(row) for row in self._changed),
            "current_player": self._current,
            "order": self._order,
            "turns": self._turns,
            "extra_turns_left": self.extra_turns_left,
        }

    def clone(self) -> Game:
        """An independent copy of this game."""
        other = Game.__new__(Game)
        other._rules = self._rules
        other._seed = self._seed
        other._clan_order = self._clan_order
        other._initial_deck = self._initial_deck
        other._deck = self._deck[:]
        other._hands = [hand[:] for hand in self._hands]
        other._provinces = [row[:] for row in self._provinces]
        other._discard = self._discard[:]
        other._changed = [row[:] for row in self._changed]
        other._current = self._current
        other._order = self._order
        other._extra = self._extra
        other._over = self._over
        other._turns = self._turns
        other._history = self._history[:]
        other._start = self._start
        return other

    def root(self) -> Game:
        """A new game at this game's start, before any of :attr:`history`: the deal (of
        :attr:`seed`, or of the deck and clans given), or the position a game sampled from
        a view (:meth:`PlayerView.sample_game`) was set up at. Applying :attr:`history` to it
        in order reaches this game again, one action at a time:

        >>> from ordonnance import shinobi
        >>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=5)
        >>> for _ in range(6):
        ...     game.apply(game.legal_actions()[-1])
        >>> replay = game.root()
        >>> replay.history
        ()
        >>> for action in game.history:
        ...     replay.apply(action)
        >>> replay == game
        True
        """
        if self._start is not None:
            root = self._start.clone()
            root._start = self._start
            return root
        return Game._dealt(self._rules, self._seed, self._clan_order, self._initial_deck)

    # ------------------------------------------------------------------ reading

    @property
    def seed(self) -> int | None:
        """The seed of the shuffle, or None when the deck and clans were given (or the game
        was sampled from a view)."""
        return self._seed

    @property
    def order(self) -> int:
        """The next order of the current turn: 1 (deploy or ninja), 2 (reinforce or move)
        or 3 (attack). Orders without a legal choice are skipped."""
        return self._order

    @property
    def turns(self) -> int:
        """Turns finished so far (a turn whose orders were all skipped counts)."""
        return self._turns

    @property
    def final_round(self) -> bool:
        """Whether the deck has run out and the last round of turns is under way."""
        return self._extra != NOT_FINAL

    @property
    def extra_turns_left(self) -> int | None:
        """In the final round, the turns still to be taken (the current one included); else None."""
        return None if self._extra == NOT_FINAL else self._extra

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the start (see :meth:`root`), in order; saves keep it."""
        return tuple(ACTIONS[code] for code in self._history)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand, in the order drawn (hidden information)."""
        return tuple(Card.from_code(code) for code in self._hands[self._seat(seat)])

    def clan(self, seat: int) -> int:
        """The clan ``seat`` works for (hidden information until the end)."""
        return self._clan_order[self._seat(seat)]

    @property
    def neutral_clans(self) -> tuple[int, ...]:
        """The clans nobody works for, in ascending order (hidden until the end)."""
        return tuple(sorted(self._clan_order[self.players :]))

    def province(self, seat: int) -> tuple[int, ...]:
        """Cards per clan in ``seat``'s province (its armies' sizes)."""
        return tuple(self._provinces[self._seat(seat)])

    def changed(self, seat: int, clan: int | str) -> bool:
        """Whether the ``clan`` army in ``seat``'s province gained or lost a card this turn."""
        return self._changed[self._seat(seat)][to_clan(clan)]

    @property
    def discard(self) -> tuple[int, ...]:
        """The discard pile: cards of each clan 0..4, then ninjas (index 5)."""
        return tuple(self._discard)

    @property
    def totals(self) -> tuple[int, ...]:
        """Cards of each clan over all provinces (public)."""
        return tuple(sum(row[clan] for row in self._provinces) for clan in range(CLANS))

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's score so far: the cards of its clan over all provinces."""
        totals = self.totals
        return tuple(totals[self._clan_order[seat]] for seat in range(self.players))

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several share a tie); empty before.

        Most cards of one's clan wins; among the tied, most cards of one's own
        clan in one's own province; still tied, they share the win.
        """
        if not self._over:
            return ()
        scores = self.scores
        tied = [seat for seat in range(self.players) if scores[seat] == max(scores)]
        home = {seat: self._provinces[seat][self._clan_order[seat]] for seat in tied}
        return tuple(seat for seat in tied if home[seat] == max(home.values()))

    @property
    def winner(self) -> int | None:
        """The single winning seat once over; None before or when several share the win."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of :attr:`current_player` now, in code order (empty once over)."""
        if self._over:
            return []
        return [ACTIONS[code] for code in self._legal_codes(self._order)]

    def _legal_codes(self, order: int) -> list[int]:
        p, n = self._current, self.players
        prov = self._provinces
        others = [q for q in range(n) if q != p]
        codes: list[int] = []
        if order == DEPLOY_ORDER:
            for clan in sorted({code for code in self._hands[p] if code != NINJA}):
                codes.extend(Deploy(clan, q).code for q in others)
            if NINJA in self._hands[p]:
                codes.extend(Ninja(q, clan).code for q in others for clan in range(CLANS) if prov[q][clan])
        elif order == REINFORCE_ORDER:
            codes.extend(Reinforce(clan).code for clan in sorted({c for c in self._hands[p] if c != NINJA}))
            codes.extend(
                Move(f, clan, t).code
                for f in others for clan in range(CLANS) if prov[f][clan]
                for t in range(n) if t != f
            )  # fmt: skip
        else:
            codes.extend(
                Attack(clan, q, target).code
                for clan in range(CLANS) if prov[p][clan]
                for q in others for target in range(CLANS)
                if target != clan and prov[q][target] and prov[p][clan] >= prov[q][target] + 1
                and not self._changed[q][target]
            )  # fmt: skip
            if codes and self._rules.optional_attack:
                codes.append(PASS_CODE)
        return codes

    def apply(self, action: Action) -> None:
        if not is_action(action):
            raise OrdonnanceTypeError(f"an action is Deploy, Ninja, Reinforce, Move, Attack or Pass, not {checks.shown(action)}")
        if self._over:
            raise IllegalActionError(action, "the game is over")
        if action.code not in self._legal_codes(self._order):
            raise IllegalActionError(action, self._why_illegal(action))
        self._do(action)
        self._history.append(action.code)
        self._order += 1
        self._settle()

    def _do(self, action: Action) -> None:
        p = self._current
        if type(action) is Deploy:
            self._play_from_hand(action.card_clan, action.province)
        elif type(action) is Ninja:
            self._hands[p].remove(NINJA)
            self._discard[NINJA] += 1
            self._remove(action.province, action.clan)
        elif type(action) is Reinforce:
            self._play_from_hand(action.card_clan, p)
        elif type(action) is Move:
            self._provinces[action.from_province][action.clan] -= 1
            self._changed[action.from_province][action.clan] = True
            self._add(action.to_province, action.clan)
        elif type(action) is Attack:
            self._remove(action.province, action.target_clan)
        # Pass: nothing happens.

    def _play_from_hand(self, clan: int, province: int) -> None:
        self._hands[self._current].remove(clan)
        self._add(province, clan)

    def _add(self, province: int, clan: int) -> None:
        self._provinces[province][clan] += 1
        self._changed[province][clan] = True

    def _remove(self, province: int, clan: int) -> None:
        self._provinces[province][clan] -= 1
        self._changed[province][clan] = True
        self._discard[clan] += 1

    def _settle(self) -> None:
        """Skip the orders without a legal choice; at the end of a turn refill, run the
        final round and hand the turn on, until somebody has a decision or the game ends."""
        while True:
            while self._order <= ATTACK_ORDER:
                if self._legal_codes(self._order):
                    return
                self._order += 1
            self._end_turn()
            if self._over:
                return

    def _end_turn(self) -> None:
        p, n = self._current, self.players
        while len(self._hands[p]) < HAND_SIZE and self._deck:
            self._hands[p].append(self._deck.pop())
        self._turns += 1
        if self._extra != NOT_FINAL:
            self._extra -= 1
            if self._extra == 0:
                self._over = True
                self._order = ATTACK_ORDER
                return
        elif not self._deck:
            self._extra = n  # every player, the next seat first, takes one more turn
        self._current = (p + 1) % n
        self._order = DEPLOY_ORDER
        self._changed = [[False] * CLANS for _ in range(n)]

    def _why_illegal(self, action: Action) -> str:
        """Words for why ``action`` (known to be illegal) cannot be given now."""
        p, n = self._current, self.players
        wanted = {Deploy: 1, Ninja: 1, Reinforce: 2, Move: 2, Attack: 3, Pass: 3}[type(action)]
        if wanted != self._order:
            return f"player {p} must give {_ORDER_NAMES[self._order]} now"
        provinces = [getattr(action, name) for name in ("province", "from_province", "to_province") if hasattr(action, name)]
        bad = [q for q in provinces if q >= n]
        if bad:
            return f"province {bad[0]} does not exist with {n} players"
        hand = self._hands[p]
        if type(action) is Deploy or type(action) is Reinforce:
            if action.card_clan not in hand:
                return f"player {p} holds no {Card(action.card_clan)} samurai"
            return f"a deploy goes into another player's province, not player {p}'s own"
        if type(action) is Ninja:
            if NINJA not in hand:
                return f"player {p} holds no ninja"
            if action.province == p:
                return "a ninja strikes another player's province"
            return f"province {action.province} has no {Card(action.clan)} army"
        if type(action) is Move:
            if action.from_province == p:
                return "nobody moves cards out of their own province"
            if action.from_province == action.to_province:
                return "a move goes to a different province"
            return f"province {action.from_province} has no {Card(action.clan)} army"
        if type(action) is Pass:
            if not self._rules.optional_attack:
                return "attacks are mandatory under these rules"
            return "there is no attack to decline"
        assert isinstance(action, Attack)
        own, q = self._provinces[p][action.clan], action.province
        if own == 0:
            return f"player {p} has no {Card(action.clan)} army"
        if q == p:
            return "an attack targets another player's province"
        if action.clan == action.target_clan:
            return "an army attacks an army of a different clan"
        defender = self._provinces[q][action.target_clan]
        if defender == 0:
            return f"province {q} has no {Card(action.target_clan)} army"
        if self._changed[q][action.target_clan]:
            return f"the {Card(action.target_clan)} army in province {q} changed size this turn"
        return f"an army of {own} cannot attack an army of {defender} (it needs at least one card more)"

    # ------------------------------------------------------------------ helpers

    def __repr__(self) -> str:
        status = "over" if self._over else f"player {self._current} to give order {self._order}"
        return f"<shinobi.Game {self.players} players, {self._turns} turns, {status}>"


def _card_code(card: object) -> int:
    if isinstance(card, Card):
        return card.code
    if isinstance(card, str):
        return Card.parse(card).code
    if not checks.is_integer(card) or not 0 <= card < CODES:
        raise InvalidDeckError(f"a troop card is a Card, a code 0..{CODES - 1} or a name, got {checks.shown(card)}")
    return int(card)


def _check_deck(rules: Rules, deck: Iterable[object]) -> tuple[int, ...]:
    # Read with a bound: an iterator that never ends is refused after one card too many.
    order = tuple(_card_code(card) for card in checks.bounded(deck, "deck", len(rules.troop_deck), error=InvalidDeckError))
    got, expected = Counter(order), Counter(rules.troop_deck)
    if got != expected:
        missing, extra = expected - got, got - expected
        words = [f"{'missing' if what is missing else 'extra'} " + " ".join(f"{Card.from_code(c)}x{k}" for c, k in sorted(what.items()))
                 for what in (missing, extra) if what]  # fmt: skip
        raise InvalidDeckError(f"deck does not hold the rules' troop cards: {'; '.join(words)}")
    return order


def _check_clans(rules: Rules, clans: Iterable[object]) -> tuple[int, ...]:
    listed = checks.bounded(clans, "clans", CLANS, error=InvalidDeckError)  # a NumPy array too
    wrong_size = len(listed) != rules.players
    chosen = [] if wrong_size else [to_clan(clan, f"clans[{seat}]") for seat, clan in enumerate(listed)]
    if wrong_size or len(set(chosen)) != len(chosen):
        raise InvalidDeckError(f"clans must give {rules.players} different clans, one per seat, got {checks.shown(listed)}")
    return tuple(chosen + [clan for clan in range(CLANS) if clan not in chosen])


def _rows(value: object, name: str, n: int) -> Sequence[Any]:
    """``value`` if it is a sequence (not text) of ``n`` items, else the library's error naming ``name``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != n:
        raise InvalidGameStateError(f"{name} must be a sequence of {n} items, got {checks.shown(value)}")
    return value


def _number(value: object, name: str, low: int, high: int | None) -> int:
    """``value`` as an int in ``low..high`` (no upper bound when None)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidGameStateError(f"{name} must be an int, got {checks.shown(value)}")
    if value < low or (high is not None and value > high):
        raise InvalidGameStateError(f"{name} must be in {low}..{'' if high is None else high}, got {checks.shown(value)}")
    return int(value)


def _counts(value: object, name: str, n: int) -> list[int]:
    """``n`` card counts (ints, not negative)."""
    return [_number(count, f"{name}[{i}]", 0, None) for i, count in enumerate(_rows(value, name, n))]


def _flags(value: object, name: str) -> list[bool]:
    """One bool per clan."""
    flags = list(_rows(value, name, CLANS))
    if not all(isinstance(flag, (bool, np.bool_)) for flag in flags):
        raise InvalidGameStateError(f"{name} must hold {CLANS} bools, got {checks.shown(value)}")
    return [bool(flag) for flag in flags]


def _card_list(value: object, name: str) -> list[int]:
    """Card codes from a sequence of cards (Card, code or name)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidGameStateError(f"{name} must be a sequence of cards, got {checks.shown(value)}")
    try:
        return [_card_code(card) for card in value]
    except OrdonnanceError as error:
        raise InvalidGameStateError(f"{name}: {error}") from None


def _card_counts(counts: Counter[int]) -> str:
    return " ".join(f"{Card.from_code(code)}x{counts[code]}" for code in range(CODES))
