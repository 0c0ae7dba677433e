"""Numba's disk cache, made aware of the modules a kernel inlines.

``@numba.njit(cache=True)`` keeps each compiled function in ``__pycache__``
and reuses it while the function's *own* source file is unchanged. Our
kernels call (and numba inlines) functions of other modules: the simulator
those of the evaluator and the completion search, the batched games and the
bots those of the simulator. After an edit of one module, every function
compiled from another module with the old code inlined would be loaded from
the cache unchanged: wrong results, or a crash when a record's layout
changed.

:func:`install` puts a cache locator ahead of numba's own for the files
under a directory (this package): it works like numba's but stamps each
cache entry with a hash of the function's module and of every module of the
package that it imports, directly or through others, and that compiles with
numba; editing any of them recompiles the functions that may have inlined
its code on their next use, and only those. The stamp holds contents, never
times: a reinstall of the same version writes the same files anew, and its
kernels still load from the cache (numba before 0.68 stamped with the file's
modification time, which a reinstall changes). It relies on numba's
``numba.core.caching`` classes; on a numba whose internals differ it leaves
numba's caching as it is.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from typing import Any

__all__ = ["install", "kernel_stamp"]

_HERE = os.path.realpath(__file__)

_COMPILED = re.compile(rb"@(?:numba\.|nb\.)?(?:n?jit|vectorize|guvectorize)\b|numba\.n?jit[ \t]*\(")
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(?P<source>\.+[\w.]*|[A-Za-z_][\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^#\n]*)"
    rb"|import[ \t]+(?P<modules>[^#\n]*))",
    re.MULTILINE,
)


def _is_kernel(path: str, text: bytes) -> bool:
    return path != _HERE and b"jit" in text and _COMPILED.search(text) is not None


def _names(text: bytes) -> list[str]:
    """The first word of each comma-separated part (``a as b, c`` gives a, c)."""
    return [part.split()[0] for part in text.decode().strip("() \n").split(",") if part.strip()]


def _imports(path: str, root: str, text: bytes, files: frozenset[str]) -> set[str]:
    """The modules among ``files`` (the package at ``root``) that ``path`` imports; a name
    imported from a package counts as its module if there is one."""
    package = os.path.basename(root)
    parts = os.path.relpath(path, root)[: -len(".py")].split(os.sep)
    here = [package, *parts]  # a package's __init__ is one level deeper, as a relative import expects
    found: set[str] = set()
    for match in _IMPORT.finditer(text):
        if match["modules"] is not None:
            sources, names = _names(match["modules"]), []
        else:
            source = match["source"].decode()
            dots = len(source) - len(source.lstrip("."))
            if dots:
                source = ".".join(here[:-dots] + ([source[dots:]] if source[dots:] else []))
            sources, names = [source], _names(match["names"])
        for source in sources:
            for dotted in (source, *(f"{source}.{name}" for name in names)):
                head, *rest = dotted.split(".")
                if head != package or not rest:
                    continue
                base = os.path.join(root, *rest)
                for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                    if candidate in files:
                        found.add(candidate)
    return found


@functools.lru_cache(maxsize=None)
def _kernels(root: str) -> dict[str, tuple[bytes, frozenset[str]]]:
    """Every module of the package at ``root`` (a resolved path) that compiles with numba:
    the hash of its contents and the modules of the same kind it imports."""
    texts: dict[str, bytes] = {}
    files: set[str] = set()
    for directory, subdirectories, names in os.walk(root):
        subdirectories[:] = [d for d in subdirectories if d != "__pycache__"]
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                files.add(path)
                try:
                    with open(path, "rb") as file:
                        text = file.read()
                except OSError:
                    continue
                if _is_kernel(path, text):
                    texts[path] = text
    every = frozenset(files)
    return {
        path: (hashlib.sha256(text).digest(), frozenset(_imports(path, root, text, every) & texts.keys()))
        for path, text in texts.items()
    }


@functools.lru_cache(maxsize=None)
def _contents_hash(path: str) -> bytes:
    """The SHA-256 digest of the file at ``path`` as this process first reads it (numba's own
    stamp since 0.68, so that its caches stay valid)."""
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).digest()


@functools.lru_cache(maxsize=None)
def kernel_stamp(path: str, root: str) -> str:
    """A hash of the module at ``path`` and of every module of the package at ``root`` that
    compiles with numba and that it imports, directly or through such modules (paths and contents)."""
    top = os.path.realpath(root)
    kernels = _kernels(top)
    seen: set[str] = set()
    todo = [os.path.realpath(path)]
    while todo:
        module = todo.pop()
        if module in seen or module not in kernels:
            continue
        seen.add(module)
        todo.extend(kernels[module][1])
    digest = hashlib.sha256()
    for module in sorted(seen):
        digest.update(os.fsencode(os.path.relpath(module, top)) + b"\0" + kernels[module][0])
    return digest.hexdigest()


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([os.path.realpath(path), root]) == root
    except ValueError:  # different drives
        return False


def install(root: str | os.PathLike[str]) -> bool:
    """Stamp numba's cache entries of functions under ``root`` with :func:`kernel_stamp`.

    Call it before the first ``@njit(cache=True)`` under ``root`` is decorated.
    Returns whether it is in place (False when numba's internals are not the
    expected ones). Calling it again for the same root does nothing more.
    """
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover - numba is a run-time dependency
        return False
    directory = os.path.realpath(os.fspath(root))
    implementation: Any = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    locators = getattr(implementation, "_locator_classes", None)
    if not isinstance(locators, list):
        return False
    if any(getattr(cls, "_ordonnance_root", None) == directory for cls in locators):
        return True
    added = False
    for name in ("UserProvidedCacheLocator", "_UserProvidedCacheLocator", "InTreeCacheLocator", "_InTreeCacheLocator"):
        base = getattr(caching, name, None)
        if not isinstance(base, type) or base not in locators or not hasattr(base, "get_source_stamp"):
            continue
        locators.insert(locators.index(base), _stamped(base, directory))
        added = True
    return added


def _stamped(base: type, directory: str) -> type:
    """A subclass of numba's locator ``base`` for files under ``directory``, whose stamp
    is the contents of the function's module and of the kernel modules it imports."""

    class Locator(base):  # type: ignore[misc]
        _ordonnance_root = directory

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _inside(py_file, directory):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self) -> Any:
            return (_contents_hash(self._py_file), kernel_stamp(self._py_file, directory))

    Locator.__name__ = Locator.__qualname__ = f"Kernel{base.__name__.lstrip('_')}"
    return Locator
