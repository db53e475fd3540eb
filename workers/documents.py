"""Workspace documents on disk: the one place every path rule is enforced (contract 3).

The document API and the assistant's tools both go through :class:`Workspaces`, so a
path refused here is refused everywhere, with the same message (R28).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import secrets
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bridge.documents import DocumentInfo
from bridge.paths import WorkspacePathError, check_workspace_path, is_workspace_id
from bridge.pointer import format_captured_at, sha16
from workers import messages, nofollow
from workers.digests import DigestCache, FileVersion
from workers.errors import DocumentRefused
from workers.settings import Settings

MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
"""The largest document the API stores; a bigger PUT body is refused with 413."""

TEMP_PREFIX = ".ambient-save-"
"""A save in progress: never served or listed, and removed at start unless a save holds it."""

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_PATH_MAX = os.pathconf("/", "PC_PATH_MAX") if hasattr(os, "pathconf") else 4096
_RETRIES = 3
"""Walks retried when the file system changes under one, before answering 409."""


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


class Workspaces:
    """Folders of documents: ``DIR/workspaces/<id>`` plus any configured extra roots.

    Every read, write and listing walks from a descriptor of the workspace folder with
    :mod:`workers.nofollow`, so no link swapped in mid-request leads outside (R43).
    """

    def __init__(self, settings: Settings, digests: DigestCache | None = None) -> None:
        self._settings = settings
        self._digests = digests or DigestCache()

    def sha16(self, read: DocumentRead) -> str:
        """The read's SHA-256 prefix, reused while its file is unchanged (R25)."""
        return self._digests.sha16(read.data, read.version)

    def root(self, workspace: str) -> Path:
        extra = self._settings.workspace_roots.get(workspace)
        if extra is not None:
            return Path(extra)
        return self._settings.workspaces_dir / workspace

    def exists(self, workspace: str) -> bool:
        """A folder of its own under ``DIR/workspaces`` (a link there is not one), or a root."""
        if not is_workspace_id(workspace):
            return False
        root = self.root(workspace)
        configured = workspace in self._settings.workspace_roots
        return root.is_dir() and (configured or not root.is_symlink())

    def names(self) -> list[str]:
        """Every workspace: the folders under the workspaces folder and the extra roots."""
        found = set(self._settings.workspace_roots)
        folder = self._settings.workspaces_dir
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            found.update(
                entry.name
                for entry in folder.iterdir()
                if entry.is_dir() and is_workspace_id(entry.name)
            )
        return sorted(name for name in found if is_workspace_id(name))

    def create(self, workspace: str) -> bool:
        """Make the workspace folder; True when it was new."""
        root = self.root(workspace)
        if root.is_dir():
            return False
        root.mkdir(parents=True, exist_ok=True)
        return True

    def read(self, workspace: str, path: str, limit: int | None = None) -> DocumentRead:
        return self._read(workspace, path, limit)[0]

    def _read(
        self, workspace: str, path: str, limit: int | None = None
    ) -> tuple[DocumentRead, float]:
        """The read and the file's modification time, from the one open descriptor."""
        segments = _checked_segments(path)
        try:
            with self._walk(workspace, segments, _open_for_reading) as descriptor:
                info = os.fstat(descriptor)
                if not stat.S_ISREG(info.st_mode):
                    raise IsADirectoryError(errno.EISDIR, "not a regular file")
                if info.st_nlink > 1:
                    raise DocumentRefused("outside", "hard_linked", messages.DOCUMENT_HARD_LINKED)
                with os.fdopen(os.dup(descriptor), "rb") as handle:
                    os.set_blocking(handle.fileno(), True)
                    if limit is not None and info.st_size > limit:
                        data = cut_at_character(handle.read(limit + 4), limit)
                        return DocumentRead(path, data, info.st_size, True), info.st_mtime
                    data = handle.read()
                    version: FileVersion | None = FileVersion.of(info)
                    if FileVersion.of(os.fstat(descriptor)) != version or len(data) != info.st_size:
                        version = None  # written to meanwhile: these bytes have no version
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as error:
            raise DocumentRefused(
                "not_found", "not_found", messages.DOCUMENT_NOT_FOUND.format(path=path)
            ) from error
        except OSError as error:
            # A symlink loop, or a path the file system finds too long once under the root.
            raise DocumentRefused(
                "invalid", "read_failed", messages.DOCUMENT_READ_FAILED.format(reason=_why(error))
            ) from error
        return DocumentRead(path, data, len(data), False, version), info.st_mtime

    def write(
        self,
        workspace: str,
        path: str,
        text: str,
        precondition: WritePrecondition | None = None,
    ) -> DocumentInfo:
        """Atomic save: a temporary file beside the target, then one rename in that folder.

        Saves into one folder hold an exclusive ``flock`` on it from the check of the
        precondition to the rename, so two servers sharing the folder cannot both pass
        the same ``If-Match`` (R53).
        """
        segments = _checked_segments(path, for_writing=True)
        data = text.encode("utf-8")

        def save(folder: int, name: str) -> float:
            fcntl.flock(folder, fcntl.LOCK_EX)
            try:
                if _is_link(folder, name):
                    raise nofollow.IsLink
                if precondition is not None:
                    _check_precondition(folder, name, precondition)
                return _replace(folder, name, data)
            finally:
                fcntl.flock(folder, fcntl.LOCK_UN)

        try:
            modified = self._walk_value(workspace, segments, save, make_folders=True)
        except (FileExistsError, NotADirectoryError, IsADirectoryError) as error:
            raise DocumentRefused("invalid", "invalid_path", messages.PATH_NOT_A_FOLDER) from error
        except OSError as error:
            raise DocumentRefused(
                "invalid", "write_failed", messages.DOCUMENT_WRITE_FAILED.format(reason=_why(error))
            ) from error
        return DocumentInfo(path, len(data), sha16(data), _format_time(modified))

    def list(self, workspace: str, prefix: str = "") -> list[DocumentInfo]:
        """Every document under the workspace whose path starts with ``prefix``, sorted."""
        found: list[DocumentInfo] = []
        try:
            root_fd = self._open_root(workspace)
        except OSError:
            return found
        try:
            for folder, folders, files, _folder_fd in os.fwalk(".", dir_fd=root_fd):
                folders.sort()
                relative_folder = folder[2:]  # fwalk names them "./a/b"
                for name in files:
                    relative = f"{relative_folder}/{name}" if relative_folder else name
                    if (
                        name.startswith(TEMP_PREFIX)
                        or not relative.startswith(prefix)
                        or not _is_utf8_name(relative)
                    ):
                        continue
                    try:
                        read, modified = self._read(workspace, relative)
                    except (DocumentRefused, OSError):
                        continue  # links out, hard links, and files gone meanwhile are not listed
                    found.append(
                        DocumentInfo(relative, read.size, self.sha16(read), _format_time(modified))
                    )
        finally:
            os.close(root_fd)
        found.sort(key=lambda info: info.path)
        return found

    def remove_interrupted_saves(self) -> int:
        """Delete temporary files that no running save holds (R43); the count removed.

        A save keeps an exclusive ``flock`` on its temporary file until the rename, so
        another server sharing the folder never loses a save in progress to this sweep.
        """
        removed = 0
        roots = [self._settings.workspaces_dir, *self._settings.workspace_roots.values()]
        for root in roots:
            try:
                walker = os.fwalk(root)
                for _folder, _folders, files, folder_fd in walker:
                    for name in files:
                        if name.startswith(TEMP_PREFIX):
                            removed += _remove_unheld(folder_fd, name)
            except OSError:
                continue
        return removed

    def _open_root(self, workspace: str) -> int:
        return nofollow.open_root(
            self._settings.workspaces_dir, workspace, self._settings.workspace_roots.get(workspace)
        )

    def _walk_value(
        self,
        workspace: str,
        segments: Sequence[str],
        final: nofollow.FinalStep[nofollow.ResultT],
        *,
        make_folders: bool = False,
    ) -> nofollow.ResultT:
        """``final`` in the folder of the path's last segment, with retries when raced."""
        root_path = self.root(workspace)
        whole = len(os.fsencode(root_path)) + sum(len(s.encode()) + 1 for s in segments)
        if whole >= _PATH_MAX:
            # Reachable through descriptors, but no other program could open it by name.
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
        for _attempt in range(_RETRIES):
            root_fd = self._open_root(workspace)
            try:
                return nofollow.walk(
                    root_fd,
                    segments,
                    final,
                    root_path=lambda: os.path.realpath(root_path),
                    make_folders=make_folders,
                )
            except nofollow.Changed:
                continue
            except nofollow.LeadsOutside as error:
                raise DocumentRefused(
                    "outside", "path_outside_workspace", messages.PATH_OUTSIDE_WORKSPACE
                ) from error
            finally:
                os.close(root_fd)
        raise DocumentRefused("changed", "document_changed", messages.DOCUMENT_CHANGED)

    @contextmanager
    def _walk(
        self, workspace: str, segments: Sequence[str], final: nofollow.FinalStep[int]
    ) -> Iterator[int]:
        descriptor = self._walk_value(workspace, segments, final)
        try:
            yield descriptor
        finally:
            os.close(descriptor)


