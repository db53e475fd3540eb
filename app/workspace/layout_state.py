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

Each frame is checked before it is opened (R92): a note's path by the workspace
path rules, its view, its id, a provider's name, and how many frames a workspace
holds (:data:`MAX_NOTE_FRAMES`, :data:`MAX_PROVIDER_FRAMES`). A frame that fails
is dropped and the frames past a cap are left out: the window opens what it can
keep, and the file as it was is set aside with a banner saying what was left out.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

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
MAX_NOTE_FRAMES = 32
"""Note frames one workspace's layout opens (R92). The notes column stacks every frame
in one window: 32 leave each about 60 pixels of a 2160-pixel-high screen, a title bar
and a line or two, so a layout past that is not one a person arranged to read. Each
frame also costs a read and, in Preview, a drawing at start: 2,000 froze the window."""
MAX_PROVIDER_FRAMES = 16
"""Provider frames one workspace's layout opens (R92): the providers column is narrower
and holds fewer; 5,000 of them froze the window at every start."""
MAX_WORKSPACE_LAYOUTS = 64
"""Workspaces whose layouts one file keeps (R92): each is checked frame by frame before
the window opens, and 64 of them (3,072 frames at most) take some 0.1 s to check."""
MAX_FRAME_ID_CHARS = 64
"""A frame id the app gives out is ``inbox-N`` or a provider's name: short words."""
MAX_PROVIDER_CHARS = 64
_SHOWN_CHARS = 60
"""Characters of a dropped value a banner quotes: a planted 2,000,000-character path
must never reach a label whole."""
_VERSION = 1
_Spec = TypeVar("_Spec", "NoteFrameSpec", "ProviderFrameSpec")


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


