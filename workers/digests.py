"""SHA-256 digests of saved copies, remembered while the file stays the same (R25, R53).

Every turn about the open note reads its saved copy again (R23) and compares its
hash with the pointer's (R25), and a conditional save compares it with ``If-Match``
(R53). The note seldom changes in between, and hashing 256 KiB costs more than the
rest of the read, so a hash is reused for the same file (device and inode) with the
same size, modification and change times.

Only a settled file is remembered: file systems stamp times at a coarse tick, so a
second write within the tick of the first could otherwise look unchanged (the rule
git calls "racily clean"). A rewrite of the same size that keeps the modification
time (in place within one tick, or set back with ``utime``) still moves the change
time, which the kernel sets to the present on every write and no call sets back;
and a file remembered only once its change time is two seconds old cannot share it
with any later write. So a remembered digest is the file's, as exact as reading it.
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

from bridge.contract import SHA256_PREFIX_CHARS
from bridge.pointer import sha16

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
    """The SHA-256 of a whole saved copy, reused while its version holds.

    Kept whole (64 hex): :meth:`sha16` answers the prefix the pointer and the listing
    carry, :meth:`sha256_streamed` the full digest a conditional save compares.
    """

    def __init__(self, clock_ns: Callable[[], int] = time.time_ns) -> None:
        self._clock_ns = clock_ns
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, int], tuple[FileVersion, str]] = OrderedDict()

    def sha16(self, data: bytes, version: FileVersion | None) -> str:
        """:func:`bridge.pointer.sha16` of ``data``, the whole file at ``version``.

        ``version`` None: the bytes are not to be remembered (a partial read, or one
        the file changed under).
        """
        if version is None:
            return sha16(data)
        digest = self.remembered(version)
        if digest is None:
            digest = self._remember(version, hashlib.sha256(data).hexdigest())
        return digest[:SHA256_PREFIX_CHARS]

    def sha16_streamed(self, descriptor: int, version: FileVersion) -> str:
        """The 16-hex prefix of :meth:`sha256_streamed`."""
        return self.sha256_streamed(descriptor, version)[:SHA256_PREFIX_CHARS]

    def sha256_streamed(self, descriptor: int, version: FileVersion) -> str:
        """The full hex SHA-256 of the open file at ``version``, read in pieces.

        Memory stays bounded: the listing names a file too large to hold (over the
        document limit) with its fingerprint (R63), and a conditional save checks any
        file it would replace, without reading either into memory. A file that changed
        during the read is hashed, but not remembered under the version it had before.
        """
        remembered = self.remembered(version)
        if remembered is not None:
            return remembered
        digest = hashlib.sha256()
        offset = 0
        while piece := os.pread(descriptor, STREAM_PIECE_BYTES, offset):
            digest.update(piece)
            offset += len(piece)
        if offset != version.size or FileVersion.of(os.fstat(descriptor)) != version:
            return digest.hexdigest()
        return self._remember(version, digest.hexdigest())

    def remembered(self, version: FileVersion) -> str | None:
        """The full hex digest of the file at exactly ``version``, if it is remembered."""
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
