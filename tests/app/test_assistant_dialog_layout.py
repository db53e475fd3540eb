"""The settings dialog holds a long Verify error without squeezing, and a Save that cannot
happen says why (R37)."""

from __future__ import annotations

import socket

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.assistant.settings_dialog import AssistantSettingsDialog
from tests.app.conftest import AppFactory, AppUnderTest

WAIT_MS = 10_000


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nobody listens there once the block ends


def _opened(app: AppUnderTest) -> AssistantSettingsDialog:
    dialog = app.window.driver.open_assistant_settings()
    dialog.show()
    app.qtbot.waitExposed(dialog)
    return dialog


def test_a_two_line_verify_error_grows_the_dialog_and_the_fields_keep_their_size_R37(
    make_app: AppFactory,
) -> None:
    app = make_app()
    dialog = _opened(app)
    dialog.model_choice.setChecked(True)
    fields = (dialog.endpoint, dialog.model, dialog.api_key, dialog.verify_button)
    dialog.endpoint.setText(f"http://127.0.0.1:{_closed_port()}/v1")
    with app.qtbot.waitSignal(dialog.verified, timeout=WAIT_MS) as blocker:
        QTest.mouseClick(dialog.verify_button, Qt.MouseButton.LeftButton)
    assert not blocker.args[0].ok
    status = dialog.status
    lines = status.heightForWidth(status.width()) // status.fontMetrics().lineSpacing()
    assert lines >= 2, status.text()  # the message wraps
    app.qtbot.waitUntil(lambda: status.height() >= status.heightForWidth(status.width()))
    for field in fields:  # nothing is squeezed below the height it asks for ("Verifv")
        assert field.height() >= field.sizeHint().height(), field.accessibleName()
    dialog.reject()


def test_save_without_a_model_says_why_it_cannot_R37(make_app: AppFactory) -> None:
    app = make_app()
    dialog = _opened(app)
    assert dialog.save_button.isEnabled() and dialog.save_hint.isHidden()  # offline: ready
    dialog.model_choice.setChecked(True)
    assert not dialog.save_button.isEnabled()
    assert "endpoint URL" in dialog.save_hint.text() and dialog.save_hint.isVisible()
    dialog.endpoint.setText(f"http://127.0.0.1:{_closed_port()}/v1")
    assert "Save needs a model" in dialog.save_hint.text()
    assert dialog.save_button.toolTip() == dialog.save_hint.text()
    with app.qtbot.waitSignal(dialog.verified, timeout=WAIT_MS):
        QTest.mouseClick(dialog.verify_button, Qt.MouseButton.LeftButton)
    # The Verify error replaced the status line; the reason Save is off is still said.
    assert "can't be reached" in dialog.status.text()
    assert "Save needs a model" in dialog.save_hint.text() and dialog.save_hint.isVisible()
    dialog.model.setEditText("some-model")
    assert "press Verify" in dialog.save_hint.text()
    dialog.offline_choice.setChecked(True)
    assert dialog.save_hint.isHidden() and dialog.save_button.isEnabled()
    dialog.reject()
