"""Why a send carries no ``X-Ambient-Note`` header, in words both realms share (R6, R13, R15).

The first four reasons and ``private`` (R86: "this note" is in ``.aiexclude``) are the
contract's words. ``invalid`` covers a path or
frame id the pointer model refuses (one the document API could never serve), so
a malformed handle never crashes a send. ``loading`` is a note whose text had
not arrived from the backend within the send's 1.5 s bound: a frame that has
not loaded is never read for a pointer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from bridge.contract import MAX_HEADER_BYTES
from bridge.privacy import CHIP_PRIVATE

DropReason = Literal[
    "no-inbox", "oversize", "discarded", "excluded", "invalid", "loading", "private"
]

DROP_REASONS: tuple[DropReason, ...] = get_args(DropReason)

DROP_MESSAGES: Mapping[DropReason, str] = {
    "no-inbox": "No Inbox note is open, so no note context was sent.",
    "oversize": (
        f"The note pointer would be larger than {MAX_HEADER_BYTES:,} bytes, "
        "so no note context was sent."
    ),
    "discarded": (
        "The open note or the workspace changed while the message was being prepared, "
        "so no note context was sent."
    ),
    "excluded": "The note was left out of this message.",
    "invalid": "The open note's path can't be named to the assistant, so no note context was sent.",
    "loading": (
        "The open note was still loading when the message was sent, so no note context was sent."
    ),
    "private": CHIP_PRIVATE + ", so no note context was sent.",
}


def describe_drop(reason: DropReason) -> str:
    """A sentence a UI can show as is for why no note context was sent."""
    return DROP_MESSAGES[reason]
