"""One turn in the assistant's transcript: the message, the reply and what was sent with it.

The reply is Markdown, rendered by Qt's own CommonMark reader with raw HTML
off (R48). A tool's caveat (R25) is shown once, as the turn's warning, in words
for the person. The details (:mod:`renderer.frames.turn_details`) say what was
sent with the message.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QTextCharFormat, QTextCursor, QTextDocument, QTextFormat
from PySide6.QtWidgets import QFrame, QLabel, QToolButton, QVBoxLayout, QWidget

from bridge.drops import DropReason, describe_drop
from bridge.wire import TurnToolCall
from renderer.frames.turn_details import CAVEAT_FOR_PEOPLE, TurnDetails
from renderer.frames.turn_text import ToolLine, assistant_name, tools_html
from renderer.frames.turns import TurnRecord
from renderer.qt.inert_text import drop_images

STOPPED_NOTICE = "Stopped. The reply ends here."
HEADING_SCALE = 1.1  # a reply's first- and second-level headings, against its text
STOPPED_EMPTY = "Stopped before the assistant answered."

# Drops shown on the turn itself rather than only in its details: those the user did
# not ask for (R13), and Leave out, so a reply asking for a note is not a surprise (R48).
_NOTICED_DROPS: tuple[DropReason, ...] = ("discarded", "oversize", "invalid", "loading", "excluded")
_MARKDOWN = (
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub
    | QTextDocument.MarkdownFeature.MarkdownNoHTML
)


class TurnView(QFrame):
    """One turn in the transcript: the message, the reply, and expandable details."""

    details_opened = Signal(QWidget)
    """The details were just opened: the transcript scrolls them into view."""

    def __init__(self, message: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turn")
        self.message = QLabel(escape(message).replace("\n", "<br>"), self)
        self.message.setObjectName("turnMessage")
        self.message.setTextFormat(Qt.TextFormat.RichText)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.answered_by = QLabel("", self)
        self.answered_by.setObjectName("turnAssistant")
        self.answered_by.setVisible(False)
        self.tools = QLabel("", self)
        self.tools.setObjectName("turnTools")
        self.tools.setWordWrap(True)
        self.tools.setTextFormat(Qt.TextFormat.RichText)
        self.tools.setVisible(False)
        self._live_tools: list[TurnToolCall] = []
        self.note_left_out = False
        """The person left the open note out of this turn (R48): a read of it says so."""
        self.reply = QLabel("…", self)
        self.reply.setObjectName("turnReply")
        self.reply.setTextFormat(Qt.TextFormat.RichText)
        self.reply.setWordWrap(True)
        self.reply.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice = QLabel("", self)
        self.notice.setObjectName("turnNotice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        self.caveat = QLabel("", self)
        self.caveat.setObjectName("turnCaveat")
        self.caveat.setTextFormat(Qt.TextFormat.RichText)
        self.caveat.setWordWrap(True)
        self.caveat.setVisible(False)
        self.details_button = QToolButton(self)
        self.details_button.setObjectName("detailsButton")
        self.details_button.setText("Details ▸")
        self.details_button.setCheckable(True)
        self.details_button.setAutoRaise(True)
        self.details_button.setAccessibleName("Show what was sent with this message")
        self.details_button.setVisible(False)
        self.details = TurnDetails(self)
        self.details.setVisible(False)
        self.details_button.toggled.connect(self._on_details_toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addWidget(self.message)
        layout.addWidget(self.answered_by)
        layout.addWidget(self.tools)
        layout.addWidget(self.reply)
        self.proposals = QVBoxLayout()  # R51: each proposal under the reply
        layout.addLayout(self.proposals)
        layout.addWidget(self.notice)
        layout.addWidget(self.caveat)
        layout.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.details)

    def add_proposal(self, view: QWidget) -> None:
        """Show a proposal's review under the reply (R51)."""
        view.setParent(self)
        self.proposals.addWidget(view)

    def _on_details_toggled(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.details_button.setText("Details ▾" if shown else "Details ▸")
        if shown:
            self.details_opened.emit(self.details)

    def show_streamed(self, text: str) -> None:
        """The reply so far, while it streams (R35)."""
        self.reply.setText(escape(text).replace("\n", "<br>"))

    def show_tool(self, call: TurnToolCall) -> None:
        """A tool the assistant called while the reply streams: on the turn and in its details."""
        self._live_tools.append(call)
        self.show_tools([(c.name, c.arguments, c.result) for c in self._live_tools])
        self.details.show_tools(self._live_tools)  # the whole record replaces it when done
        self.details_button.setVisible(True)

    def show_tools(self, calls: Sequence[ToolLine]) -> None:
        """The "Used tool" lines; a kept turn's are restated with its proposals' summaries."""
        self.tools.setText(tools_html(calls, note_left_out=self.note_left_out))
        self.tools.setVisible(bool(calls))

    def show_record(self, record: TurnRecord) -> None:
        caveats = record.caveats
        if record.error is not None:
            self.reply.setText(escape(record.error))
            self.reply.setProperty("error", True)
        elif record.reply is not None:
            text = reply_without_caveats(record.reply.reply, caveats)
            self.reply.setText(markdown_html(text, self.reply.font()))
            self.answered_by.setText(
                assistant_name(record.reply.assistant.kind, record.reply.assistant.model)
            )
            self.answered_by.setVisible(True)
            self.note_left_out = record.dropped == "excluded"
            self.show_tools([(c.name, c.arguments, c.result) for c in record.reply.tool_calls])
        elif record.stopped and not record.streamed:
            self.reply.setText(escape(STOPPED_EMPTY))
        self.reply.style().unpolish(self.reply)
        self.reply.style().polish(self.reply)
        notices = turn_notices(record)
        if notices:  # R13, R48: a dropped or left-out context is said on the turn itself
            self.notice.setText(" ".join(notices))
            self.notice.setVisible(True)
        warnings = ([CAVEAT_FOR_PEOPLE] if caveats else []) + record.elsewhere_caveats
        self.caveat.setText("<br>".join("⚠ " + escape(warning) for warning in warnings))
        self.caveat.setVisible(bool(warnings))
        self.details.show_record(record)
        self.details_button.setVisible(True)


def turn_notices(record: TurnRecord) -> list[str]:
    """What the turn itself says about its context, beside the reply (R13, R29, R35, R48)."""
    notices = [describe_drop(record.dropped)] if record.dropped in _NOTICED_DROPS else []
    if record.fallback_notice is not None:  # R29: never silently about another note
        notices.append(record.fallback_notice)
    if record.stopped and record.streamed:
        notices.append(STOPPED_NOTICE)
    return notices


def reply_without_caveats(reply: str, caveats: list[str]) -> str:
    """The reply minus the paragraphs that only repeat a tool's caveat (R25).

    The backend repeats the caveat verbatim in its reply; the turn shows it once,
    as its highlighted warning, taken from the tool result so it is never lost.
    A caveat inside other text (a tool result quoted as JSON) stays where it is.
    """
    if not caveats:
        return reply
    paragraphs = reply.split("\n\n")
    kept = [part for part in paragraphs if part.strip() not in caveats]
    return "\n\n".join(kept).strip("\n") if len(kept) != len(paragraphs) else reply


def markdown_html(text: str, font: QFont) -> str:
    """A reply's Markdown as the rich text a label shows: lists, emphasis, code, no raw HTML,
    and images as their alt text (R62).

    The HTML names its font, so it is made in the label's own.
    """
    document = QTextDocument()
    document.setDefaultFont(font)
    document.setMarkdown(text, _MARKDOWN)
    drop_images(document)  # R62: the label would read the file an image names
    _tone_down_headings(document, font)
    return document.toHtml()


def _tone_down_headings(document: QTextDocument, font: QFont) -> None:
    """Headings in a reply are bold at about the text's size, not a page's title sizes.

    A reply is a message in a narrow column; a quoted "## Must do" (a selection
    that starts at a heading) would otherwise dwarf the reply around it.
    """
    block = document.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level:
            heading = QTextCharFormat()
            heading.setFontWeight(QFont.Weight.Bold)
            # Markdown sizes headings by an adjustment ("large" for H3): it must go, or an H3
            # at the text's own size is drawn larger than the H2 above it (R80).
            heading.setProperty(QTextFormat.Property.FontSizeAdjustment, 0)
            size = font.pointSizeF() * (HEADING_SCALE if level <= 2 else 1.0)
            if size > 0:
                heading.setFontPointSize(size)
            cursor = QTextCursor(block)
            paragraph = block.blockFormat()
            paragraph.setHeadingLevel(0)  # else the HTML names it <hN>, at a title's size again
            cursor.setBlockFormat(paragraph)
            cursor.movePosition(
                QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
            )
            cursor.mergeCharFormat(heading)
        block = block.next()
