"""One AI Assistant frame per workspace (R45): its conversation and transcript stay with it.

The open workspace's assistant stands in the assistant column; the others wait
hidden, with their transcripts, until their workspace opens again. A restarted
app gives each workspace's new assistant the conversation id it had.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QSplitter, QWidget

from app.session import AppSession
from bridge.wire import AssistantDescription
from renderer.ambient.elsewhere import Elsewhere, FallbackWatch
from renderer.ambient.kept_records import KeptRecords
from renderer.frames.assistant.frame import AssistantFrame
from renderer.frames.assistant.proposal_view import ProposalView

KEPT_TURNS_FOLDER = "turns"
"""In the data folder: what each reply showed, without note text (R45)."""
ASSISTANT_MIN_WIDTH = 320
"""R46: the assistant column's own minimum, so its contents never widen the window."""


class WorkspaceAssistants:
    """Makes, shows and finally tears down the assistant frames of one window."""

    def __init__(
        self,
        session: AppSession,
        column: QSplitter,
        shelf: QWidget,
        on_activated: Callable[[str], None],
        on_proposals: Callable[[list[ProposalView]], None],
    ) -> None:
        self._session = session
        self._column = column
        self._shelf = shelf
        self._on_activated = on_activated
        self._on_proposals = on_proposals
        self._frames: dict[str, AssistantFrame] = {}
        self.current: AssistantFrame | None = None
        self.kept = KeptRecords(session.data_dir / KEPT_TURNS_FOLDER)
        """The records of every workspace's turns, so a restart shows them as shown (R45)."""
        self.fallback = FallbackWatch(session.store)
        """The note "this note" fell back from when it popped out (R29); the host tells it."""

    def for_workspace(self, workspace: str, conversation: str | None) -> AssistantFrame:
        """The workspace's assistant, made on first use (with ``conversation`` if given)."""
        assistant = self._frames.get(workspace)
        if assistant is None:
            session = self._session
            assistant = AssistantFrame(
                store=session.store,
                runner=session.runner,
                autosave=session.autosave,
                link=lambda: session.link,
                conversation=conversation or session.conversation_for(workspace),
                kept=self.kept,
                parent=self._shelf,
            )
            assistant.elsewhere = lambda: self.elsewhere(workspace)
            assistant.load_conversation(assistant.conversation)  # R34: shown on reopening
            assistant.setMinimumWidth(ASSISTANT_MIN_WIDTH)
            assistant.watch_activation()
            assistant.activated.connect(self._on_activated)
            assistant.proposals_shown.connect(self._on_proposals)  # R51: the window reviews them
            self._frames[workspace] = assistant
        return assistant

    def show(self, assistant: AssistantFrame) -> None:
        """Put ``assistant`` in the column (appended the first time); the previous one waits."""
        current = self.current
        if assistant is current:
            return
        if current is None:
            self._column.addWidget(assistant)
        else:
            sizes = self._column.sizes()
            self._column.replaceWidget(self._column.indexOf(current), assistant)
            current.hide()
            current.setParent(self._shelf)
            assistant.show()
            self._column.setSizes(sizes)
        self.current = assistant

    def show_assistant_info(self, info: AssistantDescription) -> None:
        """Every workspace's frame names the assistant that now answers (R30, R37)."""
        for assistant in self._frames.values():
            assistant.show_assistant(info)

    def elsewhere(self, workspace: str) -> Elsewhere:
        """The workspace's notes in popped-out windows that have not ended (R29)."""
        session = self._session
        open_elsewhere = frozenset(
            handle.path
            for handle in session.popouts.handles
            if handle.workspace == workspace and handle.exit_code is None and not handle.crashed
        )
        here = workspace == session.workspace
        return Elsewhere(open_elsewhere, self.fallback.fell_back_from if here else None)

    def teardown(self) -> None:
        self.fallback.close()
        for assistant in self._frames.values():
            assistant.teardown()
