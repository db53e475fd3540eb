"""The context chip over a store and fake editors: what it says, and when it listens (R3, R48).

The window is not the point here: the chip follows the Qt-free store the app
gives it, and the editors are the in-memory runtimes the core tests use.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from bridge.pointer import Selection
from renderer.ambient.lines import LineRange
from renderer.ambient.store import AmbientStore
from renderer.frames.assistant.chip import ContextChip
from tests.renderer.ambient.fakes import FakeEditor

TEXT = "# A\nalpha line\n- [ ] first task\n- [x] done task\n"


@pytest.fixture
def store() -> AmbientStore:
    return AmbientStore()


@pytest.fixture
def chip(qtbot: QtBot, store: AmbientStore) -> Iterator[ContextChip]:
    widget = ContextChip()
    qtbot.addWidget(widget)
    widget.resize(640, 40)
    widget.show()
    unsubscribe = widget.follow(store)
    yield widget
    unsubscribe()


def test_with_no_note_open_the_chip_says_so_and_nothing_can_be_left_out_R6(
    chip: ContextChip,
) -> None:
    assert chip.location is None
    assert chip.label.text() == "No note open"
    assert not chip.exclude_toggle.isEnabled()


def test_the_chip_names_the_note_this_note_means_and_its_selected_lines_R3_R48(
    chip: ContextChip, store: AmbientStore
) -> None:
    editor = FakeEditor("inbox-1", "notes/a.md", TEXT)
    store.publish(editor)
    assert chip.location == "notes/a.md"  # R3: one Inbox frame, never activated
    editor.selection = Selection(anchor=4, head=20)  # "alpha line\n- [ " : lines 2 to 3
    store.selection_changed("inbox-1")
    assert chip.location == "notes/a.md:2–3"
    assert chip.lines == LineRange(2, 3)
    assert chip.label.text() == "This note: notes/a.md:2–3 · edit · inbox-1"
    editor.view = "preview"  # R8: only the edit view sends a selection
    store.runtime_changed("inbox-1")
    assert chip.location == "notes/a.md"


def test_the_chip_follows_the_last_activated_inbox_frame_R2(
    chip: ContextChip, store: AmbientStore
) -> None:
    store.publish(FakeEditor("inbox-1", "notes/a.md", TEXT))
    store.publish(FakeEditor("inbox-2", "notes/b.md", "# B\n"))
    store.activate("inbox-1")
    assert chip.location == "notes/a.md"
    store.activate("assistant")  # R5: a non-Inbox frame keeps the Inbox choice
    assert chip.location == "notes/a.md"
    store.activate("inbox-2")
    assert chip.location == "notes/b.md"


def test_a_hidden_chip_does_no_work_and_reads_the_store_again_when_shown(
    chip: ContextChip, store: AmbientStore
) -> None:
    editor = FakeEditor("inbox-1", "notes/a.md", TEXT)
    store.publish(editor)
    chip.hide()
    editor.selection = Selection(anchor=4, head=20)
    store.selection_changed("inbox-1")
    assert editor.text_reads == 0  # not listening: the note's text was not read
    assert chip.location == "notes/a.md"
    chip.show()
    assert chip.location == "notes/a.md:2–3"


def test_a_left_out_choice_does_not_carry_over_once_the_note_closes_R48(
    chip: ContextChip, store: AmbientStore
) -> None:
    store.publish(FakeEditor("inbox-1", "notes/a.md", TEXT))
    chip.exclude_toggle.setChecked(True)
    assert chip.label.text() == (
        "This note: notes/a.md · edit · inbox-1 — left out of the next message"
    )
    store.withdraw("inbox-1")
    assert chip.location is None
    assert not chip.exclude_toggle.isChecked()
    assert not chip.exclude_toggle.isEnabled()
