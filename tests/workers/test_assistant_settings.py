"""Choosing the assistant at start (flags, environment) and at run time; no key shown (R30, R37)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tests.support.backend import start_backend_process
from tests.support.scripted_model import MODEL_ID, ScriptedModel, text
from tests.workers.conftest import NOTES, Backend, SteppingClock, TestClient, pointer_header
from workers.app import create_app
from workers.settings import Settings

OFFLINE = {"kind": "offline", "model": None, "baseUrl": None}


def test_r30_offline_by_default_and_the_route_needs_the_token(backend: Backend) -> None:
    assert backend.client.get("/v1/assistant", headers=backend.auth).json() == OFFLINE
    assert backend.client.get("/v1/assistant").status_code == 401
    body = backend.turn("hello", key=backend.key())
    assert body["assistant"] == {"kind": "offline", "model": None}


def test_r30_environment_chooses_the_model_and_the_key_is_never_returned(
    tmp_path: Path, clock: SteppingClock, scripted: ScriptedModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMBIENT_MODEL_BASE_URL", scripted.url)
    monkeypatch.setenv("AMBIENT_MODEL", MODEL_ID)
    monkeypatch.setenv("AMBIENT_MODEL_API_KEY", "sk-from-env")
    settings = Settings(data_dir=tmp_path, device_token="t", clock=clock)
    with TestClient(create_app(settings)) as client:
        response = client.get("/v1/assistant", headers={"Authorization": "Bearer t"})
    assert response.json() == {"kind": "model", "model": MODEL_ID, "baseUrl": scripted.url}
    assert "sk-from-env" not in response.text


def test_r37_put_switches_assistant_without_a_restart(
    backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("From the model."))
    chosen = backend.client.put(
        "/v1/assistant",
        json={"baseUrl": scripted.url, "model": MODEL_ID, "apiKey": "sk-runtime"},
        headers=backend.auth,
    )
    assert chosen.status_code == 200
    assert chosen.json() == {"kind": "model", "model": MODEL_ID, "baseUrl": scripted.url}
    assert "sk-runtime" not in chosen.text
    key = backend.key()
    ambient = pointer_header("notes/a.md", NOTES["notes/a.md"])
    assert backend.turn("hello", key=key, ambient=ambient)["reply"] == "From the model."
    offline = backend.client.put(
        "/v1/assistant", json={"baseUrl": None, "model": None}, headers=backend.auth
    )
    assert offline.json() == OFFLINE
    assert backend.turn("hello", key=key)["assistant"]["kind"] == "offline"
    assert len(scripted.chat_requests) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"baseUrl": "http://127.0.0.1:1/v1", "model": None},
        {"baseUrl": None, "model": "m"},
        {"baseUrl": "ftp://example/v1", "model": "m"},
        {"baseUrl": "http://127.0.0.1:notaport/v1", "model": "m"},
        {"baseUrl": "http://x/v1", "model": "m", "extra": 1},
        {"baseUrl": 5, "model": "m"},
    ],
)
def test_r37_bad_settings_are_a_plain_400(backend: Backend, body: dict[str, object]) -> None:
    response = backend.client.put("/v1/assistant", json=body, headers=backend.auth)
    assert response.status_code == 400
    assert response.json()["error"]["message"]
    assert backend.client.get("/v1/assistant", headers=backend.auth).json() == OFFLINE


def test_r37_verify_lists_models_and_tries_the_tools(
    backend: Backend, scripted: ScriptedModel
) -> None:
    scripted.then(text("ready"))
    response = backend.client.post(
        "/v1/assistant/verify",
        json={"baseUrl": scripted.url, "model": MODEL_ID, "apiKey": "sk-verify"},
        headers=backend.auth,
    )
    body = response.json()
    assert body["ok"] is True, body
    assert body["models"] == [MODEL_ID]
    assert "sk-verify" not in response.text
    [probe] = scripted.chat_requests
    assert {t["function"]["name"] for t in probe.body["tools"]} == {
        "read_active_note",
        "read_document",
        "list_documents",
        "search_documents",  # R56
        "propose_note_edit",  # R54: the fourth tool
    }
    assert probe.headers.get("authorization") == "Bearer sk-verify"
    # Verify changes nothing: the offline assistant still answers.
    assert backend.client.get("/v1/assistant", headers=backend.auth).json() == OFFLINE


def test_r37_verify_says_what_is_wrong(backend: Backend, scripted: ScriptedModel) -> None:
    wrong = backend.client.post(
        "/v1/assistant/verify",
        json={"baseUrl": scripted.url, "model": "no-such-model"},
        headers=backend.auth,
    ).json()
    assert wrong["ok"] is False
    assert MODEL_ID in wrong["message"]
    endpoint = scripted.url.removeprefix("http://").removesuffix("/v1")
    scripted.then()
    scripted.default = text("unused")
    scripted.close()
    gone = backend.client.post(
        "/v1/assistant/verify", json={"baseUrl": scripted.url}, headers=backend.auth
    ).json()
    assert gone["ok"] is False
    assert endpoint in gone["message"]
    assert "can't be reached" in gone["message"]


@pytest.mark.slow
def test_r30_serve_flags_choose_the_model_assistant(
    tmp_path: Path, scripted: ScriptedModel
) -> None:
    flags = ["--model-base-url", scripted.url, "--model", MODEL_ID]
    with start_backend_process(tmp_path, extra_args=flags) as running:
        response = requests.get(f"{running.url}/v1/assistant", headers=running.auth, timeout=10)
    assert response.json() == {"kind": "model", "model": MODEL_ID, "baseUrl": scripted.url}


def test_r30_serve_refuses_an_endpoint_without_a_model(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "workers", "serve", "--data-dir", str(tmp_path)]
    finished = subprocess.run(
        [*command, "--model-base-url", "http://127.0.0.1:8080/v1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith("AMBIENT_MODEL")},
    )
    assert finished.returncode == 2
    assert "needs both an endpoint URL and a model name" in finished.stderr
    assert "Traceback" not in finished.stderr
