"""A turn does not slow down as the tables fill (R41): 100,000 rows of others vs none.

Two backends, each on its own SQLite file: one whose delivery table holds 100,000
live rows of other conversations (1,000 key sessions × 100 conversations, the same
account) and whose conversation table holds 100,000 messages of other
conversations, one with both empty. Both answer the same turn: a key session, a
valid ``X-Ambient-Note``, the assistant reading the active note, the turn kept in
its conversation. Target: full/empty turn cost <= 1.1.

Both backends run embedded in this process and only the timed one works, so each
side is timed in CPU time of the process (``CPU_CLOCK``), pairs alternating: the
database work is what differs, and the cores' time spent on other processes on a
shared machine is left out. Before timing, the query plan of every statement a
turn runs is checked to search an index, never to scan the table. Also reported:
how long one sweep takes over the full tables when nothing in them has expired
(the sweeper runs every 30 s).
"""

from __future__ import annotations

import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import requests
from sqlalchemy import event, func, insert, select
from sqlalchemy.engine import Engine

from benchmarks.backend import backend, pointer_header, post_turn, write_notes
from benchmarks.measure import CPU_CLOCK, Measurement, median, paired_ratios, pairs
from bridge.contract import ACCESS_TTL
from workers.database import Database
from workers.identity import account_id
from workers.retention import sweep_expired
from workers.schema import agent_conversation_messages, agent_delivery_credentials, key_sessions
from workers.server import EmbeddedServer
from workers.settings import DATABASE_FILE, Settings, utc_now

WORKSPACE = "bench"
NOTE = "notes/today.md"
TEXT = "# Today\nA short note with a plan. It has two sentences.\n- [ ] first\n- [x] done\n"
DEVICE_TOKEN = "bench-retention-device"
OTHER_SESSIONS = 1_000
CONVERSATIONS_EACH = 100
OTHER_CONVERSATIONS = 1_000
MESSAGES_EACH = 100
TURNS_PER_SAMPLE = 20
PAIRS_FACTOR = 3
"""Three times the run's pairs: a sweep of the full tables (every 30 s, about 10 ms of
CPU) or a garbage collection that lands in one sample then moves no median."""
SWEEPS = 5


def _settings(folder: Path) -> Settings:
    # Its own SQLite file whatever AMBIENT_DATABASE_URL says: the two must not share.
    settings = Settings(
        data_dir=folder,
        device_token=DEVICE_TOKEN,
        database_url=f"sqlite:///{folder / DATABASE_FILE}",
    )
    write_notes(settings, WORKSPACE, {NOTE: TEXT})
    return settings


def _fill(database: Database) -> None:
    """100,000 live delivery rows and 100,000 messages of other conversations: a busy day."""
    now = utc_now()
    expires = now + ACCESS_TTL
    account = account_id(DEVICE_TOKEN)
    with database.writing() as connection:
        connection.execute(
            insert(key_sessions),
            [
                {
                    "key_digest": f"{index:064x}",
                    "account": account,
                    "workspace": WORKSPACE,
                    "created_at": now,
                    "expires_at": expires,
                }
                for index in range(OTHER_SESSIONS)
            ],
        )
        sessions = connection.execute(select(key_sessions.c.id)).scalars().all()
        connection.execute(
            insert(agent_delivery_credentials),
            [
                {
                    "account": account,
                    "key_session_id": session,
                    "workspace": WORKSPACE,
                    "conversation": f"other-{conversation}",
                    "created_at": now,
                    "updated_at": now,
                    "expires_at": expires,
                }
                for session in sessions
                for conversation in range(CONVERSATIONS_EACH)
            ],
        )
        connection.execute(
            insert(agent_conversation_messages),
            [
                {
                    "account": account,
                    "workspace": WORKSPACE,
                    "conversation": f"other-{conversation}",
                    "role": "user" if message % 2 == 0 else "assistant",
                    "text": "summarise this",
                    "created_at": now,
                }
                for conversation in range(OTHER_CONVERSATIONS)
                for message in range(MESSAGES_EACH)
            ],
        )


