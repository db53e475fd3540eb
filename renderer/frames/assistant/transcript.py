"""The assistant's transcript: the kept conversation, then this session's turns (R34).

A kept turn comes back from the backend as the user's message and the final
reply with the names and arguments of the tools it called, never their results.
With the record the app kept of it (:mod:`renderer.ambient.kept_records`) it shows
as it was shown, its assistant and details included; without one, as the backend
keeps it. A reply's proposals show as what they changed and what became of them
(applied, undone, discarded, or not applied), never as their text (R50).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from bridge.tools import TOOL_FACTS
from bridge.wire import ConversationMessage, KeptProposalAnswer
from renderer.ambient.kept_records import kept_turn_pairs
from renderer.ambient.turn_text import tools_html
from renderer.ambient.turns import TurnRecord
from renderer.frames.assistant.turn_view import TurnView, show_markdown
from renderer.qt.tasks import TaskRunner

WELCOME = (
    "Ask about the note you are looking at: “summarise this”, “what are my open tasks "
    "here?”, このノートを要約して. The chip below shows which note that means."
)


_OUTCOME_WORDS = {
    "applied": "applied",
    "undone": "undone",
    "discarded": "discarded",
    "pending": "not applied",
}


def _rich(text: str) -> str:
    return escape(text).replace("\n", "<br>")


def kept_proposals_text(proposals: Sequence[KeptProposalAnswer]) -> str:
    """One line per kept proposal: its summary, its note and what became of it."""
    lines = []
    for proposal in proposals:
        outcome = _OUTCOME_WORDS.get(proposal.outcome, proposal.outcome)
        lines.append(f"Proposed: {proposal.summary or 'a change'} ({proposal.path}): {outcome}")
    return "\n".join(lines)


def stated_calls(
    calls: Sequence[tuple[str, dict[str, Any]]], proposals: Sequence[KeptProposalAnswer]
) -> list[tuple[str, dict[str, Any]]]:
    """A kept turn's tool calls, each proposing call with its kept proposal's summary.

    A kept call holds no edits and no summary (they quote the note, R77); the reply's
    kept proposal holds its summary (R50), so the call says again what it proposed.
    A call is matched with the first unused proposal for its note.
    """
    unused = list(proposals)
    stated: list[tuple[str, dict[str, Any]]] = []
    for name, arguments in calls:
        facts = TOOL_FACTS.get(name)
        if facts is not None and facts.proposes and not arguments.get("summary"):
            path = arguments.get("path")
            kept = next((item for item in unused if not path or item.path == path), None)
            if kept is not None:
                unused.remove(kept)
                arguments = {**arguments, "path": kept.path, "summary": kept.summary}
        stated.append((name, arguments))
    return stated


def kept_proposals_label(proposals: Sequence[KeptProposalAnswer], parent: QWidget) -> QLabel:
    label = QLabel(kept_proposals_text(proposals), parent)
    label.setObjectName("keptProposals")
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


class KeptTurnView(QFrame):
    """A turn from the kept conversation: the message, the tools it called and the reply."""

    def __init__(
        self, message: str, parent: QWidget | None = None, runner: TaskRunner | None = None
    ) -> None:
        """``runner`` reads a long reply's Markdown off the GUI thread (R91)."""
        super().__init__(parent)
        self._runner = runner
        self.setObjectName("turn")
        self.setProperty("kept", True)
        self.message = QLabel(_rich(message), self)
        self.message.setObjectName("turnMessage")
        self.tools = QLabel("", self)
        self.tools.setObjectName("turnTools")
        self.tools.setVisible(False)
        self.reply = QLabel("", self)
        self.reply.setObjectName("turnReply")
        self.reply.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        for label in (self.message, self.tools, self.reply):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(label)

    def add_proposal(self, view: QWidget) -> None:
        """What became of the reply's proposals, under it (R50)."""
        view.setParent(self)
        layout = self.layout()
        if layout is not None:
            layout.addWidget(view)

    def show_reply(self, message: ConversationMessage) -> None:
        calls = stated_calls(
            [(call.name, call.arguments) for call in message.tool_calls], message.proposals
        )
        self.tools.setText(tools_html((name, args, None) for name, args in calls))
        self.tools.setVisible(bool(message.tool_calls))
        show_markdown(self.reply, message.text, self._runner)  # as when it came
        self.reply.setVisible(True)


