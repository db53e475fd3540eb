"""File ▸ Show workspace folder: where the notes are on this machine (R80).

A new user looked for the workspace with ``find``; the menu opens it in the file
manager and says its path in a banner as well, since a machine without a file
manager (a container) opens nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from app.session import AppSession
from app.window.banner import Banners

FOLDER_TOPIC: Final = "workspace-folder"
SHOWN: Final = "The workspace folder is {folder}."
NOT_OPENED: Final = " No file manager opened it here; open it from a terminal."
REMOTE: Final = (
    "This workspace is kept by the backend at {url}, so its folder is not on this machine."
)


def show_workspace_folder(session: AppSession, banners: Banners) -> Path | None:
    """Open the workspace's folder in the file manager and name it; None with a remote backend."""
    folder = session.workspace_folder()
    if folder is None:
        banners.show_message(REMOTE.format(url=session.backend_url), topic=FOLDER_TOPIC)
        return None
    opened = QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
    message = SHOWN.format(folder=folder) + ("" if opened else NOT_OPENED)
    banners.show_message(message, topic=FOLDER_TOPIC)
    return folder
