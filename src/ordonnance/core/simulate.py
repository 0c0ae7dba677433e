"""One ``simulate`` driver for every game, and the result every game's ``simulate`` returns.

Each game's ``simulate(rules, *, games, seed, players, record)`` is this module's
:func:`simulate` given the game's :class:`Hooks` (its ``simulation`` module's
``HOOKS``). The driver does what every game does alike:

1. check the arguments (the library's errors, showing the bad value);
2. deal game ``i`` from ``game_seeds(seed, games)[i]`` and give seat ``p``'s bot
   the stream ``bot_seeds(...)[i, p]`` (:mod:`ordonnance.core.seeds`);
3. check the bots (:func:`ordonnance.core.play.check_players`; Random in every
   seat by default);
4. play every game in the game's numba kernel when the kernel plays every
   seat's bot (the built-in Random and Greedy), else through the game's
   ``Game`` in Python, one decision at a time (:func:`play_in_python`);
5. fill the output arrays and build the result.

The hooks say only what differs: which bots the kernel plays (their policy
codes), how to run the kernel on the games of a :class:`Call`, how to read one
finished ``Game``'s own figures into the outputs, and which result class to
build.

>>> from ordonnance import shinobi
>>> from ordonnance.core.simulate import hooks_for
>>> hooks_for(shinobi.Rules(players=3)).rules_name
'ordonnance.shinobi.Rules'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from ordonnance.core import registry
from ordonnance.core.bots import seeded_copies
from ordonnance.core.play import check_players, play_to_the_end
from ordonnance.core.seeds import bot_seeds as mixed_bot_seeds, check_seed, game_seeds, own_seed
from ordonnance.core.summary import Summary
from ordonnance.errors import InvalidRulesError, OrdonnanceError, OrdonnanceTypeError

__all__ = [
    "MAX_GAMES", "Outputs", "SimulationResult", "Call", "Hooks", "simulate", "play_in_python", "hooks_for", "Step",
]  # fmt: skip

#: The most games one ``simulate`` call plays (its results are kept in memory).
MAX_GAMES = 100_000_000

#: One action of a game as the Python road sees it: (seat, action).
Step = tuple[int, Any]

R = TypeVar("R")


class Outputs:
    """The arrays a ``simulate`` call fills, one row per game; a game's subclass adds its own."""

    def __init__(self, games: int, players: int, *, decisions: type[np.integer[Any]] = np.int16) -> None:
        self.winner: npt.NDArray[np.int8] = np.zeros(games, np.int8)
        """The sole winning seat, or -1."""
        self.scores: npt.NDArray[np.int16] = np.zeros((games, players), np.int16)
        """``[game, seat]``: the seat's score (higher is better)."""
        self.decisions: npt.NDArray[np.integer[Any]] = np.zeros(games, decisions)
        """Actions the seats took in each game."""
        self.rounds: npt.NDArray[np.int16] = np.zeros(games, np.int16)
        """Rounds each game lasted (as the game defines a round)."""


@attrs.frozen(eq=False)
class SimulationResult(Generic[R]):
    """What every game's ``simulate`` returns: per-game results as NumPy arrays, one row per game.

    Each game's result is a subclass with the game's own arrays; its docstring
    says what a decision and a round are in that game.
    """

    rules: R
    """The rules played."""
    players: tuple[str, ...]
    """The bot of each seat, as its repr."""
    seeds: npt.NDArray[np.uint64]
    """Each game's deal seed: ``Game.new(rules, seed=int(seeds[i]))``."""
    bot_seeds: npt.NDArray[np.uint64]
    """``[game, seat]``: the seed each seat's bot played that game with."""
    winner: npt.NDArray[np.int8]
    """The seat that won the game alone, or -1 (a draw, or a win shared by tied seats)."""
    scores: npt.NDArray[np.int16]
    """``[game, seat]``: each seat's score at the end (higher is better)."""
    decisions: npt.NDArray[np.integer[Any]]
    """Decisions each game took: the actions the seats chose."""
    rounds: npt.NDArray[np.int16]
    """Rounds each game lasted (what a round is: the game's result class)."""

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def summary(self) -> Summary:
        """Aggregate the games: win rates, games without a sole winner, first-player advantage, length."""
        return Summary.of(self.winner, self.decisions, self.rounds, int(self.bot_seeds.shape[1]))

    def record(self, game: int) -> Any:
        """Game ``game``'s actions (each game's result says in which form)."""
        raise NotImplementedError

    def replay(self, game: int) -> Any:
        """Game ``game`` replayed through the game's ``Game``: the finished game."""
        raise NotImplementedError


