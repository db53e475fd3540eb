"""The contract as code: ``app.openapi()`` against contract.md §2–13, and real answers against it.

The routes are read out of ``../shared/design/contract.md`` itself, so a route the
contract gains without a response model fails here. OpenAPI is not served
(``openapi_url`` is off); ``app.openapi()`` is the schema the routes declare.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi import FastAPI
from httpx import Response
from pydantic import BaseModel

from bridge import wire
from bridge.agent import EVENT_DONE, STREAM_MEDIA_TYPE, parse_sse
from bridge.inline import OUTCOME_ACCEPTED, OUTCOME_FAILED, OUTCOME_PENDING, OUTCOME_REJECTED
from bridge.wire import AssistantKind, InlineRecordOutcome, InlineReportedOutcome
from tests.workers.conftest import NOTES, Backend, pointer_header
from workers.assistants import MODEL, OFFLINE

PROJECT = Path(__file__).resolve().parents[2]
CONTRACT = PROJECT.parent / "shared" / "design" / "contract.md"
"""The contract lives beside the checkout (``../shared``), as CI lays it out too."""
DEVELOPER_PAGE = PROJECT / "docs" / "dev" / "contract.md"
SECTIONS = range(2, 14)
METHODS = "GET|POST|PUT|DELETE|PATCH"
_ROUTE = re.compile(
    rf"`(?P<method>{METHODS}) (?P<path>/v1/[^`\s\[]*)|`(?P<same>{METHODS})` the same path"
)
_PARAMETER = re.compile(r"\{[^}]*\}")


def _sections(text: str) -> Iterator[tuple[int, str]]:
    for match in re.finditer(r"^## (\d+)\. .*?(?=^## |\Z)", text, flags=re.M | re.S):
        yield int(match.group(1)), match.group(0)


def _template(path: str) -> str:
    """A path with its parameters unnamed: the contract says ``{ws}``, the app ``{workspace}``."""
    return _PARAMETER.sub("{}", path)


def contract_routes() -> dict[tuple[str, str], bool]:
    """(method, path template) of every route contract §2–13 names → whether it streams.

    A bullet naming ``text/event-stream`` makes the route it names (or the latest
    one named before it in that section) a streaming one.
    """
    routes: dict[tuple[str, str], bool] = {}
    sections = dict(_sections(CONTRACT.read_text(encoding="utf-8")))
    assert set(SECTIONS) <= set(sections), "contract.md's sections are numbered '## N. Title'"
    for number in SECTIONS:
        section = sections[number]
        latest: tuple[str, str] | None = None
        for bullet in re.split(r"\n(?=- |\S)", section):
            for match in _ROUTE.finditer(bullet):
                if match.group("same"):
                    assert latest is not None, bullet
                    latest = (match.group("same"), latest[1])
                else:
                    latest = (match.group("method"), _template(match.group("path")))
                routes.setdefault(latest, False)
            if STREAM_MEDIA_TYPE in bullet and latest is not None:
                routes[latest] = True
    return routes


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    reference = schema.get("$ref")
    if reference is None:
        return schema
    resolved: dict[str, Any] = spec["components"]["schemas"][reference.rsplit("/", 1)[1]]
    return resolved


def typed_answers(operation: dict[str, Any], spec: dict[str, Any]) -> set[str]:
    """The success media types with a type: JSON with named properties, text as a string.

    A 204 with no body counts as typed too (``"no content"``).
    """
    typed: set[str] = set()
    for status, answer in operation["responses"].items():
        if not status.startswith("2"):
            continue
        if status == "204" and "content" not in answer:
            typed.add("no content")
        for media, content in answer.get("content", {}).items():
            schema = _resolve(content.get("schema", {}), spec)
            is_json = media == "application/json"
            if schema.get("properties") if is_json else schema.get("type") == "string":
                typed.add(media)
    return typed


def _operations(app: FastAPI) -> dict[tuple[str, str], dict[str, Any]]:
    spec = app.openapi()
    return {
        (method.upper(), _template(path)): operation
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    }


def test_the_contract_names_its_routes() -> None:
    """The parser finds the routes (a vacuous parse would pass everything below)."""
    routes = contract_routes()
    assert len(routes) >= 13
    assert routes[("POST", "/v1/key-sessions")] is False
    assert routes[("DELETE", "/v1/agent/conversations/{}")] is False  # "`DELETE` the same path"
    assert routes[("POST", "/v1/agent/turns")] is True
    assert routes[("POST", "/v1/workspaces/{}/inline")] is True
    assert not any(path.startswith("{base}") for _method, path in routes)


def test_r16_every_contract_route_has_a_typed_success_answer(backend: Backend) -> None:
    """Contract §2–13: each route is there with its method, each success answer typed (R16, R35)."""
    app = backend.client.app
    assert isinstance(app, FastAPI)
    spec = app.openapi()
    operations = _operations(app)
    problems: list[str] = []
    for (method, path), streams in contract_routes().items():
        operation = operations.get((method, path))
        if operation is None:
            problems.append(f"{method} {path}: no such route")
            continue
        typed = typed_answers(operation, spec)
        if not typed:
            problems.append(f"{method} {path}: no typed success answer")
        if streams and not {STREAM_MEDIA_TYPE, "application/json"} <= typed:
            problems.append(f"{method} {path}: streams, so needs JSON and {STREAM_MEDIA_TYPE}")
    assert problems == []


def test_every_route_of_the_app_declares_its_answer(backend: Backend) -> None:
    """Extensions too (docs/dev/contract.md): no route of the app answers untyped."""
    app = backend.client.app
    assert isinstance(app, FastAPI)
    spec = app.openapi()
    untyped = [
        key for key, operation in _operations(app).items() if not typed_answers(operation, spec)
    ]
    assert untyped == []


def test_the_developer_page_names_each_route_with_its_answer(backend: Backend) -> None:
    """docs/dev/contract.md's table: a row per route of the app, naming its answer's model."""
    app = backend.client.app
    assert isinstance(app, FastAPI)
    spec = app.openapi()
    rows = [
        line
        for line in DEVELOPER_PAGE.read_text(encoding="utf-8").splitlines()
        if line.startswith("| `")
    ]
    problems: list[str] = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            route = f"`{method.upper()} {path}`"
            row = next((line for line in rows if line.startswith(f"| {route} |")), None)
            if row is None:
                problems.append(f"{route}: no row")
                continue
            for status, answer in operation["responses"].items():
                if not status.startswith("2"):
                    continue
                for media, content in answer.get("content", {"": {}}).items():
                    reference = content.get("schema", {}).get("$ref", "")
                    named = reference.rsplit("/", 1)[-1] or media.split(";")[0] or status
                    if named not in row:
                        problems.append(f"{route}: the row does not name {named}")
    assert problems == []


def test_the_literal_types_are_the_bridge_constants() -> None:
    outcomes = (OUTCOME_PENDING, OUTCOME_ACCEPTED, OUTCOME_REJECTED, OUTCOME_FAILED)
    assert get_args(InlineRecordOutcome) == outcomes
    assert get_args(InlineReportedOutcome) == (OUTCOME_ACCEPTED, OUTCOME_REJECTED)
    assert get_args(AssistantKind) == (OFFLINE, MODEL)


def _route_of(spec: dict[str, Any], method: str, path: str) -> str:
    """The path template of ``app.openapi()`` that answers ``method path``.

    Of the templates that match, the one with the most literal text wins (the
    ``.../proposals/{id}`` route over ``{conversation}``, which takes any rest).
    """
    matching = [
        template
        for template, item in spec["paths"].items()
        if method.lower() in item
        and re.fullmatch(".+".join(map(re.escape, _PARAMETER.split(template))), path)
    ]
    assert matching, f"no route for {method} {path}"
    return max(matching, key=lambda found: len(_PARAMETER.sub("", found)))


def _declared(spec: dict[str, Any], method: str, template: str) -> type[BaseModel]:
    """The model ``app.openapi()`` names for the route's JSON success answer."""
    answers = spec["paths"][template][method.lower()]["responses"]
    reference = next(
        answer["content"]["application/json"]["schema"]["$ref"]
        for status, answer in answers.items()
        if status.startswith("2") and "application/json" in answer.get("content", {})
    )
    model = getattr(wire, reference.rsplit("/", 1)[1])
    assert issubclass(model, BaseModel)
    return model


