"""Files in the app's data folder written whole: a crash leaves the old file or the new one.

Kept note text (``recovery``), the window layout and the assistant settings all go
through :func:`write_atomically`. Each is the user's own data, so each is private
(mode 0600) from the moment it exists: the API key must never be readable by others,
and kept note text or the list of open notes is no one else's business either.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Final

from bridge.private_files import make_folders, sync_folder

PRIVATE_MODE: Final = 0o600


def write_atomically(target: Path, text: str) -> None:
    """Replace ``target`` by ``text`` (UTF-8), file and folder synced; OSError when it can't."""
    make_folders(target.parent)  # R77: every folder the app makes is 0700
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, PRIVATE_MODE)  # a umask can only narrow it; say it anyway
        os.replace(temporary, target)
        sync_folder(target.parent)  # R77: the rename is on disk before the write counts as done
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
