"""One self-contained HTML report per study: what anyone needs to read it and make it again.

:func:`report` writes a single HTML file holding the study's title, the exact command or
call that reproduces it, its seed, games, players, notes, rules and library version (its
:class:`~ordonnance.lab.study.Record`), its tidy table, and its figures
(:func:`ordonnance.lab.plots.figures`) as SVG images inside the file (base64 ``data:``
addresses; vector drawings, sharp at any zoom, their text kept as text): no other file,
no script, no request to the internet. Every text the study
carries (names, custom decks, notes) is escaped. :func:`report_html` returns the same
page as a string.

Needs matplotlib for the figures (the ``lab`` extra).
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
from typing import Any

from ordonnance.errors import InvalidArgumentError, OrdonnanceTypeError, shown
from ordonnance.lab.plots import figures
from ordonnance.lab.study import Study

__all__ = ["report", "report_html", "title_of", "svg_of"]

_TITLES = {
    "metrics": "Metrics of a rule set",
    "compare": "Two rule sets compared on common random numbers",
    "card_values": "Card values by controlled experiment",
    "matchups": "Matchup table",
    "tune": "Rules tuner",
}

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
pre, code { background: #f4f4f4; padding: 0.2rem 0.4rem; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { border: 1px solid #bbb; padding: 0.2rem 0.5rem; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
dt { font-weight: bold; margin-top: 0.4rem; }
figure { margin: 1.5rem 0; }
img { max-width: 100%; }
"""


def title_of(study: Study) -> str:
    """The report's title for ``study`` (its kind in words)."""
    return _TITLES.get(study.record.study, f"Study: {study.record.study}")


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _cell(value: Any) -> tuple[str, bool]:
    """A table cell's text, and whether it is a number."""
    if value is None:
        return "", False
    if isinstance(value, float):
        return ("nan" if math.isnan(value) else f"{value:.4f}"), True
    return str(value), isinstance(value, int)


def _table(study: Study) -> str:
    columns = study.columns()
    head = "".join(f"<th>{_e(name)}</th>" for name in columns)
    lines = [f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>"]
    for values in study.records():
        cells = []
        for name in columns:
            text, number = _cell(values[name])
            cells.append(f'<td class="number">{_e(text)}</td>' if number else f"<td>{_e(text)}</td>")
        lines.append(f"<tr>{''.join(cells)}</tr>")
    lines.append("</tbody>\n</table>")
    return "\n".join(lines)


def _record(study: Study) -> str:
    record = study.record
    items = [("Seed", [str(record.seed)]), ("Games", [f"{record.games:,}"]), ("Library version", [record.version]),
             ("Players", list(record.players)), ("Rules", list(record.rules)), ("Notes", list(record.notes))]  # fmt: skip
    lines = ["<dl>"]
    for name, values in items:
        if values:
            lines.append(f"<dt>{_e(name)}</dt>")
            lines += [f"<dd><code>{_e(value)}</code></dd>" for value in values]
    lines.append("</dl>")
    return "\n".join(lines)


def _figures(study: Study) -> str:
    parts = []
    for title, figure in figures(study):
        data = base64.b64encode(svg_of(figure)).decode("ascii")
        parts.append(
            f'<figure>\n<img alt="{_e(title)}" src="data:image/svg+xml;base64,{data}">\n'
            f"<figcaption>{_e(title)}</figcaption>\n</figure>"
        )
    return "\n".join(parts)


def svg_of(figure: Any) -> bytes:
    """``figure`` (a matplotlib Figure) as an SVG document: text as text, no date and fixed
    element ids, so the same study gives the same bytes."""
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ordonnance.lab"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def report_html(study: Study, title: str | None = None) -> str:
    """The report of ``study`` as one HTML page (see the module documentation); ``title``:
    its heading (None: the study's kind in words)."""
    if not isinstance(study, Study):
        raise OrdonnanceTypeError(f"study must be an ordonnance.lab.Study, got {shown(study)}")
    if title is not None and not isinstance(title, str):
        raise OrdonnanceTypeError(f"title must be a str or None, got {shown(title)}")
    heading = title_of(study) if title is None else title
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head>\n<meta charset="utf-8">',
        f"<title>{_e(heading)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>\n<body>",
        f"<h1>{_e(heading)}</h1>",
        "<h2>Reproduce it</h2>",
        f"<pre>{_e(study.record.call)}</pre>",
        _record(study),
        "<h2>Figures</h2>",
        _figures(study),
        "<h2>Table</h2>",
        "<p>Each estimate with its 95% interval (low, high) and the games behind it.</p>",
        _table(study),
        "</body>\n</html>\n",
    ])  # fmt: skip


def report(study: Study, path: str | os.PathLike[str], title: str | None = None) -> None:
    """Write the report of ``study`` to ``path``: one self-contained HTML file (see the module
    documentation); ``title``: its heading (None: the study's kind in words)."""
    if not isinstance(path, (str, os.PathLike)):
        raise OrdonnanceTypeError(f"path must be a file path, got {shown(path)}")
    if not os.fspath(path):
        raise InvalidArgumentError(f"path must name a file, got {shown(path)}")
    page = report_html(study, title)
    with open(path, "w", encoding="utf-8") as file:
        file.write(page)
