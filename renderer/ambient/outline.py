"""What the todo and mindmap views show: the tasks and the heading tree of a note.

Both come from the one Markdown reading (:mod:`bridge.markdown`, R39), so the views
agree with the preview and the assistant; this module only shapes that reading for
drawing. Qt-free so it is testable on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from bridge.markdown import read_note


class Task(NamedTuple):
    """One task-list item of the note, as the todo view lists it.

    A tuple of plain values, which the cycle collector stops tracking: a note's
    tens of thousands of tasks add nothing to each collection while the list is shown.
    """

    line: int
    """0-based line of the task's mark (the editor's block number)."""
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
    height: float = field(default=0.0, compare=False)
    """The height its subtree takes on the map, set by :func:`map_tree`."""


NODE_HEIGHT = 30.0
GAP_Y = 12.0
"""The map's node height and the gap between siblings, in pixels."""
TASK_DRAWN_CHARS: Final = 500
"""Characters of a task's text the todo view draws: a row shows one line of it."""
TITLE_DRAWN_CHARS: Final = 120
"""Characters of a heading the map draws in its node: a node is one line."""
CLIPPED: Final = "…"
MAP_HEADINGS: Final = 2_000
"""Headings the map draws: a scene of many more items is indexed and measured for a
second or more at once on the GUI thread (R91), and no one reads such a map."""
MAP_MORE: Final = "⋯ {count:,} more headings: the preview shows them"


def clipped(text: str, most: int) -> str:
    """``text`` as a label draws it: at most ``most`` characters, ending in … when cut (R91).

    Qt measures and lays out a label's whole text each time it paints it: a task or a
    heading of a megabyte would hold the GUI thread at every paint. The note keeps all
    of it; the edit view shows it.
    """
    return text if len(text) <= most else text[: most - 1] + CLIPPED


def parse_tasks(text: str) -> list[Task]:
    """Every task of the note, in order."""
    return [
        Task(line=task.line, checked=task.done, label=task.text, mark_column=task.mark_column)
        for task in read_note(text).tasks
    ]


def parse_headings(text: str, root_title: str) -> Heading:
    """The heading tree under a root named ``root_title`` (level 0)."""
    root = Heading(level=0, title=root_title, line=-1)
    stack = [root]
    headings = read_note(text).headings
    for found in headings[:MAP_HEADINGS]:
        heading = Heading(level=found.level, title=found.text, line=found.line)
        while stack[-1].level >= heading.level:
            stack.pop()
        stack[-1].children.append(heading)
        stack.append(heading)
    if len(headings) > MAP_HEADINGS:  # the map says what it leaves out
        more = MAP_MORE.format(count=len(headings) - MAP_HEADINGS)
        root.children.append(Heading(level=1, title=more, line=-1))
    # A note with a single top heading is its own root: the map starts there.
    if len(root.children) == 1 and root.children[0].level == 1:
        return root.children[0]
    return root


def map_tree(text: str, root_title: str) -> Heading:
    """The heading tree with each subtree's height on the map: linear in the headings."""
    root = parse_headings(text, root_title)
    order: list[Heading] = []
    pending = [root]
    while pending:  # an explicit stack: a deeply nested note cannot exhaust recursion
        heading = pending.pop()
        order.append(heading)
        pending += heading.children
    for heading in reversed(order):  # children before their parents
        total = sum(child.height for child in heading.children)
        heading.height = max(NODE_HEIGHT, total + GAP_Y * (len(heading.children) - 1))
    return root