class _Checked:
    """Sends requests through the real app and holds each answer to its route's model."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        app = backend.client.app
        assert isinstance(app, FastAPI)
        self.spec = app.openapi()
        self.checked: set[tuple[str, str]] = set()

    def __call__(self, method: str, path: str, **options: Any) -> Response:
        response = self.backend.client.request(method, path, **options)
        assert response.status_code < 300, (method, path, response.text)
        template = _route_of(self.spec, method, path)
        media = response.headers.get("content-type", "")
        if response.status_code == 204:
            assert response.content == b""
        elif media.startswith(STREAM_MEDIA_TYPE):
            model = _declared(self.spec, method, template)
            done = [
                data
                for event, data in parse_sse(response.content.splitlines())
                if event == EVENT_DONE
            ]
            assert len(done) == 1, response.text
            model.model_validate_json(done[0])  # the done event is exactly the JSON answer
        elif media.startswith("application/json"):
            model = _declared(self.spec, method, template)
            model.model_validate_json(response.content)
        self.checked.add((method, _template(template)))
        return response


@pytest.fixture
def checked(backend: Backend) -> _Checked:
    return _Checked(backend)


def test_real_answers_match_their_models_hot_routes_included(
    backend: Backend, checked: _Checked
) -> None:
    """The hot routes keep their own bytes: their real answers must still be what the model says.

    The models forbid extra fields, so a field a route adds without its model fails here.
    """
    key = backend.key()
    headers = backend.headers(key, pointer_header("notes/a.md", NOTES["notes/a.md"]))
    stream = {**headers, "Accept": STREAM_MEDIA_TYPE}
    checked("GET", "/v1/health")
    checked("GET", "/v1/workspaces", headers=backend.auth)
    checked("POST", "/v1/workspaces", json={"workspace": "fresh"}, headers=backend.auth)
    checked("POST", "/v1/key-sessions", json={"workspace": "demo"}, headers=backend.auth)
    checked("GET", "/v1/workspaces/demo/documents", headers=headers)
    document = checked("GET", "/v1/workspaces/demo/documents/notes/a.md", headers=headers)
    assert document.headers["etag"].startswith('"')
    saved = checked(
        "PUT", "/v1/workspaces/demo/documents/notes/new.md", content=b"new\n", headers=headers
    )
    assert saved.headers["etag"].startswith('"')
    for message in ("tick off buy milk in notes/a.md", '/tool read_active_note {"maxBytes": 10}'):
        checked(
            "POST",
            "/v1/agent/turns",
            json={"conversation": "c1", "message": message},
            headers=headers,
        )
        checked(
            "POST",
            "/v1/agent/turns",
            json={"conversation": "c1", "message": message},
            headers=stream,
        )
    checked("GET", "/v1/agent/deliveries/c1", headers=headers)
    checked("GET", "/v1/agent/conversations", headers=headers)
    messages = checked("GET", "/v1/agent/conversations/c1", headers=headers).json()["messages"]
    proposal = next(kept["id"] for message in messages for kept in message["proposals"])
    checked(
        "POST",
        f"/v1/agent/conversations/c1/proposals/{proposal}",
        json={"outcome": "applied"},
        headers=headers,
    )
    checked("DELETE", "/v1/agent/conversations/c1", headers=headers)
    checked("GET", "/v1/assistant", headers=backend.auth)
    checked("PUT", "/v1/assistant", json={"baseUrl": None, "model": None}, headers=backend.auth)
    inline = {
        "instruction": "make this a task list",
        "path": "notes/a.md",
        "selection": "alpha\nbeta\n",
        "lines": [2, 3],
    }
    answer = checked("POST", "/v1/workspaces/demo/inline", json=inline, headers=headers).json()
    checked("POST", "/v1/workspaces/demo/inline", json=inline, headers=stream)
    outcome = {"outcome": "accepted"}
    checked("POST", f"/v1/workspaces/demo/inline/{answer['id']}", json=outcome, headers=headers)
    checked("GET", "/v1/workspaces/demo/inline", headers=headers)
    checked("DELETE", "/v1/workspaces/demo/inline", headers=headers)
    # Every route the contract names was answered for real above (verify needs an endpoint).
    assert set(contract_routes()) <= checked.checked
