"""The table picture in a real browser: headless Chromium draws it, we read the PNG.

Skipped when no ``chromium`` binary is on PATH (Debian: ``apt-get install -y
chromium``). Set ``ORDONNANCE_SCREENSHOT=/some/file.png`` to keep the
screenshot for a human to look at.
"""

from __future__ import annotations

import math
import os
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

import ordonnance as od
from ordonnance import render
from ordonnance.render import SYMBOL_COLORS

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
NO_BROWSER = (
    "no chromium binary on PATH: install it (Debian: `apt-get install -y chromium`) "
    "to check the SVG pictures in a real browser"
)

PAGE_HEAD = (
    '<!doctype html><html><head><meta charset="utf-8"><title>ordonnance table</title>'
    "<style>html,body{margin:0;padding:0;background:#ffffff;overflow:hidden}"
    "svg{display:block}</style></head><body>"
)
PAGE_TAIL = "</body></html>"


# --- a small PNG reader: no Pillow -------------------------------------------------------


def read_png(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes per pixel, rows of unfiltered pixel bytes) of an 8-bit PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind!r}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    assert header is not None, "no IHDR chunk"
    width, height, depth, color, _compression, _filter, interlace = header
    assert depth == 8 and interlace == 0, f"unsupported PNG: depth {depth}, interlace {interlace}"
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(color)
    assert channels is not None, f"unsupported PNG colour type {color}"
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    assert len(raw) == height * (stride + 1), "IDAT holds the wrong number of bytes"
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(kind, line, previous, channels)
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def _unfilter(kind: int, line: bytearray, up: bytearray, bpp: int) -> None:
    n = len(line)
    if kind == 0:
        return
    if kind == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 0xFF
    elif kind == 2:
        for i in range(n):
            line[i] = (line[i] + up[i]) & 0xFF
    elif kind == 3:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + up[i]) >> 1)) & 0xFF
    elif kind == 4:
        for i in range(n):
            a = line[i - bpp] if i >= bpp else 0
            b = up[i]
            c = up[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
            line[i] = (line[i] + pred) & 0xFF
    else:
        raise AssertionError(f"unknown PNG filter type {kind}")


def _pixels(rows: list[bytes], channels: int) -> set[tuple[int, ...]]:
    """Every distinct RGB colour in the rows."""
    seen: set[tuple[int, ...]] = set()
    for row in rows:
        for i in range(0, len(row), channels):
            seen.add(tuple(row[i : i + 3]))
    return seen


def _hex(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


# --- the test ------------------------------------------------------------------------------


def _screenshot(picture: str, tmp_path: Path) -> tuple[Path, int, int]:
    root = ET.fromstring(picture)
    width = math.ceil(float(root.attrib["width"]))
    height = math.ceil(float(root.attrib["height"]))
    page = tmp_path / "table.html"
    page.write_text(PAGE_HEAD + picture + PAGE_TAIL, encoding="utf-8")
    png = tmp_path / "table.png"
    profile = tmp_path / "profile"
    profile.mkdir()
    assert BROWSER is not None
    command = [
        BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
        f"--user-data-dir={profile}", f"--window-size={width},{height}",
        f"--screenshot={png}", page.as_uri(),
    ]  # fmt: skip
    try:
        done = subprocess.run(command, capture_output=True, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("chromium did not finish the screenshot within 120 s")
    assert png.exists(), f"chromium wrote no screenshot (exit {done.returncode}): {done.stderr[-2000:]!r}"
    return png, width, height


def test_chromium_draws_the_whole_table(tmp_path: Path) -> None:
    if BROWSER is None:
        pytest.skip(NO_BROWSER)
    game = od.Game.new(od.Rules(), seed=7)
    bots = [od.bots.Greedy(seed=0), od.bots.Random(seed=1)]
    for _ in range(24):
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    picture = render.svg(game.view(0), size=60)
    png, width, height = _screenshot(picture, tmp_path)
    keep = os.environ.get("ORDONNANCE_SCREENSHOT")
    if keep:
        shutil.copyfile(png, keep)

    got_w, got_h, channels, rows = read_png(png.read_bytes())
    assert (got_w, got_h) == (width, height)
    # Not blank: more than one byte value, many colours, and the bottom strip
    # (the last hand) is drawn too, so the page was not cut short.
    assert len({b for row in rows for b in row}) > 1
    colours = _pixels(rows, channels)
    assert len(colours) > 50
    assert len(_pixels(rows[-height // 12 :], channels)) > 5
    # The symbols came out in their colours (solid fills, so exact pixels).
    for symbol, color in SYMBOL_COLORS.items():
        target = _hex(color)
        near = [c for c in colours if max(abs(c[i] - target[i]) for i in range(3)) <= 12]
        assert near, f"no pixel of {symbol.label}'s colour {color} in the screenshot"


def test_png_reader_knows_every_filter() -> None:
    # A 2 x 2 RGB image, one row per filter type pair, checked by hand.
    width, bpp = 2, 3
    pixels = [bytes([10, 20, 30, 40, 50, 60]), bytes([70, 80, 90, 100, 110, 120])]
    for kind in range(5):
        line0 = bytearray(pixels[0])
        raw = bytes([0]) + bytes(line0)
        row = bytearray(pixels[1])
        filtered = bytearray(row)
        for i in range(len(row)):
            a = row[i - bpp] if i >= bpp else 0
            b = pixels[0][i]
            c = pixels[0][i - bpp] if i >= bpp else 0
            pred = [0, a, b, (a + b) >> 1, _paeth(a, b, c)][kind]
            filtered[i] = (row[i] - pred) & 0xFF
        raw += bytes([kind]) + bytes(filtered)
        data = _png(width, 2, raw)
        assert read_png(data) == (2, 2, 3, pixels)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
