"""Every route's answer, byte for byte, against a recorded transcript (issue 39: the wire once).

A fixed set of requests goes to a backend with a stepped clock and fixed file times;
each answer's status, media type and body are written down. What differs between runs
by design (a key session's secret, a proposal's or an inline request's id) is named by
the order it first appears, so the transcript is the same on every run, and any change
to the answers' bytes (a field's order, a space, a new field) shows as a diff.

Run with ``WIRE_BYTES_RECORD=1`` to write the transcript again, only when an answer is
meant to change.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import httpx

from tests.workers.conftest import Backend, pointer_header

TRANSCRIPT = Path(__file__).parents[1] / "data" / "wire_answers.txt"
RECORD_ENV = "WIRE_BYTES_RECORD"
FIXED_TIME = 1_796_000_000  # 2026-11-30, every note's modification time
SSE = {"Accept": "text/event-stream"}


class Transcript:
    """The answers in order, volatile values replaced by ``<name N>`` in order of appearance."""

    def __init__(self) -> None:
        self.entries: list[str] = []
        self._volatile: dict[str, str] = {}

    def name(self, value: str, kind: str) -> None:
        """``value`` varies between runs: write it as ``<kind N>`` wherever it appears."""
        if value not in self._volatile:
            count = sum(1 for name in self._volatile.values() if name.startswith(f"<{kind} "))
            self._volatile[value] = f"<{kind} {count + 1}>"

    def add(self, label: str, response: httpx.Response) -> Any:
        body = response.content
        parsed: Any = None
        if response.headers.get("content-type", "").startswith("application/json"):
            parsed = json.loads(body)
            for key in ("key", "id"):
                if isinstance(parsed, dict) and isinstance(parsed.get(key), str):
                    self.name(parsed[key], key)
            for proposal in parsed.get("proposals", []) if isinstance(parsed, dict) else []:
                self.name(proposal["id"], "id")
        text = body.decode("utf-8")
        for match in re.finditer(r'"id":"([^"]+)"', text):
            self.name(match.group(1), "id")
        etag = response.headers.get("etag")
        head = f"{response.status_code} {response.headers.get('content-type')}"
        self.entries.append(f"## {label}\n{head}\netag: {etag}\n{text}\n")
        return parsed

    def text(self) -> str:
        whole = "\n".join(self.entries)
        for value, name in sorted(self._volatile.items(), key=lambda item: -len(item[0])):
            whole = whole.replace(value, name)
        return whole


def _fix_times(root: Path) -> None:
    for path in root.rglob("*"):
        os.utime(path, (FIXED_TIME, FIXED_TIME), follow_symlinks=False)


def _record(backend: Backend) -> str:
    client, record = backend.client, Transcript()
    _fix_times(backend.root)
    record.add("health", client.get("/v1/health"))
    auth = backend.auth
    record.add(
        "new workspace", client.post("/v1/workspaces", json={"workspace": "w2"}, headers=auth)
    )
    record.add(
        "same workspace", client.post("/v1/workspaces", json={"workspace": "w2"}, headers=auth)
    )
    record.add("workspaces", client.get("/v1/workspaces", headers=auth))
    session = record.add(
        "key session", client.post("/v1/key-sessions", json={"workspace": "demo"}, headers=auth)
    )
    headers = backend.headers(session["key"])
    documents = "/v1/workspaces/demo/documents"
    record.add("listing", client.get(documents, headers=headers))
    record.add("listing under", client.get(documents, params={"prefix": "notes"}, headers=headers))
    record.add("document", client.get(f"{documents}/notes/a.md", headers=headers))
    record.add("missing document", client.get(f"{documents}/notes/none.md", headers=headers))
    record.add(
        "save",
        client.put(f"{documents}/notes/c.md", content=b"# Gamma\n- [ ] one\n", headers=headers),
    )
    record.add("bad path", client.get(f"{documents}/../x.md", headers=headers))
    text = (backend.root / "notes/a.md").read_text("utf-8")
    ambient = backend.headers(session["key"], pointer_header("notes/a.md", text))
    turn = {"conversation": "c1", "message": "add a task: buy bread"}
    answer = record.add("turn", client.post("/v1/agent/turns", json=turn, headers=ambient))
    record.add(
        "turn without a note",
        client.post(
            "/v1/agent/turns", json={"conversation": "c2", "message": "hello"}, headers=headers
        ),
    )
    with client.stream(
        "POST", "/v1/agent/turns", json={**turn, "conversation": "c3"}, headers={**ambient, **SSE}
    ) as streamed:
        streamed.read()
        record.add("streamed turn", streamed)
    record.add("delivery", client.get("/v1/agent/deliveries/c1", headers=headers))
    record.add("conversations", client.get("/v1/agent/conversations", headers=headers))
    record.add("conversation", client.get("/v1/agent/conversations/c1", headers=headers))
    proposal = answer["proposals"][0]["id"]
    record.add(
        "proposal applied",
        client.post(
            f"/v1/agent/conversations/c1/proposals/{proposal}",
            json={"outcome": "applied"},
            headers=headers,
        ),
    )
    record.add("conversation after", client.get("/v1/agent/conversations/c1", headers=headers))
    record.add("forget", client.delete("/v1/agent/conversations/c2", headers=headers))
    record.add("assistant", client.get("/v1/assistant", headers=auth))
    offline = {"baseUrl": None, "model": None}
    record.add("assistant offline", client.put("/v1/assistant", json=offline, headers=auth))
    verify = {"baseUrl": "http://127.0.0.1:1/v1", "model": None}
    record.add("verify refused", client.post("/v1/assistant/verify", json=verify, headers=auth))
    record.add(
        "assistant refused",
        client.put("/v1/assistant", json={"baseUrl": "ftp://x", "model": "m"}, headers=auth),
    )
    inline = {
        "instruction": "tick this",
        "path": "notes/a.md",
        "before": "# Alpha\n",
        "selection": "- [ ] buy milk\n",
        "after": "",
        "lines": [1, 2],
    }
    inline_url = "/v1/workspaces/demo/inline"
    inline_answer = record.add("inline", client.post(inline_url, json=inline, headers=headers))
    refusal = {**inline, "instruction": "traduis ce texte en latin"}
    record.add("inline refusal", client.post(inline_url, json=refusal, headers=headers))
    with client.stream(
        "POST",
        inline_url,
        json={**inline, "instruction": "make this a task list"},
        headers={**headers, **SSE},
    ) as streamed:
        streamed.read()
        record.add("streamed inline", streamed)
    record.add(
        "inline accepted",
        client.post(
            f"{inline_url}/{inline_answer['id']}", json={"outcome": "accepted"}, headers=headers
        ),
    )
    record.add("inline history", client.get(inline_url, params={"limit": "5"}, headers=headers))
    record.add("inline cleared", client.delete(inline_url, headers=headers))
    record.add("no access", client.get(documents, headers=auth))
    abilities = "/v1/assistant/abilities"
    record.add("abilities", client.get(abilities, params={"language": "ja"}, headers=auth))
    record.add(
        "abilities, unknown", client.get(abilities, params={"language": "x" * 5000}, headers=auth)
    )
    return record.text()


def test_issue39_every_routes_answer_bytes_are_the_recorded_ones(backend: Backend) -> None:
    recorded = _record(backend)
    if os.environ.get(RECORD_ENV):
        TRANSCRIPT.write_text(recorded, encoding="utf-8")
    assert recorded == TRANSCRIPT.read_text(encoding="utf-8")
