"""The Inline AI command in the real window, over the real backend (R68, R69, R71, R72, R73)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication

from app.popout.window import PopoutWindow
from bridge.wire import InlineAnswer
from renderer.frames.inbox.frame import InboxFrame
from tests.app.conftest import AppFactory, AppUnderTest
from tests.support.scripted_model import MODEL_ID, scripted_model, text

TIMEOUT_MS = 10_000
NOTE = "# A\nalpha line\n- [ ] first task\n- [ ] second task\nlast line\n"
TASKS = "- [ ] first task\n- [ ] second task\n"
TICKED = "- [x] first task\n- [x] second task\n"


def _app(make_app: AppFactory) -> tuple[AppUnderTest, InboxFrame]:
    app = make_app({"notes/a.md": NOTE, "notes/b.md": "# B\n"})
    frame = app.mount("inbox-1", "notes/a.md")
    return app, frame


def _select(frame: InboxFrame, text: str) -> None:
    start = frame.read_text().index(text)
    frame.select(start, start + len(text))


def _shown_lines(frame: InboxFrame) -> dict[int, QRect]:
    """Each line the editor shows now: its number (1-based) and its place in the editor."""
    editor = frame.editor
    viewport = editor.viewport()
    offset = editor.contentOffset()
    shown: dict[int, QRect] = {}
    block = editor.firstVisibleBlock()
    while block.isValid():
        area = editor.blockBoundingGeometry(block).translated(offset).toRect()
        if area.top() >= viewport.height():
            break
        if area.bottom() >= 0:
            # What the viewport shows of it: a line cut at the bottom edge is cut there.
            shown[block.blockNumber() + 1] = area.translated(viewport.pos()).intersected(
                viewport.geometry()
            )
        block = block.next()
    return shown


def _assert_covers_no_text(frame: InboxFrame) -> None:
    prompt = frame.inline.prompt.geometry()
    for number, area in _shown_lines(frame).items():
        assert not area.intersects(prompt), f"the prompt covers line {number}"


def _ask(app: AppUnderTest, frame: InboxFrame, instruction: str) -> object:
    """Type the instruction into the open prompt and press Enter; the answer."""
    prompt = frame.inline.prompt
    app.qtbot.keyClicks(prompt.instruction, instruction)
    with app.qtbot.waitSignal(frame.inline.answered, timeout=TIMEOUT_MS) as blocker:
        app.qtbot.keyClick(prompt.instruction, Qt.Key.Key_Return)
    return blocker.args[0]


def test_r68_r71_r72_ctrl_i_enter_review_accept_and_one_undo(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    _select(frame, TASKS)
    frame.editor.setFocus()
    app.qtbot.keyClick(frame.editor, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    prompt = frame.inline.prompt
    assert frame.inline.state == "asking" and prompt.isVisible()
    assert QApplication.focusWidget() is prompt.instruction
    # Under the selection, inside the frame's editor, over none of its text.
    assert prompt.parentWidget() is frame.editor
    _assert_covers_no_text(frame)
    answer = _ask(app, frame, "tick these")
    assert isinstance(answer, InlineAnswer) and answer.replacement == TICKED
    # R69: what was sent, the selected lines apart from the lines around them (issue 38);
    # the whole small note fits.
    assert prompt.sent.text() == (
        f"Sent lines 3–4 (with 3 lines around them) of notes/a.md ({len(NOTE)} bytes)"
    )
    # R71: shown as a change, nothing changed before Accept.
    assert frame.read_text() == NOTE
    html = prompt.review.toHtml()
    assert "line-through" in html and "- [x] first task" in html
    assert frame.editor.extraSelections()[0].format.fontStrikeOut()
    app.qtbot.keyClick(prompt.accept_button, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert frame.inline.last_outcome == "accepted" and not prompt.isVisible()
    assert frame.read_text() == NOTE.replace(TASKS, TICKED)
    assert frame.editor.extraSelections() == []
    frame.editor.undo()  # R72: one undo step restores exactly
    assert frame.read_text() == NOTE
    app.qtbot.waitUntil(lambda: _outcomes(app, frame) == ["accepted"], timeout=TIMEOUT_MS)


def _outcomes(app: AppUnderTest, frame: InboxFrame) -> list[str]:
    records = frame.link.call(lambda client, key: client.inline_history(key, 10))
    return [record.outcome for record in records]


def test_r72_typing_elsewhere_and_at_the_edges_is_kept_and_the_change_moves(
    make_app: AppFactory,
) -> None:
    app, frame = _app(make_app)
    _select(frame, TASKS)
    assert frame.ask_ai()
    app.qtbot.keyClicks(frame.inline.prompt.instruction, "tick these")
    with app.qtbot.waitSignal(frame.inline.answered, timeout=TIMEOUT_MS):
        assert frame.inline.send()
        # While the request runs: typing before the note, at both edges of the selection.
        frame.type_text("intro\n", at=0)
        start = frame.read_text().index(TASKS)
        frame.type_text(">", at=start)
        frame.type_text("<", at=start + 1 + len(TASKS))
    assert frame.inline.accept()
    assert frame.read_text() == "intro\n" + NOTE.replace(TASKS, ">" + TICKED + "<")


def test_r72_a_changed_selection_refuses_accept_and_loses_nothing(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    _select(frame, TASKS)
    frame.ask_ai()
    _ask(app, frame, "tick these")
    inside = frame.read_text().index("first")
    frame.type_text("very ", at=inside)
    typed = frame.read_text()
    assert not frame.inline.accept()
    assert frame.inline.last_outcome == "refused"
    assert "nothing was replaced" in frame.inline.prompt.status.text()
    assert frame.read_text() == typed
    frame.inline.reject()
    assert frame.read_text() == typed


def test_r68_r71_esc_closes_and_reject_changes_nothing(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    _select(frame, "alpha line")
    frame.ask_ai()
    app.qtbot.keyClick(frame.inline.prompt.instruction, Qt.Key.Key_Escape)
    assert frame.inline.state == "closed" and frame.read_text() == NOTE
    frame.ask_ai()
    _ask(app, frame, "upper case")
    app.qtbot.keyClick(frame.inline.prompt.accept_button, Qt.Key.Key_Escape)
    assert frame.inline.last_outcome == "rejected" and frame.read_text() == NOTE
    app.qtbot.waitUntil(lambda: _outcomes(app, frame) == ["rejected"], timeout=TIMEOUT_MS)


def test_r71_try_again_edits_the_instruction_and_asks_again(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    _select(frame, "alpha line")
    frame.ask_ai()
    first = _ask(app, frame, "upper case")
    assert isinstance(first, InlineAnswer) and first.replacement == "ALPHA LINE"
    frame.inline.prompt.retry_button.click()
    instruction = frame.inline.prompt.instruction
    assert not instruction.isReadOnly() and instruction.selectedText() == "upper case"
    instruction.clear()
    second = _ask(app, frame, "make it bold")
    assert isinstance(second, InlineAnswer) and second.replacement == "**alpha line**"
    assert frame.inline.accept()
    assert frame.read_text() == NOTE.replace("alpha line", "**alpha line**")


def test_r69_a_selection_over_16_kib_is_refused_before_sending(make_app: AppFactory) -> None:
    big = "# Big\n" + "x" * 20_000 + "\n"
    app = make_app({"notes/big.md": big})
    frame = app.mount("inbox-1", "notes/big.md")
    frame.select(0, len(big))
    frame.ask_ai()
    frame.inline.prompt.instruction.setText("sort")
    assert not frame.inline.send()
    assert "16 KiB" in frame.inline.prompt.status.text()
    assert frame.inline.state == "asking" and frame.inline.request is None
    assert frame.inline.prompt.status.isVisible()  # said where the person looks
    assert _outcomes(app, frame) == []  # nothing reached the backend


def test_r70_a_refusal_is_said_in_plain_words_with_try_again(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    _select(frame, "alpha line")
    frame.ask_ai()
    answer = _ask(app, frame, "translate this into Latin")
    assert isinstance(answer, InlineAnswer) and answer.is_refusal
    prompt = frame.inline.prompt
    assert frame.inline.state == "said" and prompt.retry_button.isVisible()
    assert prompt.status.text().startswith("Offline I can") and not prompt.accept_button.isVisible()


def test_r68_the_editor_menu_and_the_edit_menu_offer_the_command(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    menu = frame.editor_menu(QPoint(5, 5))
    assert "Ask AI about the selection…" in [action.text() for action in menu.actions()]
    menu.deleteLater()
    edit_menu = [
        action.menu() for action in app.window.menuBar().actions() if action.text() == "&Edit"
    ]
    assert edit_menu, "the main window has an Edit menu"
    assert app.window.ask_ai_action.text().startswith("Ask AI about the selection…")
    frame.editor.setFocus()
    app.window.ask_ai_action.trigger()
    assert frame.inline.state == "asking"


def test_r73_the_prompts_history_menu_lists_the_latest_requests(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    _select(frame, "alpha line")
    frame.ask_ai()
    _ask(app, frame, "upper case")
    frame.inline.reject()
    app.qtbot.waitUntil(lambda: _outcomes(app, frame) == ["rejected"], timeout=TIMEOUT_MS)
    frame.ask_ai()
    with app.qtbot.waitSignal(frame.inline.history_loaded, timeout=TIMEOUT_MS):
        frame.inline.load_history()
    texts = [action.text() for action in frame.inline.prompt.history_menu.actions()]
    assert texts == [
        "upper case — notes/a.md:1–5 (rejected)",
        "",  # the separator
        "Clear the inline history of this workspace",
    ]
    with app.qtbot.waitSignal(frame.inline.history_loaded, timeout=TIMEOUT_MS):
        frame.inline.prompt.history_menu.actions()[-1].trigger()
    assert _outcomes(app, frame) == []


def test_r68_r29_the_command_works_in_a_popped_out_window(make_app: AppFactory) -> None:
    app, _frame = _app(make_app)
    popout = PopoutWindow(app.session.link, "inbox-9", "notes/b.md", "edit")
    try:
        popout.show()
        app.qtbot.waitUntil(lambda: popout.frame.is_loaded, timeout=TIMEOUT_MS)
        frame = popout.frame
        frame.select(0, 3)  # "# B"
        frame.editor.setFocus()
        popout.ask_ai_action.trigger()  # its own Edit menu
        assert frame.inline.state == "asking"
        answer = _ask(app, frame, "make it bold")
        assert isinstance(answer, InlineAnswer) and answer.replacement == "# **B**"
        assert frame.inline.prompt.sent.text() == "Sent line 1 of notes/b.md (4 bytes)"
        app.qtbot.keyClick(frame.inline.prompt.accept_button, Qt.Key.Key_Return)  # Enter
        assert frame.inline.last_outcome == "accepted"
        assert frame.read_text() == "# **B**\n"
    finally:
        popout.close()
        app.qtbot.waitUntil(lambda: not popout.isVisible())
        popout.shutdown_workers()
        popout.deleteLater()


def test_r71_r72_the_answer_streams_into_the_review_while_typing_goes_on(
    make_app: AppFactory,
) -> None:
    app, frame = _app(make_app)
    release = threading.Event()
    with scripted_model() as model:
        try:
            pieces = ["- [x] first task\n", "- [x] second task\n"]
            model.then(text(TICKED, pieces=pieces, hold_after_first_piece=release))
            app.session.client().set_assistant(model.url, MODEL_ID, None)
            _select(frame, TASKS)
            frame.ask_ai()
            frame.inline.prompt.instruction.setText("tick these")
            assert frame.inline.send()
            review = frame.inline.prompt.review
            app.qtbot.waitUntil(
                lambda: "- [x] first task" in review.toPlainText(), timeout=TIMEOUT_MS
            )
            assert frame.inline.state == "running"
            assert "second task" not in review.toPlainText().split("- [x] first task")[-1]
            frame.type_text("typed while it streams\n", at=0)  # the GUI thread is free
            assert frame.read_text().startswith("typed while it streams\n")
        finally:
            release.set()
        app.qtbot.waitUntil(lambda: frame.inline.state == "review", timeout=TIMEOUT_MS)
        assert frame.inline.accept()
        assert frame.read_text() == "typed while it streams\n" + NOTE.replace(TASKS, TICKED)
        (asked,) = model.chat_requests
        assert asked.body["stream"] is True and "tools" not in asked.body
        app.session.client().set_assistant(None, None, None)


def test_r72_closing_the_frame_while_a_request_runs_loses_nothing(make_app: AppFactory) -> None:
    app, frame = _app(make_app)
    release = threading.Event()
    with scripted_model() as model:
        try:
            model.then(
                text(TICKED, pieces=[TICKED[:5], TICKED[5:]], hold_after_first_piece=release)
            )
            app.session.client().set_assistant(model.url, MODEL_ID, None)
            _select(frame, TASKS)
            frame.ask_ai()
            assert frame.inline.send("tick these")
            review = frame.inline.prompt.review
            app.qtbot.waitUntil(lambda: bool(review.toPlainText()), timeout=TIMEOUT_MS)
            stream = frame.inline._stream
            assert stream is not None
            with app.qtbot.waitSignal(stream.finished, timeout=TIMEOUT_MS):
                app.window.driver.close_frame(
                    "inbox-1"
                )  # Esc-like: the request stops, nothing lands
        finally:
            release.set()
        assert app.saved_text("notes/a.md") == NOTE
        app.session.client().set_assistant(None, None, None)


SHOPPING = (
    "".join(f"note line {n}\n" for n in range(1, 20))
    + "## Shopping\n"
    + "".join(f"- [ ] item {n}\n" for n in range(21, 26))
    + "".join(f"later line {n}\n" for n in range(26, 60))
)


def test_the_prompt_sits_under_the_selection_and_covers_no_line_of_the_note(
    make_app: AppFactory,
) -> None:
    """Issue 38: on lines 21–25 it sat on the line above, over the "## Shopping" heading."""
    app = make_app({"notes/list.md": SHOPPING})
    frame = app.mount("inbox-1", "notes/list.md")
    app.window.resize(1100, 700)
    first = SHOPPING.index("- [ ] item 21")
    last = SHOPPING.index("later line 26")
    frame.select(first, last)  # lines 21–25, their line break included
    frame.editor.setFocus()
    app.qtbot.keyClick(frame.editor, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    prompt = frame.inline.prompt
    assert prompt.isVisible()
    shown = _shown_lines(frame)
    assert {20, 21, 25} <= set(shown), sorted(shown)  # the heading and the selection show
    assert prompt.geometry().top() > shown[25].bottom()  # under the selection's last line
    _assert_covers_no_text(frame)
    answer = _ask(app, frame, "tick these")
    assert isinstance(answer, InlineAnswer)
    assert prompt.sent.text().startswith("Sent lines 21–25 (with ")
    assert " lines around them) of notes/list.md" in prompt.sent.text()
    # The review grew the prompt: still over no line, the selection still right above it.
    _assert_covers_no_text(frame)
    shown = _shown_lines(frame)
    assert 25 in shown and prompt.geometry().top() > shown[25].bottom()
    app.qtbot.keyClick(prompt.instruction, Qt.Key.Key_Escape)
    assert not prompt.isVisible() and frame.editor.viewportMargins().bottom() == 0
