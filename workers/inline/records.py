"""Inline requests kept per (account, workspace), without note text (R73, contract 13).

A request is written ``pending`` before the assistant is asked, so the history shows
it at once; it becomes ``failed`` when no answer came, and ``accepted`` or
``rejected`` when the app reports what the person did. Records stay, as
conversations do (R34), until the person clears them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update

from bridge.inline import OUTCOME_FAILED, OUTCOME_PENDING
from bridge.pointer import format_captured_at
from workers.conversations import storable
from workers.database import Database, as_utc
from workers.schema import inline_requests
from workers.settings import Settings


@dataclass(frozen=True)
class KeptInlineRequest:
    """One row of the inline requests table as the history route shows it (R73)."""

    id: str
    instruction: str
    path: str
    lines: tuple[int, int]
    bytes: int
    assistant_kind: str
    assistant_name: str
    at: datetime
    outcome: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "instruction": self.instruction,
            "path": self.path,
            "lines": [self.lines[0], self.lines[1]],
            "bytes": self.bytes,
            "assistant": {"kind": self.assistant_kind, "name": self.assistant_name},
            "at": format_captured_at(self.at),
            "outcome": self.outcome,
        }


@dataclass(frozen=True)
class NewRecord:
    """A record as it starts: never the ``before``, ``selection`` or ``after`` it was sent."""

    account: str
    workspace: str
    instruction: str
    path: str
    lines: tuple[int, int]
    bytes: int
    assistant_kind: str
    assistant_name: str


class InlineRecords:
    """Reads and writes ``inline_requests``."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self._database = database
        self._settings = settings

    def start(self, record: NewRecord) -> str:
        """Keep a new pending request; returns its id."""
        request_id = secrets.token_urlsafe(12)
        row = {
            "request_id": request_id,
            "account": record.account,
            "workspace": record.workspace,
            "instruction": storable(record.instruction),
            "path": storable(record.path),
            "first_line": record.lines[0],
            "last_line": record.lines[1],
            "bytes": record.bytes,
            "assistant_kind": record.assistant_kind,
            "assistant_name": storable(record.assistant_name),
            "outcome": OUTCOME_PENDING,
            "created_at": self._settings.clock(),
        }
        with self._database.writing() as connection:
            connection.execute(insert(inline_requests), row)
        return request_id

    def fail(self, request_id: str) -> None:
        with self._database.writing() as connection:
            connection.execute(
                update(inline_requests)
                .where(inline_requests.c.request_id == request_id)
                .values(outcome=OUTCOME_FAILED)
            )

    def report(self, account: str, workspace: str, request_id: str, outcome: str) -> bool:
        """Keep what the person did; False when this workspace holds no such request."""
        with self._database.writing() as connection:
            changed = connection.execute(
                update(inline_requests)
                .where(
                    inline_requests.c.account == account,
                    inline_requests.c.workspace == workspace,
                    inline_requests.c.request_id == request_id,
                )
                .values(outcome=outcome)
            )
            return changed.rowcount > 0

    def recent(self, account: str, workspace: str, limit: int) -> list[KeptInlineRequest]:
        """The newest ``limit`` requests of the workspace, newest first."""
        query = (
            select(inline_requests)
            .where(inline_requests.c.account == account, inline_requests.c.workspace == workspace)
            .order_by(inline_requests.c.id.desc())
            .limit(limit)
        )
        with self._database.reading() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            KeptInlineRequest(
                id=row["request_id"],
                instruction=row["instruction"],
                path=row["path"],
                lines=(row["first_line"], row["last_line"]),
                bytes=row["bytes"],
                assistant_kind=row["assistant_kind"],
                assistant_name=row["assistant_name"],
                at=as_utc(row["created_at"]),
                outcome=row["outcome"],
            )
            for row in rows
        ]

    def clear(self, account: str, workspace: str) -> None:
        with self._database.writing() as connection:
            connection.execute(
                delete(inline_requests).where(
                    inline_requests.c.account == account, inline_requests.c.workspace == workspace
                )
            )
