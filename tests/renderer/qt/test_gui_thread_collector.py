"""Cycles are collected on the GUI thread while a window is open.

A collection on the backend's thread that frees a Qt object deadlocks against the
GUI thread (Qt's connection lock against the interpreter lock), so while a window
is open the automatic collector is off and the GUI thread collects instead.
"""

from __future__ import annotations

import gc
import threading

from pytestqt.qtbot import QtBot

from renderer.qt.collector import GuiThreadCollector
from tests.app.conftest import AppFactory


class _Cycle:
    def __init__(self, found: list[bool]) -> None:
        self.me = self
        self.found = found

    def __del__(self) -> None:
        self.found.append(threading.current_thread() is threading.main_thread())


def test_a_cycle_is_collected_on_the_gui_thread_while_the_window_is_open(
    make_app: AppFactory, qtbot: QtBot
) -> None:
    app = make_app()
    assert app.window.isVisible()
    assert not gc.isenabled()
    found: list[bool] = []
    _Cycle(found)

    def freed() -> bool:
        # Allocations of container objects push the youngest generation over its threshold.
        garbage = [[] for _ in range(gc.get_threshold()[0] + 1)]
        del garbage
        return bool(found)

    qtbot.waitUntil(freed, timeout=5_000)
    assert found == [True]


def test_the_collector_is_back_as_it_was_when_the_last_window_closes(qtbot: QtBot) -> None:
    was_enabled = gc.isenabled()
    collector = GuiThreadCollector()
    collector.hold()
    collector.hold()
    assert not gc.isenabled()
    collector.release()
    assert not gc.isenabled()  # one window is still open
    collector.release()
    assert gc.isenabled() == was_enabled
    collector.deleteLater()


class _Young:
    """A container object made afresh (lists come from a free list the counts skip)."""


def _churn(collector: GuiThreadCollector, rounds: int, keep: list[object] | None = None) -> None:
    """Allocate past the youngest threshold ``rounds`` times, checking the collector each time."""
    for _ in range(rounds):
        made = [_Young() for _ in range(gc.get_threshold()[0] + 1)]
        if keep is not None:
            keep += made
        collector.collect_if_due()  # the young objects still alive, as in a running app
        del made


def test_r67_the_whole_heap_is_walked_only_once_it_grew_by_a_quarter(qtbot: QtBot) -> None:
    """CPython's rule for the oldest generation, kept by the GUI thread's collector.

    A full collection walks every object of the process: in a long session it is the
    longest stall the window has. Short-lived objects alone never call for one.
    """
    collector = GuiThreadCollector()
    collector.hold()
    full: list[int] = []

    def on_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(on_collection)
    kept: list[object] = []
    try:
        for _ in range(1000):  # the heap grows until a full collection is due
            _churn(collector, 1, kept)
            if full:
                break
        assert full
        full.clear()
        # Only short-lived objects, well past the 121 rounds after which the oldest
        # generation's count passes its threshold: the old heap is not walked.
        _churn(collector, 150)
        assert not full
        before = len(gc.get_objects(generation=2))
        _churn(collector, 200 + before // 500, kept)  # grown by more than a quarter
        assert full
    finally:
        gc.callbacks.remove(on_collection)
        collector.release()
        collector.deleteLater()
