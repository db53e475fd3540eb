"""A turn's details: what was sent with the message, as a labelled table in plain words (R48).

:func:`details_rows` says, row by row, which note went with the message (or why
none did), its view, frame, selected lines, size and check code, whether the
save finished first, how much went with the message about the note, what the
server keeps, the tools the assistant called and the warnings (R25). The rows use
a person's words; the exact values (the SHA-256 prefix, the header, the backend's
ambient status) are in :func:`record_json`, which "Copy as JSON" puts on the
clipboard for a bug report.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QFormLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from bridge.contract import ACCESS_TTL, FLUSH_LIMIT_SECONDS
from bridge.drops import describe_drop
from bridge.pointer import AmbientPointer
from bridge.tools import TOOL_FACTS, byte_count, read_found
from bridge.wire import TurnToolCall
from renderer.ambient.turns import TurnRecord

Row = tuple[str, str]

LEFT_OUT = "left out (you chose Leave out)"
CAVEAT_ROW = "the saved copy was behind your screen (the warning above)"
CAVEAT_FOR_PEOPLE = (
    "The saved copy is behind your screen: your last keystrokes may not be in what the "
    "assistant read."
)
"""R25 in words for the person; the tool result keeps the exact sentence for the assistant."""
ELSEWHERE_ROW = "a note read by name is open in its own window, which may hold newer edits"
KEPT_MINUTES = int(ACCESS_TTL.total_seconds() // 60)
SENT_ABOUT = "{size}: which note, view and frame, the selection, the size and the check code"
"""What the message carried about the note, never its text (the exact header is in the JSON)."""
KEPT = "which note it was and where (not its text), for {minutes} minutes"
"""What the server keeps of a send (R19), so the assistant can read the note if it needs to."""


def details_rows(record: TurnRecord) -> list[Row]:
    """The details of one turn as (label, plain words) rows, in reading order."""
    capture = record.capture
    pointer = capture.pointer
    rows: list[Row] = []
    if pointer is not None:
        rows += [
            ("Note", pointer.path),
            ("View", pointer.view),
            ("Frame", pointer.frameId),
            ("Selection (lines)", _selection(record, pointer)),
            ("Size", byte_count(pointer.bytes)),
            ("Check code", f"{pointer.sha256}… (made from the text, to tell if it changed)"),
        ]
    elif capture.dropped == "excluded":
        rows.append(("Note", LEFT_OUT))
    else:
        reason = capture.dropped or "no-inbox"
        rows.append(("Note", f"none: {describe_drop(reason)}"))
        unsent = capture.oversize_pointer
        if unsent is not None:
            rows.append(("Not sent", f"{unsent.path} · {unsent.view} · {unsent.frameId}"))
    rows.append(("Saved first", _saved_first(record)))
    header = capture.header_bytes
    sent = SENT_ABOUT.format(size=byte_count(header)) if header else "nothing about a note"
    rows.append(("Sent with the message", sent))
    rows.append(("Kept on the server", _backend_kept(record)))
    if record.reply is not None:
        calls = record.reply.tool_calls
        rows.append(("Tools called", "\n".join(map(_tool_line, calls)) if calls else "none"))
    # The caveat itself is the turn's warning, shown once (R25).
    rows.append(("Warnings", _caveat_row(record)))
    return rows


def _caveat_row(record: TurnRecord) -> str:
    elsewhere = record.elsewhere_caveats
    if not elsewhere:
        return CAVEAT_ROW if record.caveats else "none"
    behind = [CAVEAT_ROW] if record.caveats else []
    return "\n".join([*behind, f"{ELSEWHERE_ROW} (the warning above)"])


def record_json(record: TurnRecord) -> dict[str, Any]:
    """The whole record of a turn: what was captured and sent, and the backend's whole answer."""
    capture = record.capture
    lines = capture.selection_lines
    return {
        "message": record.message,
        "conversation": record.conversation,
        "pointer": _pointer_json(capture.pointer),
        "header": capture.header,
        "headerBytes": capture.header_bytes,
        "dropped": capture.dropped,
        "notSent": _pointer_json(capture.oversize_pointer),
        "selectionLines": None if lines is None else {"first": lines.first, "last": lines.last},
        "flushed": record.flushed,
        "flushTimedOut": record.flush_timed_out,
        "preparationSeconds": round(record.preparation_seconds, 3),
        "response": None if record.reply is None else record.reply.as_json(),
        "error": record.error,
        "openElsewhere": sorted(record.elsewhere.open_elsewhere),
        "fellBackFrom": record.elsewhere.fell_back_from,
    }


