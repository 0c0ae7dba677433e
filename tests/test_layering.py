"""The package's layers hold: the shared layer names no game, no game imports another game's
modules, and nothing outside a game's ``game.py`` builds its Game or writes its private fields.

These read the source (every import statement, at module level or inside a function), so a
lazy import cannot slip past them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import ordonnance

PACKAGE = Path(ordonnance.__file__).parent
#: Each game's own modules, by the game's name; Ordonnance's are the package's top level.
GAME_DIRS = {"shinobi": PACKAGE / "shinobi", "black_prince": PACKAGE / "black_prince"}
#: Modules every game may use: the shared layer and the library's error family.
SHARED = ("ordonnance.core", "ordonnance.errors")
#: Layers above the games, which may use every game's modules (the designer's lab reads each game's own figures).
ABOVE = ("lab",)


def _game_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE).parts
    if relative[0] in GAME_DIRS:
        return relative[0]
    if relative[0] == "core":
        return "core"
    if relative[0] in ABOVE:
        return relative[0]
    return "ordonnance"


def _module_of(path: Path) -> str:
    parts = ("ordonnance", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every import in ``path``, relative imports resolved; ``from m import x``
    counts as ``m.x`` (a submodule or a name of ``m``: either way it reaches into ``m``)."""
    package = _module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def _owner(module: str) -> str | None:
    """The game (or "core") a module of the package belongs to; None outside the package."""
    parts = module.split(".")
    if parts[0] != "ordonnance":
        return None
    if len(parts) == 1:
        return "ordonnance"
    if parts[1] in GAME_DIRS:
        return parts[1]
    if parts[1] == "core":
        return "core"
    if parts[1] == "errors":
        return "errors"
    return "ordonnance"


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_imports_only_its_own_game_and_the_shared_layer(path: Path) -> None:
    here = _game_of(path)
    allowed = {here, "core", "errors"}
    if here == "core":
        allowed = {"core", "errors"}
    if here in ABOVE:
        allowed |= {"ordonnance", *GAME_DIRS}
    wrong = [
        f"line {line}: {module}"
        for line, module in _imports(path)
        if (owner := _owner(module)) is not None and owner not in allowed
        # the package root itself: ``import ordonnance`` (Ordonnance's face) is Ordonnance's
    ]
    if here == "ordonnance" and path.name in ("games.py",):
        wrong = []  # the registry's face names the games' packages by string only; it imports none
    assert not wrong, f"{path.relative_to(PACKAGE)} ({here}) imports another game's modules: {wrong}"


def _game_private_fields(game_py: Path) -> set[str]:
    """The private attributes a game's Game class assigns on ``self``."""
    tree = ast.parse(game_py.read_text(encoding="utf-8"))
    fields: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Game":
            for inner in ast.walk(node):
                for target in _targets(inner):
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id in ("self", "game", "new", "copy", "clone")
                        and target.attr.startswith("_")
                        and not target.attr.startswith("__")
                    ):
                        fields.add(target.attr)
    return fields


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found: list[ast.expr] = []
        for target in node.targets:
            found.extend(target.elts if isinstance(target, ast.Tuple) else [target])
        return found
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    return []


GAME_FILES = {"ordonnance": PACKAGE / "game.py"} | {name: d / "game.py" for name, d in GAME_DIRS.items()}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_game_py_builds_a_game_or_writes_its_private_fields(path: Path) -> None:
    game = _game_of(path)
    if game == "core" or path == GAME_FILES.get(game):
        return
    fields = set().union(*(_game_private_fields(GAME_FILES[g]) for g in (GAME_FILES if game in ABOVE else [game])))
    source = path.read_text(encoding="utf-8")
    wrong = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__new__"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "Game"
        ):
            wrong.append(f"line {node.lineno}: Game.__new__")
        for target in _targets(node):
            while isinstance(target, ast.Subscript):  # game._hands[p] = ... writes the field too
                target = target.value  # type: ignore[assignment]
            if (
                isinstance(target, ast.Attribute)
                and target.attr in fields
                and not (isinstance(target.value, ast.Name) and target.value.id == "self")
            ):
                wrong.append(f"line {target.lineno}: .{target.attr} = ...")
    assert not wrong, f"{path.relative_to(PACKAGE)} writes a {game} Game's private fields: {wrong}"


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    """The readers above find a lazy import, a relative one and a private write (they can fail)."""
    shinobi_module = GAME_DIRS["shinobi"] / "cli.py"
    assert any(_owner(module) == "shinobi" for _, module in _imports(shinobi_module))
    fields = _game_private_fields(GAME_FILES["ordonnance"])
    assert {"_deck", "_hands"} <= fields
    sample = ast.parse("def f(game):\n    from ordonnance.game import Game\n    game._hands[0] = []\n")
    assert any(isinstance(n, ast.ImportFrom) for n in ast.walk(sample))
    assert any(isinstance(t, ast.Subscript) for n in ast.walk(sample) for t in _targets(n))
