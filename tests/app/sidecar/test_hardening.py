"""Nothing another local user or a stuck tool does can stop the app or its saves (R76, R78).

The attacks are real: another user's processes and folders (this suite runs as root
and hands them to ``nobody``; skipped otherwise), raw sockets that never send or never
read, and the official MCP SDK's client as the well-behaved tool beside them.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from app.scenario.sidecar_client import SdkClient
from app.sidecar import discovery
from app.sidecar.diffs import MAX_REVIEWS, TOO_MANY_REVIEWS
from app.sidecar.http import MAX_CONNECTIONS, McpSidecarServer
from tests.app.conftest import AppFactory, AppUnderTest
from tests.stress.sidecar import (
    CALL_TOOL,
    IDLE_ATTACKER,
    NEVER_READS,
    server_sockets,
    system_python,
)

WAIT_MS = 15_000
NOBODY = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="another user's files need root")
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}


def _python() -> str:
    found = system_python()
    if found is None:
        pytest.skip("no system Python for the other user's process")
    return found


@pytest.fixture
def attacker() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=30)


@as_root
def test_r76_idle_connections_of_another_user_are_capped_and_saving_goes_on(
    make_app: AppFactory, attacker: list[subprocess.Popen[str]]
) -> None:
    assert MAX_CONNECTIONS == 32
    app = make_app()
    frame = app.mount("inbox-1", "notes/a.md")
    sharing = app.window.sharing
    sharing.turn_on()
    server = sharing.server
    assert server is not None
    # Another user (no token) opens 300 connections and never sends a byte.
    process = subprocess.Popen(
        [_python(), "-c", IDLE_ATTACKER, str(server.port), "300"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        user=NOBODY,
    )
    attacker.append(process)
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    # A real tool still connects and is answered while the attack holds.
    client = SdkClient(app.qtbot, server.url, server.token)
    try:
        assert json.loads(client.call("sidecar_info").content[0].text)["app"] == "Ambient Notes"
        held = server_sockets(server.port)
        assert held <= MAX_CONNECTIONS, f"the sidecar holds {held} connections"
        frame.type_text(" saved under attack", at="end")
        app.qtbot.waitUntil(lambda: frame.save_state == "saved", timeout=WAIT_MS)
        assert app.saved_text("notes/a.md").endswith(" saved under attack")
    finally:
        client.close()


def _remember_sharing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data-0"
    data_dir.mkdir(mode=0o700)
    (data_dir / "sharing.json").write_text(json.dumps({"shareActiveNote": True}))


def _companion_problem(app: AppUnderTest) -> str:
    sharing = app.window.sharing
    assert sharing.is_on, "sharing stays on: the pointer file still serves"
    (problem,) = sharing.problems
    assert "The Gemini CLI file" in problem and "could not be written" in problem
    assert problem in app.window.sharing_controls.label.toolTip()
    assert [b for b in app.window.banners.banners if b.label.text() == problem]
    assert (app.data_dir / discovery.POINTER_FILE).exists()
    return problem


def test_r76_a_plain_file_in_the_companion_folders_place_is_a_banner_not_an_exit(
    make_app: AppFactory, own_tmpdir: Path, tmp_path: Path
) -> None:
    (own_tmpdir / "gemini").write_text("not a folder")
    _remember_sharing(tmp_path)
    app = make_app()  # today: a traceback, and no window at all
    assert "is a link or not a folder" in _companion_problem(app)
    app.window.sharing.turn_off()
    assert not (app.data_dir / discovery.POINTER_FILE).exists()  # nothing is left behind


def test_r76_a_dangling_link_in_the_companion_folders_place_is_a_banner_not_an_exit(
    make_app: AppFactory, own_tmpdir: Path, tmp_path: Path
) -> None:
    (own_tmpdir / "gemini").symlink_to(tmp_path / "nowhere")
    _remember_sharing(tmp_path)
    app = make_app()
    _companion_problem(app)
    assert not (tmp_path / "nowhere").exists()  # never created through the link


@as_root
def test_r76_another_users_ordinary_companion_folder_is_refused_with_a_banner(
    make_app: AppFactory, own_tmpdir: Path, tmp_path: Path
) -> None:
    folder = own_tmpdir / "gemini" / "ide"
    folder.mkdir(parents=True)
    for part in (folder.parent, folder):
        os.chown(part, NOBODY, NOBODY)
        os.chmod(part, 0o755)
    _remember_sharing(tmp_path)
    app = make_app()
    assert "belongs to another user" in _companion_problem(app)
    assert list(folder.iterdir()) == []


@as_root
def test_r76_a_folder_others_can_write_is_never_written_to_nor_cleaned(
    make_app: AppFactory, own_tmpdir: Path
) -> None:
    folder = own_tmpdir / "gemini" / "ide"
    folder.mkdir(parents=True)
    os.chown(folder, NOBODY, NOBODY)
    os.chmod(folder, 0o777)
    dead = 2**22 + 7
    planted = folder / f"gemini-ide-server-{dead}-4000.json"
    planted.write_text(json.dumps({"port": 4000, "ideInfo": {"name": "ambient-notes"}}))
    app = make_app()
    app.qtbot.waitUntil(lambda: app.window.sharing.stale_checked, timeout=WAIT_MS)
    assert planted.exists()  # a folder not ours is never cleaned through
    app.window.sharing.turn_on()
    assert sorted(p.name for p in folder.iterdir()) == [planted.name]  # nor written to
    assert "belongs to another user" in app.window.sharing.problems[0]


def test_r76_a_companion_folder_reached_through_a_link_is_never_used(
    make_app: AppFactory, own_tmpdir: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "chosen-by-the-link"
    (elsewhere / "ide").mkdir(parents=True)
    dead = 2**22 + 9
    victim = elsewhere / "ide" / f"gemini-ide-server-{dead}-4000.json"
    victim.write_text(json.dumps({"port": 4000, "ideInfo": {"name": "ambient-notes"}}))
    (own_tmpdir / "gemini").symlink_to(elsewhere)
    app = make_app()
    app.qtbot.waitUntil(lambda: app.window.sharing.stale_checked, timeout=WAIT_MS)
    assert victim.exists()  # today: deleted through the link
    app.window.sharing.turn_on()
    assert sorted(p.name for p in (elsewhere / "ide").iterdir()) == [victim.name]
    assert "is a link or not a folder" in app.window.sharing.problems[0]


def test_r76_a_new_companion_folder_is_0700(make_app: AppFactory, own_tmpdir: Path) -> None:
    app = make_app()
    app.window.sharing.turn_on()
    for part in (own_tmpdir / "gemini", own_tmpdir / "gemini" / "ide"):
        assert part.stat().st_mode & 0o777 == 0o700, part


@as_root
def test_r76_the_clean_up_reads_only_small_regular_files_of_this_user_off_the_gui_thread(
    make_app: AppFactory, own_tmpdir: Path
) -> None:
    folder = own_tmpdir / "gemini" / "ide"
    folder.mkdir(parents=True)
    dead = 2**22 + 11
    body = {"port": 4000, "ideInfo": {"name": "ambient-notes"}}
    big = []
    for index in range(100):  # 100 MiB of junk that names Ambient Notes
        path = folder / f"gemini-ide-server-{dead}-{5000 + index}.json"
        path.write_text(json.dumps(body) + " " * (1024 * 1024))
        big.append(path)
    theirs = folder / f"gemini-ide-server-{dead}-4001.json"
    theirs.write_text(json.dumps(body))
    os.chown(theirs, NOBODY, NOBODY)
    os.mkfifo(folder / f"gemini-ide-server-{dead}-4002.json")
    stale = folder / f"gemini-ide-server-{dead}-4003.json"
    stale.write_text(json.dumps(body))
    started = time.perf_counter()
    removed = discovery.remove_stale_companions()
    took = time.perf_counter() - started
    assert removed == [discovery.companion_folder() / stale.name]
    assert all(path.exists() for path in big) and theirs.exists()
    assert took < 0.5, f"the clean-up took {took:.2f} s over 100 MiB it must not read"
    stale.write_text(json.dumps(body))
    app = make_app()
    assert app.window.sharing.stale_checked is False or not stale.exists()
    app.qtbot.waitUntil(lambda: not stale.exists(), timeout=WAIT_MS)


def test_r78_a_tool_that_does_not_read_is_dropped_and_the_others_get_the_latest(
    shared: tuple[AppUnderTest, SdkClient], attacker: list[subprocess.Popen[str]]
) -> None:
    app, client = shared
    server = app.window.sharing.server
    assert server is not None
    frame = app.mount("inbox-1", "notes/a.md")
    frame.replace_text("x" * 20_000)
    frame.editor.selectAll()
    process = subprocess.Popen(
        [_python(), "-c", NEVER_READS, str(server.port), server.token],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    attacker.append(process)
    assert process.stdout is not None
    stuck = process.stdout.readline().strip()
    app.qtbot.waitUntil(lambda: app.window.sharing.connected == 2, timeout=WAIT_MS)
    feed = app.window.sharing.feed
    for _ in range(400):  # 400 updates of 16 KiB each: far more than a socket holds
        feed.send_now(None)
    frame.select(0, 3)  # the latest context: 3 characters selected
    feed.send_now(None)

    def latest_selection() -> str | None:
        updates = client.notifications("ide/contextUpdate")
        files = updates[-1]["workspaceState"]["openFiles"] if updates else []
        return files[0].get("selectedText") if files else None

    app.qtbot.waitUntil(lambda: latest_selection() == "xxx", timeout=WAIT_MS)
    frame.editor.selectAll()

    def dropped_while_the_person_works() -> bool:
        feed.send_now(None)  # the cursor moves on: updates keep coming
        return stuck in server.dropped

    app.qtbot.waitUntil(dropped_while_the_person_works, timeout=WAIT_MS)
    (good,) = set(server.sent) - {stuck}
    assert server.sent[stuck] < server.sent[good]  # its buffers filled; the good one went on
    app.qtbot.waitUntil(lambda: app.window.sharing.connected == 1, timeout=WAIT_MS)
    frame.select(0, 2)
    feed.send_now(None)
    app.qtbot.waitUntil(lambda: latest_selection() == "xx", timeout=WAIT_MS)


def test_r78_a_refused_close_diff_is_an_error_not_content(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    _app, client = shared
    result = client.call("closeDiff", {"filePath": "/etc/passwd"})
    assert result.is_error is True
    assert "content" not in result.content[0].text


def test_r78_review_windows_from_tools_are_few_at_once(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, client = shared
    assert MAX_REVIEWS == 5
    for index in range(MAX_REVIEWS + 5):
        (app.workspace_dir / "notes" / f"n{index}.md").write_text(f"note {index}\n")
    for index in range(MAX_REVIEWS):
        answer = client.call("openDiff", {"filePath": f"notes/n{index}.md", "newContent": "x"})
        assert not answer.is_error, answer
    refused = client.call("openDiff", {"filePath": "notes/n9.md", "newContent": "x"})
    assert refused.is_error and refused.content[0].text == TOO_MANY_REVIEWS
    assert len(app.window.sharing.diffs.open_reviews) == MAX_REVIEWS
    again = client.call("openDiff", {"filePath": "notes/n0.md", "newContent": "y"})
    assert not again.is_error  # a new change to a note under review replaces its review
    app.window.sharing.diffs.close_all()


def test_r78_an_idle_session_expires(qtbot: object) -> None:
    async def no_tool(*_args: object) -> object:
        raise AssertionError("no tool is called")

    server = McpSidecarServer(
        [],
        no_tool,
        streams_changed=lambda _s: None,
        stream_opened=lambda _s: None,
        session_idle_seconds=0.5,
    )
    server.start()
    try:
        auth = {**HEADERS, "Authorization": f"Bearer {server.token}"}
        answer = httpx2.post(server.url, headers=auth, json=INITIALIZE, timeout=10)
        session = answer.headers["mcp-session-id"]
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}

        headers = {**auth, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        assert httpx2.post(server.url, headers=headers, json=ping, timeout=10).status_code == 200
        # Each request restarts the idle clock: wait (the event loop running) past it once.
        idle_from = time.monotonic()
        qtbot.waitUntil(lambda: time.monotonic() - idle_from > 1.0, timeout=WAIT_MS)  # type: ignore[attr-defined]
        answer = httpx2.post(server.url, headers=headers, json=ping, timeout=10)
        assert answer.status_code == 404  # today: sessions never expire
    finally:
        server.stop()


def test_r78_an_open_diff_of_600k_lines_never_stalls_the_window(
    shared: tuple[AppUnderTest, SdkClient], tmp_path: Path
) -> None:
    from PySide6.QtCore import QTimer

    app, _client = shared
    server = app.window.sharing.server
    assert server is not None
    (app.workspace_dir / "notes" / "big.md").write_text("line\n" * 600_000)
    arguments = tmp_path / "arguments.json"
    arguments.write_text(json.dumps({"filePath": "notes/big.md", "newContent": "LINE\n" * 600_000}))
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    ticker = QTimer()
    ticker.setInterval(10)
    ticker.timeout.connect(tick)
    ticker.start()
    try:
        # The tool is a process of its own, as a real one is: only the app's work counts.
        caller = subprocess.Popen(
            [
                _python(),
                "-c",
                CALL_TOOL,
                str(server.port),
                server.token,
                "openDiff",
                str(arguments),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert caller.stdout is not None
        app.qtbot.waitUntil(lambda: caller.poll() is not None, timeout=WAIT_MS)
        answer = json.loads(caller.stdout.read())
        caller.stdout.close()
        assert answer.get("isError") is not True, answer
        (view,) = app.window.sharing.diffs.open_reviews
        app.qtbot.waitUntil(lambda: view.state == "ready", timeout=WAIT_MS)
        last[0] = time.perf_counter()
        app.qtbot.waitUntil(lambda: len(gaps) > 5, timeout=WAIT_MS)
    finally:
        ticker.stop()
    assert "more" in view.diff.text()  # 40 lines shown, the rest counted
    assert max(gaps) < 0.1, f"the window stalled {max(gaps) * 1000:.0f} ms"
    app.window.sharing.diffs.close_all()


def test_r58_the_readme_never_puts_the_token_on_a_command_line() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Sharing the active note with other tools", 1)[1].split("\n## ", 1)[0]
    assert "--header" not in section and "claude mcp add" not in section
    assert "The token changes each time sharing is turned on" in section
    assert "AMBIENT_NOTES_TOKEN" in section
