"""Fixtures of the browser tests: a real play server (tests/server's), Debian's Chromium driven by
Playwright, and helpers to create tables and play them by clicking."""

from __future__ import annotations

import json
import os
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess, running_server

CHROMIUM = "/usr/bin/chromium"


def needs_a_browser() -> None:
    """Skip the calling test module without the web extra, Playwright or Debian's Chromium."""
    pytest.importorskip("fastapi")
    pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)", allow_module_level=True)

#: Where the test run writes its screenshots and timings: the docs' folder when
#: ORDONNANCE_DOCS_PICTURES=1 (to renew the pictures docs/web.rst shows), else a folder of its
#: own, so that a test run leaves the tree as it was.
PICTURES = (
    Path(__file__).parents[2] / "docs" / "_static" / "web"
    if os.environ.get("ORDONNANCE_DOCS_PICTURES") == "1"
    else Path(tempfile.mkdtemp(prefix="ordonnance-web-pictures-"))
)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
#: Each game's rules at the tables here (Shinobi with three seats, to keep games short).
RULES: dict[str, dict[str, Any] | None] = {"ordonnance": None, "shinobi": {"players": 3}, "black-prince": None}
GAMES = tuple(RULES)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("web")) as process:
        yield process


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Page:
    """A browser page of the tests, with every console error and failed request it saw."""

    def __init__(self, browser: Any, viewport: dict[str, int] = DESKTOP) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Any]:
    opened: list[Page] = []

    def open_page(viewport: dict[str, int] = DESKTOP) -> Page:
        opened.append(Page(browser, viewport))
        return opened[-1]

    yield open_page
    for page in opened:
        page.close()
    for page in opened:
        assert page.errors == [], page.errors


def api(server: ServerProcess, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, method=method, data=data,
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def players(game: str) -> int:
    from ordonnance.core import registry

    module = registry.package(game)
    rules = module.Rules() if RULES[game] is None else module.Rules.from_dict(RULES[game])
    return int(rules.players)


def table(server: ServerProcess, game: str, kinds: list[str], **options: Any) -> dict[str, Any]:
    """A new table of ``game`` with a seat of each kind."""
    return api(server, "POST", "/api/tables", {"game": game, "rules": RULES[game],
                                                "seats": [{"kind": kind} for kind in kinds], **options})  # fmt: skip


def join(server: ServerProcess, table_id: str, seat: int, name: str) -> str:
    """The token of seat ``seat``, taken as ``name``."""
    return str(api(server, "POST", f"/api/tables/{table_id}/seats/{seat}", {"name": name})["token"])


def link(server: ServerProcess, table_id: str, seats: dict[int, str]) -> str:
    """The table page's link for these seats' tokens."""
    return f"{server.url}/tables/{table_id}#" + "&".join(f"s{seat}={token}" for seat, token in seats.items())


@pytest.fixture
def restartable_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server the test starts, stops and starts again on the same port and database."""
    process = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log")
    try:
        yield process
    finally:
        process.stop()
