"""A send made while the note is still loading waits for it, within the 1.5 s bound (R9, R11).

Neither test waits for the load before sending: the send must never read a frame
whose editor does not hold its note yet (bytes 0 after mount, or the previous
note's bytes under the new path after open).
"""

from __future__ import annotations

from bridge.contract import FLUSH_LIMIT_SECONDS
from bridge.pointer import fingerprint
from tests.app.conftest import WORKSPACE_NOTES, AppFactory


def test_mount_then_send_points_at_the_loaded_note(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.window.driver.mount_inbox("inbox-1", "notes/a.md", "edit")
    assert not frame.is_loaded
    record = app.send()
    pointer = record.capture.pointer
    assert pointer is not None and pointer.path == "notes/a.md"
    assert (pointer.bytes, pointer.sha256) == fingerprint(WORKSPACE_NOTES["notes/a.md"])
    assert record.preparation_seconds < FLUSH_LIMIT_SECONDS


def test_open_then_send_never_carries_the_previous_notes_bytes(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    frame.open_path("notes/b.md")
    assert not frame.is_loaded and frame.read_text() == WORKSPACE_NOTES["notes/a.md"]
    record = app.send()
    pointer = record.capture.pointer
    assert pointer is not None and pointer.path == "notes/b.md"
    assert (pointer.bytes, pointer.sha256) == fingerprint(WORKSPACE_NOTES["notes/b.md"])
