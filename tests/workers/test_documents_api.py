"""The document API: listing, reading, atomic saves and size limits (contract 3, R16)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bridge.contract import MAX_DOCUMENT_BYTES
from bridge.pointer import fingerprint
from tests.workers.conftest import NOTES, WORKSPACE, Backend
from workers import messages
from workers.document_files import cut_at_character
from workers.documents import Workspaces

DOCS = f"/v1/workspaces/{WORKSPACE}/documents"


def test_listing_is_sorted_with_fingerprints(backend: Backend) -> None:
    key = backend.key()
    response = backend.client.get(DOCS, headers=backend.headers(key))
    assert response.status_code == 200
    documents = response.json()["documents"]
    assert [d["path"] for d in documents] == sorted(NOTES)
    for document in documents:
        size, digest = fingerprint(NOTES[document["path"]])
        assert (document["bytes"], document["sha256"]) == (size, digest)
        assert document["modifiedAt"].endswith("Z")


def test_listing_prefix_filters(backend: Backend) -> None:
    key = backend.key()
    response = backend.client.get(DOCS, params={"prefix": "notes/"}, headers=backend.headers(key))
    assert [d["path"] for d in response.json()["documents"]] == ["notes/a.md", "notes/b.md"]


def test_get_returns_the_saved_text(backend: Backend) -> None:
    key = backend.key()
    response = backend.client.get(f"{DOCS}/notes/a.md", headers=backend.headers(key))
    assert response.status_code == 200
    assert response.text == NOTES["notes/a.md"]
    missing = backend.client.get(f"{DOCS}/notes/none.md", headers=backend.headers(key))
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == messages.DOCUMENT_NOT_FOUND.format(
        path="notes/none.md"
    )


def test_put_saves_and_answers_the_fingerprint(backend: Backend) -> None:
    key = backend.key()
    text = "# New\nノート ✓\n"
    response = backend.client.put(
        f"{DOCS}/deep/er/new.md", content=text.encode("utf-8"), headers=backend.headers(key)
    )
    assert response.status_code == 200
    size, digest = fingerprint(text)
    assert response.json() == {"path": "deep/er/new.md", "bytes": size, "sha256": digest}
    assert (backend.root / "deep/er/new.md").read_text(encoding="utf-8") == text
    # The atomic save leaves no temporary file behind, and the listing never shows one.
    assert os.listdir(backend.root / "deep/er") == ["new.md"]


def test_put_invalid_utf8_is_400_and_writes_nothing(backend: Backend) -> None:
    key = backend.key()
    response = backend.client.put(
        f"{DOCS}/notes/a.md", content=b"\xff\xfe broken", headers=backend.headers(key)
    )
    assert response.status_code == 400
    assert response.json()["error"]["message"] == messages.DOCUMENT_NOT_UTF8
    assert (backend.root / "notes/a.md").read_text(encoding="utf-8") == NOTES["notes/a.md"]


def test_put_over_ten_mib_is_413_and_writes_nothing(backend: Backend) -> None:
    key = backend.key()
    response = backend.client.put(
        f"{DOCS}/big.md", content=b"x" * (MAX_DOCUMENT_BYTES + 1), headers=backend.headers(key)
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"
    assert not (backend.root / "big.md").exists()


def test_put_over_ten_mib_without_content_length_is_413(backend: Backend) -> None:
    key = backend.key()

    def chunks() -> object:
        for _ in range(11):
            yield b"y" * (1024 * 1024)

    response = backend.client.put(
        f"{DOCS}/streamed.md", content=chunks(), headers=backend.headers(key)
    )
    assert response.status_code == 413
    assert not (backend.root / "streamed.md").exists()


def test_put_into_a_path_through_a_file_is_400(backend: Backend) -> None:
    key = backend.key()
    response = backend.client.put(
        f"{DOCS}/notes/a.md/child.md", content=b"x", headers=backend.headers(key)
    )
    assert response.status_code == 400
    assert (backend.root / "notes/a.md").is_file()


def test_workspace_roots_map_an_outside_folder(tmp_path: Path, backend: Backend) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "here.md").write_text("hello\n", encoding="utf-8")
    backend.settings.workspace_roots["mapped"] = outside
    key = backend.key("mapped")
    response = backend.client.get(
        "/v1/workspaces/mapped/documents/here.md", headers=backend.headers(key)
    )
    assert response.text == "hello\n"


@pytest.mark.parametrize(
    ("data", "limit", "expected"),
    [
        (b"abc", 2, b"ab"),
        ("aé".encode(), 2, b"a"),  # é is two bytes: never split it
        ("日本".encode(), 4, "日".encode()),
        ("日本".encode(), 2, b""),
        ("😀x".encode(), 4, "😀".encode()),
        (b"abc", 10, b"abc"),
    ],
)
def test_r26_cut_at_character_boundary(data: bytes, limit: int, expected: bytes) -> None:
    cut = cut_at_character(data, limit)
    assert cut == expected
    cut.decode("utf-8")  # always whole characters


def test_partial_read_reports_the_full_size(tmp_path: Path, backend: Backend) -> None:
    workspaces = Workspaces(backend.settings)
    read = workspaces.read(WORKSPACE, "notes/a.md", limit=5)
    assert read.partial and read.size == len(NOTES["notes/a.md"].encode())
    assert read.data == NOTES["notes/a.md"].encode()[:5]
