"""What a turn does with the ``X-Ambient-Note`` header: its typed status (R18, R48).

The decision is made once, on the event loop, from the header values, whether the
turn came with a key session and whether the user left the note out; the turn
runner stores the pointer only when the status is ``stored``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bridge.pointer import AmbientPointer, decode_header
from bridge.wire import AmbientState
from workers import messages

PRIVATE_NOTE: Final = "private_note"
"""R86: the reason a pointer naming a private note is rejected (contract 14)."""


@dataclass(frozen=True)
class AmbientStatus:
    """The turn response's ``ambient`` field (contract 4)."""

    status: AmbientState
    reason: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"status": self.status, "reason": self.reason}


@dataclass(frozen=True)
class AmbientDecision:
    """The pointer a turn stores (``None`` unless ``stored``) and the status it reports."""

    pointer: AmbientPointer | None
    status: AmbientStatus


def decide_ambient(
    header_values: Sequence[str],
    *,
    has_key_session: bool,
    note_left_out: bool,
    note_private: bool = False,
) -> AmbientDecision:
    """R18: decode the header (anything wrong is a rejection, never an error).

    R48: the user's choice to leave the note out wins over any header. Without a
    key session nothing is stored, whatever the header said.
    """
    decision = _from_header(header_values)
    if note_left_out:
        decision = AmbientDecision(None, AmbientStatus("absent", messages.AMBIENT_LEFT_OUT))
    if note_private:  # R86: the app found "this note" private; any header is not kept
        decision = AmbientDecision(None, AmbientStatus("absent", messages.AMBIENT_PRIVATE))
    if not has_key_session:
        status = decision.status
        if status.status != "absent":
            status = AmbientStatus("absent", messages.AMBIENT_NO_KEY_SESSION)
        decision = AmbientDecision(None, status)
    return decision


def _from_header(values: Sequence[str]) -> AmbientDecision:
    if not values:
        return AmbientDecision(None, AmbientStatus("absent"))
    if len(values) > 1:
        return AmbientDecision(None, AmbientStatus("rejected", messages.AMBIENT_SEVERAL_HEADERS))
    decoded = decode_header(values[0])
    if isinstance(decoded, AmbientPointer):
        return AmbientDecision(decoded, AmbientStatus("stored"))
    return AmbientDecision(None, AmbientStatus("rejected", decoded.reason))
