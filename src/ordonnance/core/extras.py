"""Optional extras: a clear ImportError, naming the extra to install, when one is missing."""

from __future__ import annotations

from ordonnance.core.checks import shown

__all__ = ["Unavailable", "require_extra"]


def require_extra(extra: str, error: ImportError | None, what: str, packages: str = "") -> None:
    """Raise an ImportError telling how to install ``extra`` if importing it failed
    (``error`` is that failure, or None when it did not); ``what`` is the feature that needs it, ``packages``
    the packages to name when the error does not say which one was missing."""
    if error is not None:
        raise ImportError(
            f"{what} need the optional extra {shown(extra)} "
            f"({error.name or packages or extra} is not installed): pip install 'ordonnance[{extra}]'"
        ) from error


class Unavailable:
    """Stands in for an optional extra's base class (Gymnasium's ``Env``, PettingZoo's
    ``AECEnv``) when the extra is not installed, so the modules still import; building an
    environment then asks for the extra (:func:`require_extra`)."""

    def __class_getitem__(cls, item: object) -> type[Unavailable]:
        return cls
