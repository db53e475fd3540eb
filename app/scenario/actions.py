"""The scenario verbs that act on the window (mount, type, select, open, pop out...).

Each goes through the window's driver API, the same code path as the user's
action, and waits on the event loop until the window says the action is done.
``restart``, ``send`` and ``expect`` belong to the replay itself
(:mod:`app.scenario.runner`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QProcess

from app.scenario.elsewhere_actions import keep, write_elsewhere
from app.scenario.elsewhere_steps import ExternalWriteStep, KeepStep
from app.scenario.inline_actions import act_on_inline, run_inline
from app.scenario.inline_steps import InlineAcceptStep, InlineRejectStep
from app.scenario.lookup import frame, note_frame
from app.scenario.note_steps import new_note, quick_open
from app.scenario.proposal_actions import act_on_proposal
from app.scenario.proposal_steps import ApplyStep, DiscardStep, UndoStep
from app.scenario.steps import (
    ActivateStep,
    CaptionStep,
    InlineStep,
    MountStep,
    NewNoteStep,
    OpenStep,
    PopoutStep,
    QuickOpenStep,
    SelectStep,
    Step,
    SwitchWorkspaceStep,
    TypeStep,
    UnmountStep,
    ViewStep,
)
from app.scenario.waiting import StepError, connected, wait_until
from bridge.frames import ASSISTANT_FRAME_ID
from renderer.frames.inbox import InboxFrame

if TYPE_CHECKING:
    from app.main_window import MainWindow

LOAD_TIMEOUT_SECONDS = 20.0
FRAME_TIMEOUT_SECONDS = 20.0


def act(window: MainWindow, step: Step) -> None:
    """Perform one window action and wait until it has taken effect."""
    if isinstance(step, MountStep):
        if step.frame in window.frames:
            raise StepError(f"a frame named '{step.frame}' is already mounted")
        if step.provider is not None:
            window.mount_provider(step.frame, step.provider)
        else:
            assert step.path is not None
            window.mount_inbox(step.frame, step.path, step.inbox_view)
            if step.wait:
                wait_loaded(window, step.frame)
    elif isinstance(step, ActivateStep):
        frame(window, step.frame)
        window.activate_frame(step.frame)
    elif isinstance(step, TypeStep):
        note_frame(window, step.frame).type_text(step.text, at=step.at)
    elif isinstance(step, SelectStep):
        note_frame(window, step.frame).select(step.anchor, step.head)
    elif isinstance(step, ViewStep):
        note_frame(window, step.frame).set_view(step.view)
    elif isinstance(step, OpenStep):
        note_frame(window, step.frame).open_path(step.path)
        if step.wait:
            wait_loaded(window, step.frame)
    elif isinstance(step, PopoutStep):
        pop_out(window, step.frame)
    elif isinstance(step, UnmountStep):
        _unmount(window, step.frame)
    elif isinstance(step, SwitchWorkspaceStep):
        switch_workspace(window, step.workspace)
    elif isinstance(step, NewNoteStep):
        wait_loaded(window, new_note(window, step))
    elif isinstance(step, QuickOpenStep):
        opened = quick_open(window, step)
        if opened is not None:
            wait_loaded(window, opened)
    elif isinstance(step, CaptionStep):
        return
    elif isinstance(step, ApplyStep | DiscardStep | UndoStep):
        act_on_proposal(window, step)
    elif isinstance(step, ExternalWriteStep):
        write_elsewhere(window, step)
    elif isinstance(step, InlineStep):
        run_inline(window, step, lambda inner: act(window, inner))
    elif isinstance(step, InlineAcceptStep | InlineRejectStep):
        act_on_inline(window, step)
    elif isinstance(step, KeepStep):
        keep(window, step)
    else:  # pragma: no cover - the runner handles restart, send and expect itself
        raise StepError(f"cannot perform '{step.verb}'")


def _unmount(window: MainWindow, frame_id: str) -> None:
    if frame_id == ASSISTANT_FRAME_ID:
        raise StepError("the assistant frame always exists and cannot be unmounted")
    frame(window, frame_id)
    window.close_frame(frame_id)
    wait_until(
        lambda: frame_id not in window.frames,
        timeout=FRAME_TIMEOUT_SECONDS,
        what=f"'{frame_id}' to close",
    )


def switch_workspace(window: MainWindow, name: str) -> None:
    """Switch as the Workspace menu does; wait until its note frames have loaded."""
    failures: list[str] = []
    with connected(window.workspace_switch_failed, failures.append):
        window.switch_workspace(name)
        wait_until(
            lambda: not window.is_switching_workspace or bool(failures),
            timeout=FRAME_TIMEOUT_SECONDS,
            what=f"workspace '{name}' to open",
            wake_on=[window.workspace_switched, window.workspace_switch_failed],
        )
    if failures:
        raise StepError(f"the switch to workspace '{name}' failed: {failures[-1]}")
    wait_all_loaded(window)


def pop_out(window: MainWindow, frame_id: str) -> None:
    """Pop out through the frame's own button path; wait for the child process to run."""
    note_frame(window, frame_id).pop_out()
    popouts = window.popouts

    def child_running() -> bool:
        return any(
            handle.frame_id == frame_id and handle.process.state() == QProcess.ProcessState.Running
            for handle in popouts.handles
        )

    wait_until(
        lambda: frame_id not in window.frames and child_running(),
        timeout=FRAME_TIMEOUT_SECONDS,
        what=f"'{frame_id}' to move into its own window",
        wake_on=[popouts.popped_out],
    )


def wait_loaded(window: MainWindow, frame_id: str) -> None:
    """Wait until the Inbox frame's note has loaded; a step error when it could not."""
    loading = note_frame(window, frame_id)
    failures: list[str] = []
    with connected(loading.load_failed, failures.append):
        wait_until(
            lambda: loading.is_loaded or bool(failures),
            timeout=LOAD_TIMEOUT_SECONDS,
            what=f"'{frame_id}' to load {loading.path}",
            wake_on=[loading.loaded, loading.load_failed],
        )
    if failures and not loading.is_loaded:
        raise StepError(f"'{frame_id}' could not load {loading.path}: {failures[-1]}")


def wait_all_loaded(window: MainWindow) -> None:
    for frame_id, mounted in list(window.frames.items()):
        if isinstance(mounted, InboxFrame):
            wait_loaded(window, frame_id)
