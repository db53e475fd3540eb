"""A popped-out note, as the main window speaks of it (R29, R23, R25).

It is no longer "this note" here, yet it can be read by name from its saved
copy, which may be behind the other window: the banner says so, a turn that
reads it by name warns as R25 does, and a turn that fell back to another note
because "this note" popped out says why it is about that note.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.popout.processes import PopoutHandle
from tests.app.conftest import AppFactory, AppUnderTest

TODAY = "inbox/today.md"
PLAN = "projects/launch-plan.md"
NOTES = {
    TODAY: "# Today\n- [ ] Book the dentist\n",
    PLAN: "# Launch plan\n- [ ] Write the press note\n- [x] Pick a date\n",
}
POPPED_TIMEOUT_MS = 10_000


def _pop_out_the_plan(app: AppUnderTest) -> PopoutHandle:
    app.mount("inbox-1", TODAY)
    plan = app.mount("inbox-2", PLAN)
    QTest.mouseClick(plan.activation_target(), Qt.MouseButton.LeftButton)
    assert app.window.store.resolve() is not None
    with app.qtbot.waitSignal(
        app.window.session.popouts.popped_out, timeout=POPPED_TIMEOUT_MS
    ) as popped:
        QTest.mouseClick(plan.popout_button, Qt.MouseButton.LeftButton)
    handle: PopoutHandle = popped.args[0]
    return handle


@pytest.mark.slow
def test_the_banner_and_the_turns_tell_the_truth_about_a_popped_out_note_R29_R25(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    _pop_out_the_plan(app)
    banner = next(b for b in app.window.banners.banners if PLAN in b.label.text())
    text = banner.label.text()
    assert "no longer sees it" not in text
    assert "no longer “this note”" in text and "by name" in text and "saved copy" in text

    # Unnamed: "this note" fell back to today.md, and the turn says why (R29).
    record = app.send("what's still open here?")
    assert record.capture.pointer is not None and record.capture.pointer.path == TODAY
    view = app.window.assistant.transcript_view.turns()[-1]
    notice = view.notice.text()  # type: ignore[attr-defined]
    assert f"{PLAN} is in its own window now" in notice and TODAY in notice
    assert not view.notice.isHidden()  # type: ignore[attr-defined]

    # Named: read from the saved copy, which may be behind the other window (R23, R25).
    record = app.send(f"summarise {PLAN}")
    assert [call.name for call in record.reply.tool_calls] == ["read_document"]  # type: ignore[union-attr]
    view = app.window.assistant.transcript_view.turns()[-1]
    caveat = view.caveat.text()  # type: ignore[attr-defined]
    assert f"{PLAN} is open in its own window" in caveat and "saved copy" in caveat
    assert "unsaved edits may be missing" in caveat
    rows = dict(view.details.rows())  # type: ignore[attr-defined]
    assert "open in its own window" in rows["Warnings"]
    # This reply is about the note it named, not about "this note": no fallback to explain.
    assert record.fallback_notice is None
    assert view.notice.isHidden()  # type: ignore[attr-defined]

    # Named by its title, the popped-out note is the one read, with the same caveat (R56).
    record = app.send("what's still open in the launch plan?")
    assert record.reply is not None
    assert [call.name for call in record.reply.tool_calls] == ["read_document"]
    assert record.reply.tool_calls[0].arguments.get("path") == PLAN
    assert "Write the press note" in record.reply.reply
    view = app.window.assistant.transcript_view.turns()[-1]
    assert f"{PLAN} is open in its own window" in view.caveat.text()  # type: ignore[attr-defined]

    # Asked about "this note" again, the fallback still holds and is said again.
    again = app.send("summarise this")
    assert again.fallback_notice is not None and TODAY in again.fallback_notice


@pytest.mark.slow
def test_the_fallback_notice_goes_once_another_note_is_chosen_here_R29(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    _pop_out_the_plan(app)
    other = app.mount("inbox-3", "notes/other.md")
    QTest.mouseClick(other.activation_target(), Qt.MouseButton.LeftButton)
    record = app.send("what's still open here?")
    assert record.fallback_notice is None
    assert record.elsewhere.open_elsewhere == frozenset({PLAN})
    assert record.elsewhere_caveats == []  # read_active_note read this window's note


@pytest.mark.slow
def test_a_note_popped_out_when_it_was_not_this_note_needs_no_notice_R29(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    today = app.mount("inbox-1", TODAY)
    app.mount("inbox-2", PLAN)
    QTest.mouseClick(today.activation_target(), Qt.MouseButton.LeftButton)
    # Not through its ↗ button, whose click makes it "this note" first (as a QA step does).
    with app.qtbot.waitSignal(app.window.session.popouts.popped_out, timeout=POPPED_TIMEOUT_MS):
        app.window.popout_host.pop_out("inbox-2")
    record = app.send("what's still open here?")
    assert record.fallback_notice is None
