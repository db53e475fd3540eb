"""Changes to a note's text as ``propose_note_edit`` takes them: an ``oldText`` that occurs
once and its ``newText`` (R54), found in code points along the reading's lines."""

from __future__ import annotations

from typing import Final

_UNIQUE_TRIES: Final = 20


def unique_change(
    text: str, start: int, end: int, edit_start: int, edit_end: int, replacement: str
) -> tuple[str, str]:
    """(oldText, newText) for the change, widened by whole lines until oldText occurs once."""
    for _try in range(_UNIQUE_TRIES):
        if text.count(text[start:end]) <= 1 or (start == 0 and end == len(text)):
            break
        if start > 0:
            start = text.rfind("\n", 0, start - 1) + 1
        else:
            following = text.find("\n", end + 1)
            end = len(text) if following < 0 else following
    old = text[start:end]
    new = text[start:edit_start] + replacement + text[edit_end:end]
    return old, new


def line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line in code points, breaking where the reading does (CRLF, CR, LF)."""
    spans: list[tuple[int, int]] = []
    start = 0
    index = 0
    length = len(text)
    if "\r" not in text:
        for line in text.split("\n"):
            spans.append((start, start + len(line)))
            start += len(line) + 1
        return spans
    while index < length:
        char = text[index]
        if char in "\r\n":
            spans.append((start, index))
            index += 2 if text.startswith("\r\n", index) else 1
            start = index
        else:
            index += 1
    spans.append((start, length))
    return spans


def code_points(line: str, utf16_column: int) -> int:
    """The code-point index of a UTF-16 column in ``line``."""
    units = 0
    for index, char in enumerate(line):
        if units >= utf16_column:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)
