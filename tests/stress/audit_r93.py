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
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from tests.support.scripted_model import MODEL_ID, Reply, ScriptedModel, scripted_model, text
from workers.server import EmbeddedServer
from workers.settings import Settings

FILE_SECONDS = 20.0
"""A hostile scenario file still running after this is a failure (the audit saw hangs)."""
WAIT_SECONDS = 10.0
SAVE_SECONDS = 2.0
"""A save beside slow streams answers within this, or fails the attempt (the audit: 8.9 s)."""
SLOW_STREAMS = 60
HUGE = "9" * 5_000
WORKSPACE = "w"


@dataclass
class Row:
    category: str
    attempts: int = 0
    failures: list[str] = field(default_factory=list)

    def attempt(self, what: str, failure: str | None) -> None:
        self.attempts += 1
        if failure is not None:
            self.failures.append(f"{what}: {failure}")


# -- scenario files ----------------------------------------------------------------

SCENARIO_FILES: dict[str, Callable[[Path], object]] = {
    "100k-deep flow nesting": lambda path: path.write_text("steps: " + "[" * 100_000),
    "3k-deep block nesting": lambda path: path.write_text(
        "steps:\n" + "".join("  " * depth + "- \n" for depth in range(1, 3_000)) + "x\n"
    ),
    "a list as a map key": lambda path: path.write_text("? [a, b]\n: 1\nsteps: [{caption: x}]\n"),
    "a 5,000-digit integer": lambda path: path.write_text(
        "steps: [{caption: x}]\nbackend: {saveDelay: " + HUGE + "}\n"
    ),
    "a FIFO named a.yaml": lambda path: os.mkfifo(path),
    "a link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
    "7 MB of 400k steps": lambda path: path.write_text("steps:\n" + "  - caption: x\n" * 400_000),
    "1 MiB of one-line steps": lambda path: path.write_text(
        "steps: [" + ",".join(["{caption: x}"] * 80_000) + "]\n"
    ),
    "an alias": lambda path: path.write_text("workspace: {a.md: &a x}\nsteps: [{caption: *a}]\n"),
    "a lone surrogate in the name": lambda path: path.write_text(
        'name: "bad \\ud800"\nsteps: [{caption: x}]\n'
    ),
}


def _scenario_attempt(folder: Path, kind: str, make: Callable[[Path], object]) -> str | None:
    """None when the file is an invalid file with both reports; else what went wrong."""
    folder.mkdir()
    path = folder / "a.yaml"
    make(path)
    return _run_cli(folder, path)


def _unreadable_name_attempt(folder: Path) -> str | None:
    folder.mkdir()
    path = Path(os.fsdecode(os.fsencode(folder) + b"/bad\xff\x1b[2J.yaml"))
    path.write_text("name: 1\nsteps: [{caption: x}]\n")
    return _run_cli(folder, path)


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
    for number, (kind, make) in enumerate(SCENARIO_FILES.items()):
        row.attempt(kind, _scenario_attempt(scratch / f"file-{number}", kind, make))
    row.attempt("a file name that is not UTF-8", _unreadable_name_attempt(scratch / "name"))
    return row


# -- the backend -------------------------------------------------------------------


@dataclass
class Served:
    url: str
    token: str
    key: str
    model: ScriptedModel

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "X-Key-Session": self.key}

    @property
    def address(self) -> tuple[str, int]:
        parts = urlsplit(self.url)
        assert parts.hostname is not None and parts.port is not None
        return parts.hostname, parts.port


@contextmanager
def served(folder: Path) -> Iterator[Served]:
    with ExitStack() as stack:
        model = stack.enter_context(scripted_model())
        settings = Settings(data_dir=folder, model_base_url=model.url, model=MODEL_ID)
        server = stack.enter_context(EmbeddedServer(settings))
        auth = {"Authorization": f"Bearer {server.device_token}"}
        httpx.post(f"{server.url}/v1/workspaces", json={"workspace": WORKSPACE}, headers=auth)
        issued = httpx.post(
            f"{server.url}/v1/key-sessions", json={"workspace": WORKSPACE}, headers=auth
        )
        yield Served(server.url, server.device_token, issued.json()["key"], model)
        model.release.set()


def _raw(served: Served, head: list[str], body: bytes) -> socket.socket:
    connection = socket.create_connection(served.address, WAIT_SECONDS)
    lines = [*head, f"Host: {served.url.split('//')[1]}"]
    lines += [f"{name}: {value}" for name, value in served.headers.items()]
    connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    return connection


def _inline_body(lines: str = "[1, 1]") -> bytes:
    fields = '"instruction": "rewrite this", "path": "notes/a.md", "selection": "some words\\n"'
    return ("{" + fields + f', "lines": {lines}' + "}").encode()


