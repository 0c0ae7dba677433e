"""Every HTTP endpoint of the play server is in its OpenAPI document, with its description."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.routing import APIRoute  # noqa: E402

from ordonnance.server.app import create_app  # noqa: E402
from ordonnance.server.store import SQLiteStore  # noqa: E402

from tests.server.conftest import ServerProcess  # noqa: E402

#: The endpoints the guides name (docs/server.rst, docs/server_app.rst).
DOCUMENTED = {
    ("get", "/api/health"), ("get", "/api/games"), ("get", "/api/tables"), ("post", "/api/tables"),
    ("get", "/api/tables/{table_id}"), ("post", "/api/tables/{table_id}/seats/{seat}"),
    ("get", "/api/tables/{table_id}/save"), ("get", "/api/tables/{table_id}/replay"),
    ("get", "/api/tables/{table_id}/review"),
}  # fmt: skip


def _endpoints(tmp_path: Path) -> set[tuple[str, str]]:
    """Every HTTP endpoint of the application under /api, from its routes."""
    store = SQLiteStore(tmp_path / "routes.db")
    try:
        app = create_app(store)
    finally:
        asyncio.run(store.close())
    return {
        (method.lower(), route.path)
        for route in app.routes
        if isinstance(route, APIRoute) and route.path.startswith("/api/")
        for method in route.methods
    }


def test_openapi_lists_every_endpoint_with_its_description(server: ServerProcess, tmp_path: Path) -> None:
    with urllib.request.urlopen(server.url + "/openapi.json", timeout=30) as reply:
        document = json.loads(reply.read())
    listed = {(method, path) for path, operations in document["paths"].items() for method in operations}
    endpoints = _endpoints(tmp_path)
    assert DOCUMENTED <= endpoints
    assert endpoints <= listed, endpoints - listed
    for method, path in endpoints:
        operation = document["paths"][path][method]
        assert operation.get("description"), (method, path)  # the endpoint's docstring
        assert "200" in operation["responses"] or "201" in operation["responses"]


def test_the_review_documents_its_202_progress(server: ServerProcess) -> None:
    with urllib.request.urlopen(server.url + "/openapi.json", timeout=30) as reply:
        document = json.loads(reply.read())
    responses = document["paths"]["/api/tables/{table_id}/review"]["get"]["responses"]
    assert responses["202"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ReviewProgress"}
    assert responses["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ReviewReply"}
