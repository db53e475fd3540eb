"""R93: every number a route reads is length-checked: 5,000 digits get a 4xx, never a 5xx.

The numbers are found in the routes' own OpenAPI schema (``app.openapi()``: declared
parameters, and the JSON bodies the routes read by hand, declared with
``json_body``), so a route added later is covered without touching this test.
Python's ``int()`` raises past 4,300 digits; a route that called it unguarded answered
500 and logged two tracebacks.
"""

from __future__ import annotations

import json
import logging
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.workers.conftest import WORKSPACE, Backend
from workers.dependencies import MAX_NUMBER_DIGITS, whole_number
from workers.server import EmbeddedServer
from workers.settings import Settings

HUGE = "9" * 5_000
"""Past Python's 4,300-digit limit for ``int()``."""
NUMERIC = frozenset({"integer", "number"})
PATH_SAMPLES = {"workspace": WORKSPACE, "path": "notes/a.md", "conversation": "c1"}
"""A path parameter that is text gets a plausible value; any other text one gets ``x1``."""
_PLACEHOLDER = "__the_huge_number__"


@dataclass(frozen=True)
class NumberInput:
    """One number a route reads: where (query, path, header or body) and under which name."""

    method: str
    path: str
    where: str
    name: str

    def __str__(self) -> str:
        return f"{self.method} {self.path} {self.where} {self.name}"


def _is_numeric(schema: dict[str, Any]) -> bool:
    kinds = [schema.get("type")] + [choice.get("type") for choice in schema.get("anyOf", [])]
    return any(kind in NUMERIC for kind in kinds)


def _sample(schema: dict[str, Any]) -> Any:
    """A value of the schema's type (the body around the huge number)."""
    kind = schema.get("type")
    if "enum" in schema:
        return schema["enum"][0]
    if kind in NUMERIC:
        return 1
    if kind == "array":
        return [_sample(schema.get("items", {})), _sample(schema.get("items", {}))]
    if kind == "boolean":
        return False
    if kind == "object":
        return {}
    return "x1"


def number_inputs(openapi: dict[str, Any]) -> Iterator[tuple[NumberInput, dict[str, Any]]]:
    """Every numeric parameter and body field of every route, with its operation."""
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if _is_numeric(parameter.get("schema", {})):
                    yield NumberInput(method, path, parameter["in"], parameter["name"]), operation
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            for name, field in (body or {}).get("schema", {}).get("properties", {}).items():
                items = field.get("items", {}) if field.get("type") == "array" else {}
                if _is_numeric(field) or _is_numeric(items):
                    yield NumberInput(method, path, "body", name), operation


def _request(
    backend: Backend, key: str, found: NumberInput, operation: dict[str, Any]
) -> tuple[str, str, dict[str, str], dict[str, str], bytes | None]:
    """The request that puts :data:`HUGE` where ``found`` is read, the rest plausible."""
    values: dict[str, str] = {}
    query: dict[str, str] = {}
    headers = backend.headers(key)
    for parameter in operation.get("parameters", []):
        name, where = parameter["name"], parameter["in"]
        is_found = (where, name) == (found.where, found.name)
        value = HUGE if is_found else PATH_SAMPLES.get(name, "x1")
        if where == "path":
            values[name] = value
        elif where == "query" and (is_found or parameter.get("required")):
            query[name] = value
        elif where == "header" and is_found:
            headers[name] = value
    url = re.sub(r"\{(\w+)(?::path)?\}", lambda m: values.get(m[1], "x1"), found.path)
    body: bytes | None = None
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if schema is not None:
        properties = schema["schema"].get("properties", {})
        sample = {name: _sample(field) for name, field in properties.items()}
        if found.where == "body":
            field = properties[found.name]
            sample[found.name] = (
                [_PLACEHOLDER] * 2 if field.get("type") == "array" else _PLACEHOLDER
            )
        # json.dumps cannot write 5,000 digits either: the number goes in as text.
        body = json.dumps(sample).replace(f'"{_PLACEHOLDER}"', HUGE).encode()
        headers["Content-Type"] = "application/json"
    return found.method.upper(), url, query, headers, body


def test_r93_the_schema_names_the_numbers_the_routes_read(backend: Backend) -> None:
    """The walk below is not empty: the inline history's ``limit`` and the inline ``lines``."""
    found = {str(item) for item, _ in number_inputs(backend.client.app.openapi())}  # type: ignore[attr-defined]
    assert "get /v1/workspaces/{workspace}/inline query limit" in found
    assert "post /v1/workspaces/{workspace}/inline body lines" in found


def test_r93_five_thousand_digits_in_every_number_a_route_reads_is_a_plain_4xx(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    key = backend.key()
    inputs = list(number_inputs(backend.client.app.openapi()))  # type: ignore[attr-defined]
    answers: dict[str, int] = {}
    with caplog.at_level(logging.INFO):
        for found, operation in inputs:
            method, url, query, headers, body = _request(backend, key, found, operation)
            response = backend.client.request(
                method, url, params=query, headers=headers, content=body
            )
            answers[str(found)] = response.status_code
            assert 400 <= response.status_code < 500, (str(found), response.text)
            error = response.json()["error"]
            assert set(error) == {"code", "message"} and error["message"], str(found)
            assert HUGE[:100] not in error["message"] and "Traceback" not in error["message"]
    assert answers and all(400 <= status < 500 for status in answers.values())
    logged = "\n".join(record.getMessage() + str(record.exc_info) for record in caplog.records)
    assert "Traceback" not in logged and "Unhandled error" not in logged
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7", 7),
        ("0", 0),
        ("9" * MAX_NUMBER_DIGITS, None),  # past the highest asked for
        ("9" * (MAX_NUMBER_DIGITS + 1), None),
        (HUGE, None),
        ("", None),
        (" 7", None),
        ("1_0", None),
        ("+7", None),
        ("٣", None),  # an Arabic-Indic digit: int() reads it, a route does not
    ],
)
def test_r93_a_route_reads_plain_ascii_digits_of_a_bounded_length(
    text: str, expected: int | None
) -> None:
    assert whole_number(text, 0, 10**12) == expected


def test_r93_a_content_length_of_thousands_of_digits_is_refused_plainly(tmp_path: Path) -> None:
    """The one header read as a number before any route: h11 refuses it on the real socket,
    and the answer is the error envelope, not uvicorn's plain text."""
    with EmbeddedServer(Settings(data_dir=tmp_path)) as server:
        address = urlsplit(server.url)
        assert address.hostname is not None and address.port is not None
        request = (
            f"PUT /v1/workspaces/{WORKSPACE}/documents/notes/n.md HTTP/1.1\r\n"
            f"Host: {address.netloc}\r\nAuthorization: Bearer {server.device_token}\r\n"
            f"Content-Length: {HUGE}\r\n\r\nx"
        )
        with socket.create_connection((address.hostname, address.port), 10) as connection:
            connection.sendall(request.encode())
            with connection.makefile("rb") as answer:
                status = answer.readline()
                headers = answer.read().split(b"\r\n\r\n", 1)
    assert status.split()[1] == b"400"
    assert b"content-type: application/json" in headers[0].lower()
    error = json.loads(headers[1])["error"]
    assert error["code"] == "invalid_request" and "could not be read as HTTP" in error["message"]
