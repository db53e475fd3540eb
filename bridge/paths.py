"""The lexical rules for a workspace id and a workspace-relative POSIX path, for both sides.

The backend adds the filesystem checks (symlinks leaving the workspace) on top of
these; the pointer model uses them so a header never names a path the document
API would refuse.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from bridge.contract import MAX_PATH_BYTES, MAX_SEGMENT_BYTES

WORKSPACE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # bounded: linear on any input
WORKSPACE_ID_INVALID: Final = (
    "A workspace name starts with a letter or digit and has at most 64 letters, digits, "
    "'.', '_' or '-'."
)
PATH_NOT_ALLOWED: Final = "That document path is not allowed: {reason}"
"""Both realms' sentence for a refused path; ``reason`` is the rule it broke."""


def is_workspace_id(value: str) -> bool:
    """Whether ``value`` can name a workspace (and so a folder under the data folder)."""
    return WORKSPACE_ID.fullmatch(value) is not None


class WorkspacePathError(ValueError):
    """A path that breaks the workspace path rules; the message is plain language."""


@lru_cache(maxsize=1024)
def check_workspace_path(path: str) -> str:
    """Return ``path`` unchanged if it is a valid workspace-relative POSIX path.

    Raises :class:`WorkspacePathError` with a plain-language reason otherwise.
    Accepted paths are remembered (a refusal is not): every send checks the
    path of the note it points at, which is nearly always one seen before.
    """
    if not path:
        raise WorkspacePathError("The path is empty.")
    if "\x00" in path:
        raise WorkspacePathError("The path contains a NUL character.")
    if "\\" in path:
        raise WorkspacePathError("The path contains a backslash; use forward slashes.")
    if path.startswith("/"):
        raise WorkspacePathError("The path must be relative to the workspace, not start with '/'.")
    try:
        encoded = path.encode("utf-8")
    except UnicodeEncodeError as error:
        raise WorkspacePathError("The path is not valid UTF-8 text.") from error
    if len(encoded) > MAX_PATH_BYTES:
        raise WorkspacePathError(f"The path is longer than {MAX_PATH_BYTES} bytes.")
    for segment in path.split("/"):
        if segment == "":
            raise WorkspacePathError("The path has an empty segment ('//' or a trailing '/').")
        if segment in (".", ".."):
            raise WorkspacePathError("The path may not contain '.' or '..' segments.")
        if len(segment.encode("utf-8")) > MAX_SEGMENT_BYTES:
            raise WorkspacePathError(f"A path segment is longer than {MAX_SEGMENT_BYTES} bytes.")
    return path


def is_workspace_path(path: str) -> bool:
    """True when :func:`check_workspace_path` accepts ``path``."""
    try:
        check_workspace_path(path)
    except WorkspacePathError:
        return False
    return True
