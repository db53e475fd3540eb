"""What every tool may use during a turn, and the reads and refusals they share (R22, R28).

Each tool's arguments are checked first (:mod:`workers.tools.declaration`), then
:meth:`ToolContext.open_access` checks the key session and the delivery row, so
each refuses with the same messages as the document API (R28). The read tools go
through :meth:`Workspaces.read`. Results are plain JSON objects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bridge.privacy import AIEXCLUDE, NOTE_PRIVATE, OPEN_NOTE_PRIVATE, PRIVATE_LEFT_OUT
from bridge.reading import read_result
from workers import messages
from workers.deliveries import DeliveryCredential, DeliveryCredentials
from workers.document_files import DocumentRead
from workers.documents import Workspaces
from workers.errors import AccessDenied, DocumentRefused
from workers.identity import KeySession

ToolResult = dict[str, Any]


@dataclass(frozen=True)
class ToolContext:
    """What a tool may use during one turn: the turn's key session and conversation."""

    session: KeySession | None
    conversation: str
    deliveries: DeliveryCredentials
    workspaces: Workspaces
    clock: Callable[[], datetime]
    note_left_out: bool = False
    """R48: the user left the open note out of this turn (``"ambient": "excluded"``)."""
    note_private: bool = False
    """R86: "this note" is private, so the app sent no pointer (``"ambient": "private"``)."""
    asks_about: Callable[[str], bool] | None = None
    """R93: whether the person's message names the note at a path; None outside a turn."""

    def open_access(self) -> DeliveryCredential:
        """R22, R28: the key session's expiry and the live delivery row, on every call.

        The key itself was checked against the database when the turn arrived; its
        delivery row goes with it (ON DELETE CASCADE), so re-reading the row is enough
        to notice a key that has been removed since.
        """
        if self.session is None:
            raise AccessDenied("key_session_required", messages.KEY_SESSION_MISSING)
        if self.session.expires_at <= self.clock():
            raise AccessDenied("key_session_expired", messages.KEY_SESSION_EXPIRED)
        row = self.deliveries.current(self.session, self.conversation)
        if row is None:
            raise AccessDenied("delivery_expired", messages.DELIVERY_EXPIRED)
        return row


class ToolArgumentError(ValueError):
    """Arguments a tool cannot use; the message is plain language."""


def read_saved_copy(
    context: ToolContext, workspace: str, path: str, limit: int | None, *, active: bool = False
) -> DocumentRead | ToolResult:
    """A note's saved copy, or the refusal to give back as the tool's result (R28).

    R86: a private note is never opened; the refusal names neither its path nor its size.
    """
    if context.workspaces.is_private(workspace, path):
        return private_note(active=active)
    try:
        return context.workspaces.read(workspace, path, limit)
    except DocumentRefused as refusal:
        status = {"not_found": "not_found", "outside": "access_denied"}.get(
            refusal.kind, "invalid_argument"
        )
        return read_result(status, refusal.message, path=path)


def private_note(*, active: bool = False) -> ToolResult:
    """R86: the note asked for is private; nothing of it (path, text, size, hash) is said."""
    return read_result("private", OPEN_NOTE_PRIVATE if active else NOTE_PRIVATE)


def shared_only(context: ToolContext, workspace: str) -> tuple[Callable[[str], bool], list[str]]:
    """A ``skip`` for listings and searches that leaves private notes out, and what it left.

    The list fills as the walk goes; its length is the ``privateCount`` to report.
    """
    rules = context.workspaces.privacy(workspace)
    left_out: list[str] = []

    def skip(path: str) -> bool:
        if context.workspaces.is_private(workspace, path, rules):
            if path != AIEXCLUDE:  # the list itself is left out, but it is no note
                left_out.append(path)
            return True
        return False

    return skip, left_out


def private_count_fields(left_out: list[str]) -> dict[str, object]:
    """What a listing or search adds when it left private notes out (contract 14)."""
    if not left_out:
        return {}
    return {"privateCount": len(left_out), "message": PRIVATE_LEFT_OUT.format(count=len(left_out))}


def no_open_note(context: ToolContext) -> ToolResult:
    """R27, R48, R86: no note is open, the user left it out, or it is private."""
    if context.note_private:
        return private_note(active=True)
    left_out = context.note_left_out
    return read_result(
        "no_active_note", messages.NOTE_LEFT_OUT if left_out else messages.NO_ACTIVE_NOTE
    )


def refusal(status: str, message: str) -> ToolResult:
    """A tool result that refuses a call before any tool ran (an unknown tool, bad JSON)."""
    return read_result(status, message)
