"""Retention: expired key sessions and delivery rows are deleted, at start and while running (R41).

The sweeps read the injected clock, so expiry is reached by moving the clock, never by
waiting; a running sweeper is observed through its count of finished sweeps.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, insert, select

from bridge.contract import ACCESS_TTL
from bridge.environment import SWEEP_SECONDS_ENV
from tests.support.database import database_url_for
from tests.workers.conftest import (
    DEVICE_TOKEN,
    NOTES,
    WORKSPACE,
    Backend,
    SteppingClock,
    TestClient,
    pointer_header,
)
from workers import messages
from workers.app import create_app
from workers.database import Database
from workers.dependencies import BackendState
from workers.errors import AccessDenied
from workers.retention import sweep_expired
from workers.schema import agent_delivery_credentials, key_sessions
from workers.settings import Settings
from workers.tools import ToolContext, read_active_note, read_document

SWEEP_WAIT_SECONDS = 30.0
"""How long a test waits for a running sweeper before calling it stuck (not a delay)."""


def _state(client: TestClient) -> BackendState:
    state: BackendState = client.app.state.backend  # type: ignore[attr-defined]
    return state


def _counts(database: Database) -> tuple[int, int]:
    """(key sessions, delivery rows) in the database right now."""
    with database.reading() as connection:
        sessions = connection.execute(select(func.count()).select_from(key_sessions)).scalar_one()
        rows = connection.execute(
            select(func.count()).select_from(agent_delivery_credentials)
        ).scalar_one()
    return sessions, rows


def _send(backend: Backend, key: str, conversation: str = "c1") -> None:
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    body = backend.turn("this", key=key, ambient=header, conversation=conversation)
    assert body["ambient"]["status"] == "stored"


def test_r41_expired_rows_are_deleted_when_the_backend_starts(
    backend: Backend, tmp_path: Path
) -> None:
    """985 s after a send and a restart, nothing of it may be left (the issue's finding)."""
    old = backend.key()
    _send(backend, old)
    backend.clock.advance(timedelta(minutes=10))
    fresh = backend.key()
    _send(backend, fresh, "c2")
    backend.client.close()
    backend.clock.advance(timedelta(minutes=5, seconds=1))  # the first key and row expired
    settings = Settings(data_dir=tmp_path, device_token=DEVICE_TOKEN, clock=backend.clock)
    app = create_app(settings)
    # Before any request: the start alone removed them; the live ones stay.
    assert _counts(app.state.backend.database) == (1, 1)
    with TestClient(app) as client:
        assert client.get(
            f"/v1/workspaces/{WORKSPACE}/documents/notes/a.md",
            headers={**backend.auth, "X-Key-Session": fresh},
        ).is_success


def test_r41_a_running_backend_deletes_expired_rows_within_a_minute(
    tmp_path: Path, clock: SteppingClock
) -> None:
    """No request touches the rows: the sweeper alone removes them once they expire."""
    settings = Settings(
        data_dir=tmp_path,
        device_token=DEVICE_TOKEN,
        clock=clock,
        sweep_interval=timedelta(milliseconds=20),
    )
    (tmp_path / "workspaces" / WORKSPACE).mkdir(parents=True)
    with TestClient(create_app(settings)) as client:
        backend = Backend(client, settings, clock, tmp_path)
        state = _state(client)
        _send(backend, backend.key())
        clock.advance(timedelta(minutes=14, seconds=59))
        seen = state.sweeper.sweeps
        assert state.sweeper.wait_for_sweeps(seen + 2, SWEEP_WAIT_SECONDS)
        assert _counts(state.database) == (1, 1)  # not yet expired: kept
        clock.advance(timedelta(seconds=1))
        seen = state.sweeper.sweeps
        assert state.sweeper.wait_for_sweeps(seen + 2, SWEEP_WAIT_SECONDS)
        assert _counts(state.database) == (0, 0)


def test_r41_the_default_sweep_interval_is_at_most_a_minute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SWEEP_SECONDS_ENV, raising=False)
    assert Settings(data_dir=tmp_path).resolve_sweep_interval() <= timedelta(seconds=60)
    monkeypatch.setenv(SWEEP_SECONDS_ENV, "0.5")
    assert Settings(data_dir=tmp_path).resolve_sweep_interval() == timedelta(milliseconds=500)
    for refused in ("61", "0", "-1", "soon", "nan", "inf"):
        monkeypatch.setenv(SWEEP_SECONDS_ENV, refused)
        with pytest.raises(ValueError, match=SWEEP_SECONDS_ENV):
            Settings(data_dir=tmp_path).resolve_sweep_interval()


