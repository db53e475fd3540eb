"""Replays a validated scenario on the real main window, offscreen, and checks its expectations.

Each scenario gets a fresh embedded backend, a temporary workspace holding its
documents and a new :class:`~app.main_window.MainWindow`. Every step acts
through the window's driver API, the same code path as the user's action;
waits run the Qt event loop until a signal or condition says the app is
ready, bounded by time-outs. Expectations look at the latest turn record and
at the delivery row read back from the backend.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QProcess
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.main_window import MainWindow
from app.scenario.model import (
    NO_DROP,
    ActivateStep,
    CaptionStep,
    ExpectStep,
    MountStep,
    OpenStep,
    PopoutStep,
    Scenario,
    SelectStep,
    SendStep,
    Step,
    SwitchWorkspaceStep,
    TypeStep,
    UnmountStep,
    ViewStep,
)
from app.scenario.pictures import render_popout, side_by_side
from app.scenario.report import Mismatch, ScenarioResult, SendRecord, StepResult
from app.scenario.waiting import WaitTimeout, connected, wait_until
from app.session import AppSession
from bridge.pointer import AmbientPointer, decode_header
from renderer.frames.assistant import ASSISTANT_FRAME_ID
from renderer.frames.base import FrameBase
from renderer.frames.chip import chip_text
from renderer.frames.inbox import InboxFrame
from renderer.frames.turns import TurnRecord
from workers.messages import CAVEAT

LOAD_TIMEOUT_SECONDS = 20.0
TURN_TIMEOUT_SECONDS = 40.0
FRAME_TIMEOUT_SECONDS = 20.0
WINDOW_SIZE = (1360, 860)
STORED_COLUMNS = ("ambient_path", "ambient_view", "ambient_meta")

Log = Callable[[str], None]


class StepError(Exception):
    """A step could not be carried out; the scenario stops here."""


def _quiet(_line: str) -> None:
    return None


def _failure(error: Exception) -> str:
    """Why a step failed: the runner's own words as they are, anything else by its type."""
    if isinstance(error, (StepError, WaitTimeout)):
        return str(error)
    return f"the app raised {type(error).__name__}: {error}"


