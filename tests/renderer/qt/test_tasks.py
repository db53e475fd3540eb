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
