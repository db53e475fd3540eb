"""Replays a validated scenario on the real main window, offscreen, and checks its expectations.

Each scenario gets a fresh embedded backend, a temporary workspace holding its
documents and a new :class:`~app.window.main_window.MainWindow`. Every step acts
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
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication

from app.scenario.actions import switch_workspace, wait_all_loaded
from app.scenario.catalogue import verb_of
from app.scenario.expectations import ExpectBody
from app.scenario.model import Scenario
from app.scenario.pictures import save_window_picture
from app.scenario.popout_windows import close_held_popouts
from app.scenario.registry import Step
from app.scenario.report import Mismatch, ScenarioResult, SendRecord, StepResult
from app.scenario.sends import observe_send
from app.scenario.sharing import SharingPeer
from app.scenario.steps import PopoutStep, SendStep
from app.scenario.trace import StepTrace, describe_resolution, take_trace
from app.scenario.waiting import StepError, WaitTimeout, connected, wait_until
from app.session import AppSession, SessionOptions
from app.window.main_window import MainWindow
from app.workspace.layout_state import LayoutStore

TURN_TIMEOUT_SECONDS = 40.0
WINDOW_SIZE = (1360, 860)

Log = Callable[[str], None]
PictureWhen = Callable[[StepResult], bool]
"""Which steps get a picture, given the step's outcome; None: every step."""


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
    scenarios: Sequence[Scenario],
    *,
    screenshots: Path | None = None,
    log: Log = _quiet,
    pictures: PictureWhen | None = None,
) -> list[ScenarioResult]:
    """Run each scenario on its own fresh app and backend, one after another."""
    ensure_application()
    results: list[ScenarioResult] = []
    folders: set[str] = set()
    for scenario in scenarios:
        folder = picture_folder(scenario)
        while folder in folders:  # same file name in two folders: keep both sets of pictures
            folder += "-again"
        folders.add(folder)
        shots = None if screenshots is None else screenshots / folder
        result = run_scenario(scenario, screenshots=shots, pictures=pictures)
        verdict = "PASS" if result.passed else "FAIL"
        seconds = result.duration_ms / 1000
        log(f"{verdict} {scenario.label} ({len(result.steps)} steps, {seconds:.1f} s)")
        results.append(result)
    return results


def run_scenario(
    scenario: Scenario, *, screenshots: Path | None = None, pictures: PictureWhen | None = None
) -> ScenarioResult:
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
            replay = ScenarioReplay(scenario, Path(scratch), result, screenshots, pictures)
        except Exception as error:  # the app could not even start: report, do not crash
            result.error = f"the app could not start: {error}"
        else:
            try:
                replay.run()
            finally:
                replay.close()
    result.duration_ms = (time.monotonic() - started) * 1000
    return result


def picture_folder(scenario: Scenario) -> str:
    """The folder (under ``screenshots``) a scenario's pictures go into: its file's name."""
    return _slug(scenario.source.stem)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "scenario"


