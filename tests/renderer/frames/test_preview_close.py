"""R67: a preview closed with a big note shown does not free its document in one go.

Deleted with its view, a laid-out 5 MiB document was freed in one step of the GUI
thread (250-560 ms measured). Closed, the view hands every document it holds to the
application, which empties it a slice at a time and then deletes it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from bridge.markdown import render_html_pieces
from renderer.frames.inbox.views import PreviewView

NOTE = "".join(f"## Part {n}\n\n- [ ] item {n} with some words\n\n" for n in range(3000))


def test_r67_a_closed_preview_leaves_its_document_to_be_emptied_in_slices(qtbot: QtBot) -> None:
    view = PreviewView()
    qtbot.addWidget(view)
    for _step in view.draw(render_html_pieces(NOTE)):
        pass
    shown = view.document()
    blocks = shown.blockCount()
    assert blocks > 1000
    gone: list[bool] = []
    shown.destroyed.connect(lambda: gone.append(True))

    view.leave_documents()

    assert view.document() is not shown and view.document().isEmpty()
    assert shown.parent() is not view and shown.parent().parent() is QApplication.instance()
    assert shown.blockCount() == blocks  # nothing freed in the closing step itself
    view.deleteLater()
    qtbot.waitUntil(lambda: gone == [True], timeout=30_000)
