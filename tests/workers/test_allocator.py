"""A turn reuses the memory the previous one freed: both ways of running the backend.

A turn reading a 256 KiB note makes buffers of about that size (the file, its text,
the result's JSON, the reply). With glibc's defaults each turn got them as fresh pages
from the kernel: about 270 minor page faults per turn. Counted here, in the process
that serves, over turns after a warm-up: it is a count of events, not a time.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import requests

from tests.support.backend import make_workspace, start_backend_process
from tests.workers.conftest import pointer_header
from workers.allocator import is_glibc
from workers.server import EmbeddedServer
from workers.settings import Settings

pytestmark = pytest.mark.skipif(not is_glibc(), reason="the tuning applies to glibc only")

NOTE = "notes/large.md"
LINE = "A line of a long note, to make the saved copy a quarter of a mebibyte.\n"
TEXT = (LINE * (262_144 // len(LINE) + 1))[:262_144]
WARM_UP_TURNS = 10
COUNTED_TURNS = 20
FAULTS_PER_TURN_LIMIT = 32
"""Pages: an eighth of what one turn faulted in before (about 270, over a mebibyte)."""


def _turns(url: str, token: str) -> Callable[[int], None]:
    """A function running N ``/tool read_active_note`` turns of the whole note."""
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {token}"
    answer = http.post(f"{url}/v1/key-sessions", json={"workspace": "w"}, timeout=10)
    http.headers["X-Key-Session"] = answer.json()["key"]
    http.headers["X-Ambient-Note"] = pointer_header(NOTE, TEXT)
    command = f"/tool read_active_note {json.dumps({'maxBytes': 262_144})}"

    def run(count: int) -> None:
        for _ in range(count):
            turn = http.post(
                f"{url}/v1/agent/turns",
                json={"conversation": "c", "message": command},
                timeout=10,
            ).json()
            assert turn["toolCalls"][0]["result"]["text"] == TEXT

    return run


def _own_minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _minor_faults_of(pid: int) -> int:
    # /proc/PID/stat: the fields after the command's closing parenthesis; minflt is the 8th.
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[7])


def test_the_tuning_is_taken_on_glibc() -> None:
    # In a process of its own: the tuning is process-wide, and the tests below must show
    # that starting a backend applies it, not that this test did.
    code = "from workers.allocator import keep_freed_memory; print(keep_freed_memory())"
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert shown.stdout.strip() == "True"


def test_embedded_backend_turns_fault_in_almost_no_fresh_memory(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, device_token="t")
    make_workspace(tmp_path, "w", {NOTE: TEXT})
    with EmbeddedServer(settings) as server:
        run = _turns(server.url, server.device_token)
        run(WARM_UP_TURNS)
        before = _own_minor_faults()
        run(COUNTED_TURNS)
        per_turn = (_own_minor_faults() - before) / COUNTED_TURNS
    assert per_turn < FAULTS_PER_TURN_LIMIT


@pytest.mark.slow
def test_cli_backend_turns_fault_in_almost_no_fresh_memory(tmp_path: Path) -> None:
    make_workspace(tmp_path, "w", {NOTE: TEXT})
    with start_backend_process(tmp_path) as backend:
        run = _turns(backend.url, backend.token)
        run(WARM_UP_TURNS)
        before = _minor_faults_of(backend.process.pid)
        run(COUNTED_TURNS)
        per_turn = (_minor_faults_of(backend.process.pid) - before) / COUNTED_TURNS
    assert per_turn < FAULTS_PER_TURN_LIMIT
