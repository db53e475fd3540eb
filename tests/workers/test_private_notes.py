"""R86, contract 14: a note in ``.aiexclude`` never reaches the assistant, its tools or its models.

A unique word is planted in the private notes; every answer, every model request
and every byte kept in the data folder (the database, its journals, the records)
or in the database server is searched for it. Run on SQLite by default and on
PostgreSQL with ``AMBIENT_DATABASE_URL`` (the database rows are read back there).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import MetaData, create_engine, select

from bridge.client import turn_body
from tests.support.database import database_url_for
from tests.support.scripted_model import ScriptedModel, text, tool
from tests.workers.conftest import (
    NOTES,
    WORKSPACE,
    Backend,
    pointer_header,
)
from workers.settings import WORKSPACES_FOLDER

SECRET = "quokkazebra7731"
"""The word only private notes hold: it must appear nowhere the assistant's side keeps or says."""
PRIVATE_NOTES = {
    "notes/secret.md": f"# Secret plans\nThe {SECRET} code is 4411.\n- [ ] hide the {SECRET}\n",
    "diary/2026-12-03.md": f"# Diary\nDear diary, {SECRET} again today.\n",
}
AIEXCLUDE = "# kept from the assistant\ndiary/\n/notes/secret.md\n"
NEVER_NAMED = "diary/2026-12-03.md"
"""A private note nobody names: its path must not reach the assistant either."""


