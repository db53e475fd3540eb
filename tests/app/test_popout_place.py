"""A popped-out note opens beside the main window when there is room, and its chip speaks
as the main window's does."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QApplication

from app.popout.place import (
    GAP,
    MIN_WIDTH,
    beside_argument,
    fit_to_screen,
    parse_beside,
    placement,
)
from app.popout.window import PopoutWindow, place_beside
from tests.app.conftest import AppFactory

SCREEN = QRect(0, 0, 1600, 1000)
WANTED = QSize(980, 680)


def test_with_room_on_the_right_it_opens_there_at_the_host_height() -> None:
    host = QRect(0, 40, 900, 820)
    placed = placement(host, SCREEN, WANTED)
    assert placed.left() == host.right() + 1 + GAP and placed.top() == 40
    assert placed.width() == SCREEN.right() - host.right() - GAP  # as wide as the room
    assert SCREEN.contains(placed) and not placed.intersects(host)


def test_with_more_room_on_the_left_it_opens_there() -> None:
    host = QRect(700, 0, 900, 820)
    placed = placement(host, SCREEN, WANTED)
    assert placed.right() == host.left() - GAP - 1
    assert SCREEN.contains(placed) and not placed.intersects(host)


def test_without_room_it_is_offset_from_the_host_not_on_top_of_it_and_stays_on_screen() -> None:
    screen = QRect(0, 0, 1280, 800)
    host = QRect(0, 0, 1280, 800)  # the main window fills the screen
    placed = placement(host, screen, WANTED)
    assert placed.topLeft() != host.topLeft()
    assert screen.contains(placed)


def test_the_host_geometry_travels_as_one_argument_and_bad_values_are_plain_errors() -> None:
    host = QRect(10, 20, 1360, 820)
    assert parse_beside(beside_argument(host)) == host
    for bad in ("1,2,3", "a,b,c,d", "0,0,0,10"):
        with pytest.raises(ValueError, match="--beside"):
            parse_beside(bad)


def test_the_host_asks_for_its_pop_out_beside_it(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    handle = app.window.session.popouts.create(
        "inbox-1", frame.path, "edit", "w", app.window.geometry()
    )
    arguments = handle.process.arguments()
    assert arguments[arguments.index("--beside") + 1] == beside_argument(app.window.geometry())
    app.window.session.popouts.forget(handle)


def test_the_pop_out_opens_beside_the_host_and_its_chip_says_this_note_R29(
    make_app: AppFactory,
) -> None:
    app = make_app()
    screen = app.window.screen().availableGeometry()
    popout = PopoutWindow(app.session.link, "inbox-9", "notes/b.md", "preview")
    try:
        popout.show()
        app.qtbot.waitUntil(lambda: popout.frame.is_loaded)
        # The offscreen screen is small: leave exactly the least room the pop-out takes
        # beside it, measured once loaded (the save badge then takes its room too).
        QApplication.processEvents()  # pending polish and layout first: they widen the hint
        least = max(MIN_WIDTH, popout.minimumSizeHint().width())
        host = QRect(screen.left(), screen.top(), screen.width() - least - GAP, screen.height())
        place_beside(popout, beside_argument(host))
        assert popout.geometry().left() > host.right()
        assert popout.width() == least and popout.geometry().right() <= screen.right()
        shown = popout.assistant.chip.shown_text()
        assert shown.startswith("This note: notes/b.md"), shown
    finally:
        popout.close()
        app.qtbot.waitUntil(lambda: not popout.isVisible())
        popout.shutdown_workers()
        popout.deleteLater()


def test_the_main_window_opens_within_its_screen_R46(make_app: AppFactory) -> None:
    app = make_app()
    window = app.window
    area = window.screen().availableGeometry()
    window.resize(area.width() + 400, area.height() + 200)  # as 1360×820 on a 1280×800 screen
    window.move(area.left() + 50, area.top() + 50)
    fit_to_screen(window)
    app.qtbot.waitUntil(lambda: window.width() <= area.width())
    assert window.height() <= area.height()
    assert area.contains(QRect(window.pos(), window.size()))
