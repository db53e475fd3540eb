"""Rendered Markdown never loads anything by itself (R62): the one policy for images and links.

Qt's rich text reads any local file an ``<img src>`` names, from the GUI thread, the
moment it lays the text out: ``/dev/zero`` never ends and the app dies for lack of
memory. Both the note preview and the assistant's replies (the transcript redrawn at
start included) therefore show an image as its alt text (the stand-in of
:func:`bridge.markdown.image_stand_in`) and never ask for the resource:

- the preview's HTML is made without ``<img>`` (:func:`bridge.markdown.render_html`),
  and :class:`InertBrowser` answers every resource request with nothing, reading
  nothing, and never follows a link by itself;
- a reply's document has its images replaced by their alt text (:func:`drop_images`)
  before it becomes the HTML a label shows.

What a click on a link does is the frame's choice (:mod:`renderer.frames.links`).
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QUrl
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument, QTextFormat
from PySide6.QtWidgets import QTextBrowser, QWidget

from bridge.markdown import image_stand_in


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


def drop_images(document: QTextDocument) -> int:
    """Replace every image in ``document`` by its alt text; how many there were.

    One pass collects the images, a second replaces them from the end, so positions
    found in the first stay right: linear in the document's size.
    """
    found: list[tuple[int, int, str]] = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            char_format = fragment.charFormat()
            if char_format.isImageFormat():
                alt = char_format.property(QTextFormat.Property.ImageAltText)
                found.append(
                    (fragment.position(), fragment.length(), alt if isinstance(alt, str) else "")
                )
            fragments += 1
        block = block.next()
    for position, length, alt in reversed(found):
        cursor = QTextCursor(document)
        cursor.setPosition(position)
        cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
        plain = QTextCharFormat()
        plain.setFontItalic(True)
        cursor.insertText(image_stand_in(alt) * length, plain)  # alike images share a fragment
    return len(found)