O = TypeVar("O", bound=Outputs)
Res = TypeVar("Res", bound=SimulationResult[Any])


@attrs.frozen(eq=False)
class Call(Generic[R, O]):
    """The games of one ``simulate`` call, as the driver hands them to a game's :class:`Hooks`."""

    rules: R
    """The rules played."""
    bots: tuple[Any, ...]
    """The bot of each seat."""
    seeds: npt.NDArray[np.uint64]
    """Each game's deal seed."""
    bot_seeds: npt.NDArray[np.uint64]
    """``[game, seat]``: the seed each seat's bot plays that game with (C-contiguous)."""
    policies: npt.NDArray[np.int64]
    """The kernel's policy code of each seat's bot (-1 for a bot the kernel cannot play)."""
    out: O
    """The arrays being filled."""
    record: bool
    """Whether the caller asked to keep each game's actions."""
    in_kernel: bool
    """Whether the kernel plays every seat (else the games go through the game's ``Game``)."""

    def shared(self) -> dict[str, Any]:
        """The fields every game's :class:`SimulationResult` has, from these games."""
        return dict(
            rules=self.rules, players=tuple(repr(bot) for bot in self.bots), seeds=self.seeds,
            bot_seeds=self.bot_seeds, winner=self.out.winner, scores=self.out.scores,
            decisions=self.out.decisions, rounds=self.out.rounds,
        )  # fmt: skip


class Hooks(Generic[R, O, Res]):
    """What one game tells :func:`simulate`: its rules, ``Game``, kernel bots, and the steps that differ.

    A game subclasses it once (its ``simulation.HOOKS``) and implements the
    methods that raise :class:`NotImplementedError` here.
    """

    def __init__(
        self,
        rules_type: type[R],
        rules_name: str,
        default_rules: Callable[[], R],
        default_bot: Callable[..., Any],
        game_type: Any,
        kernel_bots: Mapping[type, int],
    ) -> None:
        self.rules_type = rules_type
        """The game's ``Rules`` class."""
        self.rules_name = rules_name
        """How error messages name it (``"ordonnance.shinobi.Rules"``)."""
        self.default_rules = default_rules
        """The rules of ``simulate(None, ...)``."""
        self.default_bot = default_bot
        """The bot of every seat when ``players`` is None: ``default_bot(seed=seat)``."""
        self.game_type = game_type
        """The game's ``Game`` class (its ``new(rules, seed=...)`` deals a game)."""
        self.kernel_bots = dict(kernel_bots)
        """The kernel's policy code of each bot class it plays (subclasses are not the same bot)."""

    def policy(self, bot: object) -> int | None:
        """The kernel's policy code for ``bot``, or None for a bot the kernel cannot play."""
        return self.kernel_bots.get(type(bot))

    def new_game(self, rules: R, seed: int) -> Any:
        """``Game.new(rules, seed=seed)`` of the game."""
        return self.game_type.new(rules, seed=seed)

    def outputs(self, rules: R, games: int, *, record: bool, in_kernel: bool) -> O:
        """The arrays to fill for ``games`` games (``record``: keep the actions)."""
        raise NotImplementedError

    def run_kernel(self, call: Call[R, O]) -> None:
        """Play the games of ``call`` in the kernel, seat ``p`` by policy ``call.policies[p]``,
        into ``call.out`` (with 64-bit arithmetic wrapping: :func:`ordonnance.core.seeds.wrapping`)."""
        raise NotImplementedError

    def read(self, game: Any, steps: Sequence[Step], out: O, g: int) -> None:
        """Row ``g`` of ``out``'s own arrays and rounds from ``game``, played with ``steps`` (the
        driver reads the winner, the scores and the decisions); the game may have been stopped
        before its end (a bot over a tournament's time limit)."""
        raise NotImplementedError

    def result(self, call: Call[R, O]) -> Res:
        """The result of the games of ``call``: :meth:`Call.shared` and the game's own fields."""
        raise NotImplementedError


