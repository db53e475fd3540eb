"""The first note shows before the embedded backend has started, and nothing typed is lost.

Issue 33: the window shows the real, editable Inbox frame with the note read from
the workspace folder, tagged with its bytes' ETag; the backend's imports and start
come after (:meth:`AppSession.start_backend`). Saves wait until the backend answers,
and the first one is conditional on the ETag read (R53), so a change made on disk
meanwhile takes the normal conflict path. A remote backend keeps today's path (R16).
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.session import AppSession, SessionError, SessionOptions
from app.window.main_window import MainWindow
from bridge.documents import etag_of
from bridge.environment import DEVICE_TOKEN_ENV, SWEEP_SECONDS_ENV
from renderer.frames.assistant.frame import STARTING_NAME
from renderer.frames.inbox.frame import InboxFrame
from workers.server import EmbeddedServer
from workers.settings import Settings

NOTE = "notes/a.md"
SAVED = "# A\nalpha line\n"
ELSEWHERE = "# A\nchanged by another app meanwhile\n"
TIMEOUT_MS = 15_000

Begin = Callable[[], tuple[MainWindow, AppSession, Path]]
HEAVY = ("workers.server", "fastapi", "starlette", "sqlalchemy", "uvicorn", "requests", "babel")
"""What the GUI thread must not import before the first note (issue 33): the starting thread's."""


def _threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread is not threading.main_thread()}


@pytest.fixture
def begin_app(qtbot: QtBot, tmp_path: Path) -> Iterator[Begin]:
    """A window over :meth:`AppSession.begin`: the embedded backend not started yet."""
    before = _threads()
    built: list[tuple[MainWindow, AppSession]] = []

    def factory() -> tuple[MainWindow, AppSession, Path]:
        workspace = tmp_path / "workspace"
        (workspace / "notes").mkdir(parents=True)
        (workspace / NOTE).write_bytes(SAVED.encode("utf-8"))
        session = AppSession.begin(
            SessionOptions(
                backend_url=None, workspace_dir=workspace, data_dir=tmp_path / "data", demo=False
            )
        )
        window = MainWindow(session)
        window.resize(1280, 800)
        window.show()
        built.append((window, session))
        return window, session, workspace

    yield factory

    for window, session in built:
        window.close()
        session.close()
        window.deleteLater()
    qtbot.waitUntil(lambda: not [w for w in QApplication.topLevelWidgets() if w.isVisible()])
    leaked = {thread for thread in _threads() - before if thread.is_alive()}
    leaked = {thread for thread in leaked if not thread.name.startswith("ambient-flush")}
    assert not leaked, f"threads still alive after teardown: {sorted(t.name for t in leaked)}"


def _shown_from_folder(qtbot: QtBot, window: MainWindow, session: AppSession) -> InboxFrame:
    frame = window.driver.mount_inbox("inbox-1", NOTE)
    qtbot.waitUntil(lambda: frame.is_loaded, timeout=TIMEOUT_MS)
    assert session.starting and session.server is None  # shown with no backend running
    return frame


def _start_backend(qtbot: QtBot, session: AppSession) -> None:
    with qtbot.waitSignal(session.started.finished, timeout=TIMEOUT_MS):
        session.start_backend()
    assert session.start_failure is None


def test_r67_the_first_note_is_editable_before_the_backend_runs(
    qtbot: QtBot, begin_app: Begin
) -> None:
    window, session, _workspace = begin_app()
    frame = _shown_from_folder(qtbot, window, session)
    assert frame.read_text() == SAVED
    assert not frame.editor.isReadOnly()
    assert window.assistant.assistant_label.text() == STARTING_NAME
    _start_backend(qtbot, session)
    qtbot.waitUntil(lambda: window.assistant.assistant_label.text() != STARTING_NAME)


def test_r53_the_first_save_is_conditional_on_the_sha256_etag_of_the_bytes_read(
    qtbot: QtBot, begin_app: Begin
) -> None:
    window, session, workspace = begin_app()
    _shown_from_folder(qtbot, window, session)
    # What the first save sends as If-Match: the documents API's ETag of the file's bytes.
    assert session.autosave.tag_of(session.workspace, NOTE) == etag_of(SAVED.encode("utf-8"))
    assert session.autosave.tag_of(session.workspace, NOTE) == etag_of(
        (workspace / NOTE).read_bytes()
    )


