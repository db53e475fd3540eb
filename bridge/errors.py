"""Typed failures of backend calls, each with a plain-language message a UI shows as is."""

from __future__ import annotations

UNREACHABLE_MESSAGE = "The assistant service can't be reached. Your message was kept; try again."
# Shown inside the app's own sentence ("notes/a.md could not be saved: …"), which says
# what happens to the text; this part only says why.
UNREACHABLE_DOCUMENT_MESSAGE = "The assistant service can't be reached."
ACCESS_REFUSED_MESSAGE = "Access to the workspace was refused. Open the workspace again and retry."
NOT_FOUND_MESSAGE = "The assistant service has nothing at that address."
REJECTED_MESSAGE = "The assistant service refused the request as not valid."
SERVER_FAILED_MESSAGE = "The assistant service ran into a problem. Nothing was lost; try again."
NOT_UNDERSTOOD_MESSAGE = "The assistant service sent an answer this app does not understand."
NOTE_CHANGED_MESSAGE = "The note changed elsewhere since it was opened, so it was not saved."


class BackendError(Exception):
    """A backend call that did not succeed.

    ``message`` is plain language, fit to show to the user unchanged; ``status``
    is the HTTP status when the backend answered; ``code`` is the slug from the
    backend's error envelope when it sent one.
    """

    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code

    def __str__(self) -> str:
        return self.message


class BackendUnreachable(BackendError):
    """No answer: connection refused, reset, or a timeout."""


class AccessRefused(BackendError):
    """401 or 403: the device token or the key session was refused."""


class NotFound(BackendError):
    """404: no such workspace, document or delivery."""


class RequestRejected(BackendError):
    """400, 413 or 422: the request itself was refused; nothing was changed."""


class PreconditionFailed(BackendError):
    """412: the note is not what the conditional save expected (``note_changed`` or
    ``note_exists``); nothing was written (R53)."""