def _checked_segments(path: str, *, for_writing: bool = False) -> list[str]:
    """The lexical rules (contract 3), then: a temporary file is never a document."""
    try:
        check_workspace_path(path)
    except WorkspacePathError as error:
        raise DocumentRefused(
            "invalid", "invalid_path", messages.PATH_INVALID.format(reason=error)
        ) from error
    segments = path.split("/")
    if segments[-1].startswith(TEMP_PREFIX):
        if for_writing:
            raise DocumentRefused(
                "invalid",
                "invalid_path",
                messages.PATH_INVALID.format(reason=messages.PATH_RESERVED),
            )
        raise DocumentRefused(
            "not_found", "not_found", messages.DOCUMENT_NOT_FOUND.format(path=path)
        )
    return segments


def _check_precondition(folder: int, name: str, precondition: WritePrecondition) -> None:
    """Raise the 412 refusal when the saved copy is not what the save was computed from."""
    current = _current_bytes(folder, name)
    if precondition.absent and current is not None:
        raise DocumentRefused("precondition", "note_exists", messages.NOTE_EXISTS)
    if precondition.matches is None:
        return
    if current is None:
        raise DocumentRefused("precondition", "note_changed", messages.NOTE_CHANGED)
    if "*" in precondition.matches:
        return
    if hashlib.sha256(current).hexdigest() not in precondition.matches:
        raise DocumentRefused("precondition", "note_changed", messages.NOTE_CHANGED)