def _plant(root: Path) -> None:
    """The private notes and the .aiexclude that keeps them, beside the shared notes."""
    for relative, body in PRIVATE_NOTES.items():
        target = root.joinpath(*relative.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    (root / ".aiexclude").write_text(AIEXCLUDE, encoding="utf-8")


@pytest.fixture
def private_backend(backend: Backend) -> Backend:
    _plant(backend.root)
    return backend


@pytest.fixture
def private_model_backend(model_backend: Backend) -> Backend:
    _plant(model_backend.root)
    return model_backend


def _tool(backend: Backend, key: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    reply = backend.turn(f"/tool {name} {json.dumps(arguments)}", key=key)
    (call,) = reply["toolCalls"]
    result: dict[str, Any] = call["result"]
    return result


def _kept_bytes(tmp_path: Path) -> Iterator[tuple[str, bytes]]:
    """Every file of the data folder but the notes themselves, and every database row."""
    for folder, _folders, files in os.walk(tmp_path):
        if Path(folder).is_relative_to(tmp_path / WORKSPACES_FOLDER):
            continue
        for name in files:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                yield str(path), path.read_bytes()
    engine = create_engine(database_url_for(tmp_path))
    try:
        metadata = MetaData()
        metadata.reflect(engine)
        with engine.connect() as connection:
            for table in metadata.sorted_tables:
                for row in connection.execute(select(table)):
                    yield f"table {table.name}", repr(tuple(row)).encode()
    finally:
        engine.dispose()


def _assert_nothing_kept(tmp_path: Path) -> None:
    for where, data in _kept_bytes(tmp_path):
        assert SECRET.encode() not in data, where
        assert NEVER_NAMED.encode() not in data, where


def test_r86_a_pointer_naming_a_private_note_is_rejected_and_nothing_is_stored(
    private_backend: Backend,
) -> None:
    backend = private_backend
    key = backend.key()
    shared = pointer_header("notes/a.md", NOTES["notes/a.md"])
    assert backend.turn("hi", key=key, ambient=shared)["ambient"]["status"] == "stored"
    header = pointer_header("notes/secret.md", PRIVATE_NOTES["notes/secret.md"])
    reply = backend.turn("summarise this", key=key, ambient=header)
    assert reply["ambient"] == {"status": "rejected", "reason": "private_note"}
    row = backend.delivery(key)
    assert row is not None
    assert (row["ambient_path"], row["ambient_view"], row["ambient_meta"]) == (None, None, None)
    (call,) = reply["toolCalls"]
    assert call["result"]["status"] == "private"
    assert call["result"]["path"] is None and call["result"]["bytes"] is None
    assert SECRET not in json.dumps(reply) and "private" in reply["reply"]


def test_r86_no_tool_returns_a_private_note_and_nothing_of_it_is_kept(
    private_backend: Backend, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    backend = private_backend
    key = backend.key()
    answers: list[dict[str, Any]] = []
    for path in ("notes/secret.md", NEVER_NAMED, ".aiexclude"):
        result = _tool(backend, key, "read_document", {"path": path})
        assert result["status"] == "private", path
        assert result["text"] is None and result["bytes"] is None and result["path"] is None
        assert "private" in result["message"]
        answers.append(result)
    listing = _tool(backend, key, "list_documents", {})
    assert listing["status"] == "ok"
    assert sorted(d["path"] for d in listing["documents"]) == sorted(NOTES)
    assert listing["privateCount"] == 2
    under = _tool(backend, key, "list_documents", {"prefix": "diary/"})
    assert under["documents"] == [] and under["privateCount"] == 1
    found = _tool(backend, key, "search_documents", {"query": SECRET[:9]})
    assert found["matches"] == [] and found["privateCount"] == 2
    # A word in a shared note is found; the private notes are left out without being read.
    shared = _tool(backend, key, "search_documents", {"query": "alpha"})
    assert [m["path"] for m in shared["matches"]] == ["notes/a.md"]
    proposed = _tool(
        backend,
        key,
        "propose_note_edit",
        {"path": "notes/secret.md", "edits": [{"oldText": "4411", "newText": "0000"}]},
    )
    assert proposed["status"] == "private"
    answers += [listing, under, found, shared, proposed]
    # The offline assistant, asked in plain words: it says so, and reads nothing of them.
    for ask in (
        "summarise notes/secret.md",
        "list my notes",
        f"which notes mention {SECRET[:9]}?",  # a part of the word: the whole one is the note's
        "compare notes/a.md with notes/secret.md",
        "what are the open tasks in notes/secret.md",
        "summarise the secret plans",
        "outline of the diary",
    ):
        reply = backend.turn(ask, key=key)
        answers.append(reply)
        assert SECRET not in reply["reply"], ask
    said = {ask["reply"] for ask in answers if "reply" in ask}
    assert any("private" in reply for reply in said)
    assert any("2 private note(s)" in reply for reply in said)  # the listing and the search
    conversation = backend.client.get("/v1/agent/conversations/c1", headers=backend.headers(key))
    for text_kept in (json.dumps(answers), conversation.text, caplog.text):
        assert SECRET not in text_kept
        assert NEVER_NAMED not in text_kept
    _assert_nothing_kept(tmp_path)


def test_r86_the_app_saying_this_note_is_private_gets_plain_words(
    private_backend: Backend,
) -> None:
    backend = private_backend
    key = backend.key()
    response = backend.client.post(
        "/v1/agent/turns",
        json=turn_body("c1", "summarise this", note_private=True),
        headers=backend.headers(key),
    )
    reply = response.json()
    assert reply["ambient"]["status"] == "absent"
    assert "private" in reply["ambient"]["reason"]
    assert reply["toolCalls"][0]["result"]["status"] == "private"
    assert reply["reply"].startswith("The open note is private")
    assert "No note is open" not in reply["reply"]


def test_r86_a_hand_edit_of_aiexclude_applies_from_the_next_send(
    private_backend: Backend,
) -> None:
    backend = private_backend
    key = backend.key()
    assert _tool(backend, key, "read_document", {"path": "notes/b.md"})["status"] == "ok"
    aiexclude = backend.root / ".aiexclude"
    aiexclude.write_text(AIEXCLUDE + "notes/b.md\n", encoding="utf-8")
    assert _tool(backend, key, "read_document", {"path": "notes/b.md"})["status"] == "private"
    aiexclude.write_text("!notes/secret.md\n", encoding="utf-8")  # shared again
    result = _tool(backend, key, "read_document", {"path": "notes/secret.md"})
    assert result["status"] == "ok" and SECRET in result["text"]
    aiexclude.unlink()
    assert _tool(backend, key, "read_document", {"path": NEVER_NAMED})["status"] == "ok"


def test_r86_a_link_to_a_private_note_is_as_private_as_the_note(
    private_backend: Backend,
) -> None:
    backend = private_backend
    (backend.root / "notes" / "shortcut.md").symlink_to(backend.root / "notes" / "secret.md")
    key = backend.key()
    result = _tool(backend, key, "read_document", {"path": "notes/shortcut.md"})
    assert result["status"] == "private"
    found = _tool(backend, key, "search_documents", {"query": SECRET[:9]})
    assert found["matches"] == []
    listing = _tool(backend, key, "list_documents", {})
    assert "notes/shortcut.md" not in [d["path"] for d in listing["documents"]]


def test_r86_an_unreadable_aiexclude_keeps_every_note_private(private_backend: Backend) -> None:
    backend = private_backend
    aiexclude = backend.root / ".aiexclude"
    aiexclude.unlink()
    os.mkfifo(aiexclude)  # a FIFO: reading it would block for ever; it fails closed at once
    key = backend.key()
    result = _tool(backend, key, "read_document", {"path": "notes/a.md"})
    assert result["status"] == "private"
    listing = _tool(backend, key, "list_documents", {})
    assert listing["documents"] == [] and listing["privateCount"] == len(NOTES) + 2
    aiexclude.unlink()
    aiexclude.write_text(AIEXCLUDE, encoding="utf-8")  # readable again: the rules are back
    assert _tool(backend, key, "read_document", {"path": "notes/a.md"})["status"] == "ok"


def test_r86_the_inline_route_refuses_a_private_note_and_records_nothing(
    private_backend: Backend, tmp_path: Path
) -> None:
    backend = private_backend
    key = backend.key()
    body = {
        "instruction": "make this shorter",
        "path": "notes/secret.md",
        "before": "# Secret plans\n",
        "selection": f"The {SECRET} code is 4411.",
        "after": "\n",
        "lines": [2, 2],
    }
    url = f"/v1/workspaces/{WORKSPACE}/inline"
    response = backend.client.post(url, json=body, headers=backend.headers(key))
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "private_note"
    assert SECRET not in response.text
    streamed = backend.client.post(
        url, json=body, headers={**backend.headers(key), "Accept": "text/event-stream"}
    )
    assert streamed.status_code == 403
    history = backend.client.get(url, headers=backend.headers(key)).json()
    assert history["requests"] == []
    _assert_nothing_kept(tmp_path)


def test_r86_the_model_is_never_sent_a_private_note(
    private_model_backend: Backend, scripted: ScriptedModel, tmp_path: Path
) -> None:
    backend = private_model_backend
    scripted.then(
        tool("read_active_note"),
        tool("read_document", json.dumps({"path": "notes/secret.md"})),
        tool("list_documents"),
        tool("search_documents", json.dumps({"query": SECRET[:7]})),
        text("That note is private, so I can't read it."),
    )
    key = backend.key()
    header = pointer_header("notes/secret.md", PRIVATE_NOTES["notes/secret.md"])
    reply = backend.turn("what do my plans say?", key=key, ambient=header)
    assert reply["ambient"] == {"status": "rejected", "reason": "private_note"}
    statuses = [call["result"]["status"] for call in reply["toolCalls"]]
    assert statuses == ["private", "private", "ok", "ok"]
    requests = scripted.chat_requests
    assert len(requests) == 5
    system = requests[0].body["messages"][0]["content"]
    assert "The open note is private" in system and "notes/secret.md" not in system
    for request in requests:
        assert SECRET.encode() not in request.raw
        assert NEVER_NAMED.encode() not in request.raw
    # What the model did see: the private notes were counted, never named.
    listing = json.loads(requests[3].body["messages"][-1]["content"])
    assert listing["privateCount"] == 2
    _assert_nothing_kept(tmp_path)
