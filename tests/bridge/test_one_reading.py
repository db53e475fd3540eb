"""R39: the note's reading and its preview come from one parse, so they never disagree.

The three notes where the reading (once markdown-it-py's tokens) and the preview
(cmark-gfm's HTML) disagreed, each held to one answer: the headings the
preview draws are the reading's, and the preview draws a box for each of the
reading's tasks and for nothing else.
"""

from __future__ import annotations

from html import unescape
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.markdown import read_note, render_html
from renderer.ambient.outline import parse_headings, parse_tasks


class _PreviewHeadings(HTMLParser):
    """The (level, text) of each heading the preview's HTML draws."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if self._text is not None and len(tag) == 2 and tag[0] == "h":
            self.found.append((int(tag[1]), " ".join("".join(self._text).split())))
            self._text = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def _preview_headings(note: str) -> list[tuple[int, str]]:
    parser = _PreviewHeadings()
    parser.feed(render_html(note))
    return parser.found


def test_r39_an_escaped_mark_is_no_task_and_no_box() -> None:
    note = "- \\[ ] escaped\n- [ ] real\n"
    assert [task.text for task in read_note(note).tasks] == ["real"]
    assert [task.label for task in parse_tasks(note)] == ["real"]
    html = render_html(note)
    assert html.count("☐") == 1
    assert "[ ] escaped" in unescape(html)


def test_r39_a_reference_heading_before_raw_html_reads_as_the_preview_draws_it() -> None:
    note = "[ref]: /url\n# [ref]\n</div>\n"
    assert _preview_headings(note) == [(1, "ref")]
    assert [(h.level, h.text) for h in read_note(note).headings] == [(1, "ref")]
    assert read_note(note).title == "ref"


@pytest.mark.parametrize(
    "note",
    [
        "</div>\n- ```\n</div>\n```\n\n## 会議 会議\n",
        "<div>\n    ```\n````\nx\n\n## 会議 会議\n",
        "x\n<div>\n> ```\n    ```\n```\n\n## 会議 会議\n",
        "</div>\n## 会議 会議\n```\n- ```\nx\n\n## 会議 会議\n",
    ],
)
def test_r39_fences_and_raw_html_before_a_heading_give_everyone_the_same_headings(
    note: str,
) -> None:
    drawn = _preview_headings(note)
    assert [(h.level, h.text) for h in read_note(note).headings] == drawn
    tree = parse_headings(note, "x.md")
    flattened = [(child.level, child.title) for child in tree.children] or (
        [(tree.level, tree.title)] if tree.level else []
    )
    assert flattened == drawn


def test_r39_raw_html_is_shown_as_text_and_hides_no_heading() -> None:
    """An HTML block runs to the next blank line: the heading inside it is its text."""
    note = "</div>\n## 会議 会議\n"
    assert read_note(note).headings == []
    html = render_html(note)
    assert "<h2>" not in html
    assert "&lt;/div&gt;\n## 会議 会議" in html


def test_r39_a_task_in_a_quote_is_a_task_and_a_box() -> None:
    """cmark-gfm's own task-list extension misses these; the reading must not."""
    note = "> - [ ] quoted\n>   - [x] nested\n"
    assert [(t.text, t.done) for t in read_note(note).tasks] == [
        ("quoted", False),
        ("nested", True),
    ]
    html = render_html(note)
    assert (html.count("☐"), html.count("☑")) == (1, 1)


_LINES = [
    "```",
    "~~~",
    "````",
    "</div>",
    "<div>",
    "",
    "x",
    "    ```",
    "> ```",
    "- ```",
    "## 会議 会議",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), min_size=1, max_size=7))
def test_r39_the_preview_and_the_reading_find_the_same_headings(lines: list[str]) -> None:
    """Runs of fences, raw HTML and headings: where the two parsers once disagreed."""
    note = "\n".join([*lines, "## 会議 会議"]) + "\n"
    assert [(h.level, h.text) for h in read_note(note).headings] == _preview_headings(note)


_ITEM_STARTS = ["- ", "* ", "1. ", "> - ", "  - ", "-\n  ", "- \\", "- é "]
_ITEM_MARKS = ["[ ] ", "[x] ", "[X]\t", "[ ]", "[x]\n  more", "[ ](/u) ", "[y] ", ""]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_ITEM_STARTS), st.sampled_from(_ITEM_MARKS), st.booleans()),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_r39_the_preview_draws_a_box_for_each_task_of_the_reading(
    items: list[tuple[str, str, bool]], linked: bool
) -> None:
    """Tight and loose lists, quotes, escapes and marks that are link labels."""
    note = "".join(
        start + mark + "task" + ("\n\n" if loose else "\n") for start, mark, loose in items
    )
    if linked:
        note += "\n[x]: https://example.com\n"
    tasks = read_note(note).tasks
    html = render_html(note)
    opened = sum(1 for task in tasks if not task.done)
    assert (html.count("☐"), html.count("☑")) == (opened, len(tasks) - opened)
