"""Autosave for Inbox frames: debounced per frame, serialized per document, flushable before a send.

Each document (workspace, path) has at most one save in flight and at most one
queued behind it; a newer queued save replaces the older queued one, so a later
save never lands before an earlier one and no stale text overwrites fresh text.
:meth:`AutosaveCoordinator.flush` is the send's preparation (R10): it queues every
pending edit now and reports when every save queued so far has landed.
With a :class:`RecoveryStore`, the text of a save that fails is kept in the app's
data folder before the failure is reported, so a note closed, switched away from or
left behind at quit while its save fails loses nothing.
Saves are conditional (R53): each document's entity tag, learnt from its load and from
each save that lands, goes with the next save as ``If-Match`` (a new note's first save
sends ``If-None-Match: *``), so a note changed elsewhere is never overwritten silently:
the save is refused, its text kept, and :attr:`AutosaveCoordinator.save_conflict` fires.
All methods run on the GUI thread; only the PUT itself runs on a worker.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

import psygnal
from PySide6.QtCore import QObject, QTimer, Signal

from bridge.documents import etag_of
from bridge.errors import NOTE_CHANGED_MESSAGE, BackendUnreachable, PreconditionFailed
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.recovery import RecoveryStore
from renderer.qt.tasks import TaskRunner

SaveState = Literal["unsaved", "saving", "saved", "error"]
SAVE_DEBOUNCE_MS = 600
SAVE_FAILED_MESSAGE = "The note could not be saved."
RETRY_DELAYS_MS: tuple[int, ...] = (1_000, 2_000, 4_000, 8_000, 16_000, 30_000)
"""After a failed save, the next try waits this long, then longer; the last one repeats (R76)."""
OUT_OF_FILES_MESSAGE = (
    "The app could not open a connection: it has too many files open. It tries again on its own."
)
DISK_FULL_MESSAGE = "The disk is full."
DocumentKey = tuple[str, str]
ABSENT = ""
"""The tag of a note with no saved copy yet: its first save must create it."""


class SaveSource(Protocol):
    """A frame whose document can be saved: it reads the live editor when asked."""

    @property
    def frame_id(self) -> str: ...

    @property
    def link(self) -> WorkspaceLink: ...

    def current_path(self) -> str: ...

    def take_text(self) -> str:
        """The live text for a save; later edits count as new changes from here."""
        ...


@dataclass
class _SaveJob:
    key: DocumentKey
    link: WorkspaceLink
    text: str
    seq: int
    tag: str | None = None
    """The tag the save is conditional on: an ETag, :data:`ABSENT`, or None for none."""


@dataclass
class _DocumentQueue:
    enqueued: int = 0
    completed: int = 0
    in_flight: _SaveJob | None = None
    queued: _SaveJob | None = None


@dataclass
class _Retry:
    """A failed save waiting to be tried again: its text, and how many tries failed so far."""

    timer: QTimer
    job: _SaveJob
    failures: int = 0


@dataclass
class _Watch:
    source: SaveSource
    timer: QTimer
    dirty: bool = False


class FlushOperation(QObject):
    """One flush: finished(ok) fires once every save it waits for has landed (or failed).

    It listens to its coordinator's :attr:`AutosaveCoordinator.save_finished` while it
    waits; ``finished`` stays a Qt signal, so a widget or ``qtbot`` can wait for it.
    """

    finished = Signal(bool)

    def __init__(
        self,
        targets: dict[DocumentKey, int],
        queues: dict[DocumentKey, _DocumentQueue],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.targets = targets
        self._queues = queues
        self.done = False
        self.ok = True

    def save_finished(self, key: DocumentKey, ok: bool) -> None:
        """A save of ``key`` finished (``ok`` False: refused or failed): done when all landed."""
        if not ok and key in self.targets:
            self.ok = False
        self.check()

    def check(self) -> None:
        if self.done:
            return
        for key, seq in self.targets.items():
            queue = self._queues.get(key)
            if queue is not None and queue.completed < seq:
                return
        self.done = True
        self.finished.emit(self.ok)


class AutosaveCoordinator(QObject):
    """Debounces edits into saves and keeps saves to one document in order."""

    state_changed = Signal(str, str, str)
    """(workspace, path, state) with state one of unsaved / saving / saved / error."""

    save_failed = Signal(str, str, str)
    """(workspace, path, plain-language message)."""

    save_conflict = Signal(str, str)
    """(workspace, path): the note changed elsewhere since it was loaded; nothing was written."""

    save_finished = psygnal.Signal(object, bool)
    """(key, ok) after each save's outcome was handled: the flushes waiting for it listen.

    A psygnal signal, as the store's are: only Python listens, and each
    :class:`FlushOperation` connects while it waits and disconnects when it is done.
    """

    def __init__(
        self,
        runner: TaskRunner,
        *,
        debounce_ms: int = SAVE_DEBOUNCE_MS,
        recovery: RecoveryStore | None = None,
        retry_delays_ms: tuple[int, ...] = RETRY_DELAYS_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._retry_delays_ms = retry_delays_ms
        self._retries: dict[DocumentKey, _Retry] = {}
        self._retrying = True
        """False once quitting began: nothing is tried again after the last saves."""
        self.recovery = recovery
        self._debounce_ms = debounce_ms
        self._watches: dict[str, _Watch] = {}
        self._queues: dict[DocumentKey, _DocumentQueue] = {}
        self._tags: dict[DocumentKey, str] = {}

    # -- frames ------------------------------------------------------------

    def watch(self, source: SaveSource) -> QTimer:
        """Start tracking a frame's edits (on mount); returns its debounce timer.

        The frame connects its document's change signal straight to the timer's
        ``start`` so each keystroke restarts the debounce without running Python,
        and calls :meth:`edited` only when the document turns from saved to changed.
        """
        self.unwatch(source.frame_id, save=False)
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(self._debounce_ms)
        watch = _Watch(source, timer)
        timer.timeout.connect(lambda: self._save_watch(watch))
        self._watches[source.frame_id] = watch
        return timer

    def unwatch(self, frame_id: str, *, save: bool = True) -> None:
        """Stop tracking a frame (on close); its pending edit is saved first unless told not to."""
        watch = self._watches.pop(frame_id, None)
        if watch is None:
            return
        watch.timer.stop()
        if save and watch.dirty:
            self._enqueue_from(watch)
        watch.timer.deleteLater()

    def edited(self, frame_id: str) -> None:
        """The frame's document changed since its last save: mark it and (re)start its debounce."""
        watch = self._watches.get(frame_id)
        if watch is None:
            return
        if not watch.dirty:
            watch.dirty = True
            source = watch.source
            self.state_changed.emit(source.link.workspace, source.current_path(), "unsaved")
        watch.timer.start()

    def save_now(self, frame_id: str) -> None:
        """Queue the frame's pending edit at once (before a path change or a pop-out)."""
        watch = self._watches.get(frame_id)
        if watch is not None and watch.dirty:
            watch.timer.stop()
            self._enqueue_from(watch)

    def is_dirty(self, frame_id: str) -> bool:
        watch = self._watches.get(frame_id)
        return watch is not None and watch.dirty

    def pending_for(self, workspace: str, path: str) -> bool:
        """True while a save of that document is queued or in flight."""
        queue = self._queues.get((workspace, path))
        return queue is not None and queue.completed < queue.enqueued

    def loaded(self, workspace: str, path: str, etag: str | None) -> None:
        """A frame loaded the note with that tag (None: no saved copy yet); saves build on it.

        While a save of the note is in flight, that save's text is newer than the load's,
        so its own tag wins when it lands.
        """
        if not self.pending_for(workspace, path):
            self._tags[(workspace, path)] = ABSENT if etag is None else etag

    def tag_of(self, workspace: str, path: str) -> str | None:
        """The tag the next save of that note is conditional on (None: unconditional)."""
        return self._tags.get((workspace, path))

    def drop_pending(self, frame_id: str) -> None:
        """Forget the frame's unsaved edit (its text is kept elsewhere): nothing saves it."""
        watch = self._watches.get(frame_id)
        if watch is not None:
            watch.timer.stop()
            watch.dirty = False

    def rebase(self, workspace: str, path: str, etag: str, frame_id: str) -> None:
        """Save the frame's text over the note's current copy (tagged ``etag``) now (R53)."""
        self._tags[(workspace, path)] = etag
        watch = self._watches.get(frame_id)
        if watch is not None:
            watch.dirty = True
            watch.timer.stop()
            self._enqueue_from(watch)

    # -- flush (R10) -------------------------------------------------------

    def flush(self) -> FlushOperation:
        """Queue every pending edit now; the operation finishes when all queued saves land.

        The editors are read here, on the GUI thread; keystrokes typed after this
        call belong to the next save, not to this flush.
        """
        self._enqueue_pending()
        return self._track(
            {
                key: queue.enqueued
                for key, queue in self._queues.items()
                if queue.completed < queue.enqueued
            }
        )

    def when_saved(self, workspace: str, path: str, callback: Callable[[bool], None]) -> None:
        """Call ``callback(ok)`` on the GUI thread once that document's queued saves landed."""
        queue = self._queues.get((workspace, path))
        targets = {(workspace, path): queue.enqueued} if queue is not None else {}
        self._track(targets).finished.connect(callback)

    def keep_unsent(self) -> None:
        """Before the workers stop (the app is quitting): queue every pending edit, and keep
        every save still waiting behind another one.

        Once the workers stop, nothing starts the saves queued behind the ones in
        flight; their text goes to the recovery folder instead of being dropped.
        """
        self._enqueue_pending()
        self.stop_retries()
        if self.recovery is None:
            return
        for (workspace, path), queue in self._queues.items():
            job = queue.queued
            if job is not None:
                self.recovery.keep(workspace, path, job.text, SAVE_FAILED_MESSAGE, job.seq)

    # -- internals -----------------------------------------------------------

    def _enqueue_pending(self) -> None:
        for watch in list(self._watches.values()):
            if watch.dirty:
                watch.timer.stop()
                self._enqueue_from(watch)

    def _track(self, targets: dict[DocumentKey, int]) -> FlushOperation:
        operation = FlushOperation(targets, self._queues, self)
        operation.finished.connect(lambda _ok: self._drop_flush(operation))
        self.save_finished.connect(operation.save_finished)
        # Checked from the event loop so the caller can connect first.
        QTimer.singleShot(0, operation, operation.check)
        return operation

    def _save_watch(self, watch: _Watch) -> None:
        if watch.dirty and self._watches.get(watch.source.frame_id) is watch:
            self._enqueue_from(watch)

    def _enqueue_from(self, watch: _Watch) -> None:
        source = watch.source
        watch.dirty = False
        link = source.link
        key = (link.workspace, source.current_path())
        queue = self._queues.setdefault(key, _DocumentQueue())
        queue.enqueued += 1
        job = _SaveJob(key, link, source.take_text(), queue.enqueued)
        if queue.in_flight is None:
            self._start(queue, job)
        else:
            queue.queued = job  # replaces an older queued save: its text is older than this one
        self.state_changed.emit(key[0], key[1], "saving")

    def _start(self, queue: _DocumentQueue, job: _SaveJob) -> None:
        queue.in_flight = job
        job.tag = self._tags.get(job.key)

        workspace, path, text = job.key[0], job.key[1], job.text
        recovery = self.recovery
        if_match = job.tag or None
        if_none_match = job.tag == ABSENT

        def put() -> object:
            # Runs on a worker: the text is kept before the failure reaches the GUI thread,
            # which may never see it when the app is quitting.
            try:
                info = job.link.call(
                    lambda client, session: client.put_document(
                        session, path, text, if_match=if_match, if_none_match=if_none_match
                    )
                )
            except BaseException as error:
                if recovery is not None:
                    recovery.keep(workspace, path, text, _failure_message(error), job.seq)
                raise
            if recovery is not None:
                recovery.saved(workspace, path, job.seq)
            return info

        started = self._runner.submit(
            put,
            on_done=lambda _info: self._finish(job, None),
            on_error=lambda error: self._finish(job, error),
        )
        if started is None:  # shutting down: nothing more will land, so keep the text
            queue.in_flight = None
            if recovery is not None:
                recovery.keep(workspace, path, text, SAVE_FAILED_MESSAGE, job.seq)

    def _finish(self, job: _SaveJob, error: BaseException | None) -> None:
        queue = self._queues[job.key]
        queue.in_flight = None
        queue.completed = max(queue.completed, job.seq)
        if error is None and job.key in self._tags:
            self._tags[job.key] = etag_of(job.text.encode("utf-8"))
        conflict = isinstance(error, PreconditionFailed)
        if error is None or conflict:
            self._forget_retry(job.key)
        else:
            self._retry_later(job)
        if conflict:
            # The text is kept (the worker did); the frame asks which text to keep.
            self.save_conflict.emit(job.key[0], job.key[1])
        elif error is not None:
            # Keep the text pending so the next edit or flush tries again: nothing is lost.
            for watch in self._watches.values():
                if (watch.source.link.workspace, watch.source.current_path()) == job.key:
                    watch.dirty = True
            self.save_failed.emit(job.key[0], job.key[1], _failure_message(error))
        if conflict and queue.queued is not None:
            # Built on the same stale tag, it would be refused too: keep its text instead.
            dropped, queue.queued = queue.queued, None
            queue.completed = max(queue.completed, dropped.seq)
            if self.recovery is not None:
                self.recovery.keep(*job.key, dropped.text, NOTE_CHANGED_MESSAGE, dropped.seq)
        if queue.queued is not None:
            following, queue.queued = queue.queued, None
            self._start(queue, following)
        else:
            state: SaveState = "error" if error is not None else "saved"
            if error is None and self._has_dirty(job.key):
                state = "unsaved"
            self.state_changed.emit(job.key[0], job.key[1], state)
        self.save_finished.emit(job.key, error is None)

    # -- trying again (R76) -------------------------------------------------------------

    def _retry_later(self, job: _SaveJob) -> None:
        """Try the failed save again after a pause that grows with each failure in a row.

        The disk may fill up and empty again, the backend may be busy for a while: the
        note is saved once it can be, with no edit needed, and its badge says so.
        """
        if not self._retry_delays_ms or not self._retrying:
            return
        retry = self._retries.get(job.key)
        if retry is None:
            timer = QTimer(self)
            timer.setSingleShot(True)
            retry = _Retry(timer, job)
            timer.timeout.connect(lambda key=job.key: self._retry_now(key))
            self._retries[job.key] = retry
        retry.job = job
        delays = self._retry_delays_ms
        retry.timer.start(delays[min(retry.failures, len(delays) - 1)])
        retry.failures += 1

    def _retry_now(self, key: DocumentKey) -> None:
        retry = self._retries.get(key)
        if retry is None:
            return
        for watch in list(self._watches.values()):
            if watch.dirty and (watch.source.link.workspace, watch.source.current_path()) == key:
                watch.timer.stop()
                self._enqueue_from(watch)  # the editor's text now: newer than the failed one
                return
        if self.recovery is None or not self.recovery.unprotected(*key):
            # No frame holds the text and its safety copy is kept: restoring it is the
            # person's choice (the banner offers it), not a save behind their back.
            self._forget_retry(key)
            return
        queue = self._queues.setdefault(key, _DocumentQueue())
        if queue.in_flight is not None or queue.queued is not None:
            return  # a newer save is on its way; its outcome decides what follows
        # No frame holds the text and no file does either: the failed text must land.
        queue.enqueued += 1
        self._start(queue, _SaveJob(key, retry.job.link, retry.job.text, queue.enqueued))
        self.state_changed.emit(key[0], key[1], "saving")

    def _forget_retry(self, key: DocumentKey) -> None:
        retry = self._retries.pop(key, None)
        if retry is not None:
            retry.timer.stop()
            retry.timer.deleteLater()

    def stop_retries(self) -> None:
        """Quitting: the saves queued now are the last; their failures are kept, not retried."""
        self._retrying = False
        for key in list(self._retries):
            self._forget_retry(key)

    def failed_text(self, workspace: str, path: str) -> str | None:
        """The text of that note's last failed save, while it waits to be tried again."""
        retry = self._retries.get((workspace, path))
        return retry.job.text if retry is not None else None

    def retry_pending(self, workspace: str, path: str) -> bool:
        """Whether a failed save of that note waits to be tried again."""
        return (workspace, path) in self._retries

    def _has_dirty(self, key: DocumentKey) -> bool:
        return any(
            watch.dirty
            and watch.source.link.workspace == key[0]
            and watch.source.current_path() == key[1]
            for watch in self._watches.values()
        )

    def _drop_flush(self, operation: FlushOperation) -> None:
        self.save_finished.disconnect(operation.save_finished)
        operation.deleteLater()


def _failure_message(error: BaseException) -> str:
    """What failed, in plain words: the backend's reason, or what the system said (R76).

    A save whose connection could not even be opened must not read as "the service
    can't be reached": the service may be fine while this process has run out of files.
    """
    system = _system_error(error)
    if system is not None and system.errno in (errno.EMFILE, errno.ENFILE):
        return OUT_OF_FILES_MESSAGE
    if system is not None and system.errno in (errno.ENOSPC, errno.EDQUOT):
        return DISK_FULL_MESSAGE
    message = str(getattr(error, "message", None) or SAVE_FAILED_MESSAGE)
    if isinstance(error, BackendUnreachable) and system is not None and system.strerror:
        return f"{message.rstrip('.')} ({system.strerror})."
    return message


def _system_error(error: BaseException) -> OSError | None:
    """The operating system's error under ``error`` (through causes and wrapped reasons)."""
    seen: set[int] = set()
    pending: list[object] = [error]
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno is not None:
            return current
        # requests and urllib3 wrap the socket's error as a cause, a context or an argument.
        pending.extend([current.__cause__, current.__context__, getattr(current, "reason", None)])
        pending.extend(current.args)
    return None
