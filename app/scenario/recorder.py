"""Records what a user does in the main window as a scenario that replays to the same pointers.

The recorder only listens: frame mounts and closes (``frames_changed``), the one
activation path and runtime changes (it observes the store's ``activate`` and
``runtime_changed`` calls the window makes), typing (each editor's
``contentsChange``), pop-outs, workspace switches, the assistant's sends, and
the menu commands declared ``recorded`` in ``app/commands/actions.py`` (Save now, Move
frame up and down), as ``command`` steps.
Each finished send becomes a ``send`` step followed by an ``expect`` holding what
a person can read and edit of the pointer it carried (path, frame, view,
selection, whether it was flushed; not the hash, byte count or capture time,
which change with every edit of the note), the drop reason and the tools called.
Deleting text has no scenario verb, so a deletion is noted in
:attr:`ScenarioRecorder.unrecorded` instead of being guessed at.

An activation that follows from a close or a pop-out (Qt moving the keyboard focus
to the next editor) is not a step of its own: the replay presses the same button,
and Qt moves the focus the same way (R88). The file's workspace holds only the
notes the session touched: opened in a frame, or named by a send or its tools.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
import yaml
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication

from app.commands.actions import ACTIONS
from app.scenario.catalogue import ExpectStep
from app.scenario.expectations import NO_DROP, ExpectBody
from app.scenario.registry import Step, step_data
from app.scenario.steps import (
    ActivateStep,
    CaptionStep,
    CommandStep,
    MountStep,
    OpenStep,
    PopoutStep,
    SelectStep,
    SendStep,
    SwitchWorkspaceStep,
    TypeStep,
    UnmountStep,
    ViewStep,
)
from app.scenario.workspace_copy import copy_regular_files
from bridge.frames import ASSISTANT_FRAME_ID
from bridge.pointer import AmbientPointer, decode_header
from renderer.frames.inbox.frame import InboxFrame
from renderer.frames.providers import WORKSPACE_PROVIDER, PlaceholderProviderFrame

if TYPE_CHECKING:
    from app.window.main_window import MainWindow
    from renderer.ambient.turns import TurnRecord

# Qt's selectedText() marks paragraph breaks with U+2029 where the document has "\n".
_PARAGRAPH_SEPARATOR = "\u2029"


class _ScenarioDumper(yaml.SafeDumper):
    """Writes note text as one double-quoted line (``"# A\\nalpha\\n"``), as QA writes it."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = '"' if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_ScenarioDumper.add_representer(str, _represent_text)


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _provider_name(frame: object) -> str:
    if isinstance(frame, PlaceholderProviderFrame):
        return frame.provider
    return WORKSPACE_PROVIDER


_POINTER_KEPT = ("path", "frameId", "view", "selection", "flushed")
"""The pointer's fields a recorded ``expect`` keeps: what a person reads and may edit."""
_USER_INPUT = frozenset({QEvent.Type.MouseButtonPress, QEvent.Type.KeyPress})


class _InputWatch(QObject):
    """Tells when the person presses a key or a mouse button, anywhere in the application."""

    def __init__(self, heard: Callable[[], None]) -> None:
        super().__init__()
        self._heard = heard

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() in _USER_INPUT:
            self._heard()
        return False


