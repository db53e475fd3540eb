"""A conversation keeps that a proposal was made and whether it was applied, never its text (R50).

The contract's extension: ``POST /v1/agent/conversations/{conversation}/proposals/{id}``
with ``{"outcome": "applied"|"discarded"}``, and ``proposals`` on each kept message.
"""

from __future__ import annotations

from typing import Any

from tests.workers.conftest import NOTES, Backend, pointer_header

NOTE = "notes/a.md"


def _tick(backend: Backend, key: str, conversation: str = "c1") -> dict[str, Any]:
    reply = backend.turn(
        "tick off buy milk",
        key=key,
        ambient=pointer_header(NOTE, NOTES[NOTE]),
        conversation=conversation,
    )
    assert len(reply["proposals"]) == 1, reply
    proposal: dict[str, Any] = reply["proposals"][0]
    return proposal


def _messages(backend: Backend, key: str, conversation: str = "c1") -> list[dict[str, Any]]:
    response = backend.client.get(
        f"/v1/agent/conversations/{conversation}", headers=backend.headers(key)
    )
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["messages"]
    return found


def _report(
    backend: Backend, key: str | None, proposal: str, body: object, conversation: str = "c1"
) -> Any:
    return backend.client.post(
        f"/v1/agent/conversations/{conversation}/proposals/{proposal}",
        json=body,
        headers=backend.headers(key),
    )


def test_r50_a_kept_reply_lists_its_proposal_pending_with_path_and_summary_only(
    backend: Backend,
) -> None:
    key = backend.key()
    proposal = _tick(backend, key)
    user, assistant = _messages(backend, key)
    assert user["proposals"] == []
    assert assistant["proposals"] == [
        {
            "id": proposal["id"],
            "path": NOTE,
            "summary": proposal["summary"],
            "outcome": "pending",
        }
    ]
    kept = str(assistant)
    assert "- [x] buy milk" not in kept  # never the proposed text
    assert proposal["base"]["sha256"] not in kept


def test_r50_applied_and_discarded_are_kept_and_repeating_a_report_is_harmless(
    backend: Backend,
) -> None:
    key = backend.key()
    first = _tick(backend, key)
    second = _tick(backend, key)
    applied = _report(backend, key, first["id"], {"outcome": "applied"})
    assert applied.status_code == 200, applied.text
    assert applied.json() == {
        "id": first["id"],
        "path": NOTE,
        "summary": first["summary"],
        "outcome": "applied",
    }
    again = _report(backend, key, first["id"], {"outcome": "applied"})
    assert again.status_code == 200
    assert again.json() == applied.json()
    assert _report(backend, key, second["id"], {"outcome": "discarded"}).status_code == 200
    outcomes = [[(p["id"], p["outcome"]) for p in m["proposals"]] for m in _messages(backend, key)]
    assert outcomes == [[], [(first["id"], "applied")], [], [(second["id"], "discarded")]]


def test_r50_an_unknown_id_or_another_conversations_id_is_404(backend: Backend) -> None:
    key = backend.key()
    proposal = _tick(backend, key, conversation="c1")
    unknown = _report(backend, key, "0123456789abcdef", {"outcome": "applied"})
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "proposal_not_found"
    elsewhere = _report(backend, key, proposal["id"], {"outcome": "applied"}, conversation="c2")
    assert elsewhere.status_code == 404
    assert _messages(backend, key)[1]["proposals"][0]["outcome"] == "pending"


def test_r50_reports_follow_the_conversation_routes_key_session_rules(backend: Backend) -> None:
    key = backend.key()
    proposal = _tick(backend, key)
    assert _report(backend, None, proposal["id"], {"outcome": "applied"}).status_code == 403
    other = backend.key("other")
    assert _report(backend, other, proposal["id"], {"outcome": "applied"}).status_code == 404
    assert _messages(backend, key)[1]["proposals"][0]["outcome"] == "pending"


def test_r50_a_bad_outcome_is_a_plain_400_and_changes_nothing(backend: Backend) -> None:
    key = backend.key()
    proposal = _tick(backend, key)
    for body in ({"outcome": "pending"}, {"outcome": "maybe"}, {}, {"outcome": 1}, ["applied"]):
        response = _report(backend, key, proposal["id"], body)
        assert response.status_code == 400, body
        assert response.json()["error"]["message"]
    assert _messages(backend, key)[1]["proposals"][0]["outcome"] == "pending"


def test_r50_clearing_the_conversation_forgets_its_proposals(backend: Backend) -> None:
    key = backend.key()
    proposal = _tick(backend, key)
    cleared = backend.client.delete("/v1/agent/conversations/c1", headers=backend.headers(key))
    assert cleared.status_code == 204
    assert _report(backend, key, proposal["id"], {"outcome": "applied"}).status_code == 404


def test_r80_undone_is_kept_and_a_later_apply_replaces_it(backend: Backend) -> None:
    """Ctrl+Z after Apply is reported as ``undone`` (contract 10's extension)."""
    key = backend.key()
    proposal = _tick(backend, key)
    for outcome in ("applied", "undone"):
        response = _report(backend, key, proposal["id"], {"outcome": outcome})
        assert response.status_code == 200, response.text
        assert response.json()["outcome"] == outcome
    assert _messages(backend, key)[1]["proposals"][0]["outcome"] == "undone"
    assert _report(backend, key, proposal["id"], {"outcome": "applied"}).status_code == 200
    assert _messages(backend, key)[1]["proposals"][0]["outcome"] == "applied"
