"""What a click on a link in a rendered note does (R62).

- A relative link to a path inside the workspace (``b.md``, ``../plans/q3.md``) opens
  that note in a frame.
- A web or mail address (``https:``, ``http:``, ``mailto:``) opens only on an explicit
  action: the frame shows the whole address with an "Open link" button.
- Anything else (``file:``, an absolute path, a path that climbs out of the
  workspace, ``data:``, ``javascript:``) is not opened, and the frame says why.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from bridge.paths import WorkspacePathError, check_workspace_path

WEB_SCHEMES: Final = frozenset({"http", "https", "mailto"})
OFFER: Final = "This link goes to {address}"
REFUSED: Final = "This link is not opened: {address} is outside the workspace."


@dataclass(frozen=True)
class LinkTarget:
    """Where a clicked link leads: a workspace note, a web address, or nowhere allowed."""

    kind: Literal["note", "web", "refused"]
    address: str


def link_target(href: str, note_path: str) -> LinkTarget:
    """Classify ``href`` as clicked in the note at ``note_path`` (workspace-relative)."""
    url = QUrl(href)
    scheme = url.scheme().lower()
    if scheme in WEB_SCHEMES and url.isValid():
        return LinkTarget("web", url.toString())
    if scheme or url.host() or not url.path() or url.path().startswith("/"):
        return LinkTarget("refused", href)
    folder = posixpath.dirname(note_path)
    joined = posixpath.normpath(posixpath.join(folder, url.path()))
    try:
        return LinkTarget("note", check_workspace_path(joined))
    except WorkspacePathError:
        return LinkTarget("refused", href)


class LinkOffer(QFrame):
    """A bar under the note: the clicked address in full, and "Open link" when allowed."""

    opened = Signal(str)
    """The address the person chose to open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("linkOffer")
        self.label = QLabel("", self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.open_button = QPushButton("Open link", self)
        self.open_button.setAccessibleName("Open the link shown here")
        self.dismiss_button = QPushButton("Dismiss", self)
        self.dismiss_button.setAccessibleName("Dismiss the link shown here")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.open_button)
        layout.addWidget(self.dismiss_button)
        self._address = ""
        self.open_url: Callable[[QUrl], object] = QDesktopServices.openUrl
        """How an address is opened once the person asks: the desktop's own handler."""
        self.open_button.clicked.connect(self._open)
        self.dismiss_button.clicked.connect(self.hide)
        self.hide()

    def offer(self, target: LinkTarget) -> None:
        """Show where the link goes; only a web address gets the button."""
        self._address = target.address if target.kind == "web" else ""
        template = OFFER if target.kind == "web" else REFUSED
        self.label.setText(template.format(address=target.address))
        self.open_button.setVisible(target.kind == "web")
        self.show()

    def _open(self) -> None:
        if self._address:
            self.opened.emit(self._address)
            self.open_url(QUrl(self._address))
        self.hide()
