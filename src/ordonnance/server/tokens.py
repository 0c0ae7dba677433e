"""Seat tokens: capabilities. A token grants one seat of one table; the store keeps only its hash.

>>> token = new_token()
>>> len(token) >= 43, matches(token, digest(token)), matches(token + "x", digest(token))
(True, True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["TOKEN_BYTES", "new_token", "digest", "matches"]

#: The random bytes of a token (256 bits; the issue asks for at least 128).
TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh unguessable token, URL-safe text (43 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """What the store keeps of ``token``: its SHA-256, in hex (a stolen database grants no seat)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose :func:`digest` is ``stored``, compared in constant time."""
    return stored is not None and hmac.compare_digest(digest(token), stored)