def simulate(
    hooks: Hooks[R, O, Res],
    rules: R | None,
    *,
    games: int,
    seed: int,
    players: Sequence[Any] | None,
    record: bool,
) -> Res:
    """Play ``games`` whole games of the game of ``hooks`` (see the module documentation)."""
    rules = hooks.default_rules() if rules is None else rules
    if not isinstance(rules, hooks.rules_type):
        raise OrdonnanceTypeError(f"rules must be an {hooks.rules_name}, got {rules!r}")
    if isinstance(games, (bool, np.bool_)) or not isinstance(games, (int, np.integer)) or games < 0:
        raise InvalidRulesError(f"games must be a non-negative int, got {games!r}")
    if games > MAX_GAMES:
        raise InvalidRulesError(
            f"games must be at most {MAX_GAMES:,} per call (results are kept in memory), got {games!r}; "
            "simulate in chunks, or use tournament()"
        )
    try:
        seed = check_seed(seed)
    except OrdonnanceError as error:  # the error simulate has always raised for a seed
        raise InvalidRulesError(str(error)) from None
    if not isinstance(record, (bool, np.bool_)):
        raise OrdonnanceTypeError(f"record must be a bool, got {record!r}")
    record = bool(record)
    bots = check_players(players, getattr(rules, "players"), hooks.default_bot)
    seeds = game_seeds(seed, int(games))
    per_game = mixed_bot_seeds(seeds, [own_seed(bot) for bot in bots])
    policies = [hooks.policy(bot) for bot in bots]
    in_kernel = all(p is not None for p in policies)
    call = Call(
        rules, tuple(bots), seeds, np.ascontiguousarray(per_game),
        np.array([-1 if p is None else p for p in policies], np.int64),
        hooks.outputs(rules, int(games), record=record, in_kernel=in_kernel), record, in_kernel,
    )  # fmt: skip
    if in_kernel:
        hooks.run_kernel(call)
    else:
        play_in_python(hooks, rules, bots, seeds, per_game, call.out)
    return hooks.result(call)


def play_in_python(
    hooks: Hooks[R, O, Any],
    rules: R,
    bots: Sequence[Any],
    seeds: npt.NDArray[np.uint64],
    bot_seeds: npt.NDArray[np.uint64],
    out: O,
    *,
    first: int = 0,
    names: Sequence[str] | None = None,
    time_limit: float | None = None,
    untimed: Callable[[object], bool] = lambda bot: False,
) -> list[int | None]:
    """Play the games of ``seeds`` through the game's ``Game``, each seat's bot a fresh copy seeded
    from ``bot_seeds`` (bots of the user's own, as they are), and read each into ``out``: its
    winner (-1: nobody alone), scores and decisions here, the rest by ``hooks.read``.

    Returns, per game, the seat that took longer than ``time_limit`` over a decision
    (the game stops there) or None. Errors name the game as number ``first + g``;
    ``names`` and ``untimed`` are :func:`~ordonnance.core.play.play_to_the_end`'s.
    """
    late: list[int | None] = []
    for g, deal_seed in enumerate(seeds.tolist()):
        game = hooks.new_game(rules, deal_seed)
        steps: list[Step] = []
        late.append(
            play_to_the_end(
                game, seeded_copies(bots, bot_seeds[g].tolist()), index=first + g, deal_seed=deal_seed, names=names,
                time_limit=time_limit, untimed=untimed, on_action=_appender(steps),
            )  # fmt: skip
        )
        out.winner[g] = -1 if game.winner is None else game.winner
        out.scores[g] = game.scores
        out.decisions[g] = len(steps)
        hooks.read(game, steps, out, g)
    return late


def _appender(steps: list[Step]) -> Callable[[int, Any], None]:
    """``on_action`` for :func:`~ordonnance.core.play.play_to_the_end`: each (seat, action) into ``steps``."""

    def append(seat: int, action: Any) -> None:
        steps.append((seat, action))

    return append


def hooks_for(rules: object) -> Hooks[Any, Any, Any]:
    """The :class:`Hooks` of the game whose ``Rules`` ``rules`` is (its package's ``simulation.HOOKS``)."""
    package = registry.info(registry.name_of(rules)).package
    hooks: Hooks[Any, Any, Any] = importlib.import_module(package + ".simulation").HOOKS
    return hooks
