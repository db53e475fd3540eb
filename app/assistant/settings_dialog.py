"""Assistant ▸ Settings…: endpoint, model, API key, Verify, then Save without a restart (R37).

Verify asks the backend (``POST /v1/assistant/verify``) to list the endpoint's
models, which fill the model box, and, with a model chosen, to send it one small
request offering the tools. A model setting can be saved once exactly those
values verified. Save switches the backend (``PUT /v1/assistant``) and then
keeps the settings in the data folder, the key in its own 0600 file. Every
backend call runs on a worker; the dialog never waits on the network.

The key field never shows a saved key: it stays empty, and empty means "keep
the saved key" unless "Forget the saved key" is ticked. A saved key belongs to the
origin of the endpoint it was saved with (R61): with another origin typed, an empty
field sends no key at all and the dialog says a key is needed there. A key is never
sent over plain http to another machine, and an address with a user name or
password in it is refused, before anything is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.assistant.settings import AssistantSettingsStore, SavedAssistant, apply_assistant
from bridge.endpoints import endpoint_origin, key_refusal
from bridge.errors import BackendError
from bridge.wire import AssistantDescription, Verification
from renderer.ambient.backend import BackendLink
from renderer.qt.tasks import TaskRunner

ENDPOINT_EXAMPLE = "http://127.0.0.1:8080/v1"
NEEDS_VERIFY = "Verify the endpoint and the model to save them."
NEEDS_MODEL = "Choose a model (Verify lists those the endpoint offers)."
SAVE_NEEDS = "Save needs"
VERIFYING = "Verifying…"
SAVING = "Saving…"
KEY_SAVED = "A key is saved (not shown). Type a new one to replace it."
KEY_OPTIONAL = "Optional: sent as Authorization: Bearer"
KEY_NEEDED = (
    "The saved key belongs to {origin} only, so none is sent to this endpoint: "
    "type its key if it needs one. Saving forgets the old key."
)
UNEXPECTED = "The settings could not be applied because of an unexpected problem."

_Values = tuple[bool, str, str, str, bool]
"""What a verification was for: model chosen, endpoint, model, typed key, forget key."""


class AssistantSettingsDialog(QDialog):
    """The settings dialog; ``applied`` carries the backend's answer after a save."""

    applied = Signal(object)
    """The :class:`bridge.agent.AssistantDescription` of the assistant that now answers."""
    verified = Signal(object)
    """The :class:`bridge.agent.Verification` of the latest Verify."""
    failed = Signal(str)

    def __init__(
        self,
        *,
        backend: BackendLink,
        runner: TaskRunner,
        store: AssistantSettingsStore,
        current: AssistantDescription | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Assistant settings")
        self.setMinimumWidth(520)
        self._backend = backend
        self._runner = runner
        self._store = store
        self._verified: _Values | None = None
        self._working = False
        saved = store.load()
        self._build_fields(has_key=store.has_key())
        self._lay_out()

        use_model, base_url, model = _initial(saved, current)
        self.endpoint.setText(base_url or "")
        self.model.setEditText(model or "")
        (self.model_choice if use_model else self.offline_choice).setChecked(True)
        for changed in (
            self.offline_choice.toggled,
            self.endpoint.textChanged,
            self.model.currentTextChanged,
            self.api_key.textChanged,
            self.forget_key.toggled,
        ):
            changed.connect(self._on_edited)
        self._on_edited()

    def _build_fields(self, *, has_key: bool) -> None:
        """The choice, the model's fields, the status line and Save / Cancel."""
        self.offline_choice = QRadioButton("Offline assistant (built in: no network, no model)")
        self.model_choice = QRadioButton("A model at an OpenAI-compatible endpoint")
        self.endpoint = QLineEdit()
        self.endpoint.setPlaceholderText(ENDPOINT_EXAMPLE)
        self.endpoint.setAccessibleName("Endpoint URL")
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.setAccessibleName("Model")
        self.model.lineEdit().setPlaceholderText("model id, e.g. llama3.1")  # type: ignore[union-attr]
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(KEY_SAVED if has_key else KEY_OPTIONAL)
        self.api_key.setAccessibleName("API key")
        self.forget_key = QCheckBox("Forget the saved key")
        self.forget_key.setVisible(has_key)
        self.verify_button = QPushButton("Verify")
        self.verify_button.setObjectName("verifyButton")
        self.verify_button.clicked.connect(self.verify)
        self.status = QLabel("")
        self.status.setObjectName("settingsStatus")
        self.status.setWordWrap(True)
        self.save_hint = QLabel("")
        self.save_hint.setObjectName("saveHint")
        self.save_hint.setWordWrap(True)
        self.save_hint.setVisible(False)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)

    def _lay_out(self) -> None:
        form = QFormLayout()
        form.addRow("Endpoint URL", self.endpoint)
        form.addRow("Model", self.model)
        form.addRow("API key", self.api_key)
        form.addRow("", self.forget_key)
        form.addRow("", self.verify_button)
        self.model_fields = QWidget()
        self.model_fields.setLayout(form)
        layout = QVBoxLayout(self)
        layout.addWidget(self.offline_choice)
        layout.addWidget(self.model_choice)
        layout.addWidget(self.model_fields)
        layout.addWidget(self.status)
        layout.addWidget(self.save_hint)
        layout.addWidget(self.buttons)

    # -- actions --------------------------------------------------------------------

    def verify(self) -> None:
        """Ask the backend to check the endpoint (and the model, when one is entered)."""
        values = self._values()
        _, base_url, model, typed_key, forget = values
        if not base_url:
            self._say(f"Enter the endpoint URL, e.g. {ENDPOINT_EXAMPLE}.")
            return
        key = self._key_to_send(base_url, typed_key, forget)
        refusal = key_refusal(base_url, key)
        if refusal is not None:
            self._say(refusal)
            return
        backend = self._backend
        notice = self._key_notice(base_url, typed_key, forget)

        def work() -> Verification:
            return backend.client().verify_assistant(base_url, model or None, key)

        def done(result: Verification) -> None:
            self._set_working(False)
            self._fill_models(result.models)
            self._verified = values if result.ok and model else None
            listed_only = result.ok and not model
            message = f"{result.message} {NEEDS_MODEL}" if listed_only else result.message
            self._say(f"{message} {notice}".strip())
            self._update()
            self.verified.emit(result)

        self._run(work, done, VERIFYING)

    def save(self) -> None:
        """Apply to the backend now, then keep the settings (the key in its 0600 file)."""
        if not self.save_button.isEnabled():
            return
        use_model, base_url, model, typed_key, forget = self._values()
        store, backend = self._store, self._backend
        saved = SavedAssistant(use_model, base_url or None, model or None)
        key = self._key_to_send(base_url, typed_key, forget)
        refusal = key_refusal(base_url, key) if use_model else None
        if refusal is not None:
            self._say(refusal)
            return

        def work() -> AssistantDescription:
            info = apply_assistant(backend.client(), saved, key)
            store.save(saved, key)
            return info

        def done(info: AssistantDescription) -> None:
            self._set_working(False)
            self.applied.emit(info)
            self.accept()

        self._run(work, done, SAVING)

    # -- internals ------------------------------------------------------------------

    def _key_to_send(self, base_url: str, typed_key: str, forget: bool) -> str | None:
        """The typed key, else the saved one when it belongs to this endpoint's origin (R61)."""
        if typed_key:
            return typed_key
        return None if forget else self._store.key_for(base_url)

    def _key_notice(self, base_url: str, typed_key: str, forget: bool) -> str:
        """What to say when a saved key exists but belongs to another origin."""
        if typed_key or forget or not self._store.has_key():
            return ""
        origin = self._store.key_origin()
        if origin is None or origin == endpoint_origin(base_url):
            return ""
        return KEY_NEEDED.format(origin=origin)

    def _values(self) -> _Values:
        return (
            self.model_choice.isChecked(),
            self.endpoint.text().strip(),
            self.model.currentText().strip(),
            self.api_key.text().strip(),
            self.forget_key.isChecked(),
        )

    def _run(self, work: Callable[[], object], done: Callable[[Any], None], saying: str) -> None:
        self._set_working(True)
        self._say(saying)

        def failed(error: BaseException) -> None:
            self._set_working(False)
            message = error.message if isinstance(error, BackendError) else UNEXPECTED
            self._say(message)
            self.failed.emit(message)

        submitted = self._runner.submit(work, on_done=done, on_error=failed)
        if submitted is None:
            self._set_working(False)

    def _set_working(self, working: bool) -> None:
        self._working = working
        self._update()

    def _fill_models(self, models: list[str]) -> None:
        if not models:
            return
        typed = self.model.currentText()
        self.model.blockSignals(True)
        self.model.clear()
        self.model.addItems(models)
        self.model.setEditText(typed or models[0])
        self.model.blockSignals(False)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self._fit_height()

    def _fit_height(self) -> None:
        """Grow to hold a message that wraps onto more lines: the fields keep their size."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        needed = (
            layout.totalHeightForWidth(self.width())
            if layout.hasHeightForWidth()
            else layout.totalSizeHint().height()
        )
        if needed > self.height():
            self.resize(self.width(), needed)

    def _ready(self) -> bool:
        values = self._values()
        return not values[0] or values == self._verified

    def _on_edited(self) -> None:
        _, base_url, _, typed_key, forget = self._values()
        notice = self._key_notice(base_url, typed_key, forget) if base_url else ""
        saved_here = self._store.has_key() and not notice
        self.api_key.setPlaceholderText(KEY_SAVED if saved_here else KEY_OPTIONAL)
        self._say(f"{'' if self._ready() else NEEDS_VERIFY} {notice}".strip())
        self._update()

    def _update(self) -> None:
        use_model = self.model_choice.isChecked()
        self.model_fields.setEnabled(use_model and not self._working)
        self.save_button.setEnabled(self._ready() and not self._working)
        self.verify_button.setEnabled(use_model and not self._working)
        self._show_save_hint()

    def _show_save_hint(self) -> None:
        """Why Save cannot be pressed now, beside it and as its tooltip (never silence)."""
        reason = "" if self._ready() or self._working else self._why_not_saved()
        self.save_button.setToolTip(reason)
        if reason != self.save_hint.text() or self.save_hint.isHidden() == bool(reason):
            self.save_hint.setText(reason)
            self.save_hint.setVisible(bool(reason))
            self._fit_height()

    def _why_not_saved(self) -> str:
        _, base_url, model, _, _ = self._values()
        if not base_url:
            return f"{SAVE_NEEDS} the endpoint URL, e.g. {ENDPOINT_EXAMPLE}, and a model."
        if not model:
            return f"{SAVE_NEEDS} a model: type its id, or press Verify to list those offered."
        return f"{SAVE_NEEDS} this endpoint and model verified: press Verify."


def _initial(
    saved: SavedAssistant | None, current: AssistantDescription | None
) -> tuple[bool, str | None, str | None]:
    """What the dialog opens with: the saved settings, else the assistant answering now."""
    if saved is not None:
        return saved.use_model, saved.base_url, saved.model
    if current is not None and current.kind == "model":
        return True, current.base_url, current.model
    return False, None, None
