"""Text for terminals: lines fitted to a width, 80 columns unless told otherwise.

Every game's text board and the command line's lists of moves go through
:func:`fit`: a line longer than the width breaks at its widest gap (two spaces,
then ``"; "``, then ``", "``, then one space) and goes on, indented.

>>> from ordonnance.core.terminal import fit
>>> print(fit("deck 12; discard: Oda 3, Mori 2, Takeda 1; * changed this turn", 32, indent=2))
deck 12; discard: Oda 3, Mori 2,
  Takeda 1; * changed this turn
>>> fit("short", None) == fit("short", 80) == "short"
True
"""

from __future__ import annotations

from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError
from ordonnance.core import checks
from ordonnance.core.checks import shown

__all__ = ["WIDTH", "MIN_WIDTH", "check_width", "fit", "fit_lines"]

#: The width a board fits by default: an 80-column terminal.
WIDTH = 80
#: The narrowest width a board accepts (below 80, grids of fixed cells may still overflow).
MIN_WIDTH = 40
#: Where a long line may break, widest gap first.
_GAPS = ("  ", "; ", ", ", " ")


def check_width(width: object) -> int | None:
    """``width`` if it is None (no limit) or an int of at least :data:`MIN_WIDTH`; else the library's error."""
    if width is None:
        return None
    if not checks.is_integer(width):
        raise OrdonnanceTypeError(f"width must be an int or None, got {shown(width)}")
    if width < MIN_WIDTH:
        raise InvalidArgumentError(f"width must be at least {MIN_WIDTH} columns (or None for no limit), got {shown(width)}")
    return int(width)


def _cut(text: str, width: int, floor: int) -> int:
    """Where to break ``text`` so that its head fits ``width``: after the widest gap that
    leaves at least half a line (any space past ``floor`` when only single spaces are left)."""
    for gap in _GAPS:
        kept = len(gap.rstrip())  # "; " keeps its ";" on the line it ends
        at = text.rfind(gap, 0, width - kept + len(gap))
        least = floor if gap == " " else max(floor, width // 2)
        if at > least:
            return at + len(gap)
    return width  # one unbroken word: cut it


def fit(line: str, width: int | None, indent: int = 2) -> str:
    """``line`` broken into lines of at most ``width`` characters (None: as it is), the
    continuation lines indented by ``indent`` spaces (at most half the width)."""
    if width is None or len(line) <= width:
        return line
    pad = " " * min(max(indent, 0), width // 2)
    lines: list[str] = []
    rest = line
    while len(rest) > width:
        cut = _cut(rest, width, len(pad) if lines else 0)
        lines.append(rest[:cut].rstrip())
        rest = pad + rest[cut:].lstrip()
    lines.append(rest)
    return "\n".join(lines)


def fit_lines(text: str, width: int | None, indent: int = 2) -> str:
    """Every line of ``text`` through :func:`fit`."""
    if width is None:
        return text
    return "\n".join(fit(line, width, indent) for line in text.split("\n"))
