"""The rules pages the play server serves (``/rules/{game}``), made from the docs' rules text.

The pages ship in the package (``server/static/rules-*.html``) so that the server needs
neither the docs nor docutils. ``python -m ordonnance.server.rules_pages`` (with the docs
extra, from a checkout) writes them again after a change of the docs' rules pages; a test
checks that they are current.
"""

from __future__ import annotations

import re
import sys
from html import escape
from pathlib import Path

__all__ = ["SOURCES", "page", "write"]

#: Each game's rules page in the docs.
SOURCES = {"ordonnance": "rules.rst", "shinobi": "shinobi_rules.rst", "black-prince": "black_prince_rules.rst"}

_ROLE = re.compile(r":(class|meth|func|data|attr|mod|doc|ref):`(~?)([^`<]*?)\s*(?:<([^>]*)>)?`")


def _plain(match: re.Match[str]) -> str:
    role, short, text, target = match.groups()
    if role in ("doc", "ref"):
        return f"*{(text or target).strip().replace('_', ' ')}*"
    name = text.rsplit(".", 1)[-1] if short else text
    return f"``{name}``"


def page(game: str, rst: str) -> str:
    """The HTML page of ``game``'s rules from the docs' reStructuredText ``rst`` (Sphinx's roles as
    plain text, doctests as code)."""
    import docutils  # type: ignore[import-untyped]
    from docutils.core import publish_parts  # type: ignore[import-untyped]
    from docutils.writers.html5_polyglot import Writer  # type: ignore[import-untyped]

    text = _ROLE.sub(_plain, rst).replace(".. doctest::", "::")
    parts = publish_parts(text, writer=Writer(), settings_overrides={
        "raw_enabled": True, "file_insertion_enabled": False, "report_level": 4, "halt_level": 5,
        "syntax_highlight": "none", "embed_stylesheet": False, "doctitle_xform": True,
    })  # fmt: skip
    title = escape(parts["title"])
    body = re.sub(r' style="[^"]*"', "", parts["body"])  # the content security policy refuses inline styles
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="docutils {docutils.__version__}">\n'
        f"<title>{title}</title>\n"
        '<link rel="stylesheet" href="/static/app.css">\n'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n</head>\n<body>\n'
        f'<header class="top"><a href="/">Lobby</a><h1>{title}</h1></header>\n'
        f'<main class="rules">\n{body}</main>\n</body>\n</html>\n'
    )


def write(docs: str | Path, folder: str | Path) -> list[Path]:
    """Write every game's rules page from the docs folder ``docs`` into ``folder``."""
    written = []
    for game, source in SOURCES.items():
        path = Path(folder) / f"rules-{game}.html"
        path.write_text(page(game, (Path(docs) / source).read_text(encoding="utf-8")), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(sys.argv[1] if len(sys.argv) > 1 else "docs", Path(__file__).with_name("static")):
        print(path)
