"""``openDiff`` as the edit review (R51): another tool's change, shown, applied or discarded.

The change becomes a proposal over the note's text as it is now: the live editor
when a frame of this window shows the note, else the saved copy. It shows in a
review window of its own with the assistant's review (:class:`ProposalView`) and is
applied by the same :class:`~app.assistant.proposals.ProposalApplier`: into the editor as
one undo step, or, when no frame shows the note, to the saved copy with
``If-Match`` (R53). No frame is opened for it. Apply answers ``ide/diffAccepted``
with the note's text afterwards, Discard (or closing the window) ``ide/diffRejected``.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget

from app.assistant.proposals import ProposalApplier
from app.sidecar.notes import NoteAccess
from bridge.paths import PATH_NOT_ALLOWED
from bridge.proposals import changed_span
from bridge.wire import Proposal, ProposalBase, ProposalEdit
from renderer.frames.assistant.proposal_view import ProposalView

Reply = Callable[[object], None]
Notify = Callable[[str, dict[str, Any], str | None], None]
"""(method, params, session id): a notification to the tool that asked."""

REVIEW_TITLE = "A change from another tool"
REVIEW_INTRO = "Another tool proposes this change to {path}. Nothing changes before Apply."
MAX_REVIEWS = 5
"""Review windows from tools open at once at most (R78): each is a window on the screen."""
TOO_MANY_REVIEWS = (
    f"{MAX_REVIEWS} changes from other tools are already waiting for review; "
    "ask again once the person has answered one."
)


class Refused(ValueError):
    """A request the sidecar refuses: its message goes back as an error, never as content."""


@dataclass
class _Review:
    file_path: str
    path: str
    session_id: str | None
    dialog: QDialog
    view: ProposalView
    answered: bool = False


class DiffReviews(QObject):
    """The open reviews by workspace path; at most one per note (a new one replaces it)."""

    def __init__(
        self, notes: NoteAccess, applier: ProposalApplier, notify: Notify, window: QWidget
    ) -> None:
        super().__init__(window)
        self._notes = notes
        self._applier = applier
        self._notify = notify
        self._window = window
        self._reviews: dict[str, _Review] = {}
        self._ids = itertools.count(1)
        applier.finished.connect(self._on_apply_ended)

    def open(self, file_path: str, new_content: str, session_id: str | None, reply: Reply) -> None:
        """GUI thread: show the review, then ``reply(None)``; or ``reply(reason)``."""
        try:
            path = self._notes.relative(file_path)
        except ValueError as error:
            reply(PATH_NOT_ALLOWED.format(reason=error))
            return
        if path not in self._reviews and len(self._reviews) >= MAX_REVIEWS:
            reply(TOO_MANY_REVIEWS)
            return
        frames = self._notes.registry.showing(path)
        if frames:
            self._show(file_path, path, frames[0].read_text(), new_content, session_id)
            reply(None)
            return

        def saved(answer: object) -> None:
            if not isinstance(answer, str):
                reply(getattr(answer, "message", str(answer)))
                return
            if path not in self._reviews and len(self._reviews) >= MAX_REVIEWS:
                reply(TOO_MANY_REVIEWS)  # others opened while this one was read
                return
            self._show(file_path, path, answer, new_content, session_id)
            reply(None)

        self._notes.on_worker(lambda client, key: client.get_document(key, path), saved)

    def close(self, file_path: str, reply: Reply) -> None:
        """GUI thread: close the review without answering it; ``reply`` the note's text.

        A refusal is replied as :class:`Refused`, so it is an error (R78), not the text.
        """
        try:
            path = self._notes.relative(file_path)
        except ValueError as error:
            reply(Refused(PATH_NOT_ALLOWED.format(reason=error)))
            return
        review = self._reviews.get(path)
        if review is not None:
            review.answered = True  # the tool closed it: it knows, no notification
            review.view.discard()  # ends the review as the assistant's Discard does
        self._current_text(path, reply)

    def close_all(self) -> None:
        """Sharing stops: every open review is closed as discarded."""
        for review in list(self._reviews.values()):
            review.dialog.close()

    @property
    def open_reviews(self) -> list[ProposalView]:
        return [review.view for review in self._reviews.values()]

    # -- showing and answering -----------------------------------------------------------

    def _show(
        self, file_path: str, path: str, base: str, new_content: str, session_id: str | None
    ) -> None:
        previous = self._reviews.pop(path, None)
        if previous is not None:
            previous.dialog.close()
        proposal = _proposal(f"open-diff-{next(self._ids)}", path, base, new_content)
        dialog = QDialog(self._window)
        dialog.setWindowTitle(REVIEW_TITLE)
        dialog.setModal(False)
        view = ProposalView(proposal, self._notes.workspace, dialog)
        layout = QVBoxLayout(dialog)
        layout.addWidget(QLabel(REVIEW_INTRO.format(path=path), dialog))
        layout.addWidget(view)
        review = _Review(file_path, path, session_id, dialog, view)
        self._reviews[path] = review
        view.discarded.connect(lambda _view: self._rejected(review))
        dialog.finished.connect(lambda _code: self._dialog_closed(review))
        self._applier.review([view])
        dialog.show()

    def _on_apply_ended(self, view: object) -> None:
        review = next((r for r in self._reviews.values() if r.view is view), None)
        if review is None or review.view.state != "applied":
            return  # a conflict keeps the review open: the person may apply again (R52)
        review.answered = True

        def send(text: object) -> None:
            if isinstance(text, str):
                params = {"filePath": review.file_path, "content": text}
                self._notify("ide/diffAccepted", params, review.session_id)

        self._current_text(review.path, send)
        self._forget(review)
        review.dialog.close()

    def _rejected(self, review: _Review) -> None:
        if not review.answered:
            review.answered = True
            self._notify("ide/diffRejected", {"filePath": review.file_path}, review.session_id)
        self._forget(review)
        review.dialog.close()

    def _dialog_closed(self, review: _Review) -> None:
        if not review.answered:
            review.view.discard()  # closing the window is discarding: the tool hears of it
        self._forget(review)
        review.dialog.deleteLater()

    def _forget(self, review: _Review) -> None:
        if self._reviews.get(review.path) is review:
            del self._reviews[review.path]

    def _current_text(self, path: str, reply: Reply) -> None:
        """The live editor's text when a frame shows ``path``, else the saved copy."""
        frames = self._notes.registry.showing(path)
        if frames:
            reply(frames[0].read_text())
            return
        self._notes.on_worker(lambda client, key: client.get_document(key, path), reply)


def _proposal(proposal_id: str, path: str, base: str, new_content: str) -> Proposal:
    """``new_content`` as one edit over ``base``: the span between their common ends."""
    start, base_end, new_end = changed_span(base, new_content)
    text = new_content[start:new_end]
    data = base.encode("utf-8", errors="surrogatepass")
    # Built unvalidated: the app made every value itself, and validating the new text
    # would copy up to megabytes on the GUI thread (R78).
    return Proposal.model_construct(
        id=proposal_id,
        path=path,
        base=ProposalBase(bytes=len(data), sha256=hashlib.sha256(data).hexdigest()),
        edits=[ProposalEdit.model_construct(start=start, end=base_end, text=text)]
        if base != new_content
        else [],
        summary=f"A change to {path} from another tool",
    )
