"""send_turn end to end against the real backend: what is sent, and never the note (R9–R18)."""

from __future__ import annotations

import base64
import json
import secrets
import threading
from collections.abc import Iterator
from concurrent.futures import Future

import pytest

from bridge.client import BackendClient, KeySession
from bridge.errors import BackendUnreachable
from bridge.pointer import HEADER_NAME, Selection, decode_header, fingerprint
from bridge.turns import SentTurn, send_turn
from renderer.ambient import FLUSH_LIMIT_SECONDS, AmbientStore
from tests.bridge.conftest import WorkspaceFactory
from tests.bridge.test_client import closed_port_url
from tests.bridge.wire import RecordedRequest, RecordingRelay
from tests.core.fakes import FakeClock, FakeEditor
from tests.support.backend import RunningBackend

CAVEAT_START = "The saved copy is behind what the user has on screen"
WINDOW = 8


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


class Editing:
    """A workspace with one open note, a store, and the flush the app would run."""

    def __init__(self, client: BackendClient, session: KeySession, editor: FakeEditor) -> None:
        self.client = client
        self.session = session
        self.editor = editor
        self.store = AmbientStore()
        self.store.publish(editor)
        self.flushes = 0

    def flush(self) -> None:
        """Save the editor's text through the document API, as the autosave would."""
        self.flushes += 1
        self.client.put_document(self.session, self.editor.path, self.editor.text)

    def send(self, conversation: str, message: str, **options: object) -> SentTurn:
        return send_turn(
            self.client,
            self.store,
            self.flush,
            session=self.session,
            conversation=conversation,
            message=message,
            **options,  # type: ignore[arg-type]
        )


@pytest.fixture
def relay(backend: RunningBackend) -> Iterator[RecordingRelay]:
    with RecordingRelay(backend.url) as running:
        yield running


@pytest.fixture
def editing(
    relay: RecordingRelay, backend: RunningBackend, workspace_factory: WorkspaceFactory
) -> Iterator[Editing]:
    body = secret_note()
    workspace = workspace_factory({"notes/plan.md": body})
    with BackendClient(relay.url, backend.token) as client:
        session = client.open_key_session(workspace)
        editor = FakeEditor("inbox-1", "notes/plan.md", body, selection=Selection(anchor=2, head=9))
        yield Editing(client, session, editor)


def test_r16_no_byte_of_the_note_is_in_any_header_or_turn_request(
    editing: Editing, relay: RecordingRelay
) -> None:
    editing.store.activate("inbox-1")
    first = editing.send("c-leak", "summarise this")
    editing.editor.type("\nTyped after the first send: 予算は据え置き。")
    editing.store.activate("assistant")
    second = editing.send("c-leak", "what does this note say?")
    third = editing.send("c-leak", '/tool read_active_note {"maxBytes": 40}')
    assert all(turn.header_bytes > 0 for turn in (first, second, third))

    body = editing.editor.text.encode("utf-8")
    sent = relay.requests()
    turns = [r for r in sent if r.method == "POST" and r.target == "/v1/agent/turns"]
    saves = [r for r in sent if r.method == "PUT"]
    assert len(turns) == 3 and len(saves) == 3

    def leaks(data: bytes) -> set[bytes]:
        return {piece for piece in slices(body) if piece in data}

    # The recording sees note text where it is allowed to go (R16: the document API)...
    assert leaks(saves[-1].body) == slices(body)
    # ...and nowhere else: no header of any request, no part of any turn request.
    for request in sent:
        assert leaks(request.head) == set(), request.target
        for value in request.header(HEADER_NAME):
            assert leaks(ambient_json(value)) == set()
    for turn in turns:
        assert leaks(turn.head + turn.body) == set()
        assert set(json.loads(turn.body)) == {"conversation", "message"}
        assert len(turn.header(HEADER_NAME)) == 1

    # The assistant still got the note, through the tool reading the saved copy.
    assert body.decode("utf-8").splitlines()[0] in first.reply.tool_calls[0].result["text"]


