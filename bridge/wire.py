"""The routes' success answers as pydantic models: the contract's answers, declared once (2–13).

The backend declares its routes' answers with these (``response_model=``, so
``app.openapi()`` lists every route with a typed answer), and the app reads the same
answers with them (:func:`bridge.responses.read_answer`, strict): one class for each
shape, on both sides of the wire.

Field names are the Python names; where the wire spells a field otherwise
(``toolCalls``, ``expiresAt``) the field carries it as its alias, and everything that
reads or writes JSON does so by alias: FastAPI serialises and documents answers by
alias, and the app validates the JSON it receives by alias. The backend's hot routes
(a turn, the inline command, documents) write their own bytes, and
``tests/workers/test_wire_bytes.py`` holds every route's bytes to a recorded
transcript, so the models and the bytes cannot drift apart.

Timestamps stay the strings :func:`bridge.pointer.format_captured_at` makes; a
reader turns them into datetimes where it needs one (:meth:`ConversationMessage.sent_at`).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Final, Literal, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

AssistantKind = Literal["offline", "model"]
"""``workers.assistants.OFFLINE`` / ``MODEL`` (contract 7)."""
AmbientState = Literal["stored", "absent", "rejected"]
"""What a turn did with its ``X-Ambient-Note`` (contract 4)."""
Role = Literal["user", "assistant"]
"""Who wrote a kept message (contract 7)."""
ProposalOutcome = Literal["pending", "applied", "undone", "discarded"]
"""What a kept proposal says became of it; the app reports all but the first (R50, R80)."""
PROPOSAL_OUTCOMES: Final[tuple[ProposalOutcome, ...]] = get_args(ProposalOutcome)
AnswerKind = Literal["edit", "refusal"]
"""An inline answer: a replacement, or a refusal's one sentence (contract 13)."""
KIND_EDIT: Final = "edit"
KIND_REFUSAL: Final = "refusal"
InlineRecordOutcome = Literal["pending", "accepted", "rejected", "failed"]
InlineReportedOutcome = Literal["accepted", "rejected"]
RECORD_OUTCOMES: Final[tuple[InlineRecordOutcome, ...]] = get_args(InlineRecordOutcome)
REPORTED_OUTCOMES: Final[tuple[InlineReportedOutcome, ...]] = get_args(InlineReportedOutcome)
"""What the app reports of an inline answer (contract 13); "failed" is the backend's own."""


class WireModel(BaseModel):
    """A success answer: exactly the fields named, strictly typed, never changed once read."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )


# Contract 2 and its extensions (system routes).
class Health(WireModel):
    status: Literal["ok"]


class WorkspaceCreated(WireModel):
    workspace: str


class WorkspaceNames(WireModel):
    workspaces: list[str]


class KeySessionIssued(WireModel):
    key: str
    workspace: str
    expires_at: str = Field(alias="expiresAt")


# Contract 3 and 10: the document API.
class DocumentEntry(WireModel):
    path: str
    bytes: int
    sha256: str
    """16 lowercase hex characters, as in the pointer."""
    modified_at: str = Field(alias="modifiedAt")


class DocumentListing(WireModel):
    documents: list[DocumentEntry]


class DocumentSaved(WireModel):
    path: str
    bytes: int
    sha256: str


# Contract 4, 7 and 10: agent turns.
class AmbientAnswer(WireModel):
    status: AmbientState
    reason: str | None


class TurnToolCall(WireModel):
    """One tool the assistant called during a turn, with its JSON result."""

    name: str
    arguments: dict[str, Any]
    result: dict[str, Any]


class ProposalBase(WireModel):
    bytes: int
    sha256: str
    """The full SHA-256 of the saved copy the edits index (64 hex)."""


class ProposalEdit(WireModel):
    """Replace ``[start, end)`` (code points of the base text) by ``text``."""

    start: int
    end: int
    text: str


class Proposal(WireModel):
    """A proposed change to one note (contract 10); never applied by the backend.

    Its edits are sorted and never overlap: an answer whose edits do is refused as a
    whole when read, so a malformed proposal can never be applied.
    """

    id: str
    path: str
    base: ProposalBase
    edits: list[ProposalEdit]
    summary: str

    @model_validator(mode="after")
    def _edits_in_order(self) -> Self:
        previous_end = 0
        for edit in self.edits:
            if edit.start < previous_end or edit.end < edit.start:
                raise ValueError("a proposal's edits must be sorted and must not overlap")
            previous_end = edit.end
        return self

    def is_base(self, text: str) -> bool:
        """Whether ``text`` is exactly the text the proposal was computed from."""
        data = text.encode("utf-8", errors="surrogatepass")
        return len(data) == self.base.bytes and hashlib.sha256(data).hexdigest() == self.base.sha256


class TurnAssistant(WireModel):
    kind: AssistantKind
    model: str | None


class TurnAnswer(WireModel):
    """The backend's answer to a turn (contract 7), streamed or whole."""

    reply: str
    tool_calls: list[TurnToolCall] = Field(alias="toolCalls")
    proposals: list[Proposal]
    ambient: AmbientAnswer
    assistant: TurnAssistant

    def as_json(self) -> dict[str, Any]:
        """The answer as the wire carries it, for the details views."""
        return self.model_dump(mode="json")