def test_r12_keys_typed_before_the_backend_answers_are_saved(
    qtbot: QtBot, begin_app: Begin
) -> None:
    window, session, workspace = begin_app()
    frame = _shown_from_folder(qtbot, window, session)
    frame.editor.moveCursor(frame.editor.textCursor().MoveOperation.End)
    QTest.keyClicks(frame.editor, "typed early")
    QTest.keyClick(frame.editor, Qt.Key.Key_Return)
    session.autosave.save_now(frame.frame_id)  # queued: it waits for the backend, not dropped
    assert (workspace / NOTE).read_text(encoding="utf-8") == SAVED
    _start_backend(qtbot, session)
    expected = SAVED + "typed early\n"
    qtbot.waitUntil(
        lambda: (workspace / NOTE).read_text(encoding="utf-8") == expected, timeout=TIMEOUT_MS
    )
    assert frame.read_text() == expected


def test_r53_a_file_changed_on_disk_before_the_first_save_meets_the_conflict_path(
    qtbot: QtBot, begin_app: Begin
) -> None:
    window, session, workspace = begin_app()
    frame = _shown_from_folder(qtbot, window, session)
    frame.type_text("mine ", at=0)
    (workspace / NOTE).write_text(ELSEWHERE, encoding="utf-8")
    with qtbot.waitSignal(session.autosave.save_conflict, timeout=TIMEOUT_MS):
        session.autosave.save_now(frame.frame_id)
        session.start_backend()
    assert frame.conflict.isVisible()
    assert (workspace / NOTE).read_text(encoding="utf-8") == ELSEWHERE  # not written over
    kept = session.recovery.get(session.workspace, NOTE)
    assert kept is not None and kept.text == "mine " + SAVED  # nothing typed is lost


def test_r16_a_remote_backend_keeps_todays_path(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with EmbeddedServer(Settings(data_dir=tmp_path / "server")) as server:
        monkeypatch.setenv(DEVICE_TOKEN_ENV, server.device_token)
        session = AppSession.begin(
            SessionOptions(
                backend_url=server.url, workspace_dir=None, data_dir=tmp_path / "data", demo=False
            )
        )
        try:
            # Reached and opened before begin() returns: no folder read, nothing held.
            assert not session.starting and session.link.is_open
            assert session.workspace_folder() is None
            assert session.link.read_while_opening(NOTE) is None
            done: list[object] = []
            session.runner.submit(lambda: "ran", on_done=done.append)
            qtbot.waitUntil(lambda: done == ["ran"], timeout=TIMEOUT_MS)
        finally:
            session.close()


def loaded_with_the_window(names: tuple[str, ...]) -> list[str]:
    """Which of ``names`` a fresh interpreter has loaded once the window's modules are in."""
    probe = (
        "import sys, app.__main__, app.window.main_window, app.session; "
        f"print(' '.join(name for name in {names!r} if name in sys.modules))"
    )
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()


def test_r67_the_window_and_its_frames_load_none_of_the_backends_web_stack() -> None:
    assert loaded_with_the_window(HEAVY) == []


def test_issue_40_the_window_loads_no_markdown_parser_before_a_note_is_read() -> None:
    """The parser (cmark-gfm through cffi) loads at the first reading, after the paint."""
    assert loaded_with_the_window(("cffi", "cmarkgfm", "markdown_it")) == []


def test_issue_40_the_window_waits_for_neither_asyncio_nor_pathspec() -> None:
    """asyncio comes with the sharing server (off unless turned on, R58), pathspec with an
    ``.aiexclude`` to compile (R86): neither is the first paint's to wait for."""
    assert loaded_with_the_window(("asyncio", "ssl", "pathspec")) == []


def test_r77_a_backend_that_never_starts_says_why_and_keeps_what_was_typed(
    qtbot: QtBot, begin_app: Begin, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SWEEP_SECONDS_ENV, "0")  # settings the backend refuses at its start
    window, session, workspace = begin_app()
    frame = _shown_from_folder(qtbot, window, session)
    frame.type_text("mine ", at=0)
    session.autosave.save_now(frame.frame_id)
    with qtbot.waitSignal(session.started.finished, timeout=TIMEOUT_MS):
        session.start_backend()
    assert isinstance(session.start_failure, SessionError)
    assert SWEEP_SECONDS_ENV in str(session.start_failure)
    assert not session.starting and session.server is None
    # The save waiting for it fails the normal way: its text is kept in the recovery folder.
    qtbot.waitUntil(lambda: session.recovery.get(session.workspace, NOTE) is not None)
    kept = session.recovery.get(session.workspace, NOTE)
    assert kept is not None and kept.text == "mine " + SAVED
    assert (workspace / NOTE).read_text(encoding="utf-8") == SAVED
