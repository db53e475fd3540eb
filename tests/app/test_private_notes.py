"""R86, contract 14, in the real window: the lock, the chip, a send, the inline command, marking.

A person keeps ``notes/secret.md`` from the assistant in ``.aiexclude``; its unique
word must not appear in any byte the window sends (checked on the wire, through a
recording relay in front of a backend process), and the window says plainly that
the note is private. Marking and unmarking goes through the lock in the frame's
title bar and the workspace list's menu, with clicks and keys as a person gives them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from bridge.privacy import AIEXCLUDE, CHIP_PRIVATE, KEEP_PRIVATE, SHARE
from renderer.ambient.turns import TurnRecord
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.inbox.inline_prompt import PRIVATE_REFUSED
from renderer.frames.providers import WorkspaceBrowserFrame
from tests.app.conftest import LOAD_TIMEOUT_MS, TURN_TIMEOUT_MS, AppFactory, AppUnderTest
from tests.app.wired import WiredApp, wired_app
from tests.support.backend import RunningBackend, start_backend_process

SECRET = "wombatlantern5519"
NOTES = {
    "notes/a.md": "# Shared\nalpha line\n",
    "notes/secret.md": f"# Secret plans\nThe {SECRET} code is 4411.\n",
    AIEXCLUDE: "/notes/secret.md\n",
}


def _send_by_typing(app: AppUnderTest | WiredApp, message: str) -> TurnRecord:
    """Type the message in the assistant's input and press Enter, as a person does."""
    assistant = app.window.assistant
    assistant.input.setFocus()
    QTest.keyClicks(assistant.input, message)
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=TURN_TIMEOUT_MS) as blocker:
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)
    record = blocker.args[0]
    assert isinstance(record, TurnRecord)
    return record