def ensure_application() -> QApplication:
    """The running QApplication, or a new one (offscreen when the caller set that up)."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    return QApplication(["ambient-notes-scenario"])


def run_scenarios(
    scenarios: Sequence[Scenario], *, screenshots: Path | None = None, log: Log = _quiet
) -> list[ScenarioResult]:
    """Run each scenario on its own fresh app and backend, one after another."""
    ensure_application()
    results: list[ScenarioResult] = []
    folders: set[str] = set()
    for scenario in scenarios:
        folder = _slug(scenario.source.stem)
        while folder in folders:  # same file name in two folders: keep both sets of pictures
            folder += "-again"
        folders.add(folder)
        shots = None if screenshots is None else screenshots / folder
        result = run_scenario(scenario, screenshots=shots)
        verdict = "PASS" if result.passed else "FAIL"
        seconds = result.duration_ms / 1000
        log(f"{verdict} {scenario.label} ({len(result.steps)} steps, {seconds:.1f} s)")
        results.append(result)
    return results


def run_scenario(scenario: Scenario, *, screenshots: Path | None = None) -> ScenarioResult:
    """Replay one scenario; never raises for what the app does (failures go in the result).

    ``screenshots`` is the folder this scenario's pictures go into.
    """
    ensure_application()
    started = time.monotonic()
    result = ScenarioResult(
        file=scenario.label,
        name=scenario.name,
        description=scenario.description,
        rules=list(scenario.rules),
    )
    with tempfile.TemporaryDirectory(prefix="ambient-scenario-") as scratch:
        try:
            replay = ScenarioReplay(scenario, Path(scratch), result, screenshots)
        except Exception as error:  # the app could not even start: report, do not crash
            result.error = f"the app could not start: {error}"
        else:
            try:
                replay.run()
            finally:
                replay.close()
    result.duration_ms = (time.monotonic() - started) * 1000
    return result


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "scenario"


class ScenarioReplay:
    """One scenario's run: the session, the window, the sends seen so far."""

    def __init__(
        self, scenario: Scenario, scratch: Path, result: ScenarioResult, shots: Path | None
    ) -> None:
        self.scenario = scenario
        self.result = result
        self.shots = shots
        workspace_dir = scratch / "workspace"
        workspace_dir.mkdir()
        for path, text in scenario.workspace.items():
            target = workspace_dir.joinpath(*path.split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="")
        self.session = AppSession.start(
            backend_url=None,
            workspace_dir=workspace_dir,
            data_dir=scratch / "data",
            save_delay_seconds=scenario.save_delay,
            load_delay_seconds=scenario.load_delay,
            demo=False,
        )
        try:
            self.window = MainWindow(self.session)
        except Exception:
            self.session.close()
            raise
        self.window.resize(*WINDOW_SIZE)
        self.window.show()
        self.latest: SendRecord | None = None

    # -- the run -----------------------------------------------------------

    def run(self) -> None:
        stopped = False
        for number, step in enumerate(self.scenario.steps, start=1):
            outcome = StepResult(str(number), step.verb, step.describe())
            self.result.steps.append(outcome)
            if stopped:
                outcome.status = "skipped"
                continue
            began = time.monotonic()
            try:
                self._perform(step, outcome)
            except Exception as error:
                outcome.status = "failed"
                outcome.error = _failure(error)
                stopped = True
            outcome.duration_ms = (time.monotonic() - began) * 1000
            if self.shots is not None:
                outcome.screenshot = self._screenshot(number, step)

    def _perform(self, step: Step, outcome: StepResult) -> None:
        if isinstance(step, SendStep):
            self._send(step, outcome)
        elif isinstance(step, ExpectStep):
            outcome.mismatches = self._check(step)
            if outcome.mismatches:
                outcome.status = "failed"
        else:
            self._act(step)

    def _act(self, step: Step) -> None:
        window = self.window
        if isinstance(step, MountStep):
            if step.frame in window.frames:
                raise StepError(f"a frame named '{step.frame}' is already mounted")
            if step.provider is not None:
                window.mount_provider(step.frame, step.provider)
            else:
                assert step.path is not None
                window.mount_inbox(step.frame, step.path, step.inbox_view)
                if step.wait:
                    self._wait_loaded(step.frame)
        elif isinstance(step, ActivateStep):
            self._frame(step.frame)
            window.activate_frame(step.frame)
        elif isinstance(step, TypeStep):
            self._inbox(step.frame).type_text(step.text, at=step.at)
        elif isinstance(step, SelectStep):
            self._inbox(step.frame).select(step.anchor, step.head)
        elif isinstance(step, ViewStep):
            self._inbox(step.frame).set_view(step.view)
        elif isinstance(step, OpenStep):
            self._inbox(step.frame).open_path(step.path)
            if step.wait:
                self._wait_loaded(step.frame)
        elif isinstance(step, PopoutStep):
            self._pop_out(step.frame)
        elif isinstance(step, UnmountStep):
            if step.frame == ASSISTANT_FRAME_ID:
                raise StepError("the assistant frame always exists and cannot be unmounted")
            self._frame(step.frame)
            window.close_frame(step.frame)
            wait_until(
                lambda: step.frame not in self.window.frames,
                timeout=FRAME_TIMEOUT_SECONDS,
                what=f"'{step.frame}' to close",
            )
        elif isinstance(step, SwitchWorkspaceStep):
            self._switch_workspace(step.workspace)
        elif isinstance(step, CaptionStep):
            return
        else:  # pragma: no cover - the model admits no other step
            raise StepError(f"cannot perform '{step.verb}'")

    def _switch_workspace(self, name: str) -> None:
        window = self.window
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
        self._wait_all_loaded()

    def _pop_out(self, frame_id: str) -> None:
        """Pop out through the frame's own button path; wait for the child process to run."""
        self._inbox(frame_id).pop_out()
        popouts = self.window.popouts

        def child_running() -> bool:
            return any(
                handle.frame_id == frame_id
                and handle.process.state() == QProcess.ProcessState.Running
                for handle in popouts.handles
            )

        wait_until(
            lambda: frame_id not in self.window.frames and child_running(),
            timeout=FRAME_TIMEOUT_SECONDS,
            what=f"'{frame_id}' to move into its own window",
            wake_on=[popouts.popped_out],
        )

    # -- frames --------------------------------------------------------------

    def _frame(self, frame_id: str) -> FrameBase:
        frame = self.window.frames.get(frame_id)
        if frame is None:
            known = ", ".join(sorted(self.window.frames)) or "none"
            raise StepError(f"there is no frame '{frame_id}' (frames now: {known})")
        return frame

    def _inbox(self, frame_id: str) -> InboxFrame:
        frame = self._frame(frame_id)
        if not isinstance(frame, InboxFrame):
            raise StepError(f"'{frame_id}' is not an Inbox frame")
        return frame

    def _wait_loaded(self, frame_id: str) -> None:
        frame = self._inbox(frame_id)
        failures: list[str] = []
        with connected(frame.load_failed, failures.append):
            wait_until(
                lambda: frame.is_loaded or bool(failures),
                timeout=LOAD_TIMEOUT_SECONDS,
                what=f"'{frame_id}' to load {frame.path}",
                wake_on=[frame.loaded, frame.load_failed],
            )
        if failures and not frame.is_loaded:
            raise StepError(f"'{frame_id}' could not load {frame.path}: {failures[-1]}")

    def _wait_all_loaded(self) -> None:
        for frame_id, frame in list(self.window.frames.items()):
            if isinstance(frame, InboxFrame):
                self._wait_loaded(frame_id)

    # -- sends -----------------------------------------------------------------

    def _send(self, step: SendStep, outcome: StepResult) -> None:
        assistant = self.window.assistant
        before = len(assistant.records)
        ran_during_flush: list[bool] = []
        nested: list[StepResult] = []

        def on_flush_started() -> None:
            if ran_during_flush:
                return
            ran_during_flush.append(True)
            for index, inner in enumerate(step.during_flush, start=1):
                inner_outcome = StepResult(
                    f"{outcome.number}.{index}", inner.verb, "during the flush: " + inner.describe()
                )
                nested.append(inner_outcome)
                try:
                    self._act(inner)
                except Exception as error:
                    inner_outcome.status = "failed"
                    inner_outcome.error = _failure(error)
                    return

        listening = (
            connected(assistant.flush_started, on_flush_started)
            if step.during_flush
            else contextlib.nullcontext()
        )
        with listening:
            assistant.send(step.message, include_ambient=step.include_ambient)
            wait_until(
                lambda: len(assistant.records) > before,
                timeout=TURN_TIMEOUT_SECONDS,
                what=f"the reply to {step.message!r}",
                wake_on=[assistant.turn_finished],
            )
        self.result.steps.extend(nested)
        record = assistant.records[-1]
        self.latest = self._observe(outcome.number, step, record, bool(ran_during_flush))
        self.result.sends.append(self.latest)
        failed_inner = [inner for inner in nested if inner.status == "failed"]
        if step.during_flush and not ran_during_flush:
            raise StepError(
                "the steps under duringFlush never ran: this send needed no flush "
                f"(dropped: {record.capture.dropped})"
            )
        if failed_inner:
            raise StepError(f"step {failed_inner[0].number} failed: {failed_inner[0].error}")

    def _observe(self, number: str, step: SendStep, record: TurnRecord, ran: bool) -> SendRecord:
        capture = record.capture
        pointer: dict[str, Any] | None = None
        if capture.header is not None:
            # R14: what the backend receives is the header; check it decodes to a pointer.
            decoded = decode_header(capture.header)
            pointer = (
                decoded.model_dump(exclude_none=True)
                if isinstance(decoded, AmbientPointer)
                else {"undecodable": decoded.reason}
            )
        reply = record.reply
        return SendRecord(
            step=number,
            message=step.message,
            include_ambient=step.include_ambient,
            pointer=pointer,
            dropped=capture.dropped,
            header_bytes=record.header_bytes,
            flushed=record.flushed,
            ambient_status=None if reply is None else reply.ambient_status,
            ambient_reason=None if reply is None else reply.ambient_reason,
            tools=[] if reply is None else [call.name for call in reply.tool_calls],
            tool_results=[]
            if reply is None
            else [
                {"name": call.name, "arguments": call.arguments, "result": call.result}
                for call in reply.tool_calls
            ],
            caveats=record.caveats,
            reply=None if reply is None else reply.reply,
            error=record.error,
            stored=self._read_delivery(record.conversation),
            during_flush_ran=ran,
        )

    def _read_delivery(self, conversation: str) -> dict[str, Any] | None:
        """The delivery row as the backend holds it now (not as the client thinks it sent it)."""
        session = self.session
        row = session.client().get_delivery(session.link.session, conversation)
        return None if row is None else dict(row)

    # -- expectations ------------------------------------------------------------

    def _check(self, step: ExpectStep) -> list[Mismatch]:
        given = step.model_fields_set
        mismatches: list[Mismatch] = []
        if "resolves" in given:
            mismatches += self._check_resolves(step)
        if "chip" in given:
            mismatches += self._check_chip(step)
        if not step.about_send:
            return mismatches
        send = self.latest
        if send is None:
            return [*mismatches, Mismatch("send", "a send before this expect", "no send yet")]
        if "pointer" in given:
            mismatches += _check_pointer(step, send)
        if "dropped" in given:
            actual_dropped = NO_DROP if send.dropped is None else send.dropped
            if actual_dropped != step.dropped:
                mismatches.append(Mismatch("dropped", step.dropped, actual_dropped))
        if "ambientStatus" in given and send.ambient_status != step.ambientStatus:
            mismatches.append(Mismatch("ambientStatus", step.ambientStatus, send.ambient_status))
        if "stored" in given:
            mismatches += _check_stored(step, send)
        reply_keys = given & {"tools", "caveat", "partial", "replyContains"}
        if reply_keys and send.error is not None:
            mismatches.append(Mismatch("reply", "a reply from the assistant", send.error))
            return mismatches
        if "tools" in given and send.tools != step.tools:
            mismatches.append(Mismatch("tools", step.tools, send.tools))
        if "caveat" in given:
            caveats = send.caveats
            wrong_text = any(caveat != CAVEAT for caveat in caveats)
            if bool(caveats) != step.caveat or (step.caveat and wrong_text):
                mismatches.append(Mismatch("caveat", CAVEAT if step.caveat else None, caveats))
        if "partial" in given:
            partial = any(
                isinstance(result.get("result"), dict) and result["result"].get("partial") is True
                for result in send.tool_results
            )
            if partial != step.partial:
                mismatches.append(Mismatch("partial", step.partial, partial))
        if "replyContains" in given:
            assert step.replyContains is not None
            if step.replyContains not in (send.reply or ""):
                mismatches.append(Mismatch("replyContains", step.replyContains, send.reply))
        return mismatches

    def _check_chip(self, step: ExpectStep) -> list[Mismatch]:
        """R48: the chip names the note, and the selection's lines, that a send would carry."""
        chip = self.window.assistant.context_chip
        if chip.location != step.chip:
            return [Mismatch("chip", step.chip, chip.location)]
        if step.chip is not None and step.chip not in chip.label.text():
            return [Mismatch("chip (its text)", step.chip, chip.label.text())]
        return []

    def _check_resolves(self, step: ExpectStep) -> list[Mismatch]:
        resolution = self.window.store.resolve()
        shown = self.window.assistant.chip.text()
        expected_text = chip_text(resolution, self.window.assistant.context_chip.lines)
        if not shown.startswith(expected_text):
            # The user reads "this note" off the chip: it must say what the store resolves.
            return [Mismatch("resolves (the chip)", expected_text, shown)]
        actual = (
            None
            if resolution is None
            else {"frameId": resolution.frame_id, "path": resolution.path, "view": resolution.view}
        )
        if step.resolves is None:
            return [] if actual is None else [Mismatch("resolves", None, actual)]
        if actual is None:
            return [Mismatch("resolves", step.resolves.expected(), None)]
        return [
            Mismatch(f"resolves.{key}", value, actual.get(key))
            for key, value in step.resolves.expected().items()
            if actual.get(key) != value
        ]

    # -- screenshots and teardown ----------------------------------------------

    def _screenshot(self, number: int, step: Step) -> str | None:
        assert self.shots is not None
        self.shots.mkdir(parents=True, exist_ok=True)
        target = self.shots / f"{number:02d}-{_slug(step.verb)}.png"
        picture = self.window.grab().toImage()
        if isinstance(step, PopoutStep):
            picture = self._beside_popout(picture, step.frame)
        if not picture.save(str(target)):
            return None
        return str(target)

    def _beside_popout(self, main: QImage, frame_id: str) -> QImage:
        """R29 side by side: the main window and the window the popped-out note lives in."""
        handles = [handle for handle in self.window.popouts.handles if handle.frame_id == frame_id]
        if not handles:
            return main
        handle = handles[-1]
        try:
            popout = render_popout(
                self.session, handle.workspace, handle.frame_id, handle.path, handle.view
            )
        except Exception:
            return main  # a picture is a nicety; the step itself already passed
        return side_by_side(main, popout)

    def close(self) -> None:
        """Close the window, pop-out processes, threads and the backend; nothing outlives it."""
        window = getattr(self, "window", None)
        try:
            if window is not None:
                window.popouts.close_all()
                window.close()
                window.deleteLater()
        finally:
            self.session.close()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            QCoreApplication.processEvents()


