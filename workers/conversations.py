"""Conversations kept by the backend per (account, workspace, conversation) (R34).

A finished turn adds two rows: the user's message and the final reply, the reply
carrying the names and arguments of the tools the turn called. Tool results are
never stored, so a conversation holds no note text; each later model request
carries these messages and the note is read afresh (R33).

A reply's proposals are kept beside it as their id, path and summary, with what the
person did with each: pending until the app reports it applied or discarded (R50).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from sqlalchemy import bindparam, case, delete, func, insert, select, update

from bridge.pointer import format_captured_at
from bridge.wire import ConversationSummary, KeptProposalAnswer, ProposalOutcome, Role
from workers.database import Database, as_utc
from workers.schema import agent_conversation_messages as conversation_messages
from workers.schema import agent_conversation_proposals as conversation_proposals
from workers.settings import Settings

REPORTED_OUTCOMES: Final = ("applied", "undone", "discarded")
"""What the app reports: "undone" when Ctrl+Z took an applied change out again (R80)."""
"""What the app reports of a proposal; it is "pending" until then."""

MAX_HISTORY_MESSAGES: Final = 40
"""The most recent messages (20 turns) a model request carries; older ones stay stored
and listed, but a small model's context would overflow with a whole long history."""


@dataclass(frozen=True)
class StoredToolCall:
    """A tool a turn called: its name and arguments, never its result."""

    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class StoredMessage:
    role: Role
    text: str
    at: datetime
    tool_calls: list[StoredToolCall] = field(default_factory=list)
    proposals: list[KeptProposalAnswer] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "text": self.text,
            "at": format_captured_at(self.at),
            "toolCalls": [{"name": c.name, "arguments": c.arguments} for c in self.tool_calls],
            "proposals": [proposal.model_dump() for proposal in self.proposals],
        }


_KEY = (
    conversation_messages.c.account == bindparam("account"),
    conversation_messages.c.workspace == bindparam("workspace"),
    conversation_messages.c.conversation == bindparam("conversation"),
)
_MESSAGES = select(conversation_messages).where(*_KEY).order_by(conversation_messages.c.id)
_PROPOSAL_KEY = (
    conversation_proposals.c.account == bindparam("account"),
    conversation_proposals.c.workspace == bindparam("workspace"),
    conversation_proposals.c.conversation == bindparam("conversation"),
)
_PROPOSALS = (
    select(conversation_proposals).where(*_PROPOSAL_KEY).order_by(conversation_proposals.c.id)
)
_RECENT = (
    select(conversation_messages)
    .where(*_KEY)
    .order_by(conversation_messages.c.id.desc())
    .limit(bindparam("limit"))
)


