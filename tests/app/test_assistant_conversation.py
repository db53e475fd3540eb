"""The workspace's conversation is shown when it opens, and Clear forgets it (R34)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from app.window.main_window import MainWindow
from renderer.frames.assistant.transcript import KeptTurnView
from renderer.frames.assistant.turn_view import TurnView
from tests.app.conftest import AppFactory, AppUnderTest

WAIT_MS = 10_000


def _kept(window: MainWindow) -> list[KeptTurnView | TurnView]:
    """The turns shown: kept by the backend, restored with the app's records where it has them."""
    return [
        v
        for v in window.assistant.transcript_view.turns()
        if isinstance(v, KeptTurnView | TurnView)
    ]


def _rich(text: str) -> str:
    return escape(text).replace("\n", "<br>")


def _reopen(make_app: AppFactory, app: AppUnderTest) -> MainWindow:
    """Quit, then start the app again on the same data folder and workspace."""
    app.quit()
    return make_app(restart=app, demo_layout=False).window


def test_the_conversation_is_shown_again_when_the_app_reopens_R34(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    first = app.send("summarise this")
    second = app.send("list my notes")
    assert first.reply is not None and second.reply is not None
    window = _reopen(make_app, app)
    app.qtbot.waitUntil(lambda: len(_kept(window)) == 2, timeout=WAIT_MS)
    older, newer = _kept(window)
    assert older.message.text() == "summarise this"
    assert "(notes/a.md, edit view)" in older.reply.text()  # rendered from Markdown
    assert "read_active_note" in older.tools.text()
    assert "list_documents" in newer.tools.text()
    assert not window.assistant.welcome.isVisible()
    # The next send goes on in the same conversation.
    assert window.assistant.conversation == first.conversation


def test_each_workspace_shows_its_own_conversation_R34(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.send("summarise this")
    first = app.window.assistant
    app.switch_workspace("other")
    other = app.window.assistant
    assert other is not first and not first.isVisible()  # R45: the chat shown is "other"'s
    assert other.transcript_view.turns() == [] and other.welcome.isVisibleTo(other)
    app.send("hello")
    app.switch_workspace(app.workspace_dir.name)
    assert app.window.assistant is first
    assert [view.message.text() for view in first.transcript_view.turns()] == ["summarise this"]
    assert [view.message.text() for view in other.transcript_view.turns()] == ["hello"]
    link = app.session.link
    conversation = first.conversation
    kept = link.call(lambda client, key: client.get_conversation(key, conversation))
    assert [message.text for message in kept if message.role == "user"] == ["summarise this"]


def _answer_clear(app: AppUnderTest, button: str) -> None:
    """Click ``button`` ("Clear" or "Cancel") in Clear's question, which must be open."""
    question = app.window.assistant.clear_question
    assert isinstance(question, QMessageBox) and question.isVisible()
    assert question.defaultButton() is question.button(QMessageBox.StandardButton.Cancel)
    chosen = next(b for b in question.buttons() if b.text().replace("&", "") == button)
    QTest.mouseClick(chosen, Qt.MouseButton.LeftButton)


def test_clear_asks_first_and_cancel_keeps_the_conversation_R34(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.send("summarise this")
    assistant = app.window.assistant
    QTest.mouseClick(assistant.clear_button, Qt.MouseButton.LeftButton)
    question = assistant.clear_question
    assert question is not None and "1 message" in question.text()
    _answer_clear(app, "Cancel")
    assert assistant.clear_question is None
    assert len(assistant.transcript_view.turns()) == 1
    # Esc answers Cancel too: the question's default is the safe answer.
    QTest.mouseClick(assistant.clear_button, Qt.MouseButton.LeftButton)
    question = assistant.clear_question
    assert question is not None
    app.qtbot.waitUntil(question.isActiveWindow, timeout=WAIT_MS)
    focused = QApplication.focusWidget()
    assert focused is not None and focused.window() is question
    QTest.keyClick(focused, Qt.Key.Key_Escape)
    app.qtbot.waitUntil(lambda: assistant.clear_question is None, timeout=WAIT_MS)
    assert len(assistant.transcript_view.turns()) == 1
    link = app.session.link
    kept = link.call(lambda client, key: client.get_conversation(key, assistant.conversation))
    assert [message.text for message in kept if message.role == "user"] == ["summarise this"]


def test_clear_empties_the_view_and_forgets_the_conversation_R34(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.send("summarise this")
    assistant = app.window.assistant
    QTest.mouseClick(assistant.clear_button, Qt.MouseButton.LeftButton)
    with app.qtbot.waitSignal(assistant.conversation_cleared, timeout=WAIT_MS):
        _answer_clear(app, "Clear")
    assert assistant.transcript_view.turns() == []
    assert assistant.welcome.isVisibleTo(assistant)
    link = app.session.link
    conversation = assistant.conversation
    kept = link.call(lambda client, key: client.get_conversation(key, conversation))
    assert kept == []
    # The menu's Clear asks the same question.
    app.send("hello")
    action = next(a for a in app.window.findChildren(QAction) if a.text() == "&Clear conversation")
    action.trigger()
    with app.qtbot.waitSignal(assistant.conversation_cleared, timeout=WAIT_MS):
        _answer_clear(app, "Clear")
    assert assistant.transcript_view.turns() == []
    window = _reopen(make_app, app)
    with app.qtbot.waitSignal(window.assistant.conversation_loaded, timeout=WAIT_MS):
        pass
    assert window.assistant.transcript_view.turns() == []


def test_a_turn_sent_while_the_conversation_loads_stays_below_it_R34(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.send("summarise this")
    assistant = app.window.assistant
    with (
        app.qtbot.waitSignal(assistant.conversation_loaded, timeout=WAIT_MS),
        app.qtbot.waitSignal(assistant.turn_finished, timeout=WAIT_MS),
    ):
        assistant.load_conversation(assistant.conversation)
        assistant.send("hello")
    shown = assistant.transcript_view.turns()
    # The kept turn comes back as it was shown (R45), above the one sent meanwhile.
    assert isinstance(shown[0], TurnView) and shown[0].message.text() == "summarise this"
    assert shown[0].answered_by.text() == "Offline assistant"
    assert isinstance(shown[-1], TurnView) and shown[-1].message.text() == "hello"
    assert shown[-1].reply.text() != "…"  # its reply arrived in a view still on screen
