"""Pairs alternate which side runs first, so neither side always runs on a warmed cache."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from benchmarks.measure import (
    alternating_pairs,
    offscreen_environment,
    paired_ratios,
    process_tree_bytes,
    proportional_bytes,
)


def test_every_pair_alternates_which_side_runs_first() -> None:
    order: list[str] = []

    def side(name: str, seconds: float) -> float:
        order.append(name)
        return seconds

    subject, floor = alternating_pairs(
        lambda: side("subject", 2.0), lambda: side("floor", 1.0), repeat=4
    )
    firsts = order[0::2]
    assert firsts == ["floor", "subject", "floor", "subject"]
    assert sorted(order[:2]) == sorted(order[2:4]) == ["floor", "subject"]
    assert subject == [2.0] * 4 and floor == [1.0] * 4


def test_paired_ratios_alternate_too() -> None:
    order: list[str] = []
    paired_ratios(lambda: order.append("subject"), lambda: order.append("floor"), repeat=3)
    assert order == ["floor", "subject", "subject", "floor", "floor", "subject"]


def test_a_process_tree_counts_the_children_and_theirs() -> None:
    """ReText's converter and the app's helpers count: every process under the one started."""
    # A child that starts a grandchild and waits: both hold memory of their own.
    grandparent_code = (
        "import subprocess, sys;"
        "child = subprocess.Popen([sys.executable, '-c', 'import sys; sys.stdin.read()'],"
        " stdin=subprocess.PIPE);"
        "print(child.pid, flush=True); sys.stdin.read(); child.stdin.close(); child.wait()"
    )
    with subprocess.Popen(
        [sys.executable, "-c", grandparent_code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdout is not None and child.stdin is not None
        grandchild = int(child.stdout.readline())
        tree = process_tree_bytes(os.getpid())
        upper = proportional_bytes(os.getpid()) + proportional_bytes(child.pid)
        # The grandchild's few MiB are in (PSS moves a little between two readings).
        assert tree > upper + proportional_bytes(grandchild) / 2
        child.stdin.close()
        child.wait(timeout=30)


@pytest.mark.parametrize(
    ("chosen", "given"),
    [
        (None, "offscreen"),
        ("xcb", "offscreen"),
        ("offscreen:configfile=/tmp/screen.json", "offscreen:configfile=/tmp/screen.json"),
    ],
)
def test_child_qt_processes_run_offscreen_with_the_run_s_options(
    monkeypatch: pytest.MonkeyPatch, chosen: str | None, given: str
) -> None:
    if chosen is None:
        monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    else:
        monkeypatch.setenv("QT_QPA_PLATFORM", chosen)
    assert offscreen_environment()["QT_QPA_PLATFORM"] == given
