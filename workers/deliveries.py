"""Agent delivery credentials: short-lived turn authorization with the ambient pointer (R17–R19).

One row per (key session, conversation). Every send with a key session upserts it
and replaces the three ambient columns; a send without one deletes the
conversation's rows. A row past its expiry is treated as absent and purged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Insert, Table, and_, bindparam, delete, insert, select, update
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError

from bridge.pointer import AmbientPointer
from workers import messages
from workers.database import Database, as_utc
from workers.errors import AccessDenied
from workers.identity import KeySession
from workers.schema import agent_delivery_credentials as deliveries
from workers.settings import Settings

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql


@dataclass(frozen=True)
class DeliveryCredential:
    """The live row: which workspace, which conversation, and the pointer metadata if any."""

    id: int
    key_session_id: int
    workspace: str
    conversation: str
    expires_at: datetime
    ambient_path: str | None
    ambient_view: str | None
    ambient_meta: dict[str, Any] | None


def pointer_columns(pointer: AmbientPointer | None) -> dict[str, str | None]:
    """R17: path, view and the JSON of every other pointer field; all NULL without one."""
    if pointer is None:
        return {"ambient_path": None, "ambient_view": None, "ambient_meta": None}
    meta = pointer.model_dump(mode="json", exclude={"path", "view"}, exclude_none=True)
    return {
        "ambient_path": pointer.path,
        "ambient_view": pointer.view,
        "ambient_meta": json.dumps(meta, separators=(",", ":"), ensure_ascii=False),
    }


_RENEWED_COLUMNS = (
    "updated_at",
    "expires_at",
    "workspace",
    "ambient_path",
    "ambient_view",
    "ambient_meta",
)
"""What a send replaces on an existing row (R18, R19); the rest stays from its creation."""

# Built once: the turn path runs these on every send and every tool call, and a
# statement made afresh each time costs more to build than SQLite takes to run it.
_CURRENT = select(deliveries).where(
    deliveries.c.key_session_id == bindparam("session_id"),
    deliveries.c.conversation == bindparam("conversation"),
)


def _upsert_statement(dialect: str) -> Insert | None:
    """One atomic statement, even across processes, where the dialect has one."""
    make: Callable[[Table], sqlite.Insert | postgresql.Insert]
    if dialect == "sqlite":
        make = sqlite.insert
    elif dialect == "postgresql":
        # Loaded only for PostgreSQL: the dialect's import is a large part of a start (R67).
        from sqlalchemy.dialects import postgresql

        make = postgresql.insert
    else:
        return None
    statement = make(deliveries)
    return statement.on_conflict_do_update(
        index_elements=[deliveries.c.key_session_id, deliveries.c.conversation],
        set_={name: statement.excluded[name] for name in _RENEWED_COLUMNS},
    )


class DeliveryCredentials:
    """Reads and writes ``agent_delivery_credentials``."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self._database = database
        self._settings = settings
        self._upsert = _upsert_statement(database.dialect)

    def record_send(
        self, session: KeySession, conversation: str, pointer: AmbientPointer | None
    ) -> None:
        """R18: upsert the row and replace the ambient columns; expiry restarts (R19)."""
        now = self._settings.clock()
        values: dict[str, Any] = {
            "updated_at": now,
            "expires_at": now + self._settings.delivery_ttl,
            "workspace": session.workspace,
            **pointer_columns(pointer),
        }
        row = {
            "account": session.account,
            "key_session_id": session.id,
            "conversation": conversation,
            "created_at": now,
            **values,
        }
        try:
            with self._database.writing() as connection:
                if self._upsert is not None:
                    connection.execute(self._upsert, row)
                    return
                key = and_(
                    deliveries.c.key_session_id == session.id,
                    deliveries.c.conversation == conversation,
                )
                changed = connection.execute(update(deliveries).where(key).values(**values))
                if changed.rowcount == 0:
                    connection.execute(insert(deliveries).values(**row))
        except IntegrityError as error:
            # The key session was checked, then expired and was swept (R41) before this
            # write: its row is gone, so the foreign key refuses; the same 403 as expiry.
            raise AccessDenied("key_session_expired", messages.KEY_SESSION_EXPIRED) from error

    def forget_conversation(self, account: str, conversation: str) -> None:
        """R18: a send without a key session leaves no delivery row for the conversation."""
        with self._database.writing() as connection:
            connection.execute(
                delete(deliveries).where(
                    deliveries.c.account == account, deliveries.c.conversation == conversation
                )
            )

    def current(self, session: KeySession, conversation: str) -> DeliveryCredential | None:
        """The live row, re-read from the database on every call (R22); expired rows purged."""
        with self._database.reading() as connection:
            row = connection.execute(
                _CURRENT, {"session_id": session.id, "conversation": conversation}
            ).first()
        if row is None:
            return None
        expires_at = as_utc(row.expires_at)
        if expires_at <= self._settings.clock():
            with self._database.writing() as connection:
                _purge(connection, row.id, row.expires_at)
            return None
        meta = json.loads(row.ambient_meta) if row.ambient_meta is not None else None
        return DeliveryCredential(
            id=row.id,
            key_session_id=row.key_session_id,
            workspace=row.workspace,
            conversation=row.conversation,
            expires_at=expires_at,
            ambient_path=row.ambient_path,
            ambient_view=row.ambient_view,
            ambient_meta=meta if isinstance(meta, dict) else None,
        )


def _purge(connection: Connection, row_id: int, seen_expiry: datetime) -> None:
    # Only if no send renewed the row since it was read.
    connection.execute(
        delete(deliveries).where(deliveries.c.id == row_id, deliveries.c.expires_at == seen_expiry)
    )
