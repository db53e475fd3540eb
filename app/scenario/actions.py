"""The scenario verbs that act on the window's frames (mount, type, select, open, pop out...).

Each goes through the same code path as the user's action, and waits on the event
loop until the window says the action is done. ``restart``, ``send`` and ``expect``
belong to the replay itself (:mod:`app.scenario.catalogue`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QProcess, Qt
from PySide6.QtWidgets import QPlainTextEdit

from app.commands.actions import ACTIONS_BY_ID
from app.scenario.lookup import frame, note_frame
from app.scenario.note_steps import new_note, quick_open
from app.scenario.popout_windows import reachable_frame
from app.scenario.real_input import (
    click,
    focus_editor,
    place_cursor,
    press,
    type_keys,
    utf16_length,
)
from app.scenario.registry import Verb, on_window
from app.scenario.steps import (
    ActivateStep,
    CommandStep,
    MountStep,
    NewNoteStep,
    OpenStep,
    PopoutStep,
    QuickOpenStep,
    SelectStep,
    SwitchWorkspaceStep,
    TypeStep,
    UnmountStep,
    ViewStep,
)
from app.scenario.waiting import StepError, connected, wait_until
from bridge.frames import ASSISTANT_FRAME_ID
from bridge.views import DEFAULT_VIEW, EDIT, in_words, view_names
from renderer.frames.inbox.frame import InboxFrame

if TYPE_CHECKING:
    from app.window.main_window import MainWindow

LOAD_TIMEOUT_SECONDS = 20.0
FRAME_TIMEOUT_SECONDS = 20.0


def _mount(window: MainWindow, step: MountStep) -> None:
    if step.frame in window.frames:
        raise StepError(f"a frame named '{step.frame}' is already mounted")
    if step.provider is not None:
        window.driver.mount_provider(step.frame, step.provider)
        return
    assert step.path is not None
    window.driver.mount_inbox(step.frame, step.path, step.inbox_view)
    if step.wait:
        wait_loaded(window, step.frame)


def _activate(window: MainWindow, step: ActivateStep) -> None:
    """A click on the frame's title: the frame takes the focus, its text and selection stay."""
    if step.frame in window.frames:
        target = frame(window, step.frame)
    else:
        target = reachable_frame(window, step.frame)
    click(target.title_bar.title)


def _editor(window: MainWindow, frame_id: str, verb: str) -> QPlainTextEdit:
    """The editor a person would type or select in; a step error when it is not shown."""
    note = reachable_frame(window, frame_id)
    if note.view != EDIT:
        raise StepError(
            f"'{frame_id}' shows its {note.view} view: a person {verb} in the edit view "
            f"(add '- view: {{frame: {frame_id}, view: edit}}' first)"
        )
    if not note.is_loaded:
        raise StepError(f"'{frame_id}' has not loaded {note.path} yet, so it cannot be edited")
    return note.editor


