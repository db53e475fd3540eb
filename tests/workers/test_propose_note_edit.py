"""The propose_note_edit tool and proposals in turns (R50, R54, contract 10)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bridge.agent import parse_sse
from bridge.proposals import apply_edits
from bridge.wire import ProposalEdit
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers import messages

NOTE = "notes/a.md"


def _propose(backend: Backend, arguments: dict[str, Any], *, ambient: bool = True) -> Any:
    header = pointer_header(NOTE, NOTES[NOTE]) if ambient else None
    command = f"/tool propose_note_edit {json.dumps(arguments)}"
    return backend.turn(command, key=backend.key(), ambient=header)


def test_r50_a_proposal_names_its_base_edits_and_summary_and_writes_nothing(
    backend: Backend,
) -> None:
    text = NOTES[NOTE]
    reply = _propose(
        backend,
        {"edits": [{"oldText": "- [ ] buy milk", "newText": "- [x] buy milk"}], "summary": "Tick"},
    )
    (call,) = reply["toolCalls"]
    assert call["result"]["status"] == "proposed"
    proposal = call["result"]["proposal"]
    data = text.encode("utf-8")
    assert proposal["path"] == NOTE
    assert proposal["base"] == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    start = text.index("- [ ] buy milk")
    assert proposal["edits"] == [{"start": start, "end": start + 14, "text": "- [x] buy milk"}]
    assert proposal["summary"] == "Tick"
    assert reply["proposals"] == [proposal]  # contract 10: the turn's JSON holds it too
    edits = [
        ProposalEdit(start=e["start"], end=e["end"], text=e["text"]) for e in proposal["edits"]
    ]
    assert apply_edits(text, edits) == text.replace("- [ ]", "- [x]")
    assert (backend.root / NOTE).read_text(encoding="utf-8") == text  # never applied here


def test_r54_an_old_text_must_occur_exactly_once(backend: Backend) -> None:
    twice = _propose(backend, {"edits": [{"oldText": "t", "newText": "x"}]})
    result = twice["toolCalls"][0]["result"]
    assert result["status"] == "invalid_argument"
    assert f"occurs {NOTES[NOTE].count('t')} times" in result["message"]
    assert twice["proposals"] == []
    never = _propose(backend, {"edits": [{"oldText": "gamma", "newText": "x"}]})
    assert "occurs 0 times" in never["toolCalls"][0]["result"]["message"]
    empty = _propose(backend, {"edits": [{"oldText": "", "newText": "x"}]})
    assert empty["toolCalls"][0]["result"]["message"] == messages.EDIT_OLD_TEXT_EMPTY
    overlap = _propose(
        backend,
        {"edits": [{"oldText": "buy milk", "newText": "x"}, {"oldText": "milk", "newText": "y"}]},
    )
    assert overlap["toolCalls"][0]["result"]["message"] == messages.EDITS_OVERLAP


def test_r54_same_access_rules_as_read_document(backend: Backend) -> None:
    edits = [{"oldText": "beta", "newText": "BETA"}]
    none = _propose(backend, {"edits": edits}, ambient=False)
    assert none["toolCalls"][0]["result"]["status"] == "no_active_note"
    named = _propose(backend, {"path": "notes/b.md", "edits": edits}, ambient=False)
    assert named["proposals"][0]["path"] == "notes/b.md"
    outside = _propose(backend, {"path": "../x.md", "edits": edits})
    assert outside["toolCalls"][0]["result"]["status"] == "invalid_argument"
    missing = _propose(backend, {"path": "notes/none.md", "edits": edits})
    assert missing["toolCalls"][0]["result"]["message"] == messages.DOCUMENT_NOT_FOUND.format(
        path="notes/none.md"
    )
    response = backend.client.post(
        "/v1/agent/turns",
        json={
            "conversation": "c1",
            "message": f"/tool propose_note_edit {json.dumps({'edits': edits})}",
        },
        headers=backend.headers(None),
    )
    assert response.json()["toolCalls"][0]["result"]["status"] == "access_denied"


def test_r50_a_streamed_turn_sends_a_proposal_event_before_done(backend: Backend) -> None:
    arguments = {"edits": [{"oldText": "- [ ] buy milk", "newText": "- [x] buy milk"}]}
    headers = {
        **backend.headers(backend.key(), pointer_header(NOTE, NOTES[NOTE])),
        "Accept": "text/event-stream",
    }
    with backend.client.stream(
        "POST",
        "/v1/agent/turns",
        json={"conversation": "s1", "message": f"/tool propose_note_edit {json.dumps(arguments)}"},
        headers=headers,
    ) as response:
        lines = (line.encode() for line in response.iter_lines())
        events = [(name, json.loads(data)) for name, data in parse_sse(lines)]
    names = [name for name, _data in events]
    assert names.index("proposal") < names.index("done")
    proposal = events[names.index("proposal")][1]
    assert events[-1][1]["proposals"] == [proposal]
