"""Readable in both colour schemes, measured on the rendered window (R82, issue 38).

The window is rendered offscreen in the light and the dark scheme, the way a desktop
turns dark: the platform hands Qt a dark palette and says the scheme changed (as
``QT_QPA_PLATFORMTHEME=gtk3 GTK_THEME=Adwaita:dark`` does). Every part with text is
cut out of the window's picture, and its text is measured against its background:
at least 4.5:1 (WCAG 2.x). The stylesheet's own pairs are held to the figures too,
borders and focus rings at 3:1.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QGraphicsView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QWidget,
)

from app.popout.window import PopoutWindow
from app.window.style import Fill, Rule, follow_system_scheme, palette, rules
from app.workspace.finding import QuickOpenDialog, WorkspacePickerDialog
from renderer.frames.assistant.proposal_view import ProposalView
from renderer.frames.assistant.turn_view import TurnView
from renderer.frames.inbox.frame import InboxFrame
from renderer.qt.scheme import BORDER_CONTRAST, SCHEMES, TEXT_CONTRAST, contrast
from tests.app.conftest import AppFactory, AppUnderTest

TIMEOUT_MS = 15_000
TODAY = "".join(f"line {n}\n" for n in range(1, 10)) + "## Shopping\n- [ ] milk\n- [ ] bread\n"
MAP = "# Plan\n## Week one\n### Monday\n## Week two\ntext\n"
INK_PIXELS = 2
"""Pixels of one colour before it counts as the text's colour (not a stray edge pixel)."""


def _platform_palette(dark: bool) -> QPalette:
    """What a desktop theme hands Qt: its own window and text colours, nothing of the app's."""
    result = QPalette()
    window, text, base = (
        ("#353535", "#ffffff", "#2d2d2d") if dark else ("#f6f5f4", "#000000", "#ffffff")
    )
    for role, colour in (
        (QPalette.ColorRole.Window, window),
        (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.Button, window),
        (QPalette.ColorRole.ButtonText, text),
    ):
        result.setColor(role, QColor(colour))
    return result


def _system_turns(dark: bool) -> None:
    """The desktop changes its scheme: a new palette, then Qt's signal that it changed."""
    QApplication.setPalette(_platform_palette(dark))
    QGuiApplication.styleHints().colorSchemeChanged.emit(
        Qt.ColorScheme.Dark if dark else Qt.ColorScheme.Light
    )
    QApplication.processEvents()


@pytest.fixture
def back_to_light() -> Iterator[None]:
    yield
    _system_turns(False)


def _ink_contrast(image: QImage) -> float | None:
    """The contrast of a picture's text with its background, or None when it shows no text.

    The background is the commonest colour; the text's colour is the one, among colours
    on a few pixels at least, farthest from it (a glyph's stem, not its softened edge).
    """
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = Counter(memoryview(image.constBits()).cast("I")[: image.width() * image.height()])
    if len(pixels) < 2:
        return None
    background = QColor.fromRgb(pixels.most_common(1)[0][0])
    inks = [QColor.fromRgb(value) for value, count in pixels.items() if count >= INK_PIXELS]
    return max(contrast(background, ink) for ink in inks)


def _shows_text(widget: QWidget) -> bool:
    if isinstance(widget, QLabel):
        return bool(widget.text().strip())
    if isinstance(widget, QAbstractButton):
        return bool(widget.text().strip())
    if isinstance(widget, QLineEdit):
        return bool(widget.text() or widget.placeholderText())
    if isinstance(widget, QPlainTextEdit | QTextBrowser):
        return bool(widget.toPlainText().strip())
    if isinstance(widget, QAbstractItemView):  # lists, tables and their headers
        model = widget.model()
        return model is not None and model.rowCount() > 0
    return isinstance(widget, QGraphicsView) and bool(widget.scene() and widget.scene().items())


def _text_parts(top: QWidget) -> list[QWidget]:
    kinds = (
        QLabel,
        QAbstractButton,
        QLineEdit,
        QPlainTextEdit,
        QTextBrowser,
        QAbstractItemView,
        QGraphicsView,
    )
    return [
        widget
        for widget in top.findChildren(QWidget)
        if isinstance(widget, kinds)
        and widget.isVisible()
        and widget.isEnabled()
        and widget.width() > 4
        and widget.height() > 4
        and _shows_text(widget)
    ]


