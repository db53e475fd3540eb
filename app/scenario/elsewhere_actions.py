"""Performing and checking the scenario steps about a note changed elsewhere (R53).

``external-write`` runs a real second process with its own backend client, so the
change reaches the backend exactly as another instance's save does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from app.scenario.elsewhere_steps import (
    ConflictBarExpectation,
    ExternalWriteStep,
    KeepStep,
    KeptExpectation,
)
from app.scenario.lookup import note_frame
from app.scenario.other_instance import TOKEN_VARIABLE
from app.scenario.registry import NOW, Checking, ExpectKey, Verb, on_window
from app.scenario.report import Mismatch
from app.scenario.waiting import StepError, WaitTimeout, wait_until

if TYPE_CHECKING:
    from app.window.main_window import MainWindow

WRITE_TIMEOUT_SECONDS = 30.0
BAR_TIMEOUT_SECONDS = 5.0


def write_elsewhere(window: MainWindow, step: ExternalWriteStep) -> None:
    """Another instance saves the note; the window's event loop runs meanwhile."""
    session = window.session
    command = [
        sys.executable,
        "-m",
        "app.scenario.other_instance",
        "--base-url",
        session.backend.base_url,
        "--workspace",
        session.workspace,
        "--path",
        step.path,
    ]
    environment = {**os.environ, TOKEN_VARIABLE: session.device_token}
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=environment,
    )
    assert process.stdin is not None and process.stderr is not None
    process.stdin.write(step.text.encode("utf-8"))
    process.stdin.close()
    try:
        wait_until(
            lambda: process.poll() is not None,
            timeout=WRITE_TIMEOUT_SECONDS,
            what="the other instance's save",
        )
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        problem = process.stderr.read().decode("utf-8", "replace").strip()
        process.stderr.close()
    if process.returncode != 0:
        raise StepError(f"the other instance could not save {step.path}: {problem}")


def keep(window: MainWindow, step: KeepStep) -> None:
    bar = note_frame(window, step.frame).conflict
    if bar.isHidden():
        raise StepError(f"'{step.frame}' does not say its note changed elsewhere")
    (bar.mine_button if step.choice == "mine" else bar.other_button).click()


def _check_bar(against: Checking, bar: ConflictBarExpectation) -> list[Mismatch]:
    conflict = note_frame(against.window, bar.frame).conflict
    try:
        wait_until(
            lambda: conflict.isHidden() != bar.shown,
            timeout=BAR_TIMEOUT_SECONDS,
            what="the changed-elsewhere bar",
        )
    except WaitTimeout:
        return [Mismatch("conflictBar", bar.shown, not conflict.isHidden())]
    return []


def _check_kept(against: Checking, kept: KeptExpectation) -> list[Mismatch]:
    session = against.window.session
    found = session.recovery.get(session.workspace, kept.path)
    problem = kept.mismatch("kept", None if found is None else found.text)
    return [problem] if problem else []


VERBS: tuple[Verb[Any], ...] = (
    Verb(
        ExternalWriteStep,
        on_window(write_elsewhere),
        (
            (
                "`external-write: {path: P, text: T}`",
                "another instance of the app saves `T` as `P`: a real second process "
                "(`python -m app.scenario.other_instance`) with its own client and key session "
                "reads the note's `ETag` and saves over exactly that text with `If-Match`, as "
                "its autosave would (R53). Waits until it has saved.",
            ),
        ),
    ),
    Verb(
        KeepStep,
        on_window(keep),
        (
            (
                "`keep: {frame: ID, choice: mine\\|other}`",
                "presses **Keep mine** or **Keep the other** on the frame's \"changed "
                'elsewhere" bar; fails when the bar is not shown.',
            ),
        ),
    ),
)

EXPECT_KEYS: tuple[ExpectKey[Any], ...] = (
    ExpectKey(
        "conflictBar",
        ConflictBarExpectation,
        NOW,
        _check_bar,
        (
            (
                "`conflictBar: {frame: ID, shown: true/false}`",
                "the frame says (or does not say) its note changed elsewhere (R53); waits up "
                "to 5 s, since autosave saves after a pause.",
            ),
        ),
    ),
    ExpectKey(
        "kept",
        KeptExpectation,
        NOW,
        _check_kept,
        (
            (
                "`kept: {path: P, equals: T}` / `{path: P, contains: T}`",
                "the text the app kept of a note in its data folder is (or contains) `T`, e.g. "
                "`notes/day (changed elsewhere).md` (nothing lost, R53).",
            ),
        ),
    ),
)
