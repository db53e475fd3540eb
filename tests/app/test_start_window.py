"""At start the main window is the first and only window: no blank one before it (issue 38)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

from app.__main__ import READY, WINDOW_SHOWN, main
from app.window.main_window import MainWindow


class _WindowsShown(QObject):
    """Every top-level window shown while it watches, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[QWidget] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and isinstance(watched, QWidget) and watched.isWindow():
            self.shown.append(watched)
        return False


def test_the_app_starts_with_its_main_window_and_no_window_before_it(
    qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    watch = _WindowsShown()
    qapp.installEventFilter(watch)
    try:
        # The real entry point, as `python -m app` runs it, quitting once its note shows.
        code = main(["--data-dir", str(tmp_path), "--quit-when-ready"])
    finally:
        qapp.removeEventFilter(watch)
    assert code == 0
    assert capsys.readouterr().out.split() == [WINDOW_SHOWN, READY]
    assert watch.shown, "no window was shown"
    assert all(isinstance(window, MainWindow) for window in watch.shown), [
        f"{type(window).__name__} {window.windowTitle()!r}" for window in watch.shown
    ]