def _pointer_json(pointer: AmbientPointer | None) -> dict[str, Any] | None:
    return None if pointer is None else pointer.model_dump(mode="json", exclude_none=True)


def _selection(record: TurnRecord, pointer: AmbientPointer) -> str:
    lines = record.capture.selection_lines
    if pointer.selection is None:
        return "none (only the edit view sends one)"
    if lines is None:
        return "none (just the cursor)"
    return f"line {lines}" if lines.first == lines.last else f"lines {lines}"


def _saved_first(record: TurnRecord) -> str:
    if record.flushed is None:
        return "nothing to save (no note went with the message)"
    if record.flushed:
        return "yes"
    if record.flush_timed_out:
        return f"no — still saving after {FLUSH_LIMIT_SECONDS:g} s"
    return "no — the save did not go through"


def _backend_kept(record: TurnRecord) -> str:
    reply = record.reply
    if reply is None:
        return "nothing: the message did not go through"
    reason = reply.ambient.reason
    if reply.ambient.status == "stored":
        return KEPT.format(minutes=KEPT_MINUTES)
    if reply.ambient.status == "rejected":
        return f"refused: {reason}" if reason else "refused"
    if record.capture.dropped == "excluded":
        return "nothing (the note was left out)"
    return f"nothing ({reason})" if reason else "nothing"


def _tool_line(call: TurnToolCall) -> str:
    return f"{call.name}: {_tool_result(call.name, call.result)}"


def _tool_result(name: str, result: dict[str, Any]) -> str:
    """A tool's result in a few words: what it found, or why it could not."""
    status = result.get("status")
    if status != "ok":
        message = result.get("message")
        return f"{status} — {message}" if message else str(status)
    facts = TOOL_FACTS.get(name)
    return facts.found(result) if facts is not None else read_found(result)


class TurnDetails(QWidget):
    """The details table of one turn, with "Copy as JSON"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turnDetails")
        self._record: TurnRecord | None = None
        self._shown: list[tuple[QLabel, QLabel]] = []
        self._form = QFormLayout()
        self._form.setContentsMargins(0, 0, 0, 0)
        self._form.setHorizontalSpacing(10)
        self._form.setVerticalSpacing(2)
        self._form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self._form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.copy_button = QPushButton("Copy as JSON", self)
        self.copy_button.setObjectName("copyDetails")
        self.copy_button.setAccessibleName("Copy everything about this turn as JSON")
        self.copy_button.setToolTip("Copy the whole record of this turn, for a bug report")
        self.copy_button.clicked.connect(self.copy_json)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(self._form)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignLeft)

    def show_record(self, record: TurnRecord) -> None:
        self._record = record
        self._show_rows(details_rows(record))

    def show_tools(self, calls: list[TurnToolCall]) -> None:
        """While a reply streams (R35): the tools called so far; the record replaces them."""
        self._show_rows([("Tools called", "\n".join(_tool_line(call) for call in calls))])

    def text(self) -> str:
        """The table as plain lines, ``Label: value``."""
        return "\n".join(f"{label}: {value}" for label, value in self.rows())

    def _show_rows(self, rows: list[Row]) -> None:
        while self._form.rowCount():
            self._form.removeRow(0)
        self._shown = []
        for label, value in rows:
            name = QLabel(label, self)
            name.setObjectName("detailsLabel")
            shown = QLabel(value, self)
            shown.setObjectName("detailsValue")
            shown.setTextFormat(Qt.TextFormat.PlainText)
            shown.setWordWrap(True)
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            shown.setAccessibleName(label)
            self._form.addRow(name, shown)
            self._shown.append((name, shown))

    def rows(self) -> list[Row]:
        """The rows as shown: (label, value) in order."""
        return [(label.text(), value.text()) for label, value in self._shown]

    def copy_json(self) -> None:
        """Put the whole record on the clipboard as JSON."""
        if self._record is None:
            return
        text = json.dumps(record_json(self._record), ensure_ascii=False, indent=2)
        QApplication.clipboard().setText(text)