class Transcript(QScrollArea):
    """The scrolling list of turns, with a welcome line while it is empty."""

    def __init__(self, parent: QWidget | None = None, runner: TaskRunner | None = None) -> None:
        """``runner`` reads long replies' Markdown off the GUI thread (R91)."""
        super().__init__(parent)
        self._runner = runner
        self.content = QWidget()
        self.content.setObjectName("transcript")
        self._layout = QVBoxLayout(self.content)
        self._layout.setContentsMargins(8, 8, 8, 8)
        self._layout.setSpacing(8)
        self.status = QLabel("", self.content)
        self.status.setObjectName("transcriptStatus")
        self.status.setWordWrap(True)
        self.status.setVisible(False)
        self.welcome = QLabel(WELCOME, self.content)
        self.welcome.setObjectName("welcome")
        self.welcome.setWordWrap(True)
        self._layout.addWidget(self.status)
        self._layout.addWidget(self.welcome)
        self._layout.addStretch(1)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(self.content)
        self.setAccessibleName("Conversation")
        # The latest turn stays in view while the content grows after a turn was added
        # (kept turns laid out, a reply wrapping, Details opened), until the person scrolls.
        self._follow = True
        self._reveal: QWidget | None = None  # details just opened, shown once laid out
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.actionTriggered.connect(self._scrolled_by_hand)

    def turns(self) -> list[QFrame]:
        """Every turn shown, kept ones first, top to bottom."""
        found: list[QFrame] = []
        for index in range(self._layout.count()):
            item = self._layout.itemAt(index)
            widget = None if item is None else item.widget()
            if isinstance(widget, TurnView | KeptTurnView):
                found.append(widget)
        return found

    def add_turn(self, message: str) -> TurnView:
        """A new turn at the end."""
        view = self._turn_view(message)
        self._insert(self._layout.count() - 1, view)
        return view

    def _turn_view(self, message: str) -> TurnView:
        view = TurnView(message, self.content, self._runner)
        # A bound method, not a lambda holding the view: a Python cycle through a Qt
        # connection could be collected on another thread, which deadlocks PySide.
        view.details_opened.connect(self._reveal_details)
        return view

    def show_kept(
        self,
        messages: Sequence[ConversationMessage],
        replacing: Sequence[QWidget],
        records: Sequence[TurnRecord | None] = (),
    ) -> None:
        """The kept conversation at the top, in place of ``replacing``; later turns stay below.

        ``records`` holds, for each kept turn, the record the app kept of it (R45): such a
        turn shows again as it was shown, with its assistant and its details.
        """
        self.remove(replacing)
        for position, (asked, reply) in enumerate(kept_turn_pairs(messages)):
            record = records[position] if position < len(records) else None
            view: QFrame
            if record is None:
                view = KeptTurnView(asked, self.content, self._runner)
                view.show_reply(reply)
            else:
                view = self._turn_view(asked)
                view.show_record(record)
                if record.reply is not None and reply.proposals:
                    calls = [(call.name, call.arguments) for call in record.reply.tool_calls]
                    view.show_tools([(n, a, None) for n, a in stated_calls(calls, reply.proposals)])
            if reply.proposals:
                view.add_proposal(kept_proposals_label(reply.proposals, view))
            self._insert(self._first_turn_index() + position, view)
        self._update_welcome()

    def clear(self, keep: QWidget | None = None) -> None:
        """Remove every turn but ``keep``."""
        self.remove([view for view in self.turns() if view is not keep])

    def remove(self, views: Sequence[QWidget]) -> None:
        for view in views:
            if self._layout.indexOf(view) >= 0:
                self._layout.removeWidget(view)
                view.hide()
                view.deleteLater()
        self._update_welcome()

    def show_status(self, text: str) -> None:
        """A line above the turns (a conversation that could not be loaded); "" hides it."""
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def scroll_to_end(self) -> None:
        """Show the latest turn and keep it shown as the content grows, till the person scrolls."""
        self._follow = True
        self._reveal = None
        QTimer.singleShot(0, self, self._scroll_to_end)

    def _scroll_to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _reveal_details(self, details: QWidget) -> None:
        """Details opened: scroll just enough to show them (they are laid out a moment later)."""
        self._follow = False
        self._reveal = details

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        if self._reveal is not None:
            self.ensureWidgetVisible(self._reveal, 0, 8)
            self._reveal = None
        elif self._follow:
            self.verticalScrollBar().setValue(maximum)

    def _scrolled_by_hand(self, _action: int) -> None:
        self._follow = False

    def _first_turn_index(self) -> int:
        return self._layout.indexOf(self.welcome) + 1

    def _insert(self, index: int, view: QWidget) -> None:
        self._layout.insertWidget(index, view)
        self._update_welcome()
        self.scroll_to_end()

    def _update_welcome(self) -> None:
        self.welcome.setVisible(not self.turns())
