"""R56, R83: looking for a note named by its words does not read every note at every turn.

A request that does not point at the open note looks at each note's title. The notes
are counted as the document layer opens them, through the real route: an unchanged
note is not opened again at the next turn, and an edited note's new title names it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

import workers.documents
from tests.workers.conftest import TestClient, client_with_key, pointer_header

OPEN = "# Today\n- [ ] call Sam\n締め切りは12月5日。\n"
OTHERS = {f"notes/other-{n}.md": f"# Topic number {n}\nSome words.\n" for n in range(6)}
_CONVERSATIONS = itertools.count()


@pytest.fixture
def api(tmp_path: Any) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path) as (client, key):
        for path, text in {"inbox/today.md": OPEN, **OTHERS}.items():
            put(client, key, path, text)
        yield client, key


def put(client: TestClient, key: str, path: str, text: str) -> None:
    response = client.put(
        f"/v1/workspaces/demo/documents/{path}",
        content=text.encode(),
        headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
    )
    assert response.status_code in (200, 201), response.text


def turn(api: tuple[TestClient, str], message: str) -> dict[str, Any]:
    client, key = api
    response = client.post(
        "/v1/agent/turns",
        json={"conversation": f"scan-{next(_CONVERSATIONS)}", "message": message},
        headers={
            "Authorization": "Bearer test-device-token",
            "X-Key-Session": key,
            "X-Ambient-Note": pointer_header("inbox/today.md", OPEN) or "",
        },
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every file the document layer opens to read, in order (the real open)."""
    names: list[str] = []
    real = workers.documents.open_for_reading

    def counted(folder: int, name: str) -> int:
        names.append(name)
        return real(folder, name)

    monkeypatch.setattr(workers.documents, "open_for_reading", counted)
    return names


def test_r83_unchanged_notes_are_not_read_again_at_the_next_turn(
    api: tuple[TestClient, str], opened: list[str]
) -> None:
    first = turn(api, "締め切りはいつ")
    assert first["toolCalls"][0]["name"] == "read_active_note"
    others = {path.rsplit("/", 1)[1] for path in OTHERS}
    assert others <= set(opened)  # the first turn reads each title once
    opened.clear()
    for _turn in range(3):
        assert turn(api, "締め切りはいつ")["reply"] == first["reply"]
    assert not others & set(opened), opened


def test_r56_an_edited_note_is_named_by_its_new_title(
    api: tuple[TestClient, str], opened: list[str]
) -> None:
    client, key = api
    assert turn(api, "summarise the quarterly review")["toolCalls"][0]["name"] != "read_document"
    put(client, key, "notes/other-3.md", "# Quarterly review\nThe numbers.\n")
    opened.clear()
    named = turn(api, "summarise the quarterly review")
    assert named["toolCalls"][0]["name"] == "read_document"
    assert named["toolCalls"][0]["arguments"] == {"path": "notes/other-3.md"}
    assert "other-3.md" in opened
    assert not {"other-0.md", "other-1.md"} & set(opened)  # the unchanged ones stay unread
    old_title = turn(api, "summarise topic number 3")  # the other "Topic number" notes fit
    assert "notes/other-2.md" in old_title["reply"]
    assert "other-3.md" not in str(old_title)
