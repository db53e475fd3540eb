"""Nothing typed is lost to a stuck system, a full disk or a power cut (R76, R77).

Saves are made to fail for real: the note's folder is replaced by a file (the
backend refuses the path), the process runs out of descriptors (a subprocess with a
low limit), and a full disk is a writer that fails with ENOSPC, as ``write`` does.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from app.notes.unsaved_text import AT_QUIT, QUIT_ANYWAY, SAVE_AS, TITLE
from renderer.ambient.recovery import RECOVERY_FOLDER, RecoveryStore
from renderer.qt.autosave import DISK_FULL_MESSAGE, OUT_OF_FILES_MESSAGE, RETRY_DELAYS_MS
from tests.app.conftest import AppFactory, AppUnderTest

SAVE_TIMEOUT_MS = 10_000
ROOT = Path(__file__).resolve().parents[2]


def _block_saves(app: AppUnderTest) -> Path:
    folder = app.workspace_dir / "notes"
    folder.rename(folder.with_name("notes-aside"))
    folder.write_text("not a folder", encoding="utf-8")
    return folder


def _unblock_saves(folder: Path) -> None:
    folder.unlink()
    folder.with_name("notes-aside").rename(folder)


def _disk_full(_target: Path, _text: str) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_r76_a_failed_save_is_tried_again_on_its_own_and_the_badge_returns_to_saved(
    make_app: AppFactory,
) -> None:
    assert RETRY_DELAYS_MS[0] == 1_000  # the first try again waits one second
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    folder = _block_saves(app)
    frame.type_text(" typed while saves fail", at="end")
    typed = frame.editor.toPlainText()
    app.qtbot.waitUntil(lambda: frame.save_state == "error", timeout=SAVE_TIMEOUT_MS)
    assert app.session.autosave.retry_pending(app.session.workspace, "notes/a.md")
    _unblock_saves(folder)
    # No edit, no send: the retry alone lands the text and the badge tells the truth.
    app.qtbot.waitUntil(lambda: frame.save_state == "saved", timeout=SAVE_TIMEOUT_MS)
    assert app.saved_text("notes/a.md") == typed
    assert not app.session.autosave.retry_pending(app.session.workspace, "notes/a.md")
    assert not [b for b in app.window.banners.banners if "could not be saved" in b.label.text()]


_OUT_OF_FILES = """
import resource, socket, sys
from datetime import UTC, datetime
from bridge.client import BackendClient
from bridge.transport import WireKeySession
from renderer.qt.autosave import _failure_message
client = BackendClient(sys.argv[1], "token")
key = WireKeySession("key", "notes", datetime.now(UTC))
resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
held = []
try:
    while True:
        held.append(socket.socket())
except OSError:
    pass
try:
    client.put_document(key, "notes/a.md", "text")
except Exception as error:
    print(_failure_message(error))
    print(repr(error), file=sys.stderr)