def _unreadable(top: QWidget) -> list[str]:
    """Each part of ``top`` whose text reads under 4.5:1 in the rendered picture."""
    picture = top.grab().toImage()
    found = []
    for widget in _text_parts(top):
        shown = widget.viewport() if hasattr(widget, "viewport") else widget
        corner = shown.mapTo(top, QPoint(0, 0))
        area = QRect(corner, shown.size()).intersected(picture.rect())
        if area.isEmpty():
            continue
        measured = _ink_contrast(picture.copy(area))
        if isinstance(widget, QPlainTextEdit | QTextBrowser | QAbstractItemView | QLineEdit):
            # A selection's or a cursor's colour can stand out of the picture while the
            # text itself does not: the colours the widget draws its text with count too.
            colours = widget.palette()
            pair = contrast(
                colours.color(QPalette.ColorRole.Text), colours.color(QPalette.ColorRole.Base)
            )
            measured = pair if measured is None else min(measured, pair)
        if measured is not None and measured < TEXT_CONTRAST:
            name = widget.objectName() or type(widget).__name__
            found.append(f"{name} {getattr(widget, 'text', lambda: '')()!r:.40}: {measured:.2f}")
    return found


def _assert_readable(top: QWidget) -> None:
    found = _unreadable(top)
    assert not found, "\n".join(found)


