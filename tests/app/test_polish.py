"""What a user sees around the notes: empty states, long titles, plain badges and banners."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QPushButton

from app.window.frameset import NO_NOTE_OPEN
from app.workspace.finding import QuickOpenDialog
from tests.app.conftest import AppFactory, AppUnderTest

SAVE_TIMEOUT_MS = 10_000
LONG_PATH = "archive/2026/q4/planning/a-rather-long-folder-name/the-launch-plan-notes.md"


def test_with_no_note_open_the_middle_column_says_how_to_open_one(make_app: AppFactory) -> None:
    app = make_app()
    window = app.window
    assert window.inbox_area.currentWidget() is window.no_note
    assert window.no_note.isVisible()
    app.mount("inbox-1", "notes/a.md")
    assert window.inbox_area.currentWidget() is window.inbox_column
    window.driver.close_frame("inbox-1")
    assert window.inbox_area.currentWidget() is window.no_note
    assert NO_NOTE_OPEN in [label.text() for label in window.no_note.findChildren(QLabel)]


def test_the_empty_state_returns_after_a_switch_to_an_empty_workspace_R7(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.switch_workspace("empty")
    assert app.window.inbox_area.currentWidget() is app.window.no_note


def test_a_long_note_path_is_shortened_in_the_title_and_never_widens_the_frame(
    make_app: AppFactory,
) -> None:
    app = make_app({LONG_PATH: "# Plan\n"})
    frame = app.mount("inbox-1", LONG_PATH)
    title = frame.title_bar.title
    app.qtbot.waitUntil(lambda: title.text() != LONG_PATH)
    assert title.full_text() == LONG_PATH and title.toolTip() == LONG_PATH
    assert title.text().endswith(".md") and "…" in title.text()
    assert title.minimumSizeHint().width() < 200
    assert frame.minimumSizeHint().width() < title.fontMetrics().horizontalAdvance(LONG_PATH)


def test_a_note_that_cannot_be_opened_is_badged_not_opened_rather_than_not_saved(
    make_app: AppFactory, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret", encoding="utf-8")
    app = make_app()
    os.symlink(outside, app.workspace_dir / "notes" / "link.md")
    frame = app.window.driver.mount_inbox("inbox-1", "notes/link.md")
    with app.qtbot.waitSignal(frame.load_failed, timeout=SAVE_TIMEOUT_MS):
        pass
    assert frame.title_bar.badge.text() == "Not opened"
    assert not frame.problem.isHidden()
    assert frame.problem_label.text().startswith("This note could not be opened: ")


def _save_banners(app: AppUnderTest, path: str) -> list[str]:
    return [
        banner.label.text()
        for banner in app.window.banners.banners
        if banner.label.text().startswith(f"{path} could not be saved")
    ]


def test_a_save_failure_shows_one_banner_that_goes_once_a_save_lands(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    autosave = app.session.autosave
    folder = app.workspace_dir / "notes"
    folder.rename(folder.with_name("aside"))
    folder.write_text("not a folder", encoding="utf-8")  # the backend refuses the path
    for typed in (" one", " two"):
        with app.qtbot.waitSignal(autosave.save_failed, timeout=SAVE_TIMEOUT_MS):
            frame.type_text(typed, at="end")
            autosave.save_now("inbox-1")
    assert len(_save_banners(app, "notes/a.md")) == 1
    assert frame.title_bar.badge.text() == "Not saved"
    folder.unlink()
    folder.with_name("aside").rename(folder)
    frame.type_text(" three", at="end")
    autosave.save_now("inbox-1")
    app.qtbot.waitUntil(lambda: frame.save_state == "saved", timeout=SAVE_TIMEOUT_MS)
    assert _save_banners(app, "notes/a.md") == []
    assert app.saved_text("notes/a.md").endswith(" one two three")


def test_the_empty_notes_column_offers_new_note_and_quick_open_R47(make_app: AppFactory) -> None:
    app = make_app()
    window = app.window
    buttons = {button.text(): button for button in window.no_note.findChildren(QPushButton)}
    assert set(buttons) == {"New note…", "Quick open…"}

    def answer_the_prompt() -> None:
        prompt = QApplication.activeModalWidget()
        assert isinstance(prompt, QInputDialog)
        prompt.setTextValue("ideas")
        prompt.accept()

    QTimer.singleShot(0, answer_the_prompt)  # the prompt is modal: answer it once it shows
    buttons["New note…"].click()
    app.qtbot.waitUntil(
        lambda: [frame.path for frame in window.driver.inbox_frames()] == ["ideas.md"],
        timeout=SAVE_TIMEOUT_MS,
    )
    window.driver.close_frame(window.driver.inbox_frames()[0].frame_id)
    buttons["Quick open…"].click()
    dialogs = [d for d in window.findChildren(QuickOpenDialog) if d.isVisible()]
    assert len(dialogs) == 1
    dialogs[0].reject()