def _current_bytes(folder: int, name: str) -> bytes | None:
    """The saved copy's bytes, or None when there is none."""
    try:
        descriptor = _open_for_reading(folder, name)
    except FileNotFoundError:
        return None
    try:
        os.set_blocking(descriptor, True)
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            return handle.read()
    finally:
        os.close(descriptor)


def _open_for_reading(folder: int, name: str) -> int:
    """Open a file without following a link; O_NONBLOCK so a FIFO cannot hold a thread."""
    try:
        return os.open(name, _READ_FLAGS, dir_fd=folder)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise nofollow.IsLink from error
        raise


def _is_link(folder: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def _replace(folder: int, name: str, data: bytes) -> float:
    """Write ``data`` to a new temporary file in ``folder`` and rename it over ``name``.

    The rename replaces whatever entry ``name`` is at that moment, a link included,
    and never writes through it. Returns the new file's modification time.
    """
    temporary = f"{TEMP_PREFIX}{secrets.token_hex(8)}"
    descriptor = os.open(temporary, _TEMP_FLAGS, 0o666, dir_fd=folder)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
        os.fsync(descriptor)
        modified = os.fstat(descriptor).st_mtime
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise
    finally:
        os.close(descriptor)
    return modified


def _remove_unheld(folder: int, name: str) -> int:
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


def _is_utf8_name(name: str) -> bool:
    """A name the API can address: paths are UTF-8, and bytes that are not cannot be sent."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # fwalk hands such bytes over as lone surrogates
        return False
    return True


def _why(error: OSError) -> str:
    """The operating system's reason in words, never a traceback."""
    return error.strerror or "unknown error"


def _format_time(modified: float) -> str:
    return format_captured_at(datetime.fromtimestamp(modified, UTC))
