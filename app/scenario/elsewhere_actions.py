"""Performing and checking the scenario steps about a note changed elsewhere (R53).

``external-write`` runs a real second process with its own backend client, so the
change reaches the backend exactly as another instance's save does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING

from app.scenario.elsewhere_steps import (
    ConflictBarExpectation,
    ExternalWriteStep,
    KeepStep,
    KeptExpectation,
)
from app.scenario.lookup import note_frame
from app.scenario.other_instance import TOKEN_VARIABLE
from app.scenario.report import Mismatch
from app.scenario.waiting import StepError, WaitTimeout, wait_until

if TYPE_CHECKING:
    from app.main_window import MainWindow

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


def check_elsewhere(
    window: MainWindow, bar: ConflictBarExpectation | None, kept: KeptExpectation | None
) -> list[Mismatch]:
    mismatches: list[Mismatch] = []
    if bar is not None:
        conflict = note_frame(window, bar.frame).conflict
        try:
            wait_until(
                lambda: conflict.isHidden() != bar.shown,
                timeout=BAR_TIMEOUT_SECONDS,
                what="the changed-elsewhere bar",
            )
        except WaitTimeout:
            mismatches.append(Mismatch("conflictBar", bar.shown, not conflict.isHidden()))
    if kept is not None:
        found = window.session.recovery.get(window.session.workspace, kept.path)
        problem = kept.mismatch("kept", None if found is None else found.text)
        mismatches += [problem] if problem else []
    return mismatches
