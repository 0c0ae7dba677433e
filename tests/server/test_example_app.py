"""The app builders' example (examples/server_app.py, shown in docs/server_app.rst) runs: it embeds the
server, plays a table through the client and reads its save, replay and review."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from tests.server.conftest import free_port  # noqa: E402

EXAMPLE = Path(__file__).parents[2] / "examples" / "server_app.py"


def test_the_example_app_plays_a_table_and_reviews_it(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    done = subprocess.run([sys.executable, str(EXAMPLE), "--db", str(db), "--port", str(free_port())],
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "welcome: {'club': 'Thursday cards', 'tables': 0}" in done.stdout
    played = re.search(r"table (\S+): (\d+) moves, winner: (Ada|Greedy|nobody)", done.stdout)
    assert played is not None, done.stdout
    assert re.search(r"the turning point: move \d+ by (Ada|Greedy), Ada's chance [01]\.\d\d -> [01]\.\d\d", done.stdout)
    with sqlite3.connect(db) as stored:  # the table and every move are in the app's database
        (status,) = stored.execute("SELECT status FROM tables WHERE id = ?", (played[1],)).fetchone()
        (moves,) = stored.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (played[1],)).fetchone()
    assert status == "finished" and moves == int(played[2]) > 0


def test_the_docs_page_shows_the_example_as_it_is() -> None:
    page = (Path(__file__).parents[2] / "docs" / "server_app.rst").read_text()
    assert ".. literalinclude:: ../examples/server_app.py" in page
