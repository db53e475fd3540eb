"""The user's assistant settings on disk: endpoint, model and API key, in a file of mode 0600 (R37).

Qt-free, for the app's settings dialog: it loads the file at start, saves it after a
successful Verify, and hands the values to the backend (``PUT /v1/assistant``). The
file is written atomically and is readable by its owner only; the key is kept
nowhere else and never logged.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SETTINGS_FILE = "assistant.json"
FILE_MODE = 0o600


@dataclass(frozen=True)
class AssistantSettings:
    """Empty base URL and model: the offline assistant."""

    base_url: str = ""
    model: str = ""
    api_key: str = field(default="", repr=False)

    @property
    def uses_model(self) -> bool:
        return bool(self.base_url and self.model)


def load_settings(path: Path) -> AssistantSettings:
    """The saved settings; the offline defaults when the file is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return AssistantSettings()
    if not isinstance(data, dict):
        return AssistantSettings()
    values = [data.get(name) for name in ("baseUrl", "model", "apiKey")]
    base_url, model, api_key = (value if isinstance(value, str) else "" for value in values)
    return AssistantSettings(base_url, model, api_key)


def save_settings(path: Path, settings: AssistantSettings) -> None:
    """Write atomically; the file is 0600 from its creation, never briefly wider."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"baseUrl": settings.base_url, "model": settings.model, "apiKey": settings.api_key}
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".assistant-", suffix=".tmp")
    try:
        os.fchmod(descriptor, FILE_MODE)  # mkstemp makes 0600 already; said here on purpose
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(body, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
