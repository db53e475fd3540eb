"""Applying a proposal, and the cost of a refused conditional save (R52, R53).

(a) Applying a proposal of 50 ticks spread over a 1 MiB note in the editor, the way
the window's Apply does it (:class:`renderer.qt.edits.TrackedEdits`, made when the
proposal was reviewed and kept in place through a few keystrokes typed since, applies
its ranges as one undo step), against a bare ``QTextCursor`` replace of the same
ranges after the same set-up (the note's text read, five keystrokes typed): <= 1.5.
The review itself (finding the base, converting positions) happens
when the reply arrives and is reported beside it, without a target.
(b) A PUT whose ``If-Match`` no longer matches (412, nothing written) against a plain
PUT of the same 256 KiB body through real HTTP: <= 1.2, so the refused path costs no
more than a save. Both sides are timed in CPU time of this process (the backend is
embedded in a thread), so the time other processes take is left out.
(c) The same refusal on a settled note (last written over two seconds before, so its
digest is remembered: :mod:`workers.digests`), the plain PUTs going to another note
of the same size: <= 1.2; the refusal then reads nothing of the saved copy.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from benchmarks.backend import backend, write_notes
from benchmarks.measure import CPU_CLOCK, Measurement, alternating_pairs, median, paired_ratios
from workers.digests import SETTLED_NS
from workers.settings import Settings

APPLY_TARGET = 1.5
CONFLICT_TARGET = 1.2
NOTE_BYTES = 1024 * 1024
TICKS = 50
KEYSTROKES = 5
PUT_BYTES = 256 * 1024
PUTS_PER_SAMPLE = 10
WORKSPACE = "bench"
NOTE = "notes/conflict.md"
OTHER_NOTE = "notes/saved.md"
SETTLING_SECONDS = SETTLED_NS / 1e9 + 0.25


def run() -> list[Measurement]:
    return [_apply_cost(), _conflict_cost(settled=False), _conflict_cost(settled=True)]


def _note() -> str:
    line = "- [ ] a task line in a long note, with some words to read\n"
    return (line * (NOTE_BYTES // len(line) + 1))[:NOTE_BYTES]


def _apply_cost() -> Measurement:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication, QPlainTextEdit

    from bridge.wire import ProposalEdit
    from renderer.frames.inbox.runtime import read_document_text
    from renderer.qt.edits import TrackedEdits

    application = QApplication.instance() or QApplication([])
    text = _note()
    step = len(text) // TICKS
    marks = [text.index("[ ]", index * step) + 1 for index in range(TICKS)]
    edits = [ProposalEdit(start=mark, end=mark + 1, text="x") for mark in marks]
    editor = QPlainTextEdit()
    editor.setPlainText(text)
    document = editor.document()

    reviews: list[float] = []

    def the_window() -> float:
        began = CPU_CLOCK()
        tracked = TrackedEdits(document, read_document_text(editor), edits, None)
        reviews.append(CPU_CLOCK() - began)
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        for _key in range(KEYSTROKES):  # typing after the review, at the end of the note
            cursor.insertText("z")
        began = CPU_CLOCK()
        applied = tracked.apply()
        spent = CPU_CLOCK() - began
        assert applied
        document.undo()  # outside the timing: back to the base text
        for _key in range(KEYSTROKES):
            document.undo()
        tracked.deleteLater()
        return spent

    def bare_cursor() -> float:
        read_document_text(editor)  # the same set-up as the window's side: the text was read
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        for _key in range(KEYSTROKES):  # the same typing, so both replace in the same text
            cursor.insertText("z")
        began = CPU_CLOCK()
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        for edit in reversed(edits):
            cursor.setPosition(edit.start)
            cursor.setPosition(edit.end, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(edit.text)
        cursor.endEditBlock()
        spent = CPU_CLOCK() - began
        document.undo()
        for _key in range(KEYSTROKES):
            document.undo()
        return spent

    the_window(), bare_cursor()  # warm both
    assert read_document_text(editor) == text
    subject, floor = alternating_pairs(the_window, bare_cursor)
    ratios = [s / f for s, f in zip(subject, floor, strict=True)]
    editor.deleteLater()
    del application
    return Measurement(
        name="edits: applying a 50-edit proposal to a 1 MiB note vs a bare QTextCursor replace",
        median=median(ratios),
        target=APPLY_TARGET,
        samples=ratios,
        details={
            "floor_ms": median(floor) * 1000,
            "apply_ms": median(subject) * 1000,
            "review_ms": median(reviews) * 1000,
        },
    )


def _conflict_cost(*, settled: bool) -> Measurement:
    import requests

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder))
        body = ("x" * 63 + "\n") * (PUT_BYTES // 64)
        saved = OTHER_NOTE if settled else NOTE
        write_notes(settings, WORKSPACE, {NOTE: body, OTHER_NOTE: body})
        if settled:
            time.sleep(SETTLING_SECONDS)  # the refused note is then never written again
        with backend(settings, WORKSPACE) as (server, session):
            documents = f"{server.url}/v1/workspaces/{WORKSPACE}/documents"
            data = body.encode()
            stale = {"If-Match": '"' + "0" * 64 + '"', "Content-Type": "text/plain"}

            def refused() -> requests.Response:
                response = session.put(f"{documents}/{NOTE}", data=data, headers=stale, timeout=10)
                assert response.status_code == 412
                return response

            def plain() -> requests.Response:
                response = session.put(f"{documents}/{saved}", data=data, timeout=10)
                assert response.status_code == 200
                return response

            refused(), plain()
            began = time.monotonic()
            ratios = paired_ratios(refused, plain, number=PUTS_PER_SAMPLE, clock=CPU_CLOCK)
            seconds = time.monotonic() - began
    where = " on a settled note" if settled else ""
    return Measurement(
        name=f"edits: a PUT refused by If-Match (412){where} vs a plain PUT of 256 KiB",
        median=median(ratios),
        target=CONFLICT_TARGET,
        samples=ratios,
        details={"puts_per_sample": PUTS_PER_SAMPLE, "wall_seconds": seconds},
    )
