"""The Inline AI command: its bounded context, its one-shot request, its Accept (R69, R70, R72).

(a) Building the request on a 5 MiB note in a live ``QTextDocument``
(:func:`renderer.ambient.inline.build_context` over
:class:`renderer.qt.inline_slices.DocumentSlices`, an 8 KiB selection in the middle)
against slicing the same text out of the same document: one ``QTextCursor`` over
exactly the range the request sends, read as text: <= 1.5. It costs what the slice
costs, never the note.
(b) The first streamed delta of ``POST /v1/workspaces/{ws}/inline`` with the model
assistant, against asking the same scripted server directly for a streamed
completion: <= 1.2. The server waits ``PREFILL_SECONDS`` before its first piece, as
a small local model does.
(c) Accept on a 1 MiB note (:class:`renderer.qt.inline_selection.TrackedSelection`,
made when the request was sent, kept through five keystrokes typed elsewhere since,
checks the text and replaces it as one undo step) against a bare ``QTextCursor``
replace of the same range after the same keystrokes: <= 1.5.
Qt sides are timed in CPU time of this process.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from benchmarks.backend import backend, write_notes
from benchmarks.measure import (
    CPU_CLOCK,
    Measurement,
    alternating_pairs,
    median,
    paired_ratios,
)
from bridge.headers import KEY_SESSION_HEADER
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model, text
from workers.settings import Settings

CONTEXT_TARGET = 1.5
FIRST_DELTA_TARGET = 1.2
ACCEPT_TARGET = 1.5
CONTEXT_NOTE_BYTES = 5 * 1024 * 1024
ACCEPT_NOTE_BYTES = 1024 * 1024
SELECTION_CHARS = 8192
"""Half the most the command sends: the slice read is then mostly the selection, as it is
for a paragraph or more; the Python around the read costs about 8 µs whatever its size."""
BUILDS_PER_SAMPLE = 20
KEYSTROKES = 5
PREFILL_SECONDS = 0.4
WORKSPACE = "bench"
TOKEN = "bench-token"
REPLY = "- [x] a task line\n- [x] another task line\n"
ACCESS_HEADERS = ("Authorization", KEY_SESSION_HEADER)
LINE = "- [ ] a task line in a long note, with some words to read\n"


def run() -> list[Measurement]:
    return [_context_cost(), _first_delta(), _accept_cost()]


def _note(size: int) -> str:
    return (LINE * (size // len(LINE) + 1))[:size]


def _application() -> Any:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def _context_cost() -> Measurement:
    application = _application()
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QPlainTextEdit

    from renderer.ambient.inline import build_context
    from renderer.qt.inline_slices import BLOCK_SEPARATOR, DocumentSlices

    note = _note(CONTEXT_NOTE_BYTES)
    editor = QPlainTextEdit()
    editor.setPlainText(note)
    document = editor.document()
    start = note.index("\n", len(note) // 2) + 1
    end = start + SELECTION_CHARS
    request = build_context(DocumentSlices(document), "notes/big.md", "tick", start, end).request
    sent_from = start - len(request.before)
    sent_to = end + len(request.after)

    def the_command() -> float:
        began = CPU_CLOCK()
        for _ in range(BUILDS_PER_SAMPLE):
            build_context(DocumentSlices(document), "notes/big.md", "tick", start, end)
        return CPU_CLOCK() - began

    def slicing() -> float:
        began = CPU_CLOCK()
        for _ in range(BUILDS_PER_SAMPLE):
            cursor = QTextCursor(document)
            cursor.setPosition(sent_from)
            cursor.setPosition(sent_to, QTextCursor.MoveMode.KeepAnchor)
            cursor.selectedText().replace(BLOCK_SEPARATOR, "\n")
        return CPU_CLOCK() - began

    the_command(), slicing()  # warm both
    subject, floor = alternating_pairs(the_command, slicing)
    ratios = [s / f for s, f in zip(subject, floor, strict=True)]
    editor.deleteLater()
    del application
    return Measurement(
        name="inline: building the context on a 5 MiB note vs slicing the same text",
        median=median(ratios),
        target=CONTEXT_TARGET,
        samples=ratios,
        details={
            "build_ms": median(subject) * 1000 / BUILDS_PER_SAMPLE,
            "slice_ms": median(floor) * 1000 / BUILDS_PER_SAMPLE,
            "sent_bytes": request.bytes,
        },
    )


@contextmanager
def _backend(model: ScriptedModel) -> Iterator[tuple[str, dict[str, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            data_dir=Path(folder), device_token=TOKEN, model_base_url=model.url, model=MODEL_ID
        )
        write_notes(settings, WORKSPACE, {"notes/plan.md": "# Plan\n"})
        with backend(settings, WORKSPACE) as (server, session):
            headers = {name: str(session.headers[name]) for name in ACCESS_HEADERS}
            yield server.url, headers


def _first_line_with(response: requests.Response, marker: bytes) -> None:
    for line in response.iter_lines(chunk_size=None):
        if marker in line:
            return
    raise RuntimeError("the stream ended before its first piece of text")


_BODY = {
    "instruction": "tick these",
    "path": "notes/plan.md",
    "before": "# Plan\n",
    "selection": "- [ ] a task line\n- [ ] another task line\n",
    "after": "",
    "lines": [1, 3],
}


def _through_workers(http: requests.Session, url: str, headers: dict[str, str]) -> None:
    with http.post(
        f"{url}/v1/workspaces/{WORKSPACE}/inline",
        json=_BODY,
        headers={**headers, "Accept": "text/event-stream"},
        stream=True,
        timeout=30,
    ) as response:
        _first_line_with(response, b"event: delta")


def _direct(http: requests.Session, base_url: str) -> None:
    body: dict[str, Any] = {
        "model": MODEL_ID,
        "stream": True,
        "max_tokens": 4096,
        "messages": [{"role": "user", "content": "tick these"}],
    }
    with http.post(f"{base_url}/chat/completions", json=body, stream=True, timeout=30) as response:
        _first_line_with(response, b'"content": "-')


def _first_delta() -> Measurement:
    with scripted_model() as model:
        model.default = lambda _body: text(REPLY, first_piece_delay=PREFILL_SECONDS)
        with _backend(model) as (url, headers), requests.Session() as http:
            http.trust_env = False
            _through_workers(http, url, headers)  # warm: connections, the SDK's first request
            _direct(http, model.url)
            ratios = paired_ratios(
                lambda: _through_workers(http, url, headers), lambda: _direct(http, model.url)
            )
    return Measurement(
        name="inline: first streamed delta, workers / direct",
        median=median(ratios),
        target=FIRST_DELTA_TARGET,
        samples=ratios,
        details={"prefill_seconds": PREFILL_SECONDS},
    )


def _accept_cost() -> Measurement:
    application = _application()
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QPlainTextEdit

    from renderer.qt.inline_selection import TrackedSelection
    from renderer.qt.inline_slices import DocumentSlices

    note = _note(ACCEPT_NOTE_BYTES)
    editor = QPlainTextEdit()
    editor.setPlainText(note)
    document = editor.document()
    start = note.index("\n", len(note) // 2) + 1
    end = note.index("\n", start + 2048) + 1
    sent = note[start:end]
    replacement = sent.replace("[ ]", "[x]")

    def type_elsewhere() -> None:
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        for _key in range(KEYSTROKES):
            cursor.insertText("z")

    def undo_all() -> None:
        for _step in range(KEYSTROKES + 1):
            document.undo()

    def the_command() -> float:
        tracked = TrackedSelection(document, start, end)  # made when the request was sent
        type_elsewhere()
        began = CPU_CLOCK()
        replaced = tracked.replace(sent, replacement)
        spent = CPU_CLOCK() - began
        assert replaced
        undo_all()
        return spent

    def bare_cursor() -> float:
        type_elsewhere()
        began = CPU_CLOCK()
        cursor = QTextCursor(document)
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.beginEditBlock()
        cursor.insertText(replacement)
        cursor.endEditBlock()
        spent = CPU_CLOCK() - began
        undo_all()
        return spent

    the_command(), bare_cursor()  # warm both
    assert DocumentSlices(document).read(0, len(note)) == note
    subject, floor = alternating_pairs(the_command, bare_cursor)
    ratios = [s / f for s, f in zip(subject, floor, strict=True)]
    editor.deleteLater()
    del application
    return Measurement(
        name="inline: Accept on a 1 MiB note vs a bare QTextCursor replace",
        median=median(ratios),
        target=ACCEPT_TARGET,
        samples=ratios,
        details={"accept_ms": median(subject) * 1000, "floor_ms": median(floor) * 1000},
    )
