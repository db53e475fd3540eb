"""The assistant settings file: owner-only, atomic, and a bad file means offline (R37)."""

from __future__ import annotations

import stat
from pathlib import Path

from bridge.assistant_settings import AssistantSettings, load_settings, save_settings


def test_r37_settings_round_trip_in_a_file_only_its_owner_can_read(tmp_path: Path) -> None:
    path = tmp_path / "config" / "assistant.json"
    chosen = AssistantSettings("http://127.0.0.1:8080/v1", "smollm2", "sk-secret")
    save_settings(path, chosen)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_settings(path) == chosen
    assert "sk-secret" not in repr(chosen)
    assert [p.name for p in path.parent.iterdir()] == ["assistant.json"]  # no temporary left


def test_r37_a_missing_or_broken_file_means_the_offline_assistant(tmp_path: Path) -> None:
    path = tmp_path / "assistant.json"
    assert not load_settings(path).uses_model
    path.write_text("{not json", encoding="utf-8")
    assert load_settings(path) == AssistantSettings()
    path.write_text('{"baseUrl": 5, "model": "m"}', encoding="utf-8")
    assert load_settings(path) == AssistantSettings("", "m", "")
