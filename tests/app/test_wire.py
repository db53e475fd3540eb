"""The app's own send path on the wire, against a real backend process (R9, R14, R16, R17).

The window sends through its assistant frame exactly as a user's Enter does; a
loopback relay between the app and ``python -m workers serve`` records every
byte the app sends, so the checks see what really crossed the wire.
"""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from bridge.contract import MAX_HEADER_BYTES
from bridge.pointer import decode_header, fingerprint
from tests.app.wired import WiredApp, wired_app
from tests.support.backend import RunningBackend, start_backend_process

WINDOW = 8  # the shortest slice of the note that would count as leaking it


def secret_note() -> str:
    """A body no request line, path or message could contain by chance."""
    token = secrets.token_hex(16)
    return (
        f"# Quarterly plan {token}\n"
        "Hire two engineers for the ingestion team; budget stays at 1.2M.\n"
        f"- [ ] call Dana about the lease {token[::-1]}\n"
        "このノートは社外秘です。次の会議で確認します。\n"
    )


def slices(data: bytes) -> set[bytes]:
    return {data[i : i + WINDOW] for i in range(len(data) - WINDOW + 1)}


def ambient_json(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


@pytest.fixture(scope="module")
def backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningBackend]:
    with start_backend_process(tmp_path_factory.mktemp("backend")) as running:
        yield running


@pytest.fixture
def wired(backend: RunningBackend, qtbot: QtBot, tmp_path: Path) -> Iterator[WiredApp]:
    with wired_app(backend, qtbot, tmp_path, {"notes/plan.md": secret_note()}) as app:
        yield app


def test_r16_no_byte_of_the_note_is_in_any_header_or_turn_request(wired: WiredApp) -> None:
    frame = wired.mount("inbox-1", "notes/plan.md")
    first = wired.send("summarise this")
    frame.type_text("\nTyped after the first send: 予算は据え置き。", at="end")
    wired.window.driver.activate_frame("assistant")
    second = wired.send("what does this note say?")
    third = wired.send('/tool read_active_note {"maxBytes": 40}')
    assert all(turn.header_bytes > 0 for turn in (first, second, third))

    body = frame.read_text().encode("utf-8")
    sent = wired.relay.requests()
    turns = [r for r in sent if r.method == "POST" and r.target == "/v1/agent/turns"]
    saves = [r for r in sent if r.method == "PUT"]
    assert len(turns) == 3 and saves

    def leaks(data: bytes) -> set[bytes]:
        return {piece for piece in slices(body) if piece in data}

    # The recording sees the note where it is allowed to go (R16: the document API)...
    assert leaks(saves[-1].body) == slices(body)
    # ...and nowhere else: no header of any request, no part of any turn request.
    for request in sent:
        assert leaks(request.head) == set(), request.target
        for value in request.header("X-Ambient-Note"):
            assert leaks(ambient_json(value)) == set()
    for turn in turns:
        assert leaks(turn.head + turn.body) == set()
        assert set(json.loads(turn.body)) == {"conversation", "message"}
        assert len(turn.header("X-Ambient-Note")) == 1

    # The assistant still got the note, through the tool reading the saved copy.
    assert first.reply is not None
    assert body.decode("utf-8").splitlines()[0] in first.reply.tool_calls[0].result["text"]


def test_r9_r14_r17_the_header_on_the_wire_is_the_pointer_captured_and_stored(
    wired: WiredApp,
) -> None:
    frame = wired.mount("inbox-1", "notes/plan.md")
    frame.select(2, 9)
    record = wired.send("summarise this")
    pointer = record.capture.pointer
    assert record.dropped is None and pointer is not None
    [request] = [r for r in wired.relay.requests() if r.target == "/v1/agent/turns"]
    [value] = request.header("X-Ambient-Note")
    assert decode_header(value) == pointer
    assert record.header_bytes == len(value) <= MAX_HEADER_BYTES
    size, digest = fingerprint(frame.read_text())
    assert (pointer.bytes, pointer.sha256, pointer.flushed) == (size, digest, True)
    assert record.reply is not None and record.reply.ambient.status == "stored"
    link = wired.session.link
    delivery = link.call(lambda client, key: client.get_delivery(key, record.conversation))
    assert delivery is not None
    assert delivery["ambient_path"] == "notes/plan.md"
    assert delivery["ambient_meta"]["sha256"] == digest
    assert delivery["ambient_meta"]["selection"] == {"anchor": 2, "head": 9}


def test_a_send_right_after_mount_carries_the_loaded_note_never_an_empty_one(
    wired: WiredApp,
) -> None:
    frame = wired.window.driver.mount_inbox("inbox-1", "notes/plan.md", "edit")
    assert not frame.is_loaded  # the send below does not wait for the load itself
    record = wired.send("summarise this")
    pointer = record.capture.pointer
    assert pointer is not None and pointer.path == "notes/plan.md"
    assert (pointer.bytes, pointer.sha256) == fingerprint(frame.read_text())
    assert pointer.bytes > 0