class ScenarioRecorder:
    """Listens to one main window and accumulates scenario steps."""

    def __init__(
        self, window: MainWindow, *, documents: dict[str, str] | None = None, name: str = ""
    ) -> None:
        self.window = window
        self.name = name or "recorded session"
        self.documents = dict(documents or {})
        self.steps: list[Step] = []
        self.unrecorded: list[str] = []
        self._known: dict[str, tuple[str, str] | None] = {}
        self._popping: set[str] = set()
        self._last_activated: str | None = None
        self._cursors: dict[str, tuple[int, int] | None] = {}
        self._during: list[Step] | None = None
        self._send_at: int | None = None
        self._disconnects: list[Callable[[], None]] = []
        self._store_originals: dict[str, Callable[..., None]] = {}
        self._hooked_assistants: set[int] = set()
        self._settling = False
        """A close or pop-out was pressed: activations until the next key or click follow
        from Qt's own focus move, not from the person."""
        self._touched: set[str] = set()
        self._input_watch = _InputWatch(self._on_input)
        self._attach()

    # -- wiring ------------------------------------------------------------------

    def _attach(self) -> None:
        window = self.window
        store = window.store
        for method in ("activate", "runtime_changed"):
            original = getattr(store, method)
            self._store_originals[method] = original
            setattr(store, method, self._observer(method, original))
        application = QApplication.instance()
        if application is not None:
            application.installEventFilter(self._input_watch)
        self._connect(window.frames_changed, self._on_frames_changed)
        self._connect(window.workspace_switched, self._on_workspace_switched)
        for declaration in ACTIONS:  # R84: commands whose effect nothing else records
            if declaration.recorded:
                self._connect(
                    window.menus.actions[declaration.id].triggered,
                    lambda _checked=False, action=declaration.id: self._record(
                        CommandStep(action=action)
                    ),
                )
        self._hook_assistant()
        for frame_id, frame in window.frames.items():
            self._adopt(frame_id, frame, record=False)

    def _hook_assistant(self) -> None:
        """Each workspace has its own assistant frame: hook the open one, once."""
        assistant = self.window.assistant
        if id(assistant) in self._hooked_assistants:
            return
        self._hooked_assistants.add(id(assistant))
        self._connect(assistant.busy_changed, self._on_busy_changed)
        self._connect(assistant.flush_started, self._on_flush_started)
        self._connect(assistant.turn_finished, self._on_turn_finished)

    def _connect(self, signal: Any, slot: Callable[..., None]) -> None:
        signal.connect(slot)

        def disconnect() -> None:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)

        self._disconnects.append(disconnect)

    def _observer(self, method: str, original: Callable[..., None]) -> Callable[..., None]:
        def observed(frame_id: str) -> None:
            original(frame_id)
            if method == "activate":
                self._on_activated(frame_id)
            else:
                self._on_runtime_changed(frame_id)

        return observed

    def detach(self) -> None:
        """Stop listening and give the store back its own methods."""
        application = QApplication.instance()
        if application is not None:
            application.removeEventFilter(self._input_watch)
        for disconnect in self._disconnects:
            disconnect()
        self._disconnects.clear()
        store = self.window.store
        for method in self._store_originals:
            with contextlib.suppress(AttributeError):
                delattr(store, method)
        self._store_originals.clear()

    # -- the scenario --------------------------------------------------------------

    def scenario_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        if self.unrecorded:
            data["description"] = "Recorded. Not replayed: " + "; ".join(self.unrecorded)
        else:
            data["description"] = "Recorded from a session of the app."
        data["workspace"] = {
            path: text for path, text in sorted(self.documents.items()) if path in self._touched
        }
        steps = self.steps or [CaptionStep(text="nothing was done")]
        data["steps"] = [step_data(step) for step in steps]
        return data

    def write(self, path: Path) -> int:
        """Write the scenario as YAML; returns the number of steps."""
        data = self.scenario_data()
        path.parent.mkdir(parents=True, exist_ok=True)
        text = yaml.dump(
            data,
            Dumper=_ScenarioDumper,
            sort_keys=False,
            allow_unicode=True,
            width=100,
            default_flow_style=None,
        )
        path.write_text(text, encoding="utf-8")
        return len(data["steps"])

    def _on_input(self) -> None:
        self._settling = False

    def _settle(self, _frame_id: str) -> None:
        self._settling = True

    @property
    def _current(self) -> list[Step]:
        """Where the next step goes: under the send whose flush is in flight, else the top."""
        return self._during if self._during is not None else self.steps

    def _record(self, step: Step) -> None:
        self._current.append(step)

    # -- frames ----------------------------------------------------------------------

    def _adopt(self, frame_id: str, frame: object, *, record: bool) -> None:
        close_requested = getattr(frame, "close_requested", None)
        if close_requested is not None:
            self._connect(close_requested, self._settle)
        if isinstance(frame, InboxFrame):
            self._touched.add(frame.path)
            self._known[frame_id] = (frame.path, frame.view)
            self._cursors[frame_id] = None
            if record:
                self._record(MountStep(frame=frame_id, path=frame.path, view=frame.view))

            def typed(position: int, removed: int, added: int, target: InboxFrame = frame) -> None:
                self._on_typed(target, position, removed, added)

            # A load puts the note into a fresh document (the one shown before is emptied
            # a slice at a time, R67), and a shared note (R53) shows another frame's:
            # the keys typed go to whichever document the editor shows now.
            follower = _DocumentFollower(frame, typed)
            self._connect(frame.loaded, follower.follow)
            self._disconnects.append(follower.stop)
            self._connect(frame.popout_requested, self._on_popout_requested)
        else:
            self._known[frame_id] = None
            if record and frame_id != ASSISTANT_FRAME_ID:
                self._record(MountStep(frame=frame_id, provider=_provider_name(frame)))

    def _on_frames_changed(self) -> None:
        if self.window.is_switching_workspace:
            return
        current = self.window.frames
        for frame_id in [known for known in self._known if known not in current]:
            del self._known[frame_id]
            self._cursors.pop(frame_id, None)
            if frame_id in self._popping:
                self._popping.discard(frame_id)
            else:
                self._record(UnmountStep(frame=frame_id))
            if self._last_activated == frame_id:
                self._last_activated = None
        for frame_id, frame in current.items():
            if frame_id not in self._known:
                self._adopt(frame_id, frame, record=True)

    def _on_popout_requested(self, frame_id: str) -> None:
        self._settling = True
        target = self._current
        if target and target[-1] == UnmountStep(frame=frame_id):
            # The window's own handler ran first and the frame already left: that was this.
            target[-1] = PopoutStep(frame=frame_id)
            return
        self._popping.add(frame_id)
        self._record(PopoutStep(frame=frame_id))

    def _on_workspace_switched(self, workspace: str) -> None:
        self._record(SwitchWorkspaceStep(workspace=workspace))
        self._last_activated = None
        self._known.clear()
        self._cursors.clear()
        # The replayed switch remounts the same frames itself; only hook the new objects.
        self._hook_assistant()
        for frame_id, frame in self.window.frames.items():
            self._adopt(frame_id, frame, record=False)

    # -- what the user does in a frame ---------------------------------------------------

    def _on_activated(self, frame_id: str) -> None:
        if self.window.is_switching_workspace or frame_id == self._last_activated:
            return
        self._last_activated = frame_id
        if not self._settling:  # else the replay's own button press brings it about
            self._record(ActivateStep(frame=frame_id))

    def _on_runtime_changed(self, frame_id: str) -> None:
        frame = self.window.frames.get(frame_id)
        known = self._known.get(frame_id)
        if not isinstance(frame, InboxFrame) or known is None:
            return
        path, view = known
        if frame.path != path:
            self._touched.add(frame.path)
            self._record(OpenStep(frame=frame_id, path=frame.path))
            self._cursors[frame_id] = None
        if frame.view != view:
            self._record(ViewStep(frame=frame_id, view=frame.view))
        self._known[frame_id] = (frame.path, frame.view)

    def _on_typed(self, frame: InboxFrame, position: int, removed: int, added: int) -> None:
        if not frame.is_loaded or frame.frame_id not in self._known:
            return  # the note's text arriving from the backend, not the user
        if removed:
            self.unrecorded.append(f"a deletion of {removed} characters in {frame.frame_id}")
        if not added:
            return
        cursor = QTextCursor(frame.editor.document())
        cursor.setPosition(position)
        cursor.setPosition(position + added, QTextCursor.MoveMode.KeepAnchor)
        text = cursor.selectedText().replace(_PARAGRAPH_SEPARATOR, "\n")
        target = self._current
        last = target[-1] if target else None
        if (
            isinstance(last, TypeStep)
            and last.frame == frame.frame_id
            and isinstance(last.at, int)
            and last.at + _utf16_length(last.text) == position
        ):
            target[-1] = last.model_copy(update={"text": last.text + text})
            self._cursors[frame.frame_id] = (position + added, position + added)
            return
        self._record(TypeStep(frame=frame.frame_id, text=text, at=position))
        self._cursors[frame.frame_id] = (position + added, position + added)

    def _record_selections(self) -> None:
        """Before a send, pin every editor's selection so the replayed pointer matches."""
        for frame_id, frame in self.window.frames.items():
            if not isinstance(frame, InboxFrame) or frame_id not in self._known:
                continue
            cursor = frame.editor.textCursor()
            state = (cursor.anchor(), cursor.position())
            before = self._cursors.get(frame_id)
            if before == state:
                continue
            self._cursors[frame_id] = state
            if state[0] == state[1] and (before is None or before[0] == before[1]):
                continue  # only the cursor moved: no selection before or now, none to replay
            self._record(SelectStep(frame=frame_id, anchor=state[0], head=state[1]))

    # -- sends ----------------------------------------------------------------------------

    def _on_busy_changed(self, busy: bool) -> None:
        if busy and self._send_at is None:
            self._record_selections()
            self._send_at = len(self.steps)

    def _on_flush_started(self) -> None:
        if self._during is None:
            self._during = []

    def _on_turn_finished(self, record: TurnRecord) -> None:
        during, self._during = self._during or [], None
        at = self._send_at if self._send_at is not None else len(self.steps)
        self._send_at = None
        included = record.capture.dropped != "excluded"
        self.steps.insert(at, SendStep(record.message, tuple(during), include_ambient=included))
        self.steps.append(_expectation(record))
        self._touched.update(_named_notes(record, self.documents))