def _ask_inline(app: AppUnderTest | WiredApp, frame: InboxFrame, instruction: str) -> None:
    """Select the first line, Ctrl+I, type the instruction, Enter."""
    frame.editor.setFocus()
    QTest.keyClick(frame.editor, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(frame.editor, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(frame.editor, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    prompt = frame.inline.prompt
    app.qtbot.waitUntil(prompt.isVisible)
    QTest.keyClicks(prompt.instruction, instruction)
    QTest.keyClick(prompt.instruction, Qt.Key.Key_Return)


def test_r86_the_chip_the_lock_a_send_and_the_inline_command_on_a_private_note(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    secret = app.mount("inbox-1", "notes/secret.md")
    chip = app.window.assistant.context_chip
    assert CHIP_PRIVATE in chip.label.text()
    lock = secret.privacy_lock
    assert lock is not None and lock.button.text() == "Private"
    assert lock.button.accessibleName() == SHARE
    record = _send_by_typing(app, "summarise this")
    assert record.dropped == "private" and record.capture.header is None
    assert record.reply is not None
    assert "private" in record.reply.reply and SECRET not in record.reply.reply
    named = _send_by_typing(app, "summarise notes/secret.md")
    assert named.reply is not None and SECRET not in named.reply.reply
    assert "private" in named.reply.reply
    _ask_inline(app, secret, "make this shorter")
    assert secret.inline.request is None  # refused before anything was built or sent
    assert secret.inline.prompt.status.text() == PRIVATE_REFUSED
    history = app.session.link.call(lambda client, key: client.inline_history(key, 10))
    assert history == []
    # Nothing of the note is kept in the data folder: database, journals, turn records, layout.
    for kept in app.data_dir.rglob("*"):
        if kept.is_file() and not kept.is_symlink():
            assert SECRET.encode() not in kept.read_bytes(), kept


def test_r86_marking_and_unmarking_from_the_lock_edits_aiexclude(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-2", "notes/a.md")
    lock = frame.privacy_lock
    assert lock is not None and lock.button.accessibleName() == KEEP_PRIVATE
    chip = app.window.assistant.context_chip
    assert CHIP_PRIVATE not in chip.label.text()
    app.qtbot.mouseClick(lock.button, Qt.MouseButton.LeftButton)
    app.qtbot.waitUntil(lambda: lock.button.text() == "Private", timeout=LOAD_TIMEOUT_MS)
    aiexclude = app.workspace_dir / AIEXCLUDE
    assert "/notes/a.md" in aiexclude.read_text(encoding="utf-8")
    assert "/notes/secret.md" in aiexclude.read_text(encoding="utf-8")  # the rest is kept
    assert CHIP_PRIVATE in chip.label.text()
    assert _send_by_typing(app, "summarise this").dropped == "private"
    app.qtbot.mouseClick(lock.button, Qt.MouseButton.LeftButton)
    app.qtbot.waitUntil(lambda: lock.button.text() == "", timeout=LOAD_TIMEOUT_MS)
    assert "/notes/a.md" not in aiexclude.read_text(encoding="utf-8")
    record = _send_by_typing(app, "summarise this")
    assert record.dropped is None and record.capture.pointer is not None


def test_r86_a_hand_edit_applies_from_the_next_send_and_shows_by_itself(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    frame = app.mount("inbox-1", "notes/a.md")
    assert _send_by_typing(app, "hello").dropped is None
    (app.workspace_dir / AIEXCLUDE).write_text("notes/\n", encoding="utf-8")
    assert _send_by_typing(app, "hello").dropped == "private"  # at once: no wait for the watch
    lock = frame.privacy_lock
    assert lock is not None
    app.qtbot.waitUntil(lambda: lock.button.text() == "Private", timeout=LOAD_TIMEOUT_MS)


def test_r86_an_unreadable_aiexclude_says_why_and_keeps_every_note_private(
    make_app: AppFactory,
) -> None:
    app = make_app({"notes/a.md": "# A\nalpha\n"})
    app.mount("inbox-1", "notes/a.md")
    (app.workspace_dir / AIEXCLUDE).mkdir()  # a folder where the file should be
    banners = app.window.banners

    def banner_says_why() -> bool:
        return any(".aiexclude can't be read" in banner.label.text() for banner in banners.banners)

    app.qtbot.waitUntil(banner_says_why, timeout=LOAD_TIMEOUT_MS)
    assert _send_by_typing(app, "summarise this").dropped == "private"
    (app.workspace_dir / AIEXCLUDE).rmdir()
    app.qtbot.waitUntil(lambda: not banner_says_why(), timeout=LOAD_TIMEOUT_MS)
    assert _send_by_typing(app, "summarise this").dropped is None


def _menu_choice(app: AppUnderTest, browser: WorkspaceBrowserFrame, path: str, starts: str) -> None:
    """Right-click the note in the list, then pick the entry that starts with ``starts``.

    The click goes through the window, as the platform delivers it: Qt makes the context
    menu event from the press there. The entry is picked with the keyboard.
    """
    items = browser.list.findItems(path, Qt.MatchFlag.MatchExactly)
    assert items
    rect = browser.list.visualItemRect(items[0])
    where = browser.list.viewport().mapTo(app.window, rect.center())
    handle = app.window.windowHandle()
    right, none = Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier
    QTest.mouseMove(handle, where)
    QTest.mousePress(handle, right, none, where)
    QTest.mouseRelease(handle, right, none, where)

    def shown() -> list[QMenu]:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible()]

    app.qtbot.waitUntil(lambda: bool(shown()))
    (menu,) = shown()
    chosen = [action for action in menu.actions() if action.text().startswith(starts)]
    assert chosen, [action.text() for action in menu.actions()]
    menu.setActiveAction(chosen[0])
    QTest.keyClick(menu, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: not shown())


def _browser(app: AppUnderTest) -> WorkspaceBrowserFrame:
    browser = app.window.driver.mount_provider("files", "workspace")
    assert isinstance(browser, WorkspaceBrowserFrame)
    app.qtbot.waitUntil(lambda: browser.list.count() >= 2, timeout=LOAD_TIMEOUT_MS)
    return browser


def test_r86_the_workspace_list_keeps_a_folder_private(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    browser = _browser(app)
    secret_item = browser.list.findItems("notes/secret.md", Qt.MatchFlag.MatchExactly)[0]
    shared_item = browser.list.findItems("notes/a.md", Qt.MatchFlag.MatchExactly)[0]
    assert not secret_item.icon().isNull() and shared_item.icon().isNull()  # the lock
    _menu_choice(app, browser, "notes/a.md", f"{KEEP_PRIVATE}: the folder notes/")
    aiexclude = app.workspace_dir / AIEXCLUDE
    app.qtbot.waitUntil(
        lambda: "/notes/\n" in aiexclude.read_text(encoding="utf-8"), timeout=LOAD_TIMEOUT_MS
    )
    app.qtbot.waitUntil(lambda: not shared_item.icon().isNull(), timeout=LOAD_TIMEOUT_MS)
    assert browser.is_private("notes/a.md")


def test_r86_the_workspace_list_shares_a_note_again(make_app: AppFactory) -> None:
    app = make_app(NOTES)
    browser = _browser(app)
    _menu_choice(app, browser, "notes/secret.md", SHARE)
    secret_item = browser.list.findItems("notes/secret.md", Qt.MatchFlag.MatchExactly)[0]
    app.qtbot.waitUntil(lambda: secret_item.icon().isNull(), timeout=LOAD_TIMEOUT_MS)
    assert not browser.is_private("notes/secret.md")
    assert "/notes/secret.md" not in (app.workspace_dir / AIEXCLUDE).read_text(encoding="utf-8")


# -- on the wire: a backend process behind a recording relay (the remote-backend path) ------


@pytest.fixture(scope="module")
def backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningBackend]:
    with start_backend_process(tmp_path_factory.mktemp("backend")) as running:
        yield running


@pytest.fixture
def wired(backend: RunningBackend, qtbot: QtBot, tmp_path: Path) -> Iterator[WiredApp]:
    with wired_app(backend, qtbot, tmp_path, NOTES) as app:
        yield app


def test_r86_no_byte_of_a_private_note_leaves_the_window_for_the_assistant(
    wired: WiredApp,
) -> None:
    secret = wired.mount("inbox-1", "notes/secret.md")
    assert CHIP_PRIVATE in wired.window.assistant.context_chip.label.text()
    asks = (
        "summarise this",
        "summarise notes/secret.md",
        f"which notes mention {SECRET[:6]}?",
        "list my notes",
        "/tool read_document " + '{"path": "notes/secret.md"}',
    )
    records = [_send_by_typing(wired, ask) for ask in asks]
    assert records[0].dropped == "private"
    _ask_inline(wired, secret, "translate this")
    assert secret.inline.prompt.status.text() == PRIVATE_REFUSED
    sent = wired.relay.requests()
    turns = [r for r in sent if r.method == "POST" and r.target == "/v1/agent/turns"]
    assert len(turns) == len(asks)
    for request in sent:
        if request.method == "GET" and "/documents/" in request.target:
            continue  # the document API serves the app itself (contract 14)
        assert SECRET.encode() not in request.head + request.body, request.target
        assert request.header("X-Ambient-Note") == [], request.target
    assert not [r for r in sent if "/inline" in r.target and r.method == "POST"]
    replies = [record.reply.reply for record in records if record.reply is not None]
    assert len(replies) == len(asks)
    assert all(SECRET not in reply for reply in replies)
    assert sum("private" in reply for reply in replies) >= 4


def test_r86_a_large_changed_aiexclude_is_read_off_the_gui_thread_failing_closed_meanwhile(
    make_app: AppFactory,
) -> None:
    app = make_app(NOTES)
    app.mount("inbox-1", "notes/a.md")
    marks = app.session.privacy_marks
    lines = "".join(f"archive-{n:04d}/**/*.md\n" for n in range(900))  # ~25 KiB, 900 patterns
    (app.workspace_dir / AIEXCLUDE).write_text(lines + "/notes/secret.md\n", encoding="utf-8")
    started = time.perf_counter()
    rules = marks.rules()  # what the GUI thread asks at a send
    assert time.perf_counter() - started < 0.1  # R67: nothing compiled here
    assert rules.is_private("notes/a.md")  # fail closed until the worker has read it
    app.qtbot.waitUntil(lambda: not marks.rules().is_private("notes/a.md"), timeout=30_000)
    assert marks.rules().is_private("notes/secret.md")
    assert _send_by_typing(app, "summarise this").dropped is None


def test_r86_the_starting_layout_opens_notes_not_the_aiexclude_list(make_app: AppFactory) -> None:
    app = make_app(NOTES, demo_layout=True)
    registry = app.window.registry
    app.qtbot.waitUntil(lambda: "inbox-2" in registry.frames, timeout=LOAD_TIMEOUT_MS)
    opened = [frame.path for frame in registry.inbox_frames()]
    assert opened == ["notes/a.md", "notes/secret.md"]


def test_r86_with_a_remote_backend_the_lock_edits_aiexclude_through_the_document_api(
    wired: WiredApp, backend: RunningBackend
) -> None:
    frame = wired.mount("inbox-1", "notes/a.md")
    lock = frame.privacy_lock
    assert lock is not None and lock.button.isEnabled() and lock.button.text() == ""
    wired.qtbot.mouseClick(lock.button, Qt.MouseButton.LeftButton)
    wired.qtbot.waitUntil(lambda: lock.button.text() == "Private", timeout=LOAD_TIMEOUT_MS)
    folder = backend.data_dir / "workspaces" / wired.session.workspace
    assert (folder / AIEXCLUDE).read_text(encoding="utf-8") == "/notes/secret.md\n/notes/a.md\n"
    assert _send_by_typing(wired, "summarise this").dropped == "private"
    wired.qtbot.mouseClick(lock.button, Qt.MouseButton.LeftButton)
    wired.qtbot.waitUntil(lambda: lock.button.text() == "", timeout=LOAD_TIMEOUT_MS)
    assert (folder / AIEXCLUDE).read_text(encoding="utf-8") == "/notes/secret.md\n"
