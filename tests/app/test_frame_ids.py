"""R49: frame ids are unique in a session, pop-outs included; a returned note keeps its place."""

from __future__ import annotations

import pytest

from tests.app.conftest import AppFactory

CHILD_START_TIMEOUT_MS = 30_000


@pytest.mark.slow
def test_ids_stay_taken_while_popped_out_and_a_returned_note_keeps_its_place_R49(
    make_app: AppFactory,
) -> None:
    app = make_app({"notes/a.md": "a\n", "notes/b.md": "b\n", "notes/c.md": "c\n"})
    window = app.window
    app.mount("inbox-1", "notes/a.md")
    second = app.mount("inbox-2", "notes/b.md")
    app.mount("inbox-3", "notes/c.md")
    with app.qtbot.waitSignal(
        window.session.popouts.popped_out, timeout=CHILD_START_TIMEOUT_MS
    ) as popped:
        second.pop_out()
    handle = popped.args[0]
    assert handle.frame_id == "inbox-2" and handle.position == 1

    opened = window.driver.open_note("notes/new.md")
    assert opened.frame_id == "inbox-4"  # inbox-2 lives on in its own window
    with pytest.raises(ValueError, match="in its own window"):
        window.driver.mount_inbox("inbox-2", "notes/other.md")

    window.driver.close_frame(opened.frame_id)
    with app.qtbot.waitSignal(
        window.session.popouts.return_offered, timeout=CHILD_START_TIMEOUT_MS
    ):
        handle.process.kill()
    returned = window.driver.bring_back(handle)
    assert returned is not None and returned.frame_id == "inbox-2"
    order = [frame.frame_id for frame in window.driver.note_frames_in_order()]
    assert order == ["inbox-1", "inbox-2", "inbox-3"]  # back in its old place, not at the bottom
