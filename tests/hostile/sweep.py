"""The argument sweep: each public call of a table, with each of its arguments in turn replaced
by every bad value of :data:`~tests.hostile.values.BAD_VALUES` (the other arguments valid)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from .values import BAD_VALUES, failures

#: ``(name, function, valid positional arguments, valid keyword arguments)``; a function given as
#: a factory of a fresh object's bound method is called as ``function()(*args, **kwargs)``.
Call = tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]


def holds_numpy(value: Any, depth: int = 0) -> str | None:
    """Where a returned record stores a NumPy scalar (a value the policy says is stored plain)."""
    if isinstance(value, np.generic):
        return repr(value)
    if depth < 3 and attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            found = holds_numpy(getattr(value, field.name), depth + 1)
            if found is not None:
                return f"{field.name}={found}"
    if depth < 3 and isinstance(value, tuple):
        for item in value[:8]:
            found = holds_numpy(item, depth + 1)
            if found is not None:
                return found
    return None


def sweep(calls: list[Call], skip: Callable[[str, str, str], bool] = lambda *_: False) -> tuple[int, list[str]]:
    """``(calls made, failures)``: every argument of every call with every bad value.

    ``skip(call name, argument, bad value name)`` leaves a case out (a value that is valid
    for that argument)."""
    cases: dict[str, Callable[[], Any]] = {}
    for name, function, args, kwargs in calls:
        places: list[tuple[str, int | str]] = [(f"arg {i}", i) for i in range(len(args))]
        places += [(key, key) for key in kwargs]
        for label, place in places:
            for value_name, make in BAD_VALUES.items():
                if skip(name, label, value_name):
                    continue

                def case(function: Any = function, args: Any = args, kwargs: Any = kwargs, place: Any = place,
                         make: Any = make) -> Any:  # fmt: skip
                    given, named = list(args), dict(kwargs)
                    if isinstance(place, int):
                        given[place] = make()
                    else:
                        named[place] = make()
                    return function(*given, **named)

                cases[f"{name}({label}={value_name})"] = case
    return len(cases), failures(cases, lambda _name, result: holds_numpy(result))
