"""One factory for ambient pointers in tests: a valid pointer, any field overridden."""

from __future__ import annotations

from bridge.pointer import AmbientPointer, Selection

CAPTURED_AT = "2026-11-29T19:08:18.123Z"


def make_pointer(path: str = "inbox/today.md", **changes: object) -> AmbientPointer:
    """A pointer to ``path`` with a selection; ``changes`` use the wire names (``frameId``)."""
    fields: dict[str, object] = {
        "path": path,
        "view": "edit",
        "frameId": "inbox-1",
        "selection": Selection(anchor=10, head=24),
        "bytes": 1834,
        "sha256": "9f86d081884c7d65",
        "flushed": True,
        "capturedAt": CAPTURED_AT,
    }
    fields.update(changes)
    return AmbientPointer.model_validate(fields)
