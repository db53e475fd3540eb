"""Frames showing the same note share one live document and one save (R53)."""

from __future__ import annotations

from tests.app.conftest import AppFactory

SAVE_TIMEOUT_MS = 10_000


def test_r53_an_edit_in_one_frame_shows_in_the_other_at_once_with_one_save(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first = app.mount("inbox-1", "notes/a.md")
    second = app.mount("inbox-2", "notes/a.md", "preview")
    assert second.editor.document() is first.editor.document()
    second.type_text("typed in the second\n", at="end")
    assert first.read_text() == second.read_text()  # at once, no save in between
    autosave = app.session.autosave
    assert autosave.is_dirty("inbox-1") and not autosave.is_dirty("inbox-2")  # one save
    with app.qtbot.waitSignal(autosave.flush().finished, timeout=SAVE_TIMEOUT_MS):
        pass
    assert app.saved_text("notes/a.md") == first.read_text()


def test_r53_closing_the_first_frame_hands_the_document_and_its_save_to_the_other(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    second = app.mount("inbox-2", "notes/a.md")
    app.window.driver.close_frame("inbox-1")
    app.qtbot.waitUntil(lambda: "inbox-1" not in app.window.frames, timeout=SAVE_TIMEOUT_MS)
    second.type_text("after the close\n", at="end")
    assert app.session.autosave.is_dirty("inbox-2")
    with app.qtbot.waitSignal(app.session.autosave.flush().finished, timeout=SAVE_TIMEOUT_MS):
        pass
    assert app.saved_text("notes/a.md").endswith("after the close\n")


def test_r53_a_frame_that_opens_another_note_stops_sharing(make_app: AppFactory) -> None:
    app = make_app()
    first = app.mount("inbox-1", "notes/a.md")
    second = app.mount("inbox-2", "notes/a.md")
    with app.qtbot.waitSignal(second.loaded, timeout=SAVE_TIMEOUT_MS):
        second.open_path("notes/b.md")
    assert second.editor.document() is not first.editor.document()
    assert second.read_text().startswith("# B") and first.read_text().startswith("# A")


def test_r53_a_frame_opened_while_the_note_still_loads_shares_that_load(
    make_app: AppFactory,
) -> None:
    app = make_app()
    first = app.window.driver.mount_inbox("inbox-1", "notes/a.md", "edit")
    second = app.window.driver.mount_inbox("inbox-2", "notes/a.md", "preview")
    assert not first.is_loaded  # the second came while the first still loaded
    app.qtbot.waitUntil(lambda: first.is_loaded and second.is_loaded, timeout=SAVE_TIMEOUT_MS)
    assert second.editor.document() is first.editor.document()
    assert second.owner is first and second.read_text() == app.saved_text("notes/a.md")
    first.type_text("typed in the first\n", at="end")
    assert second.read_text() == first.read_text()
    autosave = app.session.autosave
    assert autosave.is_dirty("inbox-1") and not autosave.is_dirty("inbox-2")  # one save
    with app.qtbot.waitSignal(autosave.flush().finished, timeout=SAVE_TIMEOUT_MS):
        pass
    assert app.saved_text("notes/a.md").endswith("typed in the first\n")


def test_r53_when_the_loading_frame_closes_first_the_waiting_one_loads_the_note(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.window.driver.mount_inbox("inbox-1", "notes/a.md", "edit")
    second = app.window.driver.mount_inbox("inbox-2", "notes/a.md", "edit")
    app.window.driver.close_frame("inbox-1")
    app.qtbot.waitUntil(lambda: second.is_loaded, timeout=SAVE_TIMEOUT_MS)
    assert second.owner is None and second.read_text() == app.saved_text("notes/a.md")
    second.type_text("after the close\n", at="end")
    assert app.session.autosave.is_dirty("inbox-2")
    with app.qtbot.waitSignal(app.session.autosave.flush().finished, timeout=SAVE_TIMEOUT_MS):
        pass
    assert app.saved_text("notes/a.md").endswith("after the close\n")
