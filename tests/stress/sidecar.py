"""R76, R78: the sidecar under attack, while the person types and a good tool works.

One app (a real window, offscreen) shares the active note. Beside it: another user's
process holds idle connections to the sidecar without the token, a tool opens its
event stream and never reads it, and a good tool (the official MCP SDK's client)
opens and closes review after review. Meanwhile the person types and every save must
land (0 lost), every diff call must be answered, the stuck tool must be dropped, the
sidecar must hold no more connections than its cap, and the GUI thread must never
stall for more than 100 ms.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from tests.stress.harness import Figure

STALL_SECONDS = 0.1
TICK_MS = 10
WAIT_SECONDS = 30.0
NOBODY = 65534

IDLE_ATTACKER = """
import resource, socket, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # as many sockets as it may have
port, count = int(sys.argv[1]), int(sys.argv[2])
held = []
for _ in range(count):
    s = socket.socket()
    s.connect(("127.0.0.1", port))
    held.append(s)
print("ready", flush=True)
sys.stdin.read()
"""
"""Another user's process: ``count`` connections that never send a byte."""

NEVER_READS = """
import json, socket, sys
port, token = int(sys.argv[1]), sys.argv[2]
def request(method, body=None, session=None):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", port))
    data = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} /mcp HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n"
            f"Authorization: Bearer {token}\\r\\nAccept: application/json, text/event-stream\\r\\n"
            f"Content-Type: application/json\\r\\nContent-Length: {len(data)}\\r\\n"
            + (f"mcp-session-id: {session}\\r\\n" if session else "") + "\\r\\n")
    s.sendall(head.encode() + data)
    return s
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "stuck", "version": "0"}}}
s = request("POST", init)
answer = b""
while b"\\r\\n\\r\\n" not in answer:
    answer += s.recv(4096)
session = [l.split(b":", 1)[1].strip().decode() for l in answer.split(b"\\r\\n")
           if l.lower().startswith(b"mcp-session-id")][0]
request("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, session).recv(4096)
stream = request("GET", None, session)
print(session, flush=True)
sys.stdin.read()  # the event stream is never read
"""
"""A tool with the token that opens its event stream and never reads it; prints its session."""


CALL_TOOL = """
import http.client, json, sys
port, token, name = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(sys.argv[4], encoding="utf-8") as given:
    arguments = json.load(given)
headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
           "Accept": "application/json, text/event-stream"}
def post(body, session=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    extra = {"mcp-session-id": session, "mcp-protocol-version": "2025-06-18"} if session else {}
    connection.request("POST", "/mcp", json.dumps(body), {**headers, **extra})
    answer = connection.getresponse()
    data = answer.read().decode()
    return answer.getheader("mcp-session-id"), data
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "caller", "version": "0"}}}
session, _ = post(init)
post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}}
_, data = post(call, session)
for line in data.splitlines():
    if line.startswith("data:"):
        print(json.dumps(json.loads(line[5:])["result"]))
"""
"""A tool in a process of its own calling one tool (arguments in a file); prints the result."""


