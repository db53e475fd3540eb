"""Alembic environment: migrates the connection handed over by :mod:`workers.database`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from workers.schema import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite alters tables by copying them; batch mode does that for us.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    config = context.config
    if context.is_offline_mode():
        context.configure(
            url=config.get_main_option("sqlalchemy.url"),
            target_metadata=metadata,
            literal_binds=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if isinstance(connection, Connection):
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("No database connection or sqlalchemy.url was given to the migrations.")
    engine = create_engine(url)
    try:
        with engine.begin() as owned:
            _run(owned)
    finally:
        engine.dispose()


_main()
