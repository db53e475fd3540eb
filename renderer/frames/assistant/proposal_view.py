"""A proposal under its reply: the touched lines as a diff, with Apply and Discard (R51).

Nothing changes before Apply. The view only shows and asks: the window applies the
proposal (to the live editor, or to the saved copy) and tells the view how it went.

The card's title is the app's own words, from the proposal's target and its diff: the
model's summary is text a model wrote (a note it read may have steered it), so it is
only shown below, quoted (R93). A proposal for another note than the one the person
asked from says so, naming both.
"""

from __future__ import annotations

import re
from html import escape
from typing import Final, Literal

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from bridge.proposals import Review, review
from bridge.wire import Proposal
from renderer.qt.scheme import LIGHT, Scheme, scheme_of

ProposalState = Literal[
    "waiting", "ready", "applied", "undone", "discarded", "conflict", "unavailable"
]

APPLIED: Final = "Applied. Ctrl+Z in the note undoes it."
APPLIED_SAVED: Final = "Applied to the saved note."
UNDONE: Final = "Undone: the note is as it was. Apply makes the change again."
DISCARDED: Final = "Discarded: the note was not changed."
CONFLICT: Final = (
    "The note changed where this edit applies since it was proposed (your typing, or "
    "another app), so nothing was applied. The proposal stays: apply it again after "
    "undoing that change, or ask again."
)
UNAVAILABLE: Final = (
    "The note changed since this was proposed, so the change can't be shown or applied. "
    "Ask again for a fresh proposal."
)
OTHER_WORKSPACE: Final = (
    "This change was proposed for workspace “{workspace}”, which is not open, so it is not applied."
)
CHANGE_TITLE: Final = "Change {path}: {change}"
CHANGE_TITLE_WAITING: Final = "Change {path}"
"""The title until the note the change applies to is read (how much changes is not known)."""
OTHER_NOTE: Final = "⚠ You asked about {asked}, but this changes another note: {path}."
QUOTED_SUMMARY: Final = "The assistant says: “{summary}”"
TICKED: Final = ("tick {count} task", "tick {count} tasks")
UNTICKED: Final = ("untick {count} task", "untick {count} tasks")
LINES_CHANGED: Final = ("{count:,} line changed", "{count:,} lines changed")
LINES_ADDED: Final = ("{count:,} line added", "{count:,} lines added")
LINES_REMOVED: Final = ("{count:,} line removed", "{count:,} lines removed")
_MAX_SHOWN_LINES: Final = 40
_TASK_LINE: Final = re.compile(r"(\s*(?:[-*+]|\d{1,9}[.)])\s+\[)([ xX])(\].*)", re.S)


