"""The copy of a folder that ``scenario record --workspace DIR`` works on (R66).

Only regular files inside DIR are copied, and only folders inside it are entered: a
symbolic link (to a file outside, to a folder outside, to ``/dev/zero``), a FIFO, a
device or a socket is skipped and named in the returned list, so nothing outside
the folder ends up in the scenario and no copy can block or go on without end.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import Final

_READ_FLAGS: Final = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def copy_regular_files(source: Path, target: Path) -> list[str]:
    """Copy every regular file under ``source`` into ``target``; what was skipped, and why."""
    skipped: list[str] = []
    target.mkdir(parents=True, exist_ok=True)
    for folder, folders, files in os.walk(source, followlinks=False):
        here = Path(folder)
        relative = here.relative_to(source)
        for name in list(folders):
            if (here / name).is_symlink():
                folders.remove(name)  # os.walk would not enter it, but it must be reported
                skipped.append(f"{(relative / name).as_posix()} (a link)")
            else:
                (target / relative / name).mkdir(exist_ok=True)
        for name in files:
            why = _copy_one(here / name, target / relative / name)
            if why is not None:
                skipped.append(f"{(relative / name).as_posix()} ({why})")
    return sorted(skipped)


def _copy_one(source: Path, target: Path) -> str | None:
    """Copy one regular file; else why not, in a few words."""
    if source.is_symlink():
        return "a link"
    try:
        descriptor = os.open(source, _READ_FLAGS)
    except OSError as error:
        return f"not readable: {error.strerror}"
    with os.fdopen(descriptor, "rb") as reading:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return "not a regular file"
        os.set_blocking(descriptor, True)
        with target.open("wb") as writing:
            shutil.copyfileobj(reading, writing)
    return None
