"""Rendered Markdown never loads anything by itself (R62): the one policy for images and links.

Qt's rich text reads any local file an ``<img src>`` names, from the GUI thread, the
moment it lays the text out: ``/dev/zero`` never ends and the app dies for lack of
memory. Both the note preview and the assistant's replies (the transcript redrawn at
start included) therefore show an image as its alt text (the stand-in of
:func:`bridge.markdown.image_stand_in`) and never ask for the resource:

- the preview's HTML, and a reply's, is made without ``<img>``
  (:func:`bridge.markdown.render_html_pieces`);
- :class:`InertBrowser` answers every resource request with nothing, reading nothing,
  and never follows a link by itself.

What a click on a link does is the frame's choice (:mod:`renderer.frames.inbox.links`).
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QUrl
from PySide6.QtWidgets import QTextBrowser, QWidget


class InertBrowser(QTextBrowser):
    """A read-only rich text view that loads no resource and follows no link itself.

    ``anchorClicked`` still tells which link was clicked; nothing else happens.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.refused_resources: list[str] = []
        """Every resource Qt asked for and did not get (none, as the HTML names none)."""

    def loadResource(self, kind: int, name: QUrl | str) -> object:
        # An empty answer, not None: Qt reads the file itself when the answer is null.
        self.refused_resources.append(name.toString() if isinstance(name, QUrl) else str(name))
        return QByteArray()
