"""Provider failures end the turn with 502 model_unavailable naming the endpoint (R36).

Each failure is produced by a real loopback server (or a closed port), never by
mocking the SDK.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.support.backend import make_workspace
from tests.support.scripted_model import Reply, ScriptedModel, error, text
from tests.workers.conftest import (
    DEVICE_TOKEN,
    NOTES,
    WORKSPACE,
    Backend,
    SteppingClock,
    TestClient,
    pointer_header,
)
from workers.app import create_app
from workers.settings import Settings


def _endpoint(scripted: ScriptedModel) -> str:
    return scripted.url.removeprefix("http://").removesuffix("/v1")


def _failed_turn(backend: Backend, message: str = "summarise this") -> dict[str, str]:
    key = backend.key()
    response = backend.client.post(
        "/v1/agent/turns",
        json={"conversation": "c1", "message": message},
        headers=backend.headers(key, pointer_header("notes/a.md", NOTES["notes/a.md"])),
    )
    assert response.status_code == 502, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == "model_unavailable"
    # R36: the delivery row is updated as for any send.
    delivery = backend.delivery(key)
    assert delivery is not None and delivery["ambient_path"] == "notes/a.md"
    message: dict[str, str] = body["error"]
    return message


@pytest.mark.parametrize(
    ("reply", "advice"),
    [
        (error(401, "bad key"), "API key"),
        (error(403, "forbidden"), "API key"),
        (error(429, "slow down"), "rate limiting"),
        (error(500, "boom"), "server error"),
        (error(503, "overloaded"), "server error"),
        (error(404, "no such model"), "model name"),
        (error(400, "tools are not supported"), "supports tool calling"),
        (Reply(body=b"<html>not json</html>", content_type="text/html"), "OpenAI-compatible"),
        (Reply(body=b'{"unexpected": true}'), "OpenAI-compatible"),
        (Reply(body=b'{"choices": []}'), "OpenAI-compatible"),
    ],
    ids=["401", "403", "429", "500", "503", "404", "400", "html", "no-choices", "empty-choices"],
)
def test_r36_each_provider_failure_is_model_unavailable(
    model_backend: Backend, scripted: ScriptedModel, reply: Reply, advice: str
) -> None:
    scripted.then(reply)
    failure = _failed_turn(model_backend)
    assert _endpoint(scripted) in failure["message"]
    assert advice in failure["message"]
    assert "Traceback" not in failure["message"]


def test_r36_a_model_that_writes_tool_calls_as_text_does_not_support_tools(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text('{"name": "read_active_note", "arguments": {}}'))
    failure = _failed_turn(model_backend, "hello")  # a request that offers the tools
    assert "does not seem to support tool calling" in failure["message"]


def test_r36_a_stalled_provider_times_out(model_backend: Backend, scripted: ScriptedModel) -> None:
    scripted.then(Reply(stall=True))
    failure = _failed_turn(model_backend)
    assert "did not answer in time" in failure["message"]
    assert _endpoint(scripted) in failure["message"]
    # R57: the connection is closed, so a real server stops generating for nobody.
    assert scripted.client_went_away.wait(10)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_r36_an_unreachable_endpoint(tmp_path: Path, clock: SteppingClock) -> None:
    make_workspace(tmp_path, WORKSPACE, NOTES)
    port = _closed_port()
    settings = Settings(
        data_dir=tmp_path,
        device_token=DEVICE_TOKEN,
        clock=clock,
        model_base_url=f"http://127.0.0.1:{port}/v1",
        model="any",
    )
    with TestClient(create_app(settings)) as client:
        backend = Backend(client, settings, clock, tmp_path)
        failure = _failed_turn(backend)
    assert f"127.0.0.1:{port}" in failure["message"]
    assert "can't be reached" in failure["message"]


def test_r36_the_api_key_never_appears_in_a_failure(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    response = model_backend.client.put(
        "/v1/assistant",
        json={"baseUrl": scripted.url, "model": "scripted-model", "apiKey": "sk-never-shown"},
        headers=model_backend.auth,
    )
    assert response.status_code == 200
    scripted.then(error(401, "invalid key sk-never-shown"))
    failure = _failed_turn(model_backend)
    assert "sk-never-shown" not in failure["message"]