def system_python() -> str | None:
    """A Python another user may run (a venv under /root is closed to them)."""
    for candidate in ("/usr/bin/python3", shutil.which("python3")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def server_sockets(port: int) -> int:
    """Established sockets of this process whose local end is ``port`` (its descriptors)."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == port and fields[3] == "01" and fields[9] in inodes:
                    count += 1
    return count


class _Collect(logging.Handler):
    """Keeps the records of the server running out of descriptors."""

    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self._into = into

    def emit(self, record: logging.LogRecord) -> None:
        if "out of system resource" in record.getMessage():
            self._into.append(record)


class _Spin:
    """Runs the Qt event loop until a condition holds (what ``qtbot.waitUntil`` does)."""

    def waitUntil(self, callback: Callable[[], bool], *, timeout: int) -> None:
        from PySide6.QtCore import QEventLoop
        from PySide6.QtWidgets import QApplication

        deadline = time.monotonic() + timeout / 1000
        while not callback():
            if time.monotonic() > deadline:
                raise TimeoutError("the app did not get there in time")
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 1)


def sidecar_attacks(folder: Path, *, idle: int = 500, diffs: int = 200) -> Figure:
    """The figure: cases = diffs + saves + idle connections; stalls = GUI gaps over 100 ms."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app.scenario.sidecar_client import SdkClient
    from app.session import AppSession, SessionOptions
    from app.sidecar.http import MAX_CONNECTIONS
    from app.window.main_window import MainWindow

    application = QApplication.instance() or QApplication([])
    spin = _Spin()
    figure = Figure("sidecar")
    workspace = folder / "workspace"
    (workspace / "notes").mkdir(parents=True)
    for index in range(5):
        (workspace / "notes" / f"d{index}.md").write_text(f"diff target {index}\n")
    # A long line selected whole: each context update carries 16 KiB of selected text.
    (workspace / "notes" / "typed.md").write_text("# typed\n" + "x" * 20_000 + "\n")
    before = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(folder)
    session = AppSession.start(
        SessionOptions(
            backend_url=None, workspace_dir=workspace, data_dir=folder / "data", demo=False
        )
    )
    window = MainWindow(session)
    window.show()
    processes: list[subprocess.Popen[str]] = []
    client: SdkClient | None = None
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    accept_errors: list[logging.LogRecord] = []
    handler = _Collect(accept_errors)
    logging.getLogger("asyncio").addHandler(handler)  # EMFILE on accept is logged there
    ticker = QTimer()
    ticker.setInterval(TICK_MS)
    ticker.timeout.connect(tick)
    try:
        frame = window.driver.mount_inbox("inbox-1", "notes/typed.md")
        spin.waitUntil(lambda: frame.is_loaded, timeout=30_000)
        window.sharing.turn_on()
        server = window.sharing.server
        assert server is not None
        python = system_python() or "python3"
        as_other = {"user": NOBODY} if os.geteuid() == 0 else {}
        attacker = subprocess.Popen(
            [python, "-c", IDLE_ATTACKER, str(server.port), str(idle)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            **as_other,  # type: ignore[call-overload]
        )
        processes.append(attacker)
        assert attacker.stdout is not None and attacker.stdout.readline().strip() == "ready"
        stuck_reader = subprocess.Popen(
            [python, "-c", NEVER_READS, str(server.port), server.token],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        processes.append(stuck_reader)
        assert stuck_reader.stdout is not None
        stuck = stuck_reader.stdout.readline().strip()
        client = SdkClient(spin, server.url, server.token)
        last[0] = time.perf_counter()
        ticker.start()
        frame.editor.selectAll()
        typed_words = 0
        for index in range(diffs):
            path = f"notes/d{index % 5}.md"
            opened = client.call("openDiff", {"filePath": path, "newContent": f"change {index}\n"})
            closed = client.call("closeDiff", {"filePath": path})
            answered = not opened.is_error and not closed.is_error
            figure.lost += not answered
            if index % 4 == 0:
                frame.type_text(f" w{index}", at="end")
                typed_words += 1
                frame.editor.selectAll()
            window.sharing.feed.send_now(None)  # context updates keep coming, 16 KiB each
        typed = frame.editor.toPlainText()
        flush = session.autosave.flush()
        spin.waitUntil(lambda: flush.done, timeout=int(WAIT_SECONDS * 1000))

        def dropped() -> bool:
            window.sharing.feed.send_now(None)
            return stuck in server.dropped

        spin.waitUntil(dropped, timeout=int(WAIT_SECONDS * 1000))
        ticker.stop()
        saved = (workspace / "notes" / "typed.md").read_text(encoding="utf-8")
        figure.lost += saved != typed
        held = server_sockets(server.port)
        figure.leaked += held > MAX_CONNECTIONS
        stalls = [gap for gap in gaps if gap > STALL_SECONDS]
        figure.stalls = len(stalls)
        figure.leaked += len(accept_errors)  # a descriptor the attack took from the process
        figure.cases = diffs * 2 + typed_words + idle
        figure.details.update(
            {
                "stalls over 100 ms": len(stalls),
                "longest gap ms": round(max(gaps, default=0.0) * 1000),
                "connections held": held,
                "stuck tool dropped": stuck in server.dropped,
                "updates to the stuck tool": server.sent.get(stuck, 0),
                "as another user": bool(as_other),
                "accepts out of descriptors": len(accept_errors),
            }
        )
    finally:
        ticker.stop()
        logging.getLogger("asyncio").removeHandler(handler)
        if client is not None:
            client.close()
        for process in processes:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=30)
            if process.stdout is not None:
                process.stdout.close()
        window.sharing.diffs.close_all()
        window.close()
        session.close()
        window.deleteLater()
        if before is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = before
        del application
    return figure
