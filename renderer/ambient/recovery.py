"""Note text whose save failed, kept in the app's data folder until a later save lands.

A save can fail after its frame is gone: the frame was closed, the workspace was
switched, or the app is quitting. The editor no longer holds that text, so the
save job keeps it here before reporting the failure, and a later successful save
of the same note removes it. Text kept by an earlier run of the app stays until
the user restores it and that restored text is saved.

One JSON file per note (named by a digest of workspace and path, so a deep note
path never makes a file name too long). Safe to call from any thread; the save
jobs call it from workers.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bridge.paths import WorkspacePathError, check_workspace_path, is_workspace_id
from bridge.private_files import (
    OwnFileRefused,
    parse_json,
    read_own_file,
    set_aside,
    write_atomically,
)

RECOVERY_FOLDER = "unsaved-notes"
_SUFFIX = ".json"
KEPT_FILE_MAX_BYTES = 64 * 1024 * 1024
"""A kept note: the 10 MiB PUT limit's text, escaped in JSON, fits with room to spare."""
MAX_KEPT_FILES = 100
"""Kept notes read when a workspace opens; more files than that are left for later runs."""
Writer = Callable[[Path, str], None]
NAMES_NO_NOTE = "named no note of a workspace"
NOT_A_RECORD = "were not records of unsaved text this app writes"
"""Why a kept record was set aside (R92): the banner says which, never the record's text."""


class UnusableRecord(ValueError):
    """A file in the kept-notes folder that is not a kept note this app could have written."""


@dataclass(frozen=True)
class KeptNote:
    """Text of one note that has not reached the workspace yet."""

    workspace: str
    path: str
    text: str
    reason: str
    kept_at: str
    file: Path


