"""The HTTP clients against the real backend on loopback: documents, sessions, turns, failures."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from bridge import errors
from bridge.client import BackendClient
from bridge.errors import AccessRefused, BackendError, BackendUnreachable, NotFound, RequestRejected
from bridge.pointer import AmbientPointer, Selection, encode_header, fingerprint
from bridge.wire import DocumentSaved
from tests.bridge.conftest import WorkspaceFactory
from tests.bridge.wire import RecordingRelay
from tests.support.backend import RunningBackend

NOTES = {"notes/a.md": "# A\nalpha\n", "notes/b.md": "# B\nbeta\n", "inbox/c.md": "gamma"}


def closed_port_url() -> str:
    """An address where nothing listens: the port was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# -- identity and workspaces ---------------------------------------------------------


def test_health_is_true_on_a_running_backend(client: BackendClient) -> None:
    assert client.health() is True


def test_health_is_false_when_the_backend_is_down() -> None:
    with BackendClient(closed_port_url(), "token") as down:
        assert down.health() is False


def test_create_workspace_then_open_a_key_session(client: BackendClient) -> None:
    client.create_workspace("created-by-client")
    client.create_workspace("created-by-client")  # an existing workspace is left as it is
    session = client.open_key_session("created-by-client")
    assert session.workspace == "created-by-client"
    assert session.key and session.key not in repr(session)
    assert session.expires_at > datetime.now(UTC)
    assert client.list_documents(session) == []


def test_create_workspace_with_an_invalid_name_is_rejected(client: BackendClient) -> None:
    with pytest.raises(RequestRejected) as raised:
        client.create_workspace("../escape")
    assert raised.value.status in (400, 422)
    assert "workspace name" in raised.value.message


def test_key_session_for_an_unknown_workspace_is_not_found(client: BackendClient) -> None:
    with pytest.raises(NotFound) as raised:
        client.open_key_session("no-such-workspace")
    assert raised.value.status == 404
    assert "no-such-workspace" in raised.value.message  # the backend's own sentence


def test_wrong_device_token_is_access_refused(backend: RunningBackend) -> None:
    with (
        BackendClient(backend.url, "not-the-token") as intruder,
        pytest.raises(AccessRefused) as raised,
    ):
        intruder.open_key_session("anything")
    assert raised.value.status == 401
    assert raised.value.message and "Traceback" not in raised.value.message


