"""Secrets of the match server: one token per seat, one for a game's spectators, one for the host.

A token is 144 random bits (``secrets``), written URL-safe. The server keeps only each token's
SHA-256 (also in the game's journal, so a restarted server knows them and a journal read by
someone else gives none away) and compares digests in constant time (``hmac.compare_digest``),
trying every candidate, so the time of a refusal says nothing of how close a guess came.

>>> token = new_token()
>>> matches(token, digest(token)), matches(token + "x", digest(token))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

TOKEN_BYTES = 18


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """The SHA-256 of a token, hex: what the server keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, kept: str) -> bool:
    return hmac.compare_digest(digest(token), kept)


def find(token: str, kept: Sequence[str]) -> int:
    """The index of the digest ``token`` matches among ``kept``, or -1; every digest is compared
    (no early exit)."""
    given = digest(token)
    found = -1
    for i, candidate in enumerate(kept):
        if hmac.compare_digest(given, candidate):
            found = i
    return found