def _expectation(record: TurnRecord) -> ExpectBody:
    """What the send carried: the pointer (all but the capture time), drop reason, tools."""
    capture = record.capture
    expect: dict[str, Any] = {}
    decoded = decode_header(capture.header) if capture.header is not None else None
    if isinstance(decoded, AmbientPointer):
        carried = decoded.model_dump(exclude_none=True)
        pointer = {key: carried[key] for key in _POINTER_KEPT if key in carried}
        if "selection" not in pointer:
            pointer["selection"] = None
        expect["pointer"] = pointer
        expect["dropped"] = NO_DROP
    else:
        expect["pointer"] = None
        expect["dropped"] = capture.dropped
    if record.reply is not None:
        expect["tools"] = [call.name for call in record.reply.tool_calls]
    return ExpectStep.model_validate(expect)


def _named_notes(record: TurnRecord, documents: dict[str, str]) -> set[str]:
    """The workspace's notes a send named: in its message, or in its tools' calls and results."""
    texts = [record.message]
    if record.reply is not None:
        for call in record.reply.tool_calls:
            texts.append(json.dumps(call.arguments, ensure_ascii=False, default=str))
            texts.append(json.dumps(call.result, ensure_ascii=False, default=str))
    joined = "\n".join(texts)
    return {path for path in documents if path in joined}


