"""R45: the layout file round-trips, and any broken file is set aside, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.workspace.layout_state import (
    LAYOUT_FILE,
    MAX_NOTE_FRAMES,
    MAX_PROVIDER_FRAMES,
    MAX_WORKSPACE_LAYOUTS,
    LayoutStore,
    NoteFrameSpec,
    ProviderFrameSpec,
    SavedState,
    WorkspaceLayout,
)


def test_the_state_round_trips_through_the_file_R45(tmp_path: Path) -> None:
    state = SavedState(
        "demo",
        {
            "demo": WorkspaceLayout(
                [NoteFrameSpec("inbox-1", "inbox/today.md", "mindmap")],
                [ProviderFrameSpec("workspace", "workspace")],
                "inbox-1",
                "main-0123",
            ),
            "personal": WorkspaceLayout(),
        },
    )
    store = LayoutStore(tmp_path)
    store.save(state)
    assert store.load() == state
    assert store.last_workspace() == "demo"
    assert store.set_aside_message is None
    assert [path.name for path in tmp_path.iterdir()] == [LAYOUT_FILE]  # no temporary left


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"version": 2}',
        '{"version": 1, "workspace": "../up"}',
        '{"version": 1, "workspaces": {"a": {"notes": 5}}}',
        '{"version": 1, "workspaces": {"a": {"conversation": ""}}}',
        '{"version": 1, "workspaces": {"bad name": {}}}',
        '{"version": 1, "workspaces": {"a": {"providers": {"id": "w"}}}}',
    ],
)
def test_a_broken_file_is_set_aside_with_a_plain_message_R45(tmp_path: Path, text: str) -> None:
    (tmp_path / LAYOUT_FILE).write_text(text, encoding="utf-8")
    store = LayoutStore(tmp_path)
    assert store.last_workspace() is None  # peeking changes nothing
    assert store.load() == SavedState()
    message = store.set_aside_message
    assert message is not None and message.startswith("The saved window layout could not be used")
    assert "Traceback" not in message
    aside = list(tmp_path.glob("layout.json.broken-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == text
    assert not (tmp_path / LAYOUT_FILE).exists()


def test_a_file_that_is_not_utf8_is_set_aside_too_R45(tmp_path: Path) -> None:
    (tmp_path / LAYOUT_FILE).write_bytes(b"\xff\xfe{")
    store = LayoutStore(tmp_path)
    assert store.load() == SavedState() and store.set_aside_message is not None


def _file(notes: list[object], providers: list[object] | None = None) -> str:
    layout = {"notes": notes, "providers": providers or [], "active": "inbox-1"}
    return json.dumps({"version": 1, "workspace": "a", "workspaces": {"a": layout}})


GOOD = {"id": "inbox-1", "path": "notes/a.md", "view": "preview"}


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ({"id": "x", "path": "/etc/passwd"}, "the note path '/etc/passwd' is not allowed"),
        ({"id": "x", "path": "../../../../etc/passwd"}, "'.' or '..' segments"),
        ({"id": " ", "path": "a.md"}, "a frame id is not a text"),
        ({"id": "x" * 65, "path": "a.md"}, "a frame id is longer than 64 characters"),
        ({"id": "x", "path": "a.md", "view": 3}, "unknown view '3'"),
        ("inbox-2", "a note frame is not an object"),
    ],
)
def test_r92_a_frame_that_cannot_open_is_left_out_the_rest_open_and_the_file_set_aside(
    tmp_path: Path, bad: object, said: str
) -> None:
    text = _file([GOOD, bad])
    (tmp_path / LAYOUT_FILE).write_text(text, encoding="utf-8")
    store = LayoutStore(tmp_path)
    assert store.load().layouts["a"].notes == [NoteFrameSpec("inbox-1", "notes/a.md", "preview")]
    message = store.set_aside_message
    assert message is not None and message.startswith(
        "The saved window layout could not be used whole: "
    )
    assert said in message and "the app opened the frames it could keep" in message
    aside = list(tmp_path.glob("layout.json.broken-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == text


def test_r92_a_planted_path_of_900_000_characters_is_quoted_short(tmp_path: Path) -> None:
    """A banner quoting such a path whole froze the window (9 s at 200,000 characters);
    the file's 1 MiB limit leaves room for one of 900,000."""
    planted = "n" * 900_000 + ".md"
    (tmp_path / LAYOUT_FILE).write_text(_file([GOOD, {"id": "x", "path": planted}]), "utf-8")
    store = LayoutStore(tmp_path)
    assert len(store.load().layouts["a"].notes) == 1
    message = store.set_aside_message
    assert message is not None and len(message) < 600
    assert "(900,003 characters)" in message


