"""The app's look in the system's colour scheme: a palette and stylesheet, light and dark (R82).

The colours are :mod:`renderer.qt.scheme`'s; here they become the application's
palette (what Qt's own widgets, menus and dialogs draw with) and one stylesheet for
frames, title bars, badges, the chip and the transcript. Every rule that gives a
text colour gives the background it is drawn on, and the reverse, so no part of
the window takes one side of a pair from the platform and the other from here (a
dark desktop's white text on the stylesheet's white editor). :class:`SchemeFollower`
applies the scheme the system names and applies it again when the system changes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from renderer.qt.scheme import DARK, LIGHT, Scheme, SchemeName, Tone, scheme_named


@dataclass(frozen=True)
class Rule:
    """One stylesheet rule; ``text`` and ``background`` are a pair, given together or not at all."""

    selector: str
    text: str | None = None
    background: str | None = None
    border: str | None = None
    """A border's colour, drawn against ``background`` (or the surface around it)."""
    rest: str = ""
    """Declarations without colour: padding, radius, font."""
    selection: tuple[str, str] | None = None
    """Selected text: its colour and its background, a pair too."""
    placeholder: str | None = None
    """The hint an empty field shows, on ``background``."""

    def __post_init__(self) -> None:
        if (self.text is None) != (self.background is None):
            raise ValueError(
                f"{self.selector}: a text colour needs its background, and the reverse"
            )

    def css(self) -> str:
        parts = []
        if self.text is not None and self.background is not None:
            parts.append(f"color: {self.text}; background: {self.background};")
        if self.selection is not None:
            text, background = self.selection
            parts.append(f"selection-color: {text}; selection-background-color: {background};")
        if self.placeholder is not None:
            parts.append(f"placeholder-text-color: {self.placeholder};")
        if self.rest:
            parts.append(self.rest)
        if self.border is not None:
            # After ``rest``: a shorthand there ("border: 1px solid") resets the colour to
            # black, which on a dark scheme is a border nobody sees.
            parts.append(f"border-color: {self.border};")
        return f"{self.selector} {{ {' '.join(parts)} }}"


@dataclass(frozen=True)
class Fill:
    """A rule for a part with no text (a scroll bar's handle, a progress chunk): colour only."""

    selector: str
    background: str
    rest: str = ""

    def css(self) -> str:
        return f"{self.selector} {{ background: {self.background}; {self.rest} }}"


def _tone(selector: str, tone: Tone, rest: str = "", *, border: bool = True) -> Rule:
    return Rule(selector, tone.text, tone.background, tone.border if border else None, rest)


