"""R85 and R84: the keyboard leaves the assistant's input, every control is named for a screen
reader, an answer is announced at its start and end (never per token), many notes fold."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QAccessible, QFontMetrics, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from renderer.frames.base import FrameBase
from tests.app.conftest import AppFactory, AppUnderTest

CONTROLS = (QAbstractButton, QLineEdit, QPlainTextEdit, QTextEdit)
ROLES = {
    QAccessible.Role.Button,
    QAccessible.Role.CheckBox,
    QAccessible.Role.EditableText,
    QAccessible.Role.StaticText,
    QAccessible.Role.ButtonMenu,
    QAccessible.Role.ButtonDropDown,
    QAccessible.Role.RadioButton,
}


def _active(app: AppUnderTest) -> None:
    app.window.activateWindow()
    app.qtbot.waitUntil(lambda: app.window.isActiveWindow())


def test_tab_and_shift_tab_leave_the_assistants_input_and_enter_still_sends(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    _active(app)
    assistant = app.window.assistant
    QTest.keyClick(app.window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: assistant.input.hasFocus())
    QTest.keyClicks(assistant.input, "hello")
    QTest.keyClick(assistant.input, Qt.Key.Key_Tab)
    assert assistant.input.toPlainText() == "hello"  # no tab character typed
    assert not assistant.input.hasFocus()
    assert app.window.focusWidget() is assistant.send_button
    QTest.keyClick(assistant.send_button, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert assistant.input.hasFocus()
    QTest.keyClick(assistant.input, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert app.window.focusWidget() is assistant.exclude_toggle  # the order follows the window
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=15_000):
        assistant.input.setFocus()
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)


def test_every_control_has_an_accessible_name_and_role(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    app.send("tick off the first task")
    frame.open_find(replace=True)
    unnamed: list[str] = []
    for widget in app.window.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisibleTo(app.window):
            continue
        interface = QAccessible.queryAccessibleInterface(widget)
        assert interface is not None
        if not interface.text(QAccessible.Text.Name).strip():
            unnamed.append(f"{type(widget).__name__} {widget.objectName()!r}")
        assert interface.role() in ROLES | {QAccessible.Role.Client}, widget
    assert unnamed == []


def test_the_chip_describes_the_input(make_app: AppFactory) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    app.qtbot.waitUntil(lambda: "notes/a.md" in assistant.chip.text())
    interface = QAccessible.queryAccessibleInterface(assistant.input)
    description = interface.text(QAccessible.Text.Description)
    assert "notes/a.md" in description
    assert description == assistant.chip.accessibleDescription()


def test_an_answer_is_announced_when_it_starts_and_ends_never_per_token(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    said: list[str] = []
    assistant.announcer.announced.connect(said.append)
    _active(app)
    assistant.input.setFocus()
    QTest.keyClicks(assistant.input, "tick off the first task")
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=15_000) as blocker:
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)
        assert said == ["Answering…"]
    record = blocker.args[0]
    reply = record.reply.reply
    assert len(said) == 3, said  # start, end, and the proposal's buttons
    assert said[1] and said[1] in " ".join(reply.replace("*", "").split())
    assert "Apply or Discard" in said[2]


def test_with_six_notes_open_the_active_one_shows_twenty_lines(make_app: AppFactory) -> None:
    notes = {f"notes/n{number}.md": "line\n" * 60 for number in range(1, 7)}
    app = make_app(notes)
    frames = [app.mount(f"inbox-{number}", f"notes/n{number}.md") for number in range(1, 7)]
    _active(app)
    QTest.keyClick(app.window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    app.qtbot.waitUntil(lambda: frames[2].editor.hasFocus())
    line_height = QFontMetrics(frames[2].editor.font()).lineSpacing()
    app.qtbot.waitUntil(lambda: frames[2].editor.viewport().height() >= 20 * line_height)
    assert [frame.folded for frame in frames] == [True, True, False, True, True, True]
    QTest.keyClick(frames[2].editor, Qt.Key.Key_F6)  # the next frame opens, this one folds
    app.qtbot.waitUntil(lambda: frames[3].editor.hasFocus())
    assert frames[2].folded and not frames[3].folded
    app.qtbot.waitUntil(lambda: frames[3].editor.viewport().height() >= 20 * line_height)


def test_the_inline_review_announces_its_buttons_once(make_app: AppFactory) -> None:
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    inline = frame.inline
    said: list[str] = []
    inline.announcer.announced.connect(said.append)
    start = frame.read_text().index("alpha line")
    frame.select(start, start + len("alpha line"))
    _active(app)
    frame.editor.setFocus()
    QTest.keyClick(frame.editor, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    prompt = inline.prompt
    app.qtbot.waitUntil(lambda: prompt.instruction.hasFocus())
    QTest.keyClicks(prompt.instruction, "upper case")
    with app.qtbot.waitSignal(inline.answered, timeout=15_000):
        QTest.keyClick(prompt.instruction, Qt.Key.Key_Return)
        assert said == []  # nothing is said while the answer streams
    assert inline.state == "review"
    assert len(said) == 1, said  # once, when the review is shown
    spoken = said[0]
    for button in (prompt.accept_button, prompt.reject_button, prompt.retry_button):
        assert button.isVisible() and button.text() in spoken
    assert spoken.index("Accept") < spoken.index("Reject") < spoken.index("Try again")
    assert inline.announcer.source is prompt  # said on behalf of the review, not the note
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    assert inline.state == "closed" and len(said) == 1


def _tab_stops(window: QWidget) -> set[QWidget]:
    """What the window shows that Tab may stop at: shown, enabled, taking Tab focus."""
    tab = Qt.FocusPolicy.TabFocus.value
    return {
        widget
        for widget in window.findChildren(QWidget)
        if widget.isVisible()
        and widget.isEnabled()
        and widget.window() is window
        and widget.focusProxy() is None
        and widget.focusPolicy().value & tab == tab
    }


def _press_tab(*, forward: bool) -> QWidget:
    """Tab (or Shift+Tab) to the focused widget; a note's text, where Tab is text, takes
    Ctrl+Tab. The widget focused after."""
    focused = QApplication.focusWidget()
    assert focused is not None
    key = Qt.Key.Key_Tab if forward else Qt.Key.Key_Backtab
    modifiers = Qt.KeyboardModifier.NoModifier if forward else Qt.KeyboardModifier.ShiftModifier
    if isinstance(focused, QPlainTextEdit) and not focused.tabChangesFocus():
        modifiers |= Qt.KeyboardModifier.ControlModifier
    QTest.keyClick(focused, key, modifiers)
    after = QApplication.focusWidget()
    assert after is not None and after is not focused, f"Tab stays on {focused!r}"
    return after


def _frame_of(widget: QWidget) -> QWidget | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, FrameBase):
        parent = parent.parentWidget()
    return parent


def _place(widget: QWidget) -> QRect:
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


def _reads_before(first: QWidget, then: QWidget) -> bool:
    """``then`` comes after ``first`` as the window reads: inside it, beside it on its
    right, or below it."""
    if first.isAncestorOf(then):
        return True
    one, two = _place(first), _place(then)
    shared = min(one.bottom(), two.bottom()) - max(one.top(), two.top()) + 1
    if shared * 2 >= min(one.height(), two.height()):
        return two.left() > one.left()
    return two.top() > one.top()


def _edge(image: QImage) -> list[int]:
    """The colours of the outer two pixels all round: where a focus border is drawn."""
    width, height = image.width(), image.height()
    ring = [(x, y) for x in range(width) for y in (0, 1, height - 2, height - 1)]
    ring += [(x, y) for y in range(height) for x in (0, 1, width - 2, width - 1)]
    return [image.pixel(x, y) for x, y in ring]


def test_tab_reaches_every_control_in_the_windows_order_and_shows_the_focus(
    make_app: AppFactory,
) -> None:
    app = make_app(demo_layout=True)
    window = app.window
    app.qtbot.waitUntil(lambda: len(window.driver.inbox_frames()) == 2)
    first, second = window.driver.inbox_frames()
    app.qtbot.waitUntil(lambda: first.is_loaded and second.is_loaded)
    _active(app)
    QTest.mouseClick(first.editor.viewport(), Qt.MouseButton.LeftButton)
    assistant = window.assistant
    QTest.keyClick(first.editor, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(assistant.input, "tick off the first task")
    with app.qtbot.waitSignal(assistant.turn_finished, timeout=15_000):
        QTest.keyClick(assistant.input, Qt.Key.Key_Return)
    (proposal,) = assistant.latest_proposals
    app.qtbot.waitUntil(lambda: proposal.state == "ready")
    QTest.mouseClick(first.editor.viewport(), Qt.MouseButton.LeftButton)
    start = first.editor
    assert QApplication.focusWidget() is start

    chain: list[QWidget] = [start]
    focused_look: dict[QWidget, QImage] = {start: start.grab().toImage()}
    plain_look: dict[QWidget, QImage] = {}
    while len(chain) < 200:
        left = chain[-1]
        reached = _press_tab(forward=True)
        plain_look[left] = left.grab().toImage()
        if reached is start:
            break
        assert reached not in chain, f"Tab comes back to {reached!r} before the chain ends"
        chain.append(reached)
        focused_look[reached] = reached.grab().toImage()
    assert QApplication.focusWidget() is start, "the chain never comes back round"

    # Every control the window shows is reached, the demo layout's among them.
    assert set(chain) == _tab_stops(window)
    for control in (
        first.view_buttons["edit"],
        first.close_button,
        second.editor,
        assistant.clear_button,
        assistant.exclude_toggle,
        assistant.input,
        assistant.send_button,
        proposal.apply_button,
        proposal.discard_button,
    ):
        assert control in chain, control

    # The frames come in the window's order (columns left to right, each top to bottom),
    # each frame's controls together, read top to bottom and left to right.
    # The chain is a ring: read it from the first control of a frame.
    frames = [_frame_of(control) for control in chain]
    turn = next(index for index in range(len(chain)) if frames[index] is not frames[index - 1])
    ring, ring_frames = chain[turn:] + chain[:turn], frames[turn:] + frames[:turn]
    visits = [
        frame
        for index, frame in enumerate(ring_frames)
        if index == 0 or frame is not ring_frames[index - 1]
    ]
    assert len(visits) == len(set(visits)), "a frame's controls are split up"
    shown_frames = [frame for frame in window.frames.values() if frame.isVisible()]
    in_place = sorted(shown_frames, key=lambda frame: (_place(frame).left(), _place(frame).top()))
    begin = in_place.index(visits[0])
    assert visits == in_place[begin:] + in_place[:begin]
    for one, then, frame_one, frame_then in zip(
        ring, ring[1:], ring_frames, ring_frames[1:], strict=False
    ):
        if frame_one is frame_then:
            assert _reads_before(one, then), (
                f"{then.accessibleName()!r} after {one.accessibleName()!r}"
            )

    # Shift+Tab goes back through the same chain.
    back = [start]
    for _ in chain[1:]:
        back.append(_press_tab(forward=False))
    assert back == [start, *reversed(chain[1:])]
    assert _press_tab(forward=False) is start

    # The focused control is marked: its border is drawn differently.
    unmarked = [
        f"{type(control).__name__} {control.accessibleName()!r}"
        for control in chain
        if _edge(focused_look[control]) == _edge(plain_look[control])
    ]
    assert unmarked == [], unmarked
