"""The window keeps its size, place and maximised state across restarts, per workspace (R80).

The offscreen screen is 800 × 800 pixels: sizes here fit in it, and one that does not
shows that a restored window stays within the screen.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication

from app.workspace.layout_state import LAYOUT_FILE
from tests.app.conftest import AppFactory

TIMEOUT_MS = 10_000


def _screen() -> QRect:
    screen = QApplication.primaryScreen()
    assert screen is not None
    return screen.availableGeometry()


def test_r80_size_and_place_come_back_after_a_restart(make_app: AppFactory) -> None:
    app = make_app()
    window = app.window
    window.resize(640, 480)
    window.move(40, 30)
    app.qtbot.waitUntil(lambda: window.size().width() == 640, timeout=TIMEOUT_MS)
    place = window.geometry()
    app.quit()
    saved = json.loads((app.data_dir / LAYOUT_FILE).read_text("utf-8"))
    assert saved["workspaces"][app.session.workspace]["window"]
    again = make_app(restart=app, keep_place=True).window
    assert again.geometry() == place
    assert not again.isMaximized()


def test_r80_the_window_returns_exactly_where_it_was_at_every_restart(
    make_app: AppFactory,
) -> None:
    """Not one frame's title bar lower each time: the place kept is the place shown."""
    app = make_app()
    window = app.window
    window.resize(640, 480)
    window.move(40, 30)
    app.qtbot.waitUntil(lambda: window.size().width() == 640, timeout=TIMEOUT_MS)
    place, outer = window.geometry(), window.frameGeometry()
    assert outer != place  # the offscreen screen draws a frame around the window too
    app.quit()
    for _restart in range(3):
        app = make_app(restart=app, keep_place=True)
        assert (app.window.geometry(), app.window.frameGeometry()) == (place, outer)
        app.quit()


def test_r80_a_maximised_window_opens_maximised(make_app: AppFactory) -> None:
    app = make_app()
    app.window.resize(640, 480)
    app.window.showMaximized()
    app.qtbot.waitUntil(app.window.isMaximized, timeout=TIMEOUT_MS)
    app.quit()
    again = make_app(restart=app, keep_place=True).window
    app.qtbot.waitUntil(again.isMaximized, timeout=TIMEOUT_MS)
    assert again.windowState() & Qt.WindowState.WindowMaximized


def test_r80_a_place_off_the_screen_or_too_big_comes_back_within_it(
    make_app: AppFactory,
) -> None:
    app = make_app()
    window = app.window
    window.resize(1600, 1000)  # larger than the screen, as after a smaller monitor
    window.move(5000, 4000)  # and off it, as after a monitor was unplugged
    app.quit()
    again = make_app(restart=app, keep_place=True).window
    screen = _screen()
    assert screen.contains(again.geometry()), (again.geometry(), screen)


def test_r80_each_workspace_keeps_its_own_window_place(make_app: AppFactory) -> None:
    app = make_app()
    window = app.window
    first = app.session.workspace
    window.resize(640, 480)
    app.switch_workspace("other")
    window.resize(520, 400)
    app.quit()
    saved = json.loads((app.data_dir / LAYOUT_FILE).read_text("utf-8"))["workspaces"]
    assert saved[first]["window"] != saved["other"]["window"]
    again = make_app(restart=app, keep_place=True)  # opens the first workspace's folder
    assert again.session.workspace == first and again.window.size().width() == 640


def test_r80_a_broken_window_place_keeps_the_frames(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    app.quit()
    path = app.data_dir / LAYOUT_FILE
    saved = json.loads(path.read_text("utf-8"))
    saved["workspaces"][app.session.workspace]["window"] = "not base64 at all!"
    path.write_text(json.dumps(saved), "utf-8")
    again = make_app(restart=app, keep_place=True).window
    assert [frame.frame_id for frame in again.driver.inbox_frames()] == ["inbox-1"]
    # A new window's size (cut to the offscreen screen, as at any start): nothing set aside.
    assert again.size().width() == min(1360, _screen().width())
