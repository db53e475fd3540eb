"""``python -m tests.stress.audit_r93``: issue 45's audit attempts of R93's rest, re-run.

Scenario files from someone else, numbers routes read, clients that leave and slow
streams beside a save, each attempt against the real CLI (a subprocess) or the real
backend on loopback with a scripted model; prints a table (category, attempts,
failures) and exits 1 when any attempt failed. It needs nothing newer than the code
it audits, so it runs on an older checkout too (the table before and after).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.support.hostile_scenarios import HOSTILE_FILES, HUGE_NUMBER, unreadable_name
from tests.support.scripted_model import Reply, text
from tests.support.served_inline import WORKSPACE, ServedInline, inline_body, served_inline
from tests.support.waiting import WAIT_SECONDS, wait_until

FILE_SECONDS = 60.0
"""A hostile scenario file still running after this is a failure (the audit saw hangs and
81 s; the CLI itself starts in a few seconds, more on a busy machine)."""
SAVE_SECONDS = 2.0
"""A save beside slow streams answers within this, or fails the attempt (the audit: 8.9 s)."""
SLOW_STREAMS = 60
DEFAULT_POOL_THREADS = 40


@dataclass
class Row:
    category: str
    attempts: int = 0
    failures: list[str] = field(default_factory=list)

    def attempt(self, what: str, failure: str | None) -> None:
        self.attempts += 1
        if failure is not None:
            self.failures.append(f"{what}: {failure}")


# -- scenario files --------------------------------------------------------------


def _run_cli(folder: Path, path: Path) -> str | None:
    junit, page = folder / "junit.xml", folder / "report.html"
    command = [sys.executable, "-m", "app", "scenario", "run", os.fsdecode(path)]
    command += ["--junit", str(junit), "--html", str(page)]
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    try:
        done = subprocess.run(
            command, capture_output=True, timeout=FILE_SECONDS, env=environment, check=False
        )
    except subprocess.TimeoutExpired:
        return f"still running after {FILE_SECONDS:.0f} s"
    if b"Traceback" in done.stderr:
        return "a traceback"
    if done.returncode != 2:
        return f"exit {done.returncode}"
    try:
        errors = ET.parse(junit).getroot().iter("error")
    except (OSError, ET.ParseError):
        return "no readable JUnit report"
    if not any(True for _ in errors):
        return "no JUnit <error>"
    if not page.is_file() or "invalid file" not in page.read_text(encoding="utf-8"):
        return "no HTML report"
    return None


def scenario_files(scratch: Path) -> Row:
    row = Row("scenario files")
    for number, (kind, make) in enumerate(HOSTILE_FILES.items()):
        folder = scratch / f"file-{number}"
        folder.mkdir()
        make(folder / "a.yaml")
        row.attempt(kind, _run_cli(folder, folder / "a.yaml"))
    folder = scratch / "name"
    folder.mkdir()
    row.attempt("a file name that is not UTF-8", _run_cli(folder, unreadable_name(folder)))
    return row


# -- the backend -----------------------------------------------------------------


def _answer_of(connection: socket.socket) -> tuple[int, bytes]:
    with connection, connection.makefile("rb") as reply:
        status = int(reply.readline().split()[1])
        while reply.readline() not in (b"\r\n", b""):
            pass
        return status, reply.read1(65536)


def _plain_error(status: int, body: bytes) -> str | None:
    if not 400 <= status < 500:
        return f"answered {status}"
    try:
        error = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        return "not the error envelope"
    return None if error.get("code") and error.get("message") else "an empty envelope"


def route_numbers(scratch: Path) -> Row:
    row = Row("numbers routes read")
    with served_inline(scratch) as backend:
        base = f"/v1/workspaces/{WORKSPACE}"
        asks: list[tuple[str, list[str], bytes]] = [
            ("inline history ?limit=", [f"GET {base}/inline?limit={HUGE_NUMBER} HTTP/1.1"], b""),
            ("inline history ?limit=-", [f"GET {base}/inline?limit=-{HUGE_NUMBER} HTTP/1.1"], b""),
            (
                "Content-Length",
                [f"PUT {base}/documents/notes/n.md HTTP/1.1", f"Content-Length: {HUGE_NUMBER}"],
                b"x",
            ),
        ]
        for lines in (
            f"[{HUGE_NUMBER}, 1]",
            f"[1, {HUGE_NUMBER}]",
            f"[1, 1.{HUGE_NUMBER}]",
            f"[-{HUGE_NUMBER}, 1]",
        ):
            body = inline_body(lines)
            head = [f"POST {base}/inline HTTP/1.1", "Content-Type: application/json"]
            asks.append(
                (f"inline lines {lines[:8]}…", [*head, f"Content-Length: {len(body)}"], body)
            )
        for field_name, path in (
            ("workspace", "/v1/workspaces"),
            ("workspace", "/v1/key-sessions"),
        ):
            body = ('{"' + field_name + '": ' + HUGE_NUMBER + "}").encode()
            head = [f"POST {path} HTTP/1.1", "Content-Type: application/json"]
            asks.append((f"{path} body", [*head, f"Content-Length: {len(body)}"], body))
        for what, head, body in asks:
            try:
                status, answer = _answer_of(backend.raw(head, body))
            except (OSError, ValueError, IndexError) as error:
                row.attempt(what, f"no answer ({error})")
                continue
            row.attempt(what, _plain_error(status, answer))
    return row


def clients_that_leave(scratch: Path, each: int = 3) -> Row:
    row = Row("clients that leave")
    for streamed in (False, True):
        for attempt in range(each):
            folder = scratch / f"left-{streamed}-{attempt}"
            folder.mkdir()
            what = f"{'streamed' if streamed else 'plain JSON'} inline #{attempt + 1}"
            with served_inline(folder) as backend:
                row.attempt(what, _leave_mid_answer(backend, streamed=streamed))
    return row


def _leave_mid_answer(backend: ServedInline, *, streamed: bool) -> str | None:
    backend.model.then(text("A rewrite that stalls after a word", stall_after_first_piece=True))
    connection = backend.open_inline(streamed=streamed)
    stalled = backend.model.stalled.wait(WAIT_SECONDS)
    connection.close()
    if not stalled:
        return "the model was never asked"
    if not backend.model.client_went_away.wait(WAIT_SECONDS):
        return "the model kept generating"
    if not wait_until(lambda: backend.history()[0]["outcome"] == "failed"):
        return f"the record stayed {backend.history()[0]['outcome']}"
    return None


def slow_streams(scratch: Path) -> tuple[Row, str]:
    row = Row("slow streams vs saves")
    with served_inline(scratch) as backend:
        started = time.monotonic()
        idle = backend.put("notes/idle.md", b"idle\n", WAIT_SECONDS)
        idle_seconds = time.monotonic() - started
        assert idle.status_code in (200, 201), idle.text
        backend.model.then(*[Reply(stall=True) for _ in range(SLOW_STREAMS)])
        connections = [backend.open_inline(streamed=True) for _ in range(SLOW_STREAMS)]
        try:
            wait_until(lambda: len(backend.model.chat_requests) >= DEFAULT_POOL_THREADS)
            started = time.monotonic()
            try:
                saved = backend.put("notes/busy.md", b"busy\n", SAVE_SECONDS)
                failure = None if saved.status_code in (200, 201) else f"{saved.status_code}"
            except httpx.TimeoutException:
                failure = f"no answer within {SAVE_SECONDS:.0f} s"
            busy_seconds = time.monotonic() - started
            row.attempt(f"a PUT beside {SLOW_STREAMS} slow streams", failure)
        finally:
            for connection in connections:
                connection.close()
    timing = (
        f"idle PUT {idle_seconds * 1000:.0f} ms, beside the streams {busy_seconds * 1000:.0f} ms"
    )
    return row, timing


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="audit-r93-") as scratch_name:
        scratch = Path(scratch_name)
        for part in ("files", "numbers", "left", "slow"):
            (scratch / part).mkdir()
        rows = [
            scenario_files(scratch / "files"),
            route_numbers(scratch / "numbers"),
            clients_that_leave(scratch / "left"),
        ]
        slow, timing = slow_streams(scratch / "slow")
        rows.append(slow)
    width = max(len(row.category) for row in rows)
    print(f"{'category':<{width}}  attempts  failures")
    for row in rows:
        print(f"{row.category:<{width}}  {row.attempts:>8}  {len(row.failures):>8}")
    print(
        f"{'total':<{width}}  {sum(r.attempts for r in rows):>8}  "
        f"{sum(len(r.failures) for r in rows):>8}"
    )
    print(f"(slow streams: {timing})")
    for row in rows:
        for failure in row.failures:
            print(f"  {row.category}: {failure}".encode("ascii", "backslashreplace").decode())
    return 1 if any(row.failures for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
