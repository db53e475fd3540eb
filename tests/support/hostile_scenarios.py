"""Scenario files from someone else, as issue 45's audit wrote them (R93).

The tests (``tests/scenario/test_hostile_files.py``) and the audit's re-run
(``python -m tests.stress.audit_r93``) both write these: each must be an invalid file
(exit 2, a JUnit ``<error>``, the HTML report still written), quickly.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

HUGE_NUMBER = "9" * 5_000
"""Past Python's 4,300-digit limit for ``int()``."""

HOSTILE_FILES: dict[str, Callable[[Path], object]] = {
    "100k-deep flow nesting": lambda path: path.write_text("steps: " + "[" * 100_000),
    "3k-deep block nesting": lambda path: path.write_text(
        "steps:\n" + "".join("  " * depth + "- \n" for depth in range(1, 3_000)) + "x\n"
    ),
    "a list as a map key": lambda path: path.write_text("? [a, b]\n: 1\nsteps: [{caption: x}]\n"),
    "a 5,000-digit integer": lambda path: path.write_text(
        "steps: [{caption: x}]\nbackend: {saveDelay: " + HUGE_NUMBER + "}\n"
    ),
    "a FIFO named a.yaml": lambda path: os.mkfifo(path),
    "a link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
    "7 MB of 400k steps": lambda path: path.write_text("steps:\n" + "  - caption: x\n" * 400_000),
    "1 MiB of one-line steps": lambda path: path.write_text(
        "steps: [" + ",".join(["{caption: x}"] * 80_000) + "]\n"
    ),
    "an alias": lambda path: path.write_text("workspace: {a.md: &a x}\nsteps: [{caption: *a}]\n"),
    "a lone surrogate escape in the name": lambda path: path.write_text(
        'name: "bad \\ud800"\nsteps: [{caption: x}]\n'
    ),
}


def unreadable_name(folder: Path) -> Path:
    """A scenario file whose name is not UTF-8 (Python reads it with a lone surrogate) and
    carries a terminal's clear-screen sequence; otherwise valid but for its name's type."""
    path = Path(os.fsdecode(os.fsencode(folder) + b"/bad\xff\x1b[2J.yaml"))
    path.write_text("name: 1\nsteps: [{caption: x}]\n")
    return path
