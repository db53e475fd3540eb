"""R46: a long real path never widens the window past the screen; titles elide in the middle."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.workspace.switch import BROWSER_FRAME_ID
from renderer.frames.providers import WORKSPACE_PROVIDER, WorkspaceBrowserFrame
from tests.app.conftest import LOAD_TIMEOUT_MS, AppFactory

LONG_PATH = (
    "projects/2026/customer-research/interviews/north-region/"
    "follow-ups-with-the-operations-team/summary-of-all-notes12.md"
)


def test_a_117_character_path_keeps_the_window_within_the_screen_R46(
    make_app: AppFactory,
) -> None:
    assert len(LONG_PATH) == 117
    app = make_app({LONG_PATH: "# Long\nbody\n", "notes/a.md": "# A\n"})
    window = app.window
    screen = QApplication.primaryScreen().availableGeometry()
    before = window.width()
    frame = app.mount("inbox-1", LONG_PATH)
    app.mount("inbox-2", "notes/a.md")
    window.driver.activate_frame("inbox-1")
    QApplication.processEvents()
    assert window.width() == before  # the long path did not widen the window
    # Nothing in the window asks for more width than the screen has (offscreen: 800 px).
    assert window.minimumSizeHint().width() <= screen.width()
    title = frame.title_bar.title
    shown = title.text()
    assert shown != LONG_PATH and "…" in shown  # the folders elided in the middle,
    kept_start = shown.split("…")[0]
    assert kept_start and LONG_PATH.startswith(kept_start)
    assert shown.endswith("/summary-of-all-notes12.md")
    assert title.toolTip() == LONG_PATH
    window.driver.close_frame("inbox-1")
    QApplication.processEvents()
    assert window.width() == before


def test_the_workspace_list_shortens_a_long_path_instead_of_scrolling_sideways_R46(
    make_app: AppFactory,
) -> None:
    app = make_app({LONG_PATH: "# Long\n", "notes/a.md": "# A\n"})
    browser = app.window.driver.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
    assert isinstance(browser, WorkspaceBrowserFrame)
    app.qtbot.waitUntil(lambda: browser.list.count() == 2, timeout=LOAD_TIMEOUT_MS)
    QApplication.processEvents()
    assert browser.list.width() < browser.list.fontMetrics().horizontalAdvance(LONG_PATH)
    assert browser.list.horizontalScrollBar().maximum() == 0  # nothing hidden off to the side
    tips = [browser.list.item(row).toolTip() for row in range(browser.list.count())]
    assert any(LONG_PATH in tip for tip in tips)  # the whole path, on hover