def test_r92_a_layout_past_the_frame_caps_keeps_the_first_frames_and_says_so(
    tmp_path: Path,
) -> None:
    """5,000 provider frames froze the window past 515 s, 2,000 note frames in Preview 230 s."""
    notes = [{"id": f"inbox-{n}", "path": f"many/{n}.md", "view": "preview"} for n in range(2000)]
    providers = [{"id": f"p-{n}", "provider": "workspace"} for n in range(5000)]
    providers[3] = {"id": "p-3", "provider": "x" * 100_000}  # within the cap: dropped
    text = _file(notes, providers)
    (tmp_path / LAYOUT_FILE).write_text(text, encoding="utf-8")
    store = LayoutStore(tmp_path)
    layout = store.load().layouts["a"]
    assert [note.path for note in layout.notes] == [f"many/{n}.md" for n in range(MAX_NOTE_FRAMES)]
    assert [p.frame_id for p in layout.providers] == [
        f"p-{n}" for n in range(MAX_PROVIDER_FRAMES) if n != 3
    ]
    message = store.set_aside_message
    assert message is not None
    assert f"2,000 note frames, more than the {MAX_NOTE_FRAMES} a window opens" in message
    assert f"5,000 provider frames, more than the {MAX_PROVIDER_FRAMES}" in message
    assert "a provider is longer than 64 characters" in message
    assert len(message) < 600
    aside = list(tmp_path.glob("layout.json.broken-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == text


def test_r92_a_layout_within_the_caps_is_kept_as_it_is(tmp_path: Path) -> None:
    notes = [{"id": f"inbox-{n}", "path": f"n/{n}.md", "view": "edit"} for n in range(32)]
    providers = [{"id": f"p-{n}", "provider": "workspace"} for n in range(16)]
    (tmp_path / LAYOUT_FILE).write_text(_file(notes, providers), encoding="utf-8")
    store = LayoutStore(tmp_path)
    layout = store.load().layouts["a"]
    assert (len(layout.notes), len(layout.providers)) == (32, 16)
    assert store.set_aside_message is None and (tmp_path / LAYOUT_FILE).exists()


def test_r92_a_file_of_many_workspaces_keeps_the_last_open_one_and_63_more(
    tmp_path: Path,
) -> None:
    layouts = {f"w{n:03}": {"notes": [dict(GOOD)]} for n in range(MAX_WORKSPACE_LAYOUTS + 6)}
    last = f"w{MAX_WORKSPACE_LAYOUTS + 5:03}"  # the last in the file: kept all the same
    text = json.dumps({"version": 1, "workspace": last, "workspaces": layouts})
    (tmp_path / LAYOUT_FILE).write_text(text, encoding="utf-8")
    store = LayoutStore(tmp_path)
    assert store.last_workspace() == last
    state = store.load()
    assert state.workspace == last and len(state.layouts) == MAX_WORKSPACE_LAYOUTS
    assert last in state.layouts and "w000" in state.layouts
    message = store.set_aside_message
    assert message is not None and "the layouts of 70 workspaces, more than the 64 kept" in message
