"""A model's answer as the SDK hands it over, whole or streamed in pieces (R31, R57).

Either way the answer is its text, made storable, and the tool calls it asks for;
nothing a server sends (no choices, a null delta, a tool name repeated in every
piece) stops the reading.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from bridge.agent import DeltaEvent
from workers.assistants import AssistantEvent
from workers.conversations import storable


class NotStreamed:
    """The endpoint refused or dropped a streamed answer before any of its text arrived."""


NOT_STREAMED: Final = NotStreamed()


@dataclass
class RequestedCall:
    """One tool call the model asked for, its arguments still the text it sent."""

    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass
class Answer:
    content: str = ""
    calls: list[RequestedCall] = field(default_factory=list)


def whole_answer(message: Any) -> Answer:
    """The answer in an unstreamed completion's message; ``content: null`` is empty text."""
    answer = Answer(content=storable(message.content or ""))
    for index, requested in enumerate(message.tool_calls or []):
        function = getattr(requested, "function", None)
        answer.calls.append(
            RequestedCall(
                id=requested.id or f"call_{index}",
                name=(function.name if function else "") or "",
                arguments=(function.arguments if function else "") or "",
            )
        )
    return answer


def streamed_answer(
    chunks: Iterable[Any], answer: Answer, separator: list[str], cancelled: Callable[[], bool]
) -> Generator[AssistantEvent, None, int | None]:
    """Read a stream into ``answer``, yielding its text as it comes.

    Returns the number of pieces read, or None once ``cancelled()`` says the turn
    stopped. The first text is led by ``separator``'s one entry, if any.
    """
    by_index: dict[int, RequestedCall] = {}
    pieces = 0
    for chunk in chunks:
        pieces += 1
        if cancelled():
            return None
        if not chunk.choices:
            continue  # usage or keep-alive pieces carry no choice
        delta = chunk.choices[0].delta
        if delta is None:
            continue
        if delta.content:
            text = storable(delta.content)
            answer.content += text
            yield DeltaEvent(separator.pop() + text if separator else text)
        for position, piece in enumerate(delta.tool_calls or []):
            index = piece.index if isinstance(piece.index, int) else position
            requested = by_index.setdefault(index, RequestedCall(id=f"call_{index}"))
            requested.id = piece.id or requested.id
            if piece.function is not None:
                requested.name = joined_name(requested.name, piece.function.name or "")
                requested.arguments += piece.function.arguments or ""
    answer.calls = [by_index[index] for index in sorted(by_index)]
    return pieces


def joined_name(name: str, piece: str) -> str:
    """A streamed tool name: OpenAI sends it once, llama-cpp-python's server in every piece."""
    return name if piece == name else name + piece
