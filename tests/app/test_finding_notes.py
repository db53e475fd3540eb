"""R47: New note, Quick open (fuzzy), the workspace picker, a list that refreshes by itself."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.workspace.finding import QuickOpenDialog, WorkspacePickerDialog, fuzzy_filter
from app.workspace.switch import BROWSER_FRAME_ID
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.providers import WORKSPACE_PROVIDER, WorkspaceBrowserFrame
from tests.app.conftest import LOAD_TIMEOUT_MS, AppFactory

LISTING_TIMEOUT_MS = 10_000


def test_fuzzy_subsequence_ranks_tight_matches_first_R47() -> None:
    paths = ["notes/b.md", "inbox/today.md", "notes/big-plan.md", "archive/nothing.md"]
    assert fuzzy_filter("nob", paths)[:2] == ["notes/b.md", "notes/big-plan.md"]
    assert fuzzy_filter("TODAY", paths) == ["inbox/today.md"]
    assert fuzzy_filter("zzz", paths) == []
    # Linear in the text: a long path with no match is one pass.
    assert fuzzy_filter("ab", ["a" * 200_000]) == []


def test_new_note_is_created_through_the_api_opened_and_listed_R47(make_app: AppFactory) -> None:
    app = make_app()
    window = app.window
    browser = window.driver.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
    assert isinstance(browser, WorkspaceBrowserFrame)
    creation = window.driver.create_note("ideas/new.md")
    with app.qtbot.waitSignal(creation.opened, timeout=LOAD_TIMEOUT_MS):
        pass
    frame = creation.frame
    assert isinstance(frame, InboxFrame) and frame.path == "ideas/new.md"
    assert app.saved_text("ideas/new.md") == ""
    app.qtbot.waitUntil(
        lambda: "ideas/new.md" in [info.path for info in browser.documents],
        timeout=LISTING_TIMEOUT_MS,
    )
    # An existing note is opened as it is, never overwritten.
    again = window.driver.create_note("notes/a.md")
    with app.qtbot.waitSignal(again.opened, timeout=LOAD_TIMEOUT_MS):
        pass
    assert again.existed and app.saved_text("notes/a.md").startswith("# A")
    refused = window.driver.create_note("../outside.md")
    assert refused.error is not None and "cannot be a note's path" in refused.error


def test_quick_open_filters_fuzzily_and_enter_opens_R47(make_app: AppFactory) -> None:
    app = make_app()
    window = app.window
    dialog = window.menus.quick_open()
    assert isinstance(dialog, QuickOpenDialog)
    app.qtbot.waitUntil(lambda: dialog.is_listed, timeout=LISTING_TIMEOUT_MS)
    QTest.keyClicks(dialog.filter, "nob")
    assert dialog.list.currentItem().text() == "notes/b.md"
    QTest.keyClick(dialog.filter, Qt.Key.Key_Return)
    opened = [frame.path for frame in window.driver.inbox_frames()]
    assert opened == ["notes/b.md"]
    assert window.store.last_activated_frame == window.driver.inbox_frames()[0].frame_id


def test_the_workspace_picker_lists_existing_workspaces_and_takes_a_new_name_R47(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    app.session.client().create_workspace("archive")
    dialog = window.menus.ask_workspace()
    assert isinstance(dialog, WorkspacePickerDialog)
    app.qtbot.waitUntil(lambda: dialog.is_listed, timeout=LISTING_TIMEOUT_MS)
    assert "archive" in dialog.entries
    assert app.session.workspace not in dialog.entries  # the open one is not offered
    QTest.keyClicks(dialog.filter, "brand-new")
    with app.qtbot.waitSignal(window.workspace_switched, timeout=LISTING_TIMEOUT_MS) as switched:
        QTest.keyClick(dialog.filter, Qt.Key.Key_Return)
    assert switched.args == ["brand-new"]


def test_notes_added_on_disk_appear_in_the_list_by_themselves_R47(make_app: AppFactory) -> None:
    app = make_app()
    browser = app.window.driver.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
    assert isinstance(browser, WorkspaceBrowserFrame)
    app.qtbot.waitUntil(lambda: len(browser.documents) == 2, timeout=LISTING_TIMEOUT_MS)
    (app.workspace_dir / "notes" / "from-disk.md").write_text("# new\n", encoding="utf-8")
    app.qtbot.waitUntil(
        lambda: browser.list.findItems("notes/from-disk.md", Qt.MatchFlag.MatchExactly) != [],
        timeout=LISTING_TIMEOUT_MS,
    )


def test_the_frames_menu_names_the_real_frames_R47(make_app: AppFactory) -> None:
    app = make_app()
    app.mount_two()
    actions = app.window.menus.focus_actions
    visible = [action.text() for action in actions if action.isVisible()]
    assert visible == ["Focus notes/a.md", "Focus notes/b.md"]
    app.window.driver.close_frame("inbox-1")
    assert [action.text() for action in actions if action.isVisible()] == ["Focus notes/b.md"]


def test_a_new_note_named_without_an_extension_is_a_markdown_note_R47(
    make_app: AppFactory,
) -> None:
    app = make_app()
    creation = app.window.driver.create_note(" ideas ")
    with app.qtbot.waitSignal(creation.opened, timeout=LOAD_TIMEOUT_MS):
        pass
    assert creation.path == "ideas.md"
    assert [frame.path for frame in app.window.driver.inbox_frames()] == ["ideas.md"]
    assert app.saved_text("ideas.md") == ""
    assert not (app.workspace_dir / "ideas").exists()
    # A name with its own extension, or a dotted folder, is taken as typed.
    kept = app.window.driver.create_note("notes/list.txt")
    with app.qtbot.waitSignal(kept.opened, timeout=LOAD_TIMEOUT_MS):
        pass
    assert kept.path == "notes/list.txt"
    dotted = app.window.driver.create_note("v1.2/plan")
    with app.qtbot.waitSignal(dotted.opened, timeout=LOAD_TIMEOUT_MS):
        pass
    assert dotted.path == "v1.2/plan.md"


def test_quick_open_closed_before_its_listing_arrives_is_left_alone_R47(
    make_app: AppFactory,
) -> None:
    """Ctrl+P then Esc at once: the listing that comes back later finds the dialog gone."""
    app = make_app()
    window = app.window
    dialog = window.menus.quick_open()
    dialog.reject()  # deleted on close
    app.qtbot.waitUntil(lambda: not shiboken6.isValid(dialog), timeout=LISTING_TIMEOUT_MS)
    app.qtbot.waitUntil(lambda: not app.session.runner.busy, timeout=LISTING_TIMEOUT_MS)
    # pytest-qt fails the test on any exception raised in the event loop meanwhile.
    assert window.isVisible()