def test_another_workspaces_key_is_access_refused(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    mine, theirs = workspace_factory(NOTES), workspace_factory(NOTES)
    their_session = client.open_key_session(theirs)
    forged = type(their_session)(their_session.key, mine, their_session.expires_at)
    with pytest.raises(AccessRefused) as raised:
        client.get_document(forged, "notes/a.md")
    assert raised.value.status == 403
    assert "another workspace" in raised.value.message


# -- documents (R16) ------------------------------------------------------------------


def test_list_documents_sorted_with_fingerprints(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    listing = client.list_documents(session)
    assert [d.path for d in listing] == sorted(NOTES)
    for document in listing:
        size, digest = fingerprint(NOTES[document.path])
        assert (document.bytes, document.sha256) == (size, digest)
        assert document.modified_at
    assert [d.path for d in client.list_documents(session, prefix="notes/")] == [
        "notes/a.md",
        "notes/b.md",
    ]


def test_put_then_get_round_trips_text_under_an_awkward_path(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    workspace = workspace_factory()
    session = client.open_key_session(workspace)
    path = "notes/ノート #1 ?50% & more.md"
    text = "# 今日\n- [ ] café ✓ 😀\n"
    saved = client.put_document(session, path, text)
    size, digest = fingerprint(text)
    assert saved == DocumentSaved(path=path, bytes=size, sha256=digest)
    assert client.get_document(session, path) == text
    # Percent-encoding per segment put it exactly where the path says, nowhere else.
    on_disk = workspace_factory.root(workspace) / "notes" / "ノート #1 ?50% & more.md"
    assert on_disk.read_bytes() == text.encode("utf-8")
    assert [d.path for d in client.list_documents(session)] == [path]


def test_get_a_missing_document_is_not_found_with_the_backend_message(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    with pytest.raises(NotFound) as raised:
        client.get_document(session, "notes/missing.md")
    assert raised.value.status == 404
    assert "notes/missing.md" in raised.value.message


@pytest.mark.parametrize("path", ["../outside.md", "notes/../../x.md", "/etc/passwd", "a//b.md"])
def test_a_path_outside_the_rules_is_refused_before_any_request(
    client: BackendClient, workspace_factory: WorkspaceFactory, path: str
) -> None:
    workspace = workspace_factory(NOTES)
    session = client.open_key_session(workspace)
    before = sorted(p.name for p in workspace_factory.data_dir.rglob("*"))
    with pytest.raises(RequestRejected) as raised:
        client.put_document(session, path, "x")
    assert raised.value.status is None
    assert raised.value.message.startswith("That document path is not allowed")
    with pytest.raises(RequestRejected):
        client.get_document(session, path)
    assert sorted(p.name for p in workspace_factory.data_dir.rglob("*")) == before


def test_text_that_is_not_utf8_encodable_is_refused_plainly(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    with pytest.raises(RequestRejected) as raised:
        client.put_document(session, "notes/a.md", "broken \ud800 surrogate")
    assert "UTF-8" in raised.value.message
    assert client.get_document(session, "notes/a.md") == NOTES["notes/a.md"]


# -- agent turns (R14, R17, R18) -----------------------------------------------------------


def pointer_for(path: str, text: str, *, flushed: bool = True) -> AmbientPointer:
    size, digest = fingerprint(text)
    return AmbientPointer(
        path=path,
        view="edit",
        frameId="inbox-1",
        selection=Selection(anchor=0, head=3),
        bytes=size,
        sha256=digest,
        flushed=flushed,
        capturedAt="2026-11-29T19:08:18.123Z",
    )


def test_r14_r17_a_turn_with_the_header_is_stored_and_read(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    header = encode_header(pointer_for("notes/a.md", NOTES["notes/a.md"]))
    reply = client.post_turn("c-stored", "summarise this", session=session, ambient_header=header)
    assert reply.ambient.status == "stored" and reply.ambient.reason is None
    assert [call.name for call in reply.tool_calls] == ["read_active_note"]
    result = reply.tool_calls[0].result
    assert result["status"] == "ok" and result["path"] == "notes/a.md"
    assert result["caveat"] is None
    assert reply.as_json()["ambient"]["status"] == "stored"
    delivery = client.get_delivery(session, "c-stored")
    assert delivery is not None
    assert (delivery["ambient_path"], delivery["ambient_view"]) == ("notes/a.md", "edit")


def test_r18_a_malformed_header_is_rejected_and_the_turn_proceeds(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    reply = client.post_turn("c-bad", "hello", session=session, ambient_header="not*base64")
    assert reply.ambient.status == "rejected"
    assert reply.ambient.reason
    delivery = client.get_delivery(session, "c-bad")
    assert delivery is not None and delivery["ambient_path"] is None


def test_r18_a_turn_without_a_key_session_stores_nothing(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    header = encode_header(pointer_for("notes/a.md", NOTES["notes/a.md"]))
    client.post_turn("c-none", "hi", session=session, ambient_header=header)
    reply = client.post_turn("c-none", "hi", session=None, ambient_header=header)
    assert reply.ambient.status == "absent"
    assert client.get_delivery(session, "c-none") is None


def test_get_delivery_of_an_unknown_conversation_is_none(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    assert client.get_delivery(session, "never sent ?odd#name") is None


@pytest.mark.parametrize("conversation", ["x?y#z", "ノート 1", "%2F", "a b"])
def test_conversation_names_are_encoded_in_the_delivery_address(
    client: BackendClient, workspace_factory: WorkspaceFactory, conversation: str
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    client.post_turn(conversation, "hi", session=session, ambient_header=None)
    delivery = client.get_delivery(session, conversation)
    assert delivery is not None and delivery["conversation"] == conversation


def test_one_client_serves_several_threads_at_once(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    session = client.open_key_session(workspace_factory(NOTES))
    failures: list[BaseException] = []

    def saves(worker: int) -> None:
        try:
            for index in range(15):
                text = f"# worker {worker}\nsave {index}\n"
                saved = client.put_document(session, f"notes/w{worker}.md", text)
                assert (saved.bytes, saved.sha256) == fingerprint(text)
                reply = client.post_turn(f"c-{worker}", "hi", session=session, ambient_header=None)
                assert reply.reply
        except BaseException as error:
            failures.append(error)

    workers = [threading.Thread(target=saves, args=(n,)) for n in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert failures == []
    for n in range(3):
        assert client.get_document(session, f"notes/w{n}.md") == f"# worker {n}\nsave 14\n"


def test_a_turn_the_backend_refuses_carries_its_plain_message(client: BackendClient) -> None:
    with pytest.raises(RequestRejected) as raised:
        client.post_turn("x" * 129, "hi", session=None, ambient_header=None)
    assert raised.value.status in (400, 422)
    assert raised.value.message and "{" not in raised.value.message


# -- the backend down, slow or strange -----------------------------------------------------


def test_backend_down_is_unreachable_with_the_plain_message() -> None:
    with BackendClient(closed_port_url(), "token", connect_timeout=2.0) as down:
        with pytest.raises(BackendUnreachable) as raised:
            down.post_turn("c", "hello", session=None, ambient_header=None)
        assert raised.value.message == errors.UNREACHABLE_MESSAGE
        assert raised.value.status is None
        with pytest.raises(BackendUnreachable) as raised_document:
            down.open_key_session("ws")
        assert "can't be reached" in raised_document.value.message


def test_a_backend_that_never_answers_times_out_as_unreachable() -> None:
    # The kernel accepts the connection into the backlog; nobody ever reads it.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with (
            BackendClient(url, "token", read_timeout=0.2) as slow,
            pytest.raises(BackendUnreachable) as raised,
        ):
            slow.post_turn("c", "hello", session=None, ambient_header=None)
    assert raised.value.message == errors.UNREACHABLE_MESSAGE


@contextmanager
def one_answer(status: int, body: bytes, content_type: str) -> Iterator[str]:
    """A minimal real HTTP server that answers exactly one request."""

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = _answer

        def log_message(self, format: str, *args: object) -> None:
            return None

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.handle_request, name="one-answer")
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        thread.join(5)
        server.server_close()


@pytest.mark.parametrize(
    ("status", "body", "content_type", "kind", "message"),
    [
        (200, b"<html>hello</html>", "text/html", BackendError, errors.NOT_UNDERSTOOD_MESSAGE),
        (200, b"[1, 2]", "application/json", BackendError, errors.NOT_UNDERSTOOD_MESSAGE),
        (502, b"Bad Gateway", "text/plain", BackendError, errors.SERVER_FAILED_MESSAGE),
        (403, b"", "text/plain", AccessRefused, errors.ACCESS_REFUSED_MESSAGE),
        (
            413,
            json.dumps({"error": {"code": "too_large", "message": "Too big."}}).encode(),
            "application/json",
            RequestRejected,
            "Too big.",
        ),
    ],
)
def test_strange_answers_become_typed_plain_errors(
    status: int, body: bytes, content_type: str, kind: type[BackendError], message: str
) -> None:
    with (
        one_answer(status, body, content_type) as url,
        BackendClient(url, "t") as odd,
        pytest.raises(kind) as raised,
    ):
        odd.open_key_session("ws")
    assert type(raised.value) is kind
    assert raised.value.message == message
    assert str(raised.value) == message


def test_one_keep_alive_connection_carries_many_requests(
    backend: RunningBackend, workspace_factory: WorkspaceFactory
) -> None:
    workspace = workspace_factory(NOTES)
    with RecordingRelay(backend.url) as relay:
        with BackendClient(relay.url, backend.token) as relayed:
            session = relayed.open_key_session(workspace)
            relayed.list_documents(session)
            relayed.get_document(session, "notes/a.md")
            relayed.put_document(session, "notes/a.md", "# A\nalpha again\n")
            relayed.post_turn("c-keep", "hello", session=session, ambient_header=None)
        requests_sent = relay.requests()
        assert len(relay.connections) == 1
    assert [r.method for r in requests_sent] == ["POST", "GET", "GET", "PUT", "POST"]
    assert all(r.header("Authorization") == [f"Bearer {backend.token}"] for r in requests_sent)
    assert requests_sent[2].target == "/v1/workspaces/" + workspace + "/documents/notes/a.md"


@pytest.mark.parametrize("address", ["not a url", "ftp://127.0.0.1:1", "http://"])
def test_an_unusable_address_is_a_plain_error(address: str) -> None:
    with BackendClient(address, "token") as odd, pytest.raises(BackendError) as raised:
        odd.open_key_session("ws")
    assert "is not a usable web address" in raised.value.message
    assert not isinstance(raised.value, BackendUnreachable)


def test_a_token_that_is_not_header_text_is_a_plain_error(backend: RunningBackend) -> None:
    with (
        BackendClient(backend.url, "token\nX-Injected: 1") as odd,
        pytest.raises(BackendError) as raised,
    ):
        odd.open_key_session("ws")
    assert "not valid header text" in raised.value.message
