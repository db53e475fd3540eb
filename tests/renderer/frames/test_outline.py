"""What the todo and mindmap views read from note text (no Qt needed)."""

from __future__ import annotations

from bridge.markdown import utf16_length
from renderer.ambient.outline import parse_headings, parse_tasks


def test_tasks_are_found_outside_code_fences_with_utf16_mark_columns() -> None:
    text = "# T\n- [ ] one\n```\n- [ ] not a task\n```\n  * [x] 😀 two\n- [] no\n"
    tasks = parse_tasks(text)
    assert [(task.line, task.checked, task.label) for task in tasks] == [
        (1, False, "one"),
        (5, True, "😀 two"),
    ]
    line = text.split("\n")[5]
    assert line[tasks[1].mark_column] == "x"  # the emoji comes after the mark
    assert utf16_length("😀") == 2


def test_headings_form_a_tree_and_a_single_top_heading_is_the_root() -> None:
    root = parse_headings("# Plan\n## A\n### A1\n## B\n", "plan.md")
    assert root.title == "Plan"
    assert [child.title for child in root.children] == ["A", "B"]
    assert [child.title for child in root.children[0].children] == ["A1"]

    several = parse_headings("## One\n## Two\n", "note.md")
    assert several.title == "note.md"
    assert [child.title for child in several.children] == ["One", "Two"]
    assert parse_headings("no headings", "empty.md").children == []


def test_headings_inside_code_fences_are_text() -> None:
    root = parse_headings("# Plan\n```\n# a shell comment\n```\n## Real\n", "plan.md")
    assert [child.title for child in root.children] == ["Real"]
