"""The assistant settings files: owner-only, atomic, and a bad file means none saved (R37)."""

from __future__ import annotations

import stat
from pathlib import Path

from app.assistant.settings import AssistantSettingsStore, SavedAssistant


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_r37_settings_round_trip_in_files_only_their_owner_can_read(tmp_path: Path) -> None:
    store = AssistantSettingsStore(tmp_path / "data")
    chosen = SavedAssistant(use_model=True, base_url="http://127.0.0.1:8080/v1", model="smollm2")
    store.save(chosen, "sk-secret")
    assert store.load() == chosen and store.key() == "sk-secret"
    assert _mode(store.settings_path) == 0o600 and _mode(store.key_path) == 0o600
    assert "sk-secret" not in store.settings_path.read_text(encoding="utf-8")
    names = sorted(p.name for p in store.folder.iterdir())
    assert names == ["assistant-key", "assistant.json"]  # no temporary left behind
    store.save(chosen, None)
    assert store.key() is None and not store.has_key()


def test_r37_a_missing_or_broken_file_means_nothing_was_saved(tmp_path: Path) -> None:
    store = AssistantSettingsStore(tmp_path)
    assert store.load() is None
    store.settings_path.write_text("{not json", encoding="utf-8")
    assert store.load() is None
    store.settings_path.write_text('{"baseUrl": 5, "model": "m"}', encoding="utf-8")
    assert store.load() == SavedAssistant(use_model=False, base_url=None, model="m")
