"""File ▸ Show workspace folder opens the folder the notes are in, and names it (R80)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QAction, QDesktopServices

from tests.app.conftest import AppFactory


class _FileManager(QObject):
    """Stands where the desktop's file manager would: Qt hands it each file:// URL opened."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url)


@pytest.fixture
def file_manager() -> Iterator[_FileManager]:
    manager = _FileManager()
    QDesktopServices.setUrlHandler("file", manager, "open")
    yield manager
    QDesktopServices.unsetUrlHandler("file")


def test_r80_the_file_menu_opens_and_names_the_workspace_folder(
    make_app: AppFactory, file_manager: _FileManager
) -> None:
    app = make_app()
    action = next(
        a for a in app.window.findChildren(QAction) if a.text() == "Show &workspace folder"
    )
    action.trigger()
    folder = app.workspace_dir.resolve()
    assert [url.toLocalFile() for url in file_manager.opened] == [str(folder)]
    shown = [banner.label.text() for banner in app.window.banners.banners]
    assert f"The workspace folder is {folder}." in shown
