"""No note text is lost: a save that fails while its frame closes, during a workspace
switch, or while the app quits keeps its text in the app's data folder, to be restored.

The backend's saves are made to fail for real: the note's folder is replaced by a
file (the backend refuses the path), or the backend is stopped.
"""

from __future__ import annotations

from pathlib import Path

from app.popout.window import PopoutWindow
from app.window.banner import Banner
from renderer.ambient.recovery import RECOVERY_FOLDER, RecoveryStore
from tests.app.conftest import AppFactory, AppUnderTest

SAVE_TIMEOUT_MS = 10_000


def _block_saves(app: AppUnderTest) -> Path:
    """Make the backend refuse every save under notes/ (the folder becomes a file)."""
    folder = app.workspace_dir / "notes"
    folder.rename(folder.with_name("notes-aside"))
    folder.write_text("not a folder", encoding="utf-8")
    return folder


def _unblock_saves(folder: Path) -> None:
    folder.unlink()
    folder.with_name("notes-aside").rename(folder)


def _kept(app: AppUnderTest, path: str) -> str | None:
    store = RecoveryStore(app.data_dir / RECOVERY_FOLDER)
    note = store.get(app.session.workspace, path)
    return note.text if note is not None else None


def _banner_with(app: AppUnderTest, words: str) -> Banner:
    """The newest banner saying ``words``, once it shows (kept notes are read on a worker)."""

    def found() -> list[Banner]:
        return [banner for banner in app.window.banners.banners if words in banner.label.text()]

    app.qtbot.waitUntil(lambda: bool(found()))
    return found()[-1]


