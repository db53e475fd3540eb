"""Steps done as a person does them: Qt input events on the real widgets (R88).

A click lands on the widget under the pointer, keys go to the widget that has the
keyboard focus, and the window they belong to is brought to the front first, as a
person's click does. So whatever Qt's focus does live (the next editor taking the
focus when a frame closes, a window getting its focus back) happens in a replay too.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QWidget

from app.scenario.waiting import StepError, wait_until

_ACTIVATE_SECONDS = 5.0
_NO_MODIFIER = Qt.KeyboardModifier.NoModifier
_LEFT = Qt.MouseButton.LeftButton
_KEYS_FOR = {"\n": Qt.Key.Key_Return, "\t": Qt.Key.Key_Tab}
"""Characters a person types with a key of their own; every other one is its text."""
PASTE_FROM_CHARS = 200
"""Text this long is pasted (Ctrl+V), as a person would, not typed key by key."""
_MAX_ARROWS = 64
_MAX_SCROLLS = 64


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def bring_to_front(widget: QWidget) -> None:
    """Make ``widget``'s window the active one, as a click into it does."""
    window = widget.window()
    if QApplication.activeWindow() is window:
        return
    window.raise_()
    window.activateWindow()
    wait_until(
        lambda: QApplication.activeWindow() is window,
        timeout=_ACTIVATE_SECONDS,
        what=f"the window '{window.windowTitle()}' to come to the front",
    )


def click(widget: QWidget, at: QPoint | None = None, *, shift: bool = False) -> None:
    """A left click on ``widget`` (its middle unless ``at``), its window brought forward."""
    if not widget.isVisible():
        name = widget.accessibleName() or type(widget).__name__
        raise StepError(f"'{name}' is not on the screen, so it cannot be clicked")
    bring_to_front(widget)
    modifier = Qt.KeyboardModifier.ShiftModifier if shift else _NO_MODIFIER
    QTest.mouseClick(widget, _LEFT, modifier, at if at is not None else widget.rect().center())


def press(key: Qt.Key, modifier: Qt.KeyboardModifier = _NO_MODIFIER) -> None:
    """One key, to the widget that has the focus (shortcuts first, as for a real key)."""
    QTest.keyClick(_focused(), key, modifier)


def type_keys(text: str) -> None:
    """``text`` typed key by key into the focused widget (a character outside the BMP is one
    key, as an input method sends it); a long text is pasted with Ctrl+V instead."""
    if len(text) >= PASTE_FROM_CHARS:
        _paste(text)
        return
    for character in text:
        target = _focused()
        key = _KEYS_FOR.get(character)
        if key is not None:
            QTest.keyClick(target, key)
        else:
            QTest.sendKeyEvent(
                QTest.KeyAction.Click, target, Qt.Key.Key_unknown, character, _NO_MODIFIER
            )


def _paste(text: str) -> None:
    clipboard = QApplication.clipboard()
    kept = clipboard.text()
    clipboard.setText(text)
    try:
        press(Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    finally:
        clipboard.setText(kept)


def _focused() -> QWidget:
    focused = QApplication.focusWidget()
    if focused is None:
        raise StepError("no widget has the keyboard focus, so the keys would go nowhere")
    return focused


def focus_editor(editor: QPlainTextEdit) -> None:
    """Click into the editor when the keys would not reach it (that click activates its frame)."""
    if QApplication.focusWidget() is editor and QApplication.activeWindow() is editor.window():
        return
    viewport = editor.viewport()
    click(viewport, _cursor_point(editor, editor.textCursor().position()))


def place_cursor(editor: QPlainTextEdit, position: int, *, extend: bool = False) -> None:
    """Put the cursor at ``position`` (UTF-16 units) as a person does: Ctrl+Home or Ctrl+End
    at either end, else a click there (Shift to extend the selection), then the arrow keys
    for what a click cannot pin down exactly."""
    length = editor.document().characterCount() - 1
    if position > length:
        raise StepError(f"offset {position} is past the end of the note (0–{length} allowed)")
    shift = Qt.KeyboardModifier.ShiftModifier if extend else _NO_MODIFIER
    if position in (0, length):
        key = Qt.Key.Key_Home if position == 0 else Qt.Key.Key_End
        press(key, Qt.KeyboardModifier.ControlModifier | shift)
        return
    _scroll_to(editor, position)
    click(editor.viewport(), _cursor_point(editor, position), shift=extend)
    for _ in range(_MAX_ARROWS):
        now = editor.textCursor().position()
        if now == position:
            return
        press(Qt.Key.Key_Right if now < position else Qt.Key.Key_Left, shift)
        moved = editor.textCursor().position()
        if moved == now or (now < position < moved) or (moved < position < now):
            break  # stuck, or stepped over it: the offset falls inside one character
    if editor.textCursor().position() != position:
        raise StepError(
            f"offset {position} falls inside a character (an emoji counts 2 UTF-16 units), "
            f"or the click there landed at {editor.textCursor().position()}"
        )


def _scroll_to(editor: QPlainTextEdit, position: int) -> None:
    """Scroll until the line holding ``position`` is in view, as a person does with the wheel."""
    cursor = QTextCursor(editor.document())
    cursor.setPosition(position)
    bar = editor.verticalScrollBar()
    line = max(1, editor.fontMetrics().lineSpacing())
    for _ in range(_MAX_SCROLLS):
        rect = editor.cursorRect(cursor)
        area = editor.viewport().rect()
        if area.contains(rect.center()):
            return
        lines = int((rect.center().y() - area.height() / 2) / line) or (
            1 if rect.center().y() > 0 else -1
        )
        before = bar.value()
        bar.setValue(before + lines)
        if bar.value() == before:
            return  # as far as it goes
        QApplication.processEvents()


def _cursor_point(editor: QPlainTextEdit, position: int) -> QPoint:
    cursor = QTextCursor(editor.document())
    cursor.setPosition(min(position, editor.document().characterCount() - 1))
    rect = editor.cursorRect(cursor)
    point = QPoint(rect.left() + 1, rect.center().y())
    area = editor.viewport().rect()
    return QPoint(
        min(max(point.x(), 0), area.width() - 1), min(max(point.y(), 0), area.height() - 1)
    )
