"""Hostile notes and replies drawn in the real window: the GUI thread's longest stall (R91).

The third audit's notes, at full size: each is one top-level block that Qt, handed
it whole, laid out for seconds to minutes. For each, a real
:class:`~app.window.main_window.MainWindow` (embedded backend) switches a loaded frame to
its preview, then to the todo view and the map; the same payloads written as a
heading and a task (and notes of 100,000 tasks or 50,000 headings) are drawn in the
todo view and the map; and each payload is a model's reply (a scripted
OpenAI-compatible server on loopback) shown in the assistant's transcript. The
longest gap of a 5 ms timer from each switch or send until the view is drawn, or
the reply shown, is the stall; the same timer's longest gap with the window idle
is the floor, in the details.
"""

from __future__ import annotations

import functools
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from benchmarks.bench_views import _idle_stall, _longest_gap_ms, _mount, _start
from benchmarks.measure import Measurement
from bridge.views import MINDMAP, PREVIEW, TODO, View

if TYPE_CHECKING:
    from app.window.main_window import MainWindow
    from renderer.frames.inbox.frame import InboxFrame
    from tests.support.scripted_model import ScriptedModel

STALL_TARGET_MS: Final = 100.0
SETTLE_SECONDS: Final = 0.3
"""How long a shown reply is watched after its turn ends: its label lays out meanwhile."""
REPLY_PIECE_CHARS: Final = 16_384
"""How a hostile reply is streamed: in pieces this long, as a fast model would send it."""


def _columns(count: int) -> str:
    return "|" + "a|" * count + "\n|" + "-|" * count + "\n|" + "1|" * count + "\n"


HOSTILE_NOTES: Final[dict[str, Callable[[], str]]] = {
    "50,000 nested quotes": lambda: "> " * 50_000 + "x",
    "a 100,000-row table": lambda: "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 100_000,
    "50,000 emphasis runs": lambda: "**_" * 50_000,
    "a 20,000-column table": lambda: _columns(20_000),
    "a 100 KB autolink": lambda: "https://example.com/" + "a" * 100_000,
    "50,000 entity starts": lambda: "&#" * 50_000,
    "a 1 MB one-line table": lambda: "| a | b |\n|---|---|\n| " + "x" * 1_000_000 + " | y |\n",
}
"""The audit's notes (issue 45), by what they are: the tests draw the same ones."""


def _heading_and_task(line: str) -> str:
    return f"# {line}\n\n- [ ] {line}\n"


HOSTILE_OUTLINES: Final[dict[str, Callable[[], str]]] = {
    "a heading and a task of 50,000 nested quotes": lambda: _heading_and_task("> " * 50_000),
    "a heading and a task of 50,000 emphasis runs": lambda: _heading_and_task("**_" * 50_000),
    "a heading and a task of a 100 KB autolink": lambda: _heading_and_task(
        "https://example.com/" + "a" * 100_000
    ),
    "a heading and a task of 50,000 entity starts": lambda: _heading_and_task("&#" * 50_000),
    "a heading and a task of 1 MB": lambda: _heading_and_task("x" * 1_000_000),
    "100,000 tasks": lambda: "- [ ] a task\n" * 100_000,
    "50,000 headings": lambda: "".join(f"{'#' * (1 + n % 6)} h{n}\n" for n in range(50_000)),
}
"""The audit's payloads where the todo view and the map draw them: a heading's and a task's
text; and the most tasks and headings a note of about a megabyte holds."""


def _drawn(frame: InboxFrame) -> bool:
    return not frame.renders.busy and not frame.preview.laying_out


_NOTE_VIEWS: Final[tuple[tuple[View, str], ...]] = (
    (PREVIEW, "preview"),
    (TODO, "todo view"),
    (MINDMAP, "map"),
)


def _view_stalls(
    window: MainWindow,
    path: str,
    label: str,
    views: tuple[tuple[View, str], ...],
    details: dict[str, float | str],
) -> list[Measurement]:
    """The note drawn in each of ``views`` in turn, and the longest stall of each drawing."""
    frame = _mount(window, "inbox-" + path.rsplit("/", 1)[-1].removesuffix(".md"), path)
    measured = []
    for view, name in views:
        stall = _longest_gap_ms(
            functools.partial(frame.set_view, view), functools.partial(_drawn, frame)
        )
        measured.append(_gate(f"drawing {label} in the {name}", stall, details))
    frame.set_view("edit")
    window.driver.close_frame(frame.frame_id)
    return measured


def run() -> list[Measurement]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from tests.support.scripted_model import scripted_model

    application = QApplication.instance() or QApplication([])
    notes = {f"notes/hostile-{n}.md": make() for n, make in enumerate(HOSTILE_NOTES.values())}
    notes |= {f"notes/outline-{n}.md": make() for n, make in enumerate(HOSTILE_OUTLINES.values())}
    results: list[Measurement] = []
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as folder, scripted_model() as model:
        _use_model(Path(folder), model.url)
        session, window = _start(Path(folder), notes)
        try:
            idle = _idle_stall()
            details: dict[str, float | str] = {"idle_stall_ms": round(idle, 1)}
            for n, label in enumerate(HOSTILE_NOTES):
                path = f"notes/hostile-{n}.md"
                results += _view_stalls(window, path, label, _NOTE_VIEWS, details)
            for n, label in enumerate(HOSTILE_OUTLINES):
                path = f"notes/outline-{n}.md"
                results += _view_stalls(window, path, label, _NOTE_VIEWS[1:], details)
            for label, make in HOSTILE_NOTES.items():
                stall = _reply_stall(window, model, make())
                results.append(_gate(f"showing {label} as a reply", stall, details))
        finally:
            window.close()
            session.close()
    del application
    return results


def _gate(what: str, stall: float, details: dict[str, float | str]) -> Measurement:
    return Measurement(
        name=f"longest GUI stall {what} (ms)",
        median=stall,
        unit="ms",
        target=STALL_TARGET_MS,
        samples=[stall],
        details=details,
    )


def _use_model(root: Path, url: str) -> None:
    """The scripted model is the assistant the window starts with (saved as Settings saves it)."""
    from app.assistant.settings import AssistantSettingsStore, SavedAssistant
    from tests.support.scripted_model import MODEL_ID

    (root / "data").mkdir(parents=True, exist_ok=True)
    AssistantSettingsStore(root / "data").save(SavedAssistant(True, url, MODEL_ID), None)


def _reply_stall(window: MainWindow, model: ScriptedModel, reply: str) -> float:
    from tests.support.scripted_model import text

    pieces = [reply[at : at + REPLY_PIECE_CHARS] for at in range(0, len(reply), REPLY_PIECE_CHARS)]
    model.then(text(reply, pieces=pieces))
    ended: list[float] = []

    def on_finished(_record: object) -> None:
        ended.append(time.monotonic())

    assistant = window.assistant
    assistant.turn_finished.connect(on_finished)
    try:
        return _longest_gap_ms(
            functools.partial(assistant.send, "hello"),
            lambda: bool(ended) and time.monotonic() - ended[0] > SETTLE_SECONDS,
        )
    finally:
        assistant.turn_finished.disconnect(on_finished)
