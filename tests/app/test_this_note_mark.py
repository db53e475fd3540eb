"""The frame that is "this note" is marked on the frame itself, and the chip agrees (R80)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from renderer.frames.base import THIS_NOTE_HINT
from tests.app.conftest import AppFactory, AppUnderTest


def _marked(app: AppUnderTest) -> list[str]:
    return [
        frame.frame_id for frame in app.window.window_frames.frames_in_order() if frame.is_this_note
    ]


def _chip_frame(app: AppUnderTest) -> str:
    """The frame id the chip names (its last part)."""
    return app.window.assistant.chip.text().rsplit(" · ", 1)[-1]


def test_r80_the_mark_follows_activation_and_agrees_with_the_chip(make_app: AppFactory) -> None:
    app = make_app()
    first, second = app.mount_two()
    # None activated yet: the latest mounted is "this note" (R3), marked at first start.
    assert _marked(app) == ["inbox-2"] == [_chip_frame(app)]
    assert second.title_bar.toolTip() == THIS_NOTE_HINT and first.title_bar.toolTip() == ""
    QTest.mouseClick(first.activation_target(), Qt.MouseButton.LeftButton)
    assert _marked(app) == ["inbox-1"] == [_chip_frame(app)]
    QTest.mouseClick(app.window.assistant.activation_target(), Qt.MouseButton.LeftButton)
    assert _marked(app) == ["inbox-1"] == [_chip_frame(app)]  # R5: the assistant keeps it
    app.window.driver.close_frame("inbox-1")
    assert _marked(app) == ["inbox-2"] == [_chip_frame(app)]
    app.window.driver.close_frame("inbox-2")
    assert _marked(app) == [] and app.window.assistant.chip.text() == "No note open"


def test_r80_the_marked_title_is_drawn_with_an_accent(make_app: AppFactory) -> None:
    app = make_app()
    first, second = app.mount_two()
    app.window.resize(1280, 800)
    app.window.show()
    QTest.mouseClick(app.window.assistant.activation_target(), Qt.MouseButton.LeftButton)
    marked, plain = second.title_bar.grab().toImage(), first.title_bar.grab().toImage()
    y = marked.height() // 2
    assert marked.pixelColor(1, y) != plain.pixelColor(1, y)  # the accent at its left edge
    assert marked.pixelColor(1, y).blue() > marked.pixelColor(1, y).red() + 60
