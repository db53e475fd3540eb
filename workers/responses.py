"""The routes' success answers as pydantic models: the contract's answers as code (contract 2–13).

Each route declares its answer with ``response_model=`` (or ``responses=`` for a
stream or plain text), so ``app.openapi()`` lists every contract route with a typed
answer; ``tests/workers/test_openapi.py`` holds it to ``contract.md``.

Two ways a model is used, chosen per route:
- **Cold routes** (key sessions, conversations, the assistant, the inline history…)
  return a dict and FastAPI validates it against the model and serialises it: the
  model is the answer's one declaration, and a field the route adds without the
  model is a 500 in the tests (``extra="forbid"``), never silently dropped.
- **Hot routes** (a turn with its pointer, document GET/PUT/listing, the inline
  command) keep their own serialisation: the turn body is joined from orjson pieces
  so a 256 KiB tool result is encoded once (:func:`workers.turns.render_turn`), and
  re-validating it would cost more than the whole encoding. They return a
  ``Response``, which FastAPI passes through; the model documents the answer, and
  the tests validate real answers against it so the two cannot drift.

Field names are the wire names (``expiresAt``, ``toolCalls``), so no alias can make
the schema and the bytes disagree; timestamps are the strings
:func:`bridge.pointer.format_captured_at` makes.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict

from bridge.agent import STREAM_MEDIA_TYPE, ProposalOutcome
from bridge.inline import AnswerKind
from workers.ambient import AmbientState
from workers.conversations import Role

AssistantKind = Literal["offline", "model"]
"""``workers.assistants.OFFLINE`` / ``MODEL`` (contract 7)."""
InlineRecordOutcome = Literal["pending", "accepted", "rejected", "failed"]
"""``bridge.inline.RECORD_OUTCOMES`` as a type (a test holds the two equal)."""
InlineReportedOutcome = Literal["accepted", "rejected"]
"""``bridge.inline.REPORTED_OUTCOMES`` as a type (a test holds the two equal)."""


class Answer(BaseModel):
    """A success answer: exactly the fields named, so the schema lists each one."""

    model_config = ConfigDict(extra="forbid", strict=True)


# Contract 2 and its extensions (system routes).
class Health(Answer):
    status: Literal["ok"]


class WorkspaceCreated(Answer):
    workspace: str


class WorkspaceNames(Answer):
    workspaces: list[str]


class KeySessionIssued(Answer):
    key: str
    workspace: str
    expiresAt: str


# Contract 3 and 10: the document API.
class DocumentEntry(Answer):
    path: str
    bytes: int
    sha256: str
    """16 lowercase hex characters, as in the pointer."""
    modifiedAt: str


class DocumentListing(Answer):
    documents: list[DocumentEntry]


class DocumentSaved(Answer):
    path: str
    bytes: int
    sha256: str


# Contract 4, 7 and 10: agent turns.
class AmbientAnswer(Answer):
    status: AmbientState
    reason: str | None


class TurnToolCall(Answer):
    name: str
    arguments: dict[str, Any]
    result: dict[str, Any]


class ProposalBase(Answer):
    bytes: int
    sha256: str
    """The full SHA-256 of the saved copy the edits index (64 hex)."""


class ProposalEdit(Answer):
    start: int
    end: int
    text: str


class Proposal(Answer):
    id: str
    path: str
    base: ProposalBase
    edits: list[ProposalEdit]
    summary: str


class TurnAssistant(Answer):
    kind: AssistantKind
    model: str | None


class TurnAnswer(Answer):
    reply: str
    toolCalls: list[TurnToolCall]
    proposals: list[Proposal]
    ambient: AmbientAnswer
    assistant: TurnAssistant


class Delivery(Answer):
    conversation: str
    workspace: str
    ambient_path: str | None
    ambient_view: str | None
    ambient_meta: dict[str, Any] | None
    """Every pointer field but ``path`` and ``view`` (contract 4)."""
    expiresAt: str


# Contract 7 and R50: conversations.
class ConversationSummary(Answer):
    conversation: str
    updatedAt: str
    turns: int


class ConversationList(Answer):
    conversations: list[ConversationSummary]


class KeptToolCall(Answer):
    """A tool call as a conversation keeps it: never its result."""

    name: str
    arguments: dict[str, Any]


class KeptProposalAnswer(Answer):
    id: str
    path: str
    summary: str
    outcome: ProposalOutcome


class ConversationMessage(Answer):
    role: Role
    text: str
    at: str
    toolCalls: list[KeptToolCall]
    proposals: list[KeptProposalAnswer]


class ConversationMessages(Answer):
    messages: list[ConversationMessage]


# Contract 7 and 12: the assistant.
class AssistantDescription(Answer):
    kind: AssistantKind
    model: str | None
    baseUrl: str | None


class Verification(Answer):
    ok: bool
    message: str
    models: list[str]


# Contract 13: the inline command.
class InlineAssistant(Answer):
    kind: AssistantKind
    name: str


class InlineAnswer(Answer):
    id: str
    replacement: str
    summary: str
    kind: AnswerKind
    assistant: InlineAssistant


class InlineOutcome(Answer):
    id: str
    outcome: InlineReportedOutcome


class InlineRecord(Answer):
    id: str
    instruction: str
    path: str
    lines: list[int]
    bytes: int
    assistant: InlineAssistant
    at: str
    outcome: InlineRecordOutcome


class InlineHistory(Answer):
    requests: list[InlineRecord]


# Answers that are not JSON objects, as OpenAPI ``responses=`` entries.
ETAG_HEADER: Final[dict[str, Any]] = {
    "ETag": {
        "description": 'The quoted full SHA-256 of the saved bytes (contract 10): "<64 hex>".',
        "schema": {"type": "string"},
    }
}


def event_stream(events: str) -> dict[int | str, dict[str, Any]]:
    """A 200 that may also be ``text/event-stream`` (with ``Accept`` asking for it)."""
    return {
        200: {
            "content": {
                STREAM_MEDIA_TYPE: {
                    "schema": {"type": "string", "description": events},
                }
            }
        }
    }


PLAIN_TEXT_DOCUMENT: Final[dict[int | str, dict[str, Any]]] = {
    200: {
        "description": "The saved UTF-8 text of the note.",
        "content": {"text/plain; charset=utf-8": {"schema": {"type": "string"}}},
        "headers": ETAG_HEADER,
    }
}
SAVED_DOCUMENT: Final[dict[int | str, dict[str, Any]]] = {
    200: {"description": "The saved copy's size and fingerprint.", "headers": ETAG_HEADER}
}


class ErrorDetail(Answer):
    code: str
    """A slug, e.g. ``note_changed``."""
    message: str
    """Plain language."""


class ErrorEnvelope(Answer):
    """Every refusal (contract 2): FastAPI's own 422 never leaves, it becomes a 400 like this."""

    error: ErrorDetail


REFUSALS: Final[dict[int | str, dict[str, Any]]] = {
    "4XX": {"model": ErrorEnvelope, "description": "Refused: the error envelope."}
}
