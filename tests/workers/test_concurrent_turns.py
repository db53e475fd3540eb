"""Two conversations, 200 interleaved turns each from two threads (R18, R22).

Every tool read must see its own conversation's latest pointer, through real HTTP to an
embedded server, with SQLite taking writes from several threads at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.support.backend import make_workspace
from tests.workers.conftest import pointer_header
from workers.server import EmbeddedServer
from workers.settings import Settings

TURNS = 200
NOTES_PER_CONVERSATION = 4


def _notes(conversation: str) -> dict[str, str]:
    return {
        f"{conversation}/note-{index}.md": f"# {conversation} {index}\n" + "body " * (index + 1)
        for index in range(NOTES_PER_CONVERSATION)
    }


@pytest.fixture
def server(tmp_path: Path) -> Iterator[EmbeddedServer]:
    make_workspace(tmp_path, "demo", {**_notes("left"), **_notes("right")})
    with EmbeddedServer(Settings(data_dir=tmp_path)) as running:
        yield running


@pytest.mark.slow
def test_r22_interleaved_conversations_each_see_their_latest_pointer(
    server: EmbeddedServer,
) -> None:
    auth = {"Authorization": f"Bearer {server.device_token}"}
    key = requests.post(
        f"{server.url}/v1/key-sessions", json={"workspace": "demo"}, headers=auth, timeout=10
    ).json()["key"]
    start = threading.Barrier(2)
    failures: list[str] = []

    def converse(conversation: str) -> None:
        notes = list(_notes(conversation).items())
        with requests.Session() as session:
            session.headers.update({**auth, "X-Key-Session": key})
            start.wait()
            for turn in range(TURNS):
                path, text = notes[turn % len(notes)]
                flushed = turn % 3 != 0  # the caveat must follow this turn's pointer too
                response = session.post(
                    f"{server.url}/v1/agent/turns",
                    json={"conversation": conversation, "message": "summarise this"},
                    headers={"X-Ambient-Note": pointer_header(path, text, flushed=flushed)},
                    timeout=30,
                )
                if response.status_code != 200:
                    failures.append(f"{conversation} {turn}: HTTP {response.status_code}")
                    return
                result = response.json()["toolCalls"][0]["result"]
                seen = (result["path"], result["text"], result["caveat"] is None)
                if seen != (path, text, flushed):
                    failures.append(f"{conversation} {turn}: expected {path}, saw {seen}")

    threads = [threading.Thread(target=converse, args=(name,)) for name in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