class ProposalView(QFrame):
    """One proposal: its summary, its diff, Apply and Discard, and what became of it."""

    apply_requested = Signal(object)
    """The view itself: the window applies its proposal."""
    discarded = Signal(object)
    settled = Signal(object)
    """The view itself, once applied, undone or discarded: its conversation is told which (R50)."""

    def __init__(
        self,
        proposal: Proposal,
        workspace: str,
        parent: QWidget | None = None,
        *,
        conversation: str = "",
        asked_about: str | None = None,
    ) -> None:
        """``asked_about`` is the note the person asked from (the turn's open note), if any."""
        super().__init__(parent)
        self.setObjectName("proposal")
        self.proposal = proposal
        self.workspace = workspace
        self.conversation = conversation
        """The conversation whose reply made the proposal; "" when none keeps it."""
        self.base_text: str | None = None
        self._diff_scheme: Scheme | None = None
        """The scheme the diff was drawn in; None before it is."""
        self.state: ProposalState = "waiting"
        self.applied_to: str | None = None
        """The frame id whose editor took the change, or None for the saved copy."""
        self.title = QLabel(CHANGE_TITLE_WAITING.format(path=proposal.path), self)
        self.title.setObjectName("proposalTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        self.other_note = QLabel("", self)
        self.other_note.setObjectName("proposalOtherNote")
        self.other_note.setTextFormat(Qt.TextFormat.PlainText)
        self.other_note.setWordWrap(True)
        if asked_about is not None and asked_about != proposal.path:
            self.other_note.setText(OTHER_NOTE.format(asked=asked_about, path=proposal.path))
        self.other_note.setVisible(bool(self.other_note.text()))
        self.summary = QLabel(QUOTED_SUMMARY.format(summary=proposal.summary), self)
        self.summary.setObjectName("proposalSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.summary.setVisible(bool(proposal.summary))
        self.diff = QLabel("…", self)
        self.diff.setObjectName("proposalDiff")
        self.diff.setTextFormat(Qt.TextFormat.RichText)
        self.diff.setWordWrap(True)  # a long line wraps inside the column, never widens it
        self.diff.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = QLabel("", self)
        self.status.setObjectName("proposalStatus")
        self.status.setWordWrap(True)
        self.status.setVisible(False)
        self.apply_button = QPushButton("Apply", self)
        self.apply_button.setAccessibleName(f"Apply the proposed change to {proposal.path}")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(lambda: self.apply_requested.emit(self))
        self.discard_button = QPushButton("Discard", self)
        self.discard_button.setAccessibleName(f"Discard the proposed change to {proposal.path}")
        self.discard_button.clicked.connect(self.discard)
        buttons = QHBoxLayout()
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.discard_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.other_note)
        layout.addWidget(self.summary)
        layout.addWidget(self.diff)
        layout.addWidget(self.status)
        layout.addLayout(buttons)

    def show_base(self, base: str) -> None:
        """The text the proposal was computed from is known: show the diff, allow Apply."""
        self.base_text = base
        self._show_diff()
        self.state = "ready"
        self.apply_button.setEnabled(True)

    def _show_diff(self) -> None:
        if self.base_text is not None and self.state != "unavailable":
            self._diff_scheme = scheme_of(self.palette())
            found = review(self.base_text, self.proposal.edits, _MAX_SHOWN_LINES)
            self.title.setText(
                CHANGE_TITLE.format(path=self.proposal.path, change=describe_change(found))
            )
            self.diff.setText(diff_html(found, self._diff_scheme))

    def changeEvent(self, event: QEvent) -> None:
        """The colour scheme changed while the card is shown: its diff takes the new colours.

        Only a change of scheme draws it again: a palette event comes at every polish, and
        a big change's diff is worth drawing once (R78).
        """
        super().changeEvent(event)
        if (
            event.type() == QEvent.Type.PaletteChange
            and self._diff_scheme is not None
            and scheme_of(self.palette()) is not self._diff_scheme
        ):
            self._show_diff()

    def show_unavailable(self) -> None:
        self.diff.setText("")
        self._end("unavailable", UNAVAILABLE)

    def show_applied(self, frame_id: str | None) -> None:
        self.applied_to = frame_id
        self._end("applied", APPLIED if frame_id else APPLIED_SAVED)

    def show_undone(self) -> None:
        """Undo took the change out of the note: say so, and let Apply make it again (R80)."""
        if self.state != "applied":
            return
        self.state = "undone"
        self.status.setText(UNDONE)
        self.status.setVisible(True)
        self.apply_button.setEnabled(True)
        self.discard_button.setEnabled(True)
        self.settled.emit(self)

    def show_conflict(self, message: str = CONFLICT) -> None:
        """Nothing applied; the proposal stays and can be applied again (R52)."""
        self.state = "conflict"
        self.status.setText(message)
        self.status.setVisible(True)

    def discard(self) -> None:
        if self.state in ("applied", "discarded"):
            return
        self._end("discarded", DISCARDED)
        self.discarded.emit(self)

    def _end(self, state: ProposalState, message: str) -> None:
        self.state = state
        self.status.setText(message)
        self.status.setVisible(True)
        self.apply_button.setEnabled(False)
        self.discard_button.setEnabled(False)
        if state in ("applied", "discarded"):
            self.settled.emit(self)


def describe_change(found: Review) -> str:
    """What a change does, in the app's words: "tick 1 task", "2 lines changed, 1 added"."""
    ticked = _ticks(found)
    if ticked is not None:
        return _counted(TICKED if ticked else UNTICKED, found.removed)
    changed = min(found.removed, found.added)
    parts = [
        _counted(words, count)
        for words, count in (
            (LINES_CHANGED, changed),
            (LINES_ADDED, found.added - changed),
            (LINES_REMOVED, found.removed - changed),
        )
        if count
    ]
    return ", ".join(parts) or _counted(LINES_CHANGED, 0)


def _ticks(found: Review) -> bool | None:
    """True when every changed line only ticks a task, False when each only unticks one."""
    lines, count = found.lines, found.removed
    if not count or found.added != count or len(lines) != 2 * count:
        return None  # not line for line, or not all of it shown
    marks: set[tuple[str, str]] = set()
    for old, new in zip(lines[:count], lines[count:], strict=True):
        before, after = _TASK_LINE.fullmatch(old.text), _TASK_LINE.fullmatch(new.text)
        if before is None or after is None or (before[1], before[3]) != (after[1], after[3]):
            return None
        marks.add((before[2].lower(), after[2].lower()))
    if marks == {(" ", "x")}:
        return True
    return False if marks == {("x", " ")} else None


def _counted(words: tuple[str, str], count: int) -> str:
    return (words[0] if count == 1 else words[1]).format(count=count)


def diff_html(found: Review, scheme: Scheme = LIGHT) -> str:
    """The touched lines, removed (−) then added (+), each with its line number (R51).

    A row's text colour is set with its background, both from ``scheme`` (R82).
    """
    rows: list[str] = []
    lines, total = found.lines, found.removed + found.added
    for line in lines:
        sign, tone = ("−", scheme.removed) if line.kind == "removed" else ("+", scheme.added)
        cell = f'style="background: {tone.background}; color: {tone.text};"'
        rows.append(
            f'<tr><td align="right" {cell}>{line.number}</td><td {cell}>{sign}</td>'
            f"<td {cell}><code>{escape(line.text) or '&nbsp;'}</code></td></tr>"
        )
    if total > len(lines):
        rows.append(f"<tr><td></td><td></td><td>… {total - len(lines)} more</td></tr>")
    return '<table cellspacing="0" cellpadding="2">' + "".join(rows) + "</table>"
