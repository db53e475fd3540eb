"""The recovery folder: which kept text wins, and when a landed save makes it redundant."""

from __future__ import annotations

from pathlib import Path

from renderer.ambient.recovery import RecoveryStore


def test_a_later_save_keeps_its_text_over_an_earlier_failure(tmp_path: Path) -> None:
    store = RecoveryStore(tmp_path / "kept")
    assert store.keep("ws", "notes/a.md", "newer", "down", seq=2) is not None
    assert store.keep("ws", "notes/a.md", "older", "down", seq=1) is None
    kept = store.get("ws", "notes/a.md")
    assert kept is not None and (kept.text, kept.reason) == ("newer", "down")


def test_only_a_save_at_or_after_the_kept_one_drops_it(tmp_path: Path) -> None:
    store = RecoveryStore(tmp_path / "kept")
    store.keep("ws", "notes/a.md", "text", "down", seq=3)
    store.saved("ws", "notes/a.md", seq=2)
    assert store.get("ws", "notes/a.md") is not None
    store.saved("ws", "notes/a.md", seq=3)
    assert store.get("ws", "notes/a.md") is None


def test_text_kept_by_an_earlier_run_stays_until_it_is_restored(tmp_path: Path) -> None:
    RecoveryStore(tmp_path / "kept").keep("ws", "notes/a.md", "from before", "down", seq=7)
    later = RecoveryStore(tmp_path / "kept")
    later.saved("ws", "notes/a.md", seq=1)  # an unrelated save of this run
    assert later.get("ws", "notes/a.md") is not None
    later.adopt("ws", "notes/a.md")  # the text is back in an editor
    later.saved("ws", "notes/a.md", seq=1)
    assert later.get("ws", "notes/a.md") is None


def test_kept_notes_are_listed_per_workspace_and_damaged_files_are_skipped(
    tmp_path: Path,
) -> None:
    store = RecoveryStore(tmp_path / "kept")
    deep = "/".join(["folder"] * 60) + "/会議メモ.md"  # longer than a file name may be
    store.keep("ws", deep, "深い", "down", seq=1)
    store.keep("ws", "notes/b.md", "b", "down", seq=1)
    store.keep("other", "notes/c.md", "c", "down", seq=1)
    (tmp_path / "kept" / "damaged.json").write_text("{not json", encoding="utf-8")
    assert [note.path for note in store.kept_for("ws")] == sorted([deep, "notes/b.md"])
    assert store.get("ws", deep) is not None
    assert RecoveryStore(tmp_path / "missing").kept_for("ws") == []
