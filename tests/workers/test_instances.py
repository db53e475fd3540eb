"""Several ``workers serve`` processes on one PostgreSQL database serve the same users (R41, R42).

These need a PostgreSQL server: ``make test-postgres`` starts one with
``scripts/postgres.sh`` and runs them. Without one they are skipped with a reason
that says so, except under ``CI=true``, where a missing server is a failure.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import func, insert, select
from sqlalchemy.engine import make_url

from bridge.environment import SWEEP_SECONDS_ENV
from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from tests.support.backend import RunningBackend, make_workspace, start_backend_processes
from tests.support.database import configured_server_url
from tests.workers.conftest import NOTES, WORKSPACE, pointer_header
from workers.database import Database
from workers.schema import agent_delivery_credentials, key_sessions

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

NOT_RUN = (
    "PostgreSQL part did not run: AMBIENT_DATABASE_URL names no PostgreSQL server. "
    "`make test-postgres` starts one and runs these tests."
)
WAIT_SECONDS = 30.0


@pytest.fixture
def postgres_url() -> str:
    """This test's own PostgreSQL database (made by the suite's per-test fixture)."""
    url = configured_server_url()
    if url is not None and make_url(url).get_backend_name() == "postgresql":
        return url
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{NOT_RUN} Under CI a missing server is a failure.")
    pytest.skip(NOT_RUN)


def _wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` (as qtbot.waitUntil does) until it holds or WAIT_SECONDS pass."""
    deadline = time.monotonic() + WAIT_SECONDS
    pause = threading.Event()
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        pause.wait(0.05)


def _session(backend: RunningBackend, key: str | None = None) -> requests.Session:
    session = requests.Session()
    session.headers.update(backend.auth)
    if key is not None:
        session.headers[KEY_SESSION_HEADER] = key
    return session


def _counts(url: str) -> tuple[int, int]:
    database = Database(url)
    try:
        with database.reading() as connection:
            return (
                connection.execute(select(func.count()).select_from(key_sessions)).scalar_one(),
                connection.execute(
                    select(func.count()).select_from(agent_delivery_credentials)
                ).scalar_one(),
            )
    finally:
        database.close()


def _seed_expired(url: str, sessions: int, prefix: str) -> None:
    """Key sessions with delivery rows that expired an hour ago, as a stopped instance leaves."""
    expired = datetime.now(UTC) - timedelta(hours=1)
    database = Database(url)
    try:
        with database.writing() as connection:
            for index in range(sessions):
                (session_id,) = connection.execute(
                    insert(key_sessions)
                    .values(
                        key_digest=f"{prefix}{index:060x}",
                        account="someone",
                        workspace=WORKSPACE,
                        created_at=expired,
                        expires_at=expired,
                    )
                    .returning(key_sessions.c.id)
                ).one()
                connection.execute(
                    insert(agent_delivery_credentials),
                    [
                        {
                            "account": "someone",
                            "key_session_id": session_id,
                            "workspace": WORKSPACE,
                            "conversation": f"c{row}",
                            "created_at": expired,
                            "updated_at": expired,
                            "expires_at": expired,
                        }
                        for row in range(5)
                    ],
                )
    finally:
        database.close()


def test_r42_eight_instances_starting_at_once_all_serve(postgres_url: str, tmp_path: Path) -> None:
    """On an empty database, eight processes started together all come up (issue: 4 of 8 died)."""
    make_workspace(tmp_path, WORKSPACE, NOTES)
    with start_backend_processes(tmp_path, 8) as backends:
        for backend in backends:
            assert requests.get(f"{backend.url}/v1/health", timeout=10).json() == {"status": "ok"}
            assert "Traceback" not in backend.error_output()


