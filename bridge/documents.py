"""A saved document as the document API describes it: one record for the backend and the app."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any


def etag_of(data: bytes) -> str:
    """The strong entity tag of a document's bytes: its quoted full SHA-256 (R53, contract 10)."""
    return f'"{hashlib.sha256(data).hexdigest()}"'


@dataclass(frozen=True)
class DocumentInfo:
    """A saved document (``sha256``: 16 hex characters; ``modified_at`` may be "").

    The listing sends all four fields (contract 3); a save answers without
    ``modifiedAt``.
    """

    path: str
    bytes: int
    sha256: str
    modified_at: str

    def to_json(self) -> dict[str, Any]:
        """The listing entry: ``{"path", "bytes", "sha256", "modifiedAt"}``."""
        return {
            "path": self.path,
            "bytes": self.bytes,
            "sha256": self.sha256,
            "modifiedAt": self.modified_at,
        }

    @classmethod
    def from_json(cls, body: Any) -> DocumentInfo:
        """Read a listing entry or a save's answer; raises KeyError, TypeError or ValueError.

        A non-mapping ``body`` raises TypeError, so callers catch one set of errors.
        """
        if not isinstance(body, dict):
            raise TypeError("a document entry must be a JSON object")
        return cls(
            path=str(body["path"]),
            bytes=int(body["bytes"]),
            sha256=str(body["sha256"]),
            modified_at=str(body.get("modifiedAt") or ""),
        )