class ScenarioReplay:
    """One scenario's run: the session, the window, the sends seen so far."""

    def __init__(
        self,
        scenario: Scenario,
        scratch: Path,
        result: ScenarioResult,
        shots: Path | None,
        pictures: PictureWhen | None = None,
    ) -> None:
        self.scenario = scenario
        self.result = result
        self.shots = shots
        self.pictures = pictures
        workspace_dir = scratch / "workspace"
        self._workspace_dir = workspace_dir
        self._data_dir = scratch / "data"
        workspace_dir.mkdir()
        for path, text in scenario.workspace.items():
            target = workspace_dir.joinpath(*path.split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="")
        self.peer = SharingPeer()
        self._start()
        self.latest: SendRecord | None = None

    def _start(self) -> None:
        """Start the app on this scenario's workspace folder and data folder."""
        self.session = AppSession.start(
            SessionOptions(
                backend_url=None,
                workspace_dir=self._workspace_dir,
                data_dir=self._data_dir,
                save_delay_seconds=self.scenario.save_delay,
                load_delay_seconds=self.scenario.load_delay,
                demo=False,
            )
        )
        try:
            self.window = MainWindow(self.session)
        except Exception:
            self.session.close()
            raise
        self.window.resize(*WINDOW_SIZE)
        self.window.show()

    def _restart(self) -> None:
        """Quit as a person does (layout saved, saves landed) and start again (R45)."""
        window = self.window
        window.close()  # its closeEvent saves the layout, pop-outs kept, then ends them
        window.deleteLater()
        self.session.close()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        last = LayoutStore(self._data_dir).last_workspace()
        self._start()
        wait_all_loaded(self.window)
        if last is not None and last != self.session.workspace:
            # As `python -m app` does: it opens the workspace it was quit in.
            switch_workspace(self.window, last)

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
                self.act(step, outcome)
            except Exception as error:
                outcome.status = "failed"
                outcome.error = _failure(error)
                stopped = True
            outcome.duration_ms = (time.monotonic() - began) * 1000
            outcome.trace = self._trace()
            if self.shots is not None and (self.pictures is None or self.pictures(outcome)):
                outcome.screenshot = self._screenshot(number, step, outcome)

    def act(self, step: Step, outcome: StepResult) -> None:
        """Run one step as its verb declares (:mod:`app.scenario.catalogue`)."""
        verb_of(step).run(self, step, outcome)

    def restart(self) -> None:
        self.peer.close()  # the tool loses its connection as the app quits
        self._restart()

    # -- sends -----------------------------------------------------------------

    def send(self, step: SendStep, outcome: StepResult) -> None:
        assistant = self.window.assistant
        before = len(assistant.records)
        ran_during_flush: list[bool] = []
        nested: list[StepResult] = []
        resolution = self.window.store.resolve() if step.include_ambient else None
        resolved = describe_resolution(resolution) or "no note"
        pending = f"step {outcome.number} ({step.message!r}), resolved at its start to {resolved}"

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
                    self.act(inner, inner_outcome)
                except Exception as error:
                    inner_outcome.status = "failed"
                    inner_outcome.error = _failure(error)
                    inner_outcome.trace = self._trace(pending)
                    return
                inner_outcome.trace = self._trace(pending)

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
        self.latest = observe_send(
            outcome.number, step, record, bool(ran_during_flush), self.session
        )
        self.result.sends.append(self.latest)
        failed_inner = [inner for inner in nested if inner.status == "failed"]
        if step.during_flush and not ran_during_flush:
            raise StepError(
                "the steps under duringFlush never ran: this send needed no flush "
                f"(dropped: {record.capture.dropped})"
            )
        if failed_inner:
            raise StepError(f"step {failed_inner[0].number} failed: {failed_inner[0].error}")

    # -- expectations ------------------------------------------------------------

    def check(self, step: ExpectBody) -> list[Mismatch]:
        return step.check(_Against(self.window, self.latest, self.peer), self.latest is not None)

    def _trace(self, pending: str | None = None) -> StepTrace | None:
        """The trace after a step; a window too broken to read gives none, not a crash."""
        try:
            return take_trace(self.window, pending=pending)
        except Exception:
            return None

    # -- screenshots and teardown ----------------------------------------------

    def _screenshot(self, number: int, step: Step, outcome: StepResult) -> str | None:
        assert self.shots is not None
        self.shots.mkdir(parents=True, exist_ok=True)
        target = self.shots / f"{number:02d}-{_slug(step.verb)}.png"
        popped = step.frame if isinstance(step, PopoutStep) else _latest_popped_out(self.window)
        regions = save_window_picture(self.window, WINDOW_SIZE, target, popped_out=popped)
        if regions is None:
            return None
        outcome.regions = {name: list(box) for name, box in regions.items()}
        return str(target)

    def close(self) -> None:
        """Close the window, pop-out processes, threads and the backend; nothing outlives it."""
        window = getattr(self, "window", None)
        self.peer.close()
        close_held_popouts()
        try:
            if window is not None:
                window.close()  # closeEvent ends the pop-outs too
                window.deleteLater()
        finally:
            self.session.close()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            QCoreApplication.processEvents()


@dataclass(frozen=True)
class _Against:
    """What an ``expect`` step is checked against (:class:`~app.scenario.registry.Checking`)."""

    window: MainWindow
    latest: SendRecord | None
    peer: SharingPeer

    @property
    def send(self) -> SendRecord:
        assert self.latest is not None, "a key about a send is checked only after one"
        return self.latest


def _latest_popped_out(window: MainWindow) -> str | None:
    """The frame id of the newest pop-out still open: every later picture shows it too (R29)."""
    running = [handle for handle in window.session.popouts.handles if handle.exit_code is None]
    return running[-1].frame_id if running else None
