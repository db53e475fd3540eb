"""Identity: the device token (account) and key sessions scoped to one workspace."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, insert, select

from workers import messages
from workers.database import Database, as_utc
from workers.errors import AccessDenied
from workers.schema import key_sessions
from workers.settings import Settings


def account_id(device_token: str) -> str:
    """A stable, non-secret name for the account that owns this device token."""
    return hashlib.sha256(b"ambient-account:" + device_token.encode("utf-8")).hexdigest()[:32]


def token_matches(presented: str, device_token: str) -> bool:
    """Constant-time comparison, so response timing leaks nothing about the token."""
    return hmac.compare_digest(presented.encode("utf-8"), device_token.encode("utf-8"))


# Built once: every request with a key session runs it.
_BY_DIGEST = select(key_sessions).where(key_sessions.c.key_digest == bindparam("digest"))


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class KeySession:
    """Access to one workspace until ``expires_at``."""

    id: int
    account: str
    workspace: str
    expires_at: datetime


@dataclass(frozen=True)
class IssuedKey:
    key: str
    session: KeySession


class KeySessions:
    """Issues and checks key sessions; expired ones are purged when touched."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self._database = database
        self._settings = settings

    def issue(self, account: str, workspace: str) -> IssuedKey:
        key = secrets.token_urlsafe(32)
        now = self._settings.clock()
        expires_at = now + self._settings.key_session_ttl
        with self._database.writing() as connection:
            result = connection.execute(
                insert(key_sessions).values(
                    key_digest=_digest(key),
                    account=account,
                    workspace=workspace,
                    created_at=now,
                    expires_at=expires_at,
                )
            )
            (session_id,) = result.inserted_primary_key or (None,)
        if not isinstance(session_id, int):
            raise RuntimeError("The database did not return the new key session's id.")
        return IssuedKey(key, KeySession(session_id, account, workspace, as_utc(expires_at)))

    def check(self, account: str, key: str | None) -> KeySession:
        """The live session for ``key``, or :class:`AccessDenied` with the shared message."""
        if key is None or not key.strip():
            raise AccessDenied("key_session_required", messages.KEY_SESSION_MISSING)
        with self._database.reading() as connection:
            row = connection.execute(_BY_DIGEST, {"digest": _digest(key.strip())}).first()
        if row is None or row.account != account:
            raise AccessDenied("key_session_unknown", messages.KEY_SESSION_UNKNOWN)
        expires_at = as_utc(row.expires_at)
        if expires_at <= self._settings.clock():
            with self._database.writing() as connection:
                connection.execute(delete(key_sessions).where(key_sessions.c.id == row.id))
            raise AccessDenied("key_session_expired", messages.KEY_SESSION_EXPIRED)
        return KeySession(row.id, row.account, row.workspace, expires_at)

    def check_for_workspace(self, account: str, key: str | None, workspace: str) -> KeySession:
        session = self.check(account, key)
        if session.workspace != workspace:
            raise AccessDenied("key_session_other_workspace", messages.KEY_SESSION_OTHER_WORKSPACE)
        return session
