"""R39, R40: hostile notes and messages answer correctly, and no turn holds up the server.

A note of "# a", 65,000 spaces and "b" once made a turn hold the interpreter for
minutes inside a regular expression, and GET /v1/health waited behind it. The
ordering test below runs a real server on loopback and shows health answering
while a turn is still reading such a note: the turn keeps reading until health
has answered (an event, not a clock), and fails if it runs out of reads first.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from bridge.contract import DEFAULT_MAX_BYTES
from bridge.markdown import NoteReading
from bridge.markdown import read_note as real_read_note
from bridge.proposals import apply_edits
from bridge.wire import Proposal
from tests.support.backend import make_workspace
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers.offline import answers
from workers.server import EmbeddedServer
from workers.settings import Settings

KIB64 = DEFAULT_MAX_BYTES  # R21: what a read without maxBytes returns
WORST_HEADING = ("# a" + " " * KIB64 + "b")[:KIB64]
HOSTILE_NOTES = {
    "heading-spaces": WORST_HEADING,
    "stars": "*" * KIB64,
    "star-a": ("*a" * KIB64)[:KIB64],
    "backticks": ("`a``" * KIB64)[:KIB64],
    "boxes": ("[ ]" * KIB64)[:KIB64],
    "open-brackets": "[" * KIB64,
    "quotes": ("> " * KIB64)[:KIB64],
    "nested-lists": "".join("  " * depth + "- [ ] x\n" for depth in range(200)),
}
HOSTILE_MESSAGES = [
    "list " * 8000,
    "*" * KIB64,
    "where do I mention " + "a" * KIB64,
    "# a" + " " * KIB64 + "b",
    "notes/" * 10_000 + "x.md",
]
READS_BEFORE_GIVING_UP = 10_000


@pytest.mark.parametrize("name", sorted(HOSTILE_NOTES))
def test_r39_hostile_notes_are_read_and_answered(backend: Backend, name: str) -> None:
    key = backend.key()
    text = HOSTILE_NOTES[name]
    (backend.root / "hostile.md").write_text(text, encoding="utf-8")
    for message in ("summarise this", "what's still open here?", "what are the headings?"):
        reply = backend.turn(message, key=key, ambient=pointer_header("hostile.md", text))
        assert [call["name"] for call in reply["toolCalls"]] == ["read_active_note"]
        assert reply["reply"]


def test_r39_the_worst_heading_is_one_heading(backend: Backend) -> None:
    key = backend.key()
    (backend.root / "hostile.md").write_text(WORST_HEADING, encoding="utf-8")
    header = pointer_header("hostile.md", WORST_HEADING)
    reply = backend.turn("what are the headings?", key=key, ambient=header)
    assert reply["reply"].startswith("Headings in hostile.md:\n\n- a")


@pytest.mark.parametrize("message", HOSTILE_MESSAGES, ids=lambda message: message[:12])
def test_r39_hostile_messages_get_a_plain_answer(backend: Backend, message: str) -> None:
    key = backend.key()
    reply = backend.turn(
        message, key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"])
    )
    assert reply["reply"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[EmbeddedServer]:
    make_workspace(tmp_path, "demo", {"hostile.md": WORST_HEADING})
    with EmbeddedServer(Settings(data_dir=tmp_path)) as running:
        yield running


def test_r40_health_answers_while_a_turn_reads_a_worst_case_note(
    server: EmbeddedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    reading = threading.Event()
    health_answered = threading.Event()
    overlapped: list[bool] = []

    def read_until_health_answered(text: str) -> NoteReading:
        # The real reading of the real note, again and again, until health has answered.
        reading.set()
        result = real_read_note(text)
        for _ in range(READS_BEFORE_GIVING_UP):
            if health_answered.is_set():
                break
            result = real_read_note(text)
        overlapped.append(health_answered.is_set())
        return result

    monkeypatch.setattr(answers, "read_note", read_until_health_answered)
    auth = {"Authorization": f"Bearer {server.device_token}"}
    key = requests.post(
        f"{server.url}/v1/key-sessions", json={"workspace": "demo"}, headers=auth, timeout=30
    ).json()["key"]
    outcome: dict[str, Any] = {}

    def send_turn() -> None:
        response = requests.post(
            f"{server.url}/v1/agent/turns",
            json={"conversation": "c1", "message": "what are the headings?"},
            headers={
                **auth,
                "X-Key-Session": key,
                "X-Ambient-Note": pointer_header("hostile.md", WORST_HEADING),
            },
            timeout=600,
        )
        outcome["status"] = response.status_code
        outcome["reply"] = response.json()["reply"]

    sender = threading.Thread(target=send_turn)
    sender.start()
    try:
        assert reading.wait(timeout=60), "the turn never started reading the note"
        health = requests.get(f"{server.url}/v1/health", timeout=60)
        assert health.status_code == 200
        health_answered.set()
    finally:
        health_answered.set()
        sender.join()
    assert overlapped == [True], "the turn finished before health answered"
    assert outcome["status"] == 200
    assert outcome["reply"].startswith("Headings in hostile.md:")


TWENTY_THOUSAND_TASKS = "# Tasks\n\n" + "".join(
    f"- [ ] task number {index} about things\n" for index in range(20_000)
)
FIVE_MIB = ("The standup moved to 9:30 on Friday.\n" * (5 * 1024 * 1024 // 37))[: 5 * 1024 * 1024]
EVERYDAY_ASKS = [
    "mark the second task done",
    "move the last task to the top",
    "rename the heading to Plans",
    "what time is the standup?",
    "what have I done?",
    "the of a is to and " * 210,  # stop words only, 4,000 characters
    "tick " + " ".join(f"w{index}" for index in range(800)),  # a 4,000-character ask
]


@pytest.mark.parametrize(
    "name", ["twenty-thousand-tasks", "five-mib"], ids=["20000-tasks", "5-MiB"]
)
def test_r83_everyday_asks_on_huge_notes_get_a_plain_reply(backend: Backend, name: str) -> None:
    """No 5xx, no traceback, a reply a person reads; an edit on a note read in part says
    so, and changes only whole lines of the part it read."""
    text = TWENTY_THOUSAND_TASKS if name == "twenty-thousand-tasks" else FIVE_MIB
    key = backend.key()
    (backend.root / "huge.md").write_text(text, encoding="utf-8")
    header = pointer_header("huge.md", text)
    for message in EVERYDAY_ASKS:
        reply = backend.turn(message[:4000], key=key, ambient=header, conversation=name)
        assert reply["reply"] and "Traceback" not in reply["reply"]
        assert len(reply["reply"]) < 8_000, message[:40]  # candidates listed 50 at most
        for raw in reply["proposals"]:
            assert "I only saw the first" in reply["reply"]
            proposal = Proposal.model_validate(raw)
            assert proposal.is_base(text)
            changed = apply_edits(text, proposal.edits).split("\n")
            # Whole lines only: no task cut where the read stopped.
            assert all(not line or line.endswith(("things", "Tasks", "Plans")) for line in changed)