class Conversations:
    """Reads and writes ``agent_conversation_messages``."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self._database = database
        self._settings = settings

    def record_turn(
        self,
        account: str,
        workspace: str,
        conversation: str,
        message: str,
        reply: str,
        tool_calls: Sequence[StoredToolCall],
        proposals: Sequence[KeptProposalAnswer] = (),
    ) -> None:
        """Both messages of a finished turn and the reply's proposals, in one transaction."""
        now = self._settings.clock()
        key = {"account": account, "workspace": workspace, "conversation": conversation}
        calls = json.dumps(
            [{"name": c.name, "arguments": c.arguments} for c in tool_calls],
            ensure_ascii=False,
            separators=(",", ":"),
        )
        asked = {**key, "role": "user", "text": storable(message), "tool_calls": None}
        answered = {**key, "role": "assistant", "text": storable(reply), "tool_calls": calls}
        with self._database.writing() as connection:
            connection.execute(insert(conversation_messages), {**asked, "created_at": now})
            answer = insert(conversation_messages).returning(conversation_messages.c.id)
            message_id = connection.execute(answer, {**answered, "created_at": now}).scalar_one()
            if proposals:
                rows = [_proposal_row(key, message_id, item, now) for item in proposals]
                connection.execute(insert(conversation_proposals), rows)

    def messages(self, account: str, workspace: str, conversation: str) -> list[StoredMessage]:
        """The whole conversation, oldest first."""
        key = {"account": account, "workspace": workspace, "conversation": conversation}
        with self._database.reading() as connection:
            rows = connection.execute(_MESSAGES, key).all()
            proposal_rows = connection.execute(_PROPOSALS, key).all()
        by_message: dict[int, list[KeptProposalAnswer]] = {}
        for row in proposal_rows:
            by_message.setdefault(row.message_id, []).append(_proposal(row))
        return [_message(row, by_message.get(row.id, [])) for row in rows]

    def report_outcome(
        self,
        account: str,
        workspace: str,
        conversation: str,
        proposal: str,
        outcome: ProposalOutcome,
    ) -> KeptProposalAnswer | None:
        """Keep what the person did with a proposal; None when the conversation has no such one.

        Reporting the same outcome again changes nothing; a later report replaces an earlier.
        """
        table = conversation_proposals
        where = (
            table.c.account == account,
            table.c.workspace == workspace,
            table.c.conversation == conversation,
            table.c.proposal_id == proposal,
        )
        changed = (
            update(table).where(*where).values(outcome=outcome, updated_at=self._settings.clock())
        )
        with self._database.writing() as connection:
            if connection.execute(changed).rowcount == 0:
                return None
            row = connection.execute(select(table).where(*where)).one()
        return _proposal(row)

    def recent(
        self, account: str, workspace: str, conversation: str, limit: int = MAX_HISTORY_MESSAGES
    ) -> list[StoredMessage]:
        """The latest ``limit`` messages, oldest first, starting with a user message."""
        key = {"account": account, "workspace": workspace, "conversation": conversation}
        with self._database.reading() as connection:
            rows = connection.execute(_RECENT, {**key, "limit": limit}).all()
        found = [_message(row) for row in reversed(rows)]
        while found and found[0].role != "user":
            found.pop(0)
        return found

    def summaries(self, account: str, workspace: str) -> list[ConversationSummary]:
        """Every conversation of the workspace, the most recently used first."""
        table = conversation_messages
        statement = (
            select(
                table.c.conversation,
                func.max(table.c.created_at).label("updated_at"),
                func.sum(case((table.c.role == "user", 1), else_=0)).label("turns"),
                func.max(table.c.id).label("latest"),
            )
            .where(table.c.account == account, table.c.workspace == workspace)
            .group_by(table.c.conversation)
            .order_by(func.max(table.c.id).desc())
        )
        with self._database.reading() as connection:
            rows = connection.execute(statement).all()
        return [
            ConversationSummary(
                conversation=row.conversation,
                updated_at=format_captured_at(as_utc(row.updated_at)),
                turns=int(row.turns or 0),
            )
            for row in rows
        ]

    def clear(self, account: str, workspace: str, conversation: str) -> None:
        key = {"account": account, "workspace": workspace, "conversation": conversation}
        with self._database.writing() as connection:
            connection.execute(delete(conversation_messages).where(*_KEY), key)
            connection.execute(delete(conversation_proposals).where(*_PROPOSAL_KEY), key)


def storable(text: str) -> str:
    """Text every database can hold: no NUL (PostgreSQL) and no lone surrogate (UTF-8)."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


def _message(row: Any, proposals: list[KeptProposalAnswer] | None = None) -> StoredMessage:
    calls: list[StoredToolCall] = []
    if row.tool_calls:
        decoded = json.loads(row.tool_calls)
        calls = [StoredToolCall(str(c["name"]), dict(c["arguments"])) for c in decoded]
    return StoredMessage(row.role, row.text, as_utc(row.created_at), calls, proposals or [])


def _proposal(row: Any) -> KeptProposalAnswer:
    outcome: ProposalOutcome = row.outcome if row.outcome in REPORTED_OUTCOMES else "pending"
    return KeptProposalAnswer(
        id=row.proposal_id, path=row.path, summary=row.summary, outcome=outcome
    )


def _proposal_row(
    key: dict[str, str], message_id: int, proposal: KeptProposalAnswer, now: datetime
) -> dict[str, Any]:
    return {
        **key,
        "message_id": message_id,
        "proposal_id": proposal.id,
        "path": storable(proposal.path),
        "summary": storable(proposal.summary),
        "outcome": proposal.outcome,
        "updated_at": now,
    }