def snapshot_documents(folder: Path) -> dict[str, str]:
    """Every UTF-8 text file under ``folder``, by workspace-relative POSIX path."""
    documents: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            try:
                documents[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
    return documents


def record_interactively(file: Path, *, name: str | None, workspace: Path | None) -> int:
    """Open the app on a copy of ``workspace`` (or the demo notes); write the scenario on quit.

    Only regular files inside ``workspace`` are copied (R66); each link or special file
    left out is said on stderr. SIGTERM and Ctrl+C close the window as Quit does, so
    the scenario is written the same way.
    """
    from app.scenario.runner import ensure_application
    from app.session import AppSession, SessionOptions
    from app.shutdown import QUIT_SIGNALS, close_on_signal
    from app.window.main_window import MainWindow
    from app.workspace.demo import DEMO_ASSETS, DEMO_FRAMES
    from app.workspace.switch import BROWSER_FRAME_ID

    application = ensure_application()
    with tempfile.TemporaryDirectory(prefix="ambient-record-") as scratch:
        copy = Path(scratch) / "workspace"
        for skipped in copy_regular_files(workspace or DEMO_ASSETS, copy):
            print(f"Not copied into the recording: {skipped}", file=sys.stderr)
        session = AppSession.start(
            SessionOptions(
                backend_url=None, workspace_dir=copy, data_dir=Path(scratch) / "data", demo=False
            )
        )
        try:
            window = MainWindow(session, demo_layout=False)
            recorder = ScenarioRecorder(
                window, documents=snapshot_documents(copy), name=name or file.stem
            )
            if workspace is None:
                window.driver.mount_provider(BROWSER_FRAME_ID, WORKSPACE_PROVIDER)
                for frame_id, path in DEMO_FRAMES:
                    window.driver.mount_inbox(frame_id, path)
            window.show()
            before = {signum: signal.getsignal(signum) for signum in QUIT_SIGNALS}
            wake = close_on_signal(window, *QUIT_SIGNALS)
            # Said from inside the event loop: a SIGTERM from then on ends it as Quit does.
            ready = f"Recording into {file}: quit the app to write it."
            QTimer.singleShot(0, lambda: print(ready, flush=True))
            try:
                if window.isVisible():  # a signal before the loop already closed it
                    application.exec()
            finally:
                wake.stop()
                for signum, handler in before.items():
                    signal.signal(signum, handler)
            recorder.detach()
            written = recorder.write(file)
            if window.isVisible():
                window.close()  # the application quit without the window closing first
            window.deleteLater()
        finally:
            session.close()
    return written


class _DocumentFollower:
    """Keeps ``typed`` connected to the document a frame's editor shows, as it changes."""

    def __init__(self, frame: InboxFrame, typed: Callable[[int, int, int], None]) -> None:
        self._frame = frame
        self._typed = typed
        self._document: QTextDocument | None = None
        self.follow()

    def follow(self) -> None:
        document = self._frame.editor.document()
        if document is self._document:
            return
        self.stop()
        self._document = document
        document.contentsChange.connect(self._typed)

    def stop(self) -> None:
        if self._document is not None and shiboken6.isValid(self._document):
            with contextlib.suppress(RuntimeError, TypeError):
                self._document.contentsChange.disconnect(self._typed)
        self._document = None
