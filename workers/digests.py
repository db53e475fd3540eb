"""SHA-256 prefixes of saved copies, remembered while the file stays the same (R25).

Every turn about the open note reads its saved copy again (R23) and compares its
hash with the pointer's (R25). The note seldom changes between two turns, and
hashing 256 KiB costs more than the rest of the read, so a hash is reused for the
same file (device and inode) with the same size, modification and change times.
Only a settled file is remembered: file systems stamp times at a coarse tick, so a
second write within the tick of the first could otherwise look unchanged (the rule
git calls "racily clean").
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bridge.pointer import SHA256_PREFIX_CHARS, sha16

SETTLED_NS: Final = 2_000_000_000
"""A file whose change time is at least this old is remembered: no write can share it."""

STREAM_PIECE_BYTES: Final = 1024 * 1024
MAX_ENTRIES: Final = 256
"""Files remembered at once; the least recently used goes first."""


@dataclass(frozen=True)
class FileVersion:
    """What changes whenever a file's bytes do: its identity, size and time stamps."""

    device: int
    inode: int
    size: int
    modified_ns: int
    changed_ns: int

    @classmethod
    def of(cls, info: os.stat_result) -> FileVersion:
        return cls(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class DigestCache:
    """:func:`bridge.pointer.sha16` of a whole saved copy, reused while its version holds."""

    def __init__(self, clock_ns: Callable[[], int] = time.time_ns) -> None:
        self._clock_ns = clock_ns
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, int], tuple[FileVersion, str]] = OrderedDict()

    def sha16(self, data: bytes, version: FileVersion | None) -> str:
        """The hash of ``data``, the whole file at ``version`` (None: not to be remembered)."""
        if version is None:
            return sha16(data)
        return self._remembered(version) or self._remember(version, sha16(data))

    def sha16_streamed(self, descriptor: int, version: FileVersion) -> str:
        """The hash of the open file at ``version``, read in pieces: memory stays bounded.

        For a file too large to hold (over the document limit): the listing still
        names it, with its fingerprint, without reading it into memory (R63).
        """
        remembered = self._remembered(version)
        if remembered is not None:
            return remembered
        digest = hashlib.sha256()
        offset = 0
        while piece := os.pread(descriptor, STREAM_PIECE_BYTES, offset):
            digest.update(piece)
            offset += len(piece)
        return self._remember(version, digest.hexdigest()[:SHA256_PREFIX_CHARS])

    def _remembered(self, version: FileVersion) -> str | None:
        key = (version.device, version.inode)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] == version:
                self._entries.move_to_end(key)
                return entry[1]
        return None

    def _remember(self, version: FileVersion, digest: str) -> str:
        key = (version.device, version.inode)
        if self._clock_ns() - version.changed_ns >= SETTLED_NS:
            with self._lock:
                self._entries[key] = (version, digest)
                self._entries.move_to_end(key)
                while len(self._entries) > MAX_ENTRIES:
                    self._entries.popitem(last=False)
        return digest