class RecoveryStore:
    """The folder of kept note texts, and which of them this run is responsible for."""

    def __init__(self, folder: Path, writer: Writer = write_atomically) -> None:
        self.folder = folder
        self.writer = writer
        """How a kept text reaches the disk: tests pass one that fails as a full disk does."""
        self._lock = threading.Lock()
        self._set_aside: list[tuple[Path, str]] = []
        """Records found unusable and moved aside (where, and why), not yet told."""
        self._unkept: dict[tuple[str, str], int] = {}
        """Per note, the save number of a text that failed to save and failed to be kept:
        no file holds it, only an editor or nothing (R77)."""
        # Per note, the save sequence number of the text kept by this run. A save that
        # lands with an equal or later number has made the kept text redundant.
        self._kept_seq: dict[tuple[str, str], int] = {}

    def keep(self, workspace: str, path: str, text: str, reason: str, seq: int) -> Path | None:
        """Keep ``text`` unless this run already kept a later one; the file, or None."""
        key = (workspace, path)
        with self._lock:
            if self._kept_seq.get(key, -1) > seq:
                return None
            record = {
                "workspace": workspace,
                "path": path,
                "text": text,
                "reason": reason,
                "keptAt": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            target = self._file(workspace, path)
            try:
                self.writer(target, json.dumps(record, ensure_ascii=False))
            except OSError:
                self._unkept[key] = max(seq, self._unkept.get(key, seq))
                return None
            self._kept_seq[key] = seq
            if self._unkept.get(key, -1) <= seq:
                self._unkept.pop(key, None)
            return target

    def saved(self, workspace: str, path: str, seq: int) -> None:
        """A save numbered ``seq`` landed: drop text this run kept for that note up to it."""
        key = (workspace, path)
        with self._lock:
            if self._unkept.get(key, -1) <= seq:
                self._unkept.pop(key, None)
            kept = self._kept_seq.get(key)
            if kept is None or kept > seq:
                return
            del self._kept_seq[key]
            with contextlib.suppress(FileNotFoundError):
                self._file(workspace, path).unlink()

    def adopt(self, workspace: str, path: str) -> None:
        """The kept text is back in an editor: its next save that lands may drop the file."""
        with self._lock:
            self._kept_seq[(workspace, path)] = 0

    def unprotected(self, workspace: str, path: str) -> bool:
        """Whether that note's last failed save could not be kept either (R77)."""
        with self._lock:
            return (workspace, path) in self._unkept

    def unprotected_notes(self) -> list[tuple[str, str]]:
        """Every (workspace, path) whose failed text no file holds, sorted."""
        with self._lock:
            return sorted(self._unkept)

    def saved_elsewhere(self, workspace: str, path: str) -> None:
        """The person saved that note's text to a file of their choice: it is no longer lost."""
        with self._lock:
            self._unkept.pop((workspace, path), None)

    def holds(self, workspace: str, path: str) -> bool:
        """Whether this run keeps text of that note (known without reading the folder)."""
        with self._lock:
            return (workspace, path) in self._kept_seq

    def get(self, workspace: str, path: str) -> KeptNote | None:
        try:
            return _read(self._file(workspace, path))
        except (OSError, UnusableRecord):
            return None

    def kept_for(self, workspace: str) -> list[KeptNote]:
        """Every kept note of ``workspace``, sorted by path (reads whole files: a worker's job)."""
        return sorted(self._scan(workspace), key=lambda note: note.path)

    def kept_paths(self, workspace: str, stopped: Callable[[], bool] = lambda: False) -> list[str]:
        """The paths of ``workspace``'s kept notes, sorted; no text is held meanwhile.

        What a workspace's opening offers: up to :data:`MAX_KEPT_FILES` files of up to
        :data:`KEPT_FILE_MAX_BYTES` each are read one at a time, on a worker (R92); once
        ``stopped()`` (the app quitting) the files not read yet are left for the next start.
        """
        return sorted(note.path for note in self._scan(workspace, stopped))

    def _scan(
        self, workspace: str, stopped: Callable[[], bool] = lambda: False
    ) -> Iterator[KeptNote]:
        """Read the folder's records one by one; an unusable one is set aside, never offered."""
        for file in self._record_files():
            if stopped():
                return
            try:
                note = _read(file)
            except FileNotFoundError:
                continue  # its save landed meanwhile
            except UnusableRecord:
                self._put_aside(file, NOT_A_RECORD)
                continue
            except OSError:
                continue  # unreadable now (a disk error): tried again on the next opening
            if not _valid(note):
                # R92: a record naming no note of a workspace (a path out of it, one past
                # the path rules' length) is never offered: moved aside, and said once.
                self._put_aside(file, NAMES_NO_NOTE)
            elif note.workspace == workspace:
                yield note

    def _record_files(self) -> list[Path]:
        """The first :data:`MAX_KEPT_FILES` record files by name; one pass over the folder."""
        try:
            with os.scandir(self.folder) as entries:
                names = heapq.nsmallest(
                    MAX_KEPT_FILES,
                    (entry.name for entry in entries if entry.name.endswith(_SUFFIX)),
                )
        except (FileNotFoundError, NotADirectoryError):
            return []
        return [self.folder / name for name in names if not name.startswith(".")]

    def _put_aside(self, file: Path, why: str) -> None:
        moved = set_aside(file)
        with self._lock:
            self._set_aside.append((moved or file, why))

    def take_set_aside(self) -> list[tuple[Path, str]]:
        """The records set aside since last asked, and why (to say so once), then none."""
        with self._lock:
            taken, self._set_aside = self._set_aside, []
        return taken

    def _file(self, workspace: str, path: str) -> Path:
        digest = hashlib.sha256(f"{workspace}\0{path}".encode()).hexdigest()[:32]
        return self.folder / f"{digest}{_SUFFIX}"


def _valid(note: KeptNote) -> bool:
    """Whether a record names a note of a workspace, by the workspace path rules."""
    try:
        check_workspace_path(note.path)
    except WorkspacePathError:
        return False
    return is_workspace_id(note.workspace)


def _read(file: Path) -> KeptNote:
    """The record in ``file``; :class:`UnusableRecord` when it is not one, OSError as they come.

    R64 as for the other files the app reads back: no link, no FIFO, no device, and
    bounded: a note is at most 10 MiB, which JSON escapes can make up to six times.
    """
    try:
        record = parse_json(read_own_file(file, KEPT_FILE_MAX_BYTES).decode("utf-8"))
    except OwnFileRefused as error:
        raise UnusableRecord(error.reason) from error
    except ValueError as error:  # not UTF-8, not JSON, nested too deeply
        raise UnusableRecord(str(error)) from error
    if not isinstance(record, dict):
        raise UnusableRecord("not an object")
    fields = {name: record.get(name) for name in ("workspace", "path", "text")}
    if not all(isinstance(value, str) for value in fields.values()):
        raise UnusableRecord("a workspace, path or text is missing")
    reason, kept_at = record.get("reason"), record.get("keptAt")
    return KeptNote(
        workspace=str(fields["workspace"]),
        path=str(fields["path"]),
        text=str(fields["text"]),
        reason=reason if isinstance(reason, str) else "",
        kept_at=kept_at if isinstance(kept_at, str) else "",
        file=file,
    )
