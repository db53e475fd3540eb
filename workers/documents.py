"""Workspace documents on disk: the one place every path rule is enforced (contract 3).

The document API and the assistant's tools both go through :class:`Workspaces`, so a
path refused here is refused everywhere, with the same message (R28).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from bridge.documents import DocumentInfo
from bridge.paths import WorkspacePathError, check_workspace_path
from bridge.pointer import format_captured_at, sha16
from workers import messages
from workers.errors import DocumentRefused
from workers.identity import is_workspace_id
from workers.settings import Settings

MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
"""The largest document the API stores; a bigger PUT body is refused with 413."""

_TEMP_PREFIX = ".ambient-save-"


@dataclass(frozen=True)
class DocumentRead:
    """A read of the saved copy, whole or cut at ``limit`` bytes."""

    path: str
    data: bytes
    size: int
    partial: bool

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
    """Folders of documents: ``DIR/workspaces/<id>`` plus any configured extra roots."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    def root(self, workspace: str) -> Path:
        extra = self._settings.workspace_roots.get(workspace)
        if extra is not None:
            return Path(extra)
        return self._settings.workspaces_dir / workspace

    def exists(self, workspace: str) -> bool:
        return is_workspace_id(workspace) and self.root(workspace).is_dir()

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

    def locate(self, workspace: str, path: str) -> Path:
        """The file for ``path``, after the lexical rules and the symlink check."""
        return _locate_under(self._real_root(workspace), path)

    def _real_root(self, workspace: str) -> str:
        return os.path.realpath(self.root(workspace))

    def read(self, workspace: str, path: str, limit: int | None = None) -> DocumentRead:
        target = self.locate(workspace, path)
        try:
            with _open_document(target) as handle:
                size = os.fstat(handle.fileno()).st_size
                if limit is not None and size > limit:
                    return DocumentRead(
                        path, cut_at_character(handle.read(limit + 4), limit), size, True
                    )
                data = handle.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as error:
            raise DocumentRefused(
                "not_found", "not_found", messages.DOCUMENT_NOT_FOUND.format(path=path)
            ) from error
        except OSError as error:
            # A symlink loop, or a path the file system finds too long once under the root.
            raise DocumentRefused(
                "invalid", "read_failed", messages.DOCUMENT_READ_FAILED.format(reason=_why(error))
            ) from error
        return DocumentRead(path, data, len(data), False)

    def write(self, workspace: str, path: str, text: str) -> DocumentInfo:
        """Atomic save: a temporary file beside the target, then one rename."""
        root = self._real_root(workspace)
        target = _locate_under(root, path)
        data = text.encode("utf-8")
        try:
            if target.is_dir():
                raise DocumentRefused("invalid", "invalid_path", messages.PATH_NOT_A_FOLDER)
            target.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError) as error:
            raise DocumentRefused("invalid", "invalid_path", messages.PATH_NOT_A_FOLDER) from error
        except OSError as error:
            raise DocumentRefused(
                "invalid", "write_failed", messages.DOCUMENT_WRITE_FAILED.format(reason=_why(error))
            ) from error
        # The folders just made may not have moved the target outside; check once more.
        _locate_under(root, path)
        temporary = target.parent / f"{_TEMP_PREFIX}{secrets.token_hex(8)}"
        try:
            with open(temporary, "xb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, target)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise DocumentRefused(
                "invalid",
                "write_failed",
                messages.DOCUMENT_WRITE_FAILED.format(reason=_why(error)),
            ) from error
        return DocumentInfo(path, len(data), sha16(data), _modified_at(target))

    def list(self, workspace: str, prefix: str = "") -> list[DocumentInfo]:
        """Every document under the workspace whose path starts with ``prefix``, sorted."""
        root = self._real_root(workspace)
        found: list[DocumentInfo] = []
        for folder, folders, files in os.walk(root):
            folders.sort()
            relative_folder = os.path.relpath(folder, root)
            for name in files:
                if name.startswith(_TEMP_PREFIX):
                    continue
                relative = name if relative_folder == "." else f"{relative_folder}/{name}"
                relative = relative.replace(os.sep, "/")
                if not relative.startswith(prefix) or not _is_utf8_name(relative):
                    continue
                try:
                    target = _locate_under(root, relative)
                    with _open_document(target) as handle:
                        data = handle.read()
                    modified_at = _modified_at(target)
                except (DocumentRefused, OSError):
                    continue  # symlinks out of the workspace and vanished files are not listed
                found.append(DocumentInfo(relative, len(data), sha16(data), modified_at))
        found.sort(key=lambda info: info.path)
        return found


def _locate_under(root: str, path: str) -> Path:
    """``path`` under the resolved ``root``: the lexical rules, then the symlink check."""
    try:
        check_workspace_path(path)
    except WorkspacePathError as error:
        raise DocumentRefused(
            "invalid", "invalid_path", messages.PATH_INVALID.format(reason=error)
        ) from error
    target = os.path.realpath(os.path.join(root, *path.split("/")))
    # realpath follows every symlink on the way, including the last one.
    if os.path.commonpath([root, target]) != root or target == root:
        raise DocumentRefused("outside", "path_outside_workspace", messages.PATH_OUTSIDE_WORKSPACE)
    return Path(target)


def _open_document(target: Path) -> BinaryIO:
    """Open a regular file for reading; anything else (a FIFO, a device) is not a document.

    O_NONBLOCK so that opening a FIFO returns at once instead of waiting for a writer
    and holding a server thread; it changes nothing for regular files.
    """
    descriptor = os.open(target, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise IsADirectoryError(errno.EISDIR, "not a regular file", str(target))
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def _is_utf8_name(name: str) -> bool:
    """A name the API can address: paths are UTF-8, and bytes that are not cannot be sent."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # os.walk hands such bytes over as lone surrogates
        return False
    return True


def _why(error: OSError) -> str:
    """The operating system's reason in words, never a traceback."""
    return error.strerror or "unknown error"


def _modified_at(target: Path) -> str:
    return format_captured_at(datetime.fromtimestamp(target.stat().st_mtime, UTC))
