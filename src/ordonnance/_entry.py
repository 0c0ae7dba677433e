"""A numba kernel's machine code called without numba's dispatcher: :mod:`ordonnance.core.entry`,
where every game's modules reach it (kept here for Ordonnance's modules that import it by this name)."""

from __future__ import annotations

from ordonnance.core.entry import compiled_entry, int_entry

__all__ = ["compiled_entry", "int_entry"]
