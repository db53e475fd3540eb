"""R86, contract 14: ``.aiexclude`` read as gitignore, re-read on change, and failing closed.

Bad files (1 MiB, 10,000 patterns, ``!`` negations, a pattern matching everything,
unreadable, a FIFO, a link out of the workspace) never crash, never block and cost
time in proportion to their size; one that cannot be read makes every note private
and says why.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bridge.privacy import (
    AIEXCLUDE,
    MAX_AIEXCLUDE_BYTES,
    MAX_AIEXCLUDE_PATTERNS,
    WorkspacePrivacy,
    exact_pattern,
    parse_rules,
)


def _watch(tmp_path: Path, text: str | None = None) -> WorkspacePrivacy:
    if text is not None:
        (tmp_path / AIEXCLUDE).write_text(text, encoding="utf-8")
    return WorkspacePrivacy(tmp_path)


def test_r86_gitignore_syntax_notes_folders_wildcards_and_negations() -> None:
    rules = parse_rules("# a comment\ndiary/\n*.secret.md\n/top.md\n!diary/shared.md\n")
    assert rules.is_private("diary/2026.md")
    assert rules.is_private("diary/deep/er.md")
    assert rules.is_private("notes/plans.secret.md")
    assert rules.is_private("top.md") and not rules.is_private("notes/top.md")
    assert not rules.is_private("notes/a.md")
    assert rules.is_private(AIEXCLUDE)  # the list itself is never the assistant's


def test_r86_no_file_means_nothing_private(tmp_path: Path) -> None:
    watch = _watch(tmp_path)
    assert not watch.is_private("notes/a.md")
    assert watch.rules().problem is None


def test_r86_a_change_applies_at_the_next_question_and_an_unchanged_file_is_not_read_again(
    tmp_path: Path,
) -> None:
    watch = _watch(tmp_path, "notes/a.md\n")
    first = watch.rules()
    assert first.is_private("notes/a.md")
    assert watch.rules() is first  # same size, times and inode: the same reading
    (tmp_path / AIEXCLUDE).write_text("notes/b.md\n", encoding="utf-8")  # same size
    assert watch.is_private("notes/b.md") and not watch.is_private("notes/a.md")
    (tmp_path / AIEXCLUDE).unlink()
    assert not watch.is_private("notes/b.md")


@pytest.mark.parametrize(
    "path", ["notes/a.md", "odd/[x]*?.md", "!bang.md", "#hash.md", "trailing .md", "sp ace/é.md"]
)
def test_r86_keeping_and_sharing_names_exactly_that_note(tmp_path: Path, path: str) -> None:
    watch = _watch(tmp_path)
    assert watch.set_private(path, True) is None
    assert watch.is_private(path)
    assert not watch.is_private("notes/other.md")
    assert watch.set_private(path, False) is None
    assert not watch.is_private(path)
    assert exact_pattern(path) not in (tmp_path / AIEXCLUDE).read_text(encoding="utf-8")


def test_r86_sharing_a_note_a_wider_pattern_holds_adds_a_negation(tmp_path: Path) -> None:
    watch = _watch(tmp_path, "*.md\n")
    assert watch.set_private("notes/a.md", False) is None
    assert not watch.is_private("notes/a.md") and watch.is_private("notes/b.md")
    text = (tmp_path / AIEXCLUDE).read_text(encoding="utf-8")
    assert text.startswith("*.md\n")  # the person's own lines are kept as they were


def test_r86_a_folder_is_kept_and_shared_whole(tmp_path: Path) -> None:
    watch = _watch(tmp_path)
    assert watch.set_private("diary", True, folder=True) is None
    assert watch.is_private("diary/a.md") and watch.is_private("diary/b/c.md")
    assert not watch.is_private("diaryish.md")
    assert watch.set_private("diary", False, folder=True) is None
    assert not watch.is_private("diary/a.md")


def _fails_closed(watch: WorkspacePrivacy) -> str:
    rules = watch.rules()
    assert rules.everything_private
    assert watch.is_private("notes/a.md") and watch.is_private("anything/at/all.md")
    assert rules.problem is not None and "every note is kept private" in rules.problem
    return rules.problem


def test_r86_a_fifo_fails_closed_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / AIEXCLUDE)
    assert "not a regular file" in _fails_closed(_watch(tmp_path))


def test_r86_a_link_out_of_the_workspace_is_not_followed_and_fails_closed(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("nothing\n", encoding="utf-8")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / AIEXCLUDE).symlink_to(outside)
    assert "link" in _fails_closed(_watch(workspace))


def test_r86_a_folder_in_its_place_fails_closed(tmp_path: Path) -> None:
    (tmp_path / AIEXCLUDE).mkdir()
    _fails_closed(_watch(tmp_path))


def test_r86_an_unreadable_file_fails_closed_until_it_can_be_read(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # Root reads a file of mode 000: the refusal is made real with a file over the limit.
        (tmp_path / AIEXCLUDE).write_bytes(b"#" * (MAX_AIEXCLUDE_BYTES + 1))
    else:
        (tmp_path / AIEXCLUDE).write_text("notes/a.md\n", encoding="utf-8")
        (tmp_path / AIEXCLUDE).chmod(0)
    watch = _watch(tmp_path)
    _fails_closed(watch)
    (tmp_path / AIEXCLUDE).unlink()
    (tmp_path / AIEXCLUDE).write_text("notes/a.md\n", encoding="utf-8")
    assert watch.rules().problem is None
    assert watch.is_private("notes/a.md") and not watch.is_private("notes/b.md")


def test_r86_a_file_that_cannot_be_read_refuses_to_be_edited(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / AIEXCLUDE)
    with pytest.raises(OSError):
        _watch(tmp_path).set_private("notes/a.md", False)
    assert (tmp_path / AIEXCLUDE).is_fifo()  # never replaced by a file that shares all


def test_r86_a_match_everything_pattern_and_negations(tmp_path: Path) -> None:
    watch = _watch(tmp_path, "*\n!notes/\n!notes/**\nnotes/private.md\n")
    assert watch.is_private("diary/a.md") and watch.is_private("top.md")
    assert not watch.is_private("notes/a.md")
    assert watch.is_private("notes/private.md")
    assert _watch(tmp_path, "**\n").is_private("a/b/c/d.md")
    assert _watch(tmp_path, "/\n").rules().problem is None  # odd but harmless lines


def _reading_seconds(text: str, tmp_path: Path, paths: list[str]) -> float:
    (tmp_path / AIEXCLUDE).write_text(text, encoding="utf-8")
    started = time.perf_counter()
    watch = WorkspacePrivacy(tmp_path)
    for path in paths:
        watch.is_private(path)
    return time.perf_counter() - started


def test_r86_patterns_cost_time_in_proportion_to_their_number(tmp_path: Path) -> None:
    paths = [f"notes/{n}.md" for n in range(20)]

    def patterns(count: int, salt: int) -> str:
        # Distinct each time: Python keeps the last 512 regular expressions it compiled.
        return "".join(f"folder-{salt}-{n:05d}/**/*.md\n" for n in range(count))

    small_seconds = min(_reading_seconds(patterns(100, salt), tmp_path, paths) for salt in (1, 2))
    large = MAX_AIEXCLUDE_PATTERNS
    large_seconds = min(_reading_seconds(patterns(large, salt), tmp_path, paths) for salt in (3, 4))
    # Ten times the patterns: about ten times the work (a quadratic reading would be 100).
    assert large_seconds < small_seconds * 30 + 0.2


def test_r86_ten_thousand_patterns_fail_closed_at_once(tmp_path: Path) -> None:
    text = "".join(f"!folder-{n:05d}/**/*.md\n" for n in range(10_000))
    started = time.perf_counter()
    watch = _watch(tmp_path, text)
    assert "more than 1,000 patterns" in _fails_closed(watch)
    assert time.perf_counter() - started < 2.0  # counted, never compiled


def test_r86_one_mebibyte_fails_closed_and_comments_do_not_count(tmp_path: Path) -> None:
    comment = "# a long comment that a person would never write this often, but may\n"
    text = comment * (MAX_AIEXCLUDE_BYTES // len(comment)) + "notes/a.md\n"
    assert len(text) <= MAX_AIEXCLUDE_BYTES
    started = time.perf_counter()
    watch = _watch(tmp_path, text)
    assert watch.is_private("notes/a.md") and not watch.is_private("notes/b.md")
    assert time.perf_counter() - started < 5.0
    (tmp_path / AIEXCLUDE).write_text(text + "x" * MAX_AIEXCLUDE_BYTES, encoding="utf-8")
    assert "larger than" in _fails_closed(watch)
    patterns = "notes/pattern.md\n" * (MAX_AIEXCLUDE_BYTES // 17)  # 1 MiB of patterns
    (tmp_path / AIEXCLUDE).write_text(patterns, encoding="utf-8")
    started = time.perf_counter()
    assert "patterns" in _fails_closed(watch)
    assert time.perf_counter() - started < 5.0


def test_r86_bad_bytes_and_odd_lines_never_crash(tmp_path: Path) -> None:
    (tmp_path / AIEXCLUDE).write_bytes(b"\xff\xfe\x00notes/a.md\n[\n\\\n!\n***\n\n")
    watch = WorkspacePrivacy(tmp_path)
    rules = watch.rules()  # read, or failed closed with a reason: never an exception
    assert rules.problem is None or "every note" in rules.problem
