"""The task runner's outcomes come back on the GUI thread; a failure is never dropped."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from bridge.errors import BackendError
from renderer.qt.tasks import TaskRunner


@pytest.fixture
def runner() -> Iterator[TaskRunner]:
    tasks = TaskRunner(max_workers=1)
    yield tasks
    tasks.shutdown()


def _fail() -> object:
    raise BackendError("The backend said no.")


def test_a_failure_without_a_handler_takes_the_runners_default_path(qtbot: QtBot) -> None:
    seen: list[tuple[BaseException, bool]] = []
    tasks = TaskRunner(
        max_workers=1,
        on_failure=lambda error: seen.append((error, threading.current_thread() is main)),
    )
    main = threading.current_thread()
    try:
        tasks.submit(_fail)
        qtbot.waitUntil(lambda: bool(seen))
    finally:
        tasks.shutdown()
    error, on_gui_thread = seen[0]
    assert isinstance(error, BackendError)
    assert on_gui_thread


def test_a_given_handler_wins_over_the_default(runner: TaskRunner, qtbot: QtBot) -> None:
    errors: list[BaseException] = []
    runner.submit(_fail, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors))
    assert str(errors[0]) == "The backend said no."


def test_the_default_path_logs_a_refusal_plainly_and_a_defect_with_its_traceback(
    runner: TaskRunner, qtbot: QtBot, caplog: pytest.LogCaptureFixture
) -> None:
    def defect() -> object:
        raise RuntimeError("a bug")

    with caplog.at_level(logging.INFO, logger="renderer.qt.tasks"):
        runner.submit(_fail)
        runner.submit(defect)
        qtbot.waitUntil(lambda: len(caplog.records) == 2)
    refused, failed = sorted(caplog.records, key=lambda record: record.levelno)
    assert refused.levelno == logging.INFO and refused.exc_info is None
    assert "The backend said no." in refused.getMessage()
    assert failed.levelno == logging.ERROR and failed.exc_info is not None


def test_r67_held_work_waits_in_order_and_leaves_the_worker_to_work_that_needs_no_backend(
    runner: TaskRunner, qtbot: QtBot
) -> None:
    """Issue 33: while the backend starts, calls to it wait GUI-side, not on the one worker."""
    done: list[str] = []
    runner.hold()
    first = runner.submit(lambda: "first", on_done=done.append)
    second = runner.submit(lambda: "second", on_done=done.append)
    runner.submit(lambda: "folder read", on_done=done.append, held=False)
    qtbot.waitUntil(lambda: done == ["folder read"])
    assert first is not None and second is not None and not first.done() and runner.busy
    runner.release()
    qtbot.waitUntil(lambda: done == ["folder read", "first", "second"] and not runner.busy)
    assert first.result() == "first"


def test_a_held_task_cancelled_before_the_release_never_runs(
    runner: TaskRunner, qtbot: QtBot
) -> None:
    ran: list[str] = []
    runner.hold()
    cancelled = runner.submit(lambda: ran.append("cancelled"))
    runner.submit(lambda: ran.append("kept"))
    assert cancelled is not None and cancelled.cancel()
    runner.release()
    # "kept" is appended inside the work, a moment before its future is done: wait for both.
    qtbot.waitUntil(lambda: ran == ["kept"] and not runner.busy)
