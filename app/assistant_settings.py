"""The user's assistant settings (R37), kept in the app's data folder, and applying them.

``assistant.json`` holds the choice (offline or a model), the endpoint and the
model; the API key lives alone in ``assistant-key``, created with mode 0600 so no
other user can read it. The key is never logged, never shown back by the app and
never returned by any backend route. Both files are replaced atomically.

For the embedded backend these settings override ``--model-base-url``/``--model``
and ``AMBIENT_MODEL_*`` (contract 7): the app applies them through
``PUT /v1/assistant`` when it starts and whenever they are saved.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bridge.agent import AssistantInfo
from bridge.client import BackendClient
from bridge.errors import BackendError
from renderer.qt.files import write_atomically

SETTINGS_FILE: Final = "assistant.json"
KEY_FILE: Final = "assistant-key"
NOT_APPLIED: Final = (
    "Your assistant settings could not be applied: {reason} "
    "The assistant chosen at start answers; open Assistant ▸ Settings… to fix them."
)


@dataclass(frozen=True)
class SavedAssistant:
    """What the user chose: the model at an endpoint, or the offline assistant.

    ``base_url`` and ``model`` are remembered even when the offline assistant is chosen,
    so switching back needs no retyping.
    """

    use_model: bool
    base_url: str | None
    model: str | None


class AssistantSettingsStore:
    """Reads and writes the two files in one user's data folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.settings_path = folder / SETTINGS_FILE
        self.key_path = folder / KEY_FILE

    def load(self) -> SavedAssistant | None:
        """The saved choice, or None when nothing (readable) was ever saved."""
        try:
            body = json.loads(self.settings_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(body, dict):
            return None
        base_url, model = body.get("baseUrl"), body.get("model")
        return SavedAssistant(
            use_model=body.get("kind") == "model",
            base_url=base_url if isinstance(base_url, str) and base_url else None,
            model=model if isinstance(model, str) and model else None,
        )

    def has_key(self) -> bool:
        return self.key_path.is_file()

    def key(self) -> str | None:
        try:
            key = self.key_path.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        return key or None

    def save(self, saved: SavedAssistant, api_key: str | None) -> None:
        """Write the choice; ``api_key`` None removes a saved key."""
        body = {
            "kind": "model" if saved.use_model else "offline",
            "baseUrl": saved.base_url,
            "model": saved.model,
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomically(self.settings_path, json.dumps(body, indent=1) + "\n")
        if api_key:
            write_atomically(self.key_path, api_key + "\n")
        else:
            with contextlib.suppress(FileNotFoundError):
                self.key_path.unlink()


def apply_assistant(
    client: BackendClient, saved: SavedAssistant, api_key: str | None
) -> AssistantInfo:
    """Switch the backend to ``saved`` without a restart (blocks: call off the GUI thread)."""
    if not saved.use_model:
        return client.set_assistant(None, None, None)
    return client.set_assistant(saved.base_url, saved.model, api_key)


def apply_saved_assistant(client: BackendClient, store: AssistantSettingsStore) -> str | None:
    """At start: apply what the user saved, if anything; a plain message when that failed."""
    saved = store.load()
    if saved is None:
        return None
    try:
        apply_assistant(client, saved, store.key())
    except BackendError as error:
        return NOT_APPLIED.format(reason=error.message)
    return None
