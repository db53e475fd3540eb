"""Replies keep their assistant and their details after a restart (R45, R34).

The backend keeps the messages and the tools' names; the app keeps what the turn
showed beside them, never note text. A new start shows each reply as it was shown.
"""

from __future__ import annotations

from pathlib import Path

from app.assistant.assistants import KEPT_TURNS_FOLDER
from renderer.frames.assistant.transcript import KeptTurnView
from renderer.frames.assistant.turn_view import TurnView
from tests.app.conftest import AppFactory

SECRET_LINE = "the garden gate code is 4711"
NOTES = {
    "notes/a.md": f"# A\n- [ ] call Sam\n{SECRET_LINE}\n",
    "notes/b.md": "# B\nbeta\n",
}
LOAD_TIMEOUT_MS = 15_000


def test_replies_come_back_with_their_assistant_and_details_after_a_restart_R45(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    first = app.send("what's still open here?")
    second = app.send("summarise notes/b.md")
    views = [v for v in app.window.assistant.transcript_view.turns() if isinstance(v, TurnView)]
    shown = [(v.answered_by.text(), v.details.rows(), v.reply.text()) for v in views]
    assert [row[0] for row in shown] == ["Offline assistant", "Offline assistant"]
    assert first.reply is not None and second.reply is not None
    app.quit()
    kept_files = list((app.data_dir / KEPT_TURNS_FOLDER).iterdir())
    assert len(kept_files) == 1
    kept_text = kept_files[0].read_text(encoding="utf-8")
    assert SECRET_LINE not in kept_text and "call Sam" not in kept_text  # never note text
    assert "what's still open" not in kept_text  # the message is the backend's to keep

    again = make_app(restart=app).window
    assistant = again.assistant
    app.qtbot.waitUntil(
        lambda: len(assistant.transcript_view.turns()) == 2, timeout=LOAD_TIMEOUT_MS
    )
    restored = assistant.transcript_view.turns()
    assert all(isinstance(view, TurnView) for view in restored)
    for view, (name, rows, reply) in zip(restored, shown, strict=True):
        assert isinstance(view, TurnView)
        assert view.answered_by.text() == name and not view.answered_by.isHidden()
        assert view.details.rows() == rows
        assert view.reply.text() == reply
        assert not view.details_button.isHidden()


def test_a_turn_the_app_has_no_record_of_shows_as_the_backend_keeps_it_R34(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    app.send("what's still open here?")
    app.quit()
    kept_folder = app.data_dir / KEPT_TURNS_FOLDER
    for kept in kept_folder.iterdir():
        kept.write_text("{not json", encoding="utf-8")  # unreadable: set aside, nothing breaks
    again = make_app(restart=app).window
    assistant = again.assistant
    app.qtbot.waitUntil(
        lambda: len(assistant.transcript_view.turns()) == 1, timeout=LOAD_TIMEOUT_MS
    )
    (view,) = assistant.transcript_view.turns()
    assert isinstance(view, KeptTurnView)
    assert "call Sam" in view.reply.text()
    status = assistant.transcript_view.status  # R64: said plainly, the file set aside
    assert "could not be read: it is not valid JSON" in status.text()
    assert not status.isHidden() and "Traceback" not in status.text()
    assert [p.name.split(".json")[1][:8] for p in kept_folder.iterdir()] == [".broken-"]


def test_what_is_kept_of_a_turn_never_holds_note_text_R45(make_app: AppFactory) -> None:
    """A tool's result and a /tool reply quote the note: neither is kept, only sizes and paths."""
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    read = app.send('/tool read_document {"path": "notes/a.md"}')
    active = app.send("/tool read_active_note {}")
    for record in (read, active):
        assert record.reply is not None and SECRET_LINE in record.reply.reply
    app.quit()
    (kept,) = (app.data_dir / KEPT_TURNS_FOLDER).iterdir()
    text = kept.read_text(encoding="utf-8")
    assert "4711" not in text and "call Sam" not in text
    assert '"textBytes"' in text and '"notes/a.md"' in text  # sizes and paths: yes
    assert kept.stat().st_mode & 0o777 == 0o600


def test_a_kept_file_that_is_a_link_is_never_followed_R64(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    app.send("what's still open here?")
    app.quit()
    (kept,) = (app.data_dir / KEPT_TURNS_FOLDER).iterdir()
    outside = tmp_path / "outside.json"
    outside.write_text(kept.read_text(encoding="utf-8"), encoding="utf-8")
    kept.unlink()
    kept.symlink_to(outside)
    again = make_app(restart=app).window
    assistant = again.assistant
    app.qtbot.waitUntil(
        lambda: len(assistant.transcript_view.turns()) == 1, timeout=LOAD_TIMEOUT_MS
    )
    assert isinstance(assistant.transcript_view.turns()[0], KeptTurnView)
    assert "not a regular file" in assistant.transcript_view.status.text()
    assert outside.is_file() and not kept.exists()  # the link was moved aside, not followed


def test_a_restored_proposal_states_its_change_after_a_restart_R50(
    make_app: AppFactory,
) -> None:
    """Issue 38: a restored card read "proposed 0 changes in inbox/today.md" over "applied"."""
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    record = app.send("add a task: call mom")
    assert record.reply is not None and record.reply.proposals
    live = [v for v in app.window.assistant.transcript_view.turns() if isinstance(v, TurnView)]
    said = live[-1].tools.text()
    assert "proposed Add the task “call mom” in notes/a.md" in said
    app.quit()

    for kept_record in (True, False):  # with the app's record of the turn, and without it
        if not kept_record:
            for kept in (app.data_dir / KEPT_TURNS_FOLDER).iterdir():
                kept.unlink()
        again = make_app(restart=app)
        turns = again.window.assistant.transcript_view.turns
        app.qtbot.waitUntil(lambda: len(turns()) == 1, timeout=LOAD_TIMEOUT_MS)  # noqa: B023
        (view,) = turns()
        assert isinstance(view, TurnView if kept_record else KeptTurnView)
        shown = view.tools.text()
        assert "0 changes" not in shown
        assert "proposed Add the task “call mom” in notes/a.md" in shown
        again.quit()
