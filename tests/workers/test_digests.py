"""A saved copy's hash is reused only while the file is the same (R25).

Every turn re-reads the open note (R23) and compares its hash with the pointer's
(R25); the hash of an unchanged, settled file is remembered, and any write, even
one of the same size within the file system's time tick, is hashed afresh.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from workers.digests import DigestCache, FileVersion
from workers.document_files import WritePrecondition
from workers.documents import Workspaces
from workers.errors import DocumentRefused
from workers.settings import Settings


def _sha16(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _workspaces(tmp_path: Path, note: str, text: str, cache: DigestCache) -> Workspaces:
    settings = Settings(data_dir=tmp_path)
    (settings.workspaces_dir / "w" / note).parent.mkdir(parents=True)
    (settings.workspaces_dir / "w" / note).write_text(text, encoding="utf-8")
    return Workspaces(settings, cache)


def test_r25_a_settled_file_hashes_once_and_a_new_version_afresh() -> None:
    now = 10_000_000_000_000
    cache = DigestCache(clock_ns=lambda: now)
    settled = FileVersion(1, 7, 5, now - 3_000_000_000, now - 3_000_000_000)
    assert cache.sha16(b"first", settled) == _sha16(b"first")
    # The same version is the same bytes: the remembered hash is what comes back.
    assert cache.sha16(b"other", settled) == _sha16(b"first")
    rewritten = FileVersion(1, 7, 5, now - 3_000_000_000, now - 2_999_999_000)
    assert cache.sha16(b"other", rewritten) == _sha16(b"other")


def test_r25_a_file_changed_within_the_last_two_seconds_is_never_remembered() -> None:
    now = 10_000_000_000_000
    cache = DigestCache(clock_ns=lambda: now)
    fresh = FileVersion(1, 7, 5, now - 1_000_000_000, now - 1_000_000_000)
    assert cache.sha16(b"first", fresh) == _sha16(b"first")
    # A second write in the same tick would carry the very same stamps: hash it again.
    assert cache.sha16(b"other", fresh) == _sha16(b"other")
    assert cache.sha16(b"whole", None) == _sha16(b"whole")


def test_r25_a_same_size_rewrite_right_after_a_read_is_hashed_afresh(tmp_path: Path) -> None:
    """The real clock: the file was just written, so nothing about it is remembered yet."""
    workspaces = _workspaces(tmp_path, "notes/a.md", "alpha\n", DigestCache())
    first = workspaces.read("w", "notes/a.md")
    assert first.version is not None and workspaces.sha16(first) == _sha16(b"alpha\n")
    path = tmp_path / "workspaces" / "w" / "notes" / "a.md"
    with path.open("r+b") as handle:  # the same size, in place, maybe within the same tick
        handle.write(b"omega\n")
    again = workspaces.read("w", "notes/a.md")
    assert workspaces.sha16(again) == _sha16(b"omega\n")


def test_r25_a_remembered_file_written_again_is_hashed_afresh(tmp_path: Path) -> None:
    """A clock far ahead settles every file; a new modification time is a new version."""
    cache = DigestCache(clock_ns=lambda: 4_000_000_000_000_000_000)
    workspaces = _workspaces(tmp_path, "notes/a.md", "alpha\n", cache)
    first = workspaces.read("w", "notes/a.md")
    assert workspaces.sha16(first) == _sha16(b"alpha\n")
    assert workspaces.sha16(workspaces.read("w", "notes/a.md")) == _sha16(b"alpha\n")
    path = tmp_path / "workspaces" / "w" / "notes" / "a.md"
    with path.open("r+b") as handle:
        handle.write(b"omega\n")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    again = workspaces.read("w", "notes/a.md")
    assert first.version is not None and again.version is not None
    assert again.version.inode == first.version.inode and again.version != first.version
    assert workspaces.sha16(again) == _sha16(b"omega\n")


def test_r26_a_partial_read_has_no_version(tmp_path: Path) -> None:
    workspaces = _workspaces(tmp_path, "notes/long.md", "x" * 70_000, DigestCache())
    read = workspaces.read("w", "notes/long.md", 65_536)
    assert read.partial and read.version is None


def _full(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_r53_a_conditional_save_asks_the_remembered_digest_before_reading(
    tmp_path: Path,
) -> None:
    """The check of If-Match takes the digest remembered for the file's very version.

    A clock far ahead settles every file; the version is primed with the digest of
    other bytes, so only a check that asked the cache refuses the real ones.
    """
    cache = DigestCache(clock_ns=lambda: 4_000_000_000_000_000_000)
    workspaces = _workspaces(tmp_path, "notes/a.md", "alpha\n", cache)
    version = workspaces.read("w", "notes/a.md").version
    assert version is not None
    cache.sha16(b"other\n", version)
    real = WritePrecondition(matches=frozenset({_full(b"alpha\n")}))
    with pytest.raises(DocumentRefused) as refused:
        workspaces.write("w", "notes/a.md", "new\n", real)
    assert refused.value.code == "note_changed"
    workspaces.write("w", "notes/a.md", "new\n", WritePrecondition(frozenset({_full(b"other\n")})))
    path = tmp_path / "workspaces" / "w" / "notes" / "a.md"
    assert path.read_bytes() == b"new\n"


def test_r53_a_same_size_rewrite_keeping_the_mtime_never_lets_a_stale_if_match_through(
    tmp_path: Path,
) -> None:
    """The real clock: a rewrite in place, of the same size, with the old mtime put back.

    The check is exact: the file was read (and its digest asked for) just before, and
    the If-Match of the bytes it had then is refused; the one of its bytes now passes.
    """
    workspaces = _workspaces(tmp_path, "notes/a.md", "alpha\n", DigestCache())
    first = workspaces.read("w", "notes/a.md")
    assert first.version is not None and workspaces.sha16(first) == _sha16(b"alpha\n")
    path = tmp_path / "workspaces" / "w" / "notes" / "a.md"
    with path.open("r+b") as handle:
        handle.write(b"omega\n")
    os.utime(path, ns=(first.version.modified_ns, first.version.modified_ns))
    assert path.stat().st_mtime_ns == first.version.modified_ns
    stale = WritePrecondition(matches=frozenset({_full(b"alpha\n")}))
    with pytest.raises(DocumentRefused) as refused:
        workspaces.write("w", "notes/a.md", "mine\n", stale)
    assert refused.value.code == "note_changed"
    assert path.read_bytes() == b"omega\n"
    workspaces.write("w", "notes/a.md", "mine\n", WritePrecondition(frozenset({_full(b"omega\n")})))
    assert path.read_bytes() == b"mine\n"
