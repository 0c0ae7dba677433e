"""What every game's ``Game`` class shares: the base :class:`EngineGame`.

Each game's ``Game`` (Ordonnance's :class:`ordonnance.Game`, :class:`ordonnance.shinobi.Game`,
:class:`ordonnance.black_prince.Game`) derives from :class:`EngineGame` and keeps its own
state, rules of play and constructors; the base holds what reads the same in every game:
the rules and seats, refusing ``Game(...)``, copies, equality of positions, one seat's view
and the save's JSON. A game's class docstring says what these mean in that game (when it is
over, what its saves hold).

>>> from ordonnance import shinobi
>>> from ordonnance.core.engine import EngineGame
>>> game = shinobi.Game.new(shinobi.Rules(players=3), seed=7)
>>> isinstance(game, EngineGame), game.players, game.current_player, game.is_over
(True, 3, 0, False)
>>> import copy
>>> copy.copy(game) == game, copy.copy(game) is game
(True, False)
"""

from __future__ import annotations

import copy
import enum
import importlib
import json
from types import ModuleType
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

import numpy as np

from ordonnance.core.jsonio import dumps
from ordonnance.core.spec import RulesLike
from ordonnance.errors import InvalidSeatError, OrdonnanceTypeError
from ordonnance.core.checks import shown

__all__ = ["EngineGame", "OneDrawPile"]

RulesT = TypeVar("RulesT", bound=RulesLike)
ViewT = TypeVar("ViewT")


