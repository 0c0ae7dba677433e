"""The WebSocket messages' JSON Schemas in the docs are the server's, and they say what they should."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import jsonschema  # noqa: E402

from ordonnance.server import schemas  # noqa: E402
from ordonnance.server.messages import CLIENT_MESSAGE  # noqa: E402

FOLDER = Path(__file__).parents[2] / "docs" / "schemas"


@pytest.mark.parametrize("name", list(schemas.SCHEMAS))
def test_the_message_schemas_in_the_docs_are_the_servers(name: str) -> None:
    """After changing a message, write them again: python -m ordonnance.server.schemas docs/schemas"""
    schema = schemas.SCHEMAS[name]()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert (FOLDER / name).read_text() == schemas.text_of(schema)


def test_the_client_schema_takes_moves_and_syncs_only() -> None:
    validator = jsonschema.Draft202012Validator(json.loads((FOLDER / "ordonnance.server.client.json").read_text()))
    assert validator.is_valid({"type": "move", "ply": 3, "action": {"type": "end_turn"}})
    assert validator.is_valid({"type": "sync"})
    for bad in [{"type": "move", "ply": -1, "action": {}}, {"type": "move", "ply": 1}, {"type": "sync", "x": 1}, {"type": "chat"}]:
        assert not validator.is_valid(bad), bad
        with pytest.raises(ValueError):
            CLIENT_MESSAGE.validate_python(bad)


def test_a_name_with_markup_is_refused() -> None:
    from ordonnance.errors import InvalidArgumentError
    from ordonnance.server.limits import check_name

    assert check_name("  Anne-Marie 2 ") == "Anne-Marie 2"
    for bad in ["<b>", "a&b", "O'Hara", 'x"', "\u202eevil", "a\nb", "", "x" * 33]:
        with pytest.raises((InvalidArgumentError, TypeError)):
            check_name(bad)


def test_the_guide_lists_every_error_code() -> None:
    from ordonnance.server.messages import ERROR_CODES

    guide = (FOLDER.parent / "server.rst").read_text()
    for code, when in ERROR_CODES.items():
        assert f"``{code}``" in guide and when in guide, code
