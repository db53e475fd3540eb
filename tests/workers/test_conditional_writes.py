"""Conditional writes on the document API: ETag, If-Match, If-None-Match (R53, contract 10)."""

from __future__ import annotations

import hashlib

from tests.workers.conftest import NOTES, WORKSPACE, Backend

DOCS = f"/v1/workspaces/{WORKSPACE}/documents"


def _tag(text: str) -> str:
    return '"' + hashlib.sha256(text.encode("utf-8")).hexdigest() + '"'


def test_get_answers_the_quoted_full_sha256_as_a_strong_etag(backend: Backend) -> None:
    """R53: the ETag is the quoted 64-hex SHA-256 of the bytes."""
    response = backend.client.get(f"{DOCS}/notes/a.md", headers=backend.headers(backend.key()))
    assert response.headers["ETag"] == _tag(NOTES["notes/a.md"])
    assert len(response.headers["ETag"]) == 64 + 2


def test_put_with_the_current_etag_saves_and_answers_the_new_one(backend: Backend) -> None:
    headers = backend.headers(backend.key())
    etag = backend.client.get(f"{DOCS}/notes/a.md", headers=headers).headers["ETag"]
    response = backend.client.put(
        f"{DOCS}/notes/a.md", content=b"new text\n", headers={**headers, "If-Match": etag}
    )
    assert response.status_code == 200
    assert response.headers["ETag"] == _tag("new text\n")
    assert (backend.root / "notes/a.md").read_text(encoding="utf-8") == "new text\n"


def test_put_with_a_stale_etag_is_412_note_changed_and_writes_nothing(backend: Backend) -> None:
    """R53: If-Match of a text the note no longer has: 412, the saved copy untouched."""
    headers = backend.headers(backend.key())
    stale = _tag("what the note was before\n")
    response = backend.client.put(
        f"{DOCS}/notes/a.md", content=b"overwrite\n", headers={**headers, "If-Match": stale}
    )
    assert response.status_code == 412
    assert response.json()["error"]["code"] == "note_changed"
    assert (backend.root / "notes/a.md").read_text(encoding="utf-8") == NOTES["notes/a.md"]
    missing = backend.client.put(
        f"{DOCS}/notes/none.md", content=b"x", headers={**headers, "If-Match": stale}
    )
    assert missing.status_code == 412
    assert not (backend.root / "notes/none.md").exists()


def test_a_weak_etag_never_matches_strongly(backend: Backend) -> None:
    headers = backend.headers(backend.key())
    weak = "W/" + _tag(NOTES["notes/a.md"])
    response = backend.client.put(
        f"{DOCS}/notes/a.md", content=b"x", headers={**headers, "If-Match": weak}
    )
    assert response.status_code == 412


def test_if_none_match_star_creates_only_a_new_note(backend: Backend) -> None:
    """R53: If-None-Match: * on an existing note is 412 note_exists; a new path is created."""
    headers = {**backend.headers(backend.key()), "If-None-Match": "*"}
    refused = backend.client.put(f"{DOCS}/notes/a.md", content=b"x", headers=headers)
    assert refused.status_code == 412
    assert refused.json()["error"]["code"] == "note_exists"
    assert (backend.root / "notes/a.md").read_text(encoding="utf-8") == NOTES["notes/a.md"]
    created = backend.client.put(f"{DOCS}/notes/fresh.md", content=b"fresh\n", headers=headers)
    assert created.status_code == 200
    assert (backend.root / "notes/fresh.md").read_text(encoding="utf-8") == "fresh\n"
