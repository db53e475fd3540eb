"""The model assistant against a scripted OpenAI-compatible server: what it sends (R31–R34).

Each test scripts the model's answers on a real loopback server and reads back the
requests the backend's openai SDK client made.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.scripted_model import ScriptedModel, error, text, tool
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers.model.stops import EMPTY_REPLY

NOTE = "notes/a.md"


def _send(
    backend: Backend, message: str, *, on_screen: str = NOTES[NOTE], **changes: Any
) -> dict[str, Any]:
    key = changes.pop("key", None) or backend.key()
    ambient = pointer_header(NOTE, on_screen, **changes)
    return backend.turn(message, key=key, ambient=ambient)


def _note_lines() -> list[str]:
    return [line for line in NOTES[NOTE].splitlines() if len(line) > 4]


def test_r31_first_request_names_the_note_and_holds_no_note_text(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("Hello."))
    body = _send(model_backend, "hello")
    assert body["reply"] == "Hello."
    assert body["assistant"] == {"kind": "model", "model": "scripted-model"}
    [request] = scripted.chat_requests
    system = request.body["messages"][0]
    assert system["role"] == "system"
    assert NOTE in system["content"]
    assert "edit view" in system["content"]
    assert f"{len(NOTES[NOTE].encode())} bytes" in system["content"]
    assert "read_active_note" in system["content"]
    raw = request.raw.decode()
    for line in _note_lines():  # R31: not a line of the note anywhere in the request
        assert line not in raw
        assert json.dumps(line)[1:-1] not in raw


def test_r32_r54_r56_exactly_the_five_tools_with_contract_argument_names(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("ok"))
    _send(model_backend, "hello")
    request = scripted.chat_requests[0].body
    assert request["tool_choice"] == "auto"  # the product lets the model choose
    tools = {t["function"]["name"]: t["function"]["parameters"] for t in request["tools"]}
    assert all(t["type"] == "function" for t in request["tools"])
    assert set(tools) == {
        "read_active_note",
        "read_document",
        "list_documents",
        "search_documents",  # R56
        "propose_note_edit",
    }
    assert set(tools["read_active_note"]["properties"]) == {"maxBytes"}
    assert set(tools["read_document"]["properties"]) == {"path", "maxBytes"}
    assert tools["read_document"]["required"] == ["path"]
    assert set(tools["list_documents"]["properties"]) == {"prefix"}
    assert set(tools["search_documents"]["properties"]) == {"query", "prefix"}
    assert tools["search_documents"]["required"] == ["query"]
    assert set(tools["propose_note_edit"]["properties"]) == {"path", "edits", "summary"}
    assert tools["propose_note_edit"]["required"] == ["edits"]


def test_r31_selection_is_given_as_lines_when_the_saved_copy_matches(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("ok"), text("ok"))
    note = NOTES[NOTE]
    second_line = note.index("alpha")
    _send(model_backend, "explain this", selection={"anchor": second_line, "head": len(note)})
    system = scripted.chat_requests[0].body["messages"][0]["content"]
    assert "selected lines 2–3" in system
    # A saved copy that differs from the pointer: offsets, never a guess at lines.
    _send(
        model_backend,
        "explain this",
        selection={"anchor": 3, "head": 9},
        on_screen=note + "typed since the save\n",
    )
    system = scripted.chat_requests[1].body["messages"][0]["content"]
    assert "characters 3–9" in system
    assert "selected lines" not in system
    assert "on line" not in system


def test_r32_r75_the_backend_reads_the_note_and_sends_it_back_as_a_tool_message(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    """A note-only ask: the backend's own read, recorded, then one request for the answer."""
    scripted.then(text("It is about alpha."))
    body = _send(model_backend, "summarise this")
    assert body["reply"] == "It is about alpha."
    assert [c["name"] for c in body["toolCalls"]] == ["read_active_note"]
    assert body["toolCalls"][0]["arguments"] == {}  # no maxBytes: the backend read it whole
    assert body["toolCalls"][0]["result"]["text"] == NOTES[NOTE]
    [request] = scripted.chat_requests  # R75: one model request
    assert "tools" not in request.body and "tool_choice" not in request.body
    assistant, result = request.body["messages"][-2:]
    assert assistant["role"] == "assistant"
    assert assistant["content"] == ""  # llama.cpp's server answers 500 to null
    assert assistant["tool_calls"][0]["function"]["name"] == "read_active_note"
    assert result["role"] == "tool"
    assert result["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert json.loads(result["content"])["text"] == NOTES[NOTE]
    # R31: the note's text reached the model only as that tool result …
    before = json.dumps(request.body["messages"][:-1])
    assert not any(line in before for line in _note_lines())
    # … and R75: the model is shown that text as it is, never escaped.
    shown = request.prompt.split("<|im_start|>tool\n", 1)[1]
    assert NOTES[NOTE] in shown
    assert "&#34;" not in request.prompt and "\\n" not in shown


def test_r75_an_edit_ask_reads_then_offers_only_the_edit_tool_by_name(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    old, new = "- [ ] buy milk", "- [x] buy milk"
    edit = json.dumps({"edits": [{"oldText": old, "newText": new}], "summary": "Tick it"})
    scripted.then(tool("propose_note_edit", edit), text("Ticked, once you apply it."))
    body = _send(model_backend, "tick off buy milk")
    assert [c["name"] for c in body["toolCalls"]] == ["read_active_note", "propose_note_edit"]
    [proposal] = body["proposals"]
    assert proposal["path"] == NOTE and proposal["summary"] == "Tick it"
    assert body["reply"] == "Ticked, once you apply it."
    propose, answer = (request.body for request in scripted.chat_requests)
    assert [t["function"]["name"] for t in propose["tools"]] == ["propose_note_edit"]
    assert propose["tool_choice"] == {"type": "function", "function": {"name": "propose_note_edit"}}
    # The note's lines that occur once are the only oldText the call can take.
    edits = propose["tools"][0]["function"]["parameters"]["properties"]["edits"]
    assert edits["maxItems"] == 1
    assert edits["items"]["properties"]["oldText"]["enum"] == [
        line for line in NOTES[NOTE].splitlines() if line.strip()
    ]
    assert "tools" not in answer
    assert [m["role"] for m in answer["messages"]][-4:] == ["assistant", "tool"] * 2


def test_r32_unparseable_arguments_get_invalid_argument(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(
        tool("read_document", '{"path": '),
        tool("read_active_note", '{"maxBytes": "lots"}'),
        tool("read_document", "[1, 2]"),  # not twice in a row: that ends the tools (R57)
        text("Sorry."),
    )
    body = _send(model_backend, "read it")
    statuses = [c["result"]["status"] for c in body["toolCalls"]]
    assert statuses == ["invalid_argument"] * 3
    assert body["toolCalls"][0]["arguments"] == {}
    assert all(c["result"]["message"] for c in body["toolCalls"])
    assert body["reply"] == "Sorry."


def test_r32_unknown_tool_name_gets_an_error_result_and_the_turn_goes_on(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(tool("delete_everything", "{}"), text("I can't do that."))
    body = _send(model_backend, "run the cleanup tool")
    [call] = body["toolCalls"]
    assert call["name"] == "delete_everything"
    assert call["result"]["status"] == "invalid_argument"
    assert "read_active_note" in call["result"]["message"]
    assert body["reply"] == "I can't do that."


def test_r32_content_null_is_an_empty_text_not_a_crash(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(tool("list_documents", "{}", content=None), text(None))
    body = _send(model_backend, "what notes do I have?")
    assert body["reply"]  # a plain sentence instead of nothing
    assert body["toolCalls"][0]["result"]["status"] == "ok"


def test_r32_a_turn_makes_at_most_eight_model_calls(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    asked = iter(range(100))
    # Each call differs from the last, so only the limit ends the turn (R57 ends repeats).
    scripted.default = lambda _body: tool("list_documents", f'{{"prefix": "n{next(asked)}"}}')
    body = _send(model_backend, "loop forever")
    assert len(scripted.chat_requests) == 8
    assert len(body["toolCalls"]) == 8
    assert "8 requests" in body["reply"]


def test_r33_r34_history_as_user_and_assistant_messages_without_tool_results(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    key = model_backend.key()
    scripted.then(text("First answer."), text("Second answer."))
    _send(model_backend, "summarise this", key=key)
    _send(model_backend, "and now?", key=key)
    second = scripted.chat_requests[1].body["messages"]
    assert [(m["role"], m.get("content")) for m in second[1:]] == [
        ("user", "summarise this"),
        ("assistant", "First answer."),
        ("user", "and now?"),
    ]
    raw = scripted.chat_requests[1].raw.decode()
    assert "tool_call_id" not in raw  # R33: earlier tool results are never resent
    for line in _note_lines():
        assert line not in raw


def test_r75_the_backends_stop_messages_are_never_sent_back_as_the_models(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    """Shown to the person and kept (R34), but not what the model said (R75)."""
    key = model_backend.key()
    scripted.then(text(""), text("Alpha, briefly."), text("Hello."))
    empty = _send(model_backend, "summarise this", key=key)
    assert empty["reply"] == EMPTY_REPLY
    _send(model_backend, "hello", key=key)
    _send(model_backend, "hello again", key=key)
    later = [request.body["messages"] for request in scripted.chat_requests[1:]]
    for messages in later:
        assert not any(EMPTY_REPLY in str(m.get("content")) for m in messages)
    assert [(m["role"], m["content"]) for m in later[1][1:]] == [
        ("user", "summarise this"),
        ("user", "hello"),
        ("assistant", "Alpha, briefly."),
        ("user", "hello again"),
    ]
    history = model_backend.client.get(
        "/v1/agent/conversations/c1", headers=model_backend.headers(key)
    ).json()["messages"]
    assert history[1]["text"] == EMPTY_REPLY  # the person still sees what happened


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("résume cette note", "French"),
        ("fasse diese Notiz zusammen", "German"),
        ("このノートを要約して", "Japanese"),
        ("summarise this", "English"),
    ],
)
def test_r75_the_instruction_names_the_asks_language(
    model_backend: Backend, scripted: ScriptedModel, message: str, language: str
) -> None:
    scripted.then(text("ok"))
    _send(model_backend, message)
    system = scripted.chat_requests[0].body["messages"][0]["content"]
    assert system.endswith(f"Answer in {language}.")


def test_r33_instructions_ask_for_read_active_note_first_on_every_turn(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("ok"))
    _send(model_backend, "summarise this")
    system = scripted.chat_requests[0].body["messages"][0]["content"]
    assert "call read_active_note first" in system
    assert "again on every new turn" in system


def test_r30_no_api_key_sends_no_authorization_and_a_key_is_sent_as_bearer(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("ok"), text("ok"))
    _send(model_backend, "hello")
    headers = {k.lower(): v for k, v in scripted.chat_requests[0].headers.items()}
    assert "authorization" not in headers
    response = model_backend.client.put(
        "/v1/assistant",
        json={"baseUrl": scripted.url, "model": "scripted-model", "apiKey": "sk-secret-1"},
        headers=model_backend.auth,
    )
    assert response.status_code == 200
    assert "sk-secret-1" not in response.text
    _send(model_backend, "hello")
    headers = {k.lower(): v for k, v in scripted.chat_requests[1].headers.items()}
    assert headers["authorization"] == "Bearer sk-secret-1"


def test_r36_delivery_row_is_written_before_the_model_is_called(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(error(503))
    key = model_backend.key()
    response = model_backend.client.post(
        "/v1/agent/turns",
        json={"conversation": "c1", "message": "summarise this"},
        headers=model_backend.headers(key, pointer_header(NOTE, NOTES[NOTE])),
    )
    assert response.status_code == 502
    delivery = model_backend.delivery(key)
    assert delivery is not None
    assert delivery["ambient_path"] == NOTE


def test_r31_without_a_note_or_a_workspace_the_model_is_told_so(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("Which note?"), text("Open a workspace."))
    model_backend.turn("summarise this", key=model_backend.key())  # no pointer header
    no_note = scripted.chat_requests[0].body["messages"][0]["content"]
    assert "No note is open" in no_note
    assert "notes/" not in no_note.split("No note is open")[0]
    model_backend.turn("summarise this", key=None, conversation="c2")
    no_workspace = scripted.chat_requests[1].body["messages"][0]["content"]
    assert "No workspace is open" in no_workspace


@pytest.mark.parametrize(
    "message",
    [
        "tick off buy milk",
        "add a task: call the bank",
        "rename the first heading to Plan",
        "renomme le titre en Plan",
        "change the title to Plan",
    ],
)
def test_r75_edit_asks_are_asked_for_propose_note_edit_by_name(
    model_backend: Backend, scripted: ScriptedModel, message: str
) -> None:
    scripted.then(text("I would rather not."))
    body = _send(model_backend, message)
    assert [c["name"] for c in body["toolCalls"]] == ["read_active_note"]
    [request] = scripted.chat_requests
    assert request.body["tool_choice"]["function"]["name"] == "propose_note_edit"


@pytest.mark.parametrize("message", ["how do I edit notes?", "what changed here?", "hello"])
def test_r75_asks_that_change_nothing_are_not_edit_asks(
    model_backend: Backend, scripted: ScriptedModel, message: str
) -> None:
    scripted.then(text("ok"))
    _send(model_backend, message)
    assert scripted.chat_requests[0].body.get("tool_choice") != {
        "type": "function",
        "function": {"name": "propose_note_edit"},
    }
