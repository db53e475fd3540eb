"""Assistant settings: Verify, then Save applies at once and persists, the key kept 0600 (R37).

The endpoint is a scripted loopback OpenAI-compatible server; the backend is the
app's embedded one. The key is checked to reach the model and nowhere else: not
in the settings file, not in any route's answer, not in the logs.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import stat
from collections.abc import Iterator

import pytest
import requests
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QWidget

from app.assistant.settings import AssistantSettingsStore, SavedAssistant
from app.assistant.settings_dialog import KEY_SAVED, AssistantSettingsDialog
from app.session import AppSession, SessionOptions
from tests.app.conftest import AppFactory, AppUnderTest
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model, text

WAIT_MS = 10_000
SECRET = "sk-test-0123456789-secret"


@pytest.fixture
def scripted() -> Iterator[ScriptedModel]:
    with scripted_model() as server:
        server.models = ["other-model", MODEL_ID]
        yield server


def _verify(app: AppUnderTest, dialog: AssistantSettingsDialog) -> bool:
    with app.qtbot.waitSignal(dialog.verified, timeout=WAIT_MS) as blocker:
        QTest.mouseClick(dialog.verify_button, Qt.MouseButton.LeftButton)
    return bool(blocker.args[0].ok)


def _backend_get(app: AppUnderTest, path: str) -> requests.Response:
    server = app.session.server
    assert server is not None
    return requests.get(
        server.url + path,
        headers={"Authorization": f"Bearer {server.device_token}"},
        timeout=10,
    )


def _authorization(headers: dict[str, str]) -> str | None:
    return {name.lower(): value for name, value in headers.items()}.get("authorization")


def _mode(path: object) -> int:
    return stat.S_IMODE(path.stat().st_mode)  # type: ignore[attr-defined]


def test_verify_then_save_applies_at_once_persists_and_keeps_the_key_private_R37(
    make_app: AppFactory, scripted: ScriptedModel, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    assistant = app.window.assistant
    app.qtbot.waitUntil(lambda: assistant.assistant_label.text() == "Offline assistant")
    dialog = app.window.driver.open_assistant_settings()
    assert dialog.offline_choice.isChecked() and dialog.save_button.isEnabled()
    dialog.model_choice.setChecked(True)
    dialog.endpoint.setText(scripted.url)
    QTest.keyClicks(dialog.api_key, SECRET)
    assert not dialog.save_button.isEnabled()  # a model setting is saved only once verified
    # Verify without a model lists the endpoint's models in the model box.
    assert _verify(app, dialog)
    offered = [dialog.model.itemText(i) for i in range(dialog.model.count())]
    assert offered == ["other-model", MODEL_ID]
    dialog.model.setCurrentText(MODEL_ID)
    assert not dialog.save_button.isEnabled()
    scripted.then(text("ready"))  # the model's answer to Verify's request with the tools
    assert _verify(app, dialog)
    assert "ready" in dialog.status.text() and dialog.save_button.isEnabled()
    verifying = scripted.chat_requests[-1]
    assert _authorization(verifying.headers) == f"Bearer {SECRET}"
    assert verifying.body["model"] == MODEL_ID
    assert len(verifying.body["tools"]) == 5  # R54, R56: the fourth and fifth tools

    with app.qtbot.waitSignal(dialog.applied, timeout=WAIT_MS):
        QTest.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert assistant.assistant_label.text() == MODEL_ID  # no restart
    assert not dialog.isVisible()
    # Applied to the embedded backend: the next turn asks the model, with the key.
    scripted.then(text("From the model."))
    record = app.send("hello")
    assert record.reply is not None and record.reply.reply == "From the model."
    assert _authorization(scripted.chat_requests[-1].headers) == f"Bearer {SECRET}"

    # Persisted per user: the key alone in a 0600 file, never in the settings file.
    store = AssistantSettingsStore(app.data_dir)
    assert store.load() == SavedAssistant(True, scripted.url, MODEL_ID)
    assert SECRET not in store.settings_path.read_text(encoding="utf-8")
    assert store.key_path.read_text(encoding="utf-8").strip() == SECRET
    assert _mode(store.key_path) == 0o600 and _mode(store.settings_path) == 0o600
    # Never returned by a route, never logged, never shown back in the dialog.
    answer = _backend_get(app, "/v1/assistant")
    assert answer.json() == {"kind": "model", "model": MODEL_ID, "baseUrl": scripted.url}
    assert SECRET not in answer.text
    assert SECRET not in _backend_get(app, "/openapi.json").text
    assert SECRET not in caplog.text
    again = app.window.driver.open_assistant_settings()
    assert again.api_key.text() == "" and again.api_key.placeholderText() == KEY_SAVED
    assert again.model_choice.isChecked() and again.endpoint.text() == scripted.url
    again.reject()


def test_saved_settings_apply_at_start_over_the_environment_R37(
    make_app: AppFactory, scripted: ScriptedModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    AssistantSettingsStore(app.data_dir).save(SavedAssistant(True, scripted.url, MODEL_ID), SECRET)
    app.quit()
    # Contract 7: the app's settings override the command line / environment.
    monkeypatch.setenv("AMBIENT_MODEL_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("AMBIENT_MODEL", "from-the-environment")
    again = make_app(restart=app, demo_layout=False)
    window = again.window
    assert again.session.assistant_problem is None
    label = window.assistant.assistant_label
    app.qtbot.waitUntil(lambda: label.text() == MODEL_ID, timeout=WAIT_MS)
    # "Offline assistant" takes the app back, without a restart and on the next start.
    dialog = window.driver.open_assistant_settings()
    dialog.offline_choice.setChecked(True)
    assert dialog.save_button.isEnabled()
    with app.qtbot.waitSignal(dialog.applied, timeout=WAIT_MS):
        QTest.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert label.text() == "Offline assistant"
    saved = AssistantSettingsStore(app.data_dir).load()
    assert saved is not None and not saved.use_model
    assert saved.base_url == scripted.url  # remembered for switching back


def test_verify_of_an_unreachable_endpoint_says_so_and_nothing_is_saved_R37(
    make_app: AppFactory,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nobody listens there
    app = make_app()
    action = next(a for a in app.window.findChildren(QAction) if "settings" in a.text())
    action.trigger()
    dialog = app.window.findChildren(AssistantSettingsDialog)[-1]
    dialog.model_choice.setChecked(True)
    dialog.endpoint.setText(f"http://127.0.0.1:{port}/v1")
    dialog.model.setEditText("any-model")
    assert not _verify(app, dialog)
    assert f"127.0.0.1:{port}" in dialog.status.text()
    assert not dialog.save_button.isEnabled()
    dialog.reject()
    assert not AssistantSettingsStore(app.data_dir).settings_path.exists()


def test_settings_that_cannot_be_applied_at_start_are_reported_plainly_R37(
    make_app: AppFactory,
) -> None:
    app = make_app()
    store = AssistantSettingsStore(app.data_dir)
    store.save(SavedAssistant(True, "ftp://example.invalid/v1", "m"), None)
    app.quit()
    session = AppSession.start(
        SessionOptions(
            backend_url=None, workspace_dir=app.workspace_dir, data_dir=app.data_dir, demo=False
        )
    )
    try:
        assert session.assistant_problem is not None
        assert "could not be applied" in session.assistant_problem
        assert "Traceback" not in session.assistant_problem
        assert json.loads(store.settings_path.read_text(encoding="utf-8"))["kind"] == "model"
    finally:
        session.close()


def test_the_command_line_model_reaches_the_embedded_backend_not_the_environment_R37(
    make_app: AppFactory, scripted: ScriptedModel
) -> None:
    """``python -m app --model-base-url URL --model NAME``: the backend answers with it, and
    nothing is left in the environment for child processes (pop-outs) to inherit."""
    app = make_app()
    app.quit()
    session = AppSession.start(
        SessionOptions(
            backend_url=None,
            workspace_dir=app.workspace_dir,
            data_dir=app.data_dir,
            demo=False,
            model_base_url=scripted.url,
            model=MODEL_ID,
        )
    )
    try:
        assert session.assistant_problem is None
        assert session.backend.client().assistant().model == MODEL_ID
        assert "AMBIENT_MODEL" not in os.environ and "AMBIENT_MODEL_BASE_URL" not in os.environ
    finally:
        session.close()


def test_r80_a_save_that_cannot_save_looks_disabled(make_app: AppFactory) -> None:
    app = make_app()
    dialog = app.window.driver.open_assistant_settings()
    dialog.model_choice.setChecked(True)  # no endpoint yet: Save cannot save
    dialog.show()
    assert not dialog.save_button.isEnabled()
    cancel = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
    assert cancel.isEnabled()

    def darkest(button: QWidget) -> int:
        image = button.grab().toImage()
        return min(
            image.pixelColor(x, y).lightness()
            for x in range(image.width())
            for y in range(image.height())
        )

    assert darkest(dialog.save_button) > darkest(cancel) + 60  # its label is greyed
    dialog.reject()
