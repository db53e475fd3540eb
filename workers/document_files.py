"""One document file at a time: reading an opened note, saving one atomically (R43, R63).

:mod:`workers.documents` walks the workspace to the file's folder without following
links; what happens to the file once there is here.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import secrets
import stat
from contextlib import suppress
from dataclasses import dataclass

from workers import messages, nofollow
from workers.digests import DigestCache, FileVersion
from workers.errors import DocumentRefused

TEMP_PREFIX = ".ambient-save-"
"""A save in progress: never served or listed, and removed at start unless a save holds it."""

_READ_CHUNK = 64 * 1024
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class WritePrecondition:
    """What the saved copy must be for a save to go ahead (R53); nothing is written otherwise.

    ``matches``: the full SHA-256 hex digests the current bytes may have (``If-Match``),
    or ``None`` for no such condition; ``"*"`` among them means "any existing note".
    ``absent``: the note must not exist yet (``If-None-Match: *``).
    """

    matches: frozenset[str] | None = None
    absent: bool = False


@dataclass(frozen=True)
class DocumentRead:
    """A read of the saved copy, whole or cut at ``limit`` bytes."""

    path: str
    data: bytes
    size: int
    partial: bool
    version: FileVersion | None = None
    """The file's version when ``data`` is all of it and it did not change during the read."""

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


def cut_at_character(data: bytes, limit: int) -> bytes:
    """The longest prefix of ``data`` of at most ``limit`` bytes that ends on a UTF-8 boundary.

    R26: a continuation byte (10xxxxxx) at the cut means a character straddles it.
    """
    if len(data) <= limit:
        return data
    cut = limit
    while cut > 0 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    return data[:cut]


def read_open(
    descriptor: int,
    path: str,
    limit: int | None,
    *,
    versioned: bool = True,
    refuse_over: int | None = None,
) -> tuple[DocumentRead, float]:
    """The read of an opened document and its modification time; refuses what is no note.

    ``versioned=False`` spares the second look at the file that dates the bytes (a
    search reads every note once and keeps nothing). ``refuse_over``: a file larger
    than that is refused (R63), and at most one byte past it is read.
    """
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "not a regular file")
    if info.st_nlink > 1:
        raise DocumentRefused("outside", "hard_linked", messages.DOCUMENT_HARD_LINKED)
    if refuse_over is not None and info.st_size > refuse_over:
        raise too_large(path, info.st_size, refuse_over)
    # Opened O_NONBLOCK so a FIFO could not hold the thread; a regular file ignores it.
    if limit is not None and info.st_size > limit:
        data = cut_at_character(_read_up_to(descriptor, limit + 4), limit)
        return DocumentRead(path, data, info.st_size, True), info.st_mtime
    if refuse_over is None:
        data = _read_up_to(descriptor, None, info.st_size)
    else:
        data = _read_up_to(descriptor, refuse_over + 1)  # grown past the limit meanwhile?
        if len(data) > refuse_over:
            raise too_large(path, len(data), refuse_over)
    if not versioned:
        return DocumentRead(path, data, len(data), False), info.st_mtime
    version: FileVersion | None = FileVersion.of(info)
    if FileVersion.of(os.fstat(descriptor)) != version or len(data) != info.st_size:
        version = None  # written to meanwhile: these bytes have no version
    return DocumentRead(path, data, len(data), False, version), info.st_mtime


def too_large(path: str, size: int, limit: int) -> DocumentRefused:
    message = messages.DOCUMENT_TOO_LARGE.format(path=path, size=f"{size:,}", limit=f"{limit:,}")
    return DocumentRefused("too_large", "too_large", message)


def _read_up_to(descriptor: int, limit: int | None, expected: int = 0) -> bytes:
    """At most ``limit`` bytes (all of them for None), read straight from the descriptor.

    ``expected`` is the size the file had: reading one byte more tells a file that
    grew meanwhile, whose bytes then have no version.
    """
    pieces: list[bytes] = []
    wanted = limit if limit is not None else expected + 1
    total = 0
    while limit is None or total < limit:
        asked = max(wanted - total, _READ_CHUNK)
        piece = os.read(descriptor, asked)
        pieces.append(piece)
        total += len(piece)
        if len(piece) < asked:
            break  # a regular file reads short only at its end
    data = b"".join(pieces)
    return data if limit is None else data[:limit]


def open_for_reading(folder: int, name: str) -> int:
    """Open a file without following a link; O_NONBLOCK so a FIFO cannot hold a thread."""
    try:
        return os.open(name, _READ_FLAGS, dir_fd=folder)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise nofollow.IsLink from error
        raise


def is_link(folder: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def replace_file(folder: int, name: str, data: bytes) -> float:
    """Write ``data`` to a new temporary file in ``folder`` and rename it over ``name``.

    The rename replaces whatever entry ``name`` is at that moment, a link included,
    and never writes through it. Returns the new file's modification time.
    """
    temporary = f"{TEMP_PREFIX}{secrets.token_hex(8)}"
    kept_mode = _regular_file_mode(folder, name)
    descriptor = os.open(temporary, _TEMP_FLAGS, 0o666, dir_fd=folder)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        if kept_mode is not None:
            os.fchmod(descriptor, kept_mode)  # R77: a save never widens (or narrows) a note's mode
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
        os.fsync(descriptor)
        modified = os.fstat(descriptor).st_mtime
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        # R77: the rename itself reaches the disk before "Saved": after a power cut the
        # folder names the new file, not the old one.
        os.fsync(folder)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise
    finally:
        os.close(descriptor)
    return modified


def _regular_file_mode(folder: int, name: str) -> int | None:
    """The permission bits of the regular file ``name`` now, or None when there is none."""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def remove_unheld(folder: int, name: str) -> int:
    try:
        descriptor = os.open(name, _READ_FLAGS, dir_fd=folder)
    except OSError:
        return 0
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # a running save holds it
    else:
        with suppress(FileNotFoundError):
            os.unlink(name, dir_fd=folder)
            return 1
        return 0
    finally:
        os.close(descriptor)


def check_precondition(
    folder: int, name: str, precondition: WritePrecondition, digests: DigestCache
) -> None:
    """Raise the 412 refusal when the saved copy is not what the save was computed from.

    Called under the folder's ``flock``, so no save through the document API replaces
    the file between this check and the rename. The saved copy's digest comes from
    ``digests`` while the file is the version it remembers (see :mod:`workers.digests`
    for why that is exact), else from reading the file in pieces.
    """
    try:
        descriptor = open_for_reading(folder, name)
    except FileNotFoundError:
        if precondition.matches is not None:
            raise DocumentRefused("precondition", "note_changed", messages.NOTE_CHANGED) from None
        return
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "a folder, not a note")
        if precondition.absent:
            raise DocumentRefused("precondition", "note_exists", messages.NOTE_EXISTS)
        if precondition.matches is None or "*" in precondition.matches:
            return
        if _current_digest(descriptor, info, digests) not in precondition.matches:
            raise DocumentRefused("precondition", "note_changed", messages.NOTE_CHANGED)
    finally:
        os.close(descriptor)


def _current_digest(descriptor: int, info: os.stat_result, digests: DigestCache) -> str:
    """The full hex SHA-256 of the open saved copy; memory stays bounded for a regular file."""
    if stat.S_ISREG(info.st_mode):
        return digests.sha256_streamed(descriptor, FileVersion.of(info))
    # Not a note (a FIFO, a device): what reading it gives, as before any save replaces it.
    return hashlib.sha256(_read_up_to(descriptor, None, info.st_size)).hexdigest()
