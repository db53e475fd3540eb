"""R38, R48: the chip, read_active_note and the model's system message name the same lines.

All three count a selection's lines with ``bridge.markdown.locate_selection``;
these tests hold the desktop side (``selection_lines``) against the backend's
answers for the same note and the same UTF-16 offsets.
"""

from __future__ import annotations

from typing import Any

import pytest

from bridge.pointer import Selection
from renderer.ambient import LineRange, selection_lines
from tests.support.scripted_model import ScriptedModel, text
from tests.workers.conftest import Backend, pointer_header

PATH = "notes/selected.md"

CASES = [
    # (saved copy, anchor, head, lines): offsets count the LF text's UTF-16 code units.
    ("a\n\n\nb\n", 0, 3, LineRange(1, 2)),  # "a\n\n": the blank line 2 is covered, line 3 not
    ("a\n\n\nb\n", 3, 0, LineRange(1, 2)),  # selected upwards
    ("a\n\n\nb\n", 0, 4, LineRange(1, 3)),  # "a\n\n\n": ends where line 4 starts
    ("a\nb\n\n\n", 2, 6, LineRange(2, 4)),  # trailing blank lines are covered
    ("a\n\n\nb\n", 1, 2, LineRange(1, 1)),  # only the line break after line 1
    ("a\n\n\nb\n", 2, 3, LineRange(2, 2)),  # only the blank line 2
    ("x\n\n", 0, 3, LineRange(1, 2)),  # the whole note
    ("one\r\ntwo\r\n\r\nthree\r\n", 4, 9, LineRange(2, 3)),  # CRLF counts as one unit
    ("one\r\ntwo\r\n\r\nthree\r\n", 0, 15, LineRange(1, 4)),
    ("一行目\n😀二\n\n三😀\n", 4, 9, LineRange(2, 3)),  # "😀" is two units
    ("一行目\n😀二\n\n三😀\n", 9, 12, LineRange(4, 4)),
    ("一行目\n😀二\n\n三😀\n", 1, 13, LineRange(1, 4)),
]


def _utf16_slice(note: str, anchor: int, head: int) -> str:
    units = note.replace("\r\n", "\n").encode("utf-16-le")
    start, end = sorted((anchor, head))
    return units[2 * start : 2 * end].decode("utf-16-le")


def _header(saved: str, anchor: int, head: int) -> str:
    return pointer_header(PATH, saved, selection={"anchor": anchor, "head": head})


@pytest.mark.parametrize(("saved", "anchor", "head", "lines"), CASES)
def test_r38_r48_the_chip_and_read_active_note_give_the_same_lines(
    backend: Backend, saved: str, anchor: int, head: int, lines: LineRange
) -> None:
    (backend.root / PATH).write_bytes(saved.encode())
    on_screen = saved.replace("\r\n", "\n")  # the editor holds LF line breaks
    selection = Selection(anchor=anchor, head=head)
    assert selection_lines(on_screen, selection) == lines
    assert selection_lines(saved, selection) == lines

    reply = backend.turn(
        "/tool read_active_note {}", key=backend.key(), ambient=_header(saved, anchor, head)
    )
    (call,) = reply["toolCalls"]
    found: dict[str, Any] = call["result"]["selection"]
    assert (found["firstLine"], found["lastLine"]) == (lines.first, lines.last)
    assert found["text"] == _utf16_slice(saved, anchor, head)


def test_r31_r48_the_system_message_gives_the_chips_lines(
    model_backend: Backend, scripted: ScriptedModel
) -> None:
    saved = "a\n\n\nb\n"
    (model_backend.root / PATH).write_bytes(saved.encode())
    scripted.then(text("ok"))
    model_backend.turn("explain this", key=model_backend.key(), ambient=_header(saved, 0, 3))
    system = scripted.chat_requests[0].body["messages"][0]["content"]
    assert str(selection_lines(saved, Selection(anchor=0, head=3))) == "1–2"
    assert "selected lines 1–2" in system
