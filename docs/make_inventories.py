"""Write the small intersphinx inventories the docs link through, so the build works offline.

The docs link to Python's and NumPy's documentation for the names our API
uses. Intersphinx normally downloads each project's ``objects.inv`` at build
time; CI has no network, so this script writes a local inventory with just
the entries we need, each pointing at the real online page. Run it again
after adding a name: ``python docs/make_inventories.py``.
"""

from __future__ import annotations

import zlib
from pathlib import Path

HERE = Path(__file__).parent / "_inventories"

PYTHON = {
    "py:class": {
        name: f"library/{page}.html#{anchor}"
        for name, page, anchor in [
            ("int", "functions", "int"),
            ("str", "stdtypes", "str"),
            ("bytes", "stdtypes", "bytes"),
            ("bool", "functions", "bool"),
            ("float", "functions", "float"),
            ("tuple", "stdtypes", "tuple"),
            ("list", "stdtypes", "list"),
            ("dict", "stdtypes", "dict"),
            ("object", "functions", "object"),
            ("collections.Counter", "collections", "collections.Counter"),
            ("collections.abc.Iterable", "collections.abc", "collections.abc.Iterable"),
            ("collections.abc.Sequence", "collections.abc", "collections.abc.Sequence"),
            ("collections.abc.Mapping", "collections.abc", "collections.abc.Mapping"),
            ("concurrent.futures.Executor", "concurrent.futures", "concurrent.futures.Executor"),
            ("concurrent.futures.ProcessPoolExecutor", "concurrent.futures", "concurrent.futures.ProcessPoolExecutor"),
            ("enum.IntEnum", "enum", "enum.IntEnum"),
            ("typing.Protocol", "typing", "typing.Protocol"),
        ]
    },
    "py:exception": {
        name: f"library/exceptions.html#{name}"
        for name in ["ValueError", "TypeError", "Exception", "AssertionError"]
    },
}
NUMPY = {
    "py:class": {
        "numpy.ndarray": "reference/generated/numpy.ndarray.html#numpy.ndarray",
        "numpy.uint8": "reference/arrays.scalars.html#numpy.uint8",
        "numpy.uint32": "reference/arrays.scalars.html#numpy.uint32",
        "numpy.int64": "reference/arrays.scalars.html#numpy.int64",
        "numpy.integer": "reference/arrays.scalars.html#numpy.integer",
    },
    "py:module": {"numpy": "reference/index.html#module-numpy"},
}


def write(path: Path, project: str, version: str, entries: dict[str, dict[str, str]]) -> None:
    lines = [
        f"{name} {role} 1 {uri} -"
        for role, names in sorted(entries.items())
        for name, uri in sorted(names.items())
    ]
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        f"# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    path.write_bytes(header.encode() + zlib.compress(("\n".join(lines) + "\n").encode()))


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    write(HERE / "python.inv", "Python", "3", PYTHON)
    write(HERE / "numpy.inv", "NumPy", "2", NUMPY)