def _inline(served: Served, *, streamed: bool, lines: str = "[1, 1]") -> socket.socket:
    body = _inline_body(lines)
    head = [f"POST /v1/workspaces/{WORKSPACE}/inline HTTP/1.1", "Content-Type: application/json"]
    head.append(f"Content-Length: {len(body)}")
    if streamed:
        head.append("Accept: text/event-stream")
    return _raw(served, head, body)


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
    with served(scratch) as backend:
        base = f"/v1/workspaces/{WORKSPACE}"
        asks: list[tuple[str, list[str], bytes]] = [
            ("inline history ?limit=", [f"GET {base}/inline?limit={HUGE} HTTP/1.1"], b""),
            ("inline history ?limit=-", [f"GET {base}/inline?limit=-{HUGE} HTTP/1.1"], b""),
            (
                "Content-Length",
                [f"PUT {base}/documents/notes/n.md HTTP/1.1", f"Content-Length: {HUGE}"],
                b"x",
            ),
        ]
        for lines in (f"[{HUGE}, 1]", f"[1, {HUGE}]", f"[1, 1.{HUGE}]", f"[-{HUGE}, 1]"):
            body = _inline_body(lines)
            head = [f"POST {base}/inline HTTP/1.1", "Content-Type: application/json"]
            asks.append(
                (f"inline lines {lines[:8]}…", [*head, f"Content-Length: {len(body)}"], body)
            )
        for field_name, path in (
            ("workspace", "/v1/workspaces"),
            ("workspace", "/v1/key-sessions"),
        ):
            body = ('{"' + field_name + '": ' + HUGE + "}").encode()
            head = [f"POST {path} HTTP/1.1", "Content-Type: application/json"]
            asks.append((f"{path} body", [*head, f"Content-Length: {len(body)}"], body))
        for what, head, body in asks:
            try:
                status, answer = _answer_of(_raw(backend, head, body))
            except (OSError, ValueError, IndexError) as error:
                row.attempt(what, f"no answer ({error})")
                continue
            row.attempt(what, _plain_error(status, answer))
    return row


def _until(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT_SECONDS
    pause = threading.Event()
    while not condition():
        if time.monotonic() > deadline:
            return False
        pause.wait(0.05)
    return True


def _history(backend: Served) -> list[dict[str, object]]:
    answer = httpx.get(
        f"{backend.url}/v1/workspaces/{WORKSPACE}/inline",
        params={"limit": 100},
        headers=backend.headers,
        timeout=WAIT_SECONDS,
    )
    found: list[dict[str, object]] = answer.json()["requests"]
    return found


def clients_that_leave(scratch: Path, each: int = 3) -> Row:
    row = Row("clients that leave")
    for streamed in (False, True):
        for attempt in range(each):
            folder = scratch / f"left-{streamed}-{attempt}"
            folder.mkdir()
            with served(folder) as backend:
                backend.model.then(text("A rewrite that stalls", stall_after_first_piece=True))
                connection = _inline(backend, streamed=streamed)
                stalled = backend.model.stalled.wait(WAIT_SECONDS)
                connection.close()
                what = f"{'streamed' if streamed else 'plain JSON'} inline #{attempt + 1}"
                if not stalled:
                    row.attempt(what, "the model was never asked")
                elif not backend.model.client_went_away.wait(WAIT_SECONDS):
                    row.attempt(what, "the model kept generating")
                elif not _until(lambda b=backend: _history(b)[0]["outcome"] == "failed"):  # type: ignore[misc]
                    row.attempt(what, f"the record stayed {_history(backend)[0]['outcome']}")
                else:
                    row.attempt(what, None)
    return row


def slow_streams(scratch: Path) -> tuple[Row, str]:
    row = Row("slow streams vs saves")
    with served(scratch) as backend:
        started = time.monotonic()
        idle = httpx.put(
            f"{backend.url}/v1/workspaces/{WORKSPACE}/documents/notes/idle.md",
            content=b"idle\n",
            headers=backend.headers,
            timeout=WAIT_SECONDS,
        )
        idle_seconds = time.monotonic() - started
        backend.model.then(*[Reply(stall=True) for _ in range(SLOW_STREAMS)])
        connections = [_inline(backend, streamed=True) for _ in range(SLOW_STREAMS)]
        try:
            _until(lambda: len(backend.model.chat_requests) >= 40)
            started = time.monotonic()
            try:
                saved = httpx.put(
                    f"{backend.url}/v1/workspaces/{WORKSPACE}/documents/notes/busy.md",
                    content=b"busy\n",
                    headers=backend.headers,
                    timeout=SAVE_SECONDS,
                )
                failure = None if saved.status_code in (200, 201) else f"{saved.status_code}"
            except httpx.TimeoutException:
                failure = f"no answer within {SAVE_SECONDS:.0f} s"
            busy_seconds = time.monotonic() - started
            row.attempt(f"a PUT beside {SLOW_STREAMS} slow streams", failure)
        finally:
            for connection in connections:
                connection.close()
    assert idle.status_code in (200, 201)
    return (
        row,
        f"idle PUT {idle_seconds * 1000:.0f} ms, beside the streams {busy_seconds * 1000:.0f} ms",
    )


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
