"""The lexical workspace path rules both sides share (contract 3)."""

from __future__ import annotations

import pytest

from bridge.contract import MAX_PATH_BYTES, MAX_SEGMENT_BYTES
from bridge.paths import WorkspacePathError, check_workspace_path, is_workspace_path

GOOD = [
    "a.md",
    "notes/a.md",
    "notes/ノート 1.md",
    "a/b/c/d.txt",
    ".hidden/x",
    "x" * MAX_SEGMENT_BYTES,
]
BAD = [
    "",
    "/abs.md",
    "../up.md",
    "notes/../x.md",
    "notes/./x.md",
    ".",
    "notes//x.md",
    "notes/",
    "notes\\x.md",
    "nul\x00.md",
    "x" * (MAX_SEGMENT_BYTES + 1),
    "é" * 128,  # 256 bytes in one segment
    "/".join(["abcd"] * (MAX_PATH_BYTES // 5 + 1)),
]


@pytest.mark.parametrize("path", GOOD)
def test_valid_workspace_paths_are_accepted_unchanged(path: str) -> None:
    assert check_workspace_path(path) == path
    assert is_workspace_path(path)


@pytest.mark.parametrize("path", BAD)
def test_invalid_workspace_paths_are_refused_in_plain_language(path: str) -> None:
    with pytest.raises(WorkspacePathError) as raised:
        check_workspace_path(path)
    assert str(raised.value).endswith(".")
    assert not is_workspace_path(path)