def _faint_borders(top: QWidget) -> list[str]:
    """Each button and input of ``top`` whose border (its focus ring, when it has the focus)
    stands under 3:1 from what surrounds it, in the rendered picture: the middle of the
    top edge against the pixel just above it, and the same on the left, where that pixel
    is the background the control sits on."""
    picture = top.grab().toImage()
    found = []
    for widget in top.findChildren(QWidget):
        if not isinstance(widget, QPushButton | QLineEdit) or isinstance(
            widget.parent(), QComboBox | QAbstractSpinBox
        ):
            continue  # a box's own line edit: the box draws the border
        if not widget.isVisible() or widget.width() <= 4 or widget.height() <= 4:
            continue
        for edge, outside in (
            (QPoint(widget.width() // 2, 0), QPoint(widget.width() // 2, -1)),
            (QPoint(0, widget.height() // 2), QPoint(-1, widget.height() // 2)),
        ):
            at, beside = widget.mapTo(top, edge), widget.mapTo(top, outside)
            if not (picture.rect().contains(at) and picture.rect().contains(beside)):
                continue
            neighbour = top.childAt(beside)
            if neighbour is not None and not neighbour.isAncestorOf(widget):
                continue  # a control right beside it: two borders, not its surroundings
            measured = contrast(QColor(picture.pixel(at)), QColor(picture.pixel(beside)))
            if measured < BORDER_CONTRAST:
                name = widget.objectName() or type(widget).__name__
                found.append(
                    f"{name} {getattr(widget, 'text', lambda: '')()!r:.40}: {measured:.2f}"
                )
                break
    return found


def _dressed_window(make_app: AppFactory) -> tuple[AppUnderTest, InboxFrame, InboxFrame]:
    """The window as a person has it after a while: notes in three views, a turn with its
    details, a proposal card, a banner and the inline review."""
    app = make_app({"inbox/today.md": TODAY, "notes/plan.md": MAP})
    window = app.window
    today = app.mount("inbox-1", "inbox/today.md")
    plan = app.mount("inbox-2", "notes/plan.md", "mindmap")
    QTest.mouseClick(today.editor.viewport(), Qt.MouseButton.LeftButton)
    record = app.send("add a task: call mom")
    assert record.reply is not None and record.reply.proposals
    turn = window.assistant.transcript.findChildren(TurnView)[-1]
    QTest.mouseClick(turn.details_button, Qt.MouseButton.LeftButton)
    card = window.assistant.findChildren(ProposalView)[-1]
    app.qtbot.waitUntil(lambda: card.state == "ready", timeout=TIMEOUT_MS)
    window.banners.show_message("A banner that tells something.", tone="info")
    window.banners.show_message("A banner that warns.", tone="warning")
    window.banners.show_message("A banner that says what failed.", tone="error")
    start = today.read_text().index("- [ ] milk")
    today.select(start, start + len("- [ ] milk\n- [ ] bread"))
    today.editor.setFocus()
    QTest.keyClick(today.editor, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert today.inline.state == "asking"
    prompt = today.inline.prompt
    QTest.keyClicks(prompt.instruction, "tick these")
    with app.qtbot.waitSignal(today.inline.answered, timeout=TIMEOUT_MS):
        QTest.keyClick(prompt.instruction, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: plan.view == "mindmap" and plan.is_loaded, timeout=TIMEOUT_MS)
    return app, today, plan


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_r82_every_text_in_the_window_reads_in_both_schemes(
    make_app: AppFactory, dark: bool, back_to_light: None
) -> None:
    _system_turns(dark)
    app, _today, plan = _dressed_window(make_app)
    window = app.window
    assert follow_system_scheme().scheme.name == ("dark" if dark else "light")
    _assert_readable(window)
    assert not _faint_borders(window), _faint_borders(window)
    # The preview's HTML, and the other views, in the same picture test.
    plan.set_view("preview")
    app.qtbot.waitUntil(lambda: "Week one" in plan.preview.toPlainText(), timeout=TIMEOUT_MS)
    _assert_readable(window)
    plan.set_view("todo")
    _assert_readable(window)


def test_r82_the_dark_desktop_no_longer_shows_white_on_white(
    make_app: AppFactory, back_to_light: None
) -> None:
    """Issue 38: under a dark desktop theme the editors and the list showed no text."""
    app = make_app({"inbox/today.md": TODAY}, demo_layout=True)
    today = app.mount("inbox-1", "inbox/today.md")
    _system_turns(True)
    editor = today.editor
    text_colour = editor.palette().color(QPalette.ColorRole.Text)
    base = editor.palette().color(QPalette.ColorRole.Base)
    assert contrast(text_colour, base) >= TEXT_CONTRAST
    _assert_readable(app.window)


def test_r82_a_scheme_change_while_running_restyles_everything_without_a_crash(
    make_app: AppFactory, back_to_light: None
) -> None:
    app, today, plan = _dressed_window(make_app)
    card = app.window.assistant.findChildren(ProposalView)[-1]
    light_diff = card.diff.text()
    for dark in (True, False, True):
        _system_turns(dark)
        _assert_readable(app.window)
    # The parts that draw their own colours took the new scheme: the diff and the review.
    assert card.diff.text() != light_diff
    assert today.inline.state == "review"
    assert plan.view == "mindmap"


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_r82_a_popped_out_window_reads_in_both_schemes(
    make_app: AppFactory, dark: bool, back_to_light: None
) -> None:
    """The popped-out window, built as its own process builds it: the note, its banner and
    its own assistant with a turn in it."""
    app = make_app({"inbox/today.md": TODAY})
    _system_turns(dark)
    popout = PopoutWindow(app.session.link, "inbox-9", "inbox/today.md", "edit")
    try:
        popout.show()
        app.qtbot.waitExposed(popout)
        app.qtbot.waitUntil(lambda: popout.frame.is_loaded, timeout=TIMEOUT_MS)
        QTest.mouseClick(popout.frame.editor.viewport(), Qt.MouseButton.LeftButton)
        message = popout.assistant.input
        QTest.mouseClick(message.viewport(), Qt.MouseButton.LeftButton)
        QTest.keyClicks(message, "summarise this")
        with app.qtbot.waitSignal(popout.assistant.turn_finished, timeout=TIMEOUT_MS):
            QTest.keyClick(message, Qt.Key.Key_Return)
        assert follow_system_scheme().scheme.name == ("dark" if dark else "light")
        _assert_readable(popout)
        assert not _faint_borders(popout), _faint_borders(popout)
    finally:
        popout.close()
        app.qtbot.waitUntil(lambda: not popout.isVisible())
        popout.shutdown_workers()
        popout.deleteLater()


def _while_prompted(app: AppUnderTest, action_id: str) -> tuple[str, list[str]]:
    """Trigger a menu item whose prompt blocks until answered (``QInputDialog.getText``);
    measure the prompt once it shows, then cancel it. Its title and what reads badly."""
    measured: list[tuple[str, list[str]]] = []

    def measure_and_cancel() -> None:
        prompt = QApplication.activeModalWidget()
        try:
            assert isinstance(prompt, QInputDialog)
            measured.append((prompt.windowTitle(), _unreadable(prompt) + _faint_borders(prompt)))
        finally:  # never left open: the trigger below returns only once it is answered
            for shown in QApplication.topLevelWidgets():
                if isinstance(shown, QDialog) and shown.isVisible():
                    shown.reject()

    QTimer.singleShot(0, measure_and_cancel)
    app.window.driver.trigger(action_id)
    assert len(measured) == 1, f"{action_id} showed no prompt"
    return measured[0]


def _opened(app: AppUnderTest, action_id: str) -> QDialog:
    """Trigger a menu item that opens a window-modal dialog without blocking; the dialog."""
    app.window.driver.trigger(action_id)
    app.qtbot.waitUntil(
        lambda: isinstance(QApplication.activeModalWidget(), QDialog), timeout=TIMEOUT_MS
    )
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, QDialog)
    app.qtbot.waitExposed(dialog)
    return dialog


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_r82_dialogs_read_in_both_schemes(
    make_app: AppFactory, dark: bool, back_to_light: None
) -> None:
    """Every dialog the menus open: Assistant settings, New note, Open note, Quick open,
    Switch workspace, Clear's question and the Help windows."""
    app = make_app()
    app.session.backend.client().create_workspace("archive")  # the picker lists one
    _system_turns(dark)
    window = app.window
    found: dict[str, list[str]] = {}

    settings = window.driver.open_assistant_settings()  # Assistant ▸ Settings…
    settings.model_choice.setChecked(True)  # every field shown, and the hint under Save
    settings.show()
    app.qtbot.waitExposed(settings)
    try:
        found[settings.windowTitle()] = _unreadable(settings) + _faint_borders(settings)
    finally:
        settings.reject()

    for action_id in ("file.new", "file.open"):
        title, unreadable = _while_prompted(app, action_id)
        found[title] = unreadable

    for action_id, kind in (
        ("file.quick-open", QuickOpenDialog),
        ("file.switch-workspace", WorkspacePickerDialog),
    ):
        picker = _opened(app, action_id)
        assert isinstance(picker, kind)
        app.qtbot.waitUntil(lambda: picker.is_listed, timeout=TIMEOUT_MS)  # noqa: B023
        assert picker.list.count() > 0  # its list is in the picture too
        picker.filter.setFocus()
        found[picker.windowTitle()] = _unreadable(picker) + _faint_borders(picker)
        picker.reject()

    for action_id in ("help.shortcuts", "help.assistant", "help.about"):
        help_window = _opened(app, action_id)
        found[help_window.windowTitle()] = _unreadable(help_window) + _faint_borders(help_window)
        help_window.reject()

    app.mount("inbox-1", "notes/a.md")
    app.send("summarise this")  # Clear asks only when there is something to lose
    question = _opened(app, "assistant.clear")
    assert question is window.assistant.clear_question
    found[question.windowTitle()] = _unreadable(question) + _faint_borders(question)
    question.reject()

    assert set(found) == {
        "Assistant settings",
        "New note",
        "Open note",
        "Quick open",
        "Switch workspace",
        "Keyboard shortcuts",
        "What the assistant understands",
        "About Ambient Notes",
        "Clear the conversation?",
    }
    assert not any(found.values()), "\n".join(
        f"{title}: {line}" for title, lines in found.items() for line in lines
    )


_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\bcolor\b|\bbackground\b|rgb\(")


@pytest.mark.parametrize("scheme", SCHEMES, ids=[scheme.name for scheme in SCHEMES])
def test_r82_every_pair_of_the_stylesheet_and_palette_meets_the_figures(scheme: object) -> None:
    from renderer.qt.scheme import Scheme

    assert isinstance(scheme, Scheme)
    surroundings = (scheme.surface, scheme.raised, scheme.window)
    for rule in rules(scheme):
        if isinstance(rule, Fill):
            continue
        assert isinstance(rule, Rule)
        # Colours only through the pair: no declaration sneaks one side in on its own.
        assert not _COLOUR.search(rule.rest), rule.selector
        if rule.text is not None and rule.background is not None:
            assert contrast(rule.text, rule.background) >= TEXT_CONTRAST, rule.selector
        if rule.selection is not None:
            assert contrast(*rule.selection) >= TEXT_CONTRAST, rule.selector
        if rule.placeholder is not None and rule.background is not None:
            assert contrast(rule.placeholder, rule.background) >= TEXT_CONTRAST, rule.selector
        if rule.border is not None:
            worst = min(contrast(rule.border, around) for around in surroundings)
            assert worst >= BORDER_CONTRAST, rule.selector
    shown = palette(scheme)
    role = QPalette.ColorRole
    for text, background in (
        (role.WindowText, role.Window),
        (role.Text, role.Base),
        (role.Text, role.AlternateBase),
        (role.ButtonText, role.Button),
        (role.HighlightedText, role.Highlight),
        (role.ToolTipText, role.ToolTipBase),
        (role.PlaceholderText, role.Base),
        (role.Link, role.Base),
        (role.LinkVisited, role.Base),
    ):
        assert contrast(shown.color(text), shown.color(background)) >= TEXT_CONTRAST, text
    for tone in (scheme.removed, scheme.added, scheme.mindmap_root):
        assert contrast(tone.text, tone.background) >= TEXT_CONTRAST
    assert contrast(scheme.text, scheme.raised) >= TEXT_CONTRAST  # the map's other nodes
    assert min(contrast(scheme.mindmap_edge, around) for around in surroundings) >= BORDER_CONTRAST
    # A banner's buttons keep the plain border, on the banner's tint.
    for tone in (scheme.warning, scheme.error, scheme.info):
        assert contrast(scheme.border, tone.background) >= BORDER_CONTRAST, tone