def _text(value: object, what: str, max_chars: int | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LayoutFileError(f"{what} is not a text")
    if max_chars is not None and len(value) > max_chars:
        raise LayoutFileError(f"{what} is longer than {max_chars} characters")
    return value


def _shown(value: str) -> str:
    """``value`` quoted for a banner, cut short when long."""
    if len(value) <= _SHOWN_CHARS:
        return repr(value)
    return f"{value[:_SHOWN_CHARS]!r}… ({len(value):,} characters)"


def _list(raw: dict[str, Any], key: str) -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise LayoutFileError(f"the {key} entry is not a list")
    return value


def _note_frame(item: object) -> NoteFrameSpec:
    if not isinstance(item, dict):
        raise LayoutFileError("a note frame is not an object")
    frame_id = _text(item.get("id"), "a frame id", MAX_FRAME_ID_CHARS)
    path = _text(item.get("path"), "a note path")
    try:
        check_workspace_path(path)
    except WorkspacePathError as error:
        raise LayoutFileError(f"the note path {_shown(path)} is not allowed: {error}") from error
    view = item.get("view", DEFAULT_VIEW)
    if not is_view(view):
        raise LayoutFileError(f"unknown view {_shown(str(view))}")
    return NoteFrameSpec(frame_id, path, view)


def _provider_frame(item: object) -> ProviderFrameSpec:
    if not isinstance(item, dict):
        raise LayoutFileError("a provider frame is not an object")
    return ProviderFrameSpec(
        _text(item.get("id"), "a frame id", MAX_FRAME_ID_CHARS),
        _text(item.get("provider"), "a provider", MAX_PROVIDER_CHARS),
    )


def _frames(
    items: list[Any], read: Callable[[object], _Spec], cap: int, what: str, left_out: list[str]
) -> list[_Spec]:
    """The first ``cap`` frames that pass ``read``; what was dropped is added to ``left_out``.

    Only the first ``cap`` items are looked at: past it, each is left out unread.
    """
    kept: list[_Spec] = []
    for item in items[:cap]:
        try:
            kept.append(read(item))
        except LayoutFileError as error:
            left_out.append(str(error))
    if len(items) > cap:
        left_out.append(f"{len(items):,} {what} frames, more than the {cap} a window opens")
    return kept


def _layout_from_json(raw: object, left_out: list[str]) -> WorkspaceLayout:
    if not isinstance(raw, dict):
        raise LayoutFileError("a workspace layout is not an object")
    notes = _frames(_list(raw, "notes"), _note_frame, MAX_NOTE_FRAMES, "note", left_out)
    providers = _frames(
        _list(raw, "providers"), _provider_frame, MAX_PROVIDER_FRAMES, "provider", left_out
    )
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


def state_from_json(data: object, left_out: list[str] | None = None) -> SavedState:
    """Validate the file's JSON; anything unexpected raises :class:`LayoutFileError`.

    A frame that cannot be opened, or one past a cap, is left out of the state and
    said in ``left_out`` (when given); the rest of the layout is kept.
    """
    dropped = [] if left_out is None else left_out
    workspace = _last_workspace(data)
    layouts_raw = data.get("workspaces", {}) if isinstance(data, dict) else None
    if not isinstance(layouts_raw, dict):
        raise LayoutFileError("the workspaces entry is not an object")
    # The last workspace's layout first: it is the one the window opens now.
    names = sorted(layouts_raw, key=lambda name: name != workspace)
    layouts = {}
    for name in names[:MAX_WORKSPACE_LAYOUTS]:
        if not is_workspace_id(name):
            raise LayoutFileError(f"{_shown(name)} is not a workspace name")
        layouts[name] = _layout_from_json(layouts_raw[name], dropped)
    if len(names) > MAX_WORKSPACE_LAYOUTS:
        dropped.append(
            f"the layouts of {len(names):,} workspaces, more than the {MAX_WORKSPACE_LAYOUTS} kept"
        )
    return SavedState(workspace, layouts)


def _last_workspace(data: object) -> str | None:
    """The file's last open workspace; :class:`LayoutFileError` when it is not one."""
    if not isinstance(data, dict) or data.get("version") != _VERSION:
        raise LayoutFileError("not a layout file of this app's version")
    workspace = data.get("workspace")
    if workspace is not None and not (isinstance(workspace, str) and is_workspace_id(workspace)):
        raise LayoutFileError("the last workspace is not a workspace name")
    return workspace


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
        left_out: list[str] = []
        try:
            state = state_from_json(parse_json(text), left_out)
        except json.JSONDecodeError as error:
            return self._set_aside(f"it is not valid JSON (line {error.lineno})")
        except ValueError as error:  # LayoutFileError, or nested too deeply (R64)
            return self._set_aside(str(error))
        if left_out:  # R92: what can be kept opens; the file as it was is kept aside
            self._set_aside(_summary(left_out), kept=state)
        return state

    def last_workspace(self) -> str | None:
        """The workspace open when the app last quit; None when unknown. Changes nothing:
        a broken file is set aside (and said so) by the window's :meth:`load`."""
        try:
            return _last_workspace(parse_json(read_own_file(self.path).decode("utf-8")))
        except (OSError, UnicodeDecodeError, ValueError):
            return None

    def save(self, state: SavedState) -> None:
        """Write atomically: a crash leaves the old file or the new one."""
        write_atomically(self.path, json.dumps(state_to_json(state), indent=1, ensure_ascii=False))

    def _set_aside(self, why: str, kept: SavedState | None = None) -> SavedState:
        target = set_aside(self.path)
        if target is not None:
            where = f"It was set aside as {target.name} in the app's data folder"
        else:
            where = "It could not be moved aside and will be replaced"
        if kept is None:
            self.set_aside_message = (
                f"The saved window layout could not be used: {why}. {where}; "
                "the app started with its default layout."
            )
            return SavedState()
        self.set_aside_message = (
            f"The saved window layout could not be used whole: {why}. {where}; "
            "the app opened the frames it could keep."
        )
        return kept


def _summary(left_out: list[str]) -> str:
    """The first few things left out of a layout, and how many more (a banner's length)."""
    shown = "; ".join(left_out[:3])
    more = len(left_out) - 3
    return shown if more <= 0 else f"{shown}; and {more:,} more left out"
