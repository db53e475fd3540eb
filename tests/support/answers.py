"""Wire answers built in tests, as the backend would send them (bridge/wire.py's models)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bridge.wire import (
    AmbientAnswer,
    AmbientState,
    ConversationMessage,
    TurnAnswer,
    TurnAssistant,
    TurnToolCall,
)


def tool_call(name: str, arguments: dict[str, Any], result: dict[str, Any]) -> TurnToolCall:
    return TurnToolCall(name=name, arguments=arguments, result=result)


def turn_answer(
    reply: str,
    calls: Sequence[TurnToolCall] = (),
    status: AmbientState = "absent",
    reason: str | None = None,
) -> TurnAnswer:
    """An offline assistant's answer with no proposal."""
    return TurnAnswer(
        reply=reply,
        tool_calls=list(calls),
        proposals=[],
        ambient=AmbientAnswer(status=status, reason=reason),
        assistant=TurnAssistant(kind="offline", model=None),
    )


def kept_reply(text: str, at: str = "2026-11-29T19:00:00.000Z") -> ConversationMessage:
    """A kept assistant message with no tools and no proposals."""
    return ConversationMessage(role="assistant", text=text, at=at, tool_calls=[], proposals=[])
