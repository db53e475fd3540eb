"""The user's assistant settings (R37), kept in the app's data folder, and applying them.

``assistant.json`` holds the choice (offline or a model), the endpoint and the
model; the API key lives alone in ``assistant-key``, created with mode 0600 so no
other user can read it. The key is never logged, never shown back by the app and
never returned by any backend route. Both files are replaced atomically.

For the embedded backend these settings override ``--model-base-url``/``--model``
and ``AMBIENT_MODEL_*`` (contract 7): the app applies them through
``PUT /v1/assistant`` when it starts and whenever they are saved.

A saved key belongs to the origin (scheme, host, port) of the endpoint it was saved
with (R61): ``assistant.json`` records that origin as ``keyOrigin`` and
:meth:`AssistantSettingsStore.key_for` gives the key to that origin only. Both files
are read only when they are regular files of sane size and depth (R64); anything
else is set aside under another name and said so.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bridge.client import BackendClient
from bridge.endpoints import endpoint_origin
from bridge.errors import BackendError
from bridge.private_files import (
    OwnFileRefused,
    make_folders,
    parse_json,
    read_own_file,
    set_aside,
    write_atomically,
)
from bridge.wire import AssistantDescription

SETTINGS_FILE: Final = "assistant.json"
KEY_FILE: Final = "assistant-key"
NOT_APPLIED: Final = (
    "Your assistant settings could not be applied: {reason} "
    "The assistant chosen at start answers; open Assistant ▸ Settings… to fix them."
)
SET_ASIDE: Final = (
    "The saved assistant {what} could not be used: {why}. It was set aside as {name} in "
    "the app's data folder; open Assistant ▸ Settings… to choose again."
)
KEY_MAX_BYTES: Final = 16 * 1024


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
        self.set_aside_message: str | None = None
        """Set when a file was not usable and was moved away: what to tell the person."""

    def load(self) -> SavedAssistant | None:
        """The saved choice, or None when nothing (usable) was ever saved."""
        body = self._settings()
        base_url, model = body.get("baseUrl"), body.get("model")
        if not body:
            return None
        return SavedAssistant(
            use_model=body.get("kind") == "model",
            base_url=base_url if isinstance(base_url, str) and base_url else None,
            model=model if isinstance(model, str) and model else None,
        )

    def has_key(self) -> bool:
        return self.key_path.is_file() and not self.key_path.is_symlink()

    def key_origin(self) -> str | None:
        """The origin the saved key belongs to: the one recorded, else the saved endpoint's."""
        body = self._settings()
        origin = body.get("keyOrigin")
        if isinstance(origin, str) and origin:
            return origin
        base_url = body.get("baseUrl")
        return endpoint_origin(base_url) if isinstance(base_url, str) else None

    def key_for(self, base_url: str | None) -> str | None:
        """The saved key if it belongs to ``base_url``'s origin (R61), else None."""
        origin = endpoint_origin(base_url)
        if origin is None or origin != self.key_origin():
            return None
        return self.key()

    def key(self) -> str | None:
        try:
            data = read_own_file(self.key_path, KEY_MAX_BYTES)
        except FileNotFoundError:
            return None
        except OSError as error:
            self._set_aside(self.key_path, "key", _reason(error))
            return None
        key = data.decode("utf-8", errors="replace").strip()
        return key or None

    def save(self, saved: SavedAssistant, api_key: str | None) -> None:
        """Write the choice; ``api_key`` None removes a saved key."""
        body = {
            "kind": "model" if saved.use_model else "offline",
            "baseUrl": saved.base_url,
            "model": saved.model,
            "keyOrigin": endpoint_origin(saved.base_url) if api_key else None,
        }
        make_folders(self.folder)  # R77: every folder the app makes is 0700
        write_atomically(self.settings_path, json.dumps(body, indent=1) + "\n")
        if api_key:
            write_atomically(self.key_path, api_key + "\n")
        else:
            with contextlib.suppress(FileNotFoundError):
                self.key_path.unlink()

    def _settings(self) -> dict[str, object]:
        """``assistant.json`` as an object; empty when missing or set aside as unusable."""
        try:
            body = parse_json(read_own_file(self.settings_path).decode("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            self._set_aside(self.settings_path, "settings", _reason(error))
            return {}
        if not isinstance(body, dict):
            self._set_aside(self.settings_path, "settings", "it is not a JSON object")
            return {}
        return body

    def _set_aside(self, path: Path, what: str, why: str) -> None:
        target = set_aside(path)
        if target is None:
            return  # cannot be moved: it stays unused, and is read (and refused) again
        self.set_aside_message = SET_ASIDE.format(what=what, why=why, name=target.name)


def _reason(error: BaseException) -> str:
    if isinstance(error, OwnFileRefused):
        return error.reason
    if isinstance(error, UnicodeDecodeError):
        return "it is not UTF-8 text"
    if isinstance(error, json.JSONDecodeError):
        return f"it is not valid JSON (line {error.lineno})"
    if isinstance(error, ValueError):
        return str(error)
    return f"it could not be read ({error})"


def apply_assistant(
    client: BackendClient, saved: SavedAssistant, api_key: str | None
) -> AssistantDescription:
    """Switch the backend to ``saved`` without a restart (blocks: call off the GUI thread)."""
    if not saved.use_model:
        return client.set_assistant(None, None, None)
    return client.set_assistant(saved.base_url, saved.model, api_key)


def apply_saved_assistant(client: BackendClient, store: AssistantSettingsStore) -> str | None:
    """At start: apply what the user saved, if anything; a plain message when that failed."""
    saved = store.load()
    if saved is None:
        return store.set_aside_message
    try:
        apply_assistant(client, saved, store.key_for(saved.base_url))
    except BackendError as error:
        return NOT_APPLIED.format(reason=error.message)
    return store.set_aside_message
