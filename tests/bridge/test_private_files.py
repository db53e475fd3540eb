"""The one private-file writer and the one way a broken file is set aside (R64, R77)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bridge.private_files import SET_ASIDE_MARK, set_aside, write_atomically


def test_r77_a_file_is_written_whole_and_private_even_under_a_loose_umask(tmp_path: Path) -> None:
    target = tmp_path / "new" / "layout.json"
    previous = os.umask(0)
    try:
        write_atomically(target, "{}\n")
        write_atomically(target, "[]\n")
    finally:
        os.umask(previous)
    assert target.read_text(encoding="utf-8") == "[]\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    assert [path.name for path in target.parent.iterdir()] == ["layout.json"]  # no temporary


def test_r64_a_broken_file_is_set_aside_after_its_whole_name_and_never_overwritten(
    tmp_path: Path,
) -> None:
    path = tmp_path / "layout.json"
    names = []
    for text in ("first", "second"):  # twice within the same second
        path.write_text(text, encoding="utf-8")
        target = set_aside(path)
        assert target is not None and not path.exists()
        names.append(target.name)
    assert all(name.startswith(f"layout.json{SET_ASIDE_MARK}") for name in names)
    assert len(set(names)) == 2  # the first broken copy is still there
    assert sorted((tmp_path / name).read_text(encoding="utf-8") for name in names) == [
        "first",
        "second",
    ]
    assert not list(tmp_path.glob("*.json"))  # a reader of *.json never takes it back


def test_r64_a_file_that_cannot_be_moved_says_so(tmp_path: Path) -> None:
    assert set_aside(tmp_path / "missing.json") is None


@pytest.mark.skipif(os.name != "posix", reason="fsync of a folder is POSIX")
def test_r77_write_errors_leave_no_temporary_behind(tmp_path: Path) -> None:
    (tmp_path / "folder.json").mkdir()  # the rename onto a folder fails
    with pytest.raises(OSError):
        write_atomically(tmp_path / "folder.json", "{}")
    assert [path.name for path in tmp_path.iterdir()] == ["folder.json"]
