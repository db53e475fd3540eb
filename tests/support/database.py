"""A fresh database for each test when ``AMBIENT_DATABASE_URL`` names a database server.

The suite runs on SQLite files by default. Pointing ``AMBIENT_DATABASE_URL`` at a
PostgreSQL server (for example ``postgresql+psycopg://user@127.0.0.1:5432/postgres``)
runs the same tests there: each test gets its own new database, dropped afterwards,
so no test sees another's rows.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from bridge.environment import DATABASE_URL_ENV
from workers.settings import DATABASE_FILE


def configured_server_url() -> str | None:
    """The database server the suite was pointed at, or None for the default SQLite files."""
    configured = os.environ.get(DATABASE_URL_ENV, "").strip()
    if not configured or make_url(configured).get_backend_name() == "sqlite":
        return None
    return configured


def database_url_for(tmp_path: Path) -> str:
    """The URL a test should migrate: the server's per-test database, else a SQLite file."""
    return configured_server_url() or f"sqlite:///{tmp_path / DATABASE_FILE}"


@contextmanager
def fresh_server_database(server_url: str) -> Iterator[str]:
    """Create an empty database on the server of ``server_url``; drop it when the block ends."""
    server = make_url(server_url)
    name = f"ambient_test_{secrets.token_hex(6)}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            yield server.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                # FORCE: a backend a test left running may still hold a connection.
                connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()