def _check_pointer(step: ExpectStep, send: SendRecord) -> list[Mismatch]:
    actual = send.pointer
    if step.pointer is None:
        return [] if actual is None else [Mismatch("pointer", None, actual)]
    expected = step.pointer.expected()
    if actual is None:
        return [Mismatch("pointer", expected, f"no header was sent (dropped: {send.dropped})")]
    return [
        Mismatch(f"pointer.{key}", value, actual.get(key))
        for key, value in expected.items()
        if actual.get(key) != value
    ]


def _check_stored(step: ExpectStep, send: SendRecord) -> list[Mismatch]:
    row = send.stored
    columns = None if row is None else {key: row.get(key) for key in STORED_COLUMNS}
    if step.stored is None:
        if columns is None or all(value is None for value in columns.values()):
            return []
        return [Mismatch("stored", None, columns)]
    expected = step.stored.expected()
    if columns is None:
        return [Mismatch("stored", expected, "no delivery row for this conversation")]
    mismatches: list[Mismatch] = []
    for key, value in expected.items():
        actual = columns.get(key)
        if key == "ambient_meta" and isinstance(value, dict) and isinstance(actual, dict):
            for meta_key, meta_value in value.items():
                if actual.get(meta_key) != meta_value:
                    mismatches.append(
                        Mismatch(
                            f"stored.ambient_meta.{meta_key}", meta_value, actual.get(meta_key)
                        )
                    )
        elif actual != value:
            mismatches.append(Mismatch(f"stored.{key}", value, actual))
    return mismatches