def rules(scheme: Scheme) -> list[Rule | Fill]:
    """The stylesheet's rules for ``scheme``, in the order they apply."""
    s = scheme
    radius = "border-radius: 8px;"
    label = "font-size: 11px;"
    selected = (s.selection_text, s.selection)
    return [
        Rule("QMainWindow, QWidget#centre, QDialog", s.text, s.window),
        Rule("QFrame#frame", s.text, s.surface, s.border, f"border: 1px solid; {radius}"),
        Rule('QFrame#frame[active="true"]', s.text, s.surface, s.accent, "border: 2px solid;"),
        Rule(
            "QFrame#frameTitleBar",
            s.text,
            s.raised,
            s.border,
            "border: none; border-bottom: 1px solid; border-top-left-radius: 8px; "
            "border-top-right-radius: 8px;",
        ),
        Rule('QFrame#frame[active="true"] QFrame#frameTitleBar', s.text, s.active_bar),
        Rule("QLabel#frameTitle", s.text, s.raised, rest="font-weight: 600;"),
        Rule('QFrame#frame[active="true"] QLabel#frameTitle', s.text, s.active_bar),
        # Only the mark: the bar keeps the colours its frame's state gives it.
        Rule(
            'QFrame#frameTitleBar[thisNote="true"]', border=s.accent, rest="border-left: 3px solid;"
        ),
        Rule('QFrame#frameTitleBar[thisNote="true"] QLabel#frameTitle', s.accent, s.raised),
        Rule(
            'QFrame#frame[active="true"] QFrame#frameTitleBar[thisNote="true"] QLabel#frameTitle',
            s.accent,
            s.active_bar,
        ),
        _tone(
            "QLabel#frameBadge",
            s.neutral,
            f"border-radius: 8px; padding: 1px 8px; {label}",
            border=False,
        ),
        _tone('QLabel#frameBadge[state="unsaved"]', s.warning, border=False),
        _tone('QLabel#frameBadge[state="saving"]', s.saving, border=False),
        _tone('QLabel#frameBadge[state="saved"]', s.saved, border=False),
        _tone('QLabel#frameBadge[state="error"]', s.error, border=False),
        _tone('QLabel#frameBadge[state="new"]', s.new, border=False),
        Rule(
            "QToolButton",
            s.text,
            s.raised,
            rest="border: none; border-radius: 5px; padding: 2px 7px;",
        ),
        Rule('QFrame#frame[active="true"] QToolButton', s.text, s.active_bar),
        Rule("QToolButton:hover", s.text, s.window),
        Rule(
            "QToolButton:checked",
            s.accent,
            s.surface,
            s.accent,
            "border: 1px solid; font-weight: 600;",
        ),
        Rule("QToolButton:focus", s.text, s.raised, s.focus, "border: 1px solid;"),
        # A checked button's border is the accent already: focused, its ring is the text's
        # colour, so the focus still shows (R85).
        Rule("QToolButton:checked:focus", border=s.text, rest="border: 1px solid;"),
        Rule(
            "QPlainTextEdit#noteEditor, QTextBrowser, QListWidget, QGraphicsView, QScrollArea",
            s.text,
            s.surface,
            # Room for the focus ring, kept when unfocused so the text never moves (R85).
            rest="border: 2px solid transparent;",
            selection=selected,
        ),
        Rule(
            "QPlainTextEdit#noteEditor:focus, QTextBrowser:focus, QListWidget:focus, "
            "QGraphicsView:focus, QScrollArea:focus",
            border=s.focus,
            rest="border: 2px solid;",
        ),
        Rule("QPlainTextEdit#noteEditor", s.text, s.surface, rest="padding: 8px 10px;"),
        Rule("QWidget#frameProblem", s.error.text, s.error.background),
        Rule("QLabel#browserStatus", s.muted, s.surface, rest=f"padding: 6px 10px; {label}"),
        Rule(
            "QListWidget#documentList::item",
            s.text,
            s.surface,
            rest="padding: 3px 8px; min-height: 20px;",
        ),
        Rule("QListWidget#todoList::item", s.text, s.surface, rest="padding: 4px 6px;"),
        Rule(
            "QListWidget#todoList::item:selected, QListWidget#documentList::item:selected",
            s.selection_text,
            s.selection,
        ),
        Rule("QLabel#placeholder", s.muted, s.surface, rest="padding: 18px;"),
        Rule("QLabel#emptyHint", s.muted, s.surface),
        Rule("QLabel#renderBusy, QLabel#renderCover", s.muted, s.surface),
        Rule("QLabel#welcome", s.muted, s.surface, rest="padding: 6px 4px;"),
        Rule("QWidget#transcript", s.text, s.surface),
        Rule("QFrame#turn", s.text, s.raised, s.border, f"border: 1px solid; {radius}"),
        Rule('QFrame#turn[kept="true"]', s.text, s.raised),
        Rule("QFrame#turn QLabel", s.text, s.raised),
        Rule("QLabel#turnMessage", s.text, s.raised, rest="font-weight: 600;"),
        Rule('QLabel#turnReply[error="true"]', s.error_text, s.raised),
        Rule("QLabel#turnNotice", s.notice_text, s.raised, rest="font-style: italic;"),
        _tone(
            "QLabel#turnCaveat",
            s.warning,
            "border: 1px solid; border-radius: 6px; padding: 4px 6px;",
        ),
        Rule("QLabel#turnDetails, QLabel#turnAssistant", s.muted, s.raised, rest=label),
        Rule("QLabel#turnTools", s.notice_text, s.raised, rest=label),
        Rule("QWidget#turnDetails, QWidget#turnDetails QLabel", s.text, s.raised, rest=label),
        Rule("QWidget#turnDetails QLabel#detailsLabel", s.muted, s.raised),
        Rule("QLabel#keptProposals", s.muted, s.raised),
        Rule(
            "QFrame#proposal", s.text, s.surface, s.border, "border: 1px solid; border-radius: 6px;"
        ),
        Rule("QFrame#proposal QLabel", s.text, s.surface),
        Rule("QLabel#proposalTitle", s.text, s.surface, rest="font-weight: 600;"),
        Rule("QLabel#proposalSummary", s.muted, s.surface, rest="font-style: italic;"),
        _tone(
            "QLabel#proposalOtherNote",
            s.warning,
            "border: 1px solid; border-radius: 6px; padding: 4px 6px;",
        ),
        Rule("QLabel#transcriptStatus", s.error_text, s.surface, rest="padding: 4px;"),
        _tone(
            "QLabel#assistantName",
            s.new,
            f"border-radius: 8px; padding: 1px 8px; {label}",
            border=False,
        ),
        Rule(
            "QLabel#contextChip",
            s.chip.text,
            s.chip.background,
            s.chip.border,
            "border: 1px solid; border-radius: 11px; padding: 3px 10px;",
        ),
        _tone('QLabel#contextChip[empty="true"]', s.chip_empty),
        Rule(
            'QLabel#contextChip[excluded="true"]',
            s.chip_empty.text,
            s.chip_empty.background,
            s.chip_empty.border,
            "border-style: dashed;",
        ),
        Rule("QToolButton#excludeToggle", s.text, s.surface, s.border, "border: 1px solid;"),
        _tone("QToolButton#excludeToggle:checked", s.error),
        Rule("QToolButton#excludeToggle:focus", border=s.focus, rest="border: 2px solid;"),
        Rule(
            "QPlainTextEdit#messageInput",
            s.text,
            s.surface,
            s.border,
            f"border: 1px solid; {radius} padding: 4px 6px;",
            selection=selected,
            placeholder=s.muted,
        ),
        Rule("QPlainTextEdit#messageInput:focus", s.text, s.surface, s.focus, "border: 2px solid;"),
        Rule(
            "QLineEdit, QComboBox, QSpinBox",
            s.text,
            s.surface,
            s.border,
            "border: 1px solid; border-radius: 5px; padding: 3px 5px;",
            selection=selected,
            placeholder=s.muted,
        ),
        Rule(
            "QLineEdit:focus, QComboBox:focus, QSpinBox:focus",
            s.text,
            s.surface,
            s.focus,
            "border: 2px solid;",
        ),
        Rule(
            "QPushButton",
            s.text,
            s.raised,
            s.border,
            "border: 1px solid; border-radius: 6px; padding: 4px 12px;",
        ),
        Rule("QPushButton:hover", s.text, s.window, s.accent),
        Rule("QPushButton:pressed", s.text, s.active_bar, s.accent),
        Rule("QPushButton:focus", s.text, s.raised, s.focus, "border: 2px solid;"),
        Rule("QPushButton:disabled", s.disabled.text, s.disabled.background, s.disabled.border),
        Rule(
            "QPushButton#sendButton",
            s.on_accent,
            s.accent,
            s.accent,
            "border-radius: 8px; padding: 7px 16px; font-weight: 600;",
        ),
        Rule(
            "QPushButton#sendButton:hover, QPushButton#sendButton:pressed",
            s.on_accent,
            s.accent_pressed,
            s.accent_pressed,
        ),
        # The ring of a filled button: the text colour, which stands out from the fill's
        # surroundings (a ring of the fill's own colour would not show).
        Rule("QPushButton#sendButton:focus", s.on_accent, s.accent, s.text, "border: 2px solid;"),
        Rule(
            "QPushButton#sendButton:disabled",
            s.disabled.text,
            s.disabled.background,
            s.disabled.border,
            "border: 1px solid;",
        ),
        Rule(
            "QPushButton#stopButton",
            s.error_text,
            s.raised,
            s.border,
            "border-radius: 8px; padding: 7px 14px;",
        ),
        Rule(
            "QPushButton#copyDetails", s.text, s.raised, rest="font-size: 11px; padding: 2px 10px;"
        ),
        Rule("QToolButton#detailsButton", s.muted, s.raised, rest="padding: 2px 4px;"),
        Rule("QWidget#noNotePage", s.text, s.window),
        Rule("QLabel#noNoteHint", s.muted, s.window, rest="font-size: 14px;"),
        _tone("QFrame#banner", s.warning, f"border: 1px solid; {radius}"),
        _tone('QFrame#banner[tone="error"]', s.error),
        _tone('QFrame#banner[tone="info"]', s.info),
        _tone("QFrame#banner QLabel", s.warning, "border: none;", border=False),
        _tone('QFrame#banner[tone="error"] QLabel', s.error, border=False),
        _tone('QFrame#banner[tone="info"] QLabel', s.info, border=False),
        _tone("QFrame#frameConflict, QFrame#frameConflict QLabel", s.warning, border=False),
        _tone("QFrame#linkOffer, QFrame#linkOffer QLabel", s.info, border=False),
        Rule(
            "QFrame#inlinePrompt",
            s.text,
            s.surface,
            s.focus,
            "border: 1px solid; border-radius: 6px;",
        ),
        Rule("QFrame#inlinePrompt QLabel", s.text, s.surface),
        Rule("QLabel#inlineSent", s.muted, s.surface),
        Rule("QLabel#settingsStatus, QLabel#saveHint", s.muted, s.window),
        Rule("QLabel#sharingStatus", s.muted, s.window),
        Rule(
            "QFrame#findBar", s.text, s.surface, s.border, "border: none; border-bottom: 1px solid;"
        ),
        Rule("QLabel#findCount", s.muted, s.surface),
        Rule("QMenuBar", s.text, s.window),
        Rule("QMenuBar::item:selected", s.selection_text, s.selection),
        Rule("QMenu", s.text, s.surface, s.border, "border: 1px solid;"),
        Rule("QMenu::item:selected", s.selection_text, s.selection),
        Rule("QMenu::item:disabled", s.disabled.text, s.surface),
        Rule("QToolTip", s.text, s.surface, s.border, "border: 1px solid;"),
        Fill("QProgressBar", s.window, "border: none;"),
        Fill("QProgressBar::chunk", s.accent),
        Fill("QScrollBar:vertical", "transparent", "width: 10px; margin: 2px;"),
        Fill("QScrollBar::handle:vertical", s.scrollbar, "border-radius: 3px; min-height: 24px;"),
        Fill("QScrollBar::handle:vertical:hover", s.muted),
        Fill("QScrollBar:horizontal", "transparent", "height: 10px; margin: 2px;"),
        Fill("QScrollBar::handle:horizontal", s.scrollbar, "border-radius: 3px; min-width: 24px;"),
        Fill("QScrollBar::handle:horizontal:hover", s.muted),
        Fill("QScrollBar::add-line, QScrollBar::sub-line", "transparent", "width: 0; height: 0;"),
        Fill("QScrollBar::add-page, QScrollBar::sub-page", "transparent"),
        Fill("QSplitter::handle", "transparent"),
    ]


