"""What a person set up, per workspace, kept across switches and restarts (R45).

Each workspace remembers its Inbox frames (id, path, view, in column order), its
provider frames, the active frame and the order the frames were last used in
(R81: after a restart "this note" falls back as it would have), its conversation
id and the window's size, place and maximised state (R80). The whole state is
one small JSON file in the app's data folder, written atomically. A file that
cannot be read is set aside under another name (never deleted: it may be the
only copy of a layout someone wants back) and the app starts with its default
layout and a plain message. It is read only when it is a regular file of at most
1 MiB nested at most 32 levels deep (R64): a FIFO, a device or a link in its place
is set aside the same way, never a hang or a crash.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.paths import WorkspacePathError, check_workspace_path, is_workspace_id
from bridge.private_files import (
    OwnFileRefused,
    parse_json,
    read_own_file,
    set_aside,
    write_atomically,
)
from bridge.views import DEFAULT_VIEW, View, is_view

LAYOUT_FILE = "layout.json"
MAX_WINDOW_PLACE = 1024
"""Characters of a saved window place: Qt's saved geometry takes about 90."""
MAX_RECENT = 256
"""Frame ids kept in a layout's most-recently-used order; older ones are dropped."""
_VERSION = 1


@dataclass(frozen=True)
class NoteFrameSpec:
    """One Inbox frame: which note, in which view, under which id."""

    frame_id: str
    path: str
    view: View = DEFAULT_VIEW


@dataclass(frozen=True)
class ProviderFrameSpec:
    frame_id: str
    provider: str


@dataclass
class WorkspaceLayout:
    """One workspace's frames, the active one and its conversation."""

    notes: list[NoteFrameSpec] = field(default_factory=list)
    providers: list[ProviderFrameSpec] = field(default_factory=list)
    active: str | None = None
    conversation: str | None = None
    window: str | None = None
    """The window's size, place and maximised state as Qt saves them, in base64 (R80)."""
    recent: list[str] = field(default_factory=list)
    """The frames in the order they were last used, least recent first (R81)."""


@dataclass
class SavedState:
    """The last workspace open and every workspace's layout."""

    workspace: str | None = None
    layouts: dict[str, WorkspaceLayout] = field(default_factory=dict)


class LayoutFileError(ValueError):
    """The state file is not what this app writes."""


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LayoutFileError(f"{what} is not a text")
    return value


def _list(raw: dict[str, Any], key: str) -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise LayoutFileError(f"the {key} entry is not a list")
    return value


def _layout_from_json(raw: object) -> WorkspaceLayout:
    if not isinstance(raw, dict):
        raise LayoutFileError("a workspace layout is not an object")
    notes: list[NoteFrameSpec] = []
    for item in _list(raw, "notes"):
        if not isinstance(item, dict):
            raise LayoutFileError("a note frame is not an object")
        path = _text(item.get("path"), "a note path")
        try:
            check_workspace_path(path)
        except WorkspacePathError as error:
            raise LayoutFileError(f"the note path {path!r} is not allowed: {error}") from error
        view = item.get("view", DEFAULT_VIEW)
        if not is_view(view):
            raise LayoutFileError(f"unknown view {view!r}")
        notes.append(NoteFrameSpec(_text(item.get("id"), "a frame id"), path, view))
    providers = [
        ProviderFrameSpec(
            _text(item.get("id"), "a frame id"), _text(item.get("provider"), "a provider")
        )
        for item in _list(raw, "providers")
        if isinstance(item, dict)
    ]
    active = raw.get("active")
    conversation = raw.get("conversation")
    if active is not None and not isinstance(active, str):
        raise LayoutFileError("the active frame is not a text")
    if conversation is not None and (
        not isinstance(conversation, str) or not 1 <= len(conversation) <= 128
    ):
        raise LayoutFileError("the conversation id is not 1-128 characters")
    return WorkspaceLayout(
        notes,
        providers,
        active,
        conversation,
        _window_place(raw.get("window")),
        _recent(raw.get("recent")),
    )


