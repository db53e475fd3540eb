"""Model assistant benchmarks against a scripted OpenAI-compatible server on loopback.

(a) Time to the first streamed delta of a turn through ``workers`` (SSE from
``POST /v1/agent/turns``) against asking the same server directly for a streamed
completion (target: <= 1.1). The server waits ``PREFILL_SECONDS`` before its first
piece, as a small local model does (SmolLM2-135M on 2 CPU cores answers its first
piece in about 0.4 s once loaded), so the ratio shows what the backend adds to a real
wait. (b) Bytes of note text in the model requests of a turn that calls no tool
(target: 0), counted line by line in every request body the server received.

R75, on a peer that reads prompts as a local model does (``prefill_seconds_per_kib``:
the time before its first piece grows with the bytes past the prefix it read last,
which a real server's prompt cache skips): (c) the first delta of "summarise this"
through ``workers`` against one direct request carrying the same instructions and
note (target: <= 1.5): the backend reads the note itself and asks once, so only its
own few lines are extra; a second model round, or tool schemas re-read before the
answer, would show here. (d) What the model is shown for a note-only turn (every
request's prompt, rendered as the bundled server renders it) against the note plus a
fixed 2 KiB allowance (target: <= 1).
"""

from __future__ import annotations

import itertools
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
from workers.model import chatml
from workers.model.prompt import INSTRUCTIONS
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
SUMMARY_NOTE = (
    "# Venue call, Tuesday\n"
    "Present: Ana, Bo, Chen. The launch stays on Thursday; doors open at six.\n"
    "\n"
    "## Decisions\n"
    "- The quartz room holds 120 people, enough for the guest list.\n"
    "- Catering is the bakery on Elm Street; Bo confirms the menu by Friday.\n"
    "- No stage: the talks are short and happen by the windows.\n"
    "\n"
    "## Open\n"
    "- [ ] book the quartz room (Ana)\n"
    "- [ ] send the floor plan to the caterer\n"
    "- [x] send invitations\n"
    "- [ ] ask about parking for the band\n"
    "\n"
    "## Notes\n"
    "Ana thinks the windows side is cold after dark; Chen will bring two heaters. The\n"
    "bakery needs the final count a week ahead, so the guest list closes on the 12th.\n"
    "Bo asked whether the band can play until ten; the venue says nine is the limit\n"
    "on weekdays, so the band starts at seven. Next call: Monday at noon, same link.\n"
)
"""A note of the size a person asks to summarise (about 800 bytes)."""
PREFILL_SECONDS_PER_KIB = 1.0
"""SmolLM2-135M on this shared 2-core machine reads about 250 tokens (1 KiB) a second."""
ALLOWANCE_BYTES = 2048
"""What a note-only turn may show the model beyond the note (instructions, the ask)."""
TOKEN = "bench-token"
ACCESS_HEADERS = ("Authorization", KEY_SESSION_HEADER)


@contextmanager
def _backend(model: ScriptedModel, note: str = NOTE_TEXT) -> Iterator[tuple[str, dict[str, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            data_dir=Path(folder), device_token=TOKEN, model_base_url=model.url, model=MODEL_ID
        )
        write_notes(settings, WORKSPACE, {NOTE: note})
        with backend(settings, WORKSPACE) as (server, session):
            # The device token and the key session, as headers for the timed sessions.
            headers = {name: str(session.headers[name]) for name in ACCESS_HEADERS}
            yield server.url, {**headers, HEADER_NAME: pointer_header(NOTE, note)}


def _first_line_with(response: requests.Response, marker: bytes) -> None:
    for line in response.iter_lines(chunk_size=None):
        if marker in line:
            return
    raise RuntimeError("the stream ended before its first piece of text")


def _through_workers(
    http: requests.Session,
    url: str,
    headers: dict[str, str],
    message: str = "what is planned?",
    conversation: str = "bench",
) -> None:
    with http.post(
        f"{url}/v1/agent/turns",
        json={"conversation": conversation, "message": message},
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


def _direct_with_note(http: requests.Session, base_url: str) -> None:
    """One request that carries the instructions and the note: the least a client can send."""
    body: dict[str, Any] = {
        "model": MODEL_ID,
        "stream": True,
        "messages": [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": f"{SUMMARY_NOTE}\n\nsummarise this"},
        ],
    }
    with http.post(f"{base_url}/chat/completions", json=body, stream=True, timeout=30) as response:
        _first_line_with(response, b'"content": "A')


def _summary_first_delta() -> Measurement:
    model = ScriptedModel(prefill_seconds_per_kib=PREFILL_SECONDS_PER_KIB)
    model.default = lambda _body: text(REPLY)
    model.start()
    try:
        with _backend(model, SUMMARY_NOTE) as (url, headers), requests.Session() as http:
            http.trust_env = False

            # Each side starts where a server that answered earlier turns stands: its cache
            # holds the instructions, never this very prompt (a person asks once).
            seen = f"{chatml.IM_START}system\n{INSTRUCTIONS}"

            asked = itertools.count()

            def through() -> None:
                model.read_last(seen)
                # A new conversation each time: an ask with no history, like the direct one.
                conversation = f"summary-{next(asked)}"
                _through_workers(http, url, headers, "summarise this", conversation)

            def direct() -> None:
                model.read_last(seen)
                _direct_with_note(http, model.url)

            through()  # warm: connections, first SDK request
            direct()
            ratios = paired_ratios(through, direct)
        backend_requests = [
            r for r in model.chat_requests if r.body["messages"][0]["content"] != INSTRUCTIONS
        ]
    finally:
        model.close()
    return Measurement(
        name="model: summarise this first delta, workers / one request with the note",
        median=median(ratios),
        target=1.5,
        samples=ratios,
        details={
            "prefill_seconds_per_kib": PREFILL_SECONDS_PER_KIB,
            "note_bytes": len(SUMMARY_NOTE.encode()),
            "model_requests_per_turn": len(backend_requests) / (len(ratios) + 1),
        },
    )


def _prompt_per_note_only_turn() -> Measurement:
    with scripted_model() as model:
        model.default = lambda _body: text(REPLY)
        with _backend(model, SUMMARY_NOTE) as (url, headers):
            response = requests.post(
                f"{url}/v1/agent/turns",
                json={"conversation": "prompt", "message": "summarise this"},
                headers=headers,
                timeout=30,
            )
            response.raise_for_status()
            assert [c["name"] for c in response.json()["toolCalls"]] == ["read_active_note"]
        shown = [request.prompt for request in model.chat_requests]
    note = len(SUMMARY_NOTE.encode())
    total = sum(len(prompt.encode()) for prompt in shown)
    assert all(SUMMARY_NOTE in prompt for prompt in shown[-1:]), "the note was not shown"
    ratio = total / (note + ALLOWANCE_BYTES)
    return Measurement(
        name="model: prompt shown per note-only turn / (note + 2 KiB)",
        median=ratio,
        target=1.0,
        samples=[ratio],
        details={"requests": len(shown), "prompt_bytes": total, "note_bytes": note},
    )


def run() -> list[Measurement]:
    return [
        _first_delta(),
        _note_bytes_without_tools(),
        _summary_first_delta(),
        _prompt_per_note_only_turn(),
    ]
