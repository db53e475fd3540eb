"""What the app keeps in its data folder is private and written whole (R45, R37)."""

from __future__ import annotations

import stat
from pathlib import Path

from app.workspace.layout_state import LayoutStore, SavedState
from renderer.ambient.recovery import RecoveryStore


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_kept_note_text_and_the_layout_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    kept = RecoveryStore(tmp_path / "kept").keep("w", "notes/a.md", "private text", "failed", 1)
    assert kept is not None and _mode(kept) == 0o600
    store = LayoutStore(tmp_path)
    store.save(SavedState())
    assert _mode(store.path) == 0o600
    assert store.load() == SavedState()
    # Nothing half-written is left beside them.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept", store.path.name]