def ambient_json(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def test_r9_r14_r17_the_header_sent_is_the_pointer_captured_and_stored(
    editing: Editing, relay: RecordingRelay
) -> None:
    turn = editing.send("c-stored", "summarise this", clock=FakeClock())
    assert turn.dropped is None and turn.pointer is not None
    [request] = [r for r in relay.requests() if r.target == "/v1/agent/turns"]
    [value] = request.header(HEADER_NAME)
    assert decode_header(value) == turn.pointer
    assert turn.header_bytes == len(value)
    size, digest = fingerprint(editing.editor.text)
    assert (turn.pointer.bytes, turn.pointer.sha256, turn.pointer.flushed) == (size, digest, True)
    assert turn.pointer.capturedAt == "2026-11-29T19:08:18.123Z"
    assert turn.reply.ambient_status == "stored"
    delivery = editing.client.get_delivery(editing.session, "c-stored")
    assert delivery is not None
    assert delivery["ambient_path"] == "notes/plan.md"
    assert delivery["ambient_view"] == "edit"
    assert delivery["ambient_meta"]["sha256"] == digest
    assert delivery["ambient_meta"]["selection"] == {"anchor": 2, "head": 9}
    result = turn.reply.tool_calls[0].result
    assert result["status"] == "ok" and result["caveat"] is None


def test_r11_keystrokes_during_the_flush_are_in_the_pointer_and_flagged_by_the_tool(
    editing: Editing,
) -> None:
    def flush_then_type() -> None:
        editing.flush()
        editing.editor.type("\nlate keystrokes")

    turn = send_turn(
        editing.client,
        editing.store,
        flush_then_type,
        session=editing.session,
        conversation="c-late",
        message="summarise this",
    )
    assert turn.pointer is not None
    assert (turn.pointer.bytes, turn.pointer.sha256) == fingerprint(editing.editor.text)
    assert turn.pointer.flushed is True
    # The saved copy lacks the late keystrokes: the tool says so (R25).
    result = turn.reply.tool_calls[0].result
    assert result["caveat"] is not None and result["caveat"].startswith(CAVEAT_START)


def test_r12_a_stalled_flush_sends_the_turn_marked_not_flushed(editing: Editing) -> None:
    release = threading.Event()
    flush_thread_done = threading.Event()

    def stalled_flush() -> None:
        release.wait()
        flush_thread_done.set()

    clock = FakeClock()
    asked: list[float] = []

    def bound(future: Future[object], timeout: float) -> bool:
        asked.append(timeout)
        clock.advance(timeout)
        return future.done()

    editing.editor.type(" unsaved")
    try:
        turn = send_turn(
            editing.client,
            editing.store,
            stalled_flush,
            session=editing.session,
            conversation="c-stalled",
            message="summarise this",
            clock=clock,
            wait=bound,
        )
        assert asked == [FLUSH_LIMIT_SECONDS]
        assert not flush_thread_done.is_set()  # the turn went while the flush still hung
    finally:
        release.set()
        assert flush_thread_done.wait(5)
    assert turn.pointer is not None and turn.pointer.flushed is False
    assert turn.reply.ambient_status == "stored"
    assert turn.reply.tool_calls[0].result["caveat"].startswith(CAVEAT_START)


def test_r13_r18_a_discarded_capture_still_sends_the_turn_without_header(
    editing: Editing, relay: RecordingRelay
) -> None:
    editing.send("c-drop", "summarise this")  # a pointer is stored first
    other = FakeEditor("inbox-2", "notes/other.md", "other")

    def flush_while_switching() -> None:
        editing.store.publish(other)
        editing.store.activate("inbox-2")

    turn = send_turn(
        editing.client,
        editing.store,
        flush_while_switching,
        session=editing.session,
        conversation="c-drop",
        message="summarise this",
    )
    assert turn.dropped == "discarded" and turn.pointer is None and turn.header_bytes == 0
    assert turn.reply.ambient_status == "absent"
    last = [r for r in relay.requests() if r.target == "/v1/agent/turns"][-1]
    assert last.header(HEADER_NAME) == []
    delivery = editing.client.get_delivery(editing.session, "c-drop")
    assert delivery is not None and delivery["ambient_path"] is None  # R18: cleared


def test_an_excluded_send_carries_no_header_and_does_not_flush(
    editing: Editing, relay: RecordingRelay
) -> None:
    turn = editing.send("c-off", "summarise this", include=False)
    assert turn.dropped == "excluded" and editing.flushes == 0
    assert turn.reply.tool_calls[0].result["status"] == "no_active_note"
    requests_sent: list[RecordedRequest] = relay.requests()
    assert all(not r.header(HEADER_NAME) for r in requests_sent)


def test_r6_no_inbox_note_sends_no_header(editing: Editing) -> None:
    editing.store.withdraw("inbox-1")
    turn = editing.send("c-empty", "summarise this")
    assert turn.dropped == "no-inbox"
    assert turn.reply.tool_calls[0].result["status"] == "no_active_note"


def test_a_backend_down_raises_the_plain_unreachable_error() -> None:
    store = AmbientStore()
    store.publish(FakeEditor("inbox-1", "notes/a.md", "alpha"))
    with (
        BackendClient(closed_port_url(), "token") as down,
        pytest.raises(BackendUnreachable) as raised,
    ):
        send_turn(
            down, store, lambda: None, session=None, conversation="c", message="summarise this"
        )
    assert "Your message was kept" in raised.value.message
