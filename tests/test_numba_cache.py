"""The kernels' disk cache notices edits of the modules a kernel inlines."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import ordonnance
from ordonnance import _numba_cache

LEAF = """
import numba

@numba.njit(cache=True)
def leaf():
    return {value}
"""

USER = """
import numba
from kernels.leaf import leaf

@numba.njit(cache=True)
def user():
    return leaf() + 1
"""

RUN = """
import sys
sys.path.insert(0, {root!r})
if {install}:
    from ordonnance import _numba_cache
    assert _numba_cache.install({package!r})
from kernels.user import user
print(user())
"""


def _run(root: Path, install: bool) -> int:
    code = RUN.format(root=str(root), install=install, package=str(root / "kernels"))
    env = {name: value for name, value in os.environ.items() if name != "NUMBA_CACHE_DIR"}
    env["NUMBA_DISABLE_JIT"] = "0"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def _package(root: Path, value: int) -> None:
    package = root / "kernels"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "user.py").write_text(textwrap.dedent(USER))
    (package / "leaf.py").write_text(textwrap.dedent(LEAF.format(value=value)))


def _edit_leaf(root: Path, value: int) -> None:
    leaf = root / "kernels" / "leaf.py"
    leaf.write_text(textwrap.dedent(LEAF.format(value=value)) + "\n# edited\n")


def test_editing_an_inlined_module_recompiles_the_functions_that_call_it(tmp_path: Path) -> None:
    plain, stamped = tmp_path / "plain", tmp_path / "stamped"
    for root in (plain, stamped):
        root.mkdir()
        _package(root, 10)
    assert _run(plain, install=False) == 11 and _run(stamped, install=True) == 11
    for root in (plain, stamped):
        _edit_leaf(root, 20)
    assert _run(stamped, install=True) == 21
    if _run(plain, install=False) == 21:
        pytest.skip("this numba recompiles callers of an edited module by itself")


COUNT = """
import os
import sys
sys.path.insert(0, {root!r})
from numba.core import caching, event
if {by_time}:  # numba before 0.68 stamped a source file with its modification time and size
    def by_time(self):
        stat = os.stat(self._py_file)
        return stat.st_mtime, stat.st_size
    caching._SourceFileBackedLocatorMixin.get_source_stamp = by_time
compiled = []
class Listener(event.Listener):
    def on_start(self, e):
        compiled.append(e.data["dispatcher"].py_func.__name__)
    def on_end(self, e):
        pass
event.register("numba:compile", Listener())
from ordonnance import _numba_cache
assert _numba_cache.install({package!r})
from kernels.user import user
print(user(), " ".join(sorted(compiled)))
"""


def _compiled(root: Path, by_time: bool) -> tuple[int, list[str]]:
    """user()'s value in a fresh process, and the functions it compiled (not loaded from the cache)."""
    code = COUNT.format(root=str(root), package=str(root / "kernels"), by_time=by_time)
    env = {name: value for name, value in os.environ.items() if name != "NUMBA_CACHE_DIR"}
    env["NUMBA_DISABLE_JIT"] = "0"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    value, *compiled = done.stdout.split()
    return int(value), compiled


@pytest.mark.parametrize("by_time", [False, True], ids=["numba's stamp", "numba's stamp before 0.68"])
def test_the_same_files_written_again_later_still_load_from_the_cache(tmp_path: Path, by_time: bool) -> None:
    _package(tmp_path, 10)
    assert _compiled(tmp_path, by_time) == (11, ["leaf", "user"])
    assert _compiled(tmp_path, by_time) == (11, [])
    later = time.time() + 3600
    for module in (tmp_path / "kernels").glob("*.py"):  # as a reinstall of the same version does
        module.write_bytes(module.read_bytes())
        os.utime(module, (later, later))
    assert _compiled(tmp_path, by_time) == (11, [])
    _edit_leaf(tmp_path, 20)
    assert _compiled(tmp_path, by_time) == (21, ["leaf", "user"])


def _stamp(package: Path, module: str) -> str:
    _numba_cache._kernels.cache_clear()  # the files change within this process
    return _numba_cache.kernel_stamp.__wrapped__(str(package / module), os.path.realpath(package))


def test_the_stamp_covers_the_kernel_modules_a_module_imports_and_no_other(tmp_path: Path) -> None:
    _package(tmp_path, 1)
    package = tmp_path / "kernels"
    (package / "sub").mkdir()
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "deep.py").write_text("from .. import leaf\nfrom ..plain import x\nimport numba\ng = numba.njit(lambda: 1)\n")
    (package / "sub" / "other.py").write_text("from kernels.sub import (\n    deep,\n)\n\n@numba.njit\ndef h():\n    return 0\n")
    (package / "plain.py").write_text("x = 1\n")
    (package / "lonely.py").write_text("import numba\n\n@numba.njit\ndef f():\n    return 1\n")
    user, deep, other = _stamp(package, "user.py"), _stamp(package, "sub/deep.py"), _stamp(package, "sub/other.py")
    (package / "plain.py").write_text("x = 2\n")  # no kernel: not stamped
    (package / "lonely.py").write_text("import numba\n\n@numba.njit\ndef f():\n    return 2\n")  # imported by none
    assert (_stamp(package, "user.py"), _stamp(package, "sub/deep.py"), _stamp(package, "sub/other.py")) == (user, deep, other)
    _edit_leaf(tmp_path, 2)  # imported by user (absolute), deep (relative) and other (through deep)
    assert _stamp(package, "user.py") != user
    assert _stamp(package, "sub/deep.py") != deep
    assert _stamp(package, "sub/other.py") != other


def test_the_stamps_of_the_library_cover_what_its_kernels_inline() -> None:
    root = os.path.realpath(os.path.dirname(ordonnance.__file__))
    kernels = _numba_cache._kernels(root)

    def at(name: str) -> str:
        return os.path.join(root, name)

    assert at("_numba_cache.py") not in kernels and at("game.py") not in kernels
    assert at("_completion_kernel.py") in kernels[at("_simulator_kernel.py")][1]
    assert at("_army_kernel.py") in kernels[at("_completion_kernel.py")][1]  # so the simulator's stamp covers it too
    assert at("_simulator_kernel.py") in kernels[at("_batch_kernel.py")][1]
    # Every game's kernel inlines the shared numba helpers, and no other game's kernel.
    shared = at(os.path.join("core", "jit.py"))
    assert shared in kernels[at("_simulator_kernel.py")][1]
    for game in ("shinobi", "black_prince"):
        assert kernels[at(os.path.join(game, "_kernel.py"))][1] == {shared}
    army = _numba_cache.kernel_stamp(at("_army_kernel.py"), root)
    assert _numba_cache.kernel_stamp(at("_simulator_kernel.py"), root) != army


def test_the_package_installs_it_once() -> None:
    from numba.core import caching

    root = os.path.dirname(ordonnance.__file__)
    assert _numba_cache.install(root)
    assert _numba_cache.install(root)
    ours = [cls for cls in caching.CacheImpl._locator_classes if getattr(cls, "_ordonnance_root", None) == root]
    assert 1 <= len(ours) <= 2
