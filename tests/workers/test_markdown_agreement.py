"""R39: the todo view, the mindmap, the preview and the assistant read a note the same way.

Hypothesis writes notes from blocks whose meaning is known (headings ATX and
setext, tasks nested in lists and quotes, fenced and indented code holding
heading- and task-like lines, CJK text, CRLF line ends). Every consumer must find
exactly the generated headings and tasks: bridge.markdown, the views' readers
(renderer.ambient.outline, the preview's HTML) and the offline assistant's replies
through the real turn route.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridge.markdown import read_note, render_html
from renderer.ambient.outline import Heading as TreeHeading
from renderer.ambient.outline import parse_headings, parse_tasks
from tests.workers.conftest import TestClient, client_with_key, pointer_header

WORDS = ["alpha", "beta", "gamma", "会議", "メモ", "회의", "노트", "笔记", "déjà", "über", "ñandú"]
PATH = "notes/generated.md"


@dataclass
class Note:
    blocks: list[str] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    tasks: list[tuple[str, bool]] = field(default_factory=list)


phrase = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


@st.composite
def notes(draw: st.DrawFn) -> tuple[str, Note]:
    note = Note()
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(
            st.sampled_from(["atx", "setext", "tasks", "quote", "fence", "indented", "prose"])
        )
        text = draw(phrase)
        if kind == "atx":
            level = draw(st.integers(1, 6))
            note.blocks.append(f"{'#' * level} {text}")
            note.headings.append((level, text))
        elif kind == "setext":
            level = draw(st.integers(1, 2))
            note.blocks.append(f"{text}\n{'===' if level == 1 else '---'}")
            note.headings.append((level, text))
        elif kind in ("tasks", "quote"):
            lines = [f"- {draw(phrase)}"]  # a plain item; its nested items are tasks
            depth = 0
            for step in draw(st.lists(st.integers(-2, 1), min_size=1, max_size=4)):
                depth = max(0, min(depth + step, 2))  # one level deeper at most
                done = draw(st.booleans())
                label = draw(phrase)
                lines.append(f"{'  ' * (depth + 1)}- [{'x' if done else ' '}] {label}")
                note.tasks.append((label, done))
            prefix = "> " if kind == "quote" else ""
            note.blocks.append("\n".join(prefix + line for line in lines))
        elif kind == "fence":
            note.blocks.append(f"```\n# {text}\n- [ ] {text}\n```")
        elif kind == "indented":
            note.blocks.append(f"    # {text}\n    - [ ] {text}")
        else:
            note.blocks.append(text)
    # A paragraph between blocks ends any list, so indented code stays code.
    newline = "\r\n" if draw(st.booleans()) else "\n"
    body = "\n\nend\n\n".join(note.blocks) + "\n"
    return body.replace("\n", newline), note


def _flatten(tree: TreeHeading) -> list[tuple[int, str]]:
    own = [(tree.level, tree.title)] if tree.level > 0 else []
    return own + [pair for child in tree.children for pair in _flatten(child)]


def _listed(reply: str) -> list[str]:
    """The bullet items of a reply, with their indentation."""
    return [line for line in reply.split("\n") if line.lstrip().startswith("- ")]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("agreement")) as pair:
        yield pair


def _turn(api: tuple[TestClient, str], text: str, message: str) -> dict[str, Any]:
    client, key = api
    headers = {"Authorization": "Bearer test-device-token", "X-Key-Session": key}
    put = client.put(
        f"/v1/workspaces/demo/documents/{PATH}", content=text.encode(), headers=headers
    )
    assert put.status_code in (200, 201), put.text
    response = client.post(
        "/v1/agent/turns",
        json={"conversation": "agreement", "message": message},
        headers={**headers, "X-Ambient-Note": pointer_header(PATH, text)},
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(generated=notes())
def test_r39_every_consumer_reads_the_same_headings_and_tasks(
    api: tuple[TestClient, str], generated: tuple[str, Note]
) -> None:
    text, note = generated
    reading = read_note(text)
    assert [(h.level, h.text) for h in reading.headings] == note.headings
    assert [(t.text, t.done) for t in reading.tasks] == note.tasks

    # The todo view and the mindmap.
    assert [(t.label, t.checked) for t in parse_tasks(text)] == note.tasks
    assert _flatten(parse_headings(text, "generated.md")) == note.headings
    lines = text.replace("\r\n", "\n").split("\n")  # as the editor holds it
    for task in parse_tasks(text):
        assert lines[task.line][task.mark_column] in " x"  # where ticking writes

    # The preview draws one box per task.
    html = render_html(text)
    opened = sum(1 for _, done in note.tasks if not done)
    assert (html.count("☐"), html.count("☑")) == (opened, len(note.tasks) - opened)

    # The assistant, through the turn route.
    tasks_reply = _turn(api, text, "what's still open here?")["reply"]
    open_labels = [label for label, done in note.tasks if not done]
    if open_labels:
        assert [item.strip()[2:] for item in _listed(tasks_reply)] == open_labels
    else:
        assert _listed(tasks_reply) == []
    outline_reply = _turn(api, text, "what are the headings?")["reply"]
    listed = [
        ((len(item) - len(item.lstrip())) // 2 + 1, item.strip()[2:])
        for item in _listed(outline_reply)
    ]
    assert listed == note.headings
    summary = _turn(api, text, "summarise this")["reply"]
    assert f"Headings: {len(note.headings)}. Open tasks: {len(open_labels)}." in summary


def test_r39_a_fenced_block_and_an_indented_heading_are_code_for_everyone() -> None:
    """The issue's example: three readings used to say 3, 1 and 1 headings."""
    text = "# Real\n```\n# fenced\n- [ ] fenced task\n```\n\n    # indented\n- [ ] real task\n"
    assert [h.text for h in read_note(text).headings] == ["Real"]
    assert [t.label for t in parse_tasks(text)] == ["real task"]
    assert _flatten(parse_headings(text, "x.md")) == [(1, "Real")]
