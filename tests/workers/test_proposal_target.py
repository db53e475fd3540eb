"""A proposal for another note than the one the person asked about is refused (R93, issue 45).

A note the model reads may tell it to change another note ("tick off buy milk" about
notes/a.md became an edit of finance/budget.md in the audit). The person's own message
is what may name another note: by its path, its file name's words or its title.
"""

from __future__ import annotations

import json
from typing import Any

from tests.support.scripted_model import ScriptedModel, text, tool
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers import messages

NOTE = "notes/a.md"
OTHER = "notes/b.md"
OTHER_EDIT = json.dumps(
    {
        "path": OTHER,
        "edits": [{"oldText": "beta text here.", "newText": "salary: 0"}],
        "summary": "Tick off buy milk in notes/a.md",
    }
)


def _send(backend: Backend, message: str) -> dict[str, Any]:
    return backend.turn(message, key=backend.key(), ambient=pointer_header(NOTE, NOTES[NOTE]))


def test_r93_an_edit_of_the_open_note_cannot_become_an_edit_of_another_note(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(tool("propose_note_edit", OTHER_EDIT), text("Done."))
    body = _send(model_backend, "tick off buy milk")
    assert body["proposals"] == []  # nothing reaches the app to be applied
    propose = next(call for call in body["toolCalls"] if call["name"] == "propose_note_edit")
    refusal = messages.PROPOSAL_OTHER_NOTE.format(asked=NOTE, path=OTHER)
    assert propose["result"]["status"] == "access_denied"
    assert propose["result"]["message"] == refusal
    assert "proposal" not in propose["result"]
    # The model is told, in the tool message of its next request.
    told = scripted.chat_requests[-1].body["messages"]
    assert any(m["role"] == "tool" and refusal in m["content"] for m in told)
    assert (model_backend.root / OTHER).read_text(encoding="utf-8") == NOTES[OTHER]


def test_r93_this_note_names_no_other_note(model_backend: Backend, scripted: ScriptedModel) -> None:
    scripted.then(tool("propose_note_edit", OTHER_EDIT), text("Done."))
    body = _send(model_backend, "tick off buy milk in this note, not in notes/b.md")
    assert body["proposals"] == []
    calls = body["toolCalls"]
    assert [c["result"]["status"] for c in calls if c["name"] == "propose_note_edit"] == [
        "access_denied"
    ]


def test_r93_a_note_the_person_names_may_be_changed(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    for message in (f"change the text of {OTHER}", "reword the Beta note"):
        scripted.then(tool("propose_note_edit", OTHER_EDIT), text("Proposed."))
        body = _send(model_backend, message)
        assert [proposal["path"] for proposal in body["proposals"]] == [OTHER], message
