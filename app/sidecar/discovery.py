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
import errno
import itertools
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bridge.private_files import (
    PRIVATE_FOLDER_MODE,
    OwnFileRefused,
    parse_json,
    read_own_file,
    write_atomically,
    write_in_folder,
)

POINTER_FILE: Final = "active-note-pointer.json"
IDE_NAME: Final = "ambient-notes"
IDE_DISPLAY_NAME: Final = "Ambient Notes"
_COMPANION_NAME: Final = re.compile(r"gemini-ide-server-(\d{1,10})-(\d{1,5})\.json")
_COMPANION_PARTS: Final = ("gemini", "ide")
_FOLDER_FLAGS: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS: Final = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
COMPANION_MAX_BYTES: Final = 4096
"""A companion file of ours is a few hundred bytes; a bigger one is not ours and is not read."""
STALE_SCAN_MAX: Final = 10_000
"""At most this many names are looked at per start: a folder filled by others stays cheap."""
POINTER_FAILED: Final = (
    "The sharing file {path} could not be written ({reason}): tools that read it will "
    "not find the app."
)
COMPANION_FAILED: Final = (
    "The Gemini CLI file {path} could not be written ({reason}): the Gemini CLI will not "
    "find the app. Other tools can still connect."
)


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


class FolderRefused(OSError):
    """The companion folder is not one this user alone controls; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def open_companion_folder(*, create: bool) -> int:
    """A descriptor of ``<tmpdir>/gemini/ide``, checked at each step (R76); the caller closes it.

    The temporary folder is shared by every user, so whoever gets there first owns
    ``gemini`` and ``gemini/ide``. Each is opened without following a link and then
    checked on the open descriptor (no window between check and use): a folder of
    another user, or one others can write to, is refused. Missing ones are made 0700
    when ``create``; a missing one is FileNotFoundError otherwise. Writes and clean-up
    go through the descriptor only, so nothing is ever written through a swapped link.
    """
    folder = os.open(temporary_folder(), _FOLDER_FLAGS & ~os.O_NOFOLLOW)
    shown = temporary_folder()
    try:
        for name in _COMPANION_PARTS:
            shown = shown / name
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, PRIVATE_FOLDER_MODE, dir_fd=folder)
            try:
                child = os.open(name, _FOLDER_FLAGS, dir_fd=folder)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise FolderRefused(f"{shown} is a link or not a folder") from error
                raise
            os.close(folder)
            folder = child
            info = os.fstat(folder)
            if info.st_uid != os.getuid():
                raise FolderRefused(f"{shown} belongs to another user")
            if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                raise FolderRefused(f"{shown} can be changed by other users")
            if info.st_mode & 0o077:
                os.fchmod(folder, PRIVATE_FOLDER_MODE)  # ours: the file names stay ours to see
    except BaseException:
        os.close(folder)
        raise
    return folder


def write_listing(data_dir: Path, listing: Listing) -> tuple[list[Path], list[str]]:
    """Write both files (0600): the paths written, to remove later, and what failed, in words.

    A file that cannot be written never stops the app (R76): the other one may still
    serve, and the window says which one failed and why.
    """
    written: list[Path] = []
    problems: list[str] = []
    pointer = data_dir / POINTER_FILE
    try:
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
        written.append(pointer)
    except OSError as error:
        problems.append(POINTER_FAILED.format(path=pointer, reason=_why(error)))
    companion = companion_path(listing.pid, listing.port)
    body = {
        "port": listing.port,
        "workspacePath": listing.workspace_path,
        "authToken": listing.token,
        "ideInfo": {"name": IDE_NAME, "displayName": IDE_DISPLAY_NAME},
    }
    try:
        folder = open_companion_folder(create=True)
        try:
            write_in_folder(folder, companion.name, json.dumps(body).encode())
        finally:
            os.close(folder)
        written.append(companion)
    except OSError as error:
        problems.append(COMPANION_FAILED.format(path=companion, reason=_why(error)))
    return written, problems


def remove_own(paths: list[Path], pid: int) -> None:
    """Delete the files this process wrote, unless another instance has replaced one since."""
    for path in paths:
        if path.name == POINTER_FILE:
            if _pointer_pid(path) not in (pid, None):
                continue  # a later instance on the same data folder owns it now
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        with contextlib.suppress(OSError):  # a folder refused now is never cleaned through
            folder = open_companion_folder(create=False)
            try:
                os.unlink(path.name, dir_fd=folder)
            finally:
                os.close(folder)


def remove_stale_pointer(data_dir: Path) -> list[Path]:
    """Delete the pointer file of a process that no longer runs (the data folder is private)."""
    pointer = data_dir / POINTER_FILE
    pid = _pointer_pid(pointer)
    if pointer.exists() and (pid is None or not is_running(pid)):
        with contextlib.suppress(OSError):
            pointer.unlink()
            return [pointer]
    return []


def remove_stale_companions() -> list[Path]:
    """Delete companion files of Ambient Notes processes that no longer run (R59, R76).

    Runs on a worker: the folder is shared and anyone may fill it. A file is read
    only when it is a small regular file of this user's that is not a link; it is
    deleted only when it names Ambient Notes and a process that no longer runs.
    """
    removed: list[Path] = []
    try:
        folder = open_companion_folder(create=False)
    except OSError:
        return removed  # missing, or not ours: nothing in it is ours to clean
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in itertools.islice(entries, STALE_SCAN_MAX)]
        for name in names:
            match = _COMPANION_NAME.fullmatch(name)
            if match is None or is_running(int(match.group(1))):
                continue
            if _is_ours_in(folder, name):
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=folder)
                    removed.append(companion_folder() / name)
    finally:
        os.close(folder)
    return removed


def _is_ours_in(folder: int, name: str) -> bool:
    """Whether ``name`` is a small regular file of this user's naming Ambient Notes."""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        if not _small_own_file(info):
            return False  # another user's junk, a link, a FIFO or a big file: never opened
        descriptor = os.open(name, _READ_FLAGS, dir_fd=folder)
    except OSError:
        return False
    try:
        opened = os.fstat(descriptor)
        if not _small_own_file(opened) or opened.st_ino != info.st_ino:
            return False  # swapped between the look and the open
        data = os.read(descriptor, COMPANION_MAX_BYTES + 1)
    except OSError:
        return False
    finally:
        os.close(descriptor)
    try:
        body = parse_json(data.decode("utf-8"))
    except ValueError:
        return False
    info_field = body.get("ideInfo") if isinstance(body, dict) else None
    return isinstance(info_field, dict) and info_field.get("name") == IDE_NAME


def _small_own_file(info: os.stat_result) -> bool:
    return (
        stat.S_ISREG(info.st_mode)
        and info.st_uid == os.getuid()
        and info.st_size <= COMPANION_MAX_BYTES
    )


def _why(error: OSError) -> str:
    if isinstance(error, FolderRefused):
        return error.reason
    return error.strerror or str(error)


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
