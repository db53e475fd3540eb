"""What both realms agree on about reading "this note": the limits, schema and words of R21, R27.

The backend's ``read_active_note`` tool and the app's sidecar (R60) answer with the
same limits and the same sentences, so they live here once.
"""

from __future__ import annotations

from typing import Any, Final

from bridge.contract import DEFAULT_MAX_BYTES, MAX_MAX_BYTES

MAX_BYTES_INVALID: Final = "maxBytes must be a whole number of at least 1."
MAX_BYTES_SCHEMA: Final[dict[str, Any]] = {
    "type": "integer",
    "minimum": 1,
    "description": (
        f"Read at most this many bytes (default {DEFAULT_MAX_BYTES}, at most {MAX_MAX_BYTES})."
    ),
}
"""R21's ``maxBytes`` as JSON Schema: the model's tools and the sidecar's offer the same one."""
NO_ACTIVE_NOTE: Final = (
    'No note is open, so there is no "this note" to read. Ask the user to name a note '
    "(a workspace path such as notes/today.md) or to ask for a listing of their notes."
)


def parse_max_bytes_value(value: object) -> int | None:
    """R21: the clamped limit, or None for a non-integer or a value below 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return min(value, MAX_MAX_BYTES)


def cut_at_character(data: bytes, limit: int) -> bytes:
    """The longest prefix of ``data`` (UTF-8) within ``limit`` bytes that ends a character (R26)."""
    if len(data) <= limit:
        return data
    end = limit
    # Continuation bytes are 0b10xxxxxx: step back over at most three of them.
    while end > 0 and data[end] & 0xC0 == 0x80:
        end -= 1
    return data[:end]


def read_result(
    status: str,
    message: str | None = None,
    *,
    path: str | None = None,
    view: str | None = None,
    text: str | None = None,
    size: int | None = None,
    partial: bool = False,
    caveat: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A reading tool's result as contract 5 shapes it: every field present, unset ones null."""
    return {
        "status": status,
        "message": message,
        "path": path,
        "view": view,
        "text": text,
        "bytes": size,
        "partial": partial,
        "caveat": caveat,
        **extra,
    }
