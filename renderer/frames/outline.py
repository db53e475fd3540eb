"""What the todo and mindmap views show, read from note text: tasks and the heading tree.

Qt-free so the parsing is testable on its own; the views only draw the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

_TASK = re.compile(r"^(?P<indent>\s*)[-*+]\s+\[(?P<mark>[ xX])\]\s?(?P<label>.*)$")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Task:
    """One ``- [ ]`` / ``- [x]`` line of the note."""

    line: int
    checked: bool
    label: str
    mark_column: int
    """Index within the line of the character between the brackets (UTF-16 units)."""


@dataclass
class Heading:
    """A heading and the headings nested under it."""

    level: int
    title: str
    line: int
    children: list[Heading] = field(default_factory=list)


def _lines_outside_fences(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) for every line outside fenced code: a task or heading there is text."""
    in_fence = False
    for number, line in enumerate(text.split("\n")):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            yield number, line


def parse_tasks(text: str) -> list[Task]:
    """Every task line outside fenced code, in order."""
    tasks: list[Task] = []
    for number, line in _lines_outside_fences(text):
        match = _TASK.match(line)
        if match is None:
            continue
        column = match.start("mark")
        tasks.append(
            Task(
                line=number,
                checked=match.group("mark") in "xX",
                label=match.group("label").strip(),
                mark_column=utf16_length(line[:column]),
            )
        )
    return tasks


def parse_headings(text: str, root_title: str) -> Heading:
    """The heading tree under a root named ``root_title`` (level 0)."""
    root = Heading(level=0, title=root_title, line=-1)
    stack = [root]
    for number, line in _lines_outside_fences(text):
        match = _HEADING.match(line)
        if match is None:
            continue
        heading = Heading(level=len(match.group("hashes")), title=match.group("title"), line=number)
        while stack[-1].level >= heading.level:
            stack.pop()
        stack[-1].children.append(heading)
        stack.append(heading)
    # A note with a single top heading is its own root: the map starts there.
    if len(root.children) == 1 and root.children[0].level == 1:
        return root.children[0]
    return root


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, as Qt and CodeMirror count positions."""
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2
