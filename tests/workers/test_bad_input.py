"""Bad input of every kind gets the JSON envelope with a plain message, never a 5xx.

The TestClient re-raises anything that reaches the catch-all handler, so a request that
hits a real bug fails these tests instead of passing as a 500.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.workers.conftest import DEVICE_TOKEN, WORKSPACE, Backend, TestClient, client_with_key
from workers import messages
from workers.dependencies import MAX_JSON_BODY_BYTES


def _assert_envelope(response: Any, status: int) -> dict[str, str]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["message"] and "Traceback" not in body["error"]["message"]
    error: dict[str, str] = body["error"]
    return error


def test_unknown_route_is_a_404_envelope(backend: Backend) -> None:
    error = _assert_envelope(backend.client.get("/v2/nothing", headers=backend.auth), 404)
    assert error == {"code": "not_found", "message": messages.ROUTE_NOT_FOUND}


def test_wrong_method_is_a_405_envelope(backend: Backend) -> None:
    error = _assert_envelope(backend.client.delete("/v1/agent/turns", headers=backend.auth), 405)
    assert error["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"", "invalid_json"),
        (b"{not json", "invalid_json"),
        (b"[]", "invalid_json"),
        (b'"text"', "invalid_json"),
        (b"\xff\xfe", "invalid_json"),
        (b"{}", "invalid_request"),
        (b'{"conversation": "c"}', "invalid_request"),
        (b'{"conversation": "", "message": "x"}', "invalid_request"),
        (b'{"conversation": 5, "message": "x"}', "invalid_request"),
        (b'{"conversation": "c", "message": null}', "invalid_request"),
        (json.dumps({"conversation": "c" * 129, "message": "x"}).encode(), "invalid_request"),
    ],
)
def test_malformed_turn_bodies_are_400(backend: Backend, body: bytes, code: str) -> None:
    response = backend.client.post(
        "/v1/agent/turns",
        content=body,
        headers={**backend.auth, "Content-Type": "application/json"},
    )
    assert _assert_envelope(response, 400)["code"] == code


def test_turn_body_over_one_mib_is_413(backend: Backend) -> None:
    body = json.dumps({"conversation": "c", "message": "x" * MAX_JSON_BODY_BYTES}).encode()
    response = backend.client.post("/v1/agent/turns", content=body, headers=backend.auth)
    assert _assert_envelope(response, 413)["code"] == "payload_too_large"


def test_bad_content_length_is_400(backend: Backend) -> None:
    response = backend.client.post(
        "/v1/key-sessions",
        content=b'{"workspace": "demo"}',
        headers={**backend.auth, "Content-Length": "lots"},
    )
    assert _assert_envelope(response, 400)["message"] == messages.CONTENT_LENGTH_INVALID


def test_bad_query_is_a_400_envelope(backend: Backend) -> None:
    key = backend.key()
    response = backend.client.get(
        f"/v1/workspaces/{WORKSPACE}/documents",
        params={"prefix": "p" * 5000},
        headers=backend.headers(key),
    )
    assert _assert_envelope(response, 400)["code"] == "invalid_request"


def test_bad_key_session_bodies(backend: Backend) -> None:
    for body in (b"{}", b'{"workspace": 3}', b"nope", b'{"workspace": null}'):
        response = backend.client.post("/v1/key-sessions", content=body, headers=backend.auth)
        _assert_envelope(response, 400)


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("fuzz")) as opened:
        yield opened


_header_text = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=300)


@settings(max_examples=200, deadline=None)
@given(
    body=st.one_of(
        st.binary(max_size=200),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=12), inner, max_size=3)
            ),
            max_leaves=8,
        ).map(lambda value: json.dumps(value).encode()),
        st.fixed_dictionaries(
            {"conversation": st.text(max_size=140), "message": st.text(max_size=60)}
        ).map(lambda value: json.dumps(value).encode()),
    ),
    ambient=st.one_of(st.none(), _header_text),
    key=st.one_of(st.none(), _header_text, st.just("valid")),
)
def test_no_turn_input_yields_a_5xx(
    shared_client: tuple[TestClient, str], body: bytes, ambient: str | None, key: str | None
) -> None:
    client, valid_key = shared_client
    headers = {"Authorization": f"Bearer {DEVICE_TOKEN}", "Content-Type": "application/json"}
    if ambient is not None:
        headers["X-Ambient-Note"] = ambient
    if key is not None:
        headers["X-Key-Session"] = valid_key if key == "valid" else key
    response = client.post("/v1/agent/turns", content=body, headers=headers)
    assert response.status_code in (200, 400, 403)
    payload = response.json()
    if response.status_code == 200:
        assert payload["ambient"]["status"] in ("stored", "absent", "rejected")
    else:
        assert payload["error"]["message"]


@settings(max_examples=200, deadline=None)
@given(path=st.text(max_size=80), body=st.binary(max_size=64))
def test_no_document_path_yields_a_5xx(
    shared_client: tuple[TestClient, str], path: str, body: bytes
) -> None:
    client, key = shared_client
    headers = {"Authorization": f"Bearer {DEVICE_TOKEN}", "X-Key-Session": key}
    target = f"/v1/workspaces/{WORKSPACE}/documents/{quote(path, safe='/')}"
    for response in (
        client.get(target, headers=headers),
        client.put(target, content=body, headers=headers),
    ):
        assert response.status_code < 500
