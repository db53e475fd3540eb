"""The menu bar's sharing status never clips: it shortens, the tooltip says it all (R80)."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QLabel

from app.scenario.sidecar_client import SdkClient
from app.sidecar.controls import STARTING_TEXT, connected_text
from app.sidecar.sharing import SDK_MODULE
from tests.app.conftest import AppFactory, AppUnderTest

WAIT_MS = 10_000


def _shown_whole(label: QLabel) -> bool:
    """The label is wide enough for its text, inside the window."""
    needed = label.fontMetrics().horizontalAdvance(label.text())
    margins = label.contentsMargins()
    right = label.mapTo(label.window(), label.rect().topRight()).x()
    fits = label.width() - margins.left() - margins.right() >= needed
    return label.isVisible() and fits and right < label.window().width()


def test_r80_the_status_shortens_instead_of_clipping(
    shared: tuple[AppUnderTest, SdkClient],
) -> None:
    app, _client = shared
    sharing, controls = app.window.sharing, app.window.sharing_controls
    app.qtbot.waitUntil(lambda: sharing.connected == 1, timeout=WAIT_MS)
    label = controls.label
    whole = connected_text(1)
    assert label.text() == whole and _shown_whole(label)  # longer than before, not cut to it
    for width in (1280, 1360, 1920):
        app.window.resize(width, 800)
        app.qtbot.waitUntil(lambda: label.text() == whole, timeout=WAIT_MS)
        assert _shown_whole(label), width
    font = label.font()  # large type, as a person may set: the sentence no longer fits
    font.setPointSizeF(font.pointSizeF() * 1.6)
    label.setFont(font)
    app.window.resize(app.window.minimumSizeHint().width(), 800)
    app.qtbot.waitUntil(lambda: label.text() == "Sharing · 1 tool", timeout=WAIT_MS)
    assert _shown_whole(label)
    tooltip = label.toolTip()
    assert tooltip.startswith(whole) and controls.full_text() == whole
    assert str(sharing.pointer_file) in tooltip  # where tools find the server (R80)
    assert "gemini-ide-server-" in tooltip
    app.window.resize(1280, 800)
    app.qtbot.waitUntil(lambda: label.text() == whole, timeout=WAIT_MS)
    assert _shown_whole(label)


def test_r80_the_status_after_starting_is_not_cut_to_the_starting_text(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The menu sized the status for "Starting to share…": the sentence after it showed cut."""
    monkeypatch.delitem(sys.modules, SDK_MODULE, raising=False)  # as in a window never shared
    app = make_app()
    sharing, controls = app.window.sharing, app.window.sharing_controls
    controls.action.trigger()  # Assistant ▸ Share the active note with other tools
    assert controls.label.text() == STARTING_TEXT and _shown_whole(controls.label)
    app.qtbot.waitUntil(lambda: sharing.is_on, timeout=WAIT_MS)
    assert controls.label.text() == connected_text(0) and _shown_whole(controls.label)
    sharing.turn_off()
    app.qtbot.waitUntil(lambda: sharing.stopped, timeout=WAIT_MS)
