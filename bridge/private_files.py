"""The data folder is private, and the app's own files in it are read with care (R64).

The folder holds the conversation database, the API key and the window layout: it is
made 0700 and every file directly in it 0600, the SQLite database and its ``-wal`` /
``-shm`` journals included (SQLite gives its journals the database file's mode, so the
file is created 0600 before SQLite first opens it).

A file the app reads back (layout, settings, key) may have been replaced by anything:
a FIFO would block ``open`` for ever, ``/dev/zero`` behind a link would never end, a
deeply nested JSON would overflow the parser's stack. :func:`read_own_file` opens
without following links and without blocking, reads only a regular file, and only up
to a size limit; :func:`parse_json` refuses nesting deeper than a limit before parsing.
A file that cannot be used is never deleted (it may be the only copy of something the
person wants back): :func:`set_aside` renames it, one naming scheme for every file.

Every file the app writes into its data folder goes through :func:`write_atomically`
(or :func:`write_in_folder` for a folder held open): replaced whole, a crash leaves
the old file or the new one, and it is 0600 from the moment it exists.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

PRIVATE_FOLDER_MODE: Final = 0o700
PRIVATE_FILE_MODE: Final = 0o600
OWN_FILE_MAX_BYTES: Final = 1024 * 1024
"""The app's own files are a few KiB; anything past 1 MiB is not one of them."""
JSON_MAX_DEPTH: Final = 32
"""The layout nests four levels deep; 32 leaves room and stays far from any stack limit."""
SQLITE_JOURNALS: Final = ("-wal", "-shm", "-journal")
SET_ASIDE_MARK: Final = ".broken-"
"""``NAME.broken-<UTC time>``: the mark comes after the whole name, so a reader that
lists ``*.json`` never takes a set-aside file for one of its own again."""

_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS: Final = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC
_NEW_FILE_FLAGS: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC


class OwnFileRefused(OSError):
    """The file is there but is not one the app may read; ``reason`` says why, plainly."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def make_private_folder(folder: Path) -> None:
    """Create ``folder`` if needed; make it 0700 and each regular file directly in it 0600."""
    folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER_MODE)
    os.chmod(folder, PRIVATE_FOLDER_MODE)
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):  # gone meanwhile, or not ours to change
                    os.chmod(entry.path, PRIVATE_FILE_MODE)


def make_folders(folder: Path) -> None:
    """Create ``folder`` and any missing parent, each new one 0700 (R77).

    ``Path.mkdir(parents=True)`` gives the parents the umask's mode (0755 as a rule);
    every folder the app makes is its own user's only. Folders that exist are left as
    they are: they may be the person's own choice.
    """
    missing: list[Path] = []
    current = folder
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    for part in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another thread
            part.mkdir(mode=PRIVATE_FOLDER_MODE)
            os.chmod(part, PRIVATE_FOLDER_MODE)  # mkdir's mode is narrowed by the umask only


def write_atomically(target: Path, text: str) -> None:
    """Replace ``target`` by ``text`` (UTF-8), 0600, file and folder synced; OSError if it fails."""
    make_folders(target.parent)  # R77: every folder the app makes is 0700
    folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    try:
        write_in_folder(folder, target.name, text.encode("utf-8"))
    finally:
        os.close(folder)


def write_in_folder(folder: int, name: str, data: bytes) -> None:
    """``name`` in the open ``folder`` replaced whole by ``data``, 0600, file and folder synced.

    Through the folder's descriptor, so a folder shared with others (the companion
    files' temporary folder) cannot be swapped under the write by a link.
    """
    temporary = f".{name}.{secrets.token_hex(6)}.tmp"
    descriptor = os.open(temporary, _NEW_FILE_FLAGS, PRIVATE_FILE_MODE, dir_fd=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
            os.fchmod(descriptor, PRIVATE_FILE_MODE)  # a umask can only narrow it; say it anyway
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        os.fsync(folder)  # R77: the rename is on disk before the write counts as done
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise


def set_aside(path: Path) -> Path | None:
    """Rename an unusable own file to ``NAME.broken-<UTC time>``; None when it cannot be moved.

    Never deleted, never overwritten: a second file set aside within the same second
    gets a counter, so an earlier broken copy is kept too.
    """
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}{SET_ASIDE_MARK}{stamp}")
    counter = 1
    while target.exists() or target.is_symlink():
        counter += 1
        target = path.with_name(f"{path.name}{SET_ASIDE_MARK}{stamp}-{counter}")
    try:
        os.replace(path, target)
    except OSError:
        return None  # cannot be moved: it stays unused, and is read (and refused) again
    return target


def create_private_database(path: Path) -> None:
    """The SQLite file and any journal beside it exist with mode 0600 before SQLite opens it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, _NEW_FILE_FLAGS, PRIVATE_FILE_MODE))
    for journal in ("", *SQLITE_JOURNALS):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(f"{path}{journal}", PRIVATE_FILE_MODE, follow_symlinks=False)


def read_own_file(path: Path, max_bytes: int = OWN_FILE_MAX_BYTES) -> bytes:
    """The bytes of one of the app's own files.

    FileNotFoundError when it is missing; :class:`OwnFileRefused` when it is a link, a
    FIFO, a device, a folder or larger than ``max_bytes``; other OSErrors as they come.
    Never blocks on a FIFO and never reads more than ``max_bytes + 1`` bytes.
    """
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except OSError as error:
        if isinstance(error, FileNotFoundError):
            raise
        if os.path.islink(path):
            raise OwnFileRefused("it is a symbolic link, not a file") from error
        raise
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise OwnFileRefused("it is not a regular file")
        os.set_blocking(descriptor, True)
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise OwnFileRefused(f"it is larger than {max_bytes:,} bytes")
    return data


def parse_json(text: str, max_depth: int = JSON_MAX_DEPTH) -> object:
    """``json.loads`` for the app's own files; ValueError when nested deeper than ``max_depth``.

    The C parser stops a nesting far past any file of this app's (a million ``[``) with
    RecursionError long before the stack ends; a nesting short of that but deeper than
    ``max_depth`` is found by one walk over the parsed containers. Both at C speed for
    text: a pass over every character in Python took 22 s for a 40 MB kept note (R92).
    """
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise ValueError(f"it nests deeper than {max_depth} levels") from error
    _check_depth(value, max_depth)
    return value


def _check_depth(value: object, max_depth: int) -> None:
    """ValueError when ``value`` holds lists or objects more than ``max_depth`` deep."""
    waiting: list[tuple[dict[str, object] | list[object], int]] = []
    if isinstance(value, dict | list):
        waiting.append((value, 1))
    while waiting:
        container, depth = waiting.pop()
        if depth > max_depth:
            raise ValueError(f"it nests deeper than {max_depth} levels")
        children = container.values() if isinstance(container, dict) else container
        waiting.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
