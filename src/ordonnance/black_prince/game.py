"""The game of Black Prince: state, turns, battles, legal actions and the winner.

A :class:`Game` is a mutable position that follows Black Prince's rules (:ref:`black-prince-rules`).
Every choice of a turn and of a battle is a decision of
:attr:`Game.current_player`, listed by :meth:`Game.legal_actions` and made
with :meth:`Game.apply`; the steps nobody decides (drawing, skipping an
impossible step, breakthroughs) happen inside ``apply``. Chance is a
SplitMix64 stream from the seed: the two shuffles, the coin (with
``first="coin"``) and the cards a breakthrough takes at random.

>>> from ordonnance.black_prince import Game, Rules, Place
>>> game = Game.new(Rules(), seed=7)
>>> game.current_player, game.phase, len(game.hand(0)), game.deck_size(0)
(0, 'place', 6, 19)
>>> game.hand(0)[:2]
(Card(TroopType.ARCHERS, 2), Card(TroopType.ARCHERS, 3))
>>> game.apply(Place(game.hand(0)[0], 2))
>>> game.cell(2, 2), game.current_player, game.phase, game.legal_actions()
(Card(TroopType.ARCHERS, 2), 0, 'choose', [PlayBattle(), EndTurn()])
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ordonnance.core import checks
from ordonnance.core.checks import shown
from ordonnance.core.engine import EngineGame
from ordonnance.core.rng import bounded, shuffle, splitmix64
from ordonnance.black_prince.actions import (
    END_BATTLE,
    END_TURN,
    PLAY_BATTLE,
    Action,
    EndBattle,
    EndTurn,
    Fight,
    Move,
    MountedMove,
    Place,
    PlaceBehind,
    PlayBattle,
)
from ordonnance.black_prince.board import ROWS, Battlefield, back_row, front_row, owner, square_index
from ordonnance.black_prince.cards import Card
from ordonnance.black_prince.fight import FightResult, fight
from ordonnance.black_prince.rules import COLUMNS, FRONT_LIMIT, HAND_SIZE, ROUT_TO_WIN, Rules
from ordonnance.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidDeckError,
    InvalidGameStateError,
    InvalidSeatError,
    OrdonnanceTypeError,
)
from ordonnance.core.seeds import check_seed as _check_seed

if TYPE_CHECKING:
    from ordonnance.black_prince.view import PlayerView

__all__ = ["Game", "Phase", "Check", "shuffled_decks", "check_reachable"]

#: How much :meth:`Game._from_position` checks: ``"consistent"`` the invariants of a position
#: alone (hand-made positions of tests), ``"reachable"`` also how turns and hands follow from
#: play (:func:`check_reachable`), ``"dealt"`` also that the seed's deal and chance stream
#: give the hidden cards and the stream's state (a save of version 1).
Check = Literal["consistent", "reachable", "dealt"]
_CHECKS: tuple[Check, ...] = ("consistent", "reachable", "dealt")

#: The decision a game waits for: a turn's first step, the Battle-card choice, a battle, or none.
Phase = Literal["place", "choose", "battle", "over"]
_PHASES: tuple[Phase, ...] = ("place", "choose", "battle", "over")
_SIDES = (-1, 1)
_MASK64 = (1 << 64) - 1


class Game(EngineGame[Rules, "PlayerView"]):
    """A game of Black Prince (two players) in progress (or finished).

    Create games with :meth:`new` or :meth:`from_json`. The state changes only
    through :meth:`apply`; an illegal action raises
    :class:`~ordonnance.errors.IllegalActionError` and changes nothing. Two games
    are equal when everything is: the position, hidden cards and chance stream,
    how the game started and its :attr:`history`. A save (:meth:`to_json`) is
    loaded by replaying its history from the deal (every action must be legal where
    it stands) to exactly the saved position; a save of version 1 (a position alone)
    must keep every invariant of reachable positions (:func:`check_reachable`); see
    :mod:`~ordonnance.black_prince.serialization`.
    """

    _package = "ordonnance.black_prince"
    _noun = "Black Prince game"

    __slots__ = (
        "_rules", "_seed", "_rng", "_decks", "_hands", "_cells", "_discards", "_current",
        "_phase", "_turn", "_attacked", "_moved", "_contact", "_fought", "_history", "_orders", "_start",
    )  # fmt: skip

    _rules: Rules
    _seed: int
    _rng: int  # the chance stream's state
    _decks: list[list[Card]]  # [seat], top card LAST so that drawing is a pop()
    _hands: list[list[Card]]  # [seat], in the order drawn
    _cells: list[list[Card | None]]  # [row][column]
    _discards: list[list[Card]]  # [seat]: that seat's own cards, in the order discarded
    _current: int
    _phase: Phase
    _turn: int  # turns begun, 1 for the first
    _attacked: list[bool]  # in a battle, by the attacker's column: that unit has attacked
    _moved: list[bool]  # in a battle: that mounted unit has moved
    _contact: list[bool]  # in a battle: that unit has had an enemy frontally or diagonally opposite
    _fought: bool  # in a battle: a fight has been fought (mounted movement is over)
    _history: list[Action]  # the actions applied since the start, in order
    _orders: tuple[tuple[Card, ...], tuple[Card, ...]] | None  # the decks' given orders, top first; None: shuffled
    _start: Game | None  # the position play started from (never changed); None: the deal of seed and orders

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        orders: Sequence[Iterable[Card]] | None = None,
    ) -> Game:
        """Start a game: shuffle both decks from ``seed``, deal 6 cards each.

        A ``seed`` (an int in 0..2**64-1) makes the game the same on every
        machine; without one a random seed is drawn (see :attr:`seed`).
        ``orders`` gives both decks' exact orders (top card first) instead of
        shuffling; the seed still drives the coin and the breakthroughs. The
        game's :attr:`history` starts at this deal.
        """
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {rules!r}")
        seed = secrets.randbits(64) if seed is None else _check_seed(seed)
        if orders is None:
            decks, state = shuffled_decks(rules, seed)
        else:
            decks, state = _given_orders(rules, orders), seed
        game = cls.__new__(cls)
        game._rules = rules
        game._seed = seed
        game._decks = [d[::-1] for d in decks]
        game._hands = [[], []]
        for seat in (0, 1):
            game._draw(seat)
        first = 0
        if rules.first == "coin":
            state, value = splitmix64(state)
            first = bounded(value, 2)
        game._rng = state
        game._cells = [[None] * COLUMNS for _ in range(ROWS)]
        game._discards = [[], []]
        game._current = first
        game._phase = "place"
        game._turn = 1
        game._reset_battle()
        game._history = []
        game._orders = None if orders is None else (tuple(decks[0]), tuple(decks[1]))
        game._start = None
        game._settle()
        return game

    @classmethod
    def _from_position(
        cls,
        rules: Rules,
        *,
        seed: int,
        rng: int,
        decks: Sequence[Sequence[Card]],
        hands: Sequence[Sequence[Card]],
        cells: Sequence[Sequence[Card | None]],
        discards: Sequence[Sequence[Card]],
        current_player: int,
        phase: str,
        turn: int,
        attacked: Sequence[bool] = (False,) * COLUMNS,
        moved: Sequence[bool] = (False,) * COLUMNS,
        contact: Sequence[bool] = (False,) * COLUMNS,
        fought: bool = False,
        check: Check = "reachable",
    ) -> Game:
        """The one constructor of a position other than a deal (a save of version 1, a game
        sampled from a view): every part checked, then the position as ``check`` says
        (:data:`Check`; by default :func:`check_reachable`).

        ``decks`` lists each deck top card first, ``hands`` in the order drawn, ``cells``
        by row and column, ``discards`` oldest first; ``rng`` is the chance stream's state
        and the battle flags are by the attacker's column (see :meth:`battle_state`). A
        part that is not what the rules allow raises
        :class:`~ordonnance.errors.InvalidGameStateError` naming it and showing its value.
        The game's :attr:`history` starts at this position. :meth:`_parts` reverses it.
        """
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a black_prince.Rules, got {rules!r}")
        game = cls.__new__(cls)
        game._rules = rules
        game._seed = _checked_int(seed, "seed", 0, _MASK64)
        game._rng = _checked_int(rng, "rng", 0, _MASK64)
        game._decks = [cards[::-1] for cards in _card_lists(decks, "decks")]
        game._hands = _card_lists(hands, "hands")
        game._cells = []
        for r, row in enumerate(_sized(cells, "cells", ROWS)):
            squares = enumerate(_sized(row, f"cells[{r}]", COLUMNS))
            game._cells.append([None if card is None else _checked_card(card, f"cells[{r}][{c}]") for c, card in squares])
        game._discards = _card_lists(discards, "discards")
        game._current = _checked_int(current_player, "current_player", 0, 1)
        if phase not in _PHASES:
            raise InvalidGameStateError(f"phase must be one of {', '.join(map(repr, _PHASES))}, got {phase!r}")
        game._phase = phase
        game._turn = _checked_int(turn, "turn", 1, rules.max_turns)
        game._attacked = _flags(attacked, "attacked")
        game._moved = _flags(moved, "moved")
        game._contact = _flags(contact, "contact")
        if type(fought) is not bool:
            raise InvalidGameStateError(f"fought must be True or False, got {fought!r}")
        game._fought = fought
        if check not in _CHECKS:
            raise InvalidArgumentError(f"check must be one of {', '.join(map(repr, _CHECKS))}, got {check!r:.80}")
        _check_consistent(game)
        if check != "consistent":
            _check_turns(game)
        if check == "dealt":
            _check_dealt(game)
        game._history, game._orders, game._start = [], None, None
        game._start = game.clone()
        return game

    def _parts(self) -> dict[str, Any]:
        """The position as the keywords of :meth:`_from_position` (decks top card first)."""
        return {
            "seed": self._seed,
            "rng": self._rng,
            "decks": tuple(tuple(deck[::-1]) for deck in self._decks),
            "hands": tuple(map(tuple, self._hands)),
            "cells": tuple(map(tuple, self._cells)),
            "discards": tuple(map(tuple, self._discards)),
            "current_player": self._current,
            "phase": self._phase,
            "turn": self._turn,
            "attacked": tuple(self._attacked),
            "moved": tuple(self._moved),
            "contact": tuple(self._contact),
            "fought": self._fought,
        }

    def _origin(self) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]] | None, dict[str, Any] | None]:
        """Where :attr:`history` starts: the decks' given orders (None: shuffled from the
        seed) and the position it started from (None: the deal)."""
        return self._orders, None if self._start is None else self._start._parts()

    def clone(self) -> Game:
        """An independent copy of this game (cheap: a few small lists)."""
        other = Game.__new__(Game)
        other._rules = self._rules
        other._seed = self._seed
        other._rng = self._rng
        other._decks = [d[:] for d in self._decks]
        other._hands = [h[:] for h in self._hands]
        other._cells = [r[:] for r in self._cells]
        other._discards = [d[:] for d in self._discards]
        other._current = self._current
        other._phase = self._phase
        other._turn = self._turn
        other._attacked = self._attacked[:]
        other._moved = self._moved[:]
        other._contact = self._contact[:]
        other._fought = self._fought
        other._history = self._history[:]
        other._orders = self._orders
        other._start = self._start
        return other

    # ------------------------------------------------------------------ reading

    @property
    def seed(self) -> int:
        """The seed of the chance stream (shuffles, coin, breakthroughs)."""
        return self._seed

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied since the deal, in order (saves keep them). For a game set
        up in a position instead (a save of version 1, :meth:`PlayerView.sample_game`), the
        actions applied since that position."""
        return tuple(self._history)

    @property
    def current_player(self) -> int:
        """The seat to decide (in a battle: the attacker; after the end: who acted last)."""
        return super().current_player

    @property
    def phase(self) -> Phase:
        """``"place"``, ``"choose"`` (Battle card or not), ``"battle"`` or ``"over"``."""
        return self._phase

    @property
    def turn(self) -> int:
        """Turns begun so far (both players together), 1 during the first."""
        return self._turn

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase == "over"

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand in the order drawn (hidden information)."""
        return tuple(self._hands[self._seat(seat)])

    def deck_size(self, seat: int) -> int:
        """Cards left in ``seat``'s deck."""
        return len(self._decks[self._seat(seat)])

    def discard(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s own discarded cards (played Battle cards, routed troops), oldest first."""
        return tuple(self._discards[self._seat(seat)])

    def cell(self, row: int, column: int) -> Card | None:
        """The card in square (row, column), or None (rows: see :mod:`~ordonnance.black_prince.board`)."""
        row, column = square_index(row, column)
        return self._cells[row][column]

    @property
    def battlefield(self) -> Battlefield:
        """The battlefield as an immutable :class:`Battlefield`."""
        return Battlefield(self._rules, tuple(tuple(r) for r in self._cells))

    def front_count(self) -> int:
        """Cards in the front line (both front rows); never more than 6."""
        return sum(card is not None for row in (1, 2) for card in self._cells[row])

    @property
    def routed(self) -> tuple[int, int]:
        """Enemy troop cards each seat has routed (destroyed or taken from the hand)."""
        return (_troops(self._discards[1]), _troops(self._discards[0]))

    @property
    def scores(self) -> tuple[int, int]:
        """Each seat's score: the enemy troops it routed (same as :attr:`routed`)."""
        return self.routed

    @property
    def winner(self) -> int | None:
        """The winning seat once over; None before, or on a draw."""
        if self._phase != "over":
            return None
        a, b = self.routed
        return 0 if a > b else 1 if b > a else None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats sharing the best result once over (both on a draw); () before."""
        if self._phase != "over":
            return ()
        winner = self.winner
        return (0, 1) if winner is None else (winner,)

    def battle_state(self) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...], bool]:
        """In a battle, by the attacker's column: (attacked, moved, contact), and whether a fight was fought."""
        return (tuple(self._attacked), tuple(self._moved), tuple(self._contact), self._fought)

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Every legal decision of :attr:`current_player` now (empty once over).

        ``"place"``: for each distinct troop card in hand (hand order) its
        placements then its places behind (columns ascending), then moves
        (column ascending, left before right). ``"choose"``:
        :class:`PlayBattle`, :class:`EndTurn`. ``"battle"``: mounted moves
        (before the first fight), fights (column, then target ascending), and
        :class:`EndBattle` once no mandatory fight remains.
        """
        if self._phase == "place":
            return self._place_actions()
        if self._phase == "choose":
            return [PLAY_BATTLE, END_TURN]
        if self._phase == "battle":
            return self._battle_actions()
        return []

    def apply(self, action: Action) -> None:
        kind = type(action)
        if kind not in _ACTION_TYPES:
            raise OrdonnanceTypeError(f"not a Black Prince action: {action!r}")
        if action not in self.legal_actions():
            raise IllegalActionError(action, self._why_illegal(action))
        p = self._current
        if isinstance(action, (Place, PlaceBehind)):
            self._hands[p].remove(action.card)
            self._cells[front_row(p) if kind is Place else back_row(p)][action.column] = action.card
            self._after_first_step()
        elif isinstance(action, Move):
            self._shift(p, action.column, action.step)
            self._after_first_step()
        elif isinstance(action, PlayBattle):
            card = next(c for c in self._hands[p] if c.is_battle)
            self._hands[p].remove(card)
            self._discards[p].append(card)
            self._start_battle()
        elif isinstance(action, EndTurn):
            self._end_turn()
        elif isinstance(action, MountedMove):
            to = action.column + action.step
            self._shift(p, action.column, action.step)
            self._moved[to], self._moved[action.column] = True, False
            self._contact[to] = self._contact[action.column] or self._enemy_near(p, to)
            self._contact[action.column] = False
        elif isinstance(action, Fight):
            result = self._fight_result(action)
            self._attacked[action.column] = True
            self._fought = True
            self._resolve(result)
        else:
            self._finish_battle()
        self._history.append(action)
        self._settle()

    def fight_preview(self, action: Fight) -> FightResult:
        """The fight ``action`` would fight now, worked out (see :func:`~ordonnance.black_prince.fight`).

        ``action`` must be one of the :class:`Fight` actions of :meth:`legal_actions`
        (:class:`~ordonnance.errors.OrdonnanceTypeError` for another value,
        :class:`~ordonnance.errors.IllegalActionError` for a fight not possible now).
        """
        if type(action) is not Fight:
            raise OrdonnanceTypeError(f"fight_preview takes a Fight action, got {shown(action)}")
        if action not in self.legal_actions():
            raise IllegalActionError(action, self._why_illegal(action))
        return self._fight_result(action)

    def _fight_result(self, action: Fight) -> FightResult:
        p = self._current
        return fight((front_row(p), action.column), (front_row(1 - p), action.target), self)

    # ------------------------------------------------------------------ the rules

    def _can_place(self, p: int, column: int) -> bool:
        front, enemy = self._cells[front_row(p)], self._cells[front_row(1 - p)]
        if front[column] is not None or self.front_count() >= FRONT_LIMIT:
            return False
        if enemy[column] is not None or _beside(front, column, -1):
            return True
        return all(c is None for c in front) and all(c is None for c in enemy)

    def _can_move_to(self, p: int, origin: int, to: int) -> bool:
        front, enemy = self._cells[front_row(p)], self._cells[front_row(1 - p)]
        if not 0 <= to < COLUMNS or front[to] is not None:
            return False
        return enemy[to] is not None or _beside(front, to, origin)

    def _place_actions(self) -> list[Action]:
        p = self._current
        front, back = self._cells[front_row(p)], self._cells[back_row(p)]
        actions: list[Action] = []
        places = [c for c in range(COLUMNS) if self._can_place(p, c)]
        seen: list[Card] = []
        for card in self._hands[p]:
            if card.type is None or card in seen:
                continue
            seen.append(card)
            actions.extend(Place(card, c) for c in places)
            if card.type.is_line:
                for c in range(COLUMNS):
                    unit = front[c]
                    if unit is not None and unit.type is card.type and back[c] is None:
                        actions.append(PlaceBehind(card, c))
        for c in range(COLUMNS):
            if front[c] is not None:
                actions.extend(Move(c, s) for s in _SIDES if self._can_move_to(p, c, c + s))
        return actions

    def _battle_actions(self, p: int | None = None) -> list[Action]:
        p = self._current if p is None else p
        front, enemy = self._cells[front_row(p)], self._cells[front_row(1 - p)]
        actions: list[Action] = []
        if not self._fought:
            for c in range(COLUMNS):
                unit = front[c]
                if unit is not None and unit.type is not None and unit.type.is_mounted and not self._moved[c]:
                    actions.extend(MountedMove(c, s) for s in _SIDES if 0 <= c + s < COLUMNS and front[c + s] is None)
        mandatory = False
        for c in range(COLUMNS):
            if front[c] is None or self._attacked[c]:
                continue
            mandatory = mandatory or enemy[c] is not None
            actions.extend(Fight(c, t) for t in (c - 1, c, c + 1) if 0 <= t < COLUMNS and enemy[t] is not None)
        if actions and not mandatory:
            actions.append(END_BATTLE)
        return actions

    def _enemy_near(self, p: int, column: int) -> bool:
        enemy = self._cells[front_row(1 - p)]
        return any(0 <= t < COLUMNS and enemy[t] is not None for t in (column - 1, column, column + 1))

    def _shift(self, p: int, column: int, step: int) -> None:
        for row in (front_row(p), back_row(p)):
            cells = self._cells[row]
            cells[column + step], cells[column] = cells[column], None

    def _draw(self, p: int) -> None:
        hand, deck = self._hands[p], self._decks[p]
        while len(hand) < HAND_SIZE and deck:
            hand.append(deck.pop())

    def _after_first_step(self) -> None:
        """Step 2 (draw) and step 3 (the battle, forced, offered, or none)."""
        p = self._current
        self._draw(p)
        if self.front_count() >= FRONT_LIMIT:
            self._start_battle()
        elif any(card.is_battle for card in self._hands[p]):
            self._phase = "choose"
        else:
            self._end_turn()

    def _reset_battle(self) -> None:
        self._attacked = [False] * COLUMNS
        self._moved = [False] * COLUMNS
        self._contact = [False] * COLUMNS
        self._fought = False

    def _start_battle(self) -> None:
        p = self._current
        self._phase = "battle"
        front = self._cells[front_row(p)]
        self._contact = [front[c] is not None and self._enemy_near(p, c) for c in range(COLUMNS)]

    def _resolve(self, result: FightResult) -> None:
        """Take the fight's losses off the field into their owner's discard pile."""
        if not result.losses:
            return
        loser = 1 - self._current if result.winner == "attacker" else self._current
        column = (result.defender_square if result.winner == "attacker" else result.attacker_square)[1]
        self._discards[loser].extend(result.losses)
        self._cells[front_row(loser)][column] = None
        if len(result.losses) == 2:
            self._cells[back_row(loser)][column] = None
        if max(self.routed) >= ROUT_TO_WIN:
            self._game_over()

    def _finish_battle(self) -> None:
        """Breakthroughs, then the end of the turn."""
        p, q = self._current, 1 - self._current
        front = self._cells[front_row(p)]
        for c in range(COLUMNS):
            if front[c] is None or self._contact[c] or not self._hands[q]:
                continue
            self._discards[q].append(self._hands[q].pop(self._chance_index(len(self._hands[q]))))
            if self.routed[p] >= ROUT_TO_WIN:
                self._game_over()
                return
        self._end_turn()

    def _chance_index(self, n: int) -> int:
        """A breakthrough's card: the chance stream's next draw mapped to 0..n-1 (the OpenSpiel
        adapter's chance nodes answer it instead)."""
        self._rng, value = splitmix64(self._rng)
        return bounded(value, n)

    def _end_turn(self) -> None:
        self._reset_battle()
        if self._cards_played_out() or self._turn >= self._rules.max_turns:
            self._game_over()
            return
        self._current = 1 - self._current
        self._turn += 1
        self._phase = "place"

    def _cards_played_out(self) -> bool:
        """The end when the cards have run out: no card in any hand or deck, and neither
        seat could do anything on a turn of its own from here (between turns)."""
        if any(self._hands) or any(self._decks):
            return False
        return not self._can_act(0) and not self._can_act(1)

    def _can_act(self, p: int) -> bool:
        """Whether ``p``, holding no card, would have a decision on a turn starting now:
        a move, or a battle the full front line forces (between turns: no battle flag set)."""
        front = self._cells[front_row(p)]
        if any(front[c] is not None and self._can_move_to(p, c, c + s) for c in range(COLUMNS) for s in _SIDES):
            return True
        return self.front_count() >= FRONT_LIMIT and bool(self._battle_actions(p))

    def _game_over(self) -> None:
        self._phase = "over"
        self._reset_battle()

    def _settle(self) -> None:
        """Run the steps nobody decides until a decision is due or the game is over."""
        while True:
            if self._phase == "place" and not self._place_actions():
                self._after_first_step()
            elif self._phase == "battle" and not self._battle_actions():
                self._finish_battle()
            else:
                return

    def _why_illegal(self, action: Action) -> str:
        if self._phase == "over":
            return "the game is over"
        wanted = {
            Place: "place", PlaceBehind: "place", Move: "place", PlayBattle: "choose", EndTurn: "choose",
            MountedMove: "battle", Fight: "battle", EndBattle: "battle",
        }[type(action)]  # fmt: skip
        if wanted != self._phase:
            return f"it is the {self._phase!r} step, not the {wanted!r} step"
        if isinstance(action, (Place, PlaceBehind)) and action.card not in self._hands[self._current]:
            return f"{action.card} is not in player {self._current}'s hand"
        if isinstance(action, EndBattle):
            return "a frontal fight must still be fought"
        if isinstance(action, MountedMove) and self._fought:
            return "mounted movement ends with the first fight"
        return f"not one of player {self._current}'s legal actions now"

    # ------------------------------------------------------------------ helpers

    def _seat(self, seat: int) -> int:
        if type(seat) is int and 0 <= seat <= 1:
            return seat
        return checks.integer(seat, "seat", low=0, high=1, error=InvalidSeatError)

    def __repr__(self) -> str:
        status = "over" if self._phase == "over" else f"player {self._current} to {self._phase}"
        return f"<black_prince.Game turn {self._turn}, routed {self.routed}, {status}>"


_ACTION_TYPES = frozenset({Place, PlaceBehind, Move, PlayBattle, EndTurn, MountedMove, Fight, EndBattle})


def _troops(cards: list[Card]) -> int:
    return sum(card.type is not None for card in cards)


def _beside(front: list[Card | None], column: int, ignore: int) -> bool:
    """Whether an own front unit other than the one in column ``ignore`` stands beside ``column``."""
    return any(0 <= s < COLUMNS and s != ignore and front[s] is not None for s in (column - 1, column + 1))


def shuffled_decks(rules: Rules, seed: int) -> tuple[list[list[Card]], int]:
    """Both decks as ``Game.new(rules, seed=seed)`` shuffles them (top card first),
    and the chance stream's state afterwards."""
    decks = []
    state = seed
    for seat in (0, 1):
        order = list(rules.deck(seat))
        state = shuffle(order, state)
        decks.append(order)
    return decks, state


def _given_orders(rules: Rules, orders: Sequence[Iterable[Card]]) -> list[list[Card]]:
    given = checks.bounded(orders, "orders", 2)
    if len(given) != 2:
        raise OrdonnanceTypeError(f"orders must give two decks (one per seat), got {shown(orders)}")
    decks = []
    for seat, order in enumerate(given):
        cards = checks.bounded(order, f"orders[{seat}]", len(rules.deck(seat)), error=InvalidDeckError)
        wrong = next((card for card in cards if type(card) is not Card), None)
        if wrong is not None:
            raise OrdonnanceTypeError(f"orders[{seat}] must hold Cards, got {shown(wrong)}")
        if Counter(cards) != Counter(rules.deck(seat)):
            raise InvalidDeckError(f"orders[{seat}] does not hold exactly the cards of seat {seat}'s deck")
        decks.append(cards)
    return decks



# ------------------------------------------------------------------ checking a position


def _checked_int(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise InvalidGameStateError(f"{where} must be an int in {low}..{high}, got {value!r:.80}")
    return int(value)


def _sized(value: object, where: str, length: int | None = None) -> Sequence[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidGameStateError(f"{where} must be a list, got {value!r:.80}")
    if length is not None and len(value) != length:
        raise InvalidGameStateError(f"{where} must have {length} entries, got {len(value)}")
    return value


def _checked_card(value: object, where: str) -> Card:
    if type(value) is not Card:
        raise InvalidGameStateError(f"{where} must be a Card, got {value!r:.80}")
    return value


def _card_lists(value: object, where: str) -> list[list[Card]]:
    """Both seats' lists of cards, checked."""
    return [
        [_checked_card(card, f"{where}[{seat}][{i}]") for i, card in enumerate(_sized(cards, f"{where}[{seat}]"))]
        for seat, cards in enumerate(_sized(value, where, 2))
    ]


def _flags(value: object, where: str) -> list[bool]:
    flags = list(_sized(value, where, COLUMNS))
    if not all(type(flag) is bool for flag in flags):
        raise InvalidGameStateError(f"{where} must hold {COLUMNS} booleans, got {value!r:.80}")
    return flags


def check_reachable(game: Game) -> None:
    """Refuse, with :class:`~ordonnance.errors.InvalidGameStateError`, a position that
    breaks an invariant every reachable position keeps.

    Each seat's cards each in one place; at most 6 in a hand and in the front
    line; no Battle card on the table; back cards only behind a front unit of
    their (line-infantry) type; an ended game exactly when someone routed 6, the
    cards ran out with nothing left to do, or the turn limit came; battle flags only
    in a battle and consistent with the table (``fought`` exactly when a unit has
    attacked, an attack only from a unit that had an enemy opposite); a full hand
    after the draw in the ``"choose"`` and ``"battle"`` steps; a decision to make in
    the ``"place"`` and ``"battle"`` steps; turns alternating (seat 0 plays the odd
    ones unless a coin chose); no seat with more cards on the table than turns
    it has played; the waiting seat's hand refilled after its turn. These are
    necessary conditions, not a proof that some sequence of actions reaches the
    position (a save with a history is replayed instead: see :meth:`Game.from_json`).
    """
    _check_consistent(game)
    _check_turns(game)


def _check_consistent(game: Game) -> None:
    """The invariants of a position alone (see :func:`check_reachable`)."""
    fail = InvalidGameStateError
    rules = game._rules
    for seat in (0, 1):
        places = Counter(game._decks[seat]) + Counter(game._hands[seat]) + Counter(game._discards[seat])
        for row in (front_row(seat), back_row(seat)):
            places.update(c for c in game._cells[row] if c is not None)
        if places != Counter(rules.deck(seat)):
            raise fail(f"seat {seat}'s deck, hand, table and discard pile do not hold exactly its deck")
        if len(game._hands[seat]) > HAND_SIZE:
            raise fail(f"hands[{seat}] holds {len(game._hands[seat])} cards, at most {HAND_SIZE}")
    for r in range(ROWS):
        for c, card in enumerate(game._cells[r]):
            if card is None:
                continue
            if card.is_battle:
                raise fail(f"a Battle card lies on the table at cells[{r}][{c}]")
            seat = owner(r)
            if r == back_row(seat):
                front = game._cells[front_row(seat)][c]
                if card.type is None or not card.type.is_line or front is None or front.type is not card.type:
                    raise fail(f"cells[{r}][{c}] holds {card} behind {front}: only line infantry behind its own type")
    if game.front_count() > FRONT_LIMIT:
        raise fail(f"the front line holds {game.front_count()} cards, at most {FRONT_LIMIT}")
    routed = game.routed
    if min(routed) >= ROUT_TO_WIN:
        raise fail(f"both players have routed {ROUT_TO_WIN} troops: the game ends at the first")
    if game._phase != "over" and max(routed) >= ROUT_TO_WIN:
        raise fail(f"the game has ended (routed {routed}) but phase is {game._phase!r}")
    ended = max(routed) >= ROUT_TO_WIN or game._cards_played_out() or game._turn >= rules.max_turns
    if game._phase == "over" and not ended:
        raise fail(f"phase is 'over' at turn {game._turn} with routed {routed} and something left to play")
    in_battle = game._phase == "battle"
    if not in_battle and (any(game._attacked) or any(game._moved) or any(game._contact) or game._fought):
        raise fail("battle flags are set outside a battle")
    p = game._current
    if in_battle:
        units = game._cells[front_row(p)]
        for c in range(COLUMNS):
            unit = units[c]
            if game._moved[c] and not game._fought and (unit is None or unit.type is None or not unit.type.is_mounted):
                raise fail(f"moved[{c}] is set but no mounted unit stands there")
            if unit is not None and game._enemy_near(p, c) and not game._contact[c]:
                raise fail(f"contact[{c}] is not set though an enemy unit is opposite")
            if (game._contact[c] or game._moved[c]) and unit is None and not game._fought:
                raise fail(f"contact[{c}] or moved[{c}] is set on an empty cell before any fight")
            if game._moved[c] and unit is not None and (unit.type is None or not unit.type.is_mounted):
                raise fail(f"moved[{c}] is set but {unit} stands there: only mounted units move in a battle")
            if game._contact[c] and unit is not None and not (game._fought or game._moved[c] or game._enemy_near(p, c)):
                raise fail(f"contact[{c}] is set but no enemy unit was ever opposite {unit} (none has fallen, it has not moved)")
        if any(game._attacked) != game._fought:
            raise fail(f"fought is {game._fought} but attacked is {game._attacked}: fought says whether a unit has attacked")
        for c in range(COLUMNS):
            if game._attacked[c] and not game._contact[c]:
                raise fail(f"attacked[{c}] is set but contact[{c}] is not: a unit attacks only an enemy opposite it")
    if game._phase == "choose" and (game.front_count() >= FRONT_LIMIT or not any(c.is_battle for c in game._hands[p])):
        raise fail("the Battle-card choice is offered without a Battle card in hand or with a full front line")
    drawn = len(game._hands[p]) if game._decks[p] else HAND_SIZE
    if game._phase == "choose" and drawn < HAND_SIZE or in_battle and drawn < HAND_SIZE - 1:
        raise fail(f"player {p} has drawn {len(game._hands[p])} cards in the {game._phase!r} step, with a deck left")
    if game._phase in ("place", "battle") and not game.legal_actions():
        raise fail(f"player {p} is to decide in the {game._phase!r} step but has no legal action")


def _check_turns(game: Game) -> None:
    """How turns and hands follow from play: the turn order, each seat's cards on the
    table against the turns it has played, the waiting seat's refilled hand."""
    fail = InvalidGameStateError
    p, turn, phase = game._current, game._turn, game._phase
    if game._rules.first == "seat0" and p != (turn - 1) % 2:
        raise fail(f"player {p} is to play turn {turn}, but seat 0 starts: it plays the odd turns, seat 1 the even ones")
    first = p if turn % 2 else 1 - p
    for seat in (0, 1):
        turns = (turn + 1) // 2 if seat == first else turn // 2
        placed = turns - (seat == p and phase == "place")  # the turns whose first step is done
        on_table = sum(game._cells[row][c] is not None for row in (front_row(seat), back_row(seat)) for c in range(COLUMNS))
        if on_table > placed:
            raise fail(f"seat {seat} has {on_table} cards on the table at turn {turn}, "
                       f"but has placed at most one a turn, {placed} so far")  # fmt: skip
    waiting = 1 - p
    hand = len(game._hands[waiting])
    played_battle = any(card.is_battle for card in game._discards[waiting])
    if phase != "over" and game._decks[waiting] and not (hand == HAND_SIZE or hand == HAND_SIZE - 1 and played_battle):
        raise fail(f"seat {waiting} waits with {hand} cards in hand and {len(game._decks[waiting])} in its deck: "
                   f"its last turn filled its hand to {HAND_SIZE} (one less after playing a Battle card)")  # fmt: skip


def _check_dealt(game: Game) -> None:
    """The seed's deal: each deck what its shuffle leaves after the cards drawn, each
    hand in the order drawn, the first seat the coin's, the chance stream's state a
    number of breakthroughs past the deal."""
    fail = InvalidGameStateError
    rules, seed = game._rules, game._seed
    orders, state = shuffled_decks(rules, seed)
    first = 0
    if rules.first == "coin":
        state, value = splitmix64(state)
        first = bounded(value, 2)
    if game._current != first ^ (game._turn - 1) % 2:
        raise fail(f"player {game._current} is to play turn {game._turn}, but seed {seed} gives the first turn to seat {first}")
    for seat in (0, 1):
        order, deck = orders[seat], game._decks[seat][::-1]
        drawn = len(order) - len(deck)
        if drawn < min(HAND_SIZE, len(order)) or order[drawn:] != deck:
            raise fail(f"decks[{seat}] is not what the shuffle of seed {seed} leaves after {drawn} cards drawn")
        received = iter(order[:drawn])
        if not all(card in received for card in game._hands[seat]):  # a subsequence: the order drawn
            raise fail(f"hands[{seat}] is not in the order seed {seed} deals its cards")
    breakthroughs = len(game._discards[0]) + len(game._discards[1])
    for _ in range(breakthroughs + 1):
        if state == game._rng:
            return
        state, _value = splitmix64(state)
    raise fail(f"rng {game._rng} is not the state of seed {seed}'s stream after at most {breakthroughs} breakthroughs")
