"""Everything that can cross a process boundary pickles and unpickles equal.

Every exception of :mod:`ordonnance.errors` (iterating ``__all__``, so a new
one cannot be forgotten) comes back with the same type, message, arguments
and attributes; values come back equal, and cards as the shared instances.
"""

from __future__ import annotations

import copy
import inspect
import pickle
from typing import Any

import pytest

import ordonnance as od
from ordonnance import errors
from ordonnance.conformance import ConformanceError

# Arguments to build each exception with, when its constructor needs more than a message.
ARGUMENTS: dict[str, tuple[Any, ...]] = {
    "IllegalActionError": (od.Play("SH", od.Territory.CYPRUS), "SH is not in player 0's hand"),
    "BotError": ("MyBot", 1, 17, 2**64 - 1, "it chose Pass(), which is not legal"),
}


def _build(name: str) -> BaseException:
    cls = getattr(errors, name)
    return cls(*ARGUMENTS.get(name, (f"a {name} with a value: {[1, 'x']!r}",)))  # type: ignore[no-any-return]


def _same(a: BaseException, b: BaseException) -> None:
    assert type(a) is type(b)
    assert str(a) == str(b) and a.args == b.args
    assert vars(a) == vars(b)


@pytest.mark.parametrize("name", errors.__all__)
def test_every_error_pickles_and_unpickles_equal(name: str) -> None:
    error = _build(name)
    assert isinstance(error, od.OrdonnanceError)
    assert name == "OrdonnanceError" or isinstance(error, (ValueError, TypeError))  # the base is abstract
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        _same(pickle.loads(pickle.dumps(error, protocol=protocol)), error)
    _same(copy.copy(error), error)
    _same(copy.deepcopy(error), error)


def test_every_error_class_is_listed() -> None:
    classes = {n for n, v in inspect.getmembers(errors, inspect.isclass) if issubclass(v, od.OrdonnanceError)}
    assert classes == set(errors.__all__)


def test_the_issue_case_and_attributes_survive() -> None:
    error = pickle.loads(pickle.dumps(od.IllegalActionError(od.Pass(), "why")))
    assert (error.action, error.reason, str(error)) == (od.Pass(), "why", "illegal action Pass(): why")
    bot = pickle.loads(pickle.dumps(_build("BotError")))
    assert (bot.name, bot.seat, bot.game, bot.deal_seed) == ("MyBot", 1, 17, 2**64 - 1)
    assert "bot 'MyBot' (seat 1) failed in game 17" in str(bot)


def test_a_raised_error_pickles_with_its_traceback_dropped() -> None:
    game = od.Game.new(od.Rules(), seed=1)
    with pytest.raises(od.IllegalActionError) as info:
        game.apply(od.Play("LBSHF", 0) if od.Card.parse("LBSHF") not in game.hand(0) else od.Pass())
    _same(pickle.loads(pickle.dumps(info.value)), info.value)


def test_the_conformance_error_pickles() -> None:
    error = ConformanceError("invariant broken: 3 != 4")
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


def test_values_pickle_equal_and_cards_are_the_shared_instances() -> None:
    card = od.Card.parse("SH")
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    game = od.Game.new(od.Rules(players=3), seed=4)
    game.apply(game.legal_actions()[0])
    for value in (od.Play("SH", 1), od.Claim(2), od.Pass(), od.Rules(players=4, scoring="points"), game, game.view(1)):
        assert pickle.loads(pickle.dumps(value)) == value
    again = pickle.loads(pickle.dumps(game))
    again.apply(again.legal_actions()[0])  # a working game, not a broken copy


# --------------------------------------------------------------------- tournaments


class _LastLegal:
    """A Python bot (not played in the kernel) that plays the last legal action,
    through a lambda when ``unpicklable`` (which makes it impossible to pickle)."""

    def __init__(self, unpicklable: bool) -> None:
        self.pick = (lambda actions: actions[-1]) if unpicklable else None

    def choose(self, view: od.PlayerView) -> od.Action:
        actions = view.legal_actions
        return self.pick(actions) if self.pick is not None else actions[-1]  # type: ignore[no-any-return]


def _lineup(unpicklable: bool) -> dict[str, object]:
    return {"last": _LastLegal(unpicklable), "greedy": od.bots.Greedy(seed=1)}


@pytest.mark.parametrize(("executor", "workers"), [("serial", None), (None, 1), ("process", 1)])
def test_a_tournament_in_this_process_plays_a_bot_that_cannot_be_pickled(executor: Any, workers: int | None) -> None:
    with pytest.raises((AttributeError, TypeError, pickle.PicklingError)):
        pickle.dumps(_LastLegal(unpicklable=True))
    played = od.tournament(_lineup(unpicklable=True), games=8, seed=5, executor=executor, workers=workers, chunk_size=2)  # type: ignore[arg-type]
    # the same games as the picklable twin's (whose every chunk plays a fresh copy)
    assert played == od.tournament(_lineup(unpicklable=False), games=8, seed=5, executor="serial", chunk_size=2)  # type: ignore[arg-type]
    assert played.games == 8 and sum(played.wins) + played.draws == 8


def test_a_tournament_on_other_processes_refuses_a_bot_that_cannot_be_pickled() -> None:
    import concurrent.futures as cf

    with pytest.raises(od.OrdonnanceTypeError, match="'last' cannot be pickled, so it cannot be sent to a worker"):
        od.tournament(_lineup(unpicklable=True), games=8, executor="process", workers=2, chunk_size=2)  # type: ignore[arg-type]
    with cf.ThreadPoolExecutor(1) as executor:  # a caller's executor: the bots may go anywhere
        with pytest.raises(od.OrdonnanceTypeError, match="'last' cannot be pickled"):
            od.tournament(_lineup(unpicklable=True), games=8, executor=executor)  # type: ignore[arg-type]
