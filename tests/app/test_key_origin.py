"""A saved API key belongs to its endpoint's origin (R61).

Two scripted OpenAI-compatible servers on loopback, on two ports (two origins), record
every header they receive. The key saved for the first never reaches the second: not
on Verify with the key field left empty, not on Save, not on the next turn; the
dialog says a key is needed there. A key for plain http to another machine, and an
address with credentials in it, are refused before anything is sent.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.assistant.settings import AssistantSettingsStore, SavedAssistant
from app.assistant.settings_dialog import KEY_OPTIONAL, AssistantSettingsDialog
from bridge.endpoints import CREDENTIALS_IN_URL
from tests.app.conftest import AppFactory, AppUnderTest
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model, text

WAIT_MS = 10_000
SECRET = "sk-origin-test-0123456789"


@pytest.fixture
def first() -> Iterator[ScriptedModel]:
    with scripted_model() as server:
        yield server


@pytest.fixture
def second() -> Iterator[ScriptedModel]:
    with scripted_model() as server:
        yield server


def _authorizations(server: ScriptedModel) -> list[str | None]:
    return [request.headers.get("authorization") for request in server.requests]


def _verify(app: AppUnderTest, dialog: AssistantSettingsDialog) -> bool:
    with app.qtbot.waitSignal(dialog.verified, timeout=WAIT_MS) as blocker:
        QTest.mouseClick(dialog.verify_button, Qt.MouseButton.LeftButton)
    return bool(blocker.args[0].ok)


def test_r61_the_saved_key_never_follows_a_changed_endpoint(
    make_app: AppFactory, first: ScriptedModel, second: ScriptedModel
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    store = AssistantSettingsStore(app.data_dir)
    store.save(SavedAssistant(True, first.url, MODEL_ID), SECRET)
    dialog = app.window.driver.open_assistant_settings()
    dialog.endpoint.setText(second.url)  # another port: another origin; key field left empty
    assert "belongs to" in dialog.status.text()
    assert dialog.api_key.placeholderText() == KEY_OPTIONAL
    dialog.model.setEditText(MODEL_ID)
    second.then(text("ready"))
    assert _verify(app, dialog)
    assert "belongs to" in dialog.status.text()  # the dialog says a key is needed there
    with app.qtbot.waitSignal(dialog.applied, timeout=WAIT_MS):
        QTest.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    second.then(text("From the second model."))
    record = app.send("hello")
    assert record.reply is not None and record.reply.reply == "From the second model."
    assert len(second.requests) >= 3  # models, Verify's probe, the turn
    assert _authorizations(second) == [None] * len(second.requests)
    assert first.requests == []
    assert store.key() is None  # saving for another origin forgot the old key


def test_r61_the_saved_key_still_goes_to_its_own_origin(
    make_app: AppFactory, first: ScriptedModel
) -> None:
    app = make_app()
    store = AssistantSettingsStore(app.data_dir)
    store.save(SavedAssistant(True, first.url, MODEL_ID), SECRET)
    dialog = app.window.driver.open_assistant_settings()
    dialog.endpoint.setText(first.url.replace("/v1", "/v1/"))  # the same origin, written apart
    assert "belongs to" not in dialog.status.text()
    dialog.model.setEditText("")  # Verify lists the models only: one request
    assert _verify(app, dialog)
    assert _authorizations(first) == [f"Bearer {SECRET}"]
    dialog.reject()


@pytest.mark.parametrize(
    ("endpoint", "said"),
    [
        ("http://models.example/v1", "never sent over plain http"),
        ("http://10.0.0.7:8080/v1", "never sent over plain http"),
        ("http://user:secret@127.0.0.1:9/v1", CREDENTIALS_IN_URL),
    ],
)
def test_r61_a_key_for_plain_http_elsewhere_or_credentials_in_the_url_are_refused(
    make_app: AppFactory, endpoint: str, said: str
) -> None:
    app = make_app()
    dialog = app.window.driver.open_assistant_settings()
    dialog.model_choice.setChecked(True)
    dialog.endpoint.setText(endpoint)
    dialog.model.setEditText(MODEL_ID)
    QTest.keyClicks(dialog.api_key, SECRET)
    with app.qtbot.assertNotEmitted(dialog.verified, wait=0):
        QTest.mouseClick(dialog.verify_button, Qt.MouseButton.LeftButton)
    assert said in dialog.status.text()
    assert not dialog.save_button.isEnabled()
    dialog.reject()