def test_r42_two_instances_serve_the_same_users(postgres_url: str, tmp_path: Path) -> None:
    make_workspace(tmp_path, WORKSPACE, NOTES)
    Database(postgres_url).migrate()  # so expired rows can be there before both start
    _seed_expired(postgres_url, sessions=20, prefix="a")
    assert _counts(postgres_url) == (20, 100)
    with start_backend_processes(tmp_path, 2, env={SWEEP_SECONDS_ENV: "0.2"}) as (a, b):
        # R41 at start: both swept the same expired rows together, and both serve.
        assert _counts(postgres_url) == (0, 0)

        key = (
            _session(a)
            .post(f"{a.url}/v1/key-sessions", json={"workspace": WORKSPACE}, timeout=10)
            .json()["key"]
        )
        on_a, on_b = _session(a, key), _session(b, key)
        document = f"/v1/workspaces/{WORKSPACE}/documents/notes/a.md"
        # A key session from A works on B.
        assert on_b.get(f"{b.url}{document}", timeout=10).text == NOTES["notes/a.md"]

        # The delivery row written through A is the one B reads.
        header = pointer_header("notes/a.md", NOTES["notes/a.md"], view="preview")
        turn = {"conversation": "shared", "message": "hello"}
        sent = on_a.post(
            f"{a.url}/v1/agent/turns", json=turn, headers={HEADER_NAME: header}, timeout=10
        )
        assert sent.json()["ambient"] == {"status": "stored", "reason": None}
        row = on_b.get(f"{b.url}/v1/agent/deliveries/shared", timeout=10).json()
        assert (row["ambient_path"], row["ambient_view"]) == ("notes/a.md", "preview")

        # A note saved through A, pointed at through B: B's read_active_note reads A's save.
        text = "# Saved through A\n" + "shared line\n" * 1000
        assert on_a.put(f"{a.url}{document}", data=text.encode(), timeout=10).ok
        read = on_b.post(
            f"{b.url}/v1/agent/turns",
            json={"conversation": "shared", "message": "/tool read_active_note {}"},
            headers={HEADER_NAME: pointer_header("notes/a.md", text)},
            timeout=10,
        ).json()["toolCalls"][0]["result"]
        assert (read["status"], read["text"], read["caveat"]) == ("ok", text, None)
        assert (
            on_a.get(f"{a.url}/v1/agent/deliveries/shared", timeout=10).json()["ambient_view"]
            == "edit"
        )  # and A now reads the row B wrote

        _concurrent_saves_end_whole(a, b, on_a, on_b, document)

        # R41 while running: rows that expire are swept by the two sweepers at once.
        _seed_expired(postgres_url, sessions=20, prefix="b")
        _wait_until(lambda: _counts(postgres_url) == (1, 1), "the sweepers")
        assert on_b.get(f"{b.url}{document}", timeout=10).ok  # the live key survived
        for backend in (a, b):
            assert backend.process.poll() is None
            assert "Traceback" not in backend.error_output()
            assert "failed" not in backend.error_output()


def _concurrent_saves_end_whole(
    a: RunningBackend,
    b: RunningBackend,
    on_a: requests.Session,
    on_b: requests.Session,
    document: str,
) -> None:
    """Saves of the same note through both at once: one whole version wins, never a mix."""
    versions = {
        name: (name * 1024 + "\n") * 256  # 256 KiB, so a torn write would show
        for name in ("A", "B")
    }
    start = threading.Barrier(2)
    statuses: list[int] = []

    def save(backend: RunningBackend, session: requests.Session, text: str) -> None:
        start.wait()
        for _ in range(20):
            response = session.put(f"{backend.url}{document}", data=text.encode(), timeout=30)
            statuses.append(response.status_code)

    threads = [
        threading.Thread(target=save, args=(a, on_a, versions["A"])),
        threading.Thread(target=save, args=(b, on_b, versions["B"])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 40
    final: dict[str, Any] = {
        "a": on_a.get(f"{a.url}{document}", timeout=10).text,
        "b": on_b.get(f"{b.url}{document}", timeout=10).text,
    }
    assert final["a"] == final["b"]
    assert final["a"] in versions.values()
