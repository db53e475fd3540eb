"""Contract 13: the inline route, its outcome and history, on both assistants (R70, R73)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from bridge.agent import parse_sse
from bridge.contract import MAX_AROUND_BYTES, MAX_INSTRUCTION_CHARS, MAX_SELECTION_BYTES
from tests.support.scripted_model import ScriptedModel, error, text
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers.schema import inline_requests

SSE = {"Accept": "text/event-stream"}
PLANTED = "zebracorn"
"""A word only the sent slice holds: it must never be kept (R73)."""


def _body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "instruction": "tick these",
        "path": "notes/a.md",
        "before": f"# Alpha {PLANTED}\n",
        "selection": "- [ ] buy milk\n",
        "after": f"{PLANTED} after\n",
        "lines": [1, 3],
    }
    return {**body, **changes}


def _post(backend: Backend, key: str | None, body: dict[str, Any], **headers: str) -> Any:
    return backend.client.post(
        "/v1/workspaces/demo/inline", json=body, headers={**backend.headers(key), **headers}
    )


def _events(backend: Backend, key: str, body: dict[str, Any]) -> list[tuple[str, Any]]:
    with backend.client.stream(
        "POST", "/v1/workspaces/demo/inline", json=body, headers={**backend.headers(key), **SSE}
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = (line.encode() for line in response.iter_lines())
        return [(name, json.loads(data)) for name, data in parse_sse(lines)]


def _history(backend: Backend, key: str, query: str = "") -> Any:
    return backend.client.get(f"/v1/workspaces/demo/inline{query}", headers=backend.headers(key))


def test_r70_the_offline_assistant_answers_json_with_the_replacement(backend: Backend) -> None:
    key = backend.key()
    response = _post(backend, key, _body())
    assert response.status_code == 200, response.text
    answer = response.json()
    assert set(answer) == {"id", "replacement", "summary", "kind", "assistant"}
    assert answer["replacement"] == "- [x] buy milk\n"
    assert answer["kind"] == "edit" and answer["summary"] == "Ticked the selected tasks."
    assert answer["assistant"] == {"kind": "offline", "name": "offline"}


def test_r70_r71_the_stream_sends_pieces_then_done_with_the_json_answer(backend: Backend) -> None:
    key = backend.key()
    selection = "".join(f"item number {n} of the list\n" for n in range(12))
    events = _events(backend, key, _body(instruction="make this a task list", selection=selection))
    names = [name for name, _ in events]
    assert names[-1] == "done" and names.count("delta") > 1 and set(names) == {"delta", "done"}
    pieces = "".join(data["text"] for name, data in events if name == "delta")
    done = events[-1][1]
    assert pieces == done["replacement"] and done["replacement"].count("- [ ] ") == 12


def test_r70_a_refusal_is_one_sentence_with_an_empty_replacement(backend: Backend) -> None:
    key = backend.key()
    answer = _post(backend, key, _body(instruction="traduis ce texte en latin")).json()
    assert answer["kind"] == "refusal" and answer["replacement"] == ""
    assert answer["summary"].startswith("Hors ligne") and answer["summary"].count(".") == 1


def test_contract13_sizes_and_refusals_are_exact(backend: Backend) -> None:
    key = backend.key()

    def code(**changes: Any) -> tuple[int, str | None]:
        response = _post(backend, key, _body(**changes))
        body = response.json()
        return response.status_code, body.get("error", {}).get("code")

    assert code(instruction="")[1] == "invalid_argument"
    assert code(instruction="x" * (MAX_INSTRUCTION_CHARS + 1)) == (400, "invalid_argument")
    assert code(instruction="é" * MAX_INSTRUCTION_CHARS)[0] == 200  # code points, not bytes
    assert code(selection="a" * MAX_SELECTION_BYTES)[0] == 200
    assert code(selection="a" * (MAX_SELECTION_BYTES + 1)) == (400, "context_too_large")
    over_by_two = "é" * (MAX_SELECTION_BYTES // 2 + 1)  # two bytes a character
    assert code(selection=over_by_two) == (400, "context_too_large")
    assert code(before="b" * (MAX_AROUND_BYTES - 1) + "\n")[0] == 200
    assert code(before="b" * MAX_AROUND_BYTES + "\n") == (400, "context_too_large")
    over_by_one = "語" * (MAX_AROUND_BYTES // 3 + 1)  # three bytes a character
    assert code(after=over_by_one) == (400, "context_too_large")
    assert code(path="../secret.md") == (400, "invalid_path")
    assert code(lines=[0, 3]) == (400, "invalid_argument")
    assert code(lines=[4, 3]) == (400, "invalid_argument")
    assert code(lines=[1]) == (400, "invalid_argument")
    assert code(lines=[1, 2**31]) == (400, "invalid_argument")  # kept in an SQL integer
    assert code(lines=[1, 2**31 - 1])[0] == 200
    assert code(instruction="   ") == (400, "invalid_argument")
    assert code(path="notes/never-written.md")[0] == 200  # the note is not read


def test_contract13_workspace_access_is_the_document_apis(backend: Backend) -> None:
    assert _post(backend, None, _body()).status_code == 403
    other = backend.key("other")
    assert _post(backend, other, _body()).status_code == 403
    assert _post(backend, "not-a-key", _body()).status_code == 403
    unauthorised = backend.client.post("/v1/workspaces/demo/inline", json=_body())
    assert unauthorised.status_code == 401


def test_r73_outcomes_and_history_never_hold_note_text(backend: Backend) -> None:
    key = backend.key()
    first = _post(backend, key, _body()).json()["id"]
    backend.clock.now = backend.clock.now.replace(minute=5)
    second = _post(backend, key, _body(instruction="sort", lines=[2, 3])).json()["id"]
    report = backend.client.post(
        f"/v1/workspaces/demo/inline/{first}",
        json={"outcome": "accepted"},
        headers=backend.headers(key),
    )
    assert report.status_code == 200 and report.json() == {"id": first, "outcome": "accepted"}
    history = _history(backend, key)
    assert history.status_code == 200
    requests = history.json()["requests"]
    assert [item["id"] for item in requests] == [second, first]  # newest first
    assert requests[1] == {
        "id": first,
        "instruction": "tick these",
        "path": "notes/a.md",
        "lines": [1, 3],
        "bytes": len(_body()["before"]) + len(_body()["selection"]) + len(_body()["after"]),
        "assistant": {"kind": "offline", "name": "offline"},
        "at": "2026-11-29T19:00:00.000Z",
        "outcome": "accepted",
    }
    assert requests[0]["outcome"] == "pending"
    assert [item["id"] for item in _history(backend, key, "?limit=1").json()["requests"]] == [
        second
    ]
    assert PLANTED not in history.text and "buy milk" not in history.text
    state = backend.client.app.state.backend  # type: ignore[attr-defined]
    with state.database.reading() as connection:
        rows = connection.execute(select(inline_requests)).mappings().all()
    assert len(rows) == 2
    assert all(PLANTED not in str(value) for row in rows for value in row.values())


def test_contract13_outcome_and_history_refusals(backend: Backend) -> None:
    key = backend.key()
    request_id = _post(backend, key, _body()).json()["id"]

    def report(target: str, outcome: Any) -> tuple[int, str | None]:
        response = backend.client.post(
            f"/v1/workspaces/demo/inline/{target}",
            json={"outcome": outcome},
            headers=backend.headers(key),
        )
        return response.status_code, response.json().get("error", {}).get("code")

    assert report("no-such-id", "accepted") == (404, "inline_not_found")
    assert report(request_id, "applied") == (400, "invalid_argument")
    assert report(request_id, "failed") == (400, "invalid_argument")
    assert report(request_id, "rejected") == (200, None)
    # Another workspace's key cannot see or report it.
    other = backend.key("other")
    response = backend.client.post(
        f"/v1/workspaces/other/inline/{request_id}",
        json={"outcome": "accepted"},
        headers=backend.headers(other),
    )
    assert response.status_code == 404
    # R93: 4,301 digits pass Python's int() limit; the route refuses them as any bad number.
    for query in ("?limit=0", "?limit=101", "?limit=x", "?limit=" + "1" * 4_301):
        refused = _history(backend, key, query)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_argument"
    cleared = backend.client.delete("/v1/workspaces/demo/inline", headers=backend.headers(key))
    assert cleared.status_code == 204 and _history(backend, key).json() == {"requests": []}


def test_r70_the_ambient_header_and_the_delivery_row_are_untouched(backend: Backend) -> None:
    key = backend.key()
    header = pointer_header("notes/a.md", NOTES["notes/a.md"])
    backend.turn("hello", key=key, ambient=header)
    stored = backend.delivery(key)
    assert stored is not None and stored["ambient_path"] == "notes/a.md"
    other = pointer_header("notes/b.md", NOTES["notes/b.md"])
    response = _post(backend, key, _body(), **{"X-Ambient-Note": other})
    assert response.status_code == 200 and "ambient" not in response.json()
    assert backend.delivery(key) == stored


def test_r70_the_model_is_asked_once_streamed_capped_without_tools(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("- [x] buy milk\n", pieces=["- [x] ", "buy ", "milk\n"]))
    key = model_backend.key()
    events = _events(model_backend, key, _body())
    assert [name for name, _ in events] == ["delta", "delta", "delta", "done"]
    done = events[-1][1]
    assert done["replacement"] == "- [x] buy milk\n" and done["kind"] == "edit"
    assert done["assistant"] == {"kind": "model", "name": "scripted-model"}
    (asked,) = scripted.chat_requests
    assert asked.body["stream"] is True and 0 < asked.body["max_tokens"] <= 4096
    assert "tools" not in asked.body and "tool_choice" not in asked.body
    said = json.dumps(asked.body["messages"], ensure_ascii=False)
    assert "- [ ] buy milk" in said and "tick these" in said and "notes/a.md" in said
    assert "It has two sentences" not in said  # the saved note is never read (R69)


def test_r70_the_json_answer_collects_the_models_stream(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("```markdown\n# Alpha\n```"))
    key = model_backend.key()
    answer = _post(model_backend, key, _body(instruction="make a heading")).json()
    assert answer["replacement"] == "# Alpha"  # a fence around the whole answer is dropped
    (asked,) = scripted.chat_requests
    assert asked.body["stream"] is True


def test_r36_r73_a_provider_failure_is_502_and_kept_as_failed(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(error(500), error(500))
    key = model_backend.key()
    response = _post(model_backend, key, _body())
    assert response.status_code == 502
    assert response.json()["error"]["code"] == "model_unavailable"
    events = _events(model_backend, key, _body())
    assert events[-1][0] == "error" and events[-1][1]["error"]["code"] == "model_unavailable"
    outcomes = [item["outcome"] for item in _history(model_backend, key).json()["requests"]]
    assert outcomes == ["failed", "failed"]
