"""``python -m app --share-active-note`` as a person starts it, and SIGTERM (R58, R59)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

START_SECONDS = 60
ANNOUNCE = "sharing the active note at "


@pytest.mark.slow
def test_r59_sigterm_leaves_no_file_and_no_open_port(tmp_path: Path) -> None:
    workspace, data, tmpdir = tmp_path / "ws", tmp_path / "data", tmp_path / "tmp"
    (workspace / "notes").mkdir(parents=True)
    (workspace / "notes" / "today.md").write_text("# Today\n", encoding="utf-8")
    tmpdir.mkdir()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TMPDIR": str(tmpdir)}
    arguments = ["--workspace", str(workspace), "--data-dir", str(data), "--share-active-note"]
    process = subprocess.Popen(
        [sys.executable, "-m", "app", *arguments],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = ""
        while not line.startswith(ANNOUNCE):
            line = process.stdout.readline()
            assert line, "the app ended without sharing"
        pointer_file = data / "active-note-pointer.json"
        listing = json.loads(pointer_file.read_text(encoding="utf-8"))
        assert line.startswith(ANNOUNCE + listing["url"]) and listing["pid"] == process.pid
        port = int(listing["url"].rsplit(":", 1)[1].split("/")[0])
        companion = tmpdir / "gemini" / "ide" / f"gemini-ide-server-{process.pid}-{port}.json"
        assert companion.exists()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=START_SECONDS) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert not pointer_file.exists() and not companion.exists()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0
