"""A saved document's entity tag (R53); a listing entry is :class:`bridge.wire.DocumentEntry`."""

from __future__ import annotations

import hashlib


def etag_of(data: bytes) -> str:
    """The strong entity tag of a document's bytes: its quoted full SHA-256 (R53, contract 10)."""
    return f'"{hashlib.sha256(data).hexdigest()}"'
