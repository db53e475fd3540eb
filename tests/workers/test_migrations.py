"""The Alembic migrations equal the schema mirror (R17, R20)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import UniqueConstraint, inspect

from tests.support.database import database_url_for
from workers.database import HEAD_REVISION, Database, alembic_config
from workers.schema import agent_delivery_credentials, metadata


def _migrated(tmp_path: Path) -> Database:
    database = Database(database_url_for(tmp_path))
    database.migrate()
    return database


def test_r20_migrating_an_empty_database_equals_the_mirror(tmp_path: Path) -> None:
    database = _migrated(tmp_path)
    try:
        with database.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
            inspector = inspect(connection)
            for table in metadata.sorted_tables:
                columns = {c["name"]: c for c in inspector.get_columns(table.name)}
                assert list(columns) == [c.name for c in table.columns]
                for column in table.columns:
                    assert columns[column.name]["nullable"] == column.nullable, column
                    reflected = columns[column.name]["type"].compile(connection.dialect)
                    assert reflected == column.type.compile(connection.dialect), column
                primary = inspector.get_pk_constraint(table.name)["constrained_columns"]
                assert primary == [c.name for c in table.primary_key.columns]
                uniques = {
                    tuple(u["column_names"]) for u in inspector.get_unique_constraints(table.name)
                }
                assert uniques == {
                    tuple(c.name for c in constraint.columns)
                    for constraint in table.constraints
                    if isinstance(constraint, UniqueConstraint)
                }
            foreign = inspector.get_foreign_keys(agent_delivery_credentials.name)
            assert [(f["constrained_columns"], f["referred_table"]) for f in foreign] == [
                (["key_session_id"], "key_sessions")
            ]
    finally:
        database.close()


def test_r17_ambient_columns_are_nullable_and_added_by_the_second_revision(tmp_path: Path) -> None:
    database = _migrated(tmp_path)
    try:
        with database.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0001")
            before = {
                c["name"] for c in inspect(connection).get_columns("agent_delivery_credentials")
            }
            command.upgrade(alembic_config(connection), "head")
            after = {
                c["name"]: c["nullable"]
                for c in inspect(connection).get_columns("agent_delivery_credentials")
            }
        assert {"ambient_path", "ambient_view", "ambient_meta"}.isdisjoint(before)
        assert all(after[name] for name in ("ambient_path", "ambient_view", "ambient_meta"))
    finally:
        database.close()


def test_migrating_twice_is_harmless(tmp_path: Path) -> None:
    _migrated(tmp_path).close()
    database = _migrated(tmp_path)
    try:
        with database.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == "0005"
    finally:
        database.close()


def test_r20_r34_conversations_table_is_added_by_the_third_revision(tmp_path: Path) -> None:
    """R34: the conversation table comes with revision 0003 and goes with its downgrade."""
    database = _migrated(tmp_path)
    try:
        with database.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0002")
            before = set(inspect(connection).get_table_names())
            command.upgrade(alembic_config(connection), "head")
            inspector = inspect(connection)
            after = set(inspector.get_table_names())
            columns = [c["name"] for c in inspector.get_columns("agent_conversation_messages")]
            indexes = [
                i["column_names"] for i in inspector.get_indexes("agent_conversation_messages")
            ]
        assert "agent_conversation_messages" not in before
        assert "agent_conversation_messages" in after
        # R34: messages and tool names/arguments only; there is no column for tool results.
        assert "result" not in " ".join(columns)
        assert indexes == [["account", "workspace", "conversation"]]
    finally:
        database.close()


def test_r67_head_revision_is_the_newest_script() -> None:
    """A start skips Alembic when the database holds HEAD_REVISION: it must be the scripts' head."""
    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD_REVISION


def test_r67_an_older_schema_reads_as_not_current_and_is_upgraded(tmp_path: Path) -> None:
    database = _migrated(tmp_path)
    try:
        assert database.is_current()
        with database.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0002")
        assert not database.is_current()
        database.migrate()
        assert database.is_current()
        assert "agent_conversation_messages" in inspect(database.engine).get_table_names()
    finally:
        database.close()


def test_r20_r50_proposal_outcomes_table_is_added_by_the_fourth_revision(tmp_path: Path) -> None:
    """R50: what became of each proposal comes with revision 0004; no column holds its text."""
    database = _migrated(tmp_path)
    try:
        with database.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0003")
            before = set(inspect(connection).get_table_names())
            command.upgrade(alembic_config(connection), "head")
            inspector = inspect(connection)
            columns = [c["name"] for c in inspector.get_columns("agent_conversation_proposals")]
        assert "agent_conversation_proposals" not in before
        assert not {"edits", "text", "base"} & set(columns)
        assert {"proposal_id", "path", "summary", "outcome"} <= set(columns)
    finally:
        database.close()


_MIGRATE_AND_LIST_MODULES = """
import sys
from workers.database import Database
database = Database(sys.argv[1])
database.migrate()
database.close()
print(sorted(name for name in sys.modules if name.split(".")[0] == "alembic"))
"""


@pytest.mark.slow
def test_r67_a_start_on_a_current_schema_never_loads_alembic(tmp_path: Path) -> None:
    """R67: a start whose database is current skips Alembic's import (most of its cost)."""
    url = database_url_for(tmp_path)
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}

    def migrate_in_a_process() -> str:
        completed = subprocess.run(
            [sys.executable, "-c", _MIGRATE_AND_LIST_MODULES, url],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        return completed.stdout.strip()

    assert migrate_in_a_process() != "[]"  # an empty database: Alembic makes the schema
    assert migrate_in_a_process() == "[]"


@pytest.mark.slow
def test_migrations_run_from_any_working_directory(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    url = f"sqlite:///{tmp_path / 'cwd.db'}"
    script = "import sys; from workers.database import Database; Database(sys.argv[1]).migrate()"
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    subprocess.run(
        [sys.executable, "-c", script, url], cwd=elsewhere, env=environment, check=True, timeout=60
    )
    database = Database(url)
    try:
        with database.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == "0005"
    finally:
        database.close()


_MIGRATE_ON_SIGNAL = """
import sys
from workers.database import Database
database = Database(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()
database.migrate()
"""


@pytest.mark.slow
def test_r42_eight_instances_starting_at_once_all_migrate(tmp_path: Path) -> None:
    """Eight processes, imports done, migrate an empty database at the same moment.

    Each takes the database-wide lock first, so one creates the schema and the others
    find it current; none fails on a half-made ``alembic_version`` (issue: 4 of 8 did).
    """
    url = database_url_for(tmp_path)
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _MIGRATE_ON_SIGNAL, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for _ in range(8)
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            assert process.stdout.readline() == "ready\n"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        failures = [
            stderr
            for process in processes
            for _stdout, stderr in [process.communicate(timeout=120)]
            if process.returncode != 0
        ]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert failures == []
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    database = Database(url)
    try:
        with database.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == head
    finally:
        database.close()
