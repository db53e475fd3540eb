"""The worker-thread side of the AI Assistant frame: every backend call it makes.

Each function here runs on a :class:`renderer.qt.tasks.TaskRunner` worker thread,
never on the GUI thread, and touches no widget: the frame submits it and gets
the value (or the failure) back on the GUI thread.
"""

from __future__ import annotations

from bridge.agent import TurnStream
from bridge.wire import AssistantDescription, ConversationMessage, KeptProposalAnswer
from renderer.ambient.backend import BackendLink, WorkspaceLink


def open_turn_stream(
    link: WorkspaceLink,
    conversation: str,
    message: str,
    ambient_header: str | None,
    *,
    note_left_out: bool,
    note_private: bool = False,
) -> TurnStream:
    """Worker thread: start the turn as a stream over the workspace's key session (R14, R35).

    ``note_left_out`` (R48) makes the reply say the note was left out, not that none is open.
    """
    return link.call(
        lambda client, key: client.stream_turn(
            conversation,
            message,
            session=key,
            ambient_header=ambient_header,
            note_left_out=note_left_out,
            note_private=note_private,
        )
    )


def fetch_assistant(backend: BackendLink) -> AssistantDescription:
    """Worker thread: which assistant answers (R30, ``GET /v1/assistant``)."""
    return backend.client().assistant()


def fetch_conversation(link: WorkspaceLink, conversation: str) -> list[ConversationMessage]:
    """Worker thread: the workspace's kept messages of ``conversation`` (R34)."""
    return link.call(lambda client, key: client.get_conversation(key, conversation))


def clear_conversation(link: WorkspaceLink, conversation: str) -> None:
    """Worker thread: forget ``conversation`` on the backend (Assistant ▸ Clear)."""
    link.call(lambda client, key: client.clear_conversation(key, conversation))


def report_proposal(
    link: WorkspaceLink, conversation: str, proposal: str, outcome: str
) -> KeptProposalAnswer:
    """Worker thread: tell ``conversation`` its proposal was applied or discarded (R50)."""
    return link.call(
        lambda client, key: client.report_proposal(key, conversation, proposal, outcome)
    )