def _recent(value: object) -> list[str]:
    """The saved most-recently-used order; an order that is not a list of ids is forgotten.

    Like the window place, a broken order is no reason to set the frames aside with it:
    "this note" then falls back to the layout's active frame.
    """
    if not isinstance(value, list):
        return []
    ids = [item for item in value[-MAX_RECENT:] if isinstance(item, str) and item.strip()]
    return list(dict.fromkeys(ids))


def _window_place(value: object) -> str | None:
    """The saved window place, or None when it is not one: the window then opens as new.

    A place that cannot be used is no reason to set the frames aside with it.
    """
    if not isinstance(value, str) or len(value) > MAX_WINDOW_PLACE:
        return None
    try:
        base64.b64decode(value, validate=True)
    except ValueError:
        return None
    return value


def state_from_json(data: object) -> SavedState:
    """Validate the file's JSON; anything unexpected raises :class:`LayoutFileError`."""
    if not isinstance(data, dict) or data.get("version") != _VERSION:
        raise LayoutFileError("not a layout file of this app's version")
    workspace = data.get("workspace")
    if workspace is not None and not (isinstance(workspace, str) and is_workspace_id(workspace)):
        raise LayoutFileError("the last workspace is not a workspace name")
    layouts_raw = data.get("workspaces", {})
    if not isinstance(layouts_raw, dict):
        raise LayoutFileError("the workspaces entry is not an object")
    layouts = {}
    for name, raw in layouts_raw.items():
        if not is_workspace_id(name):
            raise LayoutFileError(f"{name!r} is not a workspace name")
        layouts[name] = _layout_from_json(raw)
    return SavedState(workspace, layouts)


def state_to_json(state: SavedState) -> dict[str, Any]:
    return {
        "version": _VERSION,
        "workspace": state.workspace,
        "workspaces": {
            name: {
                "notes": [
                    {"id": note.frame_id, "path": note.path, "view": note.view}
                    for note in layout.notes
                ],
                "providers": [
                    {"id": provider.frame_id, "provider": provider.provider}
                    for provider in layout.providers
                ],
                "active": layout.active,
                "recent": layout.recent[-MAX_RECENT:],
                "conversation": layout.conversation,
                **({"window": layout.window} if layout.window else {}),
            }
            for name, layout in sorted(state.layouts.items())
        },
    }


class LayoutStore:
    """Reads and writes the state file in ``data_dir``."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LAYOUT_FILE
        self.set_aside_message: str | None = None
        """Set by :meth:`load` when a broken file was moved away: what to tell the person."""

    def load(self) -> SavedState:
        """The saved state; an empty one when there is none or it was broken (set aside)."""
        try:
            text = read_own_file(self.path).decode("utf-8")
        except FileNotFoundError:
            return SavedState()
        except OwnFileRefused as error:
            return self._set_aside(error.reason)
        except (OSError, UnicodeDecodeError) as error:
            return self._set_aside(f"it could not be read ({error})")
        try:
            return state_from_json(parse_json(text))
        except json.JSONDecodeError as error:
            return self._set_aside(f"it is not valid JSON (line {error.lineno})")
        except ValueError as error:  # LayoutFileError, or nested too deeply (R64)
            return self._set_aside(str(error))

    def last_workspace(self) -> str | None:
        """The workspace open when the app last quit; None when unknown. Changes nothing:
        a broken file is set aside (and said so) by the window's :meth:`load`."""
        try:
            return state_from_json(parse_json(read_own_file(self.path).decode("utf-8"))).workspace
        except (OSError, UnicodeDecodeError, ValueError):
            return None

    def save(self, state: SavedState) -> None:
        """Write atomically: a crash leaves the old file or the new one."""
        write_atomically(self.path, json.dumps(state_to_json(state), indent=1, ensure_ascii=False))

    def _set_aside(self, why: str) -> SavedState:
        target = set_aside(self.path)
        if target is not None:
            where = f"It was set aside as {target.name} in the app's data folder"
        else:
            where = "It could not be moved aside and will be replaced"
        self.set_aside_message = (
            f"The saved window layout could not be used: {why}. {where}; "
            "the app started with its default layout."
        )
        return SavedState()
