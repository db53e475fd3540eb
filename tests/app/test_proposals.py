"""Review and apply the assistant's proposals in the real window (R51, R52)."""

from __future__ import annotations

import shiboken6
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QLabel

from renderer.frames.assistant.proposal_view import APPLIED, UNDONE, ProposalView
from renderer.frames.assistant.transcript import KeptTurnView
from renderer.frames.assistant.turn_view import TurnView
from tests.app.conftest import AppFactory, AppUnderTest

TIMEOUT_MS = 10_000
NOTE = "# A\nalpha line\n- [ ] first task\n- [x] done task\n"
TICKED = NOTE.replace("- [ ] first", "- [x] first")


def _proposal(app: AppUnderTest, message: str = "tick off the first task") -> ProposalView:
    record = app.send(message)
    assert record.reply is not None and len(record.reply.proposals) == 1
    (view,) = app.window.assistant.latest_proposals
    app.qtbot.waitUntil(lambda: view.state == "ready", timeout=TIMEOUT_MS)
    return view


def test_r51_r52_the_diff_shows_the_touched_line_and_apply_is_one_undo_step(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    assert frame.read_text() == NOTE  # R51: nothing changes before Apply
    html = view.diff.text()
    assert "- [ ] first task" in html and "- [x] first task" in html and ">3<" in html
    view.apply_button.click()
    assert view.state == "applied"
    assert frame.read_text() == TICKED
    frame.editor.undo()  # R52: Ctrl+Z restores exactly
    assert frame.read_text() == NOTE
    frame.editor.redo()
    app.qtbot.waitUntil(lambda: app.saved_text("notes/a.md") == TICKED, timeout=TIMEOUT_MS)


def test_r52_typing_inside_the_edited_text_refuses_and_keeps_the_proposal(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    inside = NOTE.index("[ ]") + 1  # the mark the edit replaces
    frame.type_text("!", at=inside)
    typed = frame.read_text()
    view.apply_button.click()
    assert view.state == "conflict" and "nothing was applied" in view.status.text()
    assert frame.read_text() == typed  # the keystroke is not lost, nothing else changed
    assert view.apply_button.isEnabled()  # the proposal stays


def test_r52_typing_elsewhere_survives_and_the_edit_moves_with_it(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    frame.type_text("Intro\n", at=0)
    view.apply_button.click()
    assert view.state == "applied"
    assert frame.read_text() == "Intro\n" + TICKED


def test_r80_undo_makes_the_card_undone_and_apply_works_again(make_app: AppFactory) -> None:
    """The card follows the note: Ctrl+Z says "Undone" and Apply is usable again."""
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    view.apply_button.click()
    assert view.state == "applied" and view.status.text() == APPLIED
    assert not view.apply_button.isEnabled() and not view.discard_button.isEnabled()
    frame.type_text("Intro\n", at=0)  # typing after Apply is undone first
    frame.editor.undo()
    assert view.state == "applied"
    frame.editor.undo()
    assert frame.read_text() == NOTE
    assert view.state == "undone" and view.status.text() == UNDONE
    assert view.apply_button.isEnabled() and view.discard_button.isEnabled()
    frame.editor.redo()  # Ctrl+Y puts the change back: the card says so again
    assert view.state == "applied" and frame.read_text() == TICKED
    frame.editor.undo()
    assert view.state == "undone"
    frame.type_text("Intro\n", at=0)  # the redo is gone: the card stays Undone
    assert view.state == "undone"
    view.apply_button.click()  # re-checked against the note as it is now (R52)
    assert view.state == "applied" and frame.read_text() == "Intro\n" + TICKED
    frame.editor.undo()
    assert view.state == "undone" and frame.read_text() == "Intro\n" + NOTE


def test_r80_the_conversation_keeps_undone_and_a_reopened_one_says_so(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    view.apply_button.click()
    frame.editor.undo()
    frame.editor.redo()
    frame.editor.undo()  # faster than the reports: the last one must win
    assert view.state == "undone"
    app.qtbot.waitUntil(lambda: _kept_outcomes(app) == ["undone"], timeout=TIMEOUT_MS)
    runner = app.session.runner
    app.qtbot.waitUntil(lambda: not runner.busy, timeout=TIMEOUT_MS)
    assert _kept_outcomes(app) == ["undone"]
    app.quit()
    window = make_app(restart=app, demo_layout=False).window

    def shown() -> list[str]:
        return [
            label.text()
            for view in window.assistant.transcript_view.turns()
            for label in view.findChildren(QLabel, "keptProposals")
        ]

    app.qtbot.waitUntil(lambda: len(shown()) == 1, timeout=TIMEOUT_MS)
    assert shown()[0].endswith("(notes/a.md): undone")


def test_r51_discard_changes_nothing(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    view.discard_button.click()
    assert view.state == "discarded" and not view.apply_button.isEnabled()
    assert frame.read_text() == NOTE


def test_r52_a_note_no_frame_shows_is_changed_in_its_saved_copy(make_app: AppFactory) -> None:
    app = make_app()
    view = _proposal(app, "tick off the first task in notes/a.md")
    with app.qtbot.waitSignal(app.window.window_frames.proposals.finished, timeout=TIMEOUT_MS):
        view.apply_button.click()
    assert view.state == "applied" and view.applied_to is None
    assert app.saved_text("notes/a.md") == TICKED


def test_r52_a_proposal_never_applies_after_the_workspace_boundary(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    first = app.session.workspace
    app.switch_workspace("other")
    with app.qtbot.waitSignal(app.window.window_frames.proposals.finished, timeout=TIMEOUT_MS):
        view.apply_button.click()
    assert view.state == "conflict" and first in view.status.text()
    assert app.saved_text("notes/a.md") == NOTE  # the first workspace's note is untouched


def _kept_outcomes(app: AppUnderTest) -> list[str]:
    conversation = app.window.assistant.conversation
    messages = app.session.link.call(lambda client, key: client.get_conversation(key, conversation))
    return [proposal.outcome for message in messages for proposal in message.proposals]


def test_r50_the_conversation_keeps_whether_each_proposal_was_applied(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    applied = _proposal(app)
    applied.apply_button.click()
    assert frame.read_text() == TICKED
    app.qtbot.waitUntil(lambda: _kept_outcomes(app) == ["applied"], timeout=TIMEOUT_MS)
    discarded = _proposal(app, "untick done task")
    discarded.discard_button.click()
    app.qtbot.waitUntil(lambda: _kept_outcomes(app) == ["applied", "discarded"], timeout=TIMEOUT_MS)
    app.quit()
    window = make_app(restart=app, demo_layout=False).window

    def shown() -> list[str]:
        return [
            label.text()
            for view in window.assistant.transcript_view.turns()
            for label in view.findChildren(QLabel, "keptProposals")
            if isinstance(view, KeptTurnView | TurnView)
        ]

    app.qtbot.waitUntil(lambda: len(shown()) == 2, timeout=TIMEOUT_MS)
    first, second = shown()
    assert first.startswith("Proposed: ") and first.endswith("(notes/a.md): applied")
    assert second.endswith("(notes/a.md): discarded")
    assert "- [x]" not in first + second  # what it was, never the proposed text


def test_r51_r52_typing_while_the_base_is_found_off_the_gui_thread_is_looked_at_again(
    make_app: AppFactory,
) -> None:
    """The live text is hashed on a worker; a keystroke meanwhile makes the review look again."""
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    record = app.send("tick off the first task")
    assert record.reply is not None and len(record.reply.proposals) == 1
    (view,) = app.window.assistant.latest_proposals
    assert view.state == "waiting"  # the digest is still being made off the GUI thread
    frame.type_text("Intro\n", at=0)
    app.qtbot.waitUntil(lambda: view.state == "ready", timeout=TIMEOUT_MS)
    view.apply_button.click()
    assert view.state == "applied"
    assert frame.read_text() == "Intro\n" + TICKED


def test_r51_a_proposal_closed_while_its_base_is_found_is_left_alone(
    make_app: AppFactory,
) -> None:
    """The review's window may close before the worker finds the base: nothing breaks."""
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    record = app.send("tick off the first task")
    assert record.reply is not None and len(record.reply.proposals) == 1
    (view,) = app.window.assistant.latest_proposals
    assert view.state == "waiting"
    shiboken6.delete(view)  # as a closed review window's deleteLater does
    runner = app.session.runner
    app.qtbot.waitUntil(lambda: not runner.busy, timeout=TIMEOUT_MS)
    QApplication.processEvents()  # the worker's answer arrives for a view that is gone
    assert not shiboken6.isValid(view)


def test_r80_a_used_button_looks_disabled(make_app: AppFactory) -> None:
    """A disabled button is drawn greyed, never as the enabled one (R80)."""
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    view = _proposal(app)
    button = view.apply_button
    app.qtbot.waitUntil(lambda: button.height() >= button.sizeHint().height())  # laid out
    enabled = button.grab().toImage()
    button.click()
    assert not button.isEnabled()
    disabled = button.grab().toImage()
    assert _darkest(disabled) > _darkest(enabled) + 60  # the label is greyed


def _darkest(image: QImage) -> int:
    """The lightness of the darkest pixel: the button's label (its border is lighter)."""
    return min(
        image.pixelColor(x, y).lightness()
        for x in range(image.width())
        for y in range(image.height())
    )


def test_r80_the_tools_under_a_reply_read_as_sentences_never_json(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    _proposal(app)
    (view,) = [turn for turn in app.window.assistant.transcript_view.turns()][-1:]
    assert isinstance(view, TurnView)
    shown = view.tools.text()
    assert "read_active_note — read the open note" in shown
    assert "propose_note_edit — proposed Tick “first task” in notes/a.md" in shown
    assert "{" not in shown and "oldText" not in shown
