"""A turn does not slow down as the tables fill (R41): 100,000 rows of others vs none.

Two backends, each on its own SQLite file: one whose delivery table holds 100,000
live rows of other conversations (1,000 key sessions × 100 conversations, the same
account), one empty. Both answer the same turn: a key session, a valid
``X-Ambient-Note``, the assistant reading the active note. Target: full/empty turn
time <= 1.1. Also reported: how long one sweep takes over the full table when
nothing in it has expired (the sweeper runs every 30 s).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import requests
from sqlalchemy import func, insert, select

from benchmarks.measure import Measurement, median, paired_ratios
from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from bridge.pointer import AmbientPointer, encode_header, fingerprint
from workers.database import Database
from workers.identity import account_id
from workers.retention import sweep_expired
from workers.schema import agent_delivery_credentials, key_sessions
from workers.server import EmbeddedServer
from workers.settings import ACCESS_TTL, DATABASE_FILE, Settings, utc_now

WORKSPACE = "bench"
NOTE = "notes/today.md"
TEXT = "# Today\nA short note with a plan. It has two sentences.\n- [ ] first\n- [x] done\n"
DEVICE_TOKEN = "bench-retention-device"
OTHER_SESSIONS = 1_000
CONVERSATIONS_EACH = 100
TURNS_PER_SAMPLE = 40
SWEEPS = 5


def _settings(folder: Path) -> Settings:
    (folder / "workspaces" / WORKSPACE / "notes").mkdir(parents=True)
    (folder / "workspaces" / WORKSPACE / NOTE).write_text(TEXT, encoding="utf-8")
    # Its own SQLite file whatever AMBIENT_DATABASE_URL says: the two must not share.
    return Settings(
        data_dir=folder,
        device_token=DEVICE_TOKEN,
        database_url=f"sqlite:///{folder / DATABASE_FILE}",
    )


def _fill(database: Database) -> None:
    """100,000 live delivery rows of other conversations, as a busy day would leave."""
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


def _header() -> str:
    size, digest = fingerprint(TEXT)
    pointer = AmbientPointer(
        path=NOTE,
        view="edit",
        frameId="inbox-1",
        bytes=size,
        sha256=digest,
        flushed=True,
        capturedAt="2026-11-29T19:08:18.123Z",
    )
    header = encode_header(pointer)
    assert header is not None
    return header


def _row_count(database: Database) -> int:
    with database.reading() as connection:
        count: int = connection.execute(
            select(func.count()).select_from(agent_delivery_credentials)
        ).scalar_one()
    return count


def _open(server: EmbeddedServer) -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {server.device_token}"
    key = session.post(
        f"{server.url}/v1/key-sessions", json={"workspace": WORKSPACE}, timeout=10
    ).json()["key"]
    session.headers[KEY_SESSION_HEADER] = key
    session.headers[HEADER_NAME] = _header()
    return session


def _turn(url: str, session: requests.Session) -> None:
    body = {"conversation": "bench", "message": "summarise this"}
    answer = session.post(f"{url}/v1/agent/turns", json=body, timeout=10).json()
    assert answer["ambient"]["status"] == "stored"
    assert answer["toolCalls"][0]["result"]["status"] == "ok"


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
            EmbeddedServer(full_settings) as full,
            EmbeddedServer(empty_settings) as bare,
            _open(full) as full_session,
            _open(bare) as empty_session,
        ):
            _turn(full.url, full_session)  # warm both paths
            _turn(bare.url, empty_session)
            ratios = paired_ratios(
                lambda: _turn(full.url, full_session),
                lambda: _turn(bare.url, empty_session),
                number=TURNS_PER_SAMPLE,
            )
        database = Database(full_settings.resolve_database_url())
        try:
            rows = _row_count(database)  # the others' rows plus the measured conversation's
        finally:
            database.close()
    assert rows == OTHER_SESSIONS * CONVERSATIONS_EACH + 1
    return [
        Measurement(
            name="workers: turn with 100,000 other rows vs empty table",
            median=median(ratios),
            target=1.1,
            comparison="<=",
            samples=ratios,
            details={
                "rows": rows,
                "turns_per_sample": TURNS_PER_SAMPLE,
                "sweep_ms_over_full_table": round(median(sweep_times) * 1000, 2),
            },
        )
    ]