def test_r19_after_a_sweep_tools_and_turns_refuse_with_the_access_message(
    backend: Backend,
) -> None:
    """Deleted rather than kept: a swept row still means the plain access message."""
    state = _state(backend.client)
    backend.settings.key_session_ttl = timedelta(hours=1)  # so only the row expires first
    key = backend.key()
    _send(backend, key)
    context = ToolContext(
        session=state.key_sessions.check(state.account, key),
        conversation="c1",
        deliveries=state.deliveries,
        workspaces=state.workspaces,
        clock=backend.clock,
    )
    assert read_active_note(context, {})["status"] == "ok"
    backend.clock.advance(ACCESS_TTL)
    assert state.sweeper.sweep() is not None
    assert _counts(state.database) == (1, 0)
    for result in (read_active_note(context, {}), read_document(context, {"path": "notes/a.md"})):
        assert result["status"] == "access_denied"
        assert result["message"] == messages.DELIVERY_EXPIRED
        assert result["text"] is None
    backend.clock.advance(timedelta(minutes=45))  # now the key session too
    state.sweeper.sweep()
    assert _counts(state.database) == (0, 0)
    turn = backend.client.post(
        "/v1/agent/turns",
        json={"conversation": "c1", "message": "this"},
        headers=backend.headers(key, pointer_header("notes/a.md", NOTES["notes/a.md"])),
    )
    assert turn.status_code == 403
    assert turn.json()["error"]["message"] == messages.KEY_SESSION_UNKNOWN
    document = backend.client.get(
        f"/v1/workspaces/{WORKSPACE}/documents/notes/a.md", headers=backend.headers(key)
    )
    assert document.status_code == 403
    assert document.json()["error"]["message"] == messages.KEY_SESSION_UNKNOWN
    assert _counts(state.database) == (0, 0)  # the refused turn stored nothing


def test_r41_tables_stay_bounded_under_sustained_load(backend: Backend) -> None:
    """Two simulated hours: a new key and 3 conversations a minute, a sweep every 30 s.

    Without the sweeper the tables would hold 120 keys and 360 rows at the end; with
    it they never hold more than the last 15 minutes' worth plus one sweep's lag.
    """
    state = _state(backend.client)
    largest = (0, 0)
    for _minute in range(120):
        key = backend.key()
        for conversation in ("a", "b", "c"):
            _send(backend, key, conversation)
        for _half in range(2):
            backend.clock.advance(timedelta(seconds=30))
            state.sweeper.sweep()
            counts = _counts(state.database)
            largest = (max(largest[0], counts[0]), max(largest[1], counts[1]))
    assert largest == (15, 45)
    assert _counts(state.database) == (14, 42)  # the key of minute 105 expired at 120


def _seed_expired(database: Database, sessions: int, rows_each: int, at: datetime) -> None:
    with database.writing() as connection:
        for index in range(sessions):
            session_id = connection.execute(
                insert(key_sessions).values(
                    key_digest=f"{index:064x}",
                    account="acct",
                    workspace=WORKSPACE,
                    created_at=at,
                    expires_at=at,
                )
            ).inserted_primary_key[0]
            connection.execute(
                insert(agent_delivery_credentials),
                [
                    {
                        "account": "acct",
                        "key_session_id": session_id,
                        "workspace": WORKSPACE,
                        "conversation": f"c{row}",
                        "created_at": at,
                        "updated_at": at,
                        # Half the rows expire before their key session, half with it.
                        "expires_at": at - timedelta(minutes=row % 2),
                    }
                    for row in range(rows_each)
                ],
            )


def test_r42_two_instances_sweeping_at_once_delete_each_row_once(tmp_path: Path) -> None:
    """Two engines (as two instances would have) sweep the same rows at the same moment."""
    url = database_url_for(tmp_path)
    first, second = Database(url), Database(url)
    try:
        first.migrate()
        expired_at = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
        _seed_expired(first, sessions=40, rows_each=50, at=expired_at)
        assert _counts(first) == (40, 2000)
        start = threading.Barrier(2)
        results: list[tuple[int, int]] = []
        errors: list[BaseException] = []

        def sweep(database: Database) -> None:
            start.wait()
            try:
                swept = sweep_expired(database, expired_at + timedelta(seconds=1))
                results.append((swept.key_sessions, swept.deliveries))
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=sweep, args=(db,)) for db in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        # Every row deleted exactly once, whichever instance got it (the cascade takes
        # the rows whose key session went first, so the delivery total may be lower).
        assert sum(sessions for sessions, _rows in results) == 40
        assert sum(rows for _sessions, rows in results) <= 2000
        assert _counts(first) == (0, 0)
    finally:
        first.close()
        second.close()


def test_r19_a_key_swept_between_check_and_send_is_a_403_not_a_500(backend: Backend) -> None:
    """The sweep may land after a turn checked its key and before it writes the row."""
    state = _state(backend.client)
    key = backend.key()
    session = state.key_sessions.check(state.account, key)  # the turn's check passes
    backend.clock.advance(ACCESS_TTL)
    state.sweeper.sweep()  # then the key expires and is swept
    with pytest.raises(AccessDenied) as refused:
        state.deliveries.record_send(session, "c1", None)
    assert refused.value.message == messages.KEY_SESSION_EXPIRED
    assert _counts(state.database) == (0, 0)