def _row_counts(database: Database) -> tuple[int, int]:
    with database.reading() as connection:
        deliveries: int = connection.execute(
            select(func.count()).select_from(agent_delivery_credentials)
        ).scalar_one()
        messages: int = connection.execute(
            select(func.count()).select_from(agent_conversation_messages)
        ).scalar_one()
    return deliveries, messages


def _turn(server: EmbeddedServer, session: requests.Session) -> None:
    answer = post_turn(
        server, session, "bench", "summarise this", pointer=pointer_header(NOTE, TEXT)
    )
    answer.raise_for_status()
    body = answer.json()
    assert body["ambient"]["status"] == "stored"
    assert body["toolCalls"][0]["result"]["status"] == "ok"


@contextmanager
def _statements() -> Iterator[list[tuple[str, Any]]]:
    """Every SQL statement this process runs meanwhile, with its parameters."""
    seen: list[tuple[str, Any]] = []
    lock = threading.Lock()

    def record(
        _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, many: bool
    ) -> None:
        with lock:  # one row's parameters stand for all of an executemany
            seen.append((statement, parameters[0] if many else parameters))

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", record)


def _scans(database_file: Path, statements: list[tuple[str, Any]]) -> list[str]:
    """The statements whose SQLite query plan reads a whole table instead of an index.

    The sweeper's deletes by expiry are left out: they run every 30 s, not per turn,
    and their time is reported on its own.
    """
    scans = []
    with closing(sqlite3.connect(database_file)) as connection:
        for statement, parameters in statements:
            verb = statement.lstrip().split(None, 1)[0].upper()
            if verb not in {"SELECT", "INSERT", "UPDATE", "DELETE"} or "expires_at <=" in statement:
                continue
            plan = connection.execute(f"EXPLAIN QUERY PLAN {statement}", parameters).fetchall()
            if any(str(row[-1]).startswith("SCAN") for row in plan):
                scans.append(f"{statement} -> {[row[-1] for row in plan]}")
    return scans


def run() -> list[Measurement]:
    with tempfile.TemporaryDirectory() as full_folder, tempfile.TemporaryDirectory() as empty:
        full_settings, empty_settings = _settings(Path(full_folder)), _settings(Path(empty))
        database = Database(full_settings.resolve_database_url())
        try:
            database.migrate()
            _fill(database)
            sweep_times = []
            for _ in range(SWEEPS):
                start = time.perf_counter()
                swept = sweep_expired(database, utc_now())
                sweep_times.append(time.perf_counter() - start)
                assert swept.deliveries == swept.key_sessions == 0
        finally:
            database.close()
        with (
            backend(full_settings, WORKSPACE) as (full, full_session),
            backend(empty_settings, WORKSPACE) as (bare, empty_session),
        ):
            _turn(bare, empty_session)  # warm both paths
            with _statements() as statements:
                _turn(full, full_session)
            scans = _scans(Path(full_folder) / DATABASE_FILE, statements)
            assert not scans, "a turn reads a whole table: " + "; ".join(scans)
            ratios = paired_ratios(
                lambda: _turn(full, full_session),
                lambda: _turn(bare, empty_session),
                repeat=PAIRS_FACTOR * pairs(),
                number=TURNS_PER_SAMPLE,
                clock=CPU_CLOCK,
            )
        database = Database(full_settings.resolve_database_url())
        try:
            deliveries, messages = _row_counts(database)
        finally:
            database.close()
    # The others' rows plus the measured conversation's row and its kept turns.
    assert deliveries == OTHER_SESSIONS * CONVERSATIONS_EACH + 1
    assert messages > OTHER_CONVERSATIONS * MESSAGES_EACH
    return [
        Measurement(
            name="workers: turn with 100,000 other rows vs empty table",
            median=median(ratios),
            target=1.1,
            comparison="<=",
            samples=ratios,
            details={
                "delivery_rows": deliveries,
                "message_rows": messages,
                "statements_checked": len(statements),
                "turns_per_sample": TURNS_PER_SAMPLE,
                "sweep_ms_over_full_table": round(median(sweep_times) * 1000, 2),
            },
        )
    ]
