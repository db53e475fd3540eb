"""R45: the layout file round-trips, and any broken file is set aside, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.layout_state import (
    LAYOUT_FILE,
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
        '{"version": 1, "workspaces": {"a": {"notes": [{"id": "x", "path": "/etc/passwd"}]}}}',
        '{"version": 1, "workspaces": {"a": {"notes": [{"id": " ", "path": "a.md"}]}}}',
        '{"version": 1, "workspaces": {"a": {"notes": [{"id": "x", "path": "a.md", "view": 3}]}}}',
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