def test_closing_a_frame_whose_save_fails_keeps_its_text_and_restores_it(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    folder = _block_saves(app)
    frame.type_text(" typed before closing", at="end")
    typed = frame.editor.toPlainText()
    autosave = app.session.autosave
    with app.qtbot.waitSignal(autosave.save_failed, timeout=SAVE_TIMEOUT_MS):
        app.window.driver.close_frame("inbox-1")
    assert "inbox-1" not in app.window.frames
    assert _kept(app, "notes/a.md") == typed
    banner = _banner_with(app, "notes/a.md could not be saved")
    assert "kept in this app's data folder" in banner.label.text()

    _unblock_saves(folder)
    banner.buttons["Restore"].click()  # the kept text is read on a worker (R92)
    app.qtbot.waitUntil(lambda: bool(app.window.driver.inbox_frames()))
    restored = app.window.driver.inbox_frames()[0]
    app.qtbot.waitUntil(lambda: restored.editor.toPlainText() == typed)
    app.qtbot.waitUntil(lambda: restored.save_state == "saved", timeout=SAVE_TIMEOUT_MS)
    assert app.saved_text("notes/a.md") == typed
    assert _kept(app, "notes/a.md") is None  # the landed save made the copy redundant


def test_a_switch_whose_save_fails_keeps_the_text_for_the_workspace_it_belongs_to_R7(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    home = app.session.workspace
    frame = app.mount("inbox-1", "notes/a.md")
    folder = _block_saves(app)
    frame.type_text(" typed before switching", at="end")
    typed = frame.editor.toPlainText()
    app.switch_workspace("other")
    store = RecoveryStore(app.data_dir / RECOVERY_FOLDER)
    kept = store.get(home, "notes/a.md")
    assert kept is not None and kept.text == typed
    assert f"Open workspace “{home}” again" in _banner_with(app, "data folder").label.text()

    _unblock_saves(folder)
    app.switch_workspace(home)
    offer = _banner_with(app, "could not be saved earlier is kept for notes/a.md")
    app.qtbot.waitUntil(lambda: all(inbox.is_loaded for inbox in window.driver.inbox_frames()))
    offer.buttons["Restore"].click()  # the kept text is read on a worker (R92)
    app.qtbot.waitUntil(lambda: "inbox-1" in window.frames)
    restored = window.driver.frame("inbox-1")
    app.qtbot.waitUntil(lambda: restored.read_text() == typed)  # type: ignore[attr-defined]
    app.qtbot.waitUntil(lambda: app.saved_text("notes/a.md") == typed, timeout=SAVE_TIMEOUT_MS)
    app.qtbot.waitUntil(lambda: store.get(home, "notes/a.md") is None, timeout=SAVE_TIMEOUT_MS)


def test_quitting_while_the_backend_is_down_keeps_the_unsaved_text(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame, second = app.mount_two()
    frame.type_text(" typed before quitting", at="end")
    second.type_text(" and here", at="end")
    typed = {"notes/a.md": frame.editor.toPlainText(), "notes/b.md": second.editor.toPlainText()}
    app.stop_backend()
    workspace = app.session.workspace
    app.quit()
    store = RecoveryStore(app.data_dir / RECOVERY_FOLDER)
    assert {note.path: note.text for note in store.kept_for(workspace)} == typed
    assert app.saved_text("notes/a.md") != typed["notes/a.md"]


def test_kept_text_from_an_earlier_run_is_offered_when_its_workspace_opens(
    make_app: AppFactory,
) -> None:
    first = make_app()
    frame = first.mount("inbox-1", "notes/a.md")
    frame.type_text(" from the earlier run", at="end")
    typed = frame.editor.toPlainText()
    first.stop_backend()
    workspace = first.session.workspace
    first.quit()

    earlier = RecoveryStore(first.data_dir / RECOVERY_FOLDER)
    # A new run over the same data: the kept file is copied where the new session keeps its own.
    later = make_app()
    target = later.data_dir / RECOVERY_FOLDER
    for note in earlier.kept_for(workspace):
        RecoveryStore(target).keep(later.session.workspace, note.path, note.text, note.reason, 1)
    later.window.driver.offer_kept_notes()
    offer = _banner_with(later, "kept for notes/a.md")
    offer.buttons["Restore"].click()  # the kept text is read on a worker (R92)
    later.qtbot.waitUntil(lambda: bool(later.window.driver.inbox_frames()))
    restored = later.window.driver.inbox_frames()[0]
    later.qtbot.waitUntil(lambda: restored.read_text() == typed)
    later.qtbot.waitUntil(lambda: later.saved_text("notes/a.md") == typed, timeout=SAVE_TIMEOUT_MS)
    later.qtbot.waitUntil(
        lambda: RecoveryStore(target).get(later.session.workspace, "notes/a.md") is None,
        timeout=SAVE_TIMEOUT_MS,
    )


def test_a_popped_out_window_keeps_failed_text_and_says_so_R29(make_app: AppFactory) -> None:
    app = make_app()
    recovery = RecoveryStore(app.data_dir / RECOVERY_FOLDER)
    popout = PopoutWindow(app.session.link, "inbox-9", "notes/b.md", "edit", recovery=recovery)
    try:
        popout.show()
        app.qtbot.waitUntil(lambda: popout.frame.is_loaded)
        folder = _block_saves(app)
        popout.frame.type_text(" typed in its own window", at="end")
        typed = popout.frame.editor.toPlainText()
        with app.qtbot.waitSignal(popout.autosave.save_failed, timeout=SAVE_TIMEOUT_MS):
            popout.autosave.save_now("inbox-9")
        texts = [banner.label.text() for banner in popout.banners.banners]
        assert any(text.startswith("notes/b.md could not be saved") for text in texts)
        kept = recovery.get(app.session.workspace, "notes/b.md")
        assert kept is not None and kept.text == typed
        _unblock_saves(folder)
        popout.frame.type_text("!", at="end")
        popout.autosave.save_now("inbox-9")
        app.qtbot.waitUntil(lambda: not popout.banners.banners, timeout=SAVE_TIMEOUT_MS)
        assert recovery.get(app.session.workspace, "notes/b.md") is None
    finally:
        popout.close()
        app.qtbot.waitUntil(lambda: not popout.isVisible())
        popout.shutdown_workers()
        popout.deleteLater()
    assert app.saved_text("notes/b.md") == typed + "!"


def test_quitting_keeps_a_save_still_waiting_behind_a_slow_one(make_app: AppFactory) -> None:
    app = make_app(save_delay_seconds=0.5)
    frame = app.mount("inbox-1", "notes/a.md")
    autosave = app.session.autosave
    frame.type_text(" first", at="end")
    first = frame.editor.toPlainText()
    autosave.save_now("inbox-1")  # in flight for half a second
    frame.type_text(" second", at="end")
    second = frame.editor.toPlainText()
    autosave.save_now("inbox-1")  # queued behind it: no worker will start it after quit
    workspace = app.session.workspace
    app.quit()
    assert app.saved_text("notes/a.md") == first
    kept = RecoveryStore(app.data_dir / RECOVERY_FOLDER).get(workspace, "notes/a.md")
    assert kept is not None and kept.text == second


def test_r92_a_kept_record_naming_no_note_is_set_aside_with_a_banner_never_offered(
    make_app: AppFactory,
) -> None:
    """A record out of the workspace (``../../../../etc/passwd``, ``/tmp/x``) or past the
    path rules (200,000 characters: the banner of such a path froze the window for 9 s,
    2,000,000 crashed it) is moved aside, and the window says so, naming none of them."""
    app = make_app()
    workspace = app.session.workspace
    folder = app.data_dir / RECOVERY_FOLDER
    store = RecoveryStore(folder)
    bad_paths = ["../../../../etc/passwd", "/tmp/planted.md", "n" * 200_000 + ".md"]
    for path in bad_paths:
        assert store.keep(workspace, path, "planted", "why", 1) is not None
    assert store.keep(workspace, "notes/a.md", "kept text", "why", 1) is not None

    app.window.driver.offer_kept_notes()

    offer = _banner_with(app, "kept for notes/a.md")
    warning = _banner_with(app, "3 record(s) of unsaved text named no note")
    for path in bad_paths:
        assert path[:40] not in offer.label.text() and path[:40] not in warning.label.text()
    assert len(list(folder.glob("*.json"))) == 1  # only the good record is left to read
    assert len(list(folder.glob("*.broken-*"))) == 3
