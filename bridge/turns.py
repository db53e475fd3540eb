"""One assistant send for callers without a GUI: capture the pointer, then post the turn (R9–R16).

The desktop app splits the same steps across threads itself (begin on the GUI
thread, flush and post on workers); scripts, the QA tools and tests use
:func:`send_turn`, which blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridge.client import BackendClient, KeySession, TurnReply
from bridge.pointer import AmbientPointer
from renderer.ambient.capture import (
    FLUSH_LIMIT_SECONDS,
    CaptureResult,
    DropReason,
    Flush,
    FutureWaiter,
    capture_pointer,
    wait_for_future,
)
from renderer.ambient.clock import Clock
from renderer.ambient.store import AmbientStore


@dataclass(frozen=True)
class SentTurn:
    """What one send carried and what the backend answered."""

    capture: CaptureResult
    reply: TurnReply

    @property
    def pointer(self) -> AmbientPointer | None:
        """The pointer the backend received, or None when no header was sent."""
        return self.capture.pointer

    @property
    def dropped(self) -> DropReason | None:
        """Why no header was sent, or None when one was."""
        return self.capture.dropped

    @property
    def header_bytes(self) -> int:
        """Size of the ``X-Ambient-Note`` value sent (0 when none)."""
        return self.capture.header_bytes


def send_turn(
    client: BackendClient,
    store: AmbientStore,
    flush: Flush,
    *,
    session: KeySession | None,
    conversation: str,
    message: str,
    include: bool = True,
    clock: Clock | None = None,
    limit: float = FLUSH_LIMIT_SECONDS,
    wait: FutureWaiter = wait_for_future,
) -> SentTurn:
    """Resolve and capture the pointer afresh (R9), then post the turn with it.

    Call on the thread that owns ``store``; it blocks for the bounded flush and
    the network, so never on a GUI thread. A discarded or oversized capture
    still sends the turn, without the header (R13, R15). Backend failures raise
    :class:`bridge.errors.BackendError`.
    """
    capture = capture_pointer(store, flush, clock, include=include, limit=limit, wait=wait)
    reply = client.post_turn(conversation, message, session=session, ambient_header=capture.header)
    return SentTurn(capture=capture, reply=reply)
