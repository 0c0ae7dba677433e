"""The argument sweep every game's hostile tests share: a :class:`Target` is a public callable with
valid arguments; each argument in turn is given every bad value of
:data:`~tests.hostile.values.BAD_VALUES` (the others valid). A call must raise the library's
error, or return only where the target lists that bad value as acceptable (``ok``), and then
store nothing but plain Python values (no NumPy scalar where the policy says plain)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest

from ordonnance.errors import shown

from .values import BAD_VALUES, failures

#: ``ok`` sets that many targets share.
NONE = {"None"}
BOOLS = {"True", "np.bool_"}
HUGE = {"2**64", "10**5000"}
#: Where a run's games play, valid (``executor=``, ``workers=`` of tournaments and the lab's studies), and
#: the bad values they may take: None is an executor (a local process pool) and a number of workers (one per CPU).
EXECUTOR = {"executor": "serial", "workers": None}
EXECUTOR_OK = {"executor": NONE, "workers": NONE}


@attrs.frozen
class Target:
    """A public callable, its valid arguments, and the bad values that may be accepted at each position."""

    name: str
    call: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = attrs.Factory(dict)
    ok: dict[str | int, set[str]] = attrs.Factory(dict)  # position -> BAD_VALUES names that may return
    needs: str | None = None  # a module of an optional extra: the target is skipped without it


#: Attributes of environments that hold spaces and generators, not the user's values.
_NOT_VALUES = ("observation_spaces", "action_spaces", "np_random")


def plain(value: object, seen: set[int] | None = None) -> str | None:
    """Where ``value`` holds something other than plain Python values (a NumPy scalar, say), else None.

    A game is judged by its save (its own arrays are the engine's, not the user's values)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return None
    seen.add(id(value))
    if isinstance(value, np.generic):
        return f"holds {type(value).__name__} {shown(value)}"
    if isinstance(value, np.ndarray):  # an array is a container by design (seeds, results, scratch)
        return None
    if callable(getattr(value, "legal_actions", None)) and callable(getattr(value, "to_json", None)):
        return plain(value.to_json(), seen)  # type: ignore[attr-defined]
    if attrs.has(type(value)):
        parts: Any = attrs.astuple(value, recurse=False)  # type: ignore[arg-type]
    elif isinstance(value, (tuple, list, frozenset)):
        parts = value
    elif isinstance(value, dict):
        parts = list(value.items())
    elif hasattr(value, "__dict__") and type(value).__module__.startswith("ordonnance"):
        parts = [v for k, v in vars(value).items() if not k.startswith("_") and k not in _NOT_VALUES]  # what users read
    else:
        return None
    return next((why for why in (plain(part, seen) for part in parts) if why), None)


def cases(target: Target) -> tuple[dict[str, Callable[[], Any]], dict[str, set[str]]]:
    """Every call of ``target`` with one argument replaced by a bad value, and which may return."""
    made: dict[str, Callable[[], Any]] = {}
    allowed: dict[str, set[str]] = {}
    positions: list[str | int] = [*range(len(target.args)), *target.kwargs]
    for position, (bad, make) in itertools.product(positions, BAD_VALUES.items()):

        def call(position: str | int = position, make: Callable[[], object] = make) -> Any:
            args, kwargs = list(target.args), dict(target.kwargs)
            if isinstance(position, int):
                args[position] = make()
            else:
                kwargs[position] = make()
            return target.call(*args, **kwargs)

        name = f"{target.name}[{position}]={bad}"
        made[name] = call
        allowed[name] = target.ok.get(position, set())
    return made, allowed


def accept(allowed: dict[str, set[str]]) -> Callable[[str, Any], str | None]:
    """The judge of a call that returned: only a bad value its target lists, storing plain values."""

    def judge(name: str, result: Any) -> str | None:
        bad = name.rsplit("=", 1)[1]
        if bad not in allowed[name]:
            return f"returned {shown(result):.100}"
        return plain(result)

    return judge


def sweep(target: Target) -> list[str]:
    """The calls of ``target`` answered badly (see the module's docstring)."""
    if target.needs is not None:
        pytest.importorskip(target.needs)
    made, allowed = cases(target)
    return failures(made, accept(allowed))
