"""The JSON Schemas of the play server's WebSocket messages, as the docs show them.

``python -m ordonnance.server.schemas docs/schemas`` writes them again
(``ordonnance.server.client.json``: what a client sends; ``ordonnance.server.server.json``:
what the server sends) after a change of :mod:`ordonnance.server.messages`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ordonnance.server.messages import client_schema, server_schema

__all__ = ["SCHEMAS", "text_of", "write"]

#: Each schema's file name and its maker.
SCHEMAS = {"ordonnance.server.client.json": client_schema, "ordonnance.server.server.json": server_schema}


def text_of(schema: dict[str, Any]) -> str:
    """A schema as the docs' files hold it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write(folder: str | Path) -> list[Path]:
    """Write every schema into ``folder``; returns the files written."""
    written = []
    for name, make in SCHEMAS.items():
        path = Path(folder) / name
        path.write_text(text_of(make()), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas"):
        print(path)