class Delivery(WireModel):
    conversation: str
    workspace: str
    ambient_path: str | None
    ambient_view: str | None
    ambient_meta: dict[str, Any] | None
    """Every pointer field but ``path`` and ``view`` (contract 4)."""
    expires_at: str = Field(alias="expiresAt")


# Contract 7 and R50: conversations.
class ConversationSummary(WireModel):
    conversation: str
    updated_at: str = Field(alias="updatedAt")
    turns: int


class ConversationList(WireModel):
    conversations: list[ConversationSummary]


class KeptToolCall(WireModel):
    """A tool call as a conversation keeps it: never its result."""

    name: str
    arguments: dict[str, Any]


class KeptProposalAnswer(WireModel):
    """A proposal as its conversation keeps it, on both sides of the wire (R50).

    What it changes and what became of it, never its edits or its base: the backend
    keeps these rows and sends them, the app reads them back.
    """

    id: str
    path: str
    summary: str
    outcome: ProposalOutcome


class ConversationMessage(WireModel):
    """A kept message: the user's text or a final reply with its tools (no results)."""

    role: Role
    text: str
    at: str
    tool_calls: list[KeptToolCall] = Field(alias="toolCalls")
    proposals: list[KeptProposalAnswer]

    def sent_at(self) -> datetime:
        return datetime.fromisoformat(self.at)


class ConversationMessages(WireModel):
    messages: list[ConversationMessage]


# Contract 7 and 12: the assistant.
class AssistantDescription(WireModel):
    """Which assistant answers: ``kind`` offline or model; never the API key."""

    kind: AssistantKind
    model: str | None
    base_url: str | None = Field(alias="baseUrl")


class Verification(WireModel):
    ok: bool
    message: str
    models: list[str]


class AssistantAbilities(WireModel):
    """What the offline assistant understands, with examples, as Markdown (R84)."""

    language: str
    """The catalogue's language the text is in: the one asked for, else ``en``."""
    text: str


# Contract 13: the inline command.
class InlineAssistant(WireModel):
    kind: AssistantKind
    name: str


class InlineAnswer(WireModel):
    """The backend's inline answer: the replacement text, or a refusal's sentence."""

    id: str
    replacement: str
    summary: str
    kind: AnswerKind
    assistant: InlineAssistant

    @property
    def is_refusal(self) -> bool:
        return self.kind == KIND_REFUSAL


class InlineOutcome(WireModel):
    id: str
    outcome: InlineReportedOutcome


class InlineRecord(WireModel):
    """One kept inline request (R73): never note text."""

    id: str
    instruction: str
    path: str
    lines: list[int] = Field(min_length=2, max_length=2)
    """The first and the last line the request's slice touched."""
    bytes: int
    assistant: InlineAssistant
    at: str
    outcome: InlineRecordOutcome

    def describe(self) -> str:
        """One line for the prompt's history menu."""
        first, last = self.lines
        return f"{self.instruction} — {self.path}:{format_lines(first, last)} ({self.outcome})"


class InlineHistory(WireModel):
    requests: list[InlineRecord]


def format_lines(first: int, last: int) -> str:
    """``12–40`` (an en dash, as R69 writes it), or ``12`` for one line."""
    return str(first) if first == last else f"{first}–{last}"


class ErrorDetail(WireModel):
    code: str
    """A slug, e.g. ``note_changed``."""
    message: str
    """Plain language."""


class ErrorEnvelope(WireModel):
    """Every refusal (contract 2): FastAPI's own 422 never leaves, it becomes a 400 like this."""

    error: ErrorDetail


def envelope(code: str, message: str) -> dict[str, Any]:
    """An :class:`ErrorEnvelope` as a dict, built directly: refusals are answered often."""
    return {"error": {"code": code, "message": message}}
