"""Reviewing and applying the assistant's proposals in the window (R51, R52).

When a turn brings proposals, the text each was computed from (its base) is found:
the live editor of a frame showing the note when its text is the base, else the
saved copy when that still is. From then on the edits follow the frame's document
(:class:`renderer.qt.edits.TrackedEdits`), so Apply costs what the replacements
cost. Apply changes the live editor as one undo step when a frame shows the note,
else the saved copy with ``If-Match`` (R53). An edit whose range the person changed
refuses the whole proposal, which stays; once they undo that change, Apply moves
the edits onto the text as it is then (:func:`bridge.proposals.rebase`).
A proposal made in another workspace never applies (R7).
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QObject, Signal
from shiboken6 import isValid

from app.session import AppSession
from app.window.frame_registry import FrameRegistry
from bridge.errors import BackendError, PreconditionFailed
from bridge.proposals import apply_edits, rebase
from renderer.frames.assistant.proposal_view import OTHER_WORKSPACE, ProposalView
from renderer.frames.inbox.frame import InboxFrame
from renderer.qt.edits import TrackedEdits, UndoFollower, apply_to_document


class ProposalApplier(QObject):
    """Finds each proposal's base, then applies or discards it when the person says so."""

    finished = Signal(object)
    """The :class:`ProposalView` whose Apply ended (applied, conflict or refused)."""

    def __init__(self, session: AppSession, registry: FrameRegistry) -> None:
        super().__init__()
        self._session = session
        self._registry = registry
        self.latest: ProposalView | None = None
        """The proposal of the latest Apply (QA's ``applied`` and ``conflict``)."""
        self.applies = 0
        """How many Applies have ended."""
        self._tracked: dict[ProposalView, tuple[InboxFrame, TrackedEdits]] = {}
        self._followers: dict[ProposalView, UndoFollower] = {}
        """Each proposal applied to a live editor: whether Undo took it out again (R80)."""

    def review(self, views: list[ProposalView]) -> None:
        """Show each proposal's diff once its base text is known (R51)."""
        for view in views:
            view.apply_requested.connect(self.apply)
            view.discarded.connect(self._untrack)
            self._find_base(view)

    def _find_base(self, view: ProposalView) -> None:
        """Find the proposal's base: a frame's live text, else the saved copy (R51).

        The texts are hashed on a worker, never on the GUI thread (a 1 MiB note takes
        about 9 ms). A frame typed in meanwhile is looked at again.
        """
        proposal = view.proposal
        if view.workspace != self._session.workspace:
            view.show_unavailable()
            return
        link, path = self._session.link, proposal.path
        snapshots = [
            (frame, frame.editor.document().revision(), frame.read_text())
            for frame in self._registry.showing(path)
        ]

        def find() -> tuple[int, str] | None:
            for index, (_frame, _revision, live) in enumerate(snapshots):
                if proposal.is_base(live):
                    return index, live
            text, _etag = link.call(
                lambda client, session: client.get_document_tagged(session, path)
            )
            return (-1, text) if proposal.is_base(text) else None

        def found(value: object) -> None:
            if not isValid(view):  # its review window closed while the base was looked for
                return
            if value is None:
                view.show_unavailable()
                return
            index, text = cast(tuple[int, str], value)
            if index >= 0:
                frame, revision, _live = snapshots[index]
                showing = frame in self._registry.showing(path)
                if not showing or frame.editor.document().revision() != revision:
                    self._find_base(view)  # closed or typed in meanwhile: look again
                    return
                view.show_base(text)
                self._track(view, frame, text, text)
                return
            view.show_base(text)
            for frame in self._registry.showing(path)[:1]:
                self._track(view, frame, text, frame.read_text())

        def failed(_error: BaseException) -> None:
            if isValid(view):
                view.show_unavailable()

        self._session.runner.submit(find, on_done=found, on_error=failed)

    def _track(self, view: ProposalView, frame: InboxFrame, base: str, live: str) -> None:
        """Follow the edits in the frame's document from now on (not when already touched)."""
        moved = rebase(base, live, view.proposal.edits)
        if moved is not None:
            tracker = TrackedEdits(frame.editor.document(), live, moved, self)
            self._tracked[view] = (frame, tracker)

    def _untrack(self, view: ProposalView) -> None:
        tracked = self._tracked.pop(view, None)
        if tracked is not None:
            tracked[1].close()
            tracked[1].deleteLater()

    def apply(self, view: ProposalView) -> None:
        """Apply the proposal to the live editor, or to the saved copy (R52)."""
        self.latest = view
        if view.workspace != self._session.workspace:
            view.show_conflict(OTHER_WORKSPACE.format(workspace=view.workspace))
            self._ended(view)
            return
        base = view.base_text
        if base is None or view.state not in ("ready", "conflict", "undone"):
            self._ended(view)
            return
        frames = self._registry.showing(view.proposal.path)
        tracked = self._tracked.get(view)
        if tracked is not None and tracked[0] in frames:
            steps = tracked[0].editor.document().availableUndoSteps()
            if tracked[1].apply():
                self._untrack(view)
                self._applied_live(view, tracked[0], steps)
                self._ended(view)
                return
        if frames:
            frame = frames[0]
            live = frame.read_text()
            moved = rebase(base, live, view.proposal.edits)
            if moved is None:
                view.show_conflict()
            else:
                self._untrack(view)
                steps = frame.editor.document().availableUndoSteps()
                apply_to_document(frame.editor.document(), live, moved)
                self._applied_live(view, frame, steps)
            self._ended(view)
            return
        self._apply_saved(view, base)

    def _applied_live(self, view: ProposalView, frame: InboxFrame, steps: int) -> None:
        """The change is in the frame's editor: the card follows its Undo and Redo (R80)."""
        self._unfollow(view)
        follower = UndoFollower(frame.editor.document(), steps, self)
        follower.undone.connect(lambda: self._undone(view))
        follower.redone.connect(lambda: self._redone(view, frame.frame_id))
        self._followers[view] = follower
        view.discarded.connect(self._unfollow)
        view.destroyed.connect(lambda: self._unfollow(view))
        view.show_applied(frame.frame_id)

    def _undone(self, view: ProposalView) -> None:
        if isValid(view):
            view.show_undone()

    def _redone(self, view: ProposalView, frame_id: str) -> None:
        if isValid(view) and view.state == "undone":
            view.show_applied(frame_id)

    def _unfollow(self, view: ProposalView) -> None:
        follower = self._followers.pop(view, None)
        if follower is not None:
            follower.close()
            follower.deleteLater()

    def _apply_saved(self, view: ProposalView, base: str) -> None:
        link, path = self._session.link, view.proposal.path
        edits = view.proposal.edits

        def write() -> bool:
            text, etag = link.call(
                lambda client, session: client.get_document_tagged(session, path)
            )
            moved = rebase(base, text, edits)
            if moved is None:
                return False
            new = apply_edits(text, moved)
            link.call(
                lambda client, session: client.put_document(session, path, new, if_match=etag)
            )
            return True

        def done(value: object) -> None:
            if value:
                view.show_applied(None)
            else:
                view.show_conflict()
            self._ended(view)

        def failed(error: BaseException) -> None:
            if isinstance(error, PreconditionFailed):
                view.show_conflict()  # changed between the read and the write
            else:
                reason = error.message if isinstance(error, BackendError) else str(error)
                view.show_conflict(f"The change could not be applied: {reason}")
            self._ended(view)

        self._session.runner.submit(write, on_done=done, on_error=failed)

    def _ended(self, view: ProposalView) -> None:
        self.applies += 1
        self.finished.emit(view)
