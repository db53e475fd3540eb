"""Reporting what became of each proposal, one report at a time per proposal (R50, R80).

Apply, Ctrl+Z and Ctrl+Y can follow each other faster than a report reaches the
backend, and the runner has several workers: reports of one proposal sent side by
side could land out of order and keep "applied" for a change that was undone. So a
proposal has at most one report in flight; the latest outcome asked for meanwhile is
sent when it ends.
"""

from __future__ import annotations

from functools import partial

from renderer.ambient import assistant_calls as calls
from renderer.ambient.backend import WorkspaceLink
from renderer.qt.tasks import TaskRunner, log_failure


class OutcomeReports:
    """The outcome reports of a frame's proposals, kept in order per proposal."""

    def __init__(self, runner: TaskRunner) -> None:
        self._runner = runner
        self._waiting: dict[tuple[str, str], str | None] = {}
        """(conversation, proposal) with a report in flight → the outcome to send next."""

    def report(self, link: WorkspaceLink, conversation: str, proposal: str, outcome: str) -> None:
        key = (conversation, proposal)
        if key in self._waiting:
            self._waiting[key] = outcome
            return
        self._send(link, key, outcome)

    def _send(self, link: WorkspaceLink, key: tuple[str, str], outcome: str) -> None:
        self._waiting[key] = None

        def ended(_value: object = None) -> None:
            following = self._waiting.pop(key, None)
            if following is not None and following != outcome:
                self._send(link, key, following)

        def failed(error: BaseException) -> None:
            log_failure(error)  # the change stands, only its record is missed
            ended()

        self._runner.submit(
            partial(calls.report_proposal, link, key[0], key[1], outcome),
            on_done=ended,
            on_error=failed,
        )
