"""SVG primitives every game's pictures are drawn with (stdlib only: the output is plain text).

>>> from ordonnance.core.svg import document, rect, text
>>> picture = document(100, 40, "a <title>", [rect(0, 0, 100, 40, fill="#fff"), text(5, 20, "x & y" + chr(0), size=12)])
>>> import xml.dom.minidom
>>> xml.dom.minidom.parseString(picture).documentElement.tagName
'svg'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from ordonnance.core import checks

__all__ = ["SVG", "INK", "LABEL_LENGTH", "clean", "label", "num", "text", "rect", "document"]

_SVG_NS = "http://www.w3.org/2000/svg"
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: The default colour of text.
INK = "#3e2723"
# Characters XML 1.0 does not allow anywhere, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


#: The longest title or name a picture takes from its caller.
LABEL_LENGTH = 200


def label(value: object, name: str) -> str:
    """A title or name given for a picture (every game's titles and seat names go through
    here): a Python or NumPy string of at most :data:`LABEL_LENGTH` printable characters, as
    a plain str; else the library's error showing it (a NUL or an escape would make the
    picture invalid XML, or be dropped silently).

    >>> label("Ann", "names[0]")
    'Ann'
    >>> label("a" + chr(0), "title")
    Traceback (most recent call last):
    ...
    ordonnance.errors.InvalidArgumentError: title must not hold control characters ('\\x00'), got 'a\\x00'
    """
    return checks.text(value, name, most=LABEL_LENGTH, printable=True)


def clean(content: str) -> str:
    """``content`` without the characters XML cannot carry (NUL and other control characters);
    escape the result before putting it in a document."""
    return _NOT_XML.sub("", content)


class SVG(str):
    """The text of one SVG picture; Jupyter shows it as an image.

    It is a plain ``str`` in every other respect (write it to a ``.svg`` file,
    embed it in HTML, parse it as XML).

    >>> from ordonnance.core.svg import SVG
    >>> SVG("<svg/>")._repr_svg_()
    '<svg/>'
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        """The SVG text, for IPython's rich display."""
        return str(self)


def num(value: float) -> str:
    """A coordinate as short, deterministic text: at most 2 decimals."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text(
    x: float,
    y: float,
    content: str,
    *,
    size: float,
    fill: str = INK,
    anchor: str = "start",
    weight: str = "normal",
) -> str:
    """A ``<text>`` element; ``content`` is escaped."""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}" '
        f'text-anchor="{anchor}" font-weight="{weight}">{escape(clean(content))}</text>'
    )


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fill: str,
    stroke: str = "none",
    stroke_width: float = 1.0,
    rx: float = 0.0,
    dash: str | None = None,
) -> str:
    """A ``<rect>`` element."""
    dashing = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
        f'rx="{num(rx)}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{num(stroke_width)}"{dashing}/>'
    )


def document(width: float, height: float, title: str, body: Iterable[str]) -> SVG:
    """The whole picture: an ``<svg>`` of ``width`` x ``height`` pixels with a ``<title>``
    (printable, as :func:`label` checks it; of any length, since a picture may describe itself at length)."""
    title = checks.text(title, "title", printable=True)
    w, h = num(width), num(height)
    head = (
        f'<svg xmlns="{_SVG_NS}" version="1.1" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family={quoteattr(_FONT)}>'
        f"<title>{escape(clean(title))}</title>"
    )
    return SVG(head + "".join(body) + "</svg>")