def stylesheet(scheme: Scheme) -> str:
    return "\n".join(rule.css() for rule in rules(scheme))


def palette(scheme: Scheme) -> QPalette:
    """Qt's palette for ``scheme``: what its own widgets, menus and dialogs draw with."""
    s = scheme
    result = QPalette()
    role = QPalette.ColorRole
    pairs = {
        role.Window: s.window,
        role.WindowText: s.text,
        role.Base: s.surface,
        role.AlternateBase: s.raised,
        role.Text: s.text,
        role.Button: s.raised,
        role.ButtonText: s.text,
        role.BrightText: s.error_text,
        role.Highlight: s.selection,
        role.HighlightedText: s.selection_text,
        role.ToolTipBase: s.surface,
        role.ToolTipText: s.text,
        role.PlaceholderText: s.muted,
        role.Link: s.accent,
        role.LinkVisited: s.link_visited,
        role.Light: s.surface,
        role.Midlight: s.raised,
        role.Mid: s.border,
        role.Dark: s.border,
        role.Shadow: s.window,
        role.Accent: s.accent,
    }
    for colour_role, colour in pairs.items():
        result.setColor(colour_role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for colour_role in (role.WindowText, role.Text, role.ButtonText):
        result.setColor(disabled, colour_role, QColor(s.disabled.text))
    result.setColor(disabled, role.Button, QColor(s.disabled.background))
    return result


def system_scheme(application: QGuiApplication) -> Scheme:
    """The scheme the system asks for; when it does not say, what its palette looks like."""
    asked = application.styleHints().colorScheme()
    if asked == Qt.ColorScheme.Dark:
        return DARK
    if asked == Qt.ColorScheme.Light:
        return LIGHT
    window = application.palette().color(QPalette.ColorRole.Window)
    return DARK if window.lightnessF() < 0.5 else LIGHT


class SchemeFollower(QObject):
    """Applies the system's colour scheme to the application, and again when it changes.

    One per application (:func:`follow_system_scheme`), a child of it: it lives as
    long as the application and needs no teardown. :meth:`choose` sets a scheme
    whatever the system says (the screenshot tool's ``--scheme``; a platform that
    names none, such as offscreen).
    """

    applied = Signal(str)
    """The scheme now applied: "light" or "dark"."""

    def __init__(self, application: QApplication) -> None:
        super().__init__(application)
        self.setObjectName("schemeFollower")
        self._application = application
        self._chosen: Scheme | None = None
        self.scheme = system_scheme(application)
        application.styleHints().colorSchemeChanged.connect(self._on_system_changed)
        self._apply()

    def choose(self, name: SchemeName | None) -> None:
        """Use this scheme from now on; None follows the system again."""
        self._chosen = None if name is None else scheme_named(name)
        self._use(self._chosen or system_scheme(self._application))

    def _on_system_changed(self, asked: Qt.ColorScheme) -> None:
        if self._chosen is not None:
            return
        named = {Qt.ColorScheme.Dark: DARK, Qt.ColorScheme.Light: LIGHT}.get(asked)
        self._use(named or system_scheme(self._application))

    def _use(self, scheme: Scheme) -> None:
        # Applied again even when it is the same scheme: the system may have handed Qt a
        # palette of its own with the change, and ours must stay the one in use.
        self.scheme = scheme
        self._apply()

    def _apply(self) -> None:
        self._application.setPalette(palette(self.scheme))
        self._application.setStyleSheet(stylesheet(self.scheme))
        self.applied.emit(self.scheme.name)


def follow_system_scheme() -> SchemeFollower:
    """The application's scheme follower, made the first time a window asks for it."""
    application = QApplication.instance()
    if not isinstance(application, QApplication):
        raise RuntimeError("A window needs its QApplication first.")
    found = application.findChild(SchemeFollower, "schemeFollower")
    return found if found is not None else SchemeFollower(application)
