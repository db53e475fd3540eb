"""Freed memory kept for the next request, not handed back to the system and faulted in again.

A turn that reads a 256 KiB note makes several buffers of about that size: the file's
bytes, its text, the result's JSON, the reply. glibc's defaults return such memory to
the system as soon as it is freed (``free`` trims the top of a heap past 128 KiB, and
serves large blocks with ``mmap`` of their own), so the next turn asks for it again
and the kernel zeroes it page by page: about 270 page faults, a mebibyte, per turn,
which made a 256 KiB read cost close to twice a plain document GET.

Keeping up to :data:`TRIM_THRESHOLD_BYTES` free at the top of each heap, and serving
blocks below :data:`MMAP_THRESHOLD_BYTES` from the heaps, lets each turn reuse the
memory the previous one freed. Larger blocks (a 10 MiB document save) still get their
own mapping and go back to the system at once. Other C libraries are left as they are.
"""

from __future__ import annotations

import ctypes
import platform
import sys
from typing import Final

M_TRIM_THRESHOLD: Final = -1
M_MMAP_THRESHOLD: Final = -3
"""``mallopt`` parameter numbers, from glibc's ``malloc.h``."""

MMAP_THRESHOLD_BYTES: Final = 4 * 1024 * 1024
"""Blocks this large or larger get a mapping of their own, returned when freed."""

TRIM_THRESHOLD_BYTES: Final = 32 * 1024 * 1024
"""Free memory at the top of a heap beyond this goes back to the system."""


def is_glibc() -> bool:
    return sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


def keep_freed_memory() -> bool:
    """Tune glibc's allocator for this process as described above; False where it is not glibc.

    Process-wide and idempotent: the embedded backend shares its process with the app,
    whose large buffers (a note's text, a reply) gain the same way.
    """
    if not is_glibc():
        return False
    mallopt = ctypes.CDLL(None).mallopt
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt answers 1 when it took the value, 0 when it refused it.
    return bool(
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
        and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES)
    )
