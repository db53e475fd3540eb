"""Hostile requests against a real backend on loopback: Host names, huge numbers, huge notes.

R65: only loopback ``Host`` names unless started with ``--host`` (421 otherwise); pointer
numbers are integers from 0 to 2^53 - 1 with offsets at most the note's length, anything
else ``rejected`` with a reason. R63: the document GET has the PUT's 10 MiB limit (413).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.stress.harness import Http, pointer_value, server, valid_pointer_fields
from tests.support.backend import RunningBackend, make_workspace

WORKSPACE = "demo"
NOTE = "notes/a.md"
TEXT = "# Alpha\nalpha\n"
SPARSE_BYTES = 300 * 1024 * 1024
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningBackend]:
    data_dir = tmp_path_factory.mktemp("hardening")
    root = make_workspace(data_dir, WORKSPACE, {NOTE: TEXT})
    with (root / "big.md").open("wb") as big:  # sparse: 11 MiB that take no disk
        big.truncate(11 * 1024 * 1024)
    (root / "edge.md").write_bytes(b"x" * (10 * 1024 * 1024))
    with (root / "sparse.md").open("wb") as sparse:  # the size that once took 11 GB
        sparse.truncate(SPARSE_BYTES)
    with server(data_dir) as backend:
        yield backend


@pytest.fixture
def http(running: RunningBackend) -> Iterator[Http]:
    client = Http(running)
    client.open_key(WORKSPACE)
    yield client
    client.close()


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:80",
        "127.0.0.1.evil.example",
        "localhost.",
        "10.0.0.1",
        "localhost:80@evil.example",
    ],
)
def test_r65_a_name_that_is_not_loopback_is_misdirected(http: Http, host: str) -> None:
    status, body = http.request("GET", "/v1/assistant", headers={"Host": host})
    assert status == 421
    assert json.loads(body)["error"]["code"] == "misdirected_request"


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.0.0.1:9", "localhost:8080", "LOCALHOST", "[::1]:1"]
)
def test_r65_loopback_names_are_served(http: Http, host: str) -> None:
    status, body = http.request("GET", "/v1/assistant", headers={"Host": host})
    assert status == 200, body


def test_r65_started_with_host_any_name_is_served(tmp_path: Path) -> None:
    with server(tmp_path, ["--host", "127.0.0.1"]) as backend:
        client = Http(backend)
        status, _ = client.request("GET", "/v1/assistant", headers={"Host": "notes.example"})
        client.close()
    assert status == 200


def _turn_with(http: Http, **changes: Any) -> dict[str, Any]:
    fields = valid_pointer_fields(NOTE, TEXT)
    fields.update(changes)
    status, body = http.turn("numbers", "/tool read_active_note {}", pointer_value(fields))
    assert status == 200, body
    return body


@pytest.mark.parametrize(
    "changes",
    [
        {"selection": {"anchor": 10**40, "head": 0}},
        {"selection": {"anchor": 0, "head": 2**64}},
        {"selection": {"anchor": 2**53, "head": 2**53}},
        {"bytes": 10**30},
        {"bytes": 2**53},
        {"selection": {"anchor": 0, "head": len(TEXT.encode()) + 1}},
    ],
)
def test_r65_numbers_out_of_bounds_are_rejected_with_a_reason(
    http: Http, changes: dict[str, Any]
) -> None:
    ambient = _turn_with(http, **changes)["ambient"]
    assert ambient["status"] == "rejected"
    assert ambient["reason"]


def test_r65_the_largest_numbers_in_bounds_are_still_read_as_a_pointer(http: Http) -> None:
    ambient = _turn_with(http, selection={"anchor": 0, "head": len(TEXT.encode())})["ambient"]
    assert ambient["status"] == "stored"


def test_r63_a_document_over_the_put_limit_is_413_too_large(http: Http) -> None:
    status, body = http.request("GET", f"/v1/workspaces/{WORKSPACE}/documents/big.md")
    assert status == 413
    error = json.loads(body)["error"]
    assert error["code"] == "too_large"
    assert "10,485,760" in error["message"]


def test_r63_a_document_of_exactly_the_limit_is_served(http: Http) -> None:
    status, body = http.request("GET", f"/v1/workspaces/{WORKSPACE}/documents/edge.md")
    assert status == 200
    assert len(body) == 10 * 1024 * 1024


def _put_assistant(http: Http, **body: Any) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    status, data = http.request("PUT", "/v1/assistant", json.dumps(body).encode(), headers)
    return status, json.loads(data)


def test_r61_credentials_in_the_endpoint_url_are_refused_and_never_echoed(http: Http) -> None:
    url = "http://someone:hunter2@127.0.0.1:9/v1"
    status, body = _put_assistant(http, baseUrl=url, model="m")
    assert status == 400 and body["error"]["code"] == "invalid_argument"
    status, body = http.request(
        "POST", "/v1/assistant/verify", json.dumps({"baseUrl": url}).encode()
    )
    assert status == 400 and json.loads(body)["error"]["code"] == "invalid_argument"
    status, data = http.request("GET", "/v1/assistant")
    assert status == 200 and b"hunter2" not in data


@pytest.mark.parametrize("url", ["http://models.example/v1", "http://192.168.1.5:8080/v1"])
def test_r61_a_key_is_never_taken_for_plain_http_to_another_machine(http: Http, url: str) -> None:
    status, body = _put_assistant(http, baseUrl=url, model="m", apiKey="sk-secret")
    assert status == 400 and "never sent over plain http" in body["error"]["message"]
    status, data = http.request(
        "POST", "/v1/assistant/verify", json.dumps({"baseUrl": url, "apiKey": "sk-x"}).encode()
    )
    answer = json.loads(data)
    assert status == 200 and not answer["ok"] and "plain http" in answer["message"]
    # Without a key, or over https, the same host is a usable endpoint.
    assert _put_assistant(http, baseUrl=url, model="m")[0] == 200
    https = url.replace("http://", "https://")
    assert _put_assistant(http, baseUrl=https, model="m", apiKey="sk-secret")[0] == 200
    assert _put_assistant(http)[0] == 200  # back to the offline assistant


def _peak_rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc")


def test_r63_the_listing_names_a_huge_note_without_holding_it(
    running: RunningBackend, http: Http
) -> None:
    before = _peak_rss_bytes(running.process.pid)
    status, body = http.request("GET", f"/v1/workspaces/{WORKSPACE}/documents")
    assert status == 200
    listed = {entry["path"]: entry for entry in json.loads(body)["documents"]}
    expected = hashlib.sha256()
    for _ in range(SPARSE_BYTES // MIB):
        expected.update(bytes(MIB))
    assert listed["sparse.md"]["bytes"] == SPARSE_BYTES
    assert listed["sparse.md"]["sha256"] == expected.hexdigest()[:16]
    # Read in 1 MiB pieces: the backend's peak memory grows far less than the note's size.
    assert _peak_rss_bytes(running.process.pid) - before < 100 * MIB
