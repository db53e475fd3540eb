"""One turn in the assistant's transcript: the message, the reply and what was sent with it.

The reply is Markdown, rendered by Qt's own CommonMark reader with raw HTML
off (R48). A tool's caveat (R25) is shown once, as the turn's warning, in words
for the person. The details (:mod:`renderer.frames.turn_details`) say what was
sent with the message.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import QFrame, QLabel, QToolButton, QVBoxLayout, QWidget

from bridge.drops import DropReason, describe_drop
from renderer.frames.turn_details import CAVEAT_FOR_PEOPLE, TurnDetails
from renderer.frames.turns import TurnRecord

# Drops shown on the turn itself rather than only in its details: those the user did
# not ask for (R13), and Leave out, so a reply asking for a note is not a surprise (R48).
_NOTICED_DROPS: tuple[DropReason, ...] = ("discarded", "oversize", "invalid", "loading", "excluded")
_MARKDOWN = (
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub
    | QTextDocument.MarkdownFeature.MarkdownNoHTML
)


class TurnView(QFrame):
    """One turn in the transcript: the message, the reply, and expandable details."""

    def __init__(self, message: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turn")
        self.message = QLabel(escape(message).replace("\n", "<br>"), self)
        self.message.setObjectName("turnMessage")
        self.message.setTextFormat(Qt.TextFormat.RichText)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
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
        layout.addWidget(self.reply)
        layout.addWidget(self.notice)
        layout.addWidget(self.caveat)
        layout.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.details)

    def _on_details_toggled(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.details_button.setText("Details ▾" if shown else "Details ▸")

    def show_record(self, record: TurnRecord) -> None:
        caveats = record.caveats
        if record.error is not None:
            self.reply.setText(escape(record.error))
            self.reply.setProperty("error", True)
        elif record.reply is not None:
            text = reply_without_caveats(record.reply.reply, caveats)
            self.reply.setText(markdown_html(text, self.reply.font()))
        self.reply.style().unpolish(self.reply)
        self.reply.style().polish(self.reply)
        if record.dropped in _NOTICED_DROPS:
            self.notice.setText(describe_drop(record.dropped))  # R13: say the context was dropped
            self.notice.setVisible(True)
        self.caveat.setText("⚠ " + escape(CAVEAT_FOR_PEOPLE) if caveats else "")
        self.caveat.setVisible(bool(caveats))
        self.details.show_record(record)
        self.details_button.setVisible(True)


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
    """A reply's Markdown as the rich text a label shows: lists, emphasis, code, no raw HTML.

    The HTML names its font, so it is made in the label's own.
    """
    document = QTextDocument()
    document.setDefaultFont(font)
    document.setMarkdown(text, _MARKDOWN)
    return document.toHtml()
