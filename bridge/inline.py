"""The Inline AI command on the wire: its request, its stream, its addresses (R68–R74, c. 13).

Both realms import these: the renderer builds an :class:`InlineRequest` from the live
editor (``renderer.ambient.inline``), the backend checks the same limits and answers a
:class:`bridge.wire.InlineAnswer`. The request carries a bounded slice of the note; it is
never an ambient pointer and never goes near ``X-Ambient-Note``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final, cast
from urllib.parse import quote

from bridge.agent import (
    EVENT_DELTA,
    EVENT_DONE,
    EVENT_ERROR,
    DeltaEvent,
    DoneEvent,
    ErrorEvent,
    TurnStream,
    not_understood,
)
from bridge.contract import MAX_SELECTION_BYTES
from bridge.transport import workspace_url
from bridge.wire import InlineAnswer, format_lines

OUTCOME_PENDING: Final = "pending"
OUTCOME_ACCEPTED: Final = "accepted"
OUTCOME_REJECTED: Final = "rejected"
OUTCOME_FAILED: Final = "failed"

HISTORY_LIMIT: Final = 10
"""The records the prompt's menu shows, and the history route's default ``limit``."""
MAX_HISTORY_LIMIT: Final = 100

SELECTION_TOO_LARGE: Final = (
    f"The selection is larger than {MAX_SELECTION_BYTES // 1024} KiB "
    f"({MAX_SELECTION_BYTES:,} bytes), the most the inline command "
    "sends. Select less and ask again."
)
"""R69: said before anything is sent (and by the backend for a body that passes it)."""


def utf8_size(text: str) -> int:
    """UTF-8 bytes of ``text``; a lone surrogate from an editor counts as its three bytes."""
    return len(text.encode("utf-8", errors="surrogatepass"))


def inline_url(workspace: str) -> str:
    return f"{workspace_url(workspace)}/inline"


def inline_outcome_url(workspace: str, request_id: str) -> str:
    return f"{inline_url(workspace)}/{quote(request_id, safe='')}"


def _lines_word(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {format_lines(first, last)}"


@dataclass(frozen=True)
class InlineRequest:
    """What one inline request sends (contract 13): the instruction and a bounded slice.

    ``before`` is empty or ends with a line break; ``after`` starts right after the
    selection; ``lines`` are the 1-based first and last line the slice touches.
    """

    instruction: str
    path: str
    before: str
    selection: str
    after: str
    lines: tuple[int, int]

    @property
    def bytes(self) -> int:
        """Contract 13: the UTF-8 bytes of ``before`` + ``selection`` + ``after``."""
        return utf8_size(self.before) + utf8_size(self.selection) + utf8_size(self.after)

    def sent_text(self) -> str:
        """R69's line under the prompt, naming the selected lines and the context apart.

        "Sent lines 21–25 (with 20 lines around them) of notes/a.md (1,930 bytes)": the
        slice's own line range (``lines``) would read as if all of it was the selection.
        """
        first, last = self.lines
        size = self.bytes
        where = f"of {self.path} ({size:,} byte{'s' if size != 1 else ''})"
        if not self.selection:
            return f"Sent {_lines_word(first, last)} around the cursor {where}"
        selected_first = first + self.before.count("\n")
        selected = self.selection.count("\n") + (0 if self.selection.endswith("\n") else 1)
        selected_last = selected_first + max(selected, 1) - 1
        around = max(0, (last - first + 1) - (selected_last - selected_first + 1))
        shown = _lines_word(selected_first, selected_last)
        if not around:
            return f"Sent {shown} {where}"
        pronoun = "it" if selected_first == selected_last else "them"
        context = f"{around} line{'s' if around != 1 else ''}"
        return f"Sent {shown} (with {context} around {pronoun}) {where}"

    def to_json(self) -> dict[str, Any]:
        return {
            "instruction": self.instruction,
            "path": self.path,
            "before": self.before,
            "selection": self.selection,
            "after": self.after,
            "lines": [self.lines[0], self.lines[1]],
        }


InlineEvent = DeltaEvent | DoneEvent[InlineAnswer] | ErrorEvent
"""An inline stream's events as the app reads them (contract 13)."""


def inline_event(event: str, data: str) -> InlineEvent | None:
    """One parsed event of an inline stream, or None for one this client does not know."""
    try:
        body = json.loads(data)
        if event == EVENT_DELTA:
            return DeltaEvent(str(body["text"]))
        if event == EVENT_DONE:
            return DoneEvent(InlineAnswer.model_validate(body))
        if event == EVENT_ERROR:
            return ErrorEvent(str(body["error"]["code"]), str(body["error"]["message"]))
    except (ValueError, KeyError, TypeError) as error:  # pydantic's ValidationError too
        raise not_understood() from error
    return None


class InlineStream(TurnStream):
    """A streamed inline request: :meth:`events` in order; ``cancel()`` from any thread."""

    def _parse(self, event: str, data: str) -> Any:
        return inline_event(event, data)

    def events(self) -> Iterator[InlineEvent]:
        for event in self:
            yield cast(InlineEvent, event)