class EngineGame(Generic[RulesT, ViewT]):
    """The base of every game's ``Game``: a mutable position of a game (``RulesT`` its
    rules, ``ViewT`` the view of one seat).

    A subclass holds ``_rules``, ``_current`` (the seat to act) and, unless it says
    otherwise in :attr:`is_over`, ``_over``; it names its package in ``_package`` (whose
    ``view``, ``serialization`` and ``render`` modules give :meth:`view`, :meth:`to_json`,
    :meth:`from_json` and the pictures) and implements ``clone()``. Two games are equal when every slot of
    their state is (:meth:`_state`; a game may compare less).
    """

    __slots__ = ()

    #: The game's package (``"ordonnance.shinobi"``): its ``view.PlayerView``,
    #: ``serialization.game_to_json``/``game_from_json`` and ``render.svg``/``board``
    #: serve the faces below.
    _package: ClassVar[str]
    #: What the refusal of ``Game(...)`` calls a game (``"shinobi game"``).
    _noun: ClassVar[str] = "game"
    #: What the seat's errors call a seat (Ordonnance's engine says ``"player"``).
    _seat_noun: ClassVar[str] = "seat"
    #: The keys of a seat's view JSON that are that seat's alone (its hand, its legal actions
    #: and whatever follows from its hand): :meth:`public_view_json` leaves them out.
    _private_view_keys: ClassVar[tuple[str, ...]] = ("seat", "hand", "legal_actions")

    _rules: RulesT
    _current: int
    _over: bool

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise OrdonnanceTypeError(
            f"create a {self._noun} with Game.new(rules, seed=...) or Game.from_json(text), not Game(...); "
            f"got arguments {shown(args)} {shown(kwargs)}"
        )

    def clone(self) -> EngineGame[RulesT, ViewT]:
        """An independent copy of this game."""
        raise NotImplementedError

    def __copy__(self) -> EngineGame[RulesT, ViewT]:
        """``copy.copy(game)``: an independent copy, as ``clone()`` (a game shares no mutable state)."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> EngineGame[RulesT, ViewT]:
        """``copy.deepcopy(game)``: ``clone()`` (rules and cards are immutable, so nothing deeper to copy)."""
        return self.clone()

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> RulesT:
        """The rules this game is played under."""
        return self._rules

    @property
    def players(self) -> int:
        """The number of players (``rules.players``)."""
        return self._rules.players

    @property
    def current_player(self) -> int:
        """The seat to act (after the game ends: the seat that acted last)."""
        return self._current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (the class docstring says when a game ends)."""
        return self._over

    def hand(self, seat: int) -> tuple[Any, ...]:
        """``seat``'s hand in the order drawn (hidden information)."""
        raise NotImplementedError

    def legal_actions(self) -> list[Any]:
        """Every legal action of :attr:`current_player` now (empty once the game is over)."""
        raise NotImplementedError

    def apply(self, action: Any) -> None:
        """Carry out ``action`` for :attr:`current_player`.

        Raises :class:`~ordonnance.errors.IllegalActionError` (a ValueError)
        with the reason when the action is not legal now, and an
        :class:`~ordonnance.errors.OrdonnanceTypeError` for an object that is
        no action; the game is then unchanged.
        """
        raise NotImplementedError

    def _view_fields(self, seat: int) -> dict[str, Any]:
        """What every game's view of ``seat`` holds alike, as its ``PlayerView``'s fields: the seat,
        the rules, the seat to act, its own hand, every hand's size and its legal actions (none
        when it is not to act)."""
        return {
            "seat": seat,
            "rules": self._rules,
            "current_player": self._current,
            "hand": self.hand(seat),
            "hand_sizes": tuple(len(self.hand(other)) for other in range(self.players)),
            "legal_actions": tuple(self.legal_actions()) if self._current == seat and not self.is_over else (),
        }

    def _seat(self, seat: int) -> int:
        """``seat`` as a seat number of this game, else the library's error showing it."""
        if type(seat) is int and 0 <= seat < self.players:
            return seat
        if isinstance(seat, (bool, enum.Enum)) or not isinstance(seat, (int, np.integer)):
            raise OrdonnanceTypeError(f"{self._seat_noun} must be a seat number, not {type(seat).__name__}: {shown(seat)}")
        if not 0 <= seat < self.players:
            raise InvalidSeatError(f"seats are 0..{self.players - 1}, got {shown(seat)}")
        return int(seat)

    # ------------------------------------------------------------------ faces

    @classmethod
    def _module(cls, name: str) -> ModuleType:
        # imported on first use: the game's view and serialization modules import its game module
        return importlib.import_module(f"{cls._package}.{name}")

    def view(self, seat: int) -> ViewT:
        """What ``seat`` may see: everything public plus what is its own (see the game's ``PlayerView``)."""
        return cast(ViewT, self._module("view").PlayerView.of(self, self._seat(seat)))

    def public_view_json(self) -> str:
        """What anyone may see, a spectator for one, as JSON: a seat's view (:meth:`view`) less
        the keys that are that seat's own (:attr:`_private_view_keys`), its format the view's
        with ``.public`` for ``.view`` (``"ordonnance.shinobi.public"``), its JSON Schema
        :meth:`public_view_schema`. Two games that differ only in cards some seat cannot see
        give the same text."""
        data = json.loads(cast(Any, self.view(0)).to_json())
        for key in self._private_view_keys:
            del data[key]
        data["format"] = _public_format(data["format"])
        return dumps(data)

    @classmethod
    def public_view_schema(cls) -> dict[str, Any]:
        """The JSON Schema of :meth:`public_view_json`: the view's, less the seat's own keys."""
        schema = copy.deepcopy(cls._module("view").VIEW_SCHEMA)
        for key in cls._private_view_keys:
            del schema["properties"][key]
            schema["required"].remove(key)
        schema["properties"]["format"] = {"const": _public_format(schema["properties"]["format"]["const"])}
        schema["title"] = f"{schema['title']} (public: what a spectator sees)"
        return cast(dict[str, Any], schema)

    def to_json(self) -> str:
        """The whole game as JSON text, its :attr:`history` included; :meth:`from_json` restores it exactly."""
        return cast(str, self._module("serialization").game_to_json(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """Restore a game saved with :meth:`to_json`, its :attr:`history` replayed from where it
        starts; malformed input, or a position the game could not have reached that way, raises
        :class:`~ordonnance.errors.InvalidGameStateError` saying why."""
        return cast(Self, cls._module("serialization").game_from_json(text))

    def _repr_svg_(self) -> str:
        """The table as SVG with hidden cards hidden, for Jupyter (the game's ``render.svg``)."""
        return str(self._module("render").svg(self))

    def __str__(self) -> str:
        """The table as text (the game's ``render.board``)."""
        return cast(str, self._module("render").board(self))

    # ------------------------------------------------------------------ equality

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _state(self) -> tuple[Any, ...]:
        """What equality compares: every slot of the game's state."""
        return tuple(getattr(self, name) for kind in type(self).__mro__ for name in kind.__dict__.get("__slots__", ()))


def _public_format(view_format: str) -> str:
    """The public view's format from its game's view format (``"ordonnance.view"`` -> ``"ordonnance.public"``)."""
    return view_format.removesuffix(".view") + ".public"


class OneDrawPile:
    """The draw pile of a game whose seats all draw from one deck (Ordonnance, Shinobi),
    held as ``_deck``, top card last."""

    __slots__ = ()

    _deck: list[Any]

    @property
    def deck_size(self) -> int:
        """Cards left in the draw pile."""
        return len(self._deck)
