"""The database: engine set-up (SQLite WAL by default), migrations on start, one writer."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from bridge.private_files import create_private_database

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
HEAD_REVISION = "0005"
"""The newest revision in ``migrations/versions``: a database stamped with it needs no Alembic.

Alembic takes longer to import than the rest of a start's database work, so a
start whose schema is current never loads it (R67). A test holds this equal to
the head Alembic finds in the scripts.
"""
SQLITE_BUSY_TIMEOUT_MS = 30_000
MIGRATION_LOCK_ID = 0x616D6269656E74
"""The PostgreSQL advisory lock key that instances starting together queue on ("ambient")."""


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """A Config built in code, so migrations run from any cwd and from an installed package."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        # ConfigParser interpolation would choke on '%' in a password.
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _tune_sqlite(dbapi_connection: Any, _record: Any) -> None:
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        _use_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _use_wal(cursor: sqlite3.Cursor) -> None:
    """Switch the file to WAL once; several processes opening a new file at once may race.

    WAL is kept in the file, so later connections find it set and take no lock. The
    switch itself needs the file alone and SQLite answers "locked" at once rather than
    through the busy timeout, so it is retried within that same timeout (R42: instances
    starting together).
    """
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)  # another process is switching the same file; it is brief


def create_database_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and cross-thread connections."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            # R64: the file (and so the journals SQLite gives its mode) is 0600 from birth.
            create_private_database(Path(parsed.database))
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        )
        event.listen(engine, "connect", _tune_sqlite)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _is_sqlite_file(url: str) -> bool:
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:")


def _upgrade(connection: Connection) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection), "head")


def _migrate_sqlite(url: str) -> None:
    engine = create_database_engine(url)

    def _manual_transactions(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    def _begin_immediate(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    event.listen(engine, "connect", _manual_transactions)
    event.listen(engine, "begin", _begin_immediate)
    try:
        with engine.begin() as connection:
            _upgrade(connection)
    finally:
        engine.dispose()


def as_utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; every stored time is UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


class Database:
    """The engine plus a process-wide write lock.

    SQLite allows one writer at a time; taking the lock in-process keeps turns from
    several threads queueing here instead of meeting "database is locked".
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_database_engine(url)
        self._write_lock = threading.Lock()

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Bring the schema to the newest revision, safely while other instances do the same.

        All revisions run in one transaction that first takes a database-wide lock, so
        instances starting at once migrate one after the other; the later ones find the
        schema current and change nothing (R42). PostgreSQL: a transaction-scoped
        advisory lock. SQLite: ``BEGIN IMMEDIATE``, its write lock, taken before the
        first statement (pysqlite would otherwise run the DDL outside any transaction);
        an in-memory database belongs to this process alone and needs no lock.
        """
        if self.is_current():
            return  # what a later instance would find under the lock; no Alembic needed
        with self._write_lock:
            if _is_sqlite_file(self.url):
                _migrate_sqlite(self.url)
                return
            with self.engine.begin() as connection:
                if self.dialect == "postgresql":
                    connection.execute(
                        text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": MIGRATION_LOCK_ID}
                    )
                _upgrade(connection)

    def is_current(self) -> bool:
        """Whether the stored schema revision is :data:`HEAD_REVISION`.

        Only a committed migration stamps it, so a schema being made by another
        instance reads as not current; any failure to read (no table yet) does too.
        """
        try:
            with self.engine.connect() as connection:
                stored = connection.execute(text("SELECT version_num FROM alembic_version"))
                return list(stored.scalars()) == [HEAD_REVISION]
        except SQLAlchemyError:
            return False

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.engine.connect() as connection:
            yield connection

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """One transaction, committed on success, rolled back on error."""
        with self._write_lock, self.engine.begin() as connection:
            yield connection

    def close(self) -> None:
        self.engine.dispose()
