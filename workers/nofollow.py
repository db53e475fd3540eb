"""Walking a workspace path one folder descriptor at a time, never letting the kernel follow a link.

``os.path.realpath`` followed by ``open`` can be raced: a folder swapped for a symbolic link
between the check and the open leads outside the workspace (R43). Here every segment is
opened with ``O_NOFOLLOW`` relative to the descriptor of the folder before it, so what was
checked is what is opened. A symbolic link met on the way is read (``readlink``) and its
target walked the same way from the folder that holds it; ``..`` pops a folder this walk
opened itself, so a link can reach anywhere inside the workspace and nowhere outside.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TypeVar

ResultT = TypeVar("ResultT")

MAX_LINKS = 40
"""Links followed in one walk before it is called a loop, as the kernel counts (ELOOP)."""

FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class LeadsOutside(Exception):
    """A symbolic link on the way points outside the workspace."""


class IsLink(Exception):
    """Raised by a final step that found a symbolic link where it expected the file."""


class Changed(Exception):
    """The file system changed under the walk (a link became a file, or back)."""


FinalStep = Callable[[int, str], ResultT]
"""Called with the open folder and the last name; raises :class:`IsLink` at a link."""


def open_root(workspaces_dir: Path, workspace: str, configured: Path | None) -> int:
    """A descriptor of the workspace folder.

    A configured root is the user's own choice of folder and is opened as given; a
    workspace under ``DIR/workspaces`` must be a real folder there, not a link.
    """
    if configured is not None:
        return os.open(configured, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    base = os.open(workspaces_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        return os.open(workspace, FOLDER_FLAGS, dir_fd=base)
    finally:
        os.close(base)


def walk(
    root_fd: int,
    segments: Sequence[str],
    final: FinalStep[ResultT],
    *,
    root_path: Callable[[], str],
    make_folders: bool = False,
) -> ResultT:
    """Walk ``segments`` below ``root_fd`` and run ``final`` in the folder of the last one.

    ``root_path`` gives the root's resolved path, needed only to read an absolute link.
    """
    opened: list[int] = []  # folders this walk opened, innermost last; the root is not ours
    pending = list(reversed(segments))
    links = 0
    try:
        while pending:
            name = pending.pop()
            current = opened[-1] if opened else root_fd
            if name in ("", "."):
                continue
            if name == "..":
                if not opened:
                    raise LeadsOutside
                os.close(opened.pop())
                continue
            if not pending:
                try:
                    return final(current, name)
                except IsLink:
                    target = _link_target(name, current)
            else:
                try:
                    opened.append(_open_folder(name, current, make_folders))
                    continue
                except OSError as error:
                    if error.errno not in (errno.ELOOP, errno.ENOTDIR):
                        raise
                    target = _link_target(name, current)
                    if target is None:  # a file where a folder should be
                        raise NotADirectoryError(
                            errno.ENOTDIR, os.strerror(errno.ENOTDIR), name
                        ) from error
            if target is None:
                raise Changed
            links += 1
            if links > MAX_LINKS:
                raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), name)
            if target.startswith("/"):
                target = _inside_root(root_path(), target)
                while opened:
                    os.close(opened.pop())
            pending.extend(reversed(target.split("/")))
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    finally:
        for descriptor in opened:
            os.close(descriptor)


def _open_folder(name: str, parent: int, make: bool) -> int:
    try:
        return os.open(name, FOLDER_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        if not make:
            raise
    with suppress(FileExistsError):  # made meanwhile by another save: opened below as well
        os.mkdir(name, dir_fd=parent)
    return os.open(name, FOLDER_FLAGS, dir_fd=parent)


def _link_target(name: str, parent: int) -> str | None:
    """The text of the link ``name``, or None when it is not (or no longer) a link."""
    try:
        return os.readlink(name, dir_fd=parent)
    except OSError as error:
        if error.errno in (errno.EINVAL, errno.ENOENT):
            return None
        raise


def _inside_root(root: str, target: str) -> str:
    """An absolute link target as a path below the root, or :class:`LeadsOutside`.

    Only the text is compared here; the walk then opens it segment by segment from the
    root descriptor, so a later swap cannot turn it into an escape.
    """
    normal = os.path.normpath(target)
    if normal == root:
        return "."
    if not normal.startswith(root.rstrip("/") + "/"):
        raise LeadsOutside
    return normal[len(root.rstrip("/")) + 1 :]
