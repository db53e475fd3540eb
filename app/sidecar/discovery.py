"""The discovery files other tools read to find the sidecar (R59, contract 11).

``<data dir>/active-note-pointer.json`` names the URL, the token, this process and
the workspace; the Gemini CLI companion file
``<tmpdir>/gemini/ide/gemini-ide-server-<PID>-<PORT>.json`` says the same in the
shape that CLI reads. Both are written 0600 and atomically, deleted when sharing
stops, and a file left by a process that no longer runs is deleted at start.

Several windows or instances on the same workspace are told apart by the process
id: the companion file carries it in its name (and the port), and the pointer file
in its ``pid`` field. An instance removes only files that carry its own pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bridge.private_files import OwnFileRefused, parse_json, read_own_file
from renderer.qt.files import write_atomically

POINTER_FILE: Final = "active-note-pointer.json"
IDE_NAME: Final = "ambient-notes"
IDE_DISPLAY_NAME: Final = "Ambient Notes"
_COMPANION_NAME: Final = re.compile(r"gemini-ide-server-(\d{1,10})-(\d{1,5})\.json")


@dataclass(frozen=True)
class Listing:
    """What the discovery files say about one running sidecar."""

    port: int
    token: str
    pid: int
    workspace: str
    workspace_path: str

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


def temporary_folder() -> Path:
    """``TMPDIR`` as it is now (the Gemini CLI reads it the same way), else the system's."""
    return Path(os.environ.get("TMPDIR") or tempfile.gettempdir())


def companion_folder() -> Path:
    return temporary_folder() / "gemini" / "ide"


def companion_path(pid: int, port: int) -> Path:
    return companion_folder() / f"gemini-ide-server-{pid}-{port}.json"


def write_listing(data_dir: Path, listing: Listing) -> list[Path]:
    """Write both files (0600); the paths written, to remove later."""
    pointer = data_dir / POINTER_FILE
    write_atomically(
        pointer,
        json.dumps(
            {
                "url": listing.url,
                "token": listing.token,
                "pid": listing.pid,
                "workspace": listing.workspace,
                "workspacePath": listing.workspace_path,
            }
        ),
    )
    companion = companion_path(listing.pid, listing.port)
    companion.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(
        companion,
        json.dumps(
            {
                "port": listing.port,
                "workspacePath": listing.workspace_path,
                "authToken": listing.token,
                "ideInfo": {"name": IDE_NAME, "displayName": IDE_DISPLAY_NAME},
            }
        ),
    )
    return [pointer, companion]


def remove_own(paths: list[Path], pid: int) -> None:
    """Delete the files this process wrote, unless another instance has replaced one since."""
    for path in paths:
        if path.name == POINTER_FILE and _pointer_pid(path) not in (pid, None):
            continue  # a later instance on the same data folder owns it now
        with contextlib.suppress(OSError):
            path.unlink()


def remove_stale(data_dir: Path) -> list[Path]:
    """Delete discovery files of Ambient Notes processes that no longer run; the ones deleted."""
    removed: list[Path] = []
    pointer = data_dir / POINTER_FILE
    pid = _pointer_pid(pointer)
    if pointer.exists() and (pid is None or not is_running(pid)):
        with contextlib.suppress(OSError):
            pointer.unlink()
            removed.append(pointer)
    with contextlib.suppress(OSError):
        for entry in companion_folder().iterdir():
            match = _COMPANION_NAME.fullmatch(entry.name)
            if match is None or is_running(int(match.group(1))) or not _is_ours(entry):
                continue  # another IDE's file is that IDE's to clean up
            with contextlib.suppress(OSError):
                entry.unlink()
                removed.append(entry)
    return removed


def is_running(pid: int) -> bool:
    """Whether a process with ``pid`` exists (one of another user counts as running)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except (OSError, OverflowError):
        return False
    return True


def _read(path: Path) -> object:
    try:
        return parse_json(read_own_file(path).decode("utf-8"))
    except (OwnFileRefused, OSError, ValueError):
        return None


def _pointer_pid(path: Path) -> int | None:
    body = _read(path)
    pid = body.get("pid") if isinstance(body, dict) else None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) else None


def _is_ours(path: Path) -> bool:
    body = _read(path)
    info = body.get("ideInfo") if isinstance(body, dict) else None
    return isinstance(info, dict) and info.get("name") == IDE_NAME
