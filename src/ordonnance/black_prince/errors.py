"""The one error class Black Prince adds to :mod:`ordonnance.errors`."""

from __future__ import annotations

from ordonnance.errors import OrdonnanceError

__all__ = ["InvalidSquareError"]


class InvalidSquareError(OrdonnanceError, ValueError):
    """A row, column or move step is off the battlefield (rows 0..3, columns 0..5, steps -1/+1)."""