def _type(window: MainWindow, step: TypeStep) -> None:
    if step.direct:
        reachable_frame(window, step.frame).type_text(step.text, at=step.at)
        return
    editor = _editor(window, step.frame, "types")
    focus_editor(editor)
    if step.at == "end":
        press(Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    else:
        place_cursor(editor, step.at)
    type_keys(step.text)


def _select(window: MainWindow, step: SelectStep) -> None:
    note = reachable_frame(window, step.frame)
    length = utf16_length(note.read_text())
    beyond = [
        f"{name} {value}"
        for name, value in (("anchor", step.anchor), ("head", step.head))
        if value > length
    ]
    if beyond:
        raise StepError(
            f"{' and '.join(beyond)} past the end of {note.path} in '{step.frame}': it holds "
            f"{length} UTF-16 units, so 0–{length} are allowed"
        )
    if step.direct:
        note.select(step.anchor, step.head)
        return
    editor = _editor(window, step.frame, "selects")
    focus_editor(editor)
    place_cursor(editor, step.anchor)
    place_cursor(editor, step.head, extend=True)


def _view(window: MainWindow, step: ViewStep) -> None:
    note_frame(window, step.frame).set_view(step.view)


def _open(window: MainWindow, step: OpenStep) -> None:
    note_frame(window, step.frame).open_path(step.path)
    if step.wait:
        wait_loaded(window, step.frame)


def _new_note(window: MainWindow, step: NewNoteStep) -> None:
    wait_loaded(window, new_note(window, step))


def _quick_open(window: MainWindow, step: QuickOpenStep) -> None:
    opened = quick_open(window, step)
    if opened is not None:
        wait_loaded(window, opened)


def _command(window: MainWindow, step: CommandStep) -> None:
    if step.action not in ACTIONS_BY_ID:
        raise StepError(
            f"no command is called {step.action!r}; "
            "the commands are listed in app/commands/actions.py"
        )
    window.driver.trigger(step.action)


def _unmount(window: MainWindow, step: UnmountStep) -> None:
    frame_id = step.frame
    if frame_id == ASSISTANT_FRAME_ID:
        raise StepError("the assistant frame always exists and cannot be unmounted")
    button = frame(window, frame_id).close_button
    if button is None:
        raise StepError(f"'{frame_id}' has no close button")
    click(button)  # the frame's own ✕: Qt moves the focus on, as it does live
    wait_until(
        lambda: frame_id not in window.frames,
        timeout=FRAME_TIMEOUT_SECONDS,
        what=f"'{frame_id}' to close",
    )


def switch_workspace(window: MainWindow, name: str) -> None:
    """Switch as the Workspace menu does; wait until its note frames have loaded."""
    failures: list[str] = []
    with connected(window.workspace_switch_failed, failures.append):
        window.driver.switch_workspace(name)
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
    """Press the frame's own ↗ button; wait for the child process to run."""
    click(note_frame(window, frame_id).popout_button)
    popouts = window.session.popouts

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


_VIEW_CHOICES = in_words(
    f"`{view}`" + (" (default)" if view == DEFAULT_VIEW else "") for view in view_names()
)
"""The views a step may name, as the scenario guide lists them."""

VERBS: tuple[Verb[Any], ...] = (
    Verb(
        MountStep,
        on_window(_mount),
        (
            (
                "`mount: {frame: ID, path: P, view: V}`",
                f"opens an Inbox frame named `ID` on note `P`; `view` is {_VIEW_CHOICES}. "
                "The step waits until the note has loaded, "
                "unless `wait: false` (then the next step runs while it loads). A note that "
                "does not exist opens as a new, empty note.",
            ),
            (
                "`mount: {frame: ID, provider: NAME}`",
                "opens a non-Inbox frame. `workspace` is the workspace browser; any other name "
                "opens a plain placeholder frame, so you can model any provider.",
            ),
        ),
    ),
    Verb(
        ActivateStep,
        on_window(_activate),
        (
            (
                "`activate: ID`",
                "clicks frame `ID`'s title (its text and selection stay as they are); a "
                "popped-out frame's window is brought to the front and clicked. The assistant "
                "frame is always there and is called `assistant`.",
            ),
        ),
    ),
    Verb(
        TypeStep,
        on_window(_type),
        (
            (
                "`type: {frame: ID, text: T, at: end}`",
                "types `T` key by key into the frame's editor (in the main window or popped "
                "out), at the end (Ctrl+End) or at a character offset (`at: 12`, a click "
                "there). When the editor does not have the keyboard focus the step clicks "
                "into it first, as a person must, which activates the frame. `direct: true` "
                "inserts through the editor's API instead (no click, no focus change; the "
                "report says so).",
            ),
        ),
    ),
    Verb(
        SelectStep,
        on_window(_select),
        (
            (
                "`select: {frame: ID, anchor: A, head: H}`",
                "selects from `A` to `H` as a person does: a click at `A`, Shift+click at `H` "
                "(arrow keys where a click cannot land exactly), in the main window or popped "
                "out; offsets count UTF-16 units, as the editor does (an emoji counts 2). An "
                "offset past the end of the note fails, saying which are allowed. `direct: "
                "true` sets the selection through the editor's API (no click).",
            ),
        ),
    ),
    Verb(
        ViewStep,
        on_window(_view),
        (("`view: {frame: ID, view: V}`", "switches the frame to another view."),),
    ),
    Verb(
        OpenStep,
        on_window(_open),
        (
            (
                "`open: {frame: ID, path: P}`",
                "makes the frame show another note (waits for it to load, unless `wait: false`).",
            ),
        ),
    ),
    Verb(
        PopoutStep,
        on_window(lambda window, step: pop_out(window, step.frame)),
        (
            (
                "`popout: ID`",
                "presses the frame's ↗ button: the note moves into its own window, a separate "
                "process. Later `type`, `select`, `activate`, `inline` and `expect: {note}` "
                "reach that window.",
            ),
        ),
    ),
    Verb(
        UnmountStep,
        on_window(_unmount),
        (
            (
                "`unmount: ID`",
                "presses the frame's ✕ button; the keyboard focus moves on as Qt moves it live.",
            ),
        ),
    ),
    Verb(
        CommandStep,
        on_window(_command),
        (
            (
                "`command: ID`",
                "gives a menu command as its menu item or keys do, by the id it is declared "
                "with in `app/commands/actions.py` (`frames.focus-2`, `frames.next`, `file.save`).",
            ),
        ),
    ),
    Verb(
        SwitchWorkspaceStep,
        on_window(lambda window, step: switch_workspace(window, step.workspace)),
        (
            (
                "`switch-workspace: NAME`",
                "switches to workspace `NAME` (created empty if new): a workspace boundary. "
                '"This note" and the activation history are cleared; Inbox frames whose note '
                "also exists in `NAME` are reopened there, the others are closed. The step "
                "waits until the switch is done.",
            ),
        ),
    ),
    Verb(
        NewNoteStep,
        on_window(_new_note),
        (
            (
                "`new-note: {path: P, frame: ID}`",
                "File ▸ New note (Ctrl+N): creates `P` empty through the document API and "
                "opens it in an Inbox frame (named `ID` when given, else the next free "
                "`inbox-N`). A note that already exists is opened as it is. Waits until it has "
                "loaded.",
            ),
        ),
    ),
    Verb(
        QuickOpenStep,
        on_window(_quick_open),
        (
            (
                "`quick-open: {query: Q, frame: ID}`",
                "Quick open (Ctrl+P): types `Q` into the filter (letters in order, not "
                "necessarily together: `lnchpl` finds `projects/launch-plan.md`) and presses "
                "Enter; the best match opens (or is focused if open). The step fails when "
                "nothing matches. `frame` is optional, as for `new-note`.",
            ),
        ),
    ),
)
"""The verbs on the window's frames, in the order the QA guide lists them."""