"""


def test_r76_a_save_without_a_free_descriptor_says_so_not_that_the_service_is_unreachable(
    make_app: AppFactory,
) -> None:
    app = make_app()
    out = subprocess.run(
        [sys.executable, "-c", _OUT_OF_FILES, app.session.backend_url],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    assert out.stdout.strip() == OUT_OF_FILES_MESSAGE, out.stderr
    assert "can't be reached" not in out.stdout


def test_r77_disk_full_while_typing_shows_the_dialog_and_quitting_stops_until_saved_elsewhere(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app()
    window = app.window
    frame = app.mount("inbox-1", "notes/a.md")
    app.session.recovery.writer = _disk_full  # the safety copy fails as the disk is full
    folder = _block_saves(app)
    frame.type_text(" typed onto a full disk", at="end")
    typed = frame.editor.toPlainText()
    app.qtbot.waitUntil(lambda: window.unsaved_text.dialog is not None, timeout=SAVE_TIMEOUT_MS)
    running = window.unsaved_text.dialog
    assert running is not None and running.isVisible()
    assert running.windowTitle() == TITLE
    assert "notes/a.md could not be saved" in running.message.text()
    assert "no safety copy could be kept" in running.message.text()
    assert not (app.data_dir / RECOVERY_FOLDER).exists() or not list(
        (app.data_dir / RECOVERY_FOLDER).glob("*.json")
    )
    running.reject()
    autosave = app.session.autosave
    with app.qtbot.waitSignal(autosave.save_failed, timeout=SAVE_TIMEOUT_MS):
        pass  # the retry fails again: the person was told once, no new dialog
    assert window.unsaved_text.dialog is running and not running.isVisible()

    window.close()  # quitting now would lose the typing: the window stays
    assert window.isVisible()
    at_quit = window.unsaved_text.dialog
    assert at_quit is not None and at_quit.isVisible() and at_quit is not running
    assert at_quit.message.text().startswith(AT_QUIT.split("{", 1)[0])
    assert "notes/a.md" in at_quit.message.text() and QUIT_ANYWAY in at_quit.buttons
    elsewhere = tmp_path / "usb-stick" / "a.md"
    elsewhere.parent.mkdir()
    at_quit.choose_path = lambda _parent, suggested: str(elsewhere.with_name(suggested))
    at_quit.buttons[SAVE_AS].click()
    assert elsewhere.read_text(encoding="utf-8") == typed
    app.qtbot.waitUntil(lambda: not window.isVisible(), timeout=SAVE_TIMEOUT_MS)
    _unblock_saves(folder)


def test_r77_a_save_as_that_fails_too_says_so_and_keeps_the_app_open(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app()
    window = app.window
    frame = app.mount("inbox-1", "notes/a.md")
    app.session.recovery.writer = _disk_full
    folder = _block_saves(app)
    frame.type_text(" more", at="end")
    app.qtbot.waitUntil(lambda: window.unsaved_text.dialog is not None, timeout=SAVE_TIMEOUT_MS)
    window.close()
    dialog = window.unsaved_text.dialog
    assert dialog is not None
    dialog.write = _disk_full
    dialog.choose_path = lambda _parent, suggested: str(tmp_path / suggested)
    dialog.buttons[SAVE_AS].click()
    assert dialog.isVisible() and window.isVisible()
    assert "could not be written there" in dialog.problem.text()
    assert os.strerror(errno.ENOSPC) in dialog.problem.text()
    dialog.buttons[QUIT_ANYWAY].click()  # the person chose: the quit goes ahead
    app.qtbot.waitUntil(lambda: not window.isVisible(), timeout=SAVE_TIMEOUT_MS)
    _unblock_saves(folder)


def test_r77_a_disk_full_save_in_the_backend_says_the_disk_is_full() -> None:
    from renderer.qt.autosave import _failure_message

    assert _failure_message(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))) == (DISK_FULL_MESSAGE)


def test_r77_a_save_keeps_the_notes_mode(make_app: AppFactory) -> None:
    app = make_app()
    note = app.workspace_dir / "notes" / "a.md"
    os.chmod(note, 0o600)
    frame = app.mount("inbox-1", "notes/a.md")
    frame.type_text(" private", at="end")
    app.qtbot.waitUntil(lambda: frame.save_state == "saved", timeout=SAVE_TIMEOUT_MS)
    assert app.saved_text("notes/a.md").endswith(" private")
    assert stat.S_IMODE(note.stat().st_mode) == 0o600
    os.chmod(note, 0o640)
    frame.type_text(" shared with the group", at="end")
    app.qtbot.waitUntil(lambda: app.saved_text("notes/a.md").endswith("group"))
    assert stat.S_IMODE(note.stat().st_mode) == 0o640


def test_r77_every_folder_the_app_makes_is_0700(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    folder = _block_saves(app)
    frame.type_text(" kept", at="end")
    app.qtbot.waitUntil(lambda: frame.save_state == "error", timeout=SAVE_TIMEOUT_MS)
    app.send()  # a turn is kept under turns/
    app.session.client().create_workspace("other")  # the backend makes its folder
    _unblock_saves(folder)
    app.qtbot.waitUntil(lambda: frame.save_state == "saved", timeout=SAVE_TIMEOUT_MS)
    for name in (RECOVERY_FOLDER, "turns", "workspaces", "workspaces/other"):
        made = app.data_dir / name
        app.qtbot.waitUntil(made.exists)
        assert stat.S_IMODE(made.stat().st_mode) == 0o700, name
    nested = app.data_dir / "deep" / "er"
    RecoveryStore(nested).keep("w", "p.md", "text", "why", 1)
    assert stat.S_IMODE((app.data_dir / "deep").stat().st_mode) == 0o700
    assert stat.S_IMODE(nested.stat().st_mode) == 0o700


def test_r77_r64_a_fifo_in_unsaved_notes_never_hangs_reading_the_kept_notes(
    tmp_path: Path,
) -> None:
    store = RecoveryStore(tmp_path / RECOVERY_FOLDER)
    assert store.keep("w", "notes/a.md", "kept text", "why", 1) is not None
    os.mkfifo(tmp_path / RECOVERY_FOLDER / "fifo.json")
    (tmp_path / RECOVERY_FOLDER / "link.json").symlink_to("/dev/zero")
    kept = store.kept_for("w")  # today: blocks for ever opening the FIFO
    assert [note.text for note in kept] == ["kept text"]


@pytest.mark.skipif(os.name != "posix", reason="fsync of a folder is POSIX")
def test_r77_an_atomic_write_syncs_the_file_and_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bridge.private_files import write_atomically

    synced: list[str] = []
    real_fsync = os.fsync

    def watched(descriptor: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", watched)
    write_atomically(tmp_path / "x" / "layout.json", "{}")
    assert synced == ["file", "folder"]


def test_r77_a_refused_edit_kept_under_turns_never_quotes_the_note() -> None:
    from bridge.agent import TurnToolCall
    from renderer.ambient.kept_records import _call_json
    from workers.messages import EDIT_OLD_TEXT_COUNT
    from workers.proposals import _quoted

    secret = "my bank PIN is 4821 and the safe opens left"
    refusal = EDIT_OLD_TEXT_COUNT.format(text=_quoted(secret), count=2)
    assert "4821" in refusal  # the backend's message quotes the note to the model
    call = TurnToolCall(
        name="propose_note_edit",
        arguments={"path": "notes/a.md", "edits": [{"oldText": secret, "newText": "x"}]},
        result={"status": "invalid_argument", "message": refusal},
    )
    kept = json.dumps(_call_json(call), ensure_ascii=False)
    assert "4821" not in kept and "occurs 2 times" in kept
