"""``scenario record --workspace DIR`` copies only regular files inside DIR (R66).

The real command in a subprocess, over a folder holding a link to a file outside, a
link to a folder outside and a FIFO; it is ended by SIGTERM, as a logout or ``kill``
ends it, and must write the scenario as Quit writes it.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
from pathlib import Path

import yaml

from app.scenario.model import load_scenario

WAIT_SECONDS = 60


def _hostile_workspace(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("OUTSIDE SECRET\n", encoding="utf-8")
    workspace = tmp_path / "workspace"
    (workspace / "notes").mkdir(parents=True)
    (workspace / "notes" / "a.md").write_text("# A\nalpha\n", encoding="utf-8")
    (workspace / "notes" / "linked.md").symlink_to(outside / "secret.md")
    (workspace / "elsewhere").symlink_to(outside, target_is_directory=True)
    os.mkfifo(workspace / "notes" / "pipe.md")
    return workspace


def _record_until_sigterm(workspace: Path, target: Path) -> tuple[int, str, str]:
    """Run ``scenario record``; once its window is up, SIGTERM it. (code, stdout, stderr)."""
    command = [sys.executable, "-m", "app", "scenario", "record", str(target)]
    process = subprocess.Popen(
        [*command, "--workspace", str(workspace)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        with selectors.DefaultSelector() as waiting:
            waiting.register(process.stdout, selectors.EVENT_READ)
            ready = waiting.select(timeout=WAIT_SECONDS)  # the window is up, or it ended
        started = process.stdout.readline().decode() if ready else ""
        assert started.startswith("Recording into"), started
        process.send_signal(signal.SIGTERM)
        out, errors = process.communicate(timeout=WAIT_SECONDS)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return process.returncode, started + out.decode(), errors.decode()


def test_r66_sigterm_writes_the_recording_as_quit_does(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "notes").mkdir(parents=True)
    (workspace / "notes" / "a.md").write_text("# A\n", encoding="utf-8")
    target = tmp_path / "recorded.yaml"
    code, out, errors = _record_until_sigterm(workspace, target)
    assert code == 0, errors[-2000:]
    assert "Recorded " in out and "steps into" in out
    # Nothing was opened in the session: no note of the folder is written (R89).
    assert yaml.safe_load(target.read_text(encoding="utf-8"))["workspace"] == {}


def test_r66_only_regular_files_inside_are_recorded(tmp_path: Path) -> None:
    workspace = _hostile_workspace(tmp_path)
    target = tmp_path / "recorded.yaml"
    code, out, errors = _record_until_sigterm(workspace, target)
    assert code == 0, errors[-2000:]
    assert "Recorded" in out
    for skipped in ("elsewhere (a link)", "notes/linked.md (a link)", "notes/pipe.md (not a"):
        assert skipped in errors
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    assert data["workspace"] == {}  # nothing was opened in the session (R89)
    assert "OUTSIDE SECRET" not in target.read_text(encoding="utf-8")
    load_scenario(target)  # written whole, a valid scenario
