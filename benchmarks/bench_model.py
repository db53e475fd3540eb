"""Model assistant benchmarks against a scripted OpenAI-compatible server on loopback.

(a) Time to the first streamed delta of a turn through ``workers`` (SSE from
``POST /v1/agent/turns``) against asking the same server directly for a streamed
completion (target: <= 1.1). The server waits ``PREFILL_SECONDS`` before its first
piece, as a small local model does (SmolLM2-135M on 2 CPU cores answers its first
piece in about 0.4 s once loaded), so the ratio shows what the backend adds to a real
wait. (b) Bytes of note text in the model requests of a turn that calls no tool
(target: 0), counted line by line in every request body the server received.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from benchmarks.backend import backend, pointer_header, write_notes
from benchmarks.measure import Measurement, median, paired_ratios
from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model, text
from workers.settings import Settings

PREFILL_SECONDS = 0.4
WORKSPACE = "bench"
NOTE = "notes/plan.md"
NOTE_TEXT = (
    "# Launch plan\n"
    "The zebra-orchid launch moves to Thursday after the venue call.\n"
    "- [ ] book the quartz room\n"
    "- [x] send invitations\n"
)
REPLY = "A short answer in several pieces, as a model streams it."
TOKEN = "bench-token"
ACCESS_HEADERS = ("Authorization", KEY_SESSION_HEADER)


@contextmanager
def _backend(model: ScriptedModel) -> Iterator[tuple[str, dict[str, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            data_dir=Path(folder), device_token=TOKEN, model_base_url=model.url, model=MODEL_ID
        )
        write_notes(settings, WORKSPACE, {NOTE: NOTE_TEXT})
        with backend(settings, WORKSPACE) as (server, session):
            # The device token and the key session, as headers for the timed sessions.
            headers = {name: str(session.headers[name]) for name in ACCESS_HEADERS}
            yield server.url, {**headers, HEADER_NAME: pointer_header(NOTE, NOTE_TEXT)}


def _first_line_with(response: requests.Response, marker: bytes) -> None:
    for line in response.iter_lines(chunk_size=None):
        if marker in line:
            return
    raise RuntimeError("the stream ended before its first piece of text")


def _through_workers(http: requests.Session, url: str, headers: dict[str, str]) -> None:
    with http.post(
        f"{url}/v1/agent/turns",
        json={"conversation": "bench", "message": "what is planned?"},
        headers={**headers, "Accept": "text/event-stream"},
        stream=True,
        timeout=30,
    ) as response:
        _first_line_with(response, b"event: delta")


def _direct(http: requests.Session, base_url: str) -> None:
    body: dict[str, Any] = {
        "model": MODEL_ID,
        "stream": True,
        "messages": [{"role": "user", "content": "what is planned?"}],
    }
    with http.post(f"{base_url}/chat/completions", json=body, stream=True, timeout=30) as response:
        _first_line_with(response, b'"content": "A')


def _first_delta() -> Measurement:
    with scripted_model() as model:
        model.default = lambda _body: text(REPLY, first_piece_delay=PREFILL_SECONDS)
        with _backend(model) as (url, headers), requests.Session() as http:
            http.trust_env = False
            _through_workers(http, url, headers)  # warm: connections, first SDK request
            _direct(http, model.url)
            ratios = paired_ratios(
                lambda: _through_workers(http, url, headers), lambda: _direct(http, model.url)
            )
    return Measurement(
        name="model: first streamed delta, workers / direct",
        median=median(ratios),
        target=1.1,
        samples=ratios,
        details={"prefill_seconds": PREFILL_SECONDS},
    )


def _note_bytes_without_tools() -> Measurement:
    with scripted_model() as model:
        model.default = lambda _body: text("Hello! Ask me about your notes.")
        with _backend(model) as (url, headers):
            response = requests.post(
                f"{url}/v1/agent/turns",
                json={"conversation": "privacy", "message": "hello"},
                headers=headers,
                timeout=30,
            )
            response.raise_for_status()
            assert response.json()["toolCalls"] == []
        sent = [json.dumps(r.body, ensure_ascii=False) for r in model.chat_requests]
    lines = [line for line in NOTE_TEXT.splitlines() if line.strip()]
    leaked = sum(len(line.encode()) for line in lines if any(line in body for body in sent))
    return Measurement(
        name="model: note text bytes in requests, turn without tools",
        median=float(leaked),
        unit="bytes",
        target=0,
        samples=[float(leaked)],
        details={"requests": len(sent), "note_bytes": len(NOTE_TEXT.encode())},
    )


def run() -> list[Measurement]:
    return [_first_delta(), _note_bytes_without_tools()]
