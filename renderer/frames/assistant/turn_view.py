"""One turn in the assistant's transcript: the message, the reply and what was sent with it.

The reply is Markdown, rendered as the preview renders a note (cmark-gfm, raw HTML
shown as text, images as their alt text) and bounded as the preview is: no piece
too long, too deep or too full of runs for Qt to lay out within the budget (R91).
A label lays its whole text out at once, so only the reply's first
:data:`REPLY_DRAWN_CHARS` characters are drawn; a mark says how much more there is,
and the turn's record (Details ▸ Copy as JSON) holds all of it. A tool's caveat (R25)
is shown once, as the turn's warning, in words for the person. The details
(:mod:`renderer.frames.assistant.turn_details`) say what was sent with the message.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from functools import partial
from html import escape
from typing import Final

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFrame, QLabel, QToolButton, QVBoxLayout, QWidget

from bridge.drops import DropReason, describe_drop
from bridge.markdown import render_html_pieces
from bridge.wire import TurnToolCall
from renderer.ambient.turn_text import ToolLine, assistant_name, tools_html
from renderer.ambient.turns import TurnRecord
from renderer.frames.assistant.turn_details import CAVEAT_FOR_PEOPLE, TurnDetails
from renderer.qt.tasks import TaskRunner

STOPPED_NOTICE = "Stopped. The reply ends here."
HEADING_SCALE = 1.1  # a reply's first- and second-level headings, against its text
STOPPED_EMPTY = "Stopped before the assistant answered."

# Drops shown on the turn itself rather than only in its details: those the user did
# not ask for (R13), and Leave out, so a reply asking for a note is not a surprise (R48).
_NOTICED_DROPS: tuple[DropReason, ...] = ("discarded", "oversize", "invalid", "loading", "excluded")
REPLY_DRAWN_CHARS: Final = 8_192
"""Characters of a reply drawn: a long model answer or a quoted note is a few thousand."""
REPLY_DRAWN_LINES: Final = 150
"""Lines of a reply drawn: a label lays out every line at once, at every change of layout."""
REPLY_TABLE_ROWS: Final = 30
"""Rows of a table in a reply drawn as a table: a label lays out a whole table at every change."""
DRAWN_AT_ONCE_CHARS: Final = 2_048
"""A reply this short is read on the GUI thread as it arrives; a longer one off it first."""
_HEADING_TAG: Final = re.compile(r"<(/?)h([1-6])>")
REPLY_CUT_MARK: Final = (
    "⋯ The reply goes on for {rest:,} more characters, not drawn here: "
    "Details ▸ Copy as JSON holds all of it."
)


class TurnView(QFrame):
    """One turn in the transcript: the message, the reply, and expandable details."""

    details_opened = Signal(QWidget)
    """The details were just opened: the transcript scrolls them into view."""

    def __init__(
        self, message: str, parent: QWidget | None = None, runner: TaskRunner | None = None
    ) -> None:
        """``runner`` reads a long reply's Markdown off the GUI thread; without one, on it."""
        super().__init__(parent)
        self._runner = runner
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
        """The reply so far, while it streams (R35): its start only, for a long one (R91)."""
        self.reply.setText(plain_html(*drawn_part(text)))

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
            show_markdown(self.reply, text, self._runner)
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


def show_markdown(label: QLabel, text: str, runner: TaskRunner | None) -> None:
    """Show a reply's Markdown in ``label``: read off the GUI thread when it is long (R67, R91).

    Until it is read, the label shows the reply's text as it streamed; a later call wins
    over a reading still under way.
    """
    point_size = label.font().pointSizeF()
    if runner is None or len(text) <= DRAWN_AT_ONCE_CHARS:
        label.setText(reply_html(text, point_size))
        return
    plain = plain_html(*drawn_part(text))
    if label.text() != plain:  # a streamed reply shows it already: no layout again
        label.setText(plain)
    drawing = object()
    _DRAWINGS[label] = drawing

    def done(html: object) -> None:
        if shiboken6.isValid(label) and _DRAWINGS.get(label) is drawing and isinstance(html, str):
            del _DRAWINGS[label]
            label.setText(html)

    runner.submit(partial(reply_html, text, point_size), done)


_DRAWINGS: Final[weakref.WeakKeyDictionary[QLabel, object]] = weakref.WeakKeyDictionary()
"""Each label's latest reading of a long reply, which alone may be shown."""


def markdown_html(text: str, font: QFont) -> str:
    """A reply's Markdown as the rich text a label in ``font`` shows (see :func:`reply_html`)."""
    return reply_html(text, font.pointSizeF())


def reply_html(text: str, point_size: float) -> str:
    """A reply's Markdown as the rich text a label shows: lists, emphasis, code, no raw HTML,
    images as their alt text (R62), every piece bounded as the preview's (R91).

    Qt-free, so a long reply is read off the GUI thread. Headings are bold at about the
    text's size (``point_size``), not a page's title sizes: a reply is a message in a
    narrow column, and a quoted "## Must do" would otherwise dwarf the reply around it.
    """
    shown, rest = drawn_part(text)
    pieces = render_html_pieces(shown, REPLY_TABLE_ROWS)
    html = "".join(pieces).rstrip()  # a last newline would draw a space
    html = _HEADING_TAG.sub(partial(_toned_heading, point_size), html)
    if rest:
        html += f"<p><i>{escape(REPLY_CUT_MARK.format(rest=rest))}</i></p>"
    return html


def plain_html(text: str, rest: int = 0) -> str:
    """A reply's text as it is, for a label, while it streams or until its Markdown is read.

    Its first :data:`DRAWN_AT_ONCE_CHARS` only: a label lays the text out again at every
    piece that streams in, and a long unbroken word costs most to wrap.
    """
    rest += max(0, len(text) - DRAWN_AT_ONCE_CHARS)
    more = "<br>" + escape(REPLY_CUT_MARK.format(rest=rest)) if rest else ""
    return escape(text[:DRAWN_AT_ONCE_CHARS]).replace("\n", "<br>") + more


def _toned_heading(point_size: float, tag: re.Match[str]) -> str:
    if tag[1]:
        return "</p>"
    size = point_size * (HEADING_SCALE if int(tag[2]) <= 2 else 1.0)
    sized = f" font-size: {size:g}pt;" if size > 0 else ""
    return f'<p style="font-weight: 700;{sized}">'


def drawn_part(text: str) -> tuple[str, int]:
    """The part of a reply drawn, and how many characters are left undrawn after it.

    At most :data:`REPLY_DRAWN_LINES` lines and :data:`REPLY_DRAWN_CHARS` characters: a
    label lays out all its lines at every change of the transcript's layout. Cut at the
    end of a line where one ends in the last quarter, so a table or a list ends on a
    whole row or item.
    """
    limit = min(len(text), REPLY_DRAWN_CHARS)
    line_end = -1
    for _line in range(REPLY_DRAWN_LINES):
        line_end = text.find("\n", line_end + 1, limit)
        if line_end < 0:
            break
    else:
        return text[:line_end], len(text) - line_end
    if limit == len(text):
        return text, 0
    line_end = text.rfind("\n", limit * 3 // 4, limit)
    cut = line_end if line_end > 0 else limit
    return text[:cut], len(text) - cut
