"""The record of one assistant turn, as the transcript and tests see it."""

from __future__ import annotations

from dataclasses import dataclass

from bridge.drops import DropReason
from bridge.wire import TurnAnswer
from renderer.ambient.capture import CaptureResult
from renderer.ambient.elsewhere import (
    ACTIVE_NOTE_TOOL,
    NOWHERE_ELSE,
    Elsewhere,
    fallback_notice,
    read_elsewhere,
    read_elsewhere_caveat,
)


@dataclass(frozen=True)
class TurnRecord:
    """One send: what was captured, what came back, and how long the preparation took."""

    message: str
    capture: CaptureResult
    reply: TurnAnswer | None
    error: str | None
    flushed: bool | None
    """Whether the pre-send flush completed; None when no preparation ran (no note, excluded)."""
    conversation: str
    preparation_seconds: float = 0.0
    stopped: bool = False
    """The user stopped the turn (Stop, Esc) before its reply was complete (R35)."""
    streamed: str = ""
    """The reply's text as it had streamed when the turn ended."""
    flush_timed_out: bool = False
    """The 1.5 s bound ran out while a save was still running (R12)."""
    elsewhere: Elsewhere = NOWHERE_ELSE
    """The workspace's notes open in other windows, as the turn saw them (R29)."""

    @property
    def header_bytes(self) -> int:
        return self.capture.header_bytes

    @property
    def dropped(self) -> DropReason | None:
        return self.capture.dropped

    @property
    def caveats(self) -> list[str]:
        """Caveats the tools returned (R25), in call order."""
        if self.reply is None:
            return []
        found: list[str] = []
        for call in self.reply.tool_calls:
            result = call.result
            if isinstance(result, dict):
                caveat = result.get("caveat")
                if isinstance(caveat, str) and caveat:
                    found.append(caveat)
        return found

    @property
    def fallback_notice(self) -> str | None:
        """Why the turn is about another note: the one that was "this note" popped out (R29)."""
        if self.dropped not in (None, "no-inbox"):
            return None  # left out, or a note that could not be sent: said on its own
        if self.reply is None or not any(
            call.name == ACTIVE_NOTE_TOOL for call in self.reply.tool_calls
        ):
            return None  # it answered without "this note": a greeting, a note named by path
        pointer = self.capture.pointer
        return fallback_notice(self.elsewhere, None if pointer is None else pointer.path)

    @property
    def elsewhere_caveats(self) -> list[str]:
        """R25 for notes read by name while their own window may hold newer edits (R29)."""
        if self.reply is None:
            return []
        calls = [(call.name, call.result) for call in self.reply.tool_calls]
        return [read_elsewhere_caveat(path) for path in read_elsewhere(calls, self.elsewhere)]
