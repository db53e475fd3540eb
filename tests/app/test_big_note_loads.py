"""A big note is built aside a slice at a time and shown as one load (R67).

``setPlainText`` of a 5 MiB note stops the GUI thread for about 350 ms; above
LOAD_SLICE_CHARS the text goes into a fresh document a slice per turn of the event
loop, which then replaces the editor's; the frame is loaded (editable, readable,
savable) only once it has.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QPlainTextEdit

from renderer.frames.shared_document import fresh_document
from renderer.frames.text_load import LOAD_SLICE_CHARS, text_slices
from tests.app.conftest import LOAD_TIMEOUT_MS, AppFactory

PIECES = st.sampled_from(["\n", "\r", "\r\n", "\u2029", "\u2028", "\x00", "é", "漢", " ", "ab"])
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=40).map("".join)


def _big_note(marker: str) -> str:
    line = f"- [ ] {marker}: a line of a big note, built a slice at a time\n"
    return line * (3 * LOAD_SLICE_CHARS // len(line))


@settings(max_examples=400, deadline=None)
@given(text=TEXTS, slice_chars=st.integers(min_value=1, max_value=7))
def test_a_note_built_by_slices_is_the_note_set_at_once_R67(
    qapp: QApplication, text: str, slice_chars: int
) -> None:
    editor = QPlainTextEdit()
    try:
        editor.setPlainText(text)
        built = fresh_document(editor)
        for _step in text_slices(built, text, slice_chars):
            pass
        expected: QTextDocument = editor.document()
        assert built.toRawText() == expected.toRawText()
        assert built.blockCount() == expected.blockCount()
        assert not built.isUndoAvailable() and built.isUndoRedoEnabled()
        assert not built.isModified()
    finally:
        editor.deleteLater()


def test_a_big_note_is_loaded_once_all_of_it_is_in_and_nothing_is_saved_R67(
    make_app: AppFactory,
) -> None:
    text = _big_note("first")
    app = make_app({"notes/big.md": text})
    frame = app.window.mount_inbox("inbox-1", "notes/big.md")
    with app.qtbot.waitSignal(frame.loaded, timeout=LOAD_TIMEOUT_MS):
        app.qtbot.waitUntil(lambda: frame._text_load.busy, timeout=LOAD_TIMEOUT_MS)
        assert not frame.is_loaded and frame.editor.isReadOnly()  # half a note is not a note
        assert frame.read_text() == ""
    assert frame.read_text() == text and not frame.editor.isReadOnly()
    document = frame.editor.document()
    assert not document.isModified() and not document.isUndoAvailable()
    assert frame.editor.textCursor().position() == 0
    assert not frame._autosave.is_dirty(frame.frame_id) and frame.save_state == "saved"
    assert (app.workspace_dir / "notes/big.md").read_text(encoding="utf-8") == text
    frame.type_text("!", at="end")  # the new document is the editor's, watched and saved
    assert document.isModified() and frame._autosave.is_dirty(frame.frame_id)
    with app.qtbot.waitSignal(frame.save_state_changed, timeout=LOAD_TIMEOUT_MS):
        frame.editor.document().undo()  # one undo step: the keystroke, not the load
    assert frame.read_text() == text


def test_another_note_opened_while_a_big_one_is_built_replaces_it_R67(
    make_app: AppFactory,
) -> None:
    first, second = _big_note("first"), _big_note("second")
    app = make_app({"notes/first.md": first, "notes/second.md": second})
    frame = app.window.mount_inbox("inbox-1", "notes/first.md")
    app.qtbot.waitUntil(lambda: frame._text_load.busy, timeout=LOAD_TIMEOUT_MS)
    with app.qtbot.waitSignal(frame.loaded, timeout=LOAD_TIMEOUT_MS):
        frame.open_path("notes/second.md")
        assert not frame._text_load.busy  # the first note's building was dropped
    assert frame.read_text() == second and frame.path == "notes/second.md"
    assert not frame._autosave.is_dirty(frame.frame_id)
    assert (app.workspace_dir / "notes/first.md").read_text(encoding="utf-8") == first


def test_a_frame_mounted_on_a_big_note_being_built_shares_its_document_R53_R67(
    make_app: AppFactory,
) -> None:
    text = _big_note("shared")
    app = make_app({"notes/big.md": text})
    first = app.window.mount_inbox("inbox-1", "notes/big.md")
    app.qtbot.waitUntil(lambda: first._text_load.busy, timeout=LOAD_TIMEOUT_MS)
    second = app.window.mount_inbox("inbox-2", "notes/big.md")
    app.qtbot.waitUntil(lambda: first.is_loaded and second.is_loaded, timeout=LOAD_TIMEOUT_MS)
    assert second.editor.document() is first.editor.document()
    assert second.read_text() == text
