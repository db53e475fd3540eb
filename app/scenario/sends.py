"""What a scenario's send did: the pointer as decoded from the header, the reply, the row."""

from __future__ import annotations

from typing import Any

from app.scenario.report import SendRecord
from app.scenario.steps import SendStep
from app.session import AppSession
from bridge.pointer import AmbientPointer, decode_header
from renderer.ambient.turns import TurnRecord
from renderer.frames.assistant.turn_view import turn_notices


def observe_send(
    number: str, step: SendStep, record: TurnRecord, ran: bool, session: AppSession
) -> SendRecord:
    """What one send did, as the report and the expectations see it."""
    capture = record.capture
    pointer: dict[str, Any] | None = None
    if capture.header is not None:
        # R14: what the backend receives is the header; check it decodes to a pointer.
        decoded = decode_header(capture.header)
        pointer = (
            decoded.model_dump(exclude_none=True)
            if isinstance(decoded, AmbientPointer)
            else {"undecodable": decoded.reason}
        )
    reply = record.reply
    return SendRecord(
        step=number,
        message=step.message,
        include_ambient=step.include_ambient,
        pointer=pointer,
        dropped=capture.dropped,
        header_bytes=record.header_bytes,
        flushed=record.flushed,
        ambient_status=None if reply is None else reply.ambient.status,
        ambient_reason=None if reply is None else reply.ambient.reason,
        tools=[] if reply is None else [call.name for call in reply.tool_calls],
        tool_results=[]
        if reply is None
        else [
            {"name": call.name, "arguments": call.arguments, "result": call.result}
            for call in reply.tool_calls
        ],
        caveats=record.caveats,
        reply=None if reply is None else reply.reply,
        error=record.error,
        stored=read_delivery(session, record.conversation),
        during_flush_ran=ran,
        # Beside the reply too: a popped-out note read from its saved copy (R29, R25).
        notices=[*turn_notices(record), *record.elsewhere_caveats],
    )


def read_delivery(session: AppSession, conversation: str) -> dict[str, Any] | None:
    """The delivery row as the backend holds it now (not as the client thinks it sent it)."""
    row = session.client().get_delivery(session.link.session, conversation)
    return None if row is None else dict(row)
