"""The app's side of private notes (R86): who shows a lock, and marking a note private or shared.

The rules themselves are :mod:`bridge.privacy`'s, read through the store
(:attr:`AmbientStore.privacy`), so a send, the chip, the lock and the workspace list
ask one declaration. :class:`PrivacyMarks` edits ``.aiexclude`` off the GUI thread
and looks at the file every :data:`PRIVACY_POLL_MS` (one ``lstat``), so a change made
by hand or by another tool shows in the chip, the locks and the list by itself, and
a file that cannot be read reaches the banner.

With a remote backend the folder is not on this machine: the file is read through
the document API on a worker at each look, and until the first reading arrives every
note counts as private (nothing is named to the assistant before the app knows).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal

from bridge.client import BackendClient, WireKeySession
from bridge.errors import NotFound, PreconditionFailed
from bridge.privacy import (
    AIEXCLUDE,
    NOTHING_PRIVATE,
    PrivacyRules,
    WorkspacePrivacy,
    marked_text,
    rules_of_text,
    still_private,
)
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.store import AmbientStore
from renderer.qt.tasks import TaskRunner

PRIVACY_POLL_MS = 2000
"""How often the app looks at ``.aiexclude`` for changes made elsewhere: one ``lstat``."""
MARK_FAILED = "The note's privacy could not be changed: {reason}"
CHANGED_MEANWHILE = (
    "The workspace's .aiexclude changed while it was being edited, so nothing was changed. "
    "Try again."
)
READ_HERE_BYTES = 1024
"""A changed ``.aiexclude`` up to this size is read on the GUI thread when asked (a few dozen
lines compile in milliseconds); a larger one on a worker, every note private meanwhile."""
PENDING = PrivacyRules(None, pending=True)
"""A remote workspace whose ``.aiexclude`` has not been read yet: every note counts as private."""

Marked = Callable[[str | None], None]
"""Told on the GUI thread: None when done, or a sentence saying why it is not as asked."""


def read_remote_rules(link: WorkspaceLink) -> PrivacyRules:
    """A remote workspace's ``.aiexclude`` through the document API (blocks: a worker's call)."""
    try:
        text = link.call(lambda client, key: client.get_document(key, AIEXCLUDE))
    except NotFound:
        return NOTHING_PRIVATE
    return rules_of_text(text)


def _mark_remote(link: WorkspaceLink, path: str, private: bool, folder: bool) -> str | None:
    """Remote backend: edit ``.aiexclude`` through the document API, only over what was read.

    The save is conditional (R53): if another tool changed the file meanwhile, nothing is
    written and the person is told to try again.
    """

    def edit(client: BackendClient, key: WireKeySession) -> str | None:
        try:
            current, etag = client.get_document_tagged(key, AIEXCLUDE)
        except NotFound:
            current, etag = "", None
        text = marked_text(current, path, private, folder=folder)
        try:
            client.put_document(key, AIEXCLUDE, text, if_match=etag, if_none_match=etag is None)
        except PreconditionFailed:
            return CHANGED_MEANWHILE
        return still_private(rules_of_text(text), path, private, folder=folder)

    return link.call(edit)


class PrivacyMarks(QObject):
    """Reads and edits the open workspace's ``.aiexclude`` for the frames (GUI thread)."""

    changed = Signal()
    """``.aiexclude`` reads differently now: locks, lists and the chip look again."""
    problem_changed = Signal(object)
    """``str`` why the file can't be read (every note private meanwhile), or None."""

    def __init__(
        self,
        watcher: Callable[[], WorkspacePrivacy | None],
        store: AmbientStore,
        runner: TaskRunner,
        link: Callable[[], WorkspaceLink] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._watcher = watcher
        self._store = store
        self._runner = runner
        self._link = link
        self._remote: dict[str, PrivacyRules] = {}
        """With a remote backend: each workspace's latest reading of its ``.aiexclude``."""
        self._fetching = False
        self._reading = False
        self._seen: PrivacyRules | None = None
        self.problem: str | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(PRIVACY_POLL_MS)
        self._poll.timeout.connect(self.check)

    def start(self) -> None:
        """Read the file now and then look at it again every few seconds."""
        self.check()
        self._poll.start()

    def stop(self) -> None:
        self._poll.stop()

    @property
    def editable(self) -> bool:
        """Whether the app can edit the file: in its folder here, or through the backend."""
        return self._watcher() is not None or self._link is not None

    def is_private(self, path: str) -> bool:
        return self._store.is_private(path)

    def rules(self) -> PrivacyRules:
        """The open workspace's rules: the local file, or the backend's latest copy of it."""
        watcher = self._watcher()
        if watcher is not None:
            known, size = watcher.peek()
            if known is not None:
                return known
            if size <= READ_HERE_BYTES:
                return watcher.rules()  # a person's few lines: read and compiled at once
            self._read_elsewhere(watcher)
            return PENDING  # every note private until the worker has read it
        if self._link is None:
            return NOTHING_PRIVATE
        return self._remote.get(self._link().workspace, PENDING)

    def check(self) -> None:
        """Read the rules (cheap when unchanged); tell everyone when they read differently."""
        if self._watcher() is None:
            self._fetch()
        rules = self._store.privacy()
        if rules is self._seen:
            return
        self._seen = rules
        self._store.privacy_changed()
        self.changed.emit()
        if rules.problem != self.problem:
            self.problem = rules.problem
            self.problem_changed.emit(rules.problem)

    def _read_elsewhere(self, watcher: WorkspacePrivacy) -> None:
        """A large changed file is read and compiled on a worker, never on the GUI thread."""
        if self._reading:
            return
        self._reading = True

        def done(_rules: object) -> None:
            self._reading = False
            self.check()

        def failed(_error: BaseException) -> None:
            self._reading = False

        if self._runner.submit(watcher.rules, on_done=done, on_error=failed, held=False) is None:
            self._reading = False

    def _fetch(self) -> None:
        """Remote backend: read ``.aiexclude`` through the document API on a worker."""
        if self._link is None or self._fetching:
            return
        link = self._link()
        self._fetching = True

        def fetch() -> PrivacyRules:
            return read_remote_rules(link)

        def done(rules: object) -> None:
            self._fetching = False
            if isinstance(rules, PrivacyRules):
                self._remote[link.workspace] = rules
                self.check()

        def failed(error: BaseException) -> None:
            self._fetching = False  # kept as it was: pending stays private; tried again soon

        if self._runner.submit(fetch, on_done=done, on_error=failed, held=False) is None:
            self._fetching = False

    def known(self, workspace: str, rules: PrivacyRules) -> None:
        """A remote workspace's rules read elsewhere (at start, before the window exists)."""
        self._remote[workspace] = rules

    def set_private(
        self, path: str, private: bool, *, folder: bool = False, on_done: Marked | None = None
    ) -> bool:
        """Keep ``path`` (a note, or a folder) from the assistant or share it; False if it can't.

        The file is written on a worker (a write and two syncs); the answer and the
        change reach the GUI thread afterwards.
        """
        watcher = self._watcher()
        work: Callable[[], str | None]
        if watcher is not None:
            work = partial(watcher.set_private, path, private, folder=folder)
        elif self._link is not None:
            work = partial(_mark_remote, self._link(), path, private, folder)
        else:
            return False

        def done(outcome: object) -> None:
            self.check()
            if on_done is not None:
                on_done(outcome if isinstance(outcome, str) else None)

        def failed(error: BaseException) -> None:
            self.check()
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            if on_done is not None:
                on_done(MARK_FAILED.format(reason=reason))

        submitted = self._runner.submit(
            work,
            on_done=done,
            on_error=failed,
            held=False,
        )
        return submitted is not None
