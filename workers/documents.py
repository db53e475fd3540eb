"""Workspace documents on disk: the one place every path rule is enforced (contract 3).

The document API and the assistant's tools both go through :class:`Workspaces`, so a
path refused here is refused everywhere, with the same message (R28).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from bridge.contract import MAX_DOCUMENT_BYTES
from bridge.paths import WorkspacePathError, check_workspace_path, is_workspace_id
from bridge.pointer import format_captured_at, sha16
from bridge.privacy import PrivacyRules, WorkspacePrivacy
from bridge.private_files import make_folders
from bridge.wire import DocumentEntry
from workers import messages, nofollow
from workers.digests import DigestCache, FileVersion
from workers.document_files import (
    TEMP_PREFIX,
    DocumentRead,
    WritePrecondition,
    check_precondition,
    is_link,
    open_for_reading,
    read_open,
    remove_unheld,
    replace_file,
)
from workers.errors import DocumentRefused
from workers.settings import Settings

_PATH_MAX = os.pathconf("/", "PC_PATH_MAX") if hasattr(os, "pathconf") else 4096
_RETRIES = 3
"""Walks retried when the file system changes under one, before answering 409."""


class Workspaces:
    """Folders of documents: ``DIR/workspaces/<id>`` plus any configured extra roots.

    Every read, write and listing walks from a descriptor of the workspace folder with
    :mod:`workers.nofollow`, so no link swapped in mid-request leads outside (R43).
    """

    def __init__(self, settings: Settings, digests: DigestCache | None = None) -> None:
        self._settings = settings
        self._digests = digests or DigestCache()
        self._privacy: dict[Path, WorkspacePrivacy] = {}

    def privacy(self, workspace: str) -> PrivacyRules:
        """What the workspace's ``.aiexclude`` keeps from the assistant now (R86, contract 14).

        The document API ignores it (it serves the app itself); the tools, the pointer,
        the inline command and the listings for the assistant ask it first.
        """
        root = self.root(workspace)
        watcher = self._privacy.get(root)
        if watcher is None:
            watcher = self._privacy.setdefault(root, WorkspacePrivacy(root))
        return watcher.rules()

    def is_private(self, workspace: str, path: str, rules: PrivacyRules | None = None) -> bool:
        """Whether ``path`` is kept from the assistant, by its own name or by where it leads.

        A link inside the workspace to a private note is as private as the note: when
        anything is private, the path is also asked about as the file system resolves it.
        """
        rules = rules or self.privacy(workspace)
        if rules.is_private(path):
            return True
        if rules.spec is None:
            return False
        root = os.path.realpath(self.root(workspace))
        resolved = os.path.realpath(os.path.join(root, path))
        if resolved == os.path.join(root, path) or not resolved.startswith(root + os.sep):
            return False  # no link on the way; one leading outside is refused when read
        return rules.is_private(os.path.relpath(resolved, root))

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
        make_folders(root)  # R77: 0700, as every folder the app makes
        return True

    def read(self, workspace: str, path: str, limit: int | None = None) -> DocumentRead:
        """The note, cut at ``limit`` bytes; without a limit, one over the PUT's is refused."""
        refuse_over = MAX_DOCUMENT_BYTES if limit is None else None
        return self._read(workspace, path, limit, refuse_over=refuse_over)[0]

    def _read(
        self,
        workspace: str,
        path: str,
        limit: int | None = None,
        *,
        refuse_over: int | None = None,
    ) -> tuple[DocumentRead, float]:
        """The read and the file's modification time, from the one open descriptor.

        ``refuse_over``: a file larger than that many bytes is refused (R63), and no more
        than one byte past it is ever read, even when the file grows meanwhile.
        """
        segments = _checked_segments(path)
        try:
            with self._walk(workspace, segments, open_for_reading) as descriptor:
                return read_open(descriptor, path, limit, refuse_over=refuse_over)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as error:
            raise DocumentRefused(
                "not_found", "not_found", messages.DOCUMENT_NOT_FOUND.format(path=path)
            ) from error
        except OSError as error:
            # A symlink loop, or a path the file system finds too long once under the root.
            raise DocumentRefused(
                "invalid", "read_failed", messages.DOCUMENT_READ_FAILED.format(reason=_why(error))
            ) from error

    def write(
        self,
        workspace: str,
        path: str,
        text: str,
        precondition: WritePrecondition | None = None,
    ) -> DocumentEntry:
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
                if is_link(folder, name):
                    raise nofollow.IsLink
                if precondition is not None:
                    check_precondition(folder, name, precondition, self._digests)
                return replace_file(folder, name, data)
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
        return _entry(path, len(data), sha16(data), modified)

    def versions(
        self, workspace: str, skip: Callable[[str], bool] | None = None
    ) -> list[tuple[str, FileVersion | None]]:
        """Each document's path and file version from one look at it, nothing read, sorted.

        What :meth:`list` leaves out (a hard link, a name that is no file) is left out. A
        name that is a link has no version (None): only reading it the long way, from the
        root, tells where it leads. ``skip``: paths never looked at (private notes).
        """
        found: list[tuple[str, FileVersion | None]] = []
        for folder_fd, name, relative in self._walked(workspace, "", skip):
            try:
                info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
            except OSError:
                continue  # gone meanwhile
            if stat.S_ISLNK(info.st_mode):
                found.append((relative, None))
            elif stat.S_ISREG(info.st_mode) and info.st_nlink == 1:
                found.append((relative, FileVersion.of(info)))
        found.sort(key=lambda entry: entry[0])
        return found

    def list(
        self, workspace: str, prefix: str = "", skip: Callable[[str], bool] | None = None
    ) -> list[DocumentEntry]:
        """Every document under the workspace whose path starts with ``prefix``, sorted.

        ``skip``: paths left out before they are opened (the assistant's private notes).
        """
        found: list[DocumentEntry] = []
        for folder_fd, name, relative in self._walked(workspace, prefix, skip):
            try:
                found.append(self._listed(folder_fd, name, workspace, relative))
            except (DocumentRefused, OSError):
                continue  # links out, hard links, and files gone meanwhile are not listed
        found.sort(key=lambda info: info.path)
        return found

    def reads(
        self, workspace: str, prefix: str = "", skip: Callable[[str], bool] | None = None
    ) -> Generator[DocumentRead, None, None]:
        """Each listed document's saved copy (its first 10 MiB), read once, folder by folder.

        ``skip``: paths never opened (the assistant's private notes).
        """
        walked = self._walked(workspace, prefix, skip)
        try:
            for folder_fd, name, relative in walked:
                try:
                    read, _modified = self._read_in(
                        folder_fd, name, workspace, relative, MAX_DOCUMENT_BYTES
                    )
                except (DocumentRefused, OSError):
                    continue  # links out, hard links, and files gone meanwhile are not read
                yield read
        finally:
            walked.close()  # a search that stops early closes the walk's folder at once

    def _listed(self, folder_fd: int, name: str, workspace: str, relative: str) -> DocumentEntry:
        """One listing entry; a note over the limit is hashed in pieces, never held (R63)."""
        try:
            read, modified = self._read_in(
                folder_fd, name, workspace, relative, None, refuse_over=MAX_DOCUMENT_BYTES
            )
        except DocumentRefused as refusal:
            if refusal.kind != "too_large":
                raise
            segments = _checked_segments(relative)
            with self._walk(workspace, segments, open_for_reading) as descriptor:
                info = os.fstat(descriptor)
                if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
                    raise
                digest = self._digests.sha16_streamed(descriptor, FileVersion.of(info))
            return _entry(relative, info.st_size, digest, info.st_mtime)
        return _entry(relative, read.size, self.sha16(read), modified)

    def _walked(
        self, workspace: str, prefix: str, skip: Callable[[str], bool] | None = None
    ) -> Generator[tuple[int, str, str], None, None]:
        """(folder descriptor, name, path) of each document under ``prefix``, folder by folder."""
        try:
            root_fd = self._open_root(workspace)
        except OSError:
            return
        try:
            for folder, folders, files, folder_fd in os.fwalk(".", dir_fd=root_fd):
                folders.sort()
                relative_folder = folder[2:]  # fwalk names them "./a/b"
                for name in sorted(files):
                    relative = f"{relative_folder}/{name}" if relative_folder else name
                    if (
                        name.startswith(TEMP_PREFIX)
                        or not relative.startswith(prefix)
                        or not _is_utf8_name(relative)
                        or (skip is not None and skip(relative))
                    ):
                        continue
                    yield folder_fd, name, relative
        finally:
            os.close(root_fd)

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
                            removed += remove_unheld(folder_fd, name)
            except OSError:
                continue
        return removed

    def _read_in(
        self,
        folder_fd: int,
        name: str,
        workspace: str,
        relative: str,
        limit: int | None,
        *,
        refuse_over: int | None = None,
    ) -> tuple[DocumentRead, float]:
        """A walked file, opened in its folder's descriptor (the walk follows no link).

        A link is read the long way, from the root, which refuses one that leads out.
        """
        try:
            descriptor = open_for_reading(folder_fd, name)
        except nofollow.IsLink:
            return self._read(workspace, relative, limit, refuse_over=refuse_over)
        try:
            # A read for a search (a limit) keeps nothing: its bytes need no version.
            return read_open(
                descriptor, relative, limit, versioned=limit is None, refuse_over=refuse_over
            )
        finally:
            os.close(descriptor)

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


def _entry(path: str, size: int, sha256: str, modified: float) -> DocumentEntry:
    modified_at = format_captured_at(datetime.fromtimestamp(modified, UTC))
    return DocumentEntry(path=path, bytes=size, sha256=sha256, modified_at=modified_at)
